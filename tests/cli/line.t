#!/bin/sh
# SPDX-License-Identifier: MIT
# line: the line size on stdout (or an explicit "no clear step"), -v, -M,
# --json, bad input and SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/line

run "$CMD" -N 3
if [ "$RC" = 0 ]; then
    one_line_like "$OUT" '^(8|16|32|64|128|256)$' "stdout is exactly the line size, 8 to 256"
    unlike "$ERR" 'failed' "no failure on stderr"
else
    is "$RC" 1 "no clear step: exit status 1"
    like "$ERR" '^line: .*failed: no clear step .*distance:ns' "no clear step: says so, with the figures"
fi

run "$CMD" -N 3 -v
if [ "$RC" = 0 ]; then
    one_line_like "$OUT" '^cache line size: (8|16|32|64|128|256) bytes$' "-v: 'cache line size: N bytes'"
else
    like "$ERR" 'no clear step' "-v: or no clear step"
fi

run "$CMD" -N 3 -M 64k
ok $({ [ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -Eqx '[0-9]+'; } ||
     { [ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'no clear step'; }; echo $?) \
    "-M 64k: a line size or no clear step"

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: line \[-W <warmup>\] \[-N <repetitions>\] \[-v\] \[-M <len>\]$' \
    "--help: the usage line"

if json_usable; then
    run_json "$CMD" -N 3 --json
    json_checks "$T/json" <<'JQ'
--json: one record of line, case null, unit bytes, metric size
    .results | length == 1 and (.[0] | .benchmark == "line" and .case == null and .unit == "bytes"
    and .metric == "size")
--json: params size_bytes (the working set) and declared_bytes
    .results[0].params | (.size_bytes | . >= 65536) and (.declared_bytes | type == "number")
--json: ok with the line as value, or failed with a reason
    .results[0] | (.status == "ok" and (.value | IN(8, 16, 32, 64, 128, 256)))
    or (.status == "failed" and (.reason | length > 0) and .value == null)
JQ
else
    skip "--json: jq missing or built without jansson"
fi

usage_error line "$CMD" extra
usage_error line "$CMD" -M 1k
usage_error line "$CMD" -M abc
usage_error line "$CMD" -M
usage_error line "$CMD" -P 2
hw_bad_common line "$CMD"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

done_testing
