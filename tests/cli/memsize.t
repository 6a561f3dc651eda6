#!/bin/sh
# SPDX-License-Identifier: MIT
# memsize: the megabytes on stdout, --json, bad input (no common options).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/memsize

run "$CMD" 16
is "$RC" 0 "16: exit status 0"
one_line_like "$OUT" '^[0-9]+$' "16: stdout is one whole number"
check "16: between 1 and 16 MB ($OUT)" sh -c '[ "$1" -ge 1 ] && [ "$1" -le 16 ]' sh "${OUT:-0}"
is "$ERR" "" "16: nothing on stderr"

run "$CMD" 40
check "40: at most 40 MB, a multiple of the 16 MB step or 40 ($OUT)" \
    sh -c '[ "$1" = 40 ] || [ "$1" = 32 ] || [ "$1" = 16 ]' sh "${OUT:-0}"

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: memsize \[MB\]$' "--help: the usage line"

if json_usable; then
    run_json "$CMD" --json 8
    json_checks "$T/json" <<'JQ'
--json: one record of memsize, unit MB, metric size, params.asked_mb 8
    .results | length == 1 and (.[0] | .benchmark == "memsize" and .case == null and .unit == "MB"
    and .metric == "size" and .params.asked_mb == 8)
--json: ok, 8
    .results[0] | .status == "ok" and .value == 8
JQ
else
    skip "--json: jq missing or built without jansson"
fi

usage_error memsize "$CMD" 0
usage_error memsize "$CMD" -1
usage_error memsize "$CMD" abc
usage_error memsize "$CMD" 1.5
usage_error memsize "$CMD" 16 32
usage_error memsize "$CMD" -N 3 16
usage_error memsize "$CMD" -P 2 16
usage_error memsize "$CMD" --bogus

done_testing
