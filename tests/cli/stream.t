#!/bin/sh
# SPDX-License-Identifier: MIT
# stream: the eight lines of -v 1 and of -v 2 in order, -M, -P, --json, bad
# input, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/stream

# "<label> <quantity>" of each line.
shape() {
    printf '%s\n' "$1" | sed -e 's/^\(STREAM2* [a-z]*\) latency: [0-9.]* nanoseconds$/\1 latency/' \
        -e 's/^\(STREAM2* [a-z]*\) bandwidth: [0-9.]* MB\/sec$/\1 bandwidth/'
}
V1='STREAM copy latency
STREAM copy bandwidth
STREAM scale latency
STREAM scale bandwidth
STREAM add latency
STREAM add bandwidth
STREAM triad latency
STREAM triad bandwidth'
V2='STREAM2 fill latency
STREAM2 fill bandwidth
STREAM2 copy latency
STREAM2 copy bandwidth
STREAM2 daxpy latency
STREAM2 daxpy bandwidth
STREAM2 sum latency
STREAM2 sum bandwidth'
LINE='^STREAM2? [a-z]+ (latency: [0-9]+\.[0-9]{2} nanoseconds|bandwidth: [0-9]+\.[0-9]{2} MB/sec)$'

run "$CMD" -N 3 -M 256k
is "$RC" 0 "-M 256k: exit status 0"
is "$OUT" "" "-M 256k: nothing on stdout"
all_like "$ERR" "$LINE" "-M 256k: every line 'STREAM <k> latency: X nanoseconds' or '... bandwidth: X MB/sec'"
is "$(shape "$ERR")" "$V1" "-M 256k: copy, scale, add, triad, latency then bandwidth"
hw_positive "$ERR" "-M 256k: every figure positive"

run "$CMD" -N 3 -M 256k -v 2
is "$RC" 0 "-v 2: exit status 0"
is "$(shape "$ERR")" "$V2" "-v 2: fill, copy, daxpy, sum, latency then bandwidth"
run "$CMD" -N 3 -M 256k -v 1
is "$(shape "$ERR")" "$V1" "-v 1: the first set"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 -M 256k
is "$RC" 0 "-P 2: exit status 0"
is "$(shape "$ERR")" "$V1" "-P 2: the eight lines"
no_process_left "$tag" "-P 2: no process left behind"

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: stream \[-P <parallelism>\] \[-W <warmup>\] \[-N <repetitions>\] \[-v <1\|2>\] \[-M <len>\]$' \
    "--help: the usage line"

if json_usable; then
    run_json "$CMD" -N 3 -M 256k --json
    json_checks "$T/json" <<'JQ'
--json: 8 records of stream: each kernel's latency then bandwidth
    [.results[] | "\(.case) \(.params.quantity)"] == ["copy latency", "copy bandwidth",
    "scale latency", "scale bandwidth", "add latency", "add bandwidth", "triad latency",
    "triad bandwidth"]
--json: params version 1 and size_bytes 262144
    .results | all(.[]; .params.version == 1 and .params.size_bytes == 262144)
--json: latency in ns (lower), bandwidth in MB/s (higher)
    .results | all(.[]; if .params.quantity == "latency" then .unit == "ns" and .better == "lower"
    else .unit == "MB/s" and .better == "higher" end)
--json: bytes counted the STREAM way: bandwidth x latency = 16 or 24 bytes x 1000
    [.results[] | {k: .case, q: .params.quantity, v: .value}] as $r
    | [range(0; 8; 2)] | all(.[]; ($r[.].v * $r[. + 1].v / 1000) as $b
    | ({"copy": 16, "scale": 16, "add": 24, "triad": 24}[$r[.].k]) as $want
    | ($b / $want) > 0.5 and ($b / $want) < 2)
--json: all ok, 3 samples each
    .results | all(.[]; .status == "ok" and (.samples | length) == 3)
--json: at -P 1 the best repetition, as lmbench 3: latency min, bandwidth max
    .results | all(.[]; if .params.quantity == "latency" then .headline == "min" and .value == .stats.min
    else .headline == "max" and .value == .stats.max end)
JQ
    run_json "$CMD" -N 3 -M 256k -P 2 --json
    json_ok "$T/json" '.results | all(.[]; .headline == "median" and .value == .stats.median)' \
        "-P 2 --json: the median of the repetitions"
    run_json "$CMD" -N 3 -M 256k -v 2 --json
    json_ok "$T/json" '[.results[] | .case] == ["fill", "fill", "copy", "copy", "daxpy", "daxpy", "sum", "sum"]
        and (.results | all(.[]; .params.version == 2))' "-v 2 --json: fill, copy, daxpy, sum, version 2"
else
    skip "--json: jq missing or built without jansson"
fi

usage_error stream "$CMD" extra
usage_error stream "$CMD" -v 3
usage_error stream "$CMD" -v
usage_error stream "$CMD" -v x
usage_error stream "$CMD" -M 1k
usage_error stream "$CMD" -M abc
usage_error stream "$CMD" -P 0
hw_bad_common stream "$CMD"

run "$CMD" -N 3 -M 1024t
is "$RC" 1 "-M 1024t: exit status 1 (does not fit)"
like "$ERR" '^stream: .*failed: .+' "-M 1024t: says why"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2 -M 256k

done_testing
