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

# -o - : the file on stdout, the questions on stderr.
run "$LMBENCH" config --defaults -o -
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q '^PROFILE=default$'; echo $?) "-o -: the file on stdout"
run "$LMBENCH" config --defaults -o "$T/nodir/x.conf"
is "$RC" 1 "-o into a missing directory: exit status 1"
check "no temporary file left" sh -c "! ls '$T' | grep -q '\\.tmp\$'"

done_testing
