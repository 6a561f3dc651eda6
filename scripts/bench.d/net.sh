# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# make bench, networking: sourced by scripts/bench (see there). Over loopback,
# with the servers and the clients placed alike for both tools (servers
# pinned with taskset / --cpus to one CPU, clients to another, and both on one
# CPU for the latencies):
#   lat_tcp -m 14   vs  sockperf ping-pong --tcp -m 14 --full-rtt  (mean round trip, us:
#   lat_udp -m 14   vs  sockperf ping-pong -m 14 --full-rtt         ours from --json stats.mean)
#   bw_tcp          vs  iperf3 -l 64K                               (MB/s received; our
#                                                                    default message, 64 KiB)
#   bw_tcp -m 128k  vs  iperf3 -l 128K                              (iperf3's default length)
# Ours runs with ENOUGH=100000 (11 intervals of 0.1 s), about as long as the
# tools' one second. Targets: our latency at most 10% above sockperf's; our bandwidth at least 90%
# of iperf3's. The tools are installed from Debian when missing (as root).

NET_IDS='net-tcp-lat-2cpu net-udp-lat-2cpu net-tcp-lat-1cpu net-udp-lat-1cpu net-tcp-bw-64k
net-tcp-bw'
net_wanted=no
for _id in $NET_IDS; do
    if [ -z "${BENCH_ONLY:-}" ] || printf '%s\n' "$_id" | grep -Eq -- "$BENCH_ONLY"; then
        net_wanted=yes
    fi
done

net_tools_ok() {
    command -v sockperf >/dev/null 2>&1 && command -v iperf3 >/dev/null 2>&1 &&
        command -v taskset >/dev/null 2>&1 && command -v jq >/dev/null 2>&1
}

if [ "$net_wanted" = yes ] && ! net_tools_ok && [ "$(id -u)" -eq 0 ] &&
   command -v apt-get >/dev/null 2>&1; then
    echo "bench: installing sockperf, iperf3 and jq with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends sockperf iperf3 jq \
        util-linux; } >&2 || die "apt-get could not install sockperf and iperf3"
fi

if [ "$net_wanted" = no ]; then
    :
elif ! net_tools_ok; then
    DESCRIBE="$DESCRIBE  networking                no case: sockperf, iperf3, taskset or jq missing
                                (Debian: apt-get install sockperf iperf3 jq)
"
else
    NET_CPUS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
    NET_CLI=0
    NET_SRV=1
    [ "$NET_CPUS" -ge 2 ] || NET_SRV=0
    NET_PIDS=
    # Ours times 11 intervals of 0.1 s: about the second the tools run for.
    NET_ENOUGH=100000

    net_port() {
        local p
        while :; do
            p=$((20000 + RANDOM % 40000))
            ss -Hantu 2>/dev/null | awk '{ print $5 }' | grep -q ":$p\$" || { echo "$p"; return; }
        done
    }

    # Servers, pinned: [2cpu] on NET_SRV, [1cpu] on NET_CLI (with the clients).
    net_start() { # name cpu port kind
        case $1 in
        sockperf-tcp) taskset -c "$2" sockperf server -i 127.0.0.1 -p "$3" --tcp >/dev/null 2>&1 &
            NET_PIDS="$NET_PIDS $!" ;;
        sockperf-udp) taskset -c "$2" sockperf server -i 127.0.0.1 -p "$3" >/dev/null 2>&1 &
            NET_PIDS="$NET_PIDS $!" ;;
        iperf3) taskset -c "$2" iperf3 -s -B 127.0.0.1 -p "$3" >/dev/null 2>&1 &
            NET_PIDS="$NET_PIDS $!" ;;
        *) "$BIN/$1" -s -p "$3" --cpus "$2" || die "$1 -s failed" ;;
        esac
    }
    net_stop_all() {
        for _p in $NET_PIDS; do kill "$_p" 2>/dev/null; done
        for _s in $NET_OURS; do "$BIN/${_s%%:*}" -S 127.0.0.1 -p "${_s#*:}" >/dev/null 2>&1; done
    }
    NET_OURS=
    for place in 2cpu 1cpu; do
        cpu=$NET_SRV
        [ "$place" = 1cpu ] && cpu=$NET_CLI
        for s in sockperf-tcp sockperf-udp lat_tcp lat_udp; do
            p=$(net_port)
            net_start "$s" "$cpu" "$p"
            case $s in lat_*) NET_OURS="$NET_OURS $s:$p" ;; esac
            eval "NET_PORT_${s//-/_}_$place=$p"
        done
    done
    NET_PORT_bw=$(net_port)
    net_start bw_tcp "$NET_SRV" "$NET_PORT_bw"
    NET_OURS="$NET_OURS bw_tcp:$NET_PORT_bw"
    NET_PORT_iperf=$(net_port)
    net_start iperf3 "$NET_SRV" "$NET_PORT_iperf"
    trap 'net_stop_all; rm -rf "$TMP"' EXIT
    sleep 0.5

    ours_net_lat() { # tcp|udp 2cpu|1cpu
        local v="NET_PORT_lat_$1_$2"
        # The mean over all round trips (of the -N intervals), as sockperf's
        # summary is; the classic line shows the median interval.
        run env ENOUGH=$NET_ENOUGH "$BIN/lat_$1" -p "${!v}" -m 14 --cpus "$NET_CLI" --json 127.0.0.1
        local m
        m=$(jq '.results[0].stats.mean' "$TMP/last" 2>/dev/null)
        case $m in '' | null | *[!0-9.e+-]*) sed 's/^/    /' "$TMP/last" >&2; die "no figure from lat_$1" ;; esac
        echo "$m"
    }
    sockperf_lat() { # tcp|udp 2cpu|1cpu
        local v="NET_PORT_sockperf_$1_$2" tcp=
        [ "$1" = tcp ] && tcp=--tcp
        run taskset -c "$NET_CLI" sockperf ping-pong -i 127.0.0.1 -p "${!v}" $tcp -m 14 -t 1 --full-rtt
        pick "sockperf ping-pong $1" '/Summary: Round trip is/ { print $(NF - 1) }'
    }
    ours_net_bw() { # [-m size]: none for the default message
        run env ENOUGH=$NET_ENOUGH "$BIN/bw_tcp" -p "$NET_PORT_bw" "$@" --cpus "$NET_CLI" 127.0.0.1
        pick bw_tcp '/MB\/sec$/ { print $2 }'
    }
    iperf3_bw() { # length
        local v
        run taskset -c "$NET_CLI" iperf3 -c 127.0.0.1 -p "$NET_PORT_iperf" -t 1 -l "$1" -J
        v=$(jq '.end.sum_received.bits_per_second / 8 / 1e6' "$TMP/last" 2>/dev/null)
        case $v in '' | null | *[!0-9.e+-]*) sed 's/^/    /' "$TMP/last" >&2; die "no figure from iperf3" ;; esac
        echo "$v"
    }

    CASES="$CASES
net-tcp-lat-2cpu|lat_tcp -m 14, 2 CPUs (us)|ours_net_lat tcp 2cpu|sockperf_lat tcp 2cpu|le|2
net-udp-lat-2cpu|lat_udp -m 14, 2 CPUs (us)|ours_net_lat udp 2cpu|sockperf_lat udp 2cpu|le|2
net-tcp-lat-1cpu|lat_tcp -m 14, 1 CPU (us)|ours_net_lat tcp 1cpu|sockperf_lat tcp 1cpu|le|2
net-udp-lat-1cpu|lat_udp -m 14, 1 CPU (us)|ours_net_lat udp 1cpu|sockperf_lat udp 1cpu|le|2
net-tcp-bw-64k|bw_tcp (64k), 2 CPUs (MB/s)|ours_net_bw|iperf3_bw 64K|ge|1
net-tcp-bw|bw_tcp -m 128k, 2 CPUs (MB/s)|ours_net_bw -m 128k|iperf3_bw 128K|ge|1"
    DESCRIBE="$DESCRIBE  lat_tcp/lat_udp -m 14     vs  $(sockperf --version 2>&1 | head -n 1): sockperf ping-pong
                                [--tcp] -m 14 -t 1 --full-rtt (mean round trip; ours: the
                                mean of the samples, stats.mean); servers on
                                CPU $NET_SRV (2 CPUs) or $NET_CLI (1 CPU), clients on CPU $NET_CLI
  bw_tcp [-m 128k]          vs  $(iperf3 --version 2>&1 | head -n 1 | cut -d' ' -f1-2): iperf3 -l 64K|128K -t 1 (received;
                                ours: its default 64k message, or -m 128k);
                                servers on CPU $NET_SRV, clients on CPU $NET_CLI
"
fi
