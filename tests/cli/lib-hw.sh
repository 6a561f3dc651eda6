# SPDX-License-Identifier: MIT
# tests/cli/lib-hw.sh: helpers shared by the tests of the processor and memory
# commands (lat_ops, par_ops, mhz, line, cache, tlb, par_mem, stream, memsize,
# lat_rand, lat_dram_page). Sourced after lib.sh.

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
