#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_fcntl: the classic line, placements of the two ends, --json, bad input, a
# partner that dies, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_fcntl
NUM='[0-9]+\.[0-9]{4}'
LABEL='Fcntl lock latency'

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

placements lat_fcntl "$CMD"
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_one_record "$T/json" lat_fcntl null us
    json_ok "$T/json" '.results[0].params == {"ends": "unpinned"}' "--json: the params"
else
    skip "--json: no JSON"
fi

# What one round is: the partner makes no read-type system call in its rounds (no pread of a stop mark).
partner_io_none syscr "the partner makes no read-type system call in its rounds (no pread of a stop mark)" "$CMD" -N 1000 --min-time 0.3

usage_error lat_fcntl "$CMD" extra
usage_error lat_fcntl "$CMD" -N 0
usage_error lat_fcntl "$CMD" -x
usage_error lat_fcntl "$CMD" --threads
partner_killed lat_fcntl "partner killed" "$CMD" -N 1000 --min-time 0.2
interrupted lat_fcntl "$T/sig" "lat_fcntl" "$CMD" -P 2 -N 1000 --min-time 0.2

done_testing
