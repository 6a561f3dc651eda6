#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_unix_connect: the classic line, placements of the two ends, --json, bad input, a
# partner that dies, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_unix_connect
NUM='[0-9]+\.[0-9]{4}'
LABEL='UNIX connection cost'

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

placements lat_unix_connect "$CMD"
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 3 --threads
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "--threads (the partner a thread): the classic line"
no_process_left "$tag" "--threads: nothing left running"
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_one_record "$T/json" lat_unix_connect null us
    json_ok "$T/json" '.results[0].params == {"ends": "unpinned"}' "--json: the params"
else
    skip "--json: no JSON"
fi

# What one round is: the server writes nothing (it accepts and closes).
partner_io_none syscw "the server writes nothing (it accepts and closes)" "$CMD" -N 1000 --min-time 0.3

usage_error lat_unix_connect "$CMD" extra
usage_error lat_unix_connect "$CMD" -N 0
usage_error lat_unix_connect "$CMD" -s -S
run "$CMD" -s
ok $([ "$RC" = 0 ] && [ -z "$OUT$ERR" ]; echo $?) "-s (lmbench 3 started a server): exit 0, prints nothing"
run "$CMD" -S
ok $([ "$RC" = 0 ] && [ -z "$OUT$ERR" ]; echo $?) "-S (lmbench 3 stopped it): exit 0, prints nothing"
partner_killed lat_unix_connect "partner killed" "$CMD" -N 1000 --min-time 0.2
interrupted lat_unix_connect "$T/sig" "lat_unix_connect" "$CMD" -P 2 -N 1000 --min-time 0.2

done_testing
