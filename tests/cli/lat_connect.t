#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_connect: server start and stop, the classic line, --json, bad input,
# garbage to the server, silent and dead servers, no TIME_WAIT left behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/lat_connect
LINE='^TCP/IP connection cost to (127\.0\.0\.1|localhost): [0-9]+\.[0-9]{4} microseconds$'
GARBAGE="$(req_bytes 3 3 1)
$(req_bytes 3 1 4294967295)
$(req_bytes 1 3 1)
GET / HTTP/1.0\\r\\n\\r\\n"
net_suite lat_connect "$LINE" tcp

# -l: no server, the other end a partner placed by the harness.
net_local_suite lat_connect '^TCP/IP connection cost to localhost: [0-9]+\.[0-9]{4} microseconds$'

if start_server lat_connect; then
    # Repeated runs leave no connection in TIME_WAIT on the server's port.
    for i in 1 2 3; do
        run "$CMD" -p "$PORT" -N 5 127.0.0.1
    done
    one_line_like "$ERR" "$LINE" "the third run in a row: the classic line"
    tw=$(ss -Htan state time-wait 2>/dev/null | awk -v p=":$PORT" '$3 ~ p"$" || $4 ~ p"$"' | wc -l)
    is "$tw" 0 "no connection of these runs is left in TIME_WAIT"
    if json_usable; then
        run_json "$CMD" -p "$PORT" -N 3 --json 127.0.0.1
        json_ok "$T/json" '.results[0] | .case == null and (.params | keys) == ["host", "remote"]' \
            "--json: case null, params host and remote"
    fi
    usage_error lat_connect "$CMD" -p "$PORT" -m 10 127.0.0.1
    stop_server lat_connect
fi
servers_gone
ok $? "nothing left running"

done_testing
