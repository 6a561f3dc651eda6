# SPDX-License-Identifier: MIT
# tests/cli/lib-cgroup.sh: a fresh memory cgroup for the tests of the memory
# guard, sourced after lib.sh (POSIX sh).
#
#   memcg_make 256m || skip "$MEMCG_WHY"   # MEMCG: the new cgroup's directory
#   memcg_run CMD ARGS...                   # run (lib.sh) inside it, bounded
#   memcg_refused NAME DESC CMD ARGS...     # refused at once by the guard, no OOM kill
#
# The cgroup is made under this process's own memory cgroup (v1: the memory
# controller's hierarchy, memory.limit_in_bytes; v2: the unified hierarchy,
# memory.max), and removed on every exit of the test (its processes killed
# first: only the ones the test moved there). Needs root, or a delegated
# cgroup; otherwise MEMCG_WHY says why there is none.

MEMCG=
MEMCG_WHY=

memcg_remove() {
    [ -n "$MEMCG" ] && [ -d "$MEMCG" ] || return 0
    _mi=0
    while [ "$_mi" -lt 50 ]; do
        for _mp in $(cat "$MEMCG/cgroup.procs" 2>/dev/null); do
            kill -KILL "$_mp" 2>/dev/null
        done
        rmdir "$MEMCG" 2>/dev/null && break
        sleep 0.1
        _mi=$((_mi + 1))
    done
    [ -d "$MEMCG" ] && echo "# could not remove the test cgroup $MEMCG" >&2
    MEMCG=
}
trap 'memcg_remove; _cleanup' EXIT

# memcg_make SIZE (bytes, or with k/m/g): sets MEMCG, or returns 1 with
# MEMCG_WHY.
memcg_make() {
    case $1 in
    *g) _mb=$(( ${1%g} * 1073741824 )) ;;
    *m) _mb=$(( ${1%m} * 1048576 )) ;;
    *k) _mb=$(( ${1%k} * 1024 )) ;;
    *) _mb=$1 ;;
    esac
    if [ "$(id -u)" != 0 ]; then
        MEMCG_WHY="not root: cannot make a memory cgroup"
        return 1
    fi
    _v1=$(sed -n 's/^[0-9]*:[^:]*\bmemory\b[^:]*://p' /proc/self/cgroup | head -n 1)
    _v2=$(sed -n 's/^0:://p' /proc/self/cgroup | head -n 1)
    if [ -n "$_v1" ] && [ -d "/sys/fs/cgroup/memory$_v1" ]; then
        _dir=/sys/fs/cgroup/memory${_v1%/}/lmb-test-$$
        _file=memory.limit_in_bytes
    elif [ -f /sys/fs/cgroup/cgroup.controllers ] && [ -n "$_v2" ]; then
        _dir=/sys/fs/cgroup${_v2%/}/lmb-test-$$
        _file=memory.max
    else
        MEMCG_WHY="no memory cgroup hierarchy here (neither v1 nor v2)"
        return 1
    fi
    if ! mkdir "$_dir" 2>/dev/null; then
        MEMCG_WHY="cannot make the cgroup $_dir"
        return 1
    fi
    MEMCG=$_dir
    if [ ! -f "$MEMCG/$_file" ] || ! echo "$_mb" >"$MEMCG/$_file" 2>/dev/null; then
        MEMCG_WHY="cannot set $_file in $MEMCG (memory controller not enabled there?)"
        memcg_remove
        return 1
    fi
    return 0
}

# The cgroup's OOM kills so far, or nothing when the kernel does not say.
memcg_oom_kills() {
    for _f in "$MEMCG/memory.events" "$MEMCG/memory.oom_control"; do
        if [ -r "$_f" ]; then
            sed -n 's/^oom_kill \([0-9]*\)$/\1/p' "$_f"
            return 0
        fi
    done
}

# memcg_run CMD ARGS...: as run, inside the cgroup, for at most 60 s.
memcg_run() {
    run timeout 60 sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$MEMCG" "$@"
}

# memcg_refused NAME DESC CMD ARGS...: inside the cgroup the command is refused
# by the memory guard: exit 1, "NAME: ... failed: ... needs X of memory",
# not killed (no 137, no 124), and no OOM kill in the cgroup.
memcg_refused() {
    _rname=$1
    _rdesc=$2
    shift 2
    _k0=$(memcg_oom_kills)
    memcg_run "$@"
    _k1=$(memcg_oom_kills)
    _why=
    [ "$RC" = 1 ] || _why="$_why exit status $RC (want 1; 137 = killed, 124 = ran 60 s);"
    printf '%s\n' "$ERR" | grep -Eq "^$_rname: .*failed: .*needs [0-9.]+ [MGT]iB of memory" ||
        _why="$_why no 'needs X of memory' refusal;"
    [ "$_k0" = "$_k1" ] || _why="$_why the OOM killer ran ($_k0 -> $_k1 kills);"
    if [ -z "$_why" ]; then
        pass "$_rdesc"
    else
        fail "$_rdesc"
        diag "$_why"
        diag_text "stderr" "$ERR"
    fi
}
