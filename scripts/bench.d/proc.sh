# SPDX-License-Identifier: MIT
# make bench, process creation (sourced by scripts/bench).
#
#   lat_proc fork (us)        vs  bench-fork-ref (scripts/bench-fork-ref.c, built here
#                                 with -O2 and linked dynamically against libc
#                                 alone): fork(), _exit(0) in the child, waitpid()
#   mappings of the process   vs  the reference's (info: lat_proc --json fork's
#   that forks                    params.maps, and the lines of /proc/self/maps of
#                                 bench-fork-ref)
#
# The target: lat_proc fork within 1.10 of the reference (the forking
# process as small as the benchmark needs: no optional library mapped).

PROC_REF=$OUT/bench-fork-ref

if [ ! -x "$PROC_REF" ] || [ scripts/bench-fork-ref.c -nt "$PROC_REF" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$PROC_REF" scripts/bench-fork-ref.c ||
        die "cannot compile scripts/bench-fork-ref.c"
fi

ours_fork() {
    run "$BIN/lat_proc" fork
    pick "lat_proc fork" '/^Process fork\+exit:/ { print $3 }'
}

ref_fork() {
    run "$PROC_REF"
    pick bench-fork-ref 'NF == 3 { print $1 }'
}

ours_fork_maps() {
    run "$BIN/lat_proc" --json -N 1 fork
    pick "lat_proc --json fork" '/"maps":/ { gsub(/[^0-9]/, "", $2); print $2 }'
}

ref_fork_maps() {
    run "$PROC_REF" -n 1 -t 0.001
    pick bench-fork-ref 'NF == 3 { print $3 }'
}

DESCRIBE="$DESCRIBE  lat_proc fork (us)        vs  $PROC_REF (scripts/bench-fork-ref.c, -O2,
                                linked against libc alone; fork, _exit(0), waitpid;
                                median of 11 intervals of 10 ms)
"
CASES="$CASES
fork|lat_proc fork (us)|ours_fork|ref_fork|le|5"
# The mappings need lat_proc's JSON (a build with jansson).
if "$BIN/lat_proc" --json -N 1 fork >/dev/null 2>&1; then
    DESCRIBE="$DESCRIBE  maps of the forking proc  vs  the reference's (lines of /proc/self/maps; info)
"
    CASES="$CASES
fork-maps|lat_proc fork maps|ours_fork_maps|ref_fork_maps|info|1"
fi
