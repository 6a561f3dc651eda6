#!/bin/sh
# SPDX-License-Identifier: MIT
# cache: the level lines on a short sweep, --json records, bad input, the
# time budget of the default sweep is not tested here (make bench), SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/cache
LEVEL='^L[1-9] cache: [0-9]+ bytes [0-9]+\.[0-9]{2} nanoseconds [0-9]+ linesize [0-9]+\.[0-9]{2} parallelism$'
MEM='^Memory latency: [0-9]+\.[0-9]{2} nanoseconds [0-9]+\.[0-9]{2} parallelism$'

# A sweep up to 256k: the first level at most, memory out of reach.
run "$CMD" -N 3 -M 256k
ok $([ "$RC" = 0 ] || [ "$RC" = 1 ]; echo $?) "-M 256k: exit status 0 or 1 (a failed part)"
is "$OUT" "" "-M 256k: nothing on stdout"
all_like "$ERR" "($LEVEL|$MEM|^cache: .+)" "-M 256k: every line a level line, the memory line or a 'cache:' message"
like "$ERR" '^cache: memory .*skipped: the sweep did not reach memory' "-M 256k: memory not reached, and said so"
unlike "$ERR" "$MEM" "-M 256k: no memory line"

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: cache \[-W <warmup>\] \[-N <repetitions>\] \[-L <line>\] \[-M <len>\]$' \
    "--help: the usage line"

if json_usable; then
    run_json "$CMD" -N 3 -M 128k --json
    json_checks "$T/json" <<'JQ'
--json: records of cache, cases level and memory
    .results | length >= 1 and all(.[]; .benchmark == "cache" and (.case == "level" or .case == "memory"))
--json: every record has a quantity, and a level unless it is memory
    .results | all(.[]; (.params.quantity | IN("size", "latency", "line", "parallelism"))
    and ((.case == "memory") or (.params.level | . >= 1)))
--json: units follow the quantity
    .results | all(.[]; {"size": "bytes", "latency": "ns", "line": "bytes", "parallelism": "x"}[.params.quantity] == .unit)
--json: a level has its four quantities, size last
    [.results[] | select(.case == "level") | .params.quantity] as $q
    | ($q | length) % 4 == 0 and ([range(0; $q | length; 4)] | all(.[]; $q[. + 3] == "size"))
--json: memory latency is skipped with a reason (the sweep stops at 128k)
    [.results[] | select(.case == "memory")] | length == 1 and .[0].status == "skipped"
    and (.[0].reason | length > 0)
JQ
else
    skip "--json: jq missing or built without jansson"
fi

# The memory guard counts the chain's visit order (4 bytes an element: half
# the buffer with -L 8) with the buffer (issue 15): -M 160m needs 240 MiB, in a
# 256 MiB memory cgroup refused at once, never left to the OOM killer.
. "$(dirname "$0")/lib-cgroup.sh"
if memcg_make 256m; then
    memcg_refused cache "-L 8 -M 160m in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -L 8 -M 160m -N 1
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
fi

usage_error cache "$CMD" extra
usage_error cache "$CMD" -L 10
usage_error cache "$CMD" -L 0
usage_error cache "$CMD" -L 1m
usage_error cache "$CMD" -L abc
usage_error cache "$CMD" -M 1k
usage_error cache "$CMD" -M abc
usage_error cache "$CMD" -P 2
hw_bad_common cache "$CMD"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

done_testing
