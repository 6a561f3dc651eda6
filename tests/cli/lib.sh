# SPDX-License-Identifier: MIT
# tests/cli/lib.sh: a small TAP library for the command tests, sourced by each
# tests/cli/NAME.t (POSIX sh). Nothing here depends on timing values: the
# tests check formats, exit statuses, statuses and invariants only.
#
#   . "$(dirname "$0")/lib.sh"
#   run "$BIN/lat_syscall" -N 3 null        # sets RC, OUT, ERR ($T/out, $T/err)
#   is "$RC" 0 "exit status 0"
#   like "$ERR" '^Simple syscall: ' "classic line"
#   done_testing
#
# Environment: LMBENCH_BUILD, the build directory (default: ../../build from
# this script). ENOUGH=1000 (1 ms intervals) keeps every run short.
#
# Builds for another machine (make check-cross, scripts/check-cross):
#   LMBENCH_RUNNER    a qemu-user program (qemu-aarch64-static ...) that runs the
#                     build's binaries; $BIN then holds small wrappers of the same
#                     names that start each binary under it with its own argv[0]
#                     (qemu's -0), so tests call "$BIN/bw_mem" as usual.
#   LMBENCH_EMULATED  1 under emulation: waits for processes and output are
#                     SLOW (10) times longer, and a run that came out
#                     below_resolution by accident is run again (see EMULATED
#                     below). Formats and exit statuses are checked exactly as
#                     on real hardware.

LC_ALL=C
export LC_ALL
unset LMBENCH_SCHED LC_NUMERIC 2>/dev/null || true

TESTDIR=$(cd "$(dirname "$0")" && pwd)
SRCROOT=$(cd "$TESTDIR/../.." && pwd)
if [ -z "${LMBENCH_BUILD:-}" ]; then
    LMBENCH_BUILD=$SRCROOT/build
fi
BIN=$LMBENCH_BUILD/bin
LMBENCH=$BIN/lmbench
ENOUGH=1000
export ENOUGH LMBENCH_BUILD

# EMULATED=yes under qemu (LMBENCH_EMULATED=1). There whether a result comes
# out ok or below_resolution can depend on timing the test cannot control: qemu
# gives the programs no vDSO, so every clock read is a system call at which a
# busy host may preempt the copy (stalls of 10-50 ms were seen), and the first
# milliseconds of a forked copy run slowly while qemu translates it. The harness
# recalibrates when samples come out short, so this is rare; under emulation
# only, as a safety net:
#   - `run` runs a command again (twice at most) when it reported
#     below_resolution without being asked for tiny intervals (no --min-time, no
#     ENOUGH= on its command line), with a diagnostic;
#   - if its last run still did, exited 0, and every below_resolution line has
#     its exact form, the checks of that run that fail are reported as TAP
#     skips that say so ("# SKIP emulated: ..."), never as passes, and counted
#     by scripts/check-cross. Anything else, no_process_left, and the checks
#     after the next run are strict.
EMULATED=no
[ "${LMBENCH_EMULATED:-0}" = 1 ] && EMULATED=yes
# Set by `run` under emulation when the last run came out below_resolution by
# accident; cleared by the next run.
_EMU_BR=

if [ ! -x "$LMBENCH" ]; then
    echo "Bail out! no $LMBENCH (build first, or set LMBENCH_BUILD)"
    exit 255
fi

# How many times longer than on real hardware a wait may take.
SLOW=1
[ "${LMBENCH_EMULATED:-0}" = 1 ] && SLOW=10

# --- the per-test temporary directory, removed on any exit ------------------

T=$(mktemp -d "${TMPDIR:-/tmp}/lmbtest.XXXXXX") || {
    echo "Bail out! cannot create a temporary directory"
    exit 255
}
BG_PIDS=

_cleanup() {
    for _p in $BG_PIDS; do
        kill -KILL "$_p" 2>/dev/null
    done
    rm -rf "$T"
}
trap _cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
# A reader that goes away (prove ... | head) must not skip the clean-up.
trap 'exit 141' PIPE

# --- binaries of another architecture, run under LMBENCH_RUNNER ---------------------

# _wrap REAL DIR TARGET: DIR/NAME for each file or link of the build's directory
# REAL: files become scripts that exec the runner on TARGET/NAME with argv[0] set
# to the name they were called by (qemu's -0); links stay links, as in the build.
_wrap() {
    mkdir -p "$2" || return 1
    for _f in "$1"/*; do
        [ -e "$_f" ] || continue
        _b=${_f##*/}
        if [ -L "$_f" ]; then
            ln -s "$(readlink "$_f")" "$2/$_b" || return 1
        else
            printf '#!/bin/sh\nexec %s -0 "$0" %s "$@"\n' "$LMBENCH_RUNNER" "$3/$_b" >"$2/$_b" &&
                chmod +x "$2/$_b" || return 1
        fi
    done
}

# Under qemu-user a binary finds its helpers through /proc/self/exe, which names
# the emulated file itself: $T/build/.target holds a copy of the build's
# binaries (bin/) whose libexec/lmbench/hello is a wrapper too, so that lat_proc's
# exec of the helper is a native exec of a script that starts qemu again; no
# binfmt_misc registration is needed. $T/build/bin holds the wrappers the tests
# call, each running the copy in .target/bin.
if [ -n "${LMBENCH_RUNNER:-}" ]; then
    if ! command -v "${LMBENCH_RUNNER%% *}" >/dev/null 2>&1; then
        echo "Bail out! LMBENCH_RUNNER: no ${LMBENCH_RUNNER%% *} here"
        exit 255
    fi
    _tg=$T/build/.target
    # --launches runs this lmbench again: through the runner's wrapper.
    export LMBENCH_SELF=$T/build/bin/lmbench
    if ! mkdir -p "$_tg/bin" || ! cp -P "$LMBENCH_BUILD/bin"/* "$_tg/bin/" ||
       ! _wrap "$LMBENCH_BUILD/libexec/lmbench" "$_tg/libexec/lmbench" "$LMBENCH_BUILD/libexec/lmbench" ||
       ! _wrap "$LMBENCH_BUILD/bin" "$T/build/bin" "$_tg/bin" ||
       ! _wrap "$LMBENCH_BUILD/libexec/lmbench" "$T/build/libexec/lmbench" "$LMBENCH_BUILD/libexec/lmbench"; then
        echo "Bail out! cannot make the runner's wrappers in $T/build"
        exit 255
    fi
    # The build's other directories (share/lmbench/www ...) as they are.
    for _d in "$LMBENCH_BUILD"/*; do
        case ${_d##*/} in
        bin | libexec) ;;
        *) ln -s "$_d" "$T/build/${_d##*/}" && ln -s "$_d" "$_tg/${_d##*/}" ;;
        esac
    done
    LMBENCH_BUILD=$T/build
    BIN=$LMBENCH_BUILD/bin
    LMBENCH=$BIN/lmbench
    export LMBENCH_BUILD
fi

# --- TAP -----------------------------------------------------------------------

_n=0
_failed=0
_planned=

plan() {
    _planned=$1
    echo "1..$1"
}

# Prints its arguments as "# " diagnostic lines on stderr (what prove shows).
diag() {
    printf '%s\n' "$@" | sed 's/^/# /' >&2
}

# Diagnostic of a multi-line value: diag_text LABEL VALUE
diag_text() {
    if [ -z "$2" ]; then
        diag "$1: (empty)"
    else
        diag "$1:"
        printf '%s\n' "$2" | head -n 20 | sed 's/^/#     /' >&2
    fi
}

pass() {
    _n=$((_n + 1))
    echo "ok $_n - $1"
}

fail() {
    _n=$((_n + 1))
    if [ -n "$_EMU_BR" ]; then
        echo "ok $_n - $1 # SKIP emulated: the run came out below_resolution (timing under qemu)"
        # scripts/check-cross counts them.
        [ -n "${LMBENCH_SKIP_LOG:-}" ] && printf '%s: %s\n' "${0##*/}" "$1" >>"$LMBENCH_SKIP_LOG"
        return 0
    fi
    _failed=$((_failed + 1))
    echo "not ok $_n - $1"
    # Where the failing test came from, when the caller gave a context.
    [ -n "${CONTEXT:-}" ] && diag "while: $CONTEXT"
    return 0
}

skip() {
    _n=$((_n + 1))
    echo "ok $_n # skip $1"
}

# ok STATUS DESCRIPTION: passes when STATUS (usually $?) is 0.
ok() {
    if [ "$1" -eq 0 ] 2>/dev/null; then pass "$2"; else fail "$2"; fi
}

# check DESCRIPTION COMMAND [ARGS...]: passes when the command succeeds.
check() {
    _d=$1
    shift
    if "$@"; then
        pass "$_d"
    else
        _ctx=${CONTEXT:-}
        CONTEXT=
        fail "$_d"
        CONTEXT=$_ctx
        diag "command failed: $*"
    fi
}

# is GOT EXPECTED DESCRIPTION
is() {
    if [ "$1" = "$2" ]; then
        pass "$3"
    else
        fail "$3"
        diag_text "     got" "$1"
        diag_text "expected" "$2"
    fi
}

isnt() {
    if [ "$1" != "$2" ]; then
        pass "$3"
    else
        fail "$3"
        diag_text "got (unwanted)" "$1"
    fi
}

# like TEXT REGEX DESCRIPTION: some line of TEXT matches the extended regex.
like() {
    if printf '%s\n' "$1" | grep -Eq -- "$2"; then
        pass "$3"
    else
        fail "$3"
        diag_text "text" "$1"
        diag "does not match: $2"
    fi
}

# unlike TEXT REGEX DESCRIPTION: no line of TEXT matches.
unlike() {
    if printf '%s\n' "$1" | grep -Eq -- "$2"; then
        fail "$3"
        diag_text "text" "$1"
        diag "matches (it should not): $2"
    else
        pass "$3"
    fi
}

# The lines of a text without the harness's warnings ("cmd: ...: warning: ..."):
# a busy machine may add those to any run (noisy calibration, short intervals),
# and the checks of result lines below are about the results. Tests of
# warnings look at $ERR itself.
without_warnings() {
    printf '%s\n' "$1" | grep -Ev '^[A-Za-z0-9_]+: (.*: )?warning: '
}

# all_like TEXT REGEX DESCRIPTION: TEXT is not empty and every line matches
# (warnings aside).
all_like() {
    set -- "$(without_warnings "$1")" "$2" "$3"
    if [ -n "$1" ] && ! printf '%s\n' "$1" | grep -Evq -- "$2"; then
        pass "$3"
    else
        fail "$3"
        diag_text "text" "$1"
        diag "not every line matches: $2"
    fi
}

# one_line_like TEXT REGEX DESCRIPTION: TEXT is exactly one line, matching
# (warnings aside).
one_line_like() {
    set -- "$(without_warnings "$1")" "$2" "$3"
    if [ "$(count_lines "$1")" = 1 ] && printf '%s\n' "$1" | grep -Eq -- "$2"; then
        pass "$3"
    else
        fail "$3"
        diag_text "text" "$1"
        diag "is not one line matching: $2"
    fi
}

# Ends the script: prints the plan if none was given and exits non-zero when a
# test failed or the count is off.
done_testing() {
    if [ -z "$_planned" ]; then
        echo "1..$_n"
    elif [ "$_planned" -ne "$_n" ]; then
        diag "planned $_planned tests but ran $_n"
        exit 255
    fi
    [ "$_failed" -gt 254 ] && _failed=254
    exit "$_failed"
}

# --- running commands ------------------------------------------------------------

# run COMMAND [ARGS...]: runs it with stdin from /dev/null; sets RC, OUT and
# ERR (also left in $T/out and $T/err, byte for byte, for checks that care
# about trailing blank lines). Never stops the script.
run() {
    "$@" </dev/null >"$T/out" 2>"$T/err"
    RC=$?
    if [ "$EMULATED" = yes ]; then
        _try=1
        _EMU_BR=
        while grep -q ': below_resolution: ' "$T/err" && _emu_retry_ok "$@"; do
            if [ "$_try" -ge 3 ]; then
                # Only a clean report: exit status 0 and every such line in
                # its exact form; anything else is checked strictly.
                if [ "$RC" = 0 ] && ! grep ': below_resolution: ' "$T/err" |
                    grep -Evq '^[a-z_]+: [a-z0-9_]+( \([^)]*\))?: below_resolution: [^ ]'; then
                    diag "emulated: '$(_show_args "$@")' came out below_resolution $_try times; its failed checks are skipped"
                    _EMU_BR=yes
                fi
                break
            fi
            diag "emulated: '$(_show_args "$@")' came out below_resolution; running it again"
            _try=$((_try + 1))
            "$@" </dev/null >"$T/out" 2>"$T/err"
            RC=$?
        done
    fi
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
    CONTEXT="$*"
    return 0
}

# Whether a command line leaves the interval to the default (no --min-time, no
# ENOUGH=): only then is below_resolution an accident of emulation.
_emu_retry_ok() {
    # A suite run writes results files: running it again is another run (and a
    # second --resume finds nothing to resume).
    case ${1##*/}:${2:-} in
    lmbench:run) return 1 ;;
    esac
    for _a in "$@"; do
        case $_a in
        --min-time | --min-time=* | ENOUGH=*) return 1 ;;
        esac
    done
    return 0
}

# run_json COMMAND [ARGS...]: as run, and keeps stdout in $T/json.
run_json() {
    run "$@"
    cp "$T/out" "$T/json"
}

# Number of lines of a text (0 for empty).
count_lines() {
    if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l | tr -d ' '; fi
}

# usage_error NAME COMMAND [ARGS...]: one test point that COMMAND exits 2,
# prints nothing on stdout, and on stderr exactly "NAME: <message>" then a
# "Usage: NAME ..." line.
usage_error() {
    _name=$1
    shift
    run "$@"
    _desc="bad usage exits 2 with '$_name: ...' and Usage: $(_show_args "$@")"
    _why=
    [ "$RC" = 2 ] || _why="$_why exit status $RC (want 2);"
    [ -z "$OUT" ] || _why="$_why stdout not empty;"
    [ "$(count_lines "$ERR")" = 2 ] || _why="$_why stderr has $(count_lines "$ERR") lines (want 2);"
    printf '%s\n' "$ERR" | sed -n 1p | grep -Eq "^$_name: [^ ]" ||
        _why="$_why first stderr line is not '$_name: <message>';"
    printf '%s\n' "$ERR" | sed -n 2p | grep -Eq "^Usage: $_name( |\$)" ||
        _why="$_why second stderr line is not 'Usage: $_name ...';"
    if [ -z "$_why" ]; then
        pass "$_desc"
    else
        fail "$_desc"
        diag "$_why"
        diag_text "stdout" "$OUT"
        diag_text "stderr" "$ERR"
    fi
}

# The arguments of a command for a test description: the program's base name,
# "" for empty arguments.
_show_args() {
    _s=
    for _a in "$@"; do
        case "$_a" in
        "") _a='""' ;;
        */*) _a=${_a##*/} ;;
        esac
        _s="$_s $_a"
    done
    printf '%s' "${_s# }"
}

# --- JSON ------------------------------------------------------------------------

HAVE_JQ=no
command -v jq >/dev/null 2>&1 && HAVE_JQ=yes

# json_ok FILE FILTER DESCRIPTION [SHOW]: passes when jq -e FILTER is true on
# FILE; on failure shows jq SHOW (default: the start of the document).
json_ok() {
    if [ "$HAVE_JQ" != yes ]; then
        skip "$3 (jq is not installed)"
        return
    fi
    if jq -e "$2" "$1" >/dev/null 2>"$T/jq.err"; then
        pass "$3"
    else
        fail "$3"
        diag "jq filter false: $2"
        [ -s "$T/jq.err" ] && diag_text "jq" "$(cat "$T/jq.err")"
        if [ -n "${4:-}" ]; then
            diag_text "$4" "$(jq -c "$4" "$1" 2>&1)"
        else
            diag_text "document (start)" "$(head -c 1500 "$1")"
        fi
    fi
}

# json_checks FILE: many jq checks of one document in a single jq run (jq
# takes a tenth of a second to start). The checks come on stdin: a line of
# description, then the filter on lines that start with white space; each is a
# test point that passes when every output of the filter is true.
#
#   json_checks "$T/json" <<'EOF'
#   schema
#       .schema == "lmbench-results"
#   EOF
json_checks() {
    _jf=$1
    awk -v D="$T/checks.desc" -v F="$T/checks.f" -v P="$T/checks.jq" '
        /^[ \t]*$/ { next }
        /^[ \t]/ { sub(/^[ \t]+/, ""); f[n] = f[n] " " $0; next }
        { n++; d[n] = $0; f[n] = "" }
        END {
            printf "" > D; printf "" > F
            printf "[" > P
            for (i = 1; i <= n; i++) {
                print d[i] > D
                print f[i] > F
                printf "%s(try ([%s] | length > 0 and all) catch false)", (i > 1 ? ",\n" : ""), f[i] > P
            }
            print "] | .[]" > P
        }'
    if [ "$HAVE_JQ" != yes ]; then
        while IFS= read -r _d; do skip "$_d (jq is not installed)"; done <"$T/checks.desc"
        return
    fi
    if ! jq -r -f "$T/checks.jq" "$_jf" >"$T/checks.res" 2>"$T/jq.err"; then
        : >"$T/checks.res"
    fi
    _i=0
    while IFS= read -r _d; do
        _i=$((_i + 1))
        _r=$(sed -n "${_i}p" "$T/checks.res")
        if [ "$_r" = true ]; then
            pass "$_d"
        else
            fail "$_d"
            diag "jq filter false:$(sed -n "${_i}p" "$T/checks.f")"
            [ -s "$T/jq.err" ] && diag_text "jq" "$(cat "$T/jq.err")"
            [ -s "$_jf" ] || diag "(stdout was empty)"
        fi
    done <"$T/checks.desc"
}

# json_get FILE FILTER: prints jq -r FILTER (empty without jq).
json_get() {
    [ "$HAVE_JQ" = yes ] && jq -r "$2" "$1" 2>/dev/null
}

# Whether this build has JSON output (built with jansson) and jq is here.
_JSON_USABLE=
json_usable() {
    if [ -z "$_JSON_USABLE" ]; then
        _JSON_USABLE=no
        if [ "$HAVE_JQ" = yes ]; then
            "$BIN/lat_syscall" --json -N 1 null >/dev/null 2>&1
            [ $? -ne 3 ] && _JSON_USABLE=yes
        fi
    fi
    [ "$_JSON_USABLE" = yes ]
}

# --- processes and temporary files -----------------------------------------------

# A marker for the environment of the commands a test starts, unique to this
# script run.
new_tag() {
    echo "$$-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')-$_n"
}

# Prints the pids of the processes whose environment holds LMB_TEST_TAG=TAG.
# Entries that vanish or cannot be read are skipped.
tagged_pids() {
    grep -lsazxF -- "LMB_TEST_TAG=$1" /proc/[0-9]*/environ 2>/dev/null |
        sed -e 's|^/proc/||' -e 's|/environ$||'
}

# no_process_left TAG DESCRIPTION [WAIT_TENTHS]: passes when no process with the
# marker exists, polling up to WAIT_TENTHS tenths of a second (default 0: the
# command's copies must already be gone when it has exited).
no_process_left() {
    _EMU_BR=
    _tries=$((${3:-0} * SLOW))
    while :; do
        _left=$(tagged_pids "$1")
        [ -z "$_left" ] && break
        [ "$_tries" -le 0 ] && break
        _tries=$((_tries - 1))
        sleep 0.1
    done
    if [ -z "$_left" ]; then
        pass "$2"
    else
        fail "$2"
        for _p in $_left; do
            diag "left behind: pid $_p: $(tr '\0' ' ' </proc/"$_p"/cmdline 2>/dev/null)"
            BG_PIDS="$BG_PIDS $_p"
        done
    fi
}

# wait_for DESC TENTHS COMMAND...: polls COMMAND every 0.05 s until it succeeds,
# at most TENTHS tenths of a second (SLOW times that under emulation). Returns
# its last status.
wait_for() {
    _limit=$(($2 * 2 * SLOW))
    shift 2
    while ! "$@"; do
        _limit=$((_limit - 1))
        [ "$_limit" -le 0 ] && return 1
        sleep 0.05
    done
    return 0
}

# A non-interactive shell starts background commands with SIGINT ignored; GNU
# env can give the command the default disposition back, as from a terminal.
if env --default-signal=INT true 2>/dev/null; then
    _ENV_SIG=--default-signal=INT
else
    _ENV_SIG=
fi

# Starts COMMAND in the background with LMB_TEST_TAG=TAG in its environment,
# stdout and stderr to $T/bg.out and $T/bg.err. Sets BG (its pid).
start_bg() {
    _EMU_BR=
    _tag=$1
    shift
    env $_ENV_SIG LMB_TEST_TAG="$_tag" "$@" </dev/null >"$T/bg.out" 2>"$T/bg.err" &
    BG=$!
    BG_PIDS="$BG_PIDS $BG"
}

# Waits for the background command; sets BG_RC.
wait_bg() {
    wait "$BG" 2>/dev/null
    BG_RC=$?
    _keep=
    for _p in $BG_PIDS; do
        [ "$_p" = "$BG" ] || _keep="$_keep $_p"
    done
    BG_PIDS=$_keep
}

# Counts processes with the marker (for polling).
tagged_count_at_least() {
    [ "$(tagged_pids "$1" | wc -l)" -ge "$2" ]
}

# Whether a file has at least one line.
has_lines() {
    [ -s "$1" ] && [ "$(wc -l <"$1")" -ge "${2:-1}" ]
}

# Lists the lmbench temporary files in a directory.
lmbench_tmpfiles() {
    ls -A "$1" 2>/dev/null | grep '^lmbench' || true
}
