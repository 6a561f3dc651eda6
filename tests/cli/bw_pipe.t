#!/bin/sh
# SPDX-License-Identifier: MIT
# bw_pipe: the classic line, -m and -M (the byte counts in the record), placements,
# --json, bad input, a partner that dies, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/bw_pipe
BW='[0-9]+\.[0-9]{2}'
LABEL='Pipe bandwidth'

run "$CMD" -N 3 -M 1m
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "-M 1m: exit 0, nothing on stdout"
one_line_like "$ERR" "^$LABEL: $BW MB/sec\$" "stderr is exactly '$LABEL: X.XX MB/sec'"
positive "$(printf '%s\n' "$ERR" | awk '{ print $(NF - 1) }')" "the bandwidth is positive"

for mM in "1 1000" "4k 1m" "1000 999" "64k 100000" "1m 3m"; do
    set -- $mM
    run "$CMD" -N 3 -m "$1" -M "$2"
    one_line_like "$ERR" "^$LABEL: $BW MB/sec\$" "-m $1 -M $2: the classic line"
done

if json_usable; then
    run_json "$CMD" -N 3 --json
    json_one_record "$T/json" bw_pipe null MB/s
    json_ok "$T/json" '.results[0].params == {"msg_bytes": 65536, "total_bytes": 10485760, "ends": "unpinned"}' \
        "--json: the defaults, 64k messages and 10m per transfer"
    run_json "$CMD" -N 3 --json -m 1000 -M 3m
    json_ok "$T/json" '.results[0].params | .msg_bytes == 1000 and .total_bytes == 3145728' \
        "--json -m 1000 -M 3m: the byte counts given, exactly"
    json_ok "$T/json" '.results[0] | .metric == "bandwidth" and .better == "higher"' "--json: a bandwidth"
else
    skip "--json: no JSON"
fi
placements bw_pipe "$CMD" -M 1m
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 3 -M 1m --threads
one_line_like "$ERR" "^$LABEL: $BW MB/sec\$" "--threads (the writer a thread): the classic line"
no_process_left "$tag" "--threads: nothing left running"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 -M 1m
one_line_like "$ERR" "^$LABEL: $BW MB/sec\$" "-P 2: one classic line"
no_process_left "$tag" "-P 2: no process left behind"

usage_error bw_pipe "$CMD" extra
usage_error bw_pipe "$CMD" -m 0
usage_error bw_pipe "$CMD" -m 65m
usage_error bw_pipe "$CMD" -M 0
usage_error bw_pipe "$CMD" -M x
usage_error bw_pipe "$CMD" -m

# Totals that cannot be moved within the timeout, even at 40 GB/s, are refused
# at once (issue 15): 13 rounds (calibration, an untimed interval, 11 samples)
# of 1 TiB take at least 357 s. Byte counts that overflow are refused too.
. "$(dirname "$0")/lib-transfer.sh"
. "$(dirname "$0")/lib-cgroup.sh"
stream_limits bw_pipe

partner_killed bw_pipe "partner killed" "$CMD" -N 1000 --min-time 0.2
interrupted_running "bw_pipe" "$CMD" -N 1000 --min-time 0.2

done_testing
