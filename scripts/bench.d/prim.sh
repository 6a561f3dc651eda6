# SPDX-License-Identifier: MIT
# make bench, kernel primitives (1): futex, eventfd, epoll and pthread round
# trips (sourced by scripts/bench).
#
#   lat_futex thread|process, both ends on CPU A     vs  bench-prim-ref futex-thread|futex-process -c A
#   lat_futex thread, ends on CPUs A and B           vs  bench-prim-ref futex-thread -c A,B
#   lat_eventfd thread|process, both ends on CPU A   vs  bench-prim-ref eventfd-thread|eventfd-process -c A
#   lat_epoll -n 200 on CPU A                        vs  bench-prim-ref epoll 200 -c A
#   lat_pthread create|mutex|cond on CPU A           vs  bench-prim-ref create|mutex|cond -c A
#   lat_futex thread, both ends on CPU A             vs  perf bench futex wake -t 1 (info: perf
#                                                        times the FUTEX_WAKE call of one blocked
#                                                        waiter, not a round trip)
#   lat_epoll -n 200 on CPU A                        vs  perf bench epoll wait -t 1 -f 200: its
#                                                        us per event (info: a waiter thread and a
#                                                        writer thread, throughput)
#
# bench-prim-ref (scripts/bench-prim-ref.c) is a small program of its own,
# sharing no code with the commands. Targets: 1 +- 0.10 for the reference pairs.
# Case ids start prim- (BENCH_ONLY=^prim-). Environment: BENCH_PRIM_INTERVAL
# (seconds per timed interval, ours --min-time and the reference's -t; default
# 0.02).

if [ ! -x "$OUT/bench-prim-ref" ] || [ scripts/bench-prim-ref.c -nt "$OUT/bench-prim-ref" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -pthread -o "$OUT/bench-prim-ref" scripts/bench-prim-ref.c ||
        die "cannot compile scripts/bench-prim-ref.c"
fi
prim_cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
    awk -F- 'NF == 1 { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }' | head -n 2)
PRIM_A=$(printf '%s\n' "$prim_cpus" | sed -n 1p)
PRIM_B=$(printf '%s\n' "$prim_cpus" | sed -n 2p)
# Seconds per timed interval on both sides (11 intervals each): long enough
# that a burst of other work on a shared machine is a small part of one.
PRIM_T=${BENCH_PRIM_INTERVAL:-0.02}

ours_prim() { # CMD CASE [two]
    local cpus=$PRIM_A sched=SINGLE
    if [ "${3:-}" = two ]; then
        cpus=$PRIM_A,$PRIM_B
        sched=UNIQUE
    fi
    run env LMBENCH_SCHED=$sched "$BIN/$1" --cpus "$cpus" --min-time "$PRIM_T" "$2"
    pick "$1 $2" '/microseconds$/ { print $(NF - 1) }'
}

ref_prim() { # MODE [two]
    local c=$PRIM_A
    [ "${2:-}" = two ] && c=$PRIM_A,$PRIM_B
    run "$OUT/bench-prim-ref" -t "$PRIM_T" -c "$c" "$1"
    pick "bench-prim-ref $1" 'NF == 2 { print $1 }'
}

ours_epoll() {
    run env LMBENCH_SCHED=SINGLE "$BIN/lat_epoll" --cpus "$PRIM_A" --min-time "$PRIM_T" -n 200
    pick "lat_epoll -n 200" '/microseconds$/ { print $(NF - 1) }'
}

ref_epoll() {
    run "$OUT/bench-prim-ref" -t "$PRIM_T" -c "$PRIM_A" epoll 200
    pick "bench-prim-ref epoll 200" 'NF == 2 { print $1 }'
}

perf_futex_wake() {
    run taskset -c "$PRIM_A" perf bench futex wake -t 1 -s
    pick "perf bench futex wake" '/^Wokeup/ { for (i = 1; i <= NF; i++) if ($i == "ms") print $(i - 1) * 1000 }'
}

perf_epoll_wait() {
    run perf bench epoll wait -t 1 -f 200 -r 1
    pick "perf bench epoll wait" '/^Averaged/ { print 1e6 / $2 }'
}

if [ -z "$PRIM_A" ]; then
    DESCRIBE="$DESCRIBE  lat_futex, lat_eventfd, lat_epoll, lat_pthread  not compared: no CPU list from taskset
"
else
    DESCRIBE="$DESCRIBE  lat_futex, lat_eventfd, lat_epoll -n 200, lat_pthread (us)  vs  $OUT/bench-prim-ref
                                (scripts/bench-prim-ref.c, -O2, libc and pthreads alone; the same round
                                trips; both ends pinned to CPU $PRIM_A${PRIM_B:+, futex thread also on $PRIM_A and $PRIM_B};
                                median of 11 intervals of $PRIM_T s on both sides)
  lat_futex thread            vs  perf bench futex wake -t 1 (info: the wake call alone)
  lat_epoll -n 200            vs  perf bench epoll wait -t 1 -f 200 -r 1, 1e6 / ops per second
                                (info: a waiter and a writer thread, throughput)
"
    CASES="$CASES
prim-futex-thread|lat_futex thread, one CPU (us)|ours_prim lat_futex thread|ref_prim futex-thread|eq10|2
prim-futex-process|lat_futex process, one CPU (us)|ours_prim lat_futex process|ref_prim futex-process|eq10|2"
    if [ -n "$PRIM_B" ]; then
        CASES="$CASES
prim-futex-two|lat_futex thread, two CPUs (us)|ours_prim lat_futex thread two|ref_prim futex-thread two|eq10|2"
    fi
    CASES="$CASES
prim-eventfd-thread|lat_eventfd thread (us)|ours_prim lat_eventfd thread|ref_prim eventfd-thread|eq10|2
prim-eventfd-process|lat_eventfd process (us)|ours_prim lat_eventfd process|ref_prim eventfd-process|eq10|2
prim-epoll|lat_epoll -n 200 (us)|ours_epoll|ref_epoll|eq10|2
prim-create|lat_pthread create (us)|ours_prim lat_pthread create|ref_prim create|eq10|2
prim-mutex|lat_pthread mutex (us)|ours_prim lat_pthread mutex|ref_prim mutex|eq10|2
prim-cond|lat_pthread cond (us)|ours_prim lat_pthread cond|ref_prim cond|eq10|2
prim-perf-futex|lat_futex thread vs perf wake|ours_prim lat_futex thread|perf_futex_wake|info|1
prim-perf-epoll|lat_epoll -n 200 vs perf epoll|ours_epoll|perf_epoll_wait|info|1"
fi
