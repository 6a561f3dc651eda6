#!/bin/sh
# SPDX-License-Identifier: MIT
# lmdd: the print= forms, label=, files in and out (right sizes), skip= and
# seek= (also past 4 GiB), fsync=, --json, bad keys and files, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lmdd

# --- print= forms -------------------------------------------------------------------

run "$CMD" -N 3 count=100
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "count=100: exit 0, nothing on stdout"
one_line_like "$ERR" '^0\.8192 MB in [0-9]+\.[0-9]{4} secs, [0-9]+\.[0-9]{4} MB/sec$' \
    "print=0 (default): 'X MB in S secs, B MB/sec' with 819200 bytes = 0.8192 MB"
run "$CMD" -N 3 count=100 print=1
one_line_like "$ERR" '^[0-9]+\.[0-9]{2} MB/sec$' "print=1: 'B MB/sec'"
run "$CMD" -N 3 count=100 print=2
one_line_like "$ERR" '^[0-9]+\.[0-9]{4} secs$' "print=2: 'S secs'"
run "$CMD" -N 3 count=100 print=3 label="Internal copy: "
one_line_like "$ERR" '^Internal copy: [0-9]+ KB/sec$' "print=3 label=: '<label>K KB/sec'"
k=$(printf '%s\n' "$ERR" | awk '{ print $3 }')
positive "$k" "print=3: the bandwidth is positive"

# print=0 agrees with itself: MB/sec is MB / secs, within the rounding of secs
# to four decimals.
run "$CMD" -N 3 bs=64k count=64
line=$ERR
check "print=0: MB / secs is the MB/sec printed (within rounding)" awk -v l="$line" 'BEGIN {
    n = split(l, f, " "); mb = f[1]; s = f[4]; b = f[6]
    exit !(b >= 0.999 * mb / (s + 0.00005) && (s <= 0.00005 || b <= 1.001 * mb / (s - 0.00005))) }'

# --- files -----------------------------------------------------------------------------

run "$CMD" -N 3 of="$T/dd.out" bs=4k count=10 print=1
one_line_like "$ERR" '^[0-9]+\.[0-9]{2} MB/sec$' "of=FILE: the classic line"
is "$(wc -c <"$T/dd.out" | tr -d ' ')" 40960 "of=FILE bs=4k count=10: the file holds 40960 bytes"
run "$CMD" -N 3 of="$T/dd.out" move=10000 bs=4k fsync=1 print=1
is "$(wc -c <"$T/dd.out" | tr -d ' ')" 10000 "of=FILE move=10000 fsync=1: truncated, then 10000 bytes"
run "$CMD" -N 3 if="$T/dd.out" of="$T/dd.copy" bs=1k print=1
is "$RC" 0 "if=FILE without count: exit 0"
check "if=FILE of=FILE: an exact copy of the whole file" cmp -s "$T/dd.out" "$T/dd.copy"
run "$CMD" -N 3 if="$T/dd.out" bs=1000 skip=4 count=6 print=1
is "$RC" 0 "if=FILE skip=4 count=6 of 1000-byte blocks: exit 0 (reads exactly to the end)"
run "$CMD" -N 3 of="$T/dd.seek" bs=1k seek=3 count=2 print=1
is "$(wc -c <"$T/dd.seek" | tr -d ' ')" 5120 "of=FILE seek=3 count=2 (1k blocks): the file ends at 5120"
run "$CMD" -N 3 if=/dev/zero bs=1m count=4 print=1
one_line_like "$ERR" '^[0-9]+\.[0-9]{2} MB/sec$' "if=/dev/zero with a count: works"

# Offsets past 4 GiB: a sparse file of 5 GiB, read near its end.
if truncate -s 5g "$T/big" 2>/dev/null; then
    run "$CMD" -N 3 if="$T/big" bs=1m skip=5000 count=4 print=1
    one_line_like "$ERR" '^[0-9]+\.[0-9]{2} MB/sec$' "skip=5000 of 1m blocks in a 5 GiB file: works (64-bit offsets)"
    failed_run lmdd "skip=5118 count=4 of a 5 GiB file: too short, exit 1" "$CMD" -N 3 if="$T/big" bs=1m skip=5118 count=4
    like "$ERR" 'holds 2097152 bytes after skip=, fewer than the 4194304 asked for' "past the end: both counts, 64-bit"
    rm -f "$T/big"
else
    skip "offsets past 4 GiB: no sparse file here"
    skip "too short past 4 GiB: no sparse file here"
    skip "too short past 4 GiB: message"
fi

if json_usable; then
    run_json "$CMD" -N 3 --json bs=4k count=8
    json_one_record "$T/json" lmdd null MB/s
    json_ok "$T/json" '.results[0].params == {"bytes": 32768, "block_bytes": 4096}' \
        "--json: params bytes and block_bytes"
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input -------------------------------------------------------------------------

usage_error lmdd "$CMD"
usage_error lmdd "$CMD" bogus=1
usage_error lmdd "$CMD" count
usage_error lmdd "$CMD" count=0
usage_error lmdd "$CMD" count=-1
usage_error lmdd "$CMD" count=ten
usage_error lmdd "$CMD" bs=0 count=1
usage_error lmdd "$CMD" bs=2g count=1
usage_error lmdd "$CMD" count=1 move=1k
usage_error lmdd "$CMD" count=1 print=4
usage_error lmdd "$CMD" count=1 fsync=2
usage_error lmdd "$CMD" count=1 fsync=1
usage_error lmdd "$CMD" count=1 skip=1
usage_error lmdd "$CMD" of= count=1
usage_error lmdd "$CMD" if=/dev/zero
usage_error lmdd "$CMD" count=99999999999999999 bs=1m
usage_error lmdd "$CMD" -P 2 count=1

failed_run lmdd "if= a missing file: exit 1" "$CMD" -N 3 if="$T/missing" count=1
failed_run lmdd "if= a directory: exit 1" "$CMD" -N 3 if="$T" count=1
like "$ERR" 'is a directory' "if= a directory: says so"
failed_run lmdd "of= a directory: exit 1" "$CMD" -N 3 of="$T" count=1
like "$ERR" 'is a directory' "of= a directory: says so"
failed_run lmdd "if= a file too short for count=: exit 1" "$CMD" -N 3 if="$T/dd.out" bs=4k count=100
: >"$T/empty"
failed_run lmdd "if= an empty file: exit 1" "$CMD" -N 3 if="$T/empty"
failed_run lmdd "of= in a missing directory: exit 1" "$CMD" -N 3 of="$T/no/such/out" count=1

# --- special files: the same on both sides, never waited for (issue 15) --------------

# A FIFO would block the open until a partner came: refused at once, in the same
# words for if= and of= (timeout 10: a liveness bound, not a timing check).
mkfifo "$T/fifo"
for side in if of; do
    run timeout 10 "$CMD" -N 3 "$side=$T/fifo" count=1
    is "$RC" 1 "$side=FIFO: refused at once, exit 1 (124: it waited for a partner)"
    like "$ERR" "^lmdd: .*failed: '$T/fifo' is a FIFO, not a regular file or a device\$" \
        "$side=FIFO: says it is a FIFO, in the same words both sides"
    run timeout 10 "$CMD" -N 3 "$side=$T" count=1
    like "$ERR" "failed: '$T' is a directory, not a regular file or a device\$" \
        "$side=DIR: refused, in the same words both sides"
done
if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock" 2>/dev/null; then
    for side in if of; do
        run timeout 10 "$CMD" -N 3 "$side=$T/sock" count=1
        like "$ERR" "failed: '$T/sock' is a socket, not a regular file or a device\$" \
            "$side=SOCKET: refused at once, in the same words both sides"
    done
else
    skip "if=SOCKET: no python3 to make a Unix socket"
    skip "of=SOCKET: no python3 to make a Unix socket"
fi
run "$CMD" -N 3 of=/dev/null bs=4k count=4 print=1
one_line_like "$ERR" '^[0-9]+\.[0-9]{2} MB/sec$' "of=/dev/null: a character device that is ready: works"
failed_run lmdd "of=/dev/full: the write fails, exit 1" "$CMD" -N 3 of=/dev/full count=1
like "$ERR" "write '/dev/full': No space left on device" "of=/dev/full: says why, the path quoted"
run "$CMD" -N 3 if=/dev/urandom bs=4k count=4 print=1
one_line_like "$ERR" '^[0-9]+\.[0-9]{2} MB/sec$' "if=/dev/urandom with a count: works"

# A label is the user's text: its control bytes never reach the terminal raw.
esc=$(printf '\033')
run "$CMD" -N 3 count=1 print=1 "label=x${esc}[31m: "
ok $(printf '%s' "$ERR" | grep -q "$esc"; [ $? = 1 ]; echo $?) "label= with an escape: no raw ESC byte in the output"
like "$ERR" '^x\\x1b\[31m: [0-9.]+ MB/sec$' "label= with an escape: shown as \\x1b"

# --- the memory guard (issue 15): bs= beyond the memory cgroup's room ----------------

. "$(dirname "$0")/lib-cgroup.sh"
if memcg_make 256m; then
    memcg_refused lmdd "bs=1g count=1 in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -N 1 bs=1g count=1
    like "$ERR" 'the block \(bs=1073741824 bytes\) needs 1\.0 GiB of memory' \
        "bs=1g in 256 MiB: the message names the block"
    memcg_run "$CMD" -N 3 bs=1m count=4 print=1
    one_line_like "$ERR" '^[0-9]+\.[0-9]{2} MB/sec$' "bs=1m in the same cgroup: runs"
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
    skip "memory cgroup: $MEMCG_WHY"
    skip "memory cgroup: $MEMCG_WHY"
fi

# --- signals ---------------------------------------------------------------------------

interrupted_running "of=FILE" "$CMD" -N 1000 --min-time 0.2 of="$T/sigout" bs=64k count=16

done_testing
