#!/bin/sh
# SPDX-License-Identifier: MIT
# mhz: the classic line on stdout (or "too noisy" and exit 1), -c, --json,
# bad input (no -P, -W or -N) and SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/mhz

# On a quiet machine the clock; on a busy one an explicit "too noisy".
run "$CMD"
if [ "$RC" = 0 ]; then
    one_line_like "$OUT" '^[0-9]+ MHz, [0-9]+\.[0-9]{4} nanosec clock$' \
        "stdout is exactly '<N> MHz, X.XXXX nanosec clock'"
    is "$ERR" "" "nothing on stderr"
    mhz=${OUT%% *}
    ns=$(printf '%s\n' "$OUT" | sed 's/.*, \([0-9.]*\) nanosec clock/\1/')
    check "the period is 1000 / MHz ($mhz MHz, $ns ns)" awk -v m="$mhz" -v n="$ns" \
        'BEGIN { d = 1000 / m - n; exit !(d < 0.0005 && d > -0.0005 && m > 0) }'
    check "a clock between 10 MHz and 10 GHz ($mhz)" awk -v m="$mhz" 'BEGIN { exit !(m >= 10 && m <= 10000) }'
else
    is "$RC" 1 "too noisy: exit status 1"
    like "$ERR" '^mhz: failed: too noisy to tell: .+' "too noisy: said on stderr"
    is "$OUT" "" "too noisy: nothing on stdout"
    skip "period: the system was too noisy"
fi

run "$CMD" -c
if [ "$RC" = 0 ]; then
    one_line_like "$OUT" '^[0-9]+\.[0-9]{4}$' "-c: stdout is exactly the period 'X.XXXX'"
else
    like "$ERR" '^mhz: failed: too noisy to tell: .+' "-c: too noisy, said on stderr"
fi

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: mhz \[-c\]$' "--help: the usage line"

if json_usable; then
    run_json "$CMD" --json
    json_checks "$T/json" <<'JQ'
--json: one record of mhz, case null, unit MHz, metric frequency, better higher
    .results | length == 1 and (.[0] | .benchmark == "mhz" and .case == null and .unit == "MHz"
    and .metric == "frequency" and .better == "higher")
--json: ok with 11 samples and the median as value, or failed (too noisy) with a reason
    .results[0] | (.status == "ok" and (.samples | length == 11) and .value == .stats.median
    and .value > 0) or (.status == "failed" and (.reason | startswith("too noisy")) and .value == null)
--json: the exit status agrees with the record
    (.run.status == "ok") == (.results[0].status == "ok")
JQ
else
    skip "--json: jq missing or built without jansson"
fi

usage_error mhz "$CMD" extra
usage_error mhz "$CMD" -N 3
usage_error mhz "$CMD" -P 2
usage_error mhz "$CMD" -W 10
usage_error mhz "$CMD" -x
usage_error mhz env ENOUGH=abc "$CMD"

hw_interrupt "SIGINT" 2 "$CMD" --min-time 0.5

done_testing
