# SPDX-License-Identifier: MIT
# make bench, loaded latency (sourced by scripts/bench): lat_loaded's two
# figures beside independent ones at the same size.
#
#   lat_loaded -s SIZE -n 1, point 1's      vs  bw_mem -P 1 SIZE rd pinned to the
#     delivered bandwidth (one loader flat      loader's CPU B (bw_mem is checked
#     out, rd passes, on CPU B; the chase       against bench-mem-ref in this bench)
#     on CPU A)                                 while bench-chase-ref SIZE random runs
#                                               on CPU A, as the chase does; MB/s,
#                                               medians; target 1 +- 0.10
#                                           and (info) bw_mem alone: what the
#                                               chase beside it costs the stream
#   lat_loaded -s SIZE -n 0, point 0's      vs  bench-chase-ref SIZE random on CPU A
#     latency (the random chase alone,          (scripts/bench-chase-ref.c: one pointer
#     on CPU A)                                 per 64-byte line, one shuffled cycle,
#                                               mmap'd and written); ns per load,
#                                               medians; target 1 +- 0.10
#
# Both sides' intervals are 20 ms (--min-time 0.02; bw_mem takes 20 ms at this
# size on its own, bench-chase-ref -t 0.02). Environment: BENCH_LOADED_SIZE
# (default 256m).

LOADED_SIZE=${BENCH_LOADED_SIZE:-256m}
LOADED_CHASE=$OUT/bench-chase-ref
if [ ! -x "$LOADED_CHASE" ] || [ scripts/bench-chase-ref.c -nt "$LOADED_CHASE" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$LOADED_CHASE" scripts/bench-chase-ref.c ||
        die "cannot compile scripts/bench-chase-ref.c"
fi

# The first two CPUs this script may use: the chase on A, the loader on B.
loaded_cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
    awk -F- 'NF == 1 { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }' | head -n 2)
LOADED_A=$(printf '%s\n' "$loaded_cpus" | sed -n 1p)
LOADED_B=$(printf '%s\n' "$loaded_cpus" | sed -n 2p)

ours_loaded_bw() {
    run "$BIN/lat_loaded" -s "$LOADED_SIZE" -n 1 --min-time 0.02 --cpus "$LOADED_A,$LOADED_B"
    pick "lat_loaded -s $LOADED_SIZE -n 1" '/^loaders=1 rate=max: / { print $(NF - 1) }'
}

bwmem_loaded_rd() {
    run taskset -c "$LOADED_B" "$BIN/bw_mem" -P 1 "$LOADED_SIZE" rd
    pick "bw_mem -P 1 $LOADED_SIZE rd" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }'
}

# bw_mem while the reference chase runs on CPU A: the chase is started for
# some 8 s, given 2.5 s to lay its chain (256m takes about 1 s here) and
# stopped once bw_mem is done.
bwmem_loaded_rd_chased() {
    local pid
    taskset -c "$LOADED_A" "$LOADED_CHASE" -t 0.05 -n 150 "$LOADED_SIZE" random >/dev/null 2>&1 &
    pid=$!
    sleep 2.5
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid"
        die "bench-chase-ref $LOADED_SIZE random ended before bw_mem ran"
    fi
    if ! taskset -c "$LOADED_B" "$BIN/bw_mem" -P 1 "$LOADED_SIZE" rd >"$TMP/last" 2>&1; then
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        sed 's/^/    /' "$TMP/last" >&2
        die "failed: bw_mem -P 1 $LOADED_SIZE rd"
    fi
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pick "bw_mem -P 1 $LOADED_SIZE rd (chase beside it)" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }'
}

ours_loaded_lat0() {
    run "$BIN/lat_loaded" -s "$LOADED_SIZE" -n 0 --min-time 0.02 --cpus "$LOADED_A"
    pick "lat_loaded -s $LOADED_SIZE -n 0" '/^loaders=0 rate=none: / { print $3 }'
}

ref_loaded_chase() { # the median
    run taskset -c "$LOADED_A" "$LOADED_CHASE" -t 0.02 "$LOADED_SIZE" random
    pick "bench-chase-ref $LOADED_SIZE random" 'NF == 3 { v = $1 } END { print v }'
}

if [ -z "$LOADED_A" ]; then
    DESCRIBE="$DESCRIBE  lat_loaded                    not compared: no CPU list from taskset
"
else
    CASES="$CASES
loaded-lat0-$LOADED_SIZE|lat_loaded -s $LOADED_SIZE point 0 vs random chase (ns)|ours_loaded_lat0|ref_loaded_chase|eq10|1"
    if [ -n "$LOADED_B" ]; then
        CASES="$CASES
loaded-bw-$LOADED_SIZE|lat_loaded -s $LOADED_SIZE 1 loader vs bw_mem rd + chase (MB/s)|ours_loaded_bw|bwmem_loaded_rd_chased|eq10|1
loaded-bwalone-$LOADED_SIZE|lat_loaded -s $LOADED_SIZE 1 loader vs bw_mem rd alone (MB/s)|ours_loaded_bw|bwmem_loaded_rd|info|1"
        DESCRIBE="$DESCRIBE  lat_loaded -s $LOADED_SIZE -n 1     vs  bw_mem -P 1 $LOADED_SIZE rd on CPU $LOADED_B while
                                $LOADED_CHASE $LOADED_SIZE random runs on CPU $LOADED_A: the
                                bandwidth one loader (CPU $LOADED_B) delivered during the chase
                                (CPU $LOADED_A), medians; target 1 +- 0.10; and (info) bw_mem alone
"
    else
        DESCRIBE="$DESCRIBE  lat_loaded -s $LOADED_SIZE -n 1     not compared: one CPU here (the loader needs its own)
"
    fi
    DESCRIBE="$DESCRIBE  lat_loaded -s $LOADED_SIZE -n 0     vs  $LOADED_CHASE -t 0.02 $LOADED_SIZE random (one
                                shuffled cycle of 64-byte lines, mmap'd), CPU $LOADED_A, medians;
                                target 1 +- 0.10
"
fi
