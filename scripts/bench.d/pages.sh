# SPDX-License-Identifier: MIT
# make bench, page choice (sourced by scripts/bench): lat_mem_rd's random chase
# at one large size on each page kind this machine can give, against a small
# reference chase on the same pages (scripts/bench-pages-ref.c).
#
#   lat_mem_rd -t -S 128m --pages 4k   vs  bench-pages-ref 128 4k  (MADV_NOHUGEPAGE)
#   lat_mem_rd -t -S 128m --pages thp  vs  bench-pages-ref 128 thp (2 MiB aligned,
#                                          MADV_HUGEPAGE), where THP is not "never"
#   lat_mem_rd -t -S 128m --pages 2m   vs  bench-pages-ref 128 2m  (MAP_HUGETLB),
#                                          where 64 2 MiB pages are free
#
# Both sides: one random cycle, one element per 64-byte line, the best interval,
# on the first CPU this script may use. Target: within 10%.

PAGES_REF=$OUT/bench-pages-ref
if [ ! -x "$PAGES_REF" ] || [ scripts/bench-pages-ref.c -nt "$PAGES_REF" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$PAGES_REF" scripts/bench-pages-ref.c ||
        die "cannot compile scripts/bench-pages-ref.c"
fi
PAGES_CPU=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' | sed -n '1s/-.*//p')
PAGES_CPU=${PAGES_CPU:-0}

ours_pages() { # kind
    run taskset -c "$PAGES_CPU" "$BIN/lat_mem_rd" -t -S --pages "$1" 128m
    pick "lat_mem_rd -t -S --pages $1 128m" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }'
}

ref_pages() { # kind
    run taskset -c "$PAGES_CPU" "$PAGES_REF" 128 "$1"
    pick "bench-pages-ref 128 $1" 'NF == 4 { v = $2 } END { print v }'
}

pages_kinds=4k
if grep -q '\[always\]\|\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
    pages_kinds="$pages_kinds thp"
fi
if [ "$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)" -ge 64 ]; then
    pages_kinds="$pages_kinds 2m"
fi
for k in $pages_kinds; do
    CASES="$CASES
pages-$k|lat_mem_rd -t -S --pages $k 128m (ns)|ours_pages $k|ref_pages $k|eq10|2"
done
DESCRIBE="$DESCRIBE  lat_mem_rd -t -S --pages K 128m  vs  $PAGES_REF 128 K (random cycle of 64-byte
                                lines on the same pages: 4k MADV_NOHUGEPAGE, thp MADV_HUGEPAGE,
                                2m MAP_HUGETLB), best interval, CPU $PAGES_CPU; kinds here:
                                $pages_kinds; target within 10%
"
