#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench run's progress: the first line has an ETA (the plan's estimate), a
# failing step's message is printed once, and on a terminal the progress line
# fits the width, its step name cut at a word boundary. The steps fail on
# purpose (lat_select with too few descriptors: ulimit -n), so the runs take a
# second. The ETA's computation is tested in tests/unit/test_eta.c; the line
# that says how to resume an interrupted run in run.t.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/fs" "$T/w"
# Two steps: lat_select -n 100 file and tcp.
{
    printf 'PROFILE=quick\nENOUGH=300\nBENCHMARK_HARDWARE=NO\nBENCHMARK_NETWORK=NO\n'
    for s in SYSCALL PROC CTX PAGEFAULT FILE MMAP PIPE UNIX SIG; do
        echo "BENCHMARK_$s=NO"
    done
} >"$T/conf"
run "$LMBENCH" run -c "$T/conf" --fsdir "$T/fs" --list
is "$(printf '%s\n' "$OUT" | sed '$d' | awk '{ print $3 }' | sort -u)" "lat_select" "the plan: lat_select's steps only"
EST=$(printf '%s\n' "$OUT" | tail -n 1 | sed -n 's/.*; estimated time \([0-9hms]*\) (the first ETA)$/\1/p')
like "$EST" '^[0-9]+s$' "--list: the plan's estimated time, a few seconds for two small steps"

# --- a failing step, its message once -----------------------------------------------

(cd "$T/w" && ulimit -n 40 && "$LMBENCH" run -c "$T/conf" --fsdir "$T/fs" -o "$T/w/r1" >"$T/out" 2>"$T/err")
rc=$?
is "$rc" 1 "steps that fail: exit status 1"
# Before the run's closing lines (which list the failures once more, cut).
sed '/^lmbench run: done after /,$d' "$T/err" >"$T/steps.err"
is "$(grep -c 'descriptors needed, the limit is 40' "$T/steps.err")" 2 \
    "a failing step's message is printed once (two steps, two lines)"
like "$(cat "$T/steps.err")" '^lmbench run: lat_select -N 3 -n 100 file: failed: lat_select: file .*descriptors needed, the limit is 40 \(ulimit -n\)$' \
    "the one line names the step, its verdict and the reason"
is "$(grep '^lmbench run: \[1/' "$T/err")" "lmbench run: [1/2] lat_select -N 3 -n 100 file ETA $EST" \
    "the first progress line has an ETA: the plan's own estimate (--list's)"

# --- on a terminal: the line fits, cut at a word boundary ------------------------------

if command -v script >/dev/null 2>&1 && script -qfec true /dev/null >/dev/null 2>&1; then
    for cols in 45 40 30; do
        TERM=xterm script -qfec "stty cols $cols; ulimit -n 40; cd '$T/w' && '$LMBENCH' run -c '$T/conf' --fsdir '$T/fs' -o '$T/w/r$cols'" \
            /dev/null </dev/null >"$T/tty.out" 2>&1
        # The progress lines: what follows each "\r\033[K".
        tr '\r' '\n' <"$T/tty.out" | sed -n 's/^\x1b\[K\(\(lmbench run: \)\{0,1\}\[[0-9]*\/[0-9]*\].*\)$/\1/p' >"$T/lines"
        ok $([ -s "$T/lines" ]; echo $?) "a terminal $cols wide: progress lines rewritten in place"
        is "$(awk -v w="$cols" 'length($0) >= w' "$T/lines")" "" \
            "a terminal $cols wide: each progress line fits in it (the last column free)"
        # The name: whole words of the step's name, then "..." where cut.
        bad=$(sed 's/^\(lmbench run: \)\{0,1\}\[[0-9]*\/[0-9]*\] ETA [0-9hms]* //' "$T/lines" | while IFS= read -r l; do
            case "$l" in
            *...) p=${l%...}
                  case "lat_select -N 3 -n 100 file " in "$p "*) ;; *) echo "$l" ;; esac ;;
            *) [ "$l" = "lat_select -N 3 -n 100 file" ] || [ "$l" = "lat_select -N 3 -n 100 tcp" ] ||
                   echo "$l" ;;
            esac
        done)
        is "$bad" "" "a terminal $cols wide: the step's name is cut at a word boundary, with ..."
    done
    like "$(cat "$T/lines")" '\.\.\.$' "a terminal 30 wide: a name cut, with ..."
else
    skip "script (util-linux) missing: no terminal to test in"
fi

done_testing
