#!/bin/sh
# SPDX-License-Identifier: MIT
# par_mem: rows of size and parallelism, -M, -L, --json, bad input, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/par_mem
ROW='^[0-9]+\.[0-9]{6} [0-9]+\.[0-9]{2}$'

run "$CMD" -N 3 -M 64k
ok $([ "$RC" = 0 ] || [ "$RC" = 1 ]; echo $?) "-M 64k: exit status 0 or 1 (too noisy at a size)"
is "$OUT" "" "-M 64k: nothing on stdout"
all_like "$ERR" "($ROW|^par_mem: \\(size_bytes=[0-9]+ chains=[0-9]+ pages=4k\\): failed: .+)" \
    "-M 64k: rows '%.6f %.2f' (or a failure with its size)"
sizes=$(printf '%s\n' "$ERR" | sed -n -e 's/^\([0-9.]*\) [0-9.]*$/\1/p' \
    -e 's/^par_mem: (size_bytes=\([0-9]*\) .*/\1/p' | awk '{ printf "%d\n", ($1 < 1 ? $1 * 1e6 : $1) + 0.5 }' | tr '\n' ' ')
is "$sizes" "1024 2048 4096 8192 16384 32768 65536 " "-M 64k: sizes 1k to 64k, doubling, in order"
rows=$(printf '%s\n' "$ERR" | grep -E "$ROW")
hw_positive "$rows" "every parallelism is positive"

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: par_mem \[-W <warmup>\] \[-N <repetitions>\] \[--pages default\|4k\|thp\|2m\|1g\] \[-L <line>\] \[-M <len>\]$' \
    "--help: the usage line"

if json_usable; then
    run_json "$CMD" -N 3 -M 16k --json
    json_checks "$T/json" <<'JQ'
--json: 5 records of par_mem, case null, sizes 1k to 16k
    [.results[] | .params.size_bytes] == [1024, 2048, 4096, 8192, 16384]
    and (.results | all(.[]; .benchmark == "par_mem" and .case == null))
--json: unit x, metric parallelism, params.chains from 1 to 16
    .results | all(.[]; .unit == "x" and .metric == "parallelism" and (.params.chains | . >= 1 and . <= 16))
--json: ok with a positive median, or failed with a reason
    .results | all(.[]; (.status == "ok" and .value > 0 and .value == .stats.median)
    or (.status == "failed" and (.reason | length > 0)))
JQ
else
    skip "--json: jq missing or built without jansson"
fi

# The memory guard counts the chain's visit order (4 bytes an element: half
# the buffer with a stride of 8) with the buffer: -L 8 -M 160m needs 240 MiB, in a
# 256 MiB memory cgroup refused at once, never left to the OOM killer.
. "$(dirname "$0")/lib-cgroup.sh"
if memcg_make 256m; then
    memcg_refused par_mem "-L 8 -M 160m in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -L 8 -M 160m -N 1
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
fi

usage_error par_mem "$CMD" extra
usage_error par_mem "$CMD" -M 512
usage_error par_mem "$CMD" -M abc
usage_error par_mem "$CMD" -L 10
usage_error par_mem "$CMD" -L 4k
usage_error par_mem "$CMD" -P 2
hw_bad_common par_mem "$CMD"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

# --- pages: --pages default|4k|thp|2m|1g -------------------------------------------------
# (the shared checks: hw_pages_checks in lib-hw.sh)
hw_pages_checks par_mem "$CMD" 1 "-M 16k" "-M 16k"

done_testing
