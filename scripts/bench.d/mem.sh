# SPDX-License-Identifier: MIT
# make bench: lat_mem_rd's default (stride) order and bw_mem's full copy beside
# plain programs that do what lmbench 3's lines define (sourced by scripts/bench).
#
#   lat_mem_rd -S SIZE 128 (default order)  vs  bench-chase-ref -s 128 SIZE backward
#       (scripts/bench-chase-ref.c: a malloc'd buffer, each element pointing one
#       128-byte stride back, followed by a rolled `p = *p` loop), at 4m, 64m and
#       256m; ns per load, the best interval on both sides, both pinned to one CPU;
#       target: ours at most 1.15 times the plain chase
#   bw_mem 256m fcp                         vs  bench-mem-ref 256m plaincp
#       (scripts/bench-mem-ref.c: two malloc'd buffers, 8-byte words copied by
#       plain assignments; the size counted once per pass, as bw_mem counts a
#       copy), medians; target: at least 0.90

MEM_CHASE=$OUT/bench-chase-ref
if [ ! -x "$MEM_CHASE" ] || [ scripts/bench-chase-ref.c -nt "$MEM_CHASE" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$MEM_CHASE" scripts/bench-chase-ref.c ||
        die "cannot compile scripts/bench-chase-ref.c"
fi

# The first CPU this script may use: both sides run there.
MEM_CPU=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' | sed -n '1s/-.*//p')
MEM_CPU=${MEM_CPU:-0}

ours_stride() { # size (m)
    run taskset -c "$MEM_CPU" "$BIN/lat_mem_rd" -S "$1" 128
    pick "lat_mem_rd -S $1 128" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }'
}

ref_backward() { # size (m): the best interval
    run taskset -c "$MEM_CPU" "$MEM_CHASE" -s 128 "$1" backward
    pick "bench-chase-ref -s 128 $1 backward" 'NF == 3 { v = $2 } END { print v }'
}

ours_fcp() {
    run taskset -c "$MEM_CPU" "$BIN/bw_mem" 256m fcp
    pick "bw_mem 256m fcp" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }'
}

ref_plaincp() {
    run taskset -c "$MEM_CPU" "$REF" 256m plaincp
    pick "bench-mem-ref 256m plaincp" 'NF == 4 { v = $1 } END { print v }'
}

for s in 4m 64m 256m; do
    pairs=2
    [ "$s" = 256m ] && pairs=1
    CASES="$CASES
stride128-$s|lat_mem_rd -S $s 128 (ns)|ours_stride $s|ref_backward $s|le115|$pairs"
done
CASES="$CASES
fcp-256m-plain|bw_mem 256m fcp vs plain (MB/s)|ours_fcp|ref_plaincp|ge|1"

DESCRIBE="$DESCRIBE  lat_mem_rd -S SIZE 128        vs  $MEM_CHASE -s 128 SIZE backward
                                (malloc'd buffer, each element one stride back, rolled
                                p = *p loop), best interval both sides, CPU $MEM_CPU;
                                target ours <= 1.15 x theirs
  bw_mem 256m fcp              vs  $REF 256m plaincp (two malloc'd buffers, 8-byte
                                words, plain assignments), CPU $MEM_CPU; target >= 0.90
"
