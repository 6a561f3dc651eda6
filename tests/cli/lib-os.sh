# SPDX-License-Identifier: MIT
# tests/cli/lib-os.sh: helpers for the tests of the operating-system benchmarks,
# sourced after lib.sh.
#
#   positive "$x" "description"             # x is a number > 0
#   failed_run NAME "description" CMD...    # exit 1, a failed status message, no result
#   interrupted NAME WATCHDIR "description" CMD...
#       # starts CMD (with TMPDIR=WATCHDIR), waits until it has created something in
#       # WATCHDIR, sends SIGINT: exit 130, no process left, and WATCHDIR holds what
#       # it held before

# positive VALUE DESCRIPTION: VALUE is a number greater than 0.
positive() {
    if awk -v x="$1" 'BEGIN { exit !(x ~ /^[0-9.e+-]+$/ && x + 0 > 0) }'; then
        pass "$2"
    else
        fail "$2"
        diag "not a positive number: '$1'"
    fi
}

# The number in "<label>: X microseconds".
label_value() {
    printf '%s\n' "$1" | sed -n 's/^.*: \([0-9.]*\) microseconds$/\1/p' | head -n 1
}

# failed_run NAME DESCRIPTION COMMAND...: the command exits 1, prints nothing on
# stdout and on stderr a "NAME: ...: failed: reason" line and no classic result.
failed_run() {
    _fname=$1
    _fdesc=$2
    shift 2
    run "$@"
    _why=
    [ "$RC" = 1 ] || _why="$_why exit status $RC (want 1);"
    [ -z "$OUT" ] || _why="$_why stdout not empty;"
    printf '%s\n' "$ERR" | grep -Eq "^$_fname: .*failed: [^ ]" || _why="$_why no 'failed: reason' message;"
    printf '%s\n' "$ERR" | grep -Eq 'microseconds$|MB/sec$|^[0-9.]+ [0-9.]+$' &&
        _why="$_why a result was printed;"
    if [ -z "$_why" ]; then
        pass "$_fdesc"
    else
        fail "$_fdesc"
        diag "$_why"
        diag_text "stderr" "$ERR"
    fi
}

# Whether a directory holds more than what it held before ($_ibefore).
_has_new_entries() {
    [ "$(ls -A "$1" 2>/dev/null)" != "$_ibefore" ]
}

# interrupted NAME WATCHDIR DESCRIPTION COMMAND...: see the top of this file.
# The command runs with TMPDIR=WATCHDIR; pass arguments that make it create its
# temporary files there (or in WATCHDIR itself) and run for a while.
interrupted() {
    _iname=$1
    _iwatch=$2
    _idesc=$3
    shift 3
    mkdir -p "$_iwatch"
    _ibefore=$(ls -A "$_iwatch")
    _itag=$(new_tag)
    start_bg "$_itag" env TMPDIR="$_iwatch" "$@"
    if wait_for "files in $_iwatch" 100 _has_new_entries "$_iwatch"; then
        sleep 0.2
        kill -INT "$BG" 2>/dev/null
        wait_bg
        is "$BG_RC" 130 "$_idesc: SIGINT kills the command (exit 130)"
        no_process_left "$_itag" "$_idesc: no process left behind" 20
        is "$(ls -A "$_iwatch")" "$_ibefore" "$_idesc: no temporary file or directory left"
    else
        kill -KILL "$BG" 2>/dev/null
        wait_bg
        fail "$_idesc: the command made nothing in $_iwatch to interrupt"
        diag_text "stderr" "$(cat "$T/bg.err")"
        skip "$_idesc: no process left behind"
        skip "$_idesc: no temporary file left"
    fi
}

# The JSON checks every record of a simple one-result command shares.
# json_one_record FILE BENCH CASE UNIT (CASE null: the JSON null of a command
# without variants)
json_one_record() {
    if [ "$3" = null ]; then _jcase=null; else _jcase="\"$3\""; fi
    json_checks "$1" <<EOF
--json: one result, benchmark $2, case $3
    .results | length == 1 and .[0].benchmark == "$2" and .[0].case == $_jcase
--json: unit $4, status ok, a positive value, the median of 3 samples
    .results[0] | .unit == "$4" and .status == "ok" and .value > 0
    and (.samples | length) == 3 and .value == .stats.median
EOF
}

# interrupted_running DESCRIPTION COMMAND...: for a command without temporary
# files: starts it, waits until it and its copy run, sends SIGINT: exit 130 and
# no process left (copies, and children they forked).
interrupted_running() {
    _idesc=$1
    shift
    _itag=$(new_tag)
    start_bg "$_itag" "$@"
    if wait_for "copies" 100 tagged_count_at_least "$_itag" 2; then
        sleep 0.3
        kill -INT "$BG" 2>/dev/null
        wait_bg
        is "$BG_RC" 130 "$_idesc: SIGINT kills the command (exit 130)"
        no_process_left "$_itag" "$_idesc: no process left behind" 20
    else
        kill -KILL "$BG" 2>/dev/null
        wait_bg
        fail "$_idesc: the command did not start its copy"
        diag_text "stderr" "$(cat "$T/bg.err")"
        skip "$_idesc: no process left behind"
    fi
}

# The children of a process (pids, one a line).
children_of() {
    pgrep -P "$1" 2>/dev/null || true
}

_has_grandchild() {
    for _c in $(children_of "$1"); do
        [ -n "$(children_of "$_c")" ] && return 0
    done
    return 1
}

# partner_killed NAME DESCRIPTION COMMAND...: starts a two-ended command, kills
# its copy's partner (a grandchild of the command) with SIGKILL: the command
# notices, reports failed with a reason naming the partner, exits 1, and leaves
# no process behind.
partner_killed() {
    _pname=$1
    _pdesc=$2
    shift 2
    _ptag=$(new_tag)
    start_bg "$_ptag" "$@"
    if wait_for "the partner" 100 _has_grandchild "$BG"; then
        sleep 0.2
        for _c in $(children_of "$BG"); do
            for _g in $(children_of "$_c"); do
                kill -KILL "$_g" 2>/dev/null
            done
        done
        wait_bg
        is "$BG_RC" 1 "$_pdesc: a killed partner fails the measurement (exit 1)"
        like "$(cat "$T/bg.err")" "^$_pname: .*failed: .*partner" "$_pdesc: the reason names the partner"
        no_process_left "$_ptag" "$_pdesc: no process left behind" 20
    else
        kill -KILL "$BG" 2>/dev/null
        wait_bg
        fail "$_pdesc: no partner process appeared"
        skip "$_pdesc: reason"
        skip "$_pdesc: no process left"
    fi
}

# The CPUs this test may use (from the affinity mask), one a line.
usable_cpus() {
    taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' | awk -F- '
        NF == 1 { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }'
}

# placements NAME COMMAND...: the record's "ends" for LMBENCH_SCHED=SINGLE
# (same_cpu), LMBENCH_SCHED=UNIQUE on two CPUs (two_cpus) and no placement
# (unpinned); --cpus 0 (both ends confined to CPU 0) works.
placements() {
    _plname=$1
    shift
    if ! json_usable; then
        skip "$_plname placements: no JSON"
        return
    fi
    run_json env LMBENCH_SCHED=SINGLE "$@" -N 3 --json
    json_ok "$T/json" '.results[-1] | .status == "ok" and .params.ends == "same_cpu" and .value > 0' \
        "$_plname LMBENCH_SCHED=SINGLE: ends same_cpu, ok"
    run_json "$@" -N 3 --json
    json_ok "$T/json" '.results[-1] | .status == "ok" and .params.ends == "unpinned"' \
        "$_plname (no placement): ends unpinned, ok"
    run_json "$@" -N 3 --json --cpus 0
    json_ok "$T/json" '.results[-1] | .status == "ok" and .value > 0
                       and ([.placement.partners.per_copy[][].ran_on] | all(. == 0))' \
        "$_plname --cpus 0: ok, the partners ran on CPU 0"
    if [ "$(usable_cpus | wc -l)" -ge 2 ]; then
        _c2=$(usable_cpus | head -n 2 | tr '\n' ',' | sed 's/,$//')
        run_json env LMBENCH_SCHED=UNIQUE "$@" -N 3 --json --cpus "$_c2"
        json_ok "$T/json" '.results[-1] | .status == "ok" and .params.ends == "two_cpus"' \
            "$_plname LMBENCH_SCHED=UNIQUE on two CPUs: ends two_cpus, ok"
    else
        skip "$_plname on two CPUs: one CPU here"
    fi
}

# partner_io FIELD COMMAND...: starts COMMAND (a long run), finds its copy's
# partner (a grandchild), and prints two numbers: how much FIELD of the
# partner's /proc/PID/io (syscr: read-type system calls, syscw: write-type)
# and its context switches grew over half a second of the run; then interrupts
# the command. Prints "none" when it found no partner to watch.
partner_io() {
    _field=$1
    shift
    _tag=$(new_tag)
    start_bg "$_tag" "$@"
    _res=none
    if wait_for "the partner" 100 _has_grandchild "$BG"; then
        sleep 0.3
        _g=$(for _c in $(children_of "$BG"); do children_of "$_c"; done | head -n 1)
        _io() { awk -v f="$_field:" '$1 == f { print $2 }' "/proc/$_g/io" 2>/dev/null; }
        _cs() { awk '/^(voluntary|nonvoluntary)_ctxt_switches:/ { n += $2 } END { print n }' \
                    "/proc/$_g/status" 2>/dev/null; }
        _a=$(_io)
        _ca=$(_cs)
        sleep 0.5
        _b=$(_io)
        _cb=$(_cs)
        [ -n "$_a" ] && [ -n "$_b" ] && [ -n "$_ca" ] && [ -n "$_cb" ] &&
            _res="$((_b - _a)) $((_cb - _ca))"
    fi
    kill -INT "$BG" 2>/dev/null
    wait_bg
    echo "$_res"
}

# partner_io_none FIELD WHAT COMMAND...: a test that FIELD of the partner's
# /proc/PID/io does not grow while it switches (partner_io), named WHAT;
# skipped where /proc/PID/io is missing.
partner_io_none() {
    _pf=$1
    _what=$2
    shift 2
    if [ ! -r /proc/self/io ]; then
        skip "$_what: no /proc/PID/io here"
        return
    fi
    _io=$(partner_io "$_pf" "$@")
    if [ "$_io" = none ]; then
        fail "$_what: found no partner to watch"
        return
    fi
    set -- $_io
    ok $([ "$1" = 0 ] && [ "$2" -gt 0 ]; echo $?) "$_what ($_pf grew by $1 over $2 context switches)"
}
