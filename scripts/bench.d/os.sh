# SPDX-License-Identifier: MIT
# make bench, operating system (sourced by scripts/bench): lat_pipe against
# perf bench sched pipe with both ends on one CPU and on two, and lat_ctx's
# context switch beside them.
#
#   lat_pipe, both ends pinned to CPU A        vs  taskset -c A perf bench sched pipe
#   lat_pipe, ends pinned to CPUs A and B      vs  perf bench sched pipe, its two
#                                                  processes pinned to A and B
#   lat_ctx -s 0 2 on CPU A (us per switch)    vs  the same perf run, usecs/op / 2
#                                                  (info: a hop holds a switch and
#                                                  the pipe calls lat_ctx removes)
#
# perf's sched pipe forks one child; both processes start on CPU A and the child
# is moved to CPU B as soon as it exists (a few milliseconds of a run of a
# second or more). Environment: BENCH_PIPE_LOOPS (perf's round trips per run,
# default 100000).

PIPE_LOOPS=${BENCH_PIPE_LOOPS:-100000}

# The first two CPUs this script may use.
os_cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
    awk -F- 'NF == 1 { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }' | head -n 2)
OS_A=$(printf '%s\n' "$os_cpus" | sed -n 1p)
OS_B=$(printf '%s\n' "$os_cpus" | sed -n 2p)

ours_pipe_same() {
    run env LMBENCH_SCHED=SINGLE "$BIN/lat_pipe" --cpus "$OS_A"
    pick lat_pipe '/^Pipe latency:/ { print $3 }'
}

ours_pipe_two() {
    run env LMBENCH_SCHED=UNIQUE "$BIN/lat_pipe" --cpus "$OS_A,$OS_B"
    pick lat_pipe '/^Pipe latency:/ { print $3 }'
}

ours_ctx2() {
    run env LMBENCH_SCHED=SINGLE "$BIN/lat_ctx" --cpus "$OS_A" -s 0 2
    pick "lat_ctx -s 0 2" '/^2 [0-9.]+$/ { print $2 }'
}

perf_pipe_same() {
    run taskset -c "$OS_A" perf bench sched pipe -l "$PIPE_LOOPS"
    pick "perf bench sched pipe" '/usecs\/op/ { print $1 }'
}

perf_pipe_half() {
    run taskset -c "$OS_A" perf bench sched pipe -l "$PIPE_LOOPS"
    pick "perf bench sched pipe" '/usecs\/op/ { print $1 / 2 }'
}

# perf with its two processes on CPUs A and B: started on A, its child moved to B.
perf_pipe_two() {
    local pid child i
    taskset -c "$OS_A" perf bench sched pipe -l "$PIPE_LOOPS" >"$TMP/last" 2>&1 &
    pid=$!
    for i in $(seq 1 400); do
        child=$(pgrep -P "$pid" | head -n 1)
        [ -n "$child" ] && break
        sleep 0.005
    done
    if [ -z "$child" ] || ! taskset -pc "$OS_B" "$child" >/dev/null 2>&1; then
        wait "$pid"
        die "could not move perf's child to CPU $OS_B"
    fi
    wait "$pid" || die "failed: perf bench sched pipe"
    pick "perf bench sched pipe (two CPUs)" '/usecs\/op/ { print $1 }'
}

if [ -z "$OS_A" ]; then
    DESCRIBE="$DESCRIBE  lat_pipe, lat_ctx              not compared: no CPU list from taskset
"
else
    DESCRIBE="$DESCRIBE  lat_pipe (us per round trip)  vs  perf bench sched pipe -l $PIPE_LOOPS (usecs/op), both
                                ends on CPU $OS_A${OS_B:+, then on CPUs $OS_A and $OS_B (the child of perf moved there)}
  lat_ctx -s 0 2 on CPU $OS_A       vs  half of perf's round trip on CPU $OS_A (info: lat_ctx
                                removes the pipe calls from its hop)
"
    CASES="$CASES
pipe-same|lat_pipe, one CPU (us)|ours_pipe_same|perf_pipe_same|eq10|2"
    if [ -n "$OS_B" ]; then
        CASES="$CASES
pipe-two|lat_pipe, two CPUs (us)|ours_pipe_two|perf_pipe_two|eq10|2"
    fi
    CASES="$CASES
ctx-2|lat_ctx -s 0 2, one CPU (us)|ours_ctx2|perf_pipe_half|info|1"
fi
