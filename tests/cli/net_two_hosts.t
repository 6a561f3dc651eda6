#!/bin/sh
# SPDX-License-Identifier: MIT
# Two hosts on one machine: two network namespaces joined by a veth pair,
# servers in one, clients in the other, for lat_tcp, lat_udp, lat_connect,
# lat_rpc and bw_tcp. Checks the classic lines, remote true in the records,
# that a stop from the other host is refused unless allowed with -a, and that
# everything (servers, namespaces) is removed, also on failure or interrupt.
# Needs root and ip(8) with netns support; skipped otherwise.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

skip_all() {
    echo "1..0 # SKIP $1"
    exit 0
}
[ "$(id -u)" = 0 ] || skip_all "needs root (network namespaces)"
command -v ip >/dev/null 2>&1 || skip_all "no ip(8) (iproute2)"

# Names unique to this run: several test runs may share the machine.
U=$$-$(od -An -N3 -tu4 /dev/urandom | tr -d ' ')
NSA=lmbA-$U
NSB=lmbB-$U
A_ADDR=169.254.77.1
B_ADDR=169.254.77.2
NET_EXTRA_CLEANUP='ip netns del "$NSA" 2>/dev/null; ip netns del "$NSB" 2>/dev/null'

if ! ip netns add "$NSA" 2>"$T/ns.err"; then
    skip_all "cannot create a network namespace: $(head -n 1 "$T/ns.err")"
fi
if ! { ip netns add "$NSB" &&
       ip link add name veth0 netns "$NSA" type veth peer name veth0 netns "$NSB" &&
       ip -n "$NSA" addr add "$A_ADDR/24" dev veth0 &&
       ip -n "$NSB" addr add "$B_ADDR/24" dev veth0 &&
       ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
       ip -n "$NSA" link set veth0 up && ip -n "$NSB" link set veth0 up; } 2>"$T/ns.err"; then
    echo "1..1"
    echo "not ok 1 - set up two namespaces joined by a veth pair"
    diag "$(cat "$T/ns.err")"
    exit 1
fi
pass "namespaces $NSA and $NSB joined by a veth pair"

# on A|B COMMAND...: runs a command (as run does) in host A or B.
on() {
    _ns=$NSA
    [ "$1" = B ] && _ns=$NSB
    shift
    run ip netns exec "$_ns" env LMB_TEST_TAG="$NET_TAG" "$@"
}


# lat_rpc only where the build has libtirpc (a static build goes without).
RPC=lat_rpc
"$BIN/lat_rpc" -N 1 localhost 2>&1 | grep -q 'built without libtirpc' && RPC=

# Servers on A, the default ports (the namespaces are ours alone).
for c in lat_tcp lat_udp lat_connect $RPC bw_tcp; do
    extra=
    [ "$c" = lat_tcp ] && extra="-a $B_ADDR"
    on A "$BIN/$c" -s -b "$A_ADDR" $extra
    is "$RC:$ERR" "0:" "host A: $c -s -b $A_ADDR $extra"
done

NUM='[0-9]+\.[0-9]+'
on B "$BIN/lat_tcp" -N 3 "$A_ADDR"
one_line_like "$ERR" "^TCP latency using $A_ADDR: $NUM microseconds\$" "B to A: lat_tcp"
on B "$BIN/lat_udp" -N 3 "$A_ADDR"
one_line_like "$ERR" "^UDP latency using $A_ADDR: $NUM microseconds\$" "B to A: lat_udp"
on B "$BIN/lat_connect" -N 3 "$A_ADDR"
one_line_like "$ERR" "^TCP/IP connection cost to $A_ADDR: $NUM microseconds\$" "B to A: lat_connect"
if [ -n "$RPC" ]; then
    on B "$BIN/lat_rpc" -N 3 "$A_ADDR"
    is "$RC" 0 "B to A: lat_rpc exit 0"
    all_like "$ERR" "^RPC/(tcp|udp) latency using $A_ADDR: $NUM microseconds\$" "B to A: lat_rpc, two lines"
    is "$(count_lines "$ERR")" 2 "B to A: lat_rpc over TCP and UDP"
else
    skip "B to A: lat_rpc (built without libtirpc)"
fi
on B "$BIN/bw_tcp" -N 3 -m 64k "$A_ADDR"
one_line_like "$ERR" "^0\.065536 $NUM MB/sec\$" "B to A: bw_tcp"

if json_usable; then
    on B "$BIN/lat_tcp" -N 3 --json "$A_ADDR"
    cp "$T/out" "$T/json"
    json_ok "$T/json" '.results[0].params | .remote == true and .host == "169.254.77.1"' \
        "B to A: the record says remote true"
    on A "$BIN/lat_tcp" -N 3 --json "$A_ADDR"
    cp "$T/out" "$T/json"
    json_ok "$T/json" '.results[0].params.remote == false' "A to itself: remote false"
else
    skip "remote in the records: no jq or no JSON"
fi

# Who may stop a server: not B, unless -a named it.
on B "$BIN/lat_udp" -S "$A_ADDR"
is "$RC" 1 "B cannot stop A's lat_udp server: exit status 1"
like "$ERR" 'refused to stop' "B cannot stop A's lat_udp server: says it was refused"
if [ -n "$RPC" ]; then
    on B "$BIN/lat_rpc" -S "$A_ADDR"
    is "$RC" 1 "B cannot stop A's lat_rpc server"
else
    skip "B cannot stop A's lat_rpc server (built without libtirpc)"
fi
on B "$BIN/lat_udp" -N 3 "$A_ADDR"
one_line_like "$ERR" "^UDP latency using" "after the refused stop, the server still serves"
on B "$BIN/lat_tcp" -S "$A_ADDR"
is "$RC" 0 "B stops A's lat_tcp server, started with -a $B_ADDR"
for c in lat_udp lat_connect $RPC bw_tcp; do
    on A "$BIN/$c" -S "$A_ADDR"
    is "$RC" 0 "A stops its own $c server"
done
servers_gone
ok $? "no server left running"

# Remove the namespaces now, and check they are gone.
eval "$NET_EXTRA_CLEANUP"
ok $(ip netns list | grep -q -e "$NSA" -e "$NSB"; [ $? -ne 0 ]; echo $?) "the namespaces are removed"

done_testing
