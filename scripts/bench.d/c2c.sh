# SPDX-License-Identifier: MIT
# make bench, core-to-core latency (sourced by scripts/bench):
#
#   lat_c2c cas A,B (ns per round trip)  vs  bench-c2c-ref A B (scripts/bench-c2c-ref.c,
#                                           built here with -O2: two pthreads pinned to
#                                           A and B swapping one flag with C11
#                                           compare-and-swap; median of 15 samples of
#                                           10 ms)
#
# A and B are the first two CPUs this script may use (0 and 1 on most machines).
# Both sides time the same thing, one round trip of one cache line; ours runs its
# partner as a process (the line in a shared mapping), the reference as a thread.
# Target: within 10%.

C2C_REF=$OUT/bench-c2c-ref

c2c_cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
    awk -F- 'NF == 1 { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }' | head -n 2)
C2C_A=$(printf '%s\n' "$c2c_cpus" | sed -n 1p)
C2C_B=$(printf '%s\n' "$c2c_cpus" | sed -n 2p)

if [ -z "$C2C_B" ]; then
    DESCRIBE="$DESCRIBE  lat_c2c                   not compared: fewer than two CPUs here
"
else
    if [ ! -x "$C2C_REF" ] || [ scripts/bench-c2c-ref.c -nt "$C2C_REF" ]; then
        ${CC:-cc} -std=c11 -O2 -Wall -Wextra -pthread -o "$C2C_REF" scripts/bench-c2c-ref.c ||
            die "cannot compile scripts/bench-c2c-ref.c"
    fi

    ours_c2c() { # variant
        run "$BIN/lat_c2c" "$1" "$C2C_A,$C2C_B"
        pick "lat_c2c $1" '/^CPU [0-9]+ <-> CPU [0-9]+ \(.*\): [0-9.]+ nanoseconds$/ { print $(NF - 1) }'
    }

    ref_c2c() {
        run "$C2C_REF" "$C2C_A" "$C2C_B"
        pick bench-c2c-ref 'NF == 3 { print $1 }'
    }

    # The least sample of each side: the round trip with neither end off its CPU,
    # the figure to look at when other work shares the CPUs (info).
    ours_c2c_min() {
        run "$BIN/lat_c2c" --json cas "$C2C_A,$C2C_B"
        pick "lat_c2c --json cas" '/"min":/ { gsub(/[^0-9.e+-]/, "", $2); print $2; exit }'
    }

    ref_c2c_min() {
        run "$C2C_REF" "$C2C_A" "$C2C_B"
        pick bench-c2c-ref 'NF == 3 { print $2 }'
    }

    DESCRIBE="$DESCRIBE  lat_c2c cas $C2C_A,$C2C_B (ns)     vs  $C2C_REF (scripts/bench-c2c-ref.c, -O2,
                                two pthreads pinned to CPUs $C2C_A and $C2C_B, C11 compare-and-swap
                                ping-pong; median of 15 samples of 10 ms); and the
                                least sample of each (info: the figure with neither
                                end off its CPU, for a busy machine)
"
    CASES="$CASES
c2c-cas|lat_c2c cas, CPUs $C2C_A,$C2C_B (ns)|ours_c2c cas|ref_c2c|eq10|3"
    if "$BIN/lat_c2c" --json -N 1 cas "$C2C_A,$C2C_B" >/dev/null 2>&1; then
        CASES="$CASES
c2c-cas-min|lat_c2c cas, least sample (ns)|ours_c2c_min|ref_c2c_min|info|2"
    fi
fi
