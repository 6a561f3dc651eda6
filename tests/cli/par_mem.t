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
# PAGES_ARGS: a small run. A fake sysfs (LMBENCH_SYSFS) makes the skips
# deterministic: no 2 MiB pages reserved, transparent huge pages "never".
usage_error par_mem "$CMD" --pages huge -M 16k
usage_error par_mem "$CMD" --pages '' -M 16k
usage_error par_mem "$CMD" -M 16k --pages
run "$CMD" --pages 4K -M 16k
like "$ERR" "^par_mem: --pages: unknown page choice '4K' \\(expected one of default\\|4k\\|thp\\|2m\\|1g\\)\$" \
    "--pages 4K: the choices named (they are lower case)"
S=$T/sys
mkdir -p "$S/kernel/mm/hugepages/hugepages-2048kB" "$S/kernel/mm/transparent_hugepage"
echo 0 >"$S/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
echo 0 >"$S/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
echo 'always madvise [never]' >"$S/kernel/mm/transparent_hugepage/enabled"
run env LMBENCH_SYSFS="$S" "$CMD" --pages 2m -M 16k
is "$RC" 3 "--pages 2m, none reserved (fake sysfs): exit 3, skipped"
like "$ERR" "^par_mem: .*pages=2m.*: skipped: no 2 MiB huge pages reserved \\(.*nr_hugepages is 0; reserve them as root: echo N > /proc/sys/vm/nr_hugepages" \
    "--pages 2m, none reserved: says so and how to reserve them"
run env LMBENCH_SYSFS="$S" "$CMD" --pages thp -M 16k
is "$RC" 3 "--pages thp, THP never (fake sysfs): exit 3, skipped"
like "$ERR" "^par_mem: .*: skipped: transparent huge pages are off here \\(.*/enabled: always madvise \\[never\\]\\)" \
    "--pages thp, THP never: the setting read"
run env LMBENCH_SYSFS="$S/none" "$CMD" --pages 1g -M 16k
is "$RC" 3 "--pages 1g, no such page size (fake sysfs): exit 3"
like "$ERR" ": skipped: this kernel or processor has no 1 GiB huge pages" "--pages 1g, no such page size: says so"
# The real system: 2 MiB pages where enough are reserved and free, else the skip.
H2=/sys/kernel/mm/hugepages/hugepages-2048kB
free2=$(cat "$H2/free_hugepages" 2>/dev/null || echo 0)
if [ "$free2" -lt 1 ]; then
    run "$CMD" --pages 2m -M 16k
    ok $([ "$RC" = 3 ] && printf '%s\n' "$ERR" | grep -Eq ': skipped: (no 2 MiB huge pages reserved|needs [0-9]+ 2 MiB huge pages|this kernel or processor has no 2 MiB)'; echo $?) \
        "--pages 2m here ($free2 free): skipped with the reason"
fi
if json_usable; then
    base=$(getconf PAGESIZE)
    run_json "$CMD" -N 1 --json -M 16k
    json_checks "$T/json" <<JQ
no --pages (as --pages 4k): pages "4k", run.config.pages "4k"; where the backing is recorded, $base-byte pages, none huge
    (.results | length > 0 and all(.[]; .params.pages == "4k"
    and (.params.page_bytes == null or (.params.page_bytes == $base and .params.huge_percent == 0))))
    and .run.config.pages == "4k"
JQ
    run_json "$CMD" -N 1 --json --pages=default -M 16k
    json_checks "$T/json" <<JQ
--pages=default: pages "default", run.config.pages "default"
    (.results | length > 0 and all(.[]; .params.pages == "default")) and .run.config.pages == "default"
JQ
    if grep -q '\[always\]\|\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
        run_json "$CMD" -N 1 --json --pages thp -M 16k
        json_checks "$T/json" <<'JQ'
--pages thp (THP available here): pages "thp"; 2 MiB pages all huge, or a warning with the share
    .results | length > 0 and all(.[]; .params.pages == "thp"
    and (.params.page_bytes == null or (.params.page_bytes == 2097152 and .params.huge_percent == 100)
         or (.warnings | any(test("asked for --pages thp; [0-9]+% of the buffer is on huge pages")))))
JQ
        
    else
        skip "--pages thp: transparent huge pages are not available here"
    fi
    if [ "$free2" -ge 1 ]; then
        run_json "$CMD" -N 1 --json --pages 2m -M 16k
        json_checks "$T/json" <<'JQ'
--pages 2m (reserved here): pages "2m", on 2 MiB pages all huge
    .results | length > 0 and all(.[]; .params.pages == "2m"
    and (.params.page_bytes == null or (.params.page_bytes == 2097152 and .params.huge_percent == 100)))
JQ
    else
        skip "--pages 2m: only $free2 2 MiB huge pages free here"
    fi
else
    skip "--pages in --json: jq missing or built without jansson"
fi

done_testing
