#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_usleep: classic lines for every method, the sleep is at least what was
# asked, --json, bad input, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_usleep
NUM='[0-9]+\.[0-9]{4}'

for m in usleep nanosleep select pselect itimer; do
    run "$CMD" -N 3 -u "$m" 200
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "-u $m 200: exit 0, nothing on stdout"
    one_line_like "$ERR" "^$m 200 microseconds: $NUM microseconds\$" \
        "-u $m 200: stderr is exactly '$m 200 microseconds: X.XXXX microseconds'"
    x=$(label_value "$ERR")
    check "-u $m 200: slept at least 200 microseconds ($x)" awk -v x="$x" 'BEGIN { exit !(x >= 200) }'
done

run "$CMD" -N 3 100
one_line_like "$ERR" "^usleep 100 microseconds: $NUM microseconds\$" "the default method is usleep"
for m in usleep itimer; do
    run "$CMD" -N 3 -u "$m" 0
    one_line_like "$ERR" "^$m 0 microseconds: $NUM microseconds\$" "-u $m 0: a sleep of nothing still measured"
done

run "$CMD" --list
is "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" "usleep nanosleep select pselect itimer " \
    "--list: the five methods"

if json_usable; then
    run_json "$CMD" -N 3 --json -u nanosleep 50
    json_one_record "$T/json" lat_usleep nanosleep us
    json_ok "$T/json" '.results[0].params == {"usecs": 50}' "--json: params.usecs"
else
    skip "--json: jq missing or built without jansson"
fi

usage_error lat_usleep "$CMD"
usage_error lat_usleep "$CMD" -u sleep 100
usage_error lat_usleep "$CMD" -u 100
usage_error lat_usleep "$CMD" 100 200
usage_error lat_usleep "$CMD" -5
usage_error lat_usleep "$CMD" 1.5
usage_error lat_usleep "$CMD" 10000001
usage_error lat_usleep "$CMD" abc

interrupted_running "itimer" "$CMD" -N 1000 -u itimer 1000

done_testing
