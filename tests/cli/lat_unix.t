#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_unix: the classic line, placements of the two ends, --json, bad input, a
# partner that dies, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_unix
NUM='[0-9]+\.[0-9]{4}'
LABEL='AF_UNIX sock stream latency'

mkdir "$T/tmp"
run env TMPDIR="$T/tmp" "$CMD" -N 3
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "stderr is exactly '$LABEL: X.XXXX microseconds'"
positive "$(label_value "$ERR")" "the latency is positive"
is "$(ls -A "$T/tmp")" "" "nothing left in TMPDIR"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" TMPDIR="$T/tmp" "$CMD" -P 2 -N 3
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "-P 2: one classic line"
no_process_left "$tag" "-P 2: no process (copy or partner) left behind"
is "$(ls -A "$T/tmp")" "" "-P 2: nothing left in TMPDIR"

placements lat_unix "$CMD"
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 3 --threads
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "--threads (the partner a thread): the classic line"
no_process_left "$tag" "--threads: nothing left running"
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_one_record "$T/json" lat_unix null us
    json_ok "$T/json" '.results[0].params == {"msg_bytes": 1, "ends": "unpinned"}' "--json: the params"
else
    skip "--json: no JSON"
fi

usage_error lat_unix "$CMD" extra
usage_error lat_unix "$CMD" -N 0
usage_error lat_unix "$CMD" -m 0
usage_error lat_unix "$CMD" -m 65m
usage_error lat_unix "$CMD" -m abc
for m in 1 100 64k 1m; do
    run "$CMD" -N 3 -m "$m"
    one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "-m $m: the classic line"
done
if json_usable; then
    run_json "$CMD" -N 3 --json -m 4k
    json_ok "$T/json" ".results[0].params.msg_bytes == 4096" "-m 4k: params.msg_bytes 4096"
fi
# The memory guard (issue 15): each copy and its partner hold a -m message: 4
# copies of 64 MiB messages need 512 MiB, refused in a 256 MiB memory cgroup.
. "$(dirname "$0")/lib-cgroup.sh"
if memcg_make 256m; then
    memcg_refused lat_unix "-P 4 -m 64m in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -P 4 -N 1 -m 64m
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
fi
partner_killed lat_unix "partner killed" "$CMD" -N 1000 --min-time 0.2
interrupted_running "lat_unix" "$CMD" -P 2 -N 1000 --min-time 0.2

done_testing
