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
run "$CMD" -d "$T/nowhere" "$(free_port)"
is "$RC" 1 "a missing document tree: exit status 1"
like "$ERR" '^lmhttp: ' "a missing document tree: says so"
run "$CMD" -G /proc/no/such/dir
is "$RC" 1 "-G into a place it cannot write: exit status 1"
servers_gone
ok $? "nothing left running"

done_testing
