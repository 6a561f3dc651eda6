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
