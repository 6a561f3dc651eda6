#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_http: the HTTP server (lat_http -s) start and stop, the Avg xfer line
# for the generated tree's URLS, --json, bad input (URLs, hosts), bad requests
# to the server, silent and dead servers, nothing left running.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/lat_http
WWW=$LMBENCH_BUILD/share/lmbench/www
LINE='^Avg xfer: [0-9]+\.[0-9]KB, [0-9]+\.[0-9]KB in [0-9]+\.[0-9]{4} millisecs, [0-9]+\.[0-9]{2} MB/sec$'

check "the build generated the document tree and its URLS" test -s "$WWW/URLS"
# The client reads the URLs on standard input.
cat >"$T/client" <<EOS
#!/bin/sh
exec "$CMD" "\$@" <"$WWW/URLS"
EOS
chmod +x "$T/client"
NET_CLIENT=$T/client
NET_NO_REMOTE=1
GARBAGE="GET /../../etc/passwd HTTP/1.0\\r\\n\\r\\n
GET /index.html HTTP/9.9\\r\\n\\r\\n
DELETE /index.html HTTP/1.0\\r\\n\\r\\n
\\001\\002\\003 binary
GET /$(head -c 3000 /dev/zero | tr '\0' a) HTTP/1.0\\r\\n\\r\\n"
net_suite lat_http "$LINE" tcp

if start_server lat_http; then
    run "$T/client" -p "$PORT" -N 3 127.0.0.1
    one_line_like "$ERR" '^Avg xfer: 3\.2KB, 41\.8KB in ' "the generated tree: 13 files, 41.8 KB"
    run sh -c "\"$CMD\" -N 3 127.0.0.1 $PORT <\"$WWW/URLS\""
    one_line_like "$ERR" "$LINE" "the port as the last argument, as lmbench 3 had it"
    if json_usable; then
        run_json "$T/client" -p "$PORT" -N 3 --json 127.0.0.1
        json_ok "$T/json" ".results[0] | .unit == \"MB/s\" and .params.port == $PORT
                 and .params.kbytes == 41.8 and .params.ms > 0" "--json: port, kbytes, ms"
    fi
    if [ "$HAVE_BASH" = yes ]; then
        like "$(send_raw tcp "$PORT" 'GET /index.html HTTP/1.0\r\n\r\n')" '^485454502f312e3020323030' \
            "GET /index.html: 200"
        like "$(send_raw tcp "$PORT" 'GET /../URLS HTTP/1.0\r\n\r\n')" '^485454502f312e3020343034' \
            "GET /../URLS: 404 (nothing outside the tree)"
        like "$(send_raw tcp "$PORT" 'PUT / HTTP/1.0\r\n\r\n')" '^485454502f312e3020343035' \
            "PUT: 405"
        like "$(send_raw tcp "$PORT" 'GET //etc/passwd HTTP/1.0\r\n\r\n')" '^485454502f312e3020343034' \
            "GET //etc/passwd: 404 (no absolute paths)"
    fi
    printf '/index.html\n/no-such-file.html\n' >"$T/urls"
    run sh -c "\"$CMD\" -p $PORT -N 3 127.0.0.1 <\"$T/urls\""
    is "$RC" 1 "a URL that is not there: exit status 1"
    like "$ERR" '404' "a URL that is not there: says 404"
    printf '/index.html\n/../etc/passwd\n' >"$T/urls"
    run sh -c "\"$CMD\" -p $PORT 127.0.0.1 <\"$T/urls\""
    is "$RC" 2 "a URL outside the tree: a usage error"
    usage_error lat_http "$CMD" -p "$PORT" 127.0.0.1
    usage_error lat_http "$CMD" -p "$PORT" 127.0.0.1 "$PORT"
    usage_error lat_http "$CMD" 127.0.0.1 99999
    # An empty -d was taken as "the default tree" and a server started.
    usage_error lat_http "$CMD" -s -d '' -p "$PORT"
    stop_server lat_http
fi
run "$CMD" -s -d "$T/no-such-dir"
is "$RC" 1 "-s with a missing document tree: exit status 1"
servers_gone
ok $? "nothing left running"

done_testing
