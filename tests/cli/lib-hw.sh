# SPDX-License-Identifier: MIT
# tests/cli/lib-hw.sh: helpers shared by the tests of the processor and memory
# commands (lat_ops, par_ops, mhz, line, cache, tlb, par_mem, stream, memsize,
# lat_rand, lat_dram_page; hw_pages_checks also for lat_mem_rd and bw_mem).
# Sourced after lib.sh.

# hw_interrupt DESC MINPROCS CMD [ARGS...]: starts CMD in the background (with
# a tag), waits until MINPROCS processes carry the tag (the command and its
# measuring copies), sends SIGINT, and checks that the command dies of it
# (exit 130) and leaves no process behind.
hw_interrupt() {
    _desc=$1
    _min=$2
    shift 2
    _tag=$(new_tag)
    start_bg "$_tag" "$@"
    wait_for "$_desc processes" 100 tagged_count_at_least "$_tag" "$_min"
    ok $? "$_desc: the command and its copies are running"
    kill -INT "$BG"
    wait_bg
    is "$BG_RC" 130 "$_desc: SIGINT ends the command (exit 130)"
    no_process_left "$_tag" "$_desc: no process left behind" 10
}

# hw_bad_common NAME CMD: the common options a command rejects or misuses.
hw_bad_common() {
    _name=$1
    _cmd=$2
    usage_error "$_name" "$_cmd" -N 0
    usage_error "$_name" "$_cmd" -N abc
    usage_error "$_name" "$_cmd" --bogus
    usage_error "$_name" "$_cmd" -Z
    usage_error "$_name" "$_cmd" --timeout -1
    usage_error "$_name" env ENOUGH=abc "$_cmd"
    usage_error "$_name" env LMBENCH_SCHED=nope "$_cmd"
}

# hw_positive TEXT DESC: every number in the last field of each line of TEXT
# (a classic value) is a positive number.
hw_positive() {
    if [ -n "$1" ] && printf '%s\n' "$1" | awk '{ v = $NF; if ($NF == "nanoseconds" || $NF == "MB/sec") v = $(NF - 1); if (!(v + 0 > 0)) exit 1 }'; then
        pass "$2"
    else
        fail "$2"
        diag_text "text" "$1"
    fi
}

# hw_pages_checks NAME CMD NEED2M SMALL LARGE [ONEG]: the --pages checks that
# lat_mem_rd, tlb, bw_mem and par_mem share. SMALL and LARGE are the
# arguments (blank-separated words) of a small run and of one large enough
# for huge pages; NEED2M the 2 MiB pages LARGE needs; ONEG those of the
# --pages 1g run (default LARGE; tlb's -M must then be 16 GiB or more). A fake sysfs
# (LMBENCH_SYSFS) makes the skips deterministic: no 2 MiB pages reserved,
# transparent huge pages "never"; the real system's 2 MiB pages are used
# where enough are reserved and free, else the skip is checked.
hw_pages_checks() {
    _pn=$1 _pcmd=$2 _pneed=$3 _psmall=$4 _plarge=$5 _ponegig=${6-$5}
    # shellcheck disable=SC2086 # SMALL and LARGE are word lists
    {
    usage_error "$_pn" "$_pcmd" --pages huge $_plarge
    usage_error "$_pn" "$_pcmd" --pages '' $_plarge
    usage_error "$_pn" "$_pcmd" $_plarge --pages
    run "$_pcmd" --pages 4K $_plarge
    like "$ERR" "^$_pn: --pages: unknown page choice '4K' \\(expected one of default\\|4k\\|thp\\|2m\\|1g\\)\$" \
        "--pages 4K: the choices named (they are lower case)"
    _ps=$T/sys
    mkdir -p "$_ps/kernel/mm/hugepages/hugepages-2048kB" "$_ps/kernel/mm/transparent_hugepage"
    echo 0 >"$_ps/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
    echo 0 >"$_ps/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
    echo 'always madvise [never]' >"$_ps/kernel/mm/transparent_hugepage/enabled"
    run env LMBENCH_SYSFS="$_ps" "$_pcmd" --pages 2m $_plarge
    is "$RC" 3 "--pages 2m, none reserved (fake sysfs): exit 3, skipped"
    like "$ERR" "^$_pn: .*pages=2m.*: skipped: no 2 MiB huge pages reserved \\(.*nr_hugepages is 0; reserve them as root: echo N > /proc/sys/vm/nr_hugepages" \
        "--pages 2m, none reserved: says so and how to reserve them"
    run env LMBENCH_SYSFS="$_ps" "$_pcmd" --pages thp $_plarge
    is "$RC" 3 "--pages thp, THP never (fake sysfs): exit 3, skipped"
    like "$ERR" "^$_pn: .*: skipped: transparent huge pages are off here \\(.*/enabled: always madvise \\[never\\]\\)" \
        "--pages thp, THP never: the setting read"
    run env LMBENCH_SYSFS="$_ps/none" "$_pcmd" --pages 1g $_ponegig
    is "$RC" 3 "--pages 1g, no such page size (fake sysfs): exit 3"
    like "$ERR" ": skipped: this kernel or processor has no 1 GiB huge pages" "--pages 1g, no such page size: says so"
    _pfree=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)
    if [ "$_pfree" -lt "$_pneed" ]; then
        run "$_pcmd" --pages 2m $_plarge
        ok $([ "$RC" = 3 ] && printf '%s\n' "$ERR" | grep -Eq ': skipped: (no 2 MiB huge pages reserved|needs [0-9]+ 2 MiB huge pages|this kernel or processor has no 2 MiB)'; echo $?) \
            "--pages 2m here ($_pfree free): skipped with the reason"
    fi
    if ! json_usable; then
        skip "--pages in --json: jq missing or built without jansson"
        return 0
    fi
    _pbase=$(getconf PAGESIZE)
    run_json "$_pcmd" -N 1 --json $_psmall
    json_checks "$T/json" <<JQ
no --pages (as --pages 4k): pages "4k", run.config.pages "4k"; where the backing is recorded, $_pbase-byte pages, none huge
    (.results | length > 0 and all(.[]; .params.pages == "4k"
    and (.params.page_bytes == null or (.params.page_bytes == $_pbase and .params.huge_percent == 0))))
    and .run.config.pages == "4k"
JQ
    run_json "$_pcmd" -N 1 --json --pages=default $_psmall
    json_checks "$T/json" <<JQ
--pages=default: pages "default", run.config.pages "default"
    (.results | length > 0 and all(.[]; .params.pages == "default")) and .run.config.pages == "default"
JQ
    if grep -q '\[always\]\|\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
        run_json "$_pcmd" -N 1 --json --pages thp $_plarge
        json_checks "$T/json" <<'JQ'
--pages thp (THP available here): pages "thp"; 2 MiB pages all huge, or a warning with the share
    .results | length > 0 and all(.[]; .params.pages == "thp"
    and (.params.page_bytes == null or (.params.page_bytes == 2097152 and .params.huge_percent == 100)
         or (.warnings | any(test("asked for --pages thp; [0-9]+% of the buffer is on huge pages")))))
--pages thp: the page size obtained recorded on every measured record
    [.results[] | select(.status == "ok")] | all(.[]; .params.page_bytes > 0 and (.params.huge_percent | . >= 0 and . <= 100))
JQ
    else
        skip "--pages thp: transparent huge pages are not available here"
    fi
    if [ "$_pfree" -ge "$_pneed" ]; then
        run_json "$_pcmd" -N 1 --json --pages 2m $_plarge
        json_checks "$T/json" <<'JQ'
--pages 2m (reserved here): pages "2m", on 2 MiB pages all huge
    .results | length > 0 and all(.[]; .params.pages == "2m"
    and (.params.page_bytes == null or (.params.page_bytes == 2097152 and .params.huge_percent == 100)))
JQ
    else
        skip "--pages 2m: only $_pfree 2 MiB huge pages free here"
    fi
    }
}
