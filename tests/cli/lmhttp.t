#!/bin/sh
# SPDX-License-Identifier: MIT
# lmhttp: starts the HTTP server in the background (port as an argument or
# -p), serves the tree, is stopped by lat_http -S; -G writes a tree; bad input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/lmhttp
WWW=$LMBENCH_BUILD/share/lmbench/www

run "$CMD" -G "$T/www"
is "$RC:$OUT$ERR" "0:" "-G DIR: exit 0, silent"
check "-G DIR: writes URLS" test -s "$T/www/URLS"
is "$(cd "$T/www" && cat $(sed 's|^/||' URLS) | wc -c | tr -d ' ')" 41800 "-G DIR: the listed files hold 41800 bytes"
check "-G DIR: the same tree as the build's" cmp -s "$T/www/index.html" "$WWW/index.html"

PORT=$(free_port)
run env LMB_TEST_TAG="$NET_TAG" "$CMD" -d "$T/www" "$PORT"
is "$RC:$OUT$ERR" "0:" "lmhttp PORT: exit 0 once it listens, silent"
net_server_checks lmhttp
run sh -c "\"$BIN/lat_http\" -N 3 127.0.0.1 $PORT <\"$T/www/URLS\""
one_line_like "$ERR" '^Avg xfer: 3\.2KB, 41\.8KB in ' "lat_http against it: the Avg xfer line"
run "$CMD" -d "$T/www" "$PORT"
is "$RC" 1 "a second lmhttp on the port: exit status 1"
like "$ERR" '^lmhttp: .*in use' "a second lmhttp on the port: says it is in use"
if [ "$HAVE_BASH" = yes ]; then
    # A symbolic link out of the tree leads nowhere.
    ln -s /etc "$T/www/out"
    like "$(send_raw tcp "$PORT" 'GET /out/hostname HTTP/1.0\r\n\r\n')" '^485454502f312e3020343034' \
        "a symbolic link out of the tree: 404"
    rm -f "$T/www/out"
fi

# Slow readers: clients that ask for a big file and never read cost only their
# own connections. A python3 helper holds N such connections (a small receive
# buffer each); meanwhile a plain GET must be answered (bounded with timeout 5:
# a liveness check, not a timing threshold) with the right bytes, and lat_http
# must measure; after the write deadline (5 s without progress, lmhttp(1)) the
# server has closed them (its descriptors fall back to what they were).
# Linux only: /proc/PID/fd and /proc/sys/net/ipv4/tcp_wmem.
cat >"$T/stall.py" <<'PY'
import socket, sys, time
port, n, path, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
socks = []
for i in range(n):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(("GET /%s HTTP/1.0\r\n\r\n" % path).encode())
    socks.append(s)
open(ready, "w").close()
time.sleep(60)
PY
# fd_count PID: how many descriptors the process has open.
fd_count() {
    ls "/proc/$1/fd" 2>/dev/null | wc -l | tr -d ' '
}
fd_at_most() {
    [ "$(fd_count "$1")" -le "$2" ]
}
fd_at_least() {
    [ "$(fd_count "$1")" -ge "$2" ]
}
# plain_get PORT PATH OUT: a GET through bash's /dev/tcp, within 5 s.
plain_get() {
    timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
        printf "GET /%s HTTP/1.0\r\n\r\n" "$2" >&3
        cat <&3 >"$3"' sh "$1" "$2" "$3" 2>/dev/null
}
# slow_readers N WHAT: the whole check with N stalled clients.
slow_readers() {
    _srv=$(server_pid)
    _base=$(fd_count "$_srv")
    rm -f "$T/ready"
    env LMB_TEST_TAG="$NET_TAG" python3 "$T/stall.py" "$PORT" "$1" big.bin "$T/ready" \
        </dev/null >/dev/null 2>&1 &
    _stall=$!
    BG_PIDS="$BG_PIDS $_stall"
    wait_for "stalled clients connected" 50 test -e "$T/ready"
    ok $? "$2: $1 clients that never read are connected"
    # Each one is being answered (a socket and its file), none waits behind
    # another: at most the cap (64) of them at once.
    _held=$1
    [ "$_held" -gt 64 ] && _held=64
    wait_for "all answered at once" 50 fd_at_least "$_srv" $((_base + 2 * _held))
    _seen=$?
    ok $_seen "$2: the server answers $_held of them at once (descriptors: $_base before, $(fd_count "$_srv") now)"
    plain_get "$PORT" index.html "$T/got"
    _rc=$?
    _size=$(wc -c <"$T/www/index.html" | tr -d ' ')
    is "$_rc:$(head -n 1 "$T/got" | tr -d '\r')" "0:HTTP/1.0 200 OK" \
        "$2: a GET meanwhile is answered (within timeout 5), 200"
    check "$2: ... with the file's bytes" sh -c \
        'tail -c "$1" "$2" | cmp -s - "$3" && [ "$(wc -c <"$2")" -gt "$1" ]' sh "$_size" \
        "$T/got" "$T/www/index.html"
    run timeout 20 sh -c "\"$BIN/lat_http\" -N 3 127.0.0.1 $PORT <\"$T/www/URLS\""
    one_line_like "$ERR" '^Avg xfer: 3\.2KB, 41\.8KB in ' "$2: lat_http measures meanwhile"
    # The deadline is 5 s without progress; 10 s more is slack for a busy machine.
    # (Counted only when they were all held: a server that served them one
    # after another would have no descriptors left over for a reason of its own.)
    wait_for "stalled connections closed" 150 fd_at_most "$_srv" "$_base"
    ok $(($? + _seen)) "$2: after the deadline the server has closed them (descriptors back to $_base: $(fd_count "$_srv"))"
    kill "$_stall" 2>/dev/null
    wait "$_stall" 2>/dev/null
}
# The big file (sparse) is four times the most a TCP send buffer may grow to
# here, and at least 16 MiB, so that no answer fits the server's buffer.
BIG=$(awk '{ print $3 }' /proc/sys/net/ipv4/tcp_wmem 2>/dev/null)
case $BIG in
'' | *[!0-9]*) BIG=0 ;;
esac
BIG=$((BIG * 4))
[ "$BIG" -ge 16777216 ] || BIG=16777216
if [ "$HAVE_BASH" = yes ] && command -v python3 >/dev/null 2>&1 &&
   truncate -s "$BIG" "$T/www/big.bin" 2>/dev/null; then
    # A client that reads gets the whole big file (the answer sent as the
    # socket takes it, past what fits its buffer at once).
    plain_get "$PORT" big.bin "$T/got"
    _rc=$?
    check "a GET of a $BIG-byte file: exit $_rc, all its bytes after the header" sh -c \
        'tail -c "$3" "$1" | cmp -s - "$2" && [ "$(wc -c <"$1")" -gt "$3" ] &&
         head -n 1 "$1" | grep -q "^HTTP/1.0 200 OK"' sh "$T/got" "$T/www/big.bin" "$BIG"
    slow_readers 5 "five slow readers"
    # More than the cap (64 connections being answered): the stalest make
    # room, the newcomer is served.
    slow_readers 70 "70 slow readers"
    rm -f "$T/www/big.bin" "$T/got" "$T/ready"
else
    skip "slow readers: need bash, python3 and truncate"
fi

run "$BIN/lat_http" -S 127.0.0.1 "$PORT"
is "$RC" 0 "lat_http -S: exit 0"
servers_gone
ok $? "lat_http -S: the server is gone"

# DOCROOT, as lmbench 3's scripts set it.
PORT=$(free_port)
run env LMB_TEST_TAG="$NET_TAG" DOCROOT="$T/www" "$CMD" -p "$PORT"
is "$RC" 0 "DOCROOT=DIR lmhttp -p PORT: exit 0"
run "$BIN/lat_http" -S 127.0.0.1 -p "$PORT"
servers_gone
ok $? "stopped"

usage_error lmhttp "$CMD" 0
usage_error lmhttp "$CMD" 1 2
usage_error lmhttp "$CMD" -p 8008 8008
usage_error lmhttp "$CMD" -N 3
usage_error lmhttp "$CMD" -b no-such-host.invalid
usage_error lmhttp "$CMD" -a no-such-host.invalid
usage_error lmhttp "$CMD" -p abc
usage_error lmhttp "$CMD" -p ''
usage_error lmhttp "$CMD" abc
usage_error lmhttp "$CMD" -d ''
# -G writes a tree and exits: the server's options are errors there, not ignored.
usage_error lmhttp "$CMD" -G "$T/g" -p abc
usage_error lmhttp "$CMD" -G "$T/g" -p 8008
usage_error lmhttp "$CMD" -G "$T/g" -b 127.0.0.1
usage_error lmhttp "$CMD" -G "$T/g" -a 127.0.0.1
usage_error lmhttp "$CMD" -G "$T/g" -d "$T/www"
usage_error lmhttp "$CMD" -G "$T/g" 8008
usage_error lmhttp "$CMD" -G ''
json_usable && usage_error lmhttp "$CMD" -G "$T/g" --json
check "-G with a bad option writes nothing" test ! -e "$T/g"
run "$CMD" -p "$(printf 'a\033[2Jb')"
like "$ERR" "^lmhttp: -p: .*'a\\\\x1b\\[2Jb'" "a bad port is named quoted (escape codes escaped)"
run "$CMD" -d "$T/nowhere" "$(free_port)"
is "$RC" 1 "a missing document tree: exit status 1"
like "$ERR" '^lmhttp: ' "a missing document tree: says so"
run "$CMD" -G /proc/no/such/dir
is "$RC" 1 "-G into a place it cannot write: exit status 1"
servers_gone
ok $? "nothing left running"

done_testing
