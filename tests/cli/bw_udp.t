#!/bin/sh
# SPDX-License-Identifier: MIT
# bw_udp: server start and stop, the classic line, --json, bad input, garbage
# datagrams to the server, silent and dead servers, nothing left running.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/bw_udp
LINE='^socket UDP bandwidth using (127\.0\.0\.1|localhost): [0-9]+\.[0-9]{2} MB/sec$'
GARBAGE="$(req_bytes 5 4 4294967295)
$(req_bytes 5 4 3)
$(req_bytes 5 5 100)
$(req_bytes 5 6 0)
$(req_bytes 2 3 4)"
NET_NO_P=1
net_suite bw_udp "$LINE" udp

if start_server bw_udp; then
    for m in 24 1k 65507; do
        run "$CMD" -p "$PORT" -m "$m" -N 3 127.0.0.1
        one_line_like "$ERR" "$LINE" "-m $m: the classic line"
    done
    if json_usable; then
        run_json "$CMD" -p "$PORT" -m 4k -N 3 --json 127.0.0.1
        json_ok "$T/json" '.results[0] | .unit == "MB/s" and .params.msg_bytes == 4096 and .value > 0' \
            "--json: msg_bytes, MB/s"
    fi
    usage_error bw_udp "$CMD" -p "$PORT" -m 23 127.0.0.1
    usage_error bw_udp "$CMD" -p "$PORT" -m 65508 127.0.0.1
    usage_error bw_udp "$CMD" -p "$PORT" -P 2 127.0.0.1
    stop_server bw_udp
fi
servers_gone
ok $? "nothing left running"

done_testing
