#!/bin/sh
# SPDX-License-Identifier: MIT
# What every command gets from the harness: every output checked (a write
# that fails is exit 1 with a message), closed standard descriptors, user
# input quoted in messages, strict CPU lists, -W, lockstep -P, warnings for
# crowded copies, and `lmbench run` checking its environment once.
. "$(dirname "$0")/lib.sh"

CMD=$BIN/lat_syscall

# --- outputs that cannot be written ----------------------------------------------------

for args in "--help" "--list" "-N 3 null"; do
    # shellcheck disable=SC2086
    "$CMD" $args >/dev/full 2>"$T/err"
    rc=$?
    case $args in
    "-N 3 null") want=0 ;;   # its results go to stderr, which works
    *) want=1 ;;
    esac
    is "$rc" "$want" "lat_syscall $args >/dev/full: exit status $want"
done

"$CMD" --help >/dev/full 2>"$T/err"
like "$(cat "$T/err")" '^lat_syscall: cannot write its output: No space left on device$' \
    "--help >/dev/full: says it could not write"

"$CMD" -N 3 null 2>/dev/full
is "$?" 1 "classic line to a full stderr: exit status 1"

"$CMD" -N 3 null 2>&-
is "$?" 1 "classic line to a closed stderr: exit status 1"

"$LMBENCH" list >&- 2>"$T/err"
is "$?" 1 "lmbench list >&-: exit status 1"
like "$(cat "$T/err")" '^lmbench: cannot write to standard output: ' "lmbench list >&-: says so on stderr"

"$LMBENCH" list >/dev/full 2>/dev/null
is "$?" 1 "lmbench list >/dev/full: exit status 1"
"$LMBENCH" version >/dev/full 2>/dev/null
is "$?" 1 "lmbench version >/dev/full: exit status 1"
"$LMBENCH" help bw_mem >/dev/full 2>/dev/null
is "$?" 1 "lmbench help bw_mem >/dev/full: exit status 1"

# A broken pipe with SIGPIPE ignored: EPIPE, reported, exit 1.
if command -v perl >/dev/null 2>&1; then
    perl -e '$SIG{PIPE} = "IGNORE"; pipe(R, W) or die; close R;
             open(STDOUT, ">&W") or die; exec @ARGV' "$LMBENCH" list 2>"$T/err"
    is "$?" 1 "lmbench list into a closed pipe (SIGPIPE ignored): exit status 1"
    like "$(cat "$T/err")" 'Broken pipe' "... and says Broken pipe"
else
    skip "perl missing: broken pipe"
    skip "perl missing: broken pipe message"
fi

if json_usable; then
    "$CMD" -N 3 --json null >/dev/full 2>"$T/err"
    is "$?" 1 "--json >/dev/full: exit status 1"
    like "$(cat "$T/err")" 'cannot write its output' "--json >/dev/full: says so"
    "$CMD" -N 3 --json null >&- 2>"$T/err"
    is "$?" 1 "--json with stdout closed: exit status 1"
else
    skip "--json: jq missing or built without jansson"
    skip "--json: jq missing or built without jansson"
    skip "--json: jq missing or built without jansson"
fi

# `lmbench run` writes its results into files (tests/cli/run.t); what it prints on
# stdout (its plan) is checked like everything else.
"$LMBENCH" run --list >&- 2>"$T/err"
rc=$?
is "$rc" 1 "lmbench run --list >&-: exit status 1"
unlike "$(cat "$T/err")" '^ *1  ' "lmbench run --list >&-: the plan not sent to stderr instead"
like "$(cat "$T/err")" 'cannot write' "lmbench run --list >&-: says it cannot write"

# --- messages quote what the user typed ---------------------------------------------------

long=$(printf 'x%.0s' $(seq 1 100))
run "$BIN/bw_mem" "$long" rd
is "$RC" 2 "a 100-character size: exit status 2"
like "$ERR" "^bw_mem: bad size 'x{64}\\.\\.\\.'" "the size is cut to 64 characters in the message"
run "$BIN/bw_mem" "$(printf 'a\033[31mb')" rd
like "$ERR" "bad size 'a\\\\x1b\\[31mb'" "an escape byte is shown as \\x1b"
run "$LMBENCH" "$(printf 'no\nsuch')"
like "$ERR" "unknown command 'no\\\\x0asuch'" "a newline in a command name is shown as \\x0a"
like "$(printf '%s\n' "$ERR" | head -n 1)" "^lmbench: unknown command .*\\(see 'lmbench list'\\)\$" \
    "the message stays on one line"

# --- CPU lists -----------------------------------------------------------------------------

for bad in "0,,0" ",0" "0," "0, ,0" ""; do
    usage_error lat_syscall "$CMD" --cpus "$bad" null
done
for bad in 'CUSTOM "0' 'CUSTOM 0"' 'CUSTOM "0" "0"' 'CUSTOM 0,,0' 'CUSTOM 0,'; do
    usage_error lat_syscall env LMBENCH_SCHED="$bad" "$CMD" -N 3 null
done
run env LMBENCH_SCHED='CUSTOM "0"' "$CMD" -N 3 null
is "$RC" 0 "LMBENCH_SCHED='CUSTOM \"0\"': exit status 0"
run "$CMD" --cpus "0 " -N 3 null
is "$RC" 0 "--cpus '0 ' (a trailing space): exit status 0"

# --- -W, -P, warnings ----------------------------------------------------------------------

if json_usable; then
    run_json "$CMD" -N 3 --json null
    w0=$(json_get "$T/json" '.results[0].warmup_s')
    run_json "$CMD" -N 3 -W 300000 --json null
    json_checks "$T/json" <<'EOF'
-W 300000: warmup_s at least 0.3, run.config.warmup_us 300000
    .results[0].warmup_s >= 0.3 and .run.config.warmup_us == 300000
-W 300000: elapsed_s covers the warm-up
    .results[0].elapsed_s >= .results[0].warmup_s
EOF
    check "without -W: one untimed interval only (warmup_s $w0 < 0.3)" \
        awk -v w="$w0" 'BEGIN { exit !(w > 0 && w < 0.3) }'

    # Four copies on one CPU: lockstep on one count, a warning that they share it.
    tag=$(new_tag)
    run_json env LMB_TEST_TAG="$tag" LMBENCH_SCHED=SINGLE "$CMD" -P 4 -N 3 --json null
    json_checks "$T/json" <<'EOF'
-P 4 on one CPU: ok, copies 4, pinned to one CPU
    .results[0] | .status == "ok" and .copies == 4 and (.placement.cpus | unique | length) == 1
-P 4 on one CPU: a warning that the copies share it
    .results[0].warnings | any(test("4 copies share 1 CPU"))
EOF
    like "$ERR" '^lat_syscall: null: warning: 4 copies share 1 CPU' "-P 4 on one CPU: the warning on stderr"
    no_process_left "$tag" "-P 4: no process left behind"

    # One sample: no spread.
    run_json "$CMD" -N 1 --json null
    json_checks "$T/json" <<'EOF'
-N 1: stdev, cv and ci95 are null
    .results[0].stats | .stdev == null and .cv == null and .ci95 == null and .n == 1
-N 1: a run id
    .run.id | type == "string" and test("^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$")
EOF
else
    for i in 1 2 3 4 5 6 7 8 9; do skip "jq missing or built without jansson"; done
fi

# --- lmbench run checks its environment and arguments once --------------------------------

run env ENOUGH=abc "$LMBENCH" run
is "$RC" 2 "lmbench run with ENOUGH=abc: exit status 2"
is "$(count_lines "$ERR")" 1 "lmbench run with ENOUGH=abc: one message"
like "$ERR" '^lmbench run: ENOUGH must be' "... naming ENOUGH"
is "$OUT" "" "... and no header"
run env LMBENCH_SCHED=often "$LMBENCH" run
is "$RC:$(count_lines "$ERR")" "2:1" "lmbench run with a bad LMBENCH_SCHED: exit 2, one message"
run "$LMBENCH" run -h extra
is "$RC" 2 "lmbench run -h extra: exit status 2"
run "$LMBENCH" run --help
is "$RC" 0 "lmbench run --help: exit status 0"

done_testing
