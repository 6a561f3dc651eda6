#!/bin/sh
# SPDX-License-Identifier: MIT
# tlb: "tlb: N pages" (or no step found), -c, -L, -M, --json, bad input, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/tlb

# Up to 1 MiB of pages (256 with 4 KiB pages): enough for a first level of 64
# to 96 entries; a machine so noisy that no step shows says so.
run "$CMD" -N 3 -M 1m
ok $([ "$RC" = 0 ] || [ "$RC" = 1 ]; echo $?) "-M 1m: exit status 0 or 1"
is "$OUT" "" "-M 1m: nothing on stdout"
if [ "$RC" = 0 ]; then
    like "$ERR" '^tlb: [0-9]+ pages$' "-M 1m: 'tlb: N pages'"
else
    like "$ERR" '^tlb: .*failed: ' "-M 1m: failed, with a reason"
fi
all_like "$ERR" '^tlb: ' "-M 1m: every line starts with 'tlb: '"

run "$CMD" -N 3 -M 512k -c
ok $({ [ "$RC" = 0 ] && printf '%s\n' "$ERR" | grep -Eq '^tlb: [0-9]+ pages -?[0-9]+\.[0-9]{5} nanoseconds$'; } ||
     { [ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'failed'; }; echo $?) \
    "-c: 'tlb: N pages X.XXXXX nanoseconds' (or failed)"

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: tlb \[-W <warmup>\] \[-N <repetitions>\] \[--pages default\|4k\|thp\|2m\|1g\] \[-c\] \[-L <line>\] \[-M <len>\]$' \
    "--help: the usage line"

if json_usable; then
    run_json "$CMD" -N 3 -M 512k --json
    json_checks "$T/json" <<'JQ'
--json: records of tlb, params level and quantity; case null only for the first level's entries
    .results | length >= 1 and all(.[]; .benchmark == "tlb"
    and (.params.level | . >= 1) and (.params.quantity | IN("entries", "miss"))
    and ((.case == null) == (.params.level == 1 and .params.quantity == "entries"))
    and (.case == null or .case == "level"))
--json: entries in pages (metric size), miss in ns (latency)
    .results | all(.[]; if .params.quantity == "entries" then .unit == "pages" and .metric == "size"
    else .unit == "ns" and .metric == "latency" end)
--json: the first level's entries is ok with a whole number of pages, or failed with a reason
    [.results[] | select(.params.level == 1 and .params.quantity == "entries")][0]
    | (.status == "ok" and .value >= 1 and (.value | floor) == .value)
    or (.status == "failed" and (.reason | length > 0))
JQ
else
    skip "--json: jq missing or built without jansson"
fi

usage_error tlb "$CMD" extra
usage_error tlb "$CMD" -L 3
usage_error tlb "$CMD" -L 0
usage_error tlb "$CMD" -L abc
usage_error tlb "$CMD" -M 4k
usage_error tlb "$CMD" -M abc
usage_error tlb "$CMD" -P 2
hw_bad_common tlb "$CMD"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

# --- pages: --pages default|4k|thp|2m|1g -------------------------------------------------
# (the shared checks: hw_pages_checks in lib-hw.sh)
hw_pages_checks tlb "$CMD" 16 "-M 512k" "-M 32m" ""

done_testing
