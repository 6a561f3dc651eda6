#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench run's input is bounded and strict (issue 15): -c takes a regular file
# of at most 1 MiB with lines of at most 64 KiB, refused at once otherwise
# (/dev/zero, a FIFO, a directory, a big file, an endless line); a control
# character in a config line is an error naming the line; the file's name is
# escaped in messages; and every option that takes a value refuses an empty
# one (as the benchmarks do: --cpus '' is "empty CPU list") and the values a
# benchmark would refuse.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

cd "$T" || exit 1

# A config error: exit status 2, the first line of stderr "lmbench run: MSG"
# (then the usage), nothing on stdout. bad_config DESC PATTERN ARGS...
bad_config() {
    _d=$1 _p=$2
    shift 2
    run timeout 20 "$LMBENCH" run "$@" --list
    is "$RC" 2 "$_d: exit status 2"
    like "$(printf '%s\n' "$ERR" | sed -n 1p)" "^lmbench run: $_p" "$_d: the message"
    is "$OUT" "" "$_d: nothing on stdout"
}

# --- -c: regular files only, at once ------------------------------------------------------

bad_config "-c /dev/zero" '/dev/zero is a character device, not a regular file$' -c /dev/zero
mkfifo "$T/fifo" || exit 1
bad_config "-c FIFO (no writer: refused, not waited on)" "$T/fifo is a FIFO, not a regular file\$" \
    -c "$T/fifo"
mkdir "$T/dir"
bad_config "-c DIR" "$T/dir is a directory, not a regular file\$" -c "$T/dir"
bad_config "-c MISSING" "$T/missing: No such file or directory\$" -c "$T/missing"
if [ "$(id -u)" != 0 ]; then
    printf 'MB=1\n' >"$T/noread"
    chmod 000 "$T/noread"
    bad_config "-c UNREADABLE" "$T/noread: Permission denied\$" -c "$T/noread"
else
    skip "-c UNREADABLE: root reads every file" 3
fi

# --- the limits: 1 MiB, lines of 64 KiB -------------------------------------------------

# A file of comments a little over 1 MiB.
awk 'BEGIN { for (i = 0; i < 17000; i++) printf "# %s\n", sprintf("%060d", i) }' >"$T/big"
bad_config "-c a 1.0 MiB+ file" "$T/big is 1\\.0 MiB; the limit for this file is 1\\.0 MiB\$" \
    -c "$T/big"
# One line of 70,000 bytes (a comment), after a good line.
{ printf 'MB=1\n# '; awk 'BEGIN { for (i = 0; i < 7000; i++) printf "xxxxxxxxxx" }'; printf '\n'; } \
    >"$T/long"
bad_config "-c a line over 64 KiB" "$T/long:2: a line is longer than 65536 bytes\$" -c "$T/long"
# Just under the limits: read.
{ printf '# '; awk 'BEGIN { for (i = 0; i < 6500; i++) printf "xxxxxxxxxx" }'; printf '\nMB=1\n'; } \
    >"$T/longok"
run "$LMBENCH" run -c "$T/longok" --list
is "$RC" 0 "-c a line of 65,000 bytes: read"

# --- control characters: an error naming the line --------------------------------------

printf 'PROFILE=quick\nMB=6\0004\n' >"$T/nul"
bad_config "a NUL byte in MB=6\\0 4" "$T/nul:2: a NUL byte" -c "$T/nul"
printf 'PROFILE=quick\nFILE=/tmp/a\001b\n' >"$T/ctl"
bad_config "a control character in FILE's value" "$T/ctl:2: a control character \\(\\\\x01\\)" \
    -c "$T/ctl"
printf '# a comment with an escape \033[31m red\nMB=1\n' >"$T/esc"
bad_config "an escape in a comment" "$T/esc:1: a control character \\(\\\\x1b\\)" -c "$T/esc"
printf 'MB=1\rPROFILE=quick\n' >"$T/cr"
bad_config "a carriage return inside a line" "$T/cr:1: a control character \\(\\\\x0d\\)" -c "$T/cr"
# Tabs and a CRLF line end are text.
printf 'MB=1\t# tab\r\nPROFILE=quick\r\n' >"$T/crlf"
run "$LMBENCH" run -c "$T/crlf" --list
is "$RC" 0 "tabs and CRLF line ends: read"
for key in PROFILE SYNC_MAX LMBENCH_SCHED CPUS MB FSDIR REMOTE ENOUGH REPETITIONS TIMEOUT \
           BENCHMARK_OS BENCHMARK_TCP MHZ; do
    printf '%s="1\0022"\n' "$key" >"$T/k"
    run "$LMBENCH" run -c "$T/k" --list
    like "$(printf '%s\n' "$ERR" | sed -n 1p)" "^lmbench run: $T/k:1: a control character \\(\\\\x02\\)" \
        "a control character in $key's value: named with its line (exit $RC)"
done

# The file's name is escaped in the messages (a terminal gets no escape code).
ESCNAME=$(printf 'e\033[2Jx')
printf 'MB=abc\n' >"$T/$ESCNAME"
run "$LMBENCH" run -c "$T/$ESCNAME" --list
is "$RC" 2 "a bad file with an escape in its name: exit status 2"
like "$(printf '%s\n' "$ERR" | sed -n 1p)" '^lmbench run: .*/e\\x1b\[2Jx:1: MB: ' \
    "... its name is escaped in the message"
printf 'FSDIR=/nonexistent/x\n' >"$T/$ESCNAME"
run "$LMBENCH" run -c "$T/$ESCNAME" --list
like "$(printf '%s\n' "$ERR" | sed -n 1p)" '^lmbench run: .*/e\\x1b\[2Jx:1: FSDIR ' \
    "... also in a check of a value after reading (FSDIR)"

# --- options: empty values and the benchmarks' rules -----------------------------------

verb_usage_error run --cpus '' --list
like "$(printf '%s\n' "$ERR" | sed -n 1p)" '^lmbench run: --cpus: empty CPU list$' \
    "--cpus '': the benchmarks' message"
verb_usage_error run --cpus= --list
verb_usage_error run --cpus ' ' --list
verb_usage_error run --cpus '0,' --list
for opt in --profile --sched --mb --fsdir --enough --timeout -P -N --remote --groups -o -c \
           --launches --disturbed; do
    verb_usage_error run "$opt" '' --list
    like "$(printf '%s\n' "$ERR" | sed -n 1p)" "^lmbench run: $opt: " "$opt '': the message names the option"
done
verb_usage_error run --mb 64x --list
like "$(printf '%s\n' "$ERR" | sed -n 1p)" "^lmbench run: --mb: '64x' is not a whole number" \
    "--mb 64x: the message names the option"
verb_usage_error run --groups os, --list
verb_usage_error run --groups ,os --list
verb_usage_error run --groups "os,$(printf 'hardware,%.0s' $(seq 30))" --list
verb_usage_error run --remote 'a b' --list
verb_usage_error run --launches ' 5' --list
verb_usage_error run --launches +5 --list
verb_usage_error run --disturbed ' 5' --list
verb_usage_error run --disturbed 0x10 --list
verb_usage_error run --timeout 86401 --list
verb_usage_error run -P 0 --list
LONG=$(printf 'd%.0s' $(seq 3000))
verb_usage_error run -o "$T/$LONG" --list
like "$(printf '%s\n' "$ERR" | sed -n 1p)" '^lmbench run: -o: .{0,300}too long' \
    "-o with a 3000-byte path: refused, not cut, and not echoed whole"
# --resume reads the run's .jsonl as outside data too: a FIFO or a link to
# /dev/zero put in its place is refused at once (a FIFO blocked for good).
# (A build without jansson has no .jsonl to resume from: it says so, exit 3.)
"$BIN/lat_syscall" --json -N 1 null >/dev/null 2>&1
if [ $? -ne 3 ]; then
    mkdir "$T/res" || exit 1
    HOSTN=$(uname -n)
    mkfifo "$T/res/$HOSTN.0.jsonl" || exit 1
    run timeout 20 "$LMBENCH" run --resume -o "$T/res"
    is "$RC" 1 "--resume with a FIFO for the .jsonl: exit status 1, at once"
    like "$ERR" "--resume: .*$HOSTN\.0\.jsonl: not a regular file" "--resume with a FIFO: said so"
    rm -f "$T/res/$HOSTN.0.jsonl"
    ln -s /dev/zero "$T/res/$HOSTN.0.jsonl"
    run timeout 20 "$LMBENCH" run --resume -o "$T/res"
    is "$RC" 1 "--resume with /dev/zero for the .jsonl: exit status 1, at once"
    like "$ERR" "--resume: .*$HOSTN\.0\.jsonl: not a regular file" "--resume with /dev/zero: said so"
else
    mkdir "$T/res" || exit 1
    run timeout 20 "$LMBENCH" run --resume -o "$T/res"
    is "$RC" 3 "--resume, built without jansson: exit status 3"
    like "$ERR" "--resume: skipped: built without jansson" "--resume, built without jansson: said so"
    skip "--resume with /dev/zero: built without jansson"
    skip "--resume with /dev/zero: built without jansson"
fi

# What stays accepted.
run "$LMBENCH" run --cpus 0 --groups os,hardware --launches 2 --disturbed 5.5 --list
is "$RC" 0 "good values: accepted"

done_testing
