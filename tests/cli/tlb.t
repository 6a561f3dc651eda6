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
# PAGES_ARGS: a small run. A fake sysfs (LMBENCH_SYSFS) makes the skips
# deterministic: no 2 MiB pages reserved, transparent huge pages "never".
usage_error tlb "$CMD" --pages huge -M 32m
usage_error tlb "$CMD" --pages '' -M 32m
usage_error tlb "$CMD" -M 32m --pages
run "$CMD" --pages 4K -M 32m
like "$ERR" "^tlb: --pages: unknown page choice '4K' \\(expected one of default\\|4k\\|thp\\|2m\\|1g\\)\$" \
    "--pages 4K: the choices named (they are lower case)"
S=$T/sys
mkdir -p "$S/kernel/mm/hugepages/hugepages-2048kB" "$S/kernel/mm/transparent_hugepage"
echo 0 >"$S/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
echo 0 >"$S/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
echo 'always madvise [never]' >"$S/kernel/mm/transparent_hugepage/enabled"
run env LMBENCH_SYSFS="$S" "$CMD" --pages 2m -M 32m
is "$RC" 3 "--pages 2m, none reserved (fake sysfs): exit 3, skipped"
like "$ERR" "^tlb: .*pages=2m.*: skipped: no 2 MiB huge pages reserved \\(.*nr_hugepages is 0; reserve them as root: echo N > /proc/sys/vm/nr_hugepages" \
    "--pages 2m, none reserved: says so and how to reserve them"
run env LMBENCH_SYSFS="$S" "$CMD" --pages thp -M 32m
is "$RC" 3 "--pages thp, THP never (fake sysfs): exit 3, skipped"
like "$ERR" "^tlb: .*: skipped: transparent huge pages are off here \\(.*/enabled: always madvise \\[never\\]\\)" \
    "--pages thp, THP never: the setting read"
run env LMBENCH_SYSFS="$S/none" "$CMD" --pages 1g
is "$RC" 3 "--pages 1g, no such page size (fake sysfs): exit 3"
like "$ERR" ": skipped: this kernel or processor has no 1 GiB huge pages" "--pages 1g, no such page size: says so"
# The real system: 2 MiB pages where enough are reserved and free, else the skip.
H2=/sys/kernel/mm/hugepages/hugepages-2048kB
free2=$(cat "$H2/free_hugepages" 2>/dev/null || echo 0)
if [ "$free2" -lt 16 ]; then
    run "$CMD" --pages 2m -M 32m
    ok $([ "$RC" = 3 ] && printf '%s\n' "$ERR" | grep -Eq ': skipped: (no 2 MiB huge pages reserved|needs [0-9]+ 2 MiB huge pages|this kernel or processor has no 2 MiB)'; echo $?) \
        "--pages 2m here ($free2 free): skipped with the reason"
fi
if json_usable; then
    base=$(getconf PAGESIZE)
    run_json "$CMD" -N 1 --json -M 512k
    json_checks "$T/json" <<JQ
no --pages (as --pages 4k): pages "4k", run.config.pages "4k"; where the backing is recorded, $base-byte pages, none huge
    (.results | length > 0 and all(.[]; .params.pages == "4k"
    and (.params.page_bytes == null or (.params.page_bytes == $base and .params.huge_percent == 0))))
    and .run.config.pages == "4k"
JQ
    run_json "$CMD" -N 1 --json --pages=default -M 512k
    json_checks "$T/json" <<JQ
--pages=default: pages "default", run.config.pages "default"
    (.results | length > 0 and all(.[]; .params.pages == "default")) and .run.config.pages == "default"
JQ
    if grep -q '\[always\]\|\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
        run_json "$CMD" -N 1 --json --pages thp -M 32m
        json_checks "$T/json" <<'JQ'
--pages thp (THP available here): pages "thp"; 2 MiB pages all huge, or a warning with the share
    .results | length > 0 and all(.[]; .params.pages == "thp"
    and (.params.page_bytes == null or (.params.page_bytes == 2097152 and .params.huge_percent == 100)
         or (.warnings | any(test("asked for --pages thp; [0-9]+% of the buffer is on huge pages")))))
JQ
        
    else
        skip "--pages thp: transparent huge pages are not available here"
    fi
    if [ "$free2" -ge 16 ]; then
        run_json "$CMD" -N 1 --json --pages 2m -M 32m
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
