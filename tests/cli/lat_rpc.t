#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_rpc: server start (no rpcbind needed) and stop, both classic lines, -p
# tcp|udp, --json, bad input, garbage records to the server, silent and dead
# servers, and the build without libtirpc reporting "skipped".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/lat_rpc
LINE='^RPC/(tcp|udp) latency using (127\.0\.0\.1|localhost): [0-9]+\.[0-9]{4} microseconds$'

"$CMD" --help >/dev/null 2>&1
"$CMD" -N 1 localhost >/dev/null 2>"$T/probe"
if grep -q 'built without libtirpc' "$T/probe"; then
    run "$CMD" localhost
    is "$RC" 3 "built without libtirpc: exit status 3 (skipped)"
    like "$ERR" '^lat_rpc: skipped: built without libtirpc$' "built without libtirpc: says so"
    run "$CMD" -s
    is "$RC" 3 "built without libtirpc: -s is skipped too"
    done_testing
fi

PORT_FLAG=-r
# A record mark announcing 2 GB; a call of another program; junk.
GARBAGE="\\377\\377\\377\\377\\000\\000\\000\\001
\\200\\000\\000\\050\\000\\000\\000\\001\\000\\000\\000\\000\\000\\000\\000\\002\\000\\001\\000\\000\\000\\000\\000\\001\\000\\000\\000\\001
GET / HTTP/1.0\\r\\n\\r\\n"
net_suite lat_rpc "$LINE" tcp

if start_server lat_rpc; then
    run "$CMD" -r "$PORT" -N 3 127.0.0.1
    is "$RC" 0 "both protocols: exit status 0"
    is "$(printf '%s\n' "$ERR" | sed 's/ latency.*//' | tr '\n' ' ')" "RPC/tcp RPC/udp " \
        "both protocols: the tcp line, then the udp line"
    for p in tcp udp; do
        run "$CMD" -r "$PORT" -p "$p" -N 3 127.0.0.1
        one_line_like "$ERR" "^RPC/$p latency using 127\.0\.0\.1: " "-p $p: its line only"
    done
    if json_usable; then
        run_json "$CMD" -r "$PORT" -N 3 --json 127.0.0.1
        json_ok "$T/json" '[.results[].case] == ["tcp", "udp"] and
                 ([.results[] | (.params | keys) == ["host", "remote"]] | all)' \
            "--json: cases tcp and udp, params host and remote"
    fi
    if [ "$HAVE_BASH" = yes ]; then
        send_raw udp "$PORT" 'garbage that is not an RPC call' >/dev/null
        run "$CMD" -r "$PORT" -p udp -N 3 127.0.0.1
        one_line_like "$ERR" "^RPC/udp latency" "after a garbage datagram the UDP service still serves"
    fi
    usage_error lat_rpc "$CMD" -r "$PORT" -p sctp 127.0.0.1
    stop_server lat_rpc
fi
servers_gone
ok $? "nothing left running"

done_testing
