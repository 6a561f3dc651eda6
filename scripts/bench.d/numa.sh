# SPDX-License-Identifier: MIT
# make bench, NUMA (sourced by scripts/bench): the local pair node 0 -> node 0
# of lat_numa and bw_numa beside plain programs that know nothing of nodes
# (memory left where the kernel puts it: on a one-node machine, node 0).
#
#   lat_numa -s 256m, node 0 -> node 0    vs  bench-chase-ref 256m random
#       (scripts/bench-chase-ref.c: one pointer in each 64-byte line of an
#       mmap'd buffer, a shuffled cycle, 10 dependent loads a trip), medians,
#       ns per load, both on one CPU of node 0, intervals of 50 ms on both
#       sides (the reference frees its shuffle list just before it chases,
#       which on a VM that shadows page tables slows its first tenths of a
#       second; src/lib/memlat.c says why); target 1 +- 0.10
#   bw_numa -s 256m, node 0 -> node 0     vs  bench-mem-ref 256m rd
#       (scripts/bench-mem-ref.c: every byte read with the machine's widest
#       vectors, 8 accumulators), medians, MB/s, the same CPU; target 1 +- 0.10
#
# On a machine of several nodes the kernel's first-touch placement puts the
# reference's memory on the node of the CPU it runs on, node 0's CPU here, so
# the pair is still local on both sides.

NUMA_SIZE=256m
NUMA_CHASE=$OUT/bench-chase-ref
if [ ! -x "$NUMA_CHASE" ] || [ scripts/bench-chase-ref.c -nt "$NUMA_CHASE" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$NUMA_CHASE" scripts/bench-chase-ref.c ||
        die "cannot compile scripts/bench-chase-ref.c"
fi

# The first CPU of node 0 that this script may use (any CPU it may use when
# the kernel shows no nodes).
numa_cpu() {
    local allowed node0 c
    allowed=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
        awk -F- 'NF == 1 { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }')
    node0=$(tr ',' '\n' </sys/devices/system/node/node0/cpulist 2>/dev/null |
        awk -F- 'NF == 1 && $1 != "" { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }')
    for c in $allowed; do
        if [ -z "$node0" ] || printf '%s\n' "$node0" | grep -qx "$c"; then
            echo "$c"
            return
        fi
    done
}
NUMA_CPU=$(numa_cpu)

ours_numa_lat() {
    run taskset -c "$NUMA_CPU" "$BIN/lat_numa" -s "$NUMA_SIZE" --cpus "$NUMA_CPU" --min-time 0.05
    pick "lat_numa -s $NUMA_SIZE" '/^node 0 -> node 0: / { print $6 }'
}

ref_numa_chase() {
    run taskset -c "$NUMA_CPU" "$NUMA_CHASE" -t 0.05 "$NUMA_SIZE" random
    pick "bench-chase-ref $NUMA_SIZE random" 'NF == 3 { v = $1 } END { print v }'
}

ours_numa_bw() {
    run taskset -c "$NUMA_CPU" "$BIN/bw_numa" -s "$NUMA_SIZE" --cpus "$NUMA_CPU"
    pick "bw_numa -s $NUMA_SIZE" '/^node 0 -> node 0: / { print $6 }'
}

ref_numa_rd() {
    run taskset -c "$NUMA_CPU" "$REF" "$NUMA_SIZE" rd
    pick "bench-mem-ref $NUMA_SIZE rd" 'NF == 4 { v = $1 } END { print v }'
}

"$BIN/lat_numa" -s 64k -N 1 >/dev/null 2>"$TMP/numa-probe"
numa_rc=$?
if [ -z "$NUMA_CPU" ]; then
    DESCRIBE="$DESCRIBE  lat_numa, bw_numa              not compared: no CPU of node 0 may be used here
"
elif [ "$numa_rc" = 3 ]; then
    DESCRIBE="$DESCRIBE  lat_numa, bw_numa              not compared: $(sed -n 's/^lat_numa: [^:]*: *//p' "$TMP/numa-probe" | head -n 1)
"
else
    CASES="$CASES
numa-lat-$NUMA_SIZE|lat_numa -s $NUMA_SIZE, node 0 -> 0 (ns)|ours_numa_lat|ref_numa_chase|eq10|2
numa-bw-$NUMA_SIZE|bw_numa -s $NUMA_SIZE, node 0 -> 0 (MB/s)|ours_numa_bw|ref_numa_rd|eq10|2"
    DESCRIBE="$DESCRIBE  lat_numa -s $NUMA_SIZE (node 0 -> 0)  vs  $NUMA_CHASE -t 0.05 $NUMA_SIZE random (shuffled
                                cycle of 64-byte lines), medians of 50 ms intervals, CPU $NUMA_CPU;
                                target 1 +- 0.10
  bw_numa -s $NUMA_SIZE (node 0 -> 0)   vs  $REF $NUMA_SIZE rd (every byte, widest
                                vectors), medians, CPU $NUMA_CPU; target 1 +- 0.10
"
fi
