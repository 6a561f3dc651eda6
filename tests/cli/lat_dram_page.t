#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_dram_page: the difference on stderr (or skipped without huge pages),
# --json, bad input, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/lat_dram_page

run "$CMD" -N 3
case $RC in
0)
    one_line_like "$ERR" '^[0-9]+\.[0-9]{6}$' "one line '%f' on stderr, never negative"
    is "$OUT" "" "nothing on stdout"
    ;;
3)
    like "$ERR" 'skipped: (needs transparent huge pages|huge pages do not keep TLB misses out)' \
        "skipped: no (useful) huge pages, and said so"
    skip "no huge pages: no figure"
    ;;
*)
    is "$RC" 1 "huge pages refused, or the difference refused: exit status 1"
    like "$ERR" 'huge pages|failed: (not positive|too noisy): ' \
        "huge pages refused, or a difference not positive or in the noise: said so"
    unlike "$ERR" '^-?[0-9]+\.[0-9]+$' "no figure printed"
    ;;
esac

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: lat_dram_page \[-W <warmup>\] \[-N <repetitions>\]$' "--help: the usage line"

if json_usable; then
    run_json "$CMD" -N 3 --json
    json_checks "$T/json" <<'JQ'
--json: one record of lat_dram_page, case null, unit ns, params.size_bytes
    .results | length == 1 and (.[0] | .benchmark == "lat_dram_page" and .case == null
    and .unit == "ns" and (.params.size_bytes | . >= 67108864))
--json: ok with a positive value, or skipped or failed with a reason
    .results[0] | (.status == "ok" and (.value | type == "number") and .value > 0)
    or ((.status == "skipped" or .status == "failed") and (.reason | length > 0))
JQ
else
    skip "--json: jq missing or built without jansson"
fi

# One or two repetitions leave no spread to judge the difference by: refused,
# never an ok figure (it printed -390 ns as ok with -N 1).
for n in 1 2; do
    run "$CMD" -N $n
    is "$RC" 1 "-N $n: exit status 1"
    like "$ERR" "failed: -N $n cannot be judged: .*needs -N 3 or more" "-N $n: refused, and why"
    unlike "$ERR" '^-?[0-9]+\.[0-9]+$' "-N $n: no figure printed"
done

usage_error lat_dram_page "$CMD" extra
usage_error lat_dram_page "$CMD" -P 2
hw_bad_common lat_dram_page "$CMD"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

done_testing
