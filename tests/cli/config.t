#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench config: answers fed on stdin, invalid answers asked again, defaults
# at the end of input, --defaults, and the file read back by lmbench run -c.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

verb_contract config
verb_usage_error config extra
verb_usage_error config -o

cd "$T" || exit 1

# --defaults: no question, every key.
run "$LMBENCH" config --defaults -o "$T/d.conf"
is "$RC" 0 "--defaults: exit status 0"
like "$OUT" "^lmbench config: wrote $T/d.conf; run it with: lmbench run -c $T/d.conf\$" "--defaults: says what it wrote"
D=$(cat "$T/d.conf")
for kv in 'PROFILE=default' 'SYNC_MAX=1' 'LMBENCH_SCHED="DEFAULT"' 'BENCHMARK_HARDWARE=YES' \
          'BENCHMARK_OS=YES' 'BENCHMARK_NETWORK=YES' 'REMOTE=""' 'ENOUGH='; do
    like "$D" "^$kv\$" "--defaults: $kv"
done
like "$D" '^FSDIR=/' "--defaults: FSDIR, a directory"
run "$LMBENCH" run -c "$T/d.conf" --list
is "$RC" 0 "the defaults file is read by lmbench run -c"

# Without -o: CONFIG.<hostname> in the current directory.
run "$LMBENCH" config --defaults
check "without -o: CONFIG.<hostname>" test -s "$T/CONFIG.$(hostname)"

# Answers on stdin, in the order of the questions: profile, copies, placement,
# memory, FSDIR, hardware, OS, network, (remote hosts), ENOUGH.
mkdir -p "$T/fs"
printf 'quick\n2\nBALANCED\n8\n%s\nyes\nno\nyes\nhostA hostB\n500\n' "$T/fs" |
    "$LMBENCH" config -o "$T/a.conf" >"$T/out" 2>"$T/err"
is "$?" 0 "answers on stdin: exit status 0"
A=$(cat "$T/a.conf")
for kv in 'PROFILE=quick' 'SYNC_MAX=2' 'LMBENCH_SCHED="BALANCED"' 'MB=8' "FSDIR=$T/fs" \
          'BENCHMARK_HARDWARE=YES' 'BENCHMARK_OS=NO' 'BENCHMARK_NETWORK=YES' \
          'REMOTE="hostA hostB"' 'ENOUGH=500'; do
    like "$A" "^$kv\$" "answers: $kv"
done
like "$(cat "$T/out")" '^Profile \(quick, default, full\) \[default\]: quick$' \
    "answers are echoed after their question when stdin is not a terminal"
run "$LMBENCH" run -c "$T/a.conf" --list
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q 'bw_mem -N 3 -P 2 ' &&
     printf '%s\n' "$OUT" | grep -q 'hostA' && ! printf '%s\n' "$OUT" | grep -q ' os  '; echo $?) \
    "lmbench run -c reads the answers (quick, -P 2, remote hostA, no OS steps)"

# Wrong answers are explained and asked again; the end of input takes defaults.
printf 'slow\nfull\n0\n3\n' | "$LMBENCH" config -o "$T/b.conf" >"$T/out" 2>"$T/err"
is "$?" 0 "wrong answers then the end of input: exit status 0"
B=$(cat "$T/b.conf")
like "$B" '^PROFILE=full$' "a wrong profile is asked again"
like "$B" '^SYNC_MAX=3$' "a wrong copy count (0) is asked again"
like "$(cat "$T/out")" "PROFILE: expected quick, default or full, got 'slow'" "the wrong answer is explained"
like "$B" '^LMBENCH_SCHED="DEFAULT"$' "after the end of input: the defaults"
printf '\n\nCUSTOM "0 x"\n' | "$LMBENCH" config -o "$T/c.conf" >"$T/out" 2>"$T/err"
like "$(cat "$T/out")" '^  placement: ' "a placement that does not parse is explained"
like "$(cat "$T/c.conf")" '^LMBENCH_SCHED="DEFAULT"$' "... and the default kept"
printf '\n\n\n\n/nonexistent/dir\n' | "$LMBENCH" config -o "$T/e.conf" >"$T/out" 2>"$T/err"
like "$(cat "$T/out")" 'FSDIR /nonexistent/dir: not a directory' "a missing FSDIR is explained"
unlike "$(cat "$T/e.conf")" '^FSDIR=/nonexistent' "... and not written"

# --defaults and the end of input at the first question write the same file.
"$LMBENCH" config --defaults -o "$T/def1.conf" >/dev/null 2>&1
"$LMBENCH" config -o "$T/def2.conf" </dev/null >"$T/out" 2>&1
check "--defaults and </dev/null: the same file, byte for byte" cmp "$T/def1.conf" "$T/def2.conf"
printf '' | "$LMBENCH" config -o "$T/def3.conf" >/dev/null 2>&1
check "... and an empty script on stdin" cmp "$T/def1.conf" "$T/def3.conf"
like "$(cat "$T/def1.conf")" '^MB=[0-9]+$' "--defaults: MB, the size the question offers"
like "$(cat "$T/def1.conf")" '^BENCHMARK_SYSCALL=$' "--defaults: lmbench 3's per-benchmark switches, empty"
unlike "$(cat "$T/def1.conf")" '[0-9]{4}-[0-9]{2}-[0-9]{2}' "no date in the file (the same answers, the same file)"
run "$LMBENCH" run -c "$T/def1.conf" --list
is "$RC:$ERR" "0:" "lmbench run -c reads it, with no key ignored"

# The MB question checks the size against the memory available now: too large
# is explained and asked again; at the end of input the default stays.
printf '\n\n\n1073741824\n16\n' | "$LMBENCH" config -o "$T/m.conf" >"$T/out" 2>"$T/err"
is "$?" 0 "a memory size too large, then a fitting one: exit status 0"
like "$(cat "$T/out")" '^  MB 1073741824 is too large here: the copy benchmarks use twice it in each of 1 copy, which needs .* is available .*; at most [0-9]+ fits$' \
    "MB larger than the available memory: refused with the reason and what fits"
like "$(cat "$T/out")" 'at most [0-9]+ here\.$' "the question says how much fits"
like "$(cat "$T/m.conf")" '^MB=16$' "... and asked again"
printf '\n4\n\n1073741824\n' | "$LMBENCH" config -o "$T/m2.conf" >"$T/out" 2>"$T/err"
like "$(cat "$T/out")" 'in each of 4 copies' "the copies at once count in the memory needed"
like "$(cat "$T/m2.conf")" '^MB=[0-9]+$' "too large then the end of input: the default"
unlike "$(cat "$T/m2.conf")" '^MB=1073741824$' "... never the size that does not fit"
# A smaller address-space limit is what is available (the question's rule).
if [ -n "${LMBENCH_SANITIZED:-}" ]; then
    # ASan reserves terabytes of address space for its shadow: it cannot start
    # under a 2 GB RLIMIT_AS.
    skip "ulimit -v: the sanitized binary cannot run under a small RLIMIT_AS"
    skip "ulimit -v: the sanitized binary cannot run under a small RLIMIT_AS"
elif (ulimit -v 2000000 2>/dev/null); then
    (ulimit -v 2000000; printf '\n\n\n4096\n' | "$LMBENCH" config -o "$T/m3.conf" >"$T/out" 2>"$T/err")
    like "$(cat "$T/out")" 'MB 4096 is too large here: .*RLIMIT_AS' "under ulimit -v 2 GB: MB 4096 is refused, RLIMIT_AS named"
    like "$(cat "$T/m3.conf")" '^MB=[0-9]+$' "... and a default that fits is written"
else
    skip "ulimit -v is not available"
    skip "ulimit -v is not available"
fi

# -o - : the file on stdout, the questions on stderr.
run "$LMBENCH" config --defaults -o -
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q '^PROFILE=default$'; echo $?) "-o -: the file on stdout"
run "$LMBENCH" config --defaults -o "$T/nodir/x.conf"
is "$RC" 1 "-o into a missing directory: exit status 1"
check "no temporary file left" sh -c "! ls '$T' | grep -q '\\.tmp\$'"

# --- answers are bounded lines of text (issue 15) ----------------------------------
# A NUL in an answer: refused (was read as the bytes before it: MB=6).
printf '\n\n\n6\0004\n' | "$LMBENCH" config -o "$T/nul.conf" >"$T/out" 2>"$T/err"
like "$(cat "$T/out")" 'an answer is text: a control character \(\\x00\)' "a NUL in an answer: refused, said"
unlike "$(cat "$T/nul.conf")" '^MB=6$' "... never read as the bytes before it"
# An answer line over 1023 bytes: refused whole, its tail not taken as the next answer.
printf '%1030sfull\nquick\n' '' | "$LMBENCH" config -o "$T/long.conf" >"$T/out" 2>"$T/err"
like "$(cat "$T/out")" 'an answer has at most 1023 bytes' "an answer of 1034 bytes: refused, said"
like "$(cat "$T/long.conf")" '^PROFILE=quick$' "... and the question asked again (the next line answers it)"
# An answer with an escape code (a directory that exists): refused, so that
# the file written is one run -c reads.
ESCDIR="$T/$(printf 'e\033x')"
mkdir "$ESCDIR"
printf '\n\n\n\n%s\n' "$ESCDIR" | "$LMBENCH" config -o "$T/esc.conf" >"$T/out" 2>"$T/err"
like "$(cat "$T/out")" 'an answer is text: a control character \(\\x1b\)' "an escape in FSDIR's answer: refused"
run "$LMBENCH" run -c "$T/esc.conf" --list
is "$RC" 0 "... and the file written is read by lmbench run -c"
# /dev/zero on stdin: no lines, no answers; the defaults, at once.
timeout 20 "$LMBENCH" config -o "$T/zero.conf" </dev/zero >"$T/out" 2>"$T/err"
is "$?" 0 "stdin /dev/zero: exit status 0"
like "$(cat "$T/out")" 'standard input is not lines of answers' "... says stdin is not answers"
is "$(grep -v '^#' "$T/zero.conf")" "$(grep -v '^#' "$T/d.conf")" "... and writes the defaults"

done_testing
