#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_tcp: server start and stop, the classic line, --json, placement, bad
# input, garbage to the server, silent and dead servers, nothing left running.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/lat_tcp
LINE='^TCP latency using (127\.0\.0\.1|localhost): [0-9]+\.[0-9]{4} microseconds$'
# Random bytes; an oversize message length; another benchmark's request; half a header.
GARBAGE="$(req_bytes 1 3 4294967295)
$(req_bytes 1 3 0)
$(req_bytes 4 4 1)
$(req_bytes 1 9 1)
\\114\\115\\116\\061\\000\\001"
net_suite lat_tcp "$LINE" tcp

# -l: no server, the other end a partner placed by the harness.
net_local_suite lat_tcp '^TCP latency using localhost: [0-9]+\.[0-9]{4} microseconds$'

# The server answers bad requests with a status before closing.
if [ "$HAVE_BASH" = yes ] && start_server lat_tcp; then
    is "$(send_raw tcp "$PORT" "$(req_bytes 1 3 4294967295)" | cut -c1-12)" 4c4d52310003 \
        "an oversize message length gets the status 'bad request'"
    is "$(send_raw tcp "$PORT" "$(req_bytes 4 4 1)" | cut -c1-12)" 4c4d52310004 \
        "a bw_tcp request gets the status 'wrong benchmark'"
    run "$CMD" -p "$PORT" -m 1000 -N 3 127.0.0.1
    one_line_like "$ERR" "$LINE" "-m 1000: the classic line"
    usage_error lat_tcp "$CMD" -p "$PORT" -m 0 127.0.0.1
    usage_error lat_tcp "$CMD" -p "$PORT" -m 2m 127.0.0.1
    usage_error lat_tcp "$CMD" -p "$PORT" -m abc 127.0.0.1
    # A client that opens connections and sends nothing: they time out, the server serves on.
    for i in 1 2 3; do send_raw tcp "$PORT" '' 0 >/dev/null & done
    wait
    run "$CMD" -p "$PORT" -N 3 127.0.0.1
    one_line_like "$ERR" "$LINE" "idle connections do not block the server"
    stop_server lat_tcp
    servers_gone
else
    skip "status replies: no bash or no server"
fi

# Placement: a server pinned with --cpus, the client on the same CPU or another.
if json_usable && start_server lat_tcp --cpus 0; then
    run_json "$CMD" -p "$PORT" -N 3 --cpus 0 --json 127.0.0.1
    json_ok "$T/json" '.results[0].params.ends == "same_cpu"' "server and client on CPU 0: ends same_cpu"
    if "$CMD" --cpus 1 --list >/dev/null 2>&1; then
        run_json "$CMD" -p "$PORT" -N 3 --cpus 1 --json 127.0.0.1
        json_ok "$T/json" '.results[0].params.ends == "two_cpus" and .results[0].params.msg_bytes == 1' \
            "server on CPU 0, client on CPU 1: ends two_cpus"
    else
        skip "two CPUs: only one here"
    fi
    run_json "$CMD" -p "$PORT" -N 3 --json 127.0.0.1
    json_ok "$T/json" '.results[0].params.ends == "unpinned"' "an unpinned client: ends unpinned"
    stop_server lat_tcp
else
    skip "placement: no jq, no JSON or no server"
fi

# SIGINT while measuring: the client and its copies die; the server serves on.
if start_server lat_tcp; then
    tag=$(new_tag)
    start_bg "$tag" "$CMD" -p "$PORT" -P 2 -N 1000 --min-time 0.2 127.0.0.1
    wait_for "copies" 50 tagged_count_at_least "$tag" 3
    kill -INT "$BG"
    wait_bg
    is "$BG_RC" 130 "SIGINT: the client dies of it"
    no_process_left "$tag" "SIGINT: no copy left behind" 10
    run "$CMD" -p "$PORT" -N 3 127.0.0.1
    one_line_like "$ERR" "$LINE" "SIGINT of a client: the server still serves"
    stop_server lat_tcp
fi
servers_gone
ok $? "nothing left running"

done_testing
