# SPDX-License-Identifier: MIT
# make bench, file mappings (sourced by scripts/bench): lat_mmap against a small
# program doing lmbench 3's access pattern, and lat_pagefault's faults per page.
#
#   lat_mmap SIZE FILE      vs  bench-mmap-ref SIZE FILE (scripts/bench-mmap-ref.c, -O2):
#                               map shared read-write, store a byte every 16 KiB
#                               over the first tenth, unmap; us per operation,
#                               medians, at 8m and 64m
#   lat_mmap -r 64m FILE    vs  bench-mmap-ref -r 64m FILE (every 160 KiB over all)
#   lat_pagefault FILE      vs  1: the faults it counted per page read (its JSON
#                               faults_per_page), 8 MB file
#
# The files are made in the bench's temporary directory with write(); both sides
# map the same file.

VM_REF=$OUT/bench-mmap-ref
if [ ! -x "$VM_REF" ] || [ scripts/bench-mmap-ref.c -nt "$VM_REF" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$VM_REF" scripts/bench-mmap-ref.c ||
        die "cannot compile scripts/bench-mmap-ref.c"
fi

# The files, made once: 8 MiB and 64 MiB of non-zero bytes.
vm_file() { # size in MiB
    local f=$TMP/vm-$1m
    if [ ! -e "$f" ]; then
        head -c "$(($1 * 1048576))" /dev/urandom >"$f" || die "cannot write $f"
    fi
    echo "$f"
}
VM_F8=$(vm_file 8)
VM_F64=$(vm_file 64)

ours_mmap() { # [-r] size file
    run "$BIN/lat_mmap" "$@"
    pick "lat_mmap $*" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }'
}

ref_mmap() { # [-r] size file
    run "$VM_REF" "$@"
    pick "bench-mmap-ref $*" 'NF == 3 { v = $1 } END { print v }'
}

# lat_pagefault --json: its faults_per_page.
ours_pf_fpp() {
    run "$BIN/lat_pagefault" --json "$VM_F8"
    pick "lat_pagefault --json" '{ if (match($0, /"faults_per_page": *[0-9.e+-]+/)) { s = substr($0, RSTART, RLENGTH); sub(/.*: */, "", s); print s; exit } }'
}

vm_one() {
    echo 1
}

DESCRIBE="$DESCRIBE  lat_mmap SIZE FILE         vs  $VM_REF (scripts/bench-mmap-ref.c, -O2):
                                lmbench 3's pattern (a byte stored every 16 KiB over the
                                first tenth of a shared read-write mapping; -r every
                                160 KiB over all), us per map+touch+unmap, medians
  lat_pagefault 8 MB file   vs  1: the faults it counted per page (its faults_per_page)
"
CASES="$CASES
mmap-8m|lat_mmap 8m (us)|ours_mmap 8m $VM_F8|ref_mmap 8m $VM_F8|eq10|3
mmap-64m|lat_mmap 64m (us)|ours_mmap 64m $VM_F64|ref_mmap 64m $VM_F64|eq10|2
mmap-r-64m|lat_mmap -r 64m (us)|ours_mmap -r 64m $VM_F64|ref_mmap -r 64m $VM_F64|eq10|1"
if "$BIN/lat_syscall" -N 1 --json null >/dev/null 2>&1; then
    CASES="$CASES
pagefault-fpp|lat_pagefault faults/page|ours_pf_fpp|vm_one|eq10|1"
else
    DESCRIBE="$DESCRIBE  (lat_pagefault faults per page: not compared, built without JSON)
"
fi
