# SPDX-License-Identifier: MIT
# tests/cli/lib-suite.sh: helpers for the suite verbs' tests (lmbench see,
# compare, graph, config, run, import), sourced after lib.sh.

FIXTURES=$SRCROOT/tests/fixtures
RAW3=$FIXTURES/lmbench3-x86_64-linux-vm.0

# verb_usage_error VERB ARGS...: exit 2, nothing on stdout, "lmbench VERB: ..."
# then "Usage: lmbench VERB ..." on stderr.
verb_usage_error() {
    _verb=$1
    shift
    run "$LMBENCH" "$_verb" "$@"
    _why=
    [ "$RC" = 2 ] || _why="$_why exit status $RC (want 2);"
    [ -z "$OUT" ] || _why="$_why stdout not empty;"
    printf '%s\n' "$ERR" | sed -n 1p | grep -Eq "^lmbench $_verb: [^ ]" ||
        _why="$_why first stderr line is not 'lmbench $_verb: <message>';"
    printf '%s\n' "$ERR" | grep -Eq "^Usage: lmbench $_verb " ||
        _why="$_why no 'Usage: lmbench $_verb ...' line;"
    if [ -z "$_why" ]; then
        pass "lmbench $_verb $(_show_args "$@"): usage error, exit 2"
    else
        fail "lmbench $_verb $(_show_args "$@"): usage error, exit 2"
        diag "$_why"
        diag_text "stderr" "$ERR"
    fi
}

# verb_contract VERB: --help, a write error on --help, an unknown option, the
# man page doc/lmbench-VERB.1 rendering without warnings.
verb_contract() {
    run "$LMBENCH" "$1" --help
    ok $([ "$RC" = 0 ] && [ -z "$ERR" ] && printf '%s\n' "$OUT" | head -n 1 | grep -q "^Usage: lmbench $1 "; echo $?) \
        "lmbench $1 --help: exit 0, the usage on stdout"
    like "$OUT" "lmbench-$1\\(1\\)" "lmbench $1 --help points to lmbench-$1(1)"
    "$LMBENCH" "$1" --help >/dev/full 2>/dev/null
    isnt "$?" 0 "lmbench $1 --help >/dev/full: a write error is an error"
    verb_usage_error "$1" --no-such-option
    check "doc/lmbench-$1.1 exists" test -s "$SRCROOT/doc/lmbench-$1.1"
    if command -v man >/dev/null 2>&1; then
        _w=$(MANWIDTH=80 man --warnings -l "$SRCROOT/doc/lmbench-$1.1" 2>&1 >/dev/null | head -n 3)
        is "$_w" "" "doc/lmbench-$1.1 renders without warnings"
    else
        skip "man is not installed"
    fi
}
