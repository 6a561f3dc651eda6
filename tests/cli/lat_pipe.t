#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_pipe: the classic line, placements of the two ends, --json, bad input, a
# partner that dies, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_pipe
NUM='[0-9]+\.[0-9]{4}'
LABEL='Pipe latency'

run "$CMD" -N 3
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
one_line_like "$ERR" "^Pipe latency: $NUM microseconds\$" "stderr is exactly 'Pipe latency: X.XXXX microseconds'"
positive "$(label_value "$ERR")" "the latency is positive"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3
one_line_like "$ERR" "^Pipe latency: $NUM microseconds\$" "-P 2: one classic line"
no_process_left "$tag" "-P 2: no process (copy or partner) left behind"

placements lat_pipe "$CMD"
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 3 --threads
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "--threads (the partner a thread): the classic line"
no_process_left "$tag" "--threads: nothing left running"
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_one_record "$T/json" lat_pipe null us
    json_ok "$T/json" '.results[0].params | keys == ["ends"]' "--json: params has ends only"
    json_ok "$T/json" '.results[0].compat == "same"' "--json: a process partner is lmbench 3's quantity (compat same)"
    run_json "$CMD" -N 3 --json --threads
    json_ok "$T/json" '.results[0].compat | startswith("new: the partner is a thread")' \
        "--json --threads: a thread partner is not lmbench 3's quantity (compat new)"
else
    skip "--json: no JSON"
fi

usage_error lat_pipe "$CMD" extra
usage_error lat_pipe "$CMD" -N 0
usage_error lat_pipe "$CMD" -m 10

partner_killed lat_pipe "partner killed" "$CMD" -N 1000 --min-time 0.2
interrupted_running "lat_pipe" "$CMD" -N 1000 --min-time 0.2

done_testing
