# SPDX-License-Identifier: MIT
# make bench, kernel primitives (2): io_uring, vfork and posix_spawn, mprotect
# and madvise (sourced by scripts/bench).
#
#   lat_io_uring nop, read $TMP  vs  bench-uring-ref nop, read FILE (scripts/bench-uring-ref.c,
#                                    its own raw-syscall ring, no code shared); a
#                                    4 KiB file in the same directory
#   lat_io_uring read            vs  fio --ioengine=io_uring, 4 KiB reads at depth 1 of a
#                                    cached 4 KiB file, its mean total latency (info;
#                                    only where fio is installed)
#   lat_proc vfork, spawn        vs  bench-spawn-ref vfork, spawn HELLO (scripts/bench-spawn-ref.c,
#                                    libc alone; the same hello helper)
#   lat_mprotect mprotect|madvise 256  vs  bench-mprotect-ref (scripts/bench-mprotect-ref.c)
#
# Targets: 1 +- 0.10 for every pair but fio's. Case ids start prim2- (BENCH_ONLY=^prim2).

for _r in uring spawn mprotect; do
    if [ ! -x "$OUT/bench-$_r-ref" ] || [ "scripts/bench-$_r-ref.c" -nt "$OUT/bench-$_r-ref" ]; then
        ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$OUT/bench-$_r-ref" "scripts/bench-$_r-ref.c" ||
            die "cannot compile scripts/bench-$_r-ref.c"
    fi
done
PRIM2_HELLO=$B/libexec/lmbench/hello
PRIM2_FILE=$TMP/uring.dat
head -c 4096 /dev/zero | tr '\0' 'u' >"$PRIM2_FILE" || die "cannot write $PRIM2_FILE"

ours_uring() { # nop|read
    if [ "$1" = read ]; then
        run "$BIN/lat_io_uring" read "$TMP"
    else
        run "$BIN/lat_io_uring" nop
    fi
    pick "lat_io_uring $1" '/^io_uring (nop|4k read):/ { print $(NF - 1) }'
}

ref_uring() { # nop|read
    if [ "$1" = read ]; then
        run "$OUT/bench-uring-ref" -t 0.005 read "$PRIM2_FILE"
    else
        run "$OUT/bench-uring-ref" -t 0.005 nop
    fi
    pick "bench-uring-ref $1" 'NF == 2 { print $1 }'
}

fio_uring_read() {
    run fio --name=lmbench-uring --ioengine=io_uring --filename="$PRIM2_FILE" --rw=read \
        --bs=4k --size=4k --iodepth=1 --invalidate=0 --time_based --runtime=1 \
        --output-format=terse --terse-version=3
    # terse v3: field 40 is the read total latency mean, in us.
    pick "fio --ioengine=io_uring" 'BEGIN { FS = ";" } NF > 40 { print $40 }'
}

ours_proc() { # vfork|spawn
    run "$BIN/lat_proc" "$1"
    pick "lat_proc $1" '/^Process (vfork\+exit|posix_spawn):/ { print $(NF - 1) }'
}

ref_proc() { # vfork|spawn
    if [ "$1" = spawn ]; then
        run "$OUT/bench-spawn-ref" -t 0.005 spawn "$PRIM2_HELLO"
    else
        run "$OUT/bench-spawn-ref" -t 0.005 vfork
    fi
    pick "bench-spawn-ref $1" 'NF == 2 { print $1 }'
}

ours_mprot() { # mprotect|madvise pages
    run "$BIN/lat_mprotect" "$1" "$2"
    pick "lat_mprotect $1 $2" '/per page/ { print $(NF - 1) }'
}

ref_mprot() {
    run "$OUT/bench-mprotect-ref" -t 0.005 "$1" "$2"
    pick "bench-mprotect-ref $1 $2" 'NF == 2 { print $1 }'
}

if "$BIN/lat_io_uring" -N 1 nop >/dev/null 2>&1; then
    DESCRIBE="$DESCRIBE  lat_io_uring nop, read (us)  vs  $OUT/bench-uring-ref (scripts/bench-uring-ref.c, -O2,
                                its own raw-syscall ring; one request per io_uring_enter;
                                median of 11 intervals of 5 ms, as ours; read: 4 KiB of a cached file in $TMP)
"
    CASES="$CASES
prim2-uring-nop|lat_io_uring nop (us)|ours_uring nop|ref_uring nop|eq10|2
prim2-uring-read|lat_io_uring read (us)|ours_uring read|ref_uring read|eq10|2"
    if command -v fio >/dev/null 2>&1; then
        DESCRIBE="$DESCRIBE  lat_io_uring read            vs  $(fio --version 2>/dev/null) --ioengine=io_uring --iodepth=1 --bs=4k,
                                its mean total latency (info: fio's loop does more per request)
"
        CASES="$CASES
prim2-uring-fio|lat_io_uring read vs fio|ours_uring read|fio_uring_read|info|1"
    else
        DESCRIBE="$DESCRIBE  lat_io_uring read vs fio    not compared: fio is not installed
"
    fi
else
    DESCRIBE="$DESCRIBE  lat_io_uring                 not compared: $("$BIN/lat_io_uring" -N 1 nop 2>&1 | head -n 1)
"
fi

DESCRIBE="$DESCRIBE  lat_proc vfork, spawn (us)   vs  $OUT/bench-spawn-ref (scripts/bench-spawn-ref.c, -O2, libc
                                alone; vfork+_exit+waitpid, posix_spawn of the same hello)
  lat_mprotect mprotect|madvise 256 (us per page)  vs  $OUT/bench-mprotect-ref
                                (scripts/bench-mprotect-ref.c; the range made the same way)
"
CASES="$CASES
prim2-vfork|lat_proc vfork (us)|ours_proc vfork|ref_proc vfork|eq10|2
prim2-spawn|lat_proc spawn (us)|ours_proc spawn|ref_proc spawn|eq10|2
prim2-mprotect|lat_mprotect mprotect 256 (us/page)|ours_mprot mprotect 256|ref_mprot mprotect 256|eq10|2
prim2-madvise|lat_mprotect madvise 256 (us/page)|ours_mprot madvise 256|ref_mprot madvise 256|eq10|2"
