#!/bin/sh
# SPDX-License-Identifier: MIT
# bw_mmap_rd: classic lines for mmap_only and open2close, -C, --json, bad input
# and bad files (missing, directory, too short, empty), 64-bit sizes, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/bw_mmap_rd
BW='[0-9]+\.[0-9]{2}'

head -c 1048576 /dev/urandom >"$T/data" 2>/dev/null || dd if=/dev/urandom of="$T/data" bs=1024 count=1024 2>/dev/null

for v in mmap_only open2close; do
    run "$CMD" -N 3 64k "$v" "$T/data"
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "64k $v: exit 0, nothing on stdout"
    one_line_like "$ERR" "^0\\.065536 $BW\$" "64k $v: stderr is exactly '0.065536 MB/s'"
    positive "$(printf '%s\n' "$ERR" | awk '{ print $2 }')" "64k $v: the bandwidth is positive"
    run "$CMD" -N 3 1m "$v" "$T/data"
    one_line_like "$ERR" "^1\\.05 $BW\$" "1m $v (the whole file): '1.05 MB/s'"
done
run "$CMD" -N 3 1 mmap_only "$T/data"
one_line_like "$ERR" "^0\\.000001 $BW\$" "1 byte: '0.000001 MB/s'"
run "$CMD" -N 3 100000 open2close "$T/data"
one_line_like "$ERR" "^0\\.100000 $BW\$" "100000 bytes (not a power of two): '0.100000 MB/s'"
check "the file is left in place" test -s "$T/data"

# -C: a copy per -P copy, made beside the file and removed afterwards.
mkdir "$T/d"
cp "$T/data" "$T/d/data"
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -C -P 2 -N 3 512k mmap_only "$T/d/data"
one_line_like "$ERR" "^0\\.524288 $BW\$" "-C -P 2: one classic line"
is "$(ls -A "$T/d")" "data" "-C -P 2: the copies are removed"
no_process_left "$tag" "-C -P 2: no process left behind"
chmod 555 "$T/d"
if [ "$(id -u)" != 0 ]; then
    failed_run bw_mmap_rd "-C beside a file in a read-only directory: exit 1" "$CMD" -C -N 3 4k mmap_only "$T/d/data"
else
    skip "-C in a read-only directory: root writes everywhere"
fi
chmod 755 "$T/d"

if json_usable; then
    run_json "$CMD" -N 3 --json 64k mmap_only "$T/data"
    json_one_record "$T/json" bw_mmap_rd mmap_only MB/s
    json_ok "$T/json" ".results[0].params == {\"size_bytes\": 65536, \"file\": \"$T/data\"}" \
        "--json: params size_bytes and file"
    json_ok "$T/json" '.results[0] | .metric == "bandwidth" and .better == "higher"' "--json: a bandwidth"
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input and bad files ------------------------------------------------------------

usage_error bw_mmap_rd "$CMD"
usage_error bw_mmap_rd "$CMD" 64k mmap_only
usage_error bw_mmap_rd "$CMD" 64k io_only "$T/data"
usage_error bw_mmap_rd "$CMD" 64k read "$T/data"
usage_error bw_mmap_rd "$CMD" 0 mmap_only "$T/data"
usage_error bw_mmap_rd "$CMD" -1 mmap_only "$T/data"
usage_error bw_mmap_rd "$CMD" 64q mmap_only "$T/data"
usage_error bw_mmap_rd "$CMD" 99999999999999999999 mmap_only "$T/data"
usage_error bw_mmap_rd "$CMD" 64k mmap_only "$T/data" extra

failed_run bw_mmap_rd "a missing file: exit 1, failed" "$CMD" -N 3 4k mmap_only "$T/missing"
like "$ERR" 'No such file' "a missing file: says so"
failed_run bw_mmap_rd "a directory: exit 1, failed" "$CMD" -N 3 4k mmap_only "$T"
like "$ERR" 'is a directory' "a directory: says so"
failed_run bw_mmap_rd "a size larger than the file: exit 1, failed" "$CMD" -N 3 2m mmap_only "$T/data"
like "$ERR" 'holds 1048576 bytes, fewer than the 2097152 asked for' "larger than the file: both sizes"
: >"$T/empty"
failed_run bw_mmap_rd "an empty file: exit 1, failed" "$CMD" -N 3 1 open2close "$T/empty"
failed_run bw_mmap_rd "a device that is not a file: exit 1" "$CMD" -N 3 1 mmap_only /dev/null
# Sizes beyond 4 GiB are 64-bit all the way (and here larger than the file).
failed_run bw_mmap_rd "5g: exit 1, failed" "$CMD" -N 3 5g mmap_only "$T/data"
like "$ERR" 'fewer than the 5368709120 asked for|5368709120 bytes cannot be mapped in this address space' "5g: the size is 5368709120 bytes, not truncated"
if [ "$(id -u)" != 0 ]; then
    chmod 000 "$T/data"
    failed_run bw_mmap_rd "an unreadable file: exit 1" "$CMD" -N 3 4k mmap_only "$T/data"
    chmod 644 "$T/data"
else
    skip "an unreadable file: root reads everything"
fi

# --- signals --------------------------------------------------------------------------

# The memory guard (issue 15): 64 copies each reading a 4 GiB mapping hold
# 8 MiB of page tables each, which the kernel cannot reclaim while mapped: in
# a 256 MiB memory cgroup, refused at once, never left to the OOM killer.
. "$(dirname "$0")/lib-cgroup.sh"
if ! truncate -s 4g "$T/sparse" 2>/dev/null; then
    skip "memory cgroup: no sparse file here"
elif memcg_make 256m; then
    memcg_refused bw_mmap_rd "-P 64 of a 4 GiB mapping in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -P 64 -N 1 4g mmap_only "$T/sparse"
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
fi
rm -f "$T/sparse"

interrupted bw_mmap_rd "$T/d" "-C -P 2" "$CMD" -C -P 2 -N 1000 --min-time 0.2 512k open2close "$T/d/data"

done_testing
