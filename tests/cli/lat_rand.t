#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_rand: the three generators, one of them, --list, --json, bad input, -P, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/lat_rand
NUM='[0-9]+\.[0-9]{2}'

run "$CMD" -N 3
is "$RC" 0 "exit status 0"
is "$OUT" "" "nothing on stdout"
is "$(printf '%s\n' "$ERR" | sed 's/: .*//')" "drand48 latency
lrand48 latency
random latency" "one line per generator, in order"
all_like "$ERR" "^[a-z0-9]+ latency: $NUM nanoseconds\$" "each '<generator> latency: X.XX nanoseconds'"
hw_positive "$ERR" "every latency positive"

for g in drand48 lrand48 random; do
    run "$CMD" -N 3 "$g"
    one_line_like "$ERR" "^$g latency: $NUM nanoseconds\$" "$g alone: its line only"
done

run "$CMD" --list
is "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" "drand48 lrand48 random " "--list: the generators"

if json_usable; then
    run_json "$CMD" -N 3 --json
    json_checks "$T/json" <<'JQ'
--json: three records of lat_rand, cases the generators
    [.results[] | .case] == ["drand48", "lrand48", "random"] and (.results | all(.[]; .benchmark == "lat_rand"))
--json: unit ns, latency, ok, median
    .results | all(.[]; .unit == "ns" and .metric == "latency" and .status == "ok" and .value == .stats.median)
JQ
else
    skip "--json: jq missing or built without jansson"
fi

usage_error lat_rand "$CMD" rand
usage_error lat_rand "$CMD" drand48 lrand48
usage_error lat_rand "$CMD" -P 0
hw_bad_common lat_rand "$CMD"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 drand48
one_line_like "$ERR" "^drand48 latency: $NUM nanoseconds\$" "-P 2: the line"
no_process_left "$tag" "-P 2: no process left behind"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

done_testing
