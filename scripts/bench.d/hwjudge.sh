# SPDX-License-Identifier: MIT
# make bench: lat_ops bogomflops, lmbench 3's quantity (sourced by scripts/bench).
#
#   lat_ops double bogomflops  vs  bench-bogo-ref double (scripts/bench-bogo-ref.c):
#       nanoseconds per element of x = (x + a - b) * c / d over independent
#       elements (four scalar floating-point operations each; the reference
#       loops over an array of 1024 in memory, -O2 -fno-tree-vectorize, ours
#       updates 12 in registers); the best interval on both sides (lat_ops
#       reports the minimum). Target within 10%.

# shellcheck disable=SC2016
HWJ_BOGO=$OUT/bench-bogo-ref

if [ ! -x "$HWJ_BOGO" ] || [ scripts/bench-bogo-ref.c -nt "$HWJ_BOGO" ]; then
    mkdir -p "$OUT"
    ${CC:-cc} -std=c11 -O2 -fno-tree-vectorize -Wall -Wextra -o "$HWJ_BOGO" \
        scripts/bench-bogo-ref.c || die "cannot compile scripts/bench-bogo-ref.c"
fi

hwj_ours_bogo() { # float|double
    run "$BIN/lat_ops"
    pick "lat_ops" "/^$1 bogomflops: / { print \$3 }"
}

hwj_ref_bogo() { # float|double
    run "$HWJ_BOGO" "$1"
    pick "bench-bogo-ref $1" '/ns per element/ { print $1 }'
}

CASES="$CASES
bogo-double|lat_ops double bogomflops (ns/element)|hwj_ours_bogo double|hwj_ref_bogo double|eq10|1"

DESCRIBE="$DESCRIBE  lat_ops double bogomflops  vs  $HWJ_BOGO double (scripts/bench-bogo-ref.c,
                                -O2 -fno-tree-vectorize): ns per element of (x + a - b) * c / d
                                over 1024 independent elements, best of 15 intervals;
                                target within 10%
"
