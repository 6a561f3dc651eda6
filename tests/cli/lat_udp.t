#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_udp: server start and stop, the classic line, --json, bad input, garbage
# datagrams to the server, silent and dead servers, nothing left running.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/lat_udp
LINE='^UDP latency using (127\.0\.0\.1|localhost): [0-9]+\.[0-9]{4} microseconds$'
# An oversize datagram size; too small; another benchmark's; an unknown op; a short one.
GARBAGE="$(req_bytes 2 3 4294967295)
$(req_bytes 2 3 1)
$(req_bytes 1 3 4)
$(req_bytes 2 9 4)
\\114\\115\\116\\061"
net_suite lat_udp "$LINE" udp

# -l: no server, the other end a partner placed by the harness.
net_local_suite lat_udp '^UDP latency using localhost: [0-9]+\.[0-9]{4} microseconds$'

if start_server lat_udp; then
    for m in 4 1k 65507; do
        run "$CMD" -p "$PORT" -m "$m" -N 3 127.0.0.1
        one_line_like "$ERR" "$LINE" "-m $m: the classic line"
    done
    if json_usable; then
        run_json "$CMD" -p "$PORT" -m 100 -N 3 --json 127.0.0.1
        json_ok "$T/json" '.results[0].params | .msg_bytes == 100 and (.ends | IN("same_cpu", "two_cpus", "unpinned"))' \
            "--json: msg_bytes and ends"
    fi
    usage_error lat_udp "$CMD" -p "$PORT" -m 3 127.0.0.1
    usage_error lat_udp "$CMD" -p "$PORT" -m 65508 127.0.0.1
    # Sessions are processes of their own; each copy gets one.
    run "$CMD" -p "$PORT" -N 3 -P 2 127.0.0.1
    one_line_like "$ERR" "$LINE" "-P 2: the classic line"
    stop_server lat_udp
fi
servers_gone
ok $? "nothing left running"

done_testing
