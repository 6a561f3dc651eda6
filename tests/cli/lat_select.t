#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_select: file and tcp classic lines, -n, --json, bad input, temporary file
# and sockets cleaned up, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_select
NUM='[0-9]+\.[0-9]{4}'

mkdir "$T/tmp"
run env TMPDIR="$T/tmp" "$CMD" -N 3 file
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "file: exit 0, nothing on stdout"
one_line_like "$ERR" "^Select on 200 fd's: $NUM microseconds\$" "file: the default is 200 descriptors"
positive "$(label_value "$ERR")" "file: the latency is positive"
is "$(ls -A "$T/tmp")" "" "file: the temporary file is removed"

run "$CMD" -N 3 tcp
one_line_like "$ERR" "^Select on 200 tcp fd's: $NUM microseconds\$" "tcp: the default is 200 sockets"
positive "$(label_value "$ERR")" "tcp: the latency is positive"

for n in 1 10 1000; do
    run "$CMD" -N 3 -n "$n" file
    one_line_like "$ERR" "^Select on $n fd's: $NUM microseconds\$" "-n $n file: the classic line"
    run "$CMD" -N 3 -n "$n" tcp
    one_line_like "$ERR" "^Select on $n tcp fd's: $NUM microseconds\$" "-n $n tcp: the classic line"
done

# More descriptors cost more: 1000 against 10, same run (a loose check).
run "$CMD" -N 3 -n 10 tcp
a=$(label_value "$ERR")
run "$CMD" -N 3 -n 1000 tcp
b=$(label_value "$ERR")
check "1000 tcp sockets take longer than 10 ($b > $a)" awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > a) }'

# A low soft limit is raised up to the hard limit; a low hard limit fails clearly.
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 2100 ]; then
    run sh -c 'ulimit -Sn 256 && exec "$@"' sh "$CMD" -N 3 -n 1000 tcp
    one_line_like "$ERR" "^Select on 1000 tcp fd's: $NUM microseconds\$" "tcp under a soft limit of 256 descriptors: raised, works"
else
    skip "tcp under a soft limit: the hard limit ($hard) is too low here"
fi
failed_run lat_select "tcp under a hard limit of 200 descriptors: exit 1, failed" \
    sh -c 'ulimit -n 200 && exec "$@"' sh "$CMD" -N 3 -n 1000 tcp
like "$ERR" 'limit' "a hard limit too low: the reason names the limit"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 -n 50 tcp
one_line_like "$ERR" "^Select on 50 tcp fd's: $NUM microseconds\$" "-P 2 tcp: one classic line"
no_process_left "$tag" "-P 2 tcp: no process left behind"

if json_usable; then
    run_json "$CMD" -N 3 --json -n 10 file
    json_one_record "$T/json" lat_select file us
    json_ok "$T/json" '.results[0].params == {"nfds": 10}' "--json file: params.nfds"
    run_json "$CMD" -N 3 --json tcp
    json_one_record "$T/json" lat_select tcp us
    json_ok "$T/json" '.results[0].params == {"nfds": 200}' "--json tcp: params.nfds 200"
else
    skip "--json: jq missing or built without jansson"
fi

usage_error lat_select "$CMD"
usage_error lat_select "$CMD" udp
usage_error lat_select "$CMD" file tcp
usage_error lat_select "$CMD" -n 0 file
usage_error lat_select "$CMD" -n 1001 file
usage_error lat_select "$CMD" -n -5 file
usage_error lat_select "$CMD" -n ten file
usage_error lat_select "$CMD" -n file

interrupted lat_select "$T/sig" "file" "$CMD" -P 2 -N 1000 --min-time 0.2 file
interrupted_running "tcp" "$CMD" -N 1000 --min-time 0.2 tcp

done_testing
