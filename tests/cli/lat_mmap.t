#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_mmap: the classic line (three decimals under 10 us, none above), -r, -p,
# -C, --json (params as lmbench 3's records; -p is case pages, compat new), the
# file left unchanged by the writes, small sizes measured (not skipped), bad
# input and files, signals. The offsets touched are tested in test_os.c.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_mmap
# lmbench 3 printed %.3f under 10 microseconds and %.0f from there on.
US='([0-9]\.[0-9]{3}|[1-9][0-9]+)'

head -c 2097152 /dev/urandom >"$T/data"

for s in 1 4k 64k 1m 2m; do
    run "$CMD" -N 3 "$s" "$T/data"
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "$s: exit 0, nothing on stdout"
    all_like "$ERR" "^[0-9]+\\.[0-9]{6} $US\$" "$s: one line 'MB (%.6f) microseconds'"
    is "$(count_lines "$ERR")" 1 "$s: exactly one line"
    positive "$(printf '%s\n' "$ERR" | awk '{ print $2 }')" "$s: the latency is positive"
done
run "$CMD" -N 3 64k "$T/data"
like "$ERR" '^0\.065536 ' "64k: size printed 0.065536"
run "$CMD" -N 3 -r 1m "$T/data"
one_line_like "$ERR" "^1\\.048576 $US\$" "-r 1m: the classic line"
run "$CMD" -N 3 -p 1m "$T/data"
one_line_like "$ERR" "^1\\.048576 $US\$" "-p 1m: the classic line"
run "$CMD" -N 3 -p -r 1m "$T/data"
one_line_like "$ERR" "^1\\.048576 $US\$" "-p -r 1m: the classic line"

# lmbench 3's operation writes into the mapping: the bytes written are the
# file's own, so the file is unchanged.
cp "$T/data" "$T/orig"
run "$CMD" -N 3 2m "$T/data"
run "$CMD" -N 3 -r 2m "$T/data"
check "the writes leave the file as it was" cmp -s "$T/orig" "$T/data"
if [ "$(id -u)" != 0 ]; then
    cp "$T/data" "$T/ro"
    chmod 444 "$T/ro"
    failed_run lat_mmap "a file it cannot write: exit 1" "$CMD" -N 3 64k "$T/ro"
    like "$ERR" 'for writing.*-p only reads' "a file it cannot write: says why, and that -p only reads"
    run "$CMD" -N 3 -p 64k "$T/ro"
    one_line_like "$ERR" "^0\\.065536 $US\$" "-p: a read-only file is mapped"
else
    skip "a file it cannot write: root writes any file"
fi

mkdir "$T/d"
cp "$T/data" "$T/d/data"
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -C -P 2 -N 3 1m "$T/d/data"
one_line_like "$ERR" "^1\\.048576 $US\$" "-C -P 2: one classic line"
is "$(ls -A "$T/d")" "data" "-C -P 2: the copies are removed"
no_process_left "$tag" "-C -P 2: no process left behind"

if json_usable; then
    run_json "$CMD" -N 3 --json 64k "$T/data"
    json_one_record "$T/json" lat_mmap null us
    # The params are lmbench 3's records' (as import makes them); the touches
    # follow from the size (their offsets are tested in tests/unit/test_os.c).
    json_ok "$T/json" ".results[0].params == {\"size_bytes\": 65536, \"file\": \"$T/data\"}" \
        "--json: params size_bytes and file"
    json_ok "$T/json" '.results[0].compat == "same"' "--json: compat same (lmbench 3's quantity)"
    run_json "$CMD" -N 3 --json -r 64k "$T/data"
    json_ok "$T/json" '.results[0].params.random == true' "--json -r: params.random true"
    run_json "$CMD" -N 3 --json -p 64k "$T/data"
    json_ok "$T/json" '.results[0].case == "pages" and (.results[0].compat | startswith("new: "))' \
        "--json -p: case pages, compat new"
else
    skip "--json: jq missing or built without jansson"
fi

usage_error lat_mmap "$CMD"
usage_error lat_mmap "$CMD" 64k
usage_error lat_mmap "$CMD" 0 "$T/data"
usage_error lat_mmap "$CMD" 1x "$T/data"
usage_error lat_mmap "$CMD" 64k "$T/data" extra
usage_error lat_mmap "$CMD" -q 64k "$T/data"

failed_run lat_mmap "a missing file: exit 1" "$CMD" -N 3 4k "$T/missing"
failed_run lat_mmap "a directory: exit 1" "$CMD" -N 3 4k "$T"
like "$ERR" 'is a directory' "a directory: says so"
failed_run lat_mmap "a size larger than the file: exit 1" "$CMD" -N 3 3m "$T/data"
like "$ERR" 'fewer than the 3145728' "larger than the file: says so"
failed_run lat_mmap "5g on a small file: exit 1" "$CMD" -N 3 5g "$T/data"
like "$ERR" 'fewer than the 5368709120|5368709120 bytes cannot be mapped in this address space' "5g: the size is 64-bit"

# --- the memory guard (issue 15) ----------------------------------------------------

# Each copy's own memory: -p -r's page order and the page tables of a 4 GiB
# sparse file, 64 copies (1 GiB), and -C's copies of a file on tmpfs (memory),
# in a 256 MiB memory cgroup: refused at once, never left to the OOM killer.
. "$(dirname "$0")/lib-cgroup.sh"
if ! truncate -s 4g "$T/sparse" 2>/dev/null; then
    skip "memory cgroup: no sparse file here"
    skip "memory cgroup: no sparse file here"
elif memcg_make 256m; then
    memcg_refused lat_mmap "-p -r -P 64 4g in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -p -r -P 64 -N 1 4g "$T/sparse"
    mkdir "$T/tm"
    memcg_refused lat_mmap "-C -P 4 of a 100 MiB file on tmpfs in a 256 MiB cgroup: refused at once, no OOM kill" \
        unshare -m sh -c 'mount -t tmpfs -o size=1g lmb-test "$1" && head -c 100m /dev/zero >"$1/f" &&
            exec "$2" -C -P 4 -N 1 100m "$1/f"' sh "$T/tm" "$CMD"
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
    skip "memory cgroup: $MEMCG_WHY"
fi
rm -f "$T/sparse"

interrupted lat_mmap "$T/d" "-C -P 2" "$CMD" -C -P 2 -N 1000 --min-time 0.2 1m "$T/d/data"

done_testing
