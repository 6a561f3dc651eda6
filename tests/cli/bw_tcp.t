#!/bin/sh
# SPDX-License-Identifier: MIT
# bw_tcp: server start and stop, the classic line over the runner's -m sweep,
# the default message (64 KiB, lmbench 3's), the server's read size, --json,
# bad input, garbage to the server, silent and dead servers.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

CMD=$BIN/bw_tcp
LINE='^[0-9]+\.[0-9]{6} [0-9]+\.[0-9]{2} MB/sec$'
# An oversize message; a zero message; a good request then a zero batch; a huge batch.
GARBAGE="$(req_bytes 4 4 4294967295)
$(req_bytes 4 4 0)
$(req_bytes 4 4 1)\\000\\000\\000\\000\\000\\000\\000\\000
$(req_bytes 4 4 1)\\377\\377\\377\\377\\377\\377\\377\\377
$(req_bytes 4 3 1)"
net_suite bw_tcp "$LINE" tcp -m 64k

# -l: no server, the other end a partner placed by the harness.
net_local_suite bw_tcp '^0\.065536 [0-9]+\.[0-9]{2} MB/sec$' -m 64k

# -l with no -m: lmbench 3's default message, 64 KiB, shown as 0.065536 MB.
net_local_suite bw_tcp '^0\.065536 [0-9]+\.[0-9]{2} MB/sec$'

# The receiving end reads in pieces of the message size, at most 1 MB (a read
# far larger than each write starves the sender of acknowledgements): the
# largest count a read on a TCP socket asks for is that size (less only for
# the rest of a batch).
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
    for pair in 4k:4096 2m:1048576; do
        # (LeakSanitizer cannot run under ptrace: off for the sanitized binary.)
        run strace -f -qq -yy -e trace=read -o "$T/strace" env ENOUGH=2000 \
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
            "$BIN/bw_tcp" -l -N 1 -m "${pair%%:*}"
        is "$RC" 0 "strace bw_tcp -l -m ${pair%%:*}: exit status 0"
        largest=$(grep '<TCP' "$T/strace" | sed -n 's/.*, \([0-9][0-9]*\)) *= .*/\1/p' |
                  sort -n | tail -n 1)
        is "$largest" "${pair#*:}" "-m ${pair%%:*}: the other end asks for ${pair#*:} bytes a read"
    done
else
    for _s in 1 2 3 4; do skip "the server's read size: no working strace"; done
fi

if start_server bw_tcp; then
    # No -m: the first column is the 64 KiB message in MB of 10^6 bytes.
    run "$CMD" -p "$PORT" -N 3 127.0.0.1
    is "$RC" 0 "no -m: exit status 0"
    one_line_like "$ERR" '^0\.065536 [0-9]+\.[0-9]{2} MB/sec$' "no -m: the line shows 0.065536 MB (64 KiB)"
    for pair in 1:0.000001 64:0.000064 128:0.000128 256:0.000256 512:0.000512 1024:0.001024 \
                1437:0.001437 10m:10.485760; do
        m=${pair%%:*}
        run "$CMD" -p "$PORT" -m "$m" -N 3 127.0.0.1
        one_line_like "$ERR" "^${pair#*:} [0-9]+\.[0-9]{2} MB/sec\$" "-m $m: the line shows ${pair#*:} MB"
    done
    if json_usable; then
        run_json "$CMD" -p "$PORT" -m 1437 -N 3 --json 127.0.0.1
        json_ok "$T/json" '.results[0] | .unit == "MB/s" and .params.msg_bytes == 1437
                 and .params.move_bytes == 66102 and .value > 0' \
            "--json -m 1437: msg_bytes, move_bytes (64k in whole messages), MB/s"
        run_json "$CMD" -p "$PORT" -N 3 --json 127.0.0.1
        json_ok "$T/json" '.results[0] | .params.msg_bytes == 65536 and .params.move_bytes == 65536
                 and .compat == "same" and .value > 0' \
            "--json, no -m: msg_bytes 65536 (lmbench 3's default), move_bytes 65536, compat same"
        run_json "$CMD" -p "$PORT" -m 1k -M 100k -N 3 --json 127.0.0.1
        json_ok "$T/json" '.results[0].params.move_bytes == 102400' "-M 100k: move_bytes 102400"
    fi
    usage_error bw_tcp "$CMD" -p "$PORT" -m 0 127.0.0.1
    usage_error bw_tcp "$CMD" -p "$PORT" -m 65m 127.0.0.1
    usage_error bw_tcp "$CMD" -p "$PORT" -m 64k -M 1k 127.0.0.1
    stop_server bw_tcp
fi

# Totals that cannot be moved within the timeout, even at 40 GB/s, are refused
# at once (issue 15), with or without a server.
. "$(dirname "$0")/lib-transfer.sh"
total_refused bw_tcp "$(total_too_slow '1 TiB' 13 357 300)" "$CMD" -l -M 1t
total_refused bw_tcp "$(total_too_slow '1 TiB' 13 357 300)" "$CMD" -p 1 -M 1t 127.0.0.1
total_refused bw_tcp "$(total_too_slow '512 GiB' 3 41.2 30)" "$CMD" -l -N 1 -M 512g --timeout 30

# The memory guard (issue 15): with -l each copy holds its -m message and its
# partner a read buffer of up to 1 MB: 8 copies of 64 MiB messages need 520
# MiB, refused in a 256 MiB memory cgroup (they were written in full: the OOM
# killer's).
. "$(dirname "$0")/lib-cgroup.sh"
if memcg_make 256m; then
    memcg_refused bw_tcp "-l -P 8 -m 64m in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -l -P 8 -N 1 -m 64m
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
fi

servers_gone
ok $? "nothing left running"

done_testing
