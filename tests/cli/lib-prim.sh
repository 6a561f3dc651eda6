# SPDX-License-Identifier: MIT
# tests/cli/lib-prim.sh: helpers for the tests of the kernel-primitive
# round trips (lat_futex, lat_eventfd, lat_pthread), sourced after lib.sh and
# lib-os.sh.
#
#   cases_lines "$ERR" "LABEL1" "LABEL2" ...   # exactly these classic lines, in order
#   partner_stopped NAME DESCRIPTION COMMAND...
#       # starts a two-ended COMMAND (give it --timeout 2 and a long run), stops
#       # its partner process with SIGSTOP: the command does not hang, the
#       # record is a timeout (exit 1), and no process is left

# cases_lines TEXT DESCRIPTION LABEL...: TEXT is exactly one "LABEL: X.XXXX
# microseconds" line per LABEL, in that order (warnings aside).
cases_lines() {
    _ctext=$(without_warnings "$1")   # a warning of a noisy machine is no line of a case
    _cdesc=$2
    shift 2
    _cwant=
    for _l in "$@"; do
        _cwant="$_cwant$_l
"
    done
    _cgot=$(printf '%s\n' "$_ctext" | sed -E 's/: [0-9]+\.[0-9]{4} microseconds$//')
    _cbad=$(printf '%s\n' "$_ctext" | grep -Evc ': [0-9]+\.[0-9]{4} microseconds$')
    if [ "$_cgot" = "${_cwant%
}" ] && [ "$_cbad" = 0 ]; then
        pass "$_cdesc"
    else
        fail "$_cdesc"
        diag_text "stderr" "$_ctext"
    fi
}

# partner_stopped NAME DESCRIPTION COMMAND...: see the top of this file.
partner_stopped() {
    _sname=$1
    _sdesc=$2
    shift 2
    _stag=$(new_tag)
    start_bg "$_stag" "$@"
    if wait_for "the partner" 100 _has_grandchild "$BG"; then
        sleep 0.2
        for _c in $(children_of "$BG"); do
            for _g in $(children_of "$_c"); do
                kill -STOP "$_g" 2>/dev/null
            done
        done
        wait_bg
        is "$BG_RC" 1 "$_sdesc: a partner that never answers ends in a timeout (exit 1)"
        like "$(cat "$T/bg.err")" "^$_sname: .*timeout: " "$_sdesc: the record says timeout"
        no_process_left "$_stag" "$_sdesc: no process left behind (the stopped partner too)" 20
    else
        kill -KILL "$BG" 2>/dev/null
        wait_bg
        fail "$_sdesc: no partner process appeared"
        skip "$_sdesc: reason"
        skip "$_sdesc: no process left"
    fi
}

# prim_round_trip_checks NAME WORD: the checks lat_futex.t and lat_eventfd.t
# share, for a command with the cases thread and process whose classic
# lines are "WORD latency (threads): X microseconds" and "... (processes)":
# both cases by default, each alone, -P 2, placements of the two ends,
# --json (cases, partner kind, compat), bad input, a partner that dies or
# never answers, SIGINT.
prim_round_trip_checks() {
    _rn=$1 _rw=$2
    _rcmd=$BIN/$_rn
    _rnum='[0-9]+\.[0-9]{4}'
    run "$_rcmd" -N 3
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
    cases_lines "$ERR" "no operand: one line per case, thread then process" \
        "$_rw latency (threads)" "$_rw latency (processes)"
    positive "$(label_value "$ERR")" "the latency is positive"
    run "$_rcmd" -N 3 thread
    one_line_like "$ERR" "^$_rw latency \\(threads\\): $_rnum microseconds\$" "thread: its one line"
    run "$_rcmd" -N 3 process
    one_line_like "$ERR" "^$_rw latency \\(processes\\): $_rnum microseconds\$" "process: its one line"

    _rtag=$(new_tag)
    run env LMB_TEST_TAG="$_rtag" "$_rcmd" -P 2 -N 3
    cases_lines "$ERR" "-P 2: the two lines" "$_rw latency (threads)" "$_rw latency (processes)"
    no_process_left "$_rtag" "-P 2: no process (copy or partner) left behind"

    placements "$_rn thread" "$_rcmd" thread
    placements "$_rn process" "$_rcmd" process
    if json_usable; then
        run_json "$_rcmd" -N 3 --json
        json_checks "$T/json" <<J
--json: two records, $_rn, cases thread and process, unit us, ok
    [.results[] | .benchmark] == ["$_rn", "$_rn"]
    and [.results[] | .case] == ["thread", "process"]
    and all(.results[]; .unit == "us" and .status == "ok" and .value > 0
                        and (.samples | length) == 3)
--json: the partner is a thread for thread, a process for process
    [.results[] | .placement.partners.kind] == ["thread", "process"]
--json: params hold ends only; compat says lmbench 3 has no such figure
    all(.results[]; (.params | keys) == ["ends"] and (.compat | startswith("new: lmbench 3 has no")))
J
    else
        skip "--json: no JSON"
    fi

    usage_error "$_rn" "$_rcmd" extra
    usage_error "$_rn" "$_rcmd" thread process
    usage_error "$_rn" "$_rcmd" --threads
    usage_error "$_rn" "$_rcmd" -N 0
    usage_error "$_rn" "$_rcmd" -n 3

    partner_killed "$_rn" "process: partner killed" "$_rcmd" process -N 1000 --min-time 0.2
    partner_stopped "$_rn" "process: partner stopped" "$_rcmd" process -N 1000 --min-time 0.2 --timeout 2
    interrupted_running "$_rn" "$_rcmd" -P 2 -N 1000 --min-time 0.2
}
