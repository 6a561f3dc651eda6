#!/bin/sh
# SPDX-License-Identifier: MIT
# disk: the two tables (zones and seeks), a fixed number of points whatever
# the size, --json, bad input, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/disk

head -c 4194304 /dev/urandom >"$T/dev"

run "$CMD" -N 3 "$T/dev"
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "4 MiB file: exit 0, nothing on stdout"
zones=$(printf '%s\n' "$ERR" | sed -n '/^"zone bandwidth$/,/^$/p' | grep -Ec '^[0-9]+\.[0-9]+ [0-9]+\.[0-9]{2}$')
is "$zones" 16 "4 MiB: 16 zone rows 'offset MB, MB/s' after '\"zone bandwidth'"
like "$ERR" '^0\.000000 [0-9]+\.[0-9]{2}$' "the first zone is at offset 0"
like "$ERR" '^3\.93 [0-9]+\.[0-9]{2}$' "the last zone starts at 15/16 of 4 MiB (3.93 MB)"
seeks=$(printf '%s\n' "$ERR" | sed -n '/^"seek time$/,/^$/p' | grep -Ec '^[0-9]+\.[0-9]{6} ([0-9]\.[0-9]{3}|[1-9][0-9]+)$')
is "$seeks" 5 "4 MiB: seek rows 'distance MB, us' for 4k 16k 64k 256k 1m (twice the distance fits)"
like "$ERR" '^0\.004096 ' "the first seek distance is 4 KiB"
all_like "$(printf '%s\n' "$ERR" | grep -v '^lmbench\|^disk: warning')" '^("zone bandwidth|"seek time|[0-9.]+ [0-9.]+|)$' \
    "only the two tables (and perhaps a warning)"

# The points do not depend on the size but a little: a sparse file of 100 GiB
# has 16 zones and 12 distances (4k to 16g), and nothing reads all of it.
if truncate -s 100g "$T/huge" 2>/dev/null; then
    run "$CMD" -N 3 "$T/huge"
    is "$RC" 0 "100 GiB sparse file: exit 0"
    is "$(printf '%s\n' "$ERR" | grep -Ec '^[0-9.]+ [0-9.]+$')" 28 "100 GiB: 16 zones and 12 distances"
    rm -f "$T/huge"
else
    skip "100 GiB sparse file: truncate failed"
    skip "100 GiB: rows"
fi

if json_usable; then
    run_json "$CMD" -N 3 --json "$T/dev"
    json_checks "$T/json" <<'EOF2'
--json: 16 zone records in MB/s with offset_bytes, 5 seek records in us with distance_bytes
    ([.results[] | select(.case == "zone")] | length == 16 and all(.[]; .unit == "MB/s"
    and (.params.offset_bytes | type == "number")))
    and ([.results[] | select(.case == "seek")] | length == 5 and all(.[]; .unit == "us"
    and (.params.distance_bytes | type == "number")))
--json: every record ok, with a positive value, and says whether O_DIRECT was used
    .results | all(.[]; .status == "ok" and .value > 0 and (.params.direct | type == "boolean"))
EOF2
else
    skip "--json: jq missing or built without jansson"
fi

usage_error disk "$CMD"
usage_error disk "$CMD" "$T/dev" extra
usage_error disk "$CMD" -P 2 "$T/dev"
failed_run disk "a missing device: exit 1" "$CMD" -N 3 "$T/missing"
failed_run disk "a directory: exit 1" "$CMD" -N 3 "$T"
head -c 1000 /dev/zero >"$T/small"
failed_run disk "a file under 64 KiB: exit 1" "$CMD" -N 3 "$T/small"
like "$ERR" 'fewer than the 65536' "a file under 64 KiB: says so"

interrupted_running "disk" "$CMD" -N 1000 --min-time 0.1 "$T/dev"

done_testing
