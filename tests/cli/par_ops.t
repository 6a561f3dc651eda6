#!/bin/sh
# SPDX-License-Identifier: MIT
# par_ops: the classic lines of every operation in order, --json, bad input
# (no -P), statuses (a ratio the chains cannot give, or rounds that disagree,
# fail as too noisy) and SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/par_ops
LABELS='integer bit
integer add
integer mul
integer div
integer mod
int64 bit
int64 add
int64 mul
int64 div
int64 mod
float add
float mul
float div
double add
double mul
double div'

# "<type> <op>" of each line, from classic lines and status messages.
labels() {
    printf '%s\n' "$1" | sed -e 's/^par_ops: \([a-z]*\) (type=\([a-z0-9]*\) chains=[0-9]*[^)]*): [a-z_]*: .*/\2 \1/' \
        -e 's/ parallelism: [0-9.]*$//'
}

run "$CMD" -N 3
ok $([ "$RC" = 0 ] || { [ "$RC" = 1 ] && grep -q 'failed: too noisy: ' "$T/err"; }; echo $?) \
    "exit status 0 (1 when a ratio was too noisy)"
is "$OUT" "" "nothing on stdout"
all_like "$ERR" '^((integer|int64|float|double) [a-z]+ parallelism: [0-9]+\.[0-9]{2}|par_ops: [a-z]+ \(type=[a-z0-9]+ chains=[0-9]+\): below_resolution: .+|par_ops: [a-z]+ \(type=[a-z0-9]+ chains=[0-9]+ latency_ns=[0-9.e+-]+ per_op_ns=[0-9.e+-]+\): failed: too noisy: .+)$' \
    "every line is '<type> <op> parallelism: X.XX' (or a below_resolution or too-noisy message)"
is "$(labels "$ERR")" "$LABELS" "the 16 operations in lmbench 3's order (no bogomflops)"
lines=$(printf '%s\n' "$ERR" | grep 'parallelism: ')
hw_positive "$lines" "every parallelism printed is positive"
# No range: on a busy machine a ratio of two times can come out anywhere.

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: par_ops \[-W <warmup>\] \[-N <repetitions>\]$' \
    "--help: the usage line (no -P)"

if json_usable; then
    run_json "$CMD" -N 3 --json
    ok $([ "$RC" = 0 ] || [ "$RC" = 1 ]; echo $?) "--json: exit status 0 (1 when too noisy)"
    json_checks "$T/json" <<'JQ'
--json: 16 records of par_ops, cases and params.type as the classic labels
    [.results[] | select(.benchmark == "par_ops") | "\(.params.type) \(.case)"]
    == ["integer bit", "integer add", "integer mul", "integer div", "integer mod",
    "int64 bit", "int64 add", "int64 mul", "int64 div", "int64 mod", "float add",
    "float mul", "float div", "double add", "double mul", "double div"]
--json: unit x, metric parallelism, better higher, headline median, params.chains
    .results | all(.[]; .unit == "x" and .metric == "parallelism" and .better == "higher"
    and .headline == "median" and (.params.chains | . >= 1))
--json: ok with one sample per round (3) and their median as value, or below_resolution with a reason
    .results | all(.[]; (.status == "ok" and (.samples | length == 3) and .value == .stats.median)
    or (.status == "below_resolution" and (.reason | length > 0) and .value == null)
    or (.status == "failed" and (.reason | startswith("too noisy: ")) and .value == null))
--json: an ok ratio is within what its chains allow (1/1.15 to 1.15 times the chains)
    .results | all(.[]; .status != "ok" or (.value >= 1 / 1.15 and .value <= 1.15 * .params.chains))
--json: a measured record carries the best latency and time per operation, their ratio the rounds'
    .results | all(.[]; .status == "below_resolution" or
    (.params.latency_ns > 0 and .params.per_op_ns > 0))
JQ
    # Without ENOUGH or --min-time the arithmetic loops time 1 ms intervals.
    (unset ENOUGH; "$CMD" -N 1 --json >"$T/json" 2>"$T/err")
    json_checks "$T/json" <<'JQ'
no ENOUGH: 1 ms intervals, said in run.config
    .run.config.interval_us == 1000 and (.run.config.interval_source | startswith("default"))
JQ
else
    skip "--json: jq missing or built without jansson"
fi

usage_error par_ops "$CMD" extra
usage_error par_ops "$CMD" -P 2
usage_error par_ops "$CMD" -P 0
hw_bad_common par_ops "$CMD"

run "$CMD" -N 3 --min-time 0.000000001
is "$RC" 0 "below resolution: exit status 0"
unlike "$ERR" 'parallelism: [0-9]' "below resolution: no number printed"
is "$(grep -c '^par_ops: [a-z]* (type=[a-z0-9]* chains=[0-9]*): below_resolution: .' "$T/err")" 16 \
    "below resolution: one message with a reason for each operation"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

done_testing
