#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_ops: the classic lines of every operation in order, --json, bad input,
# -P, statuses, timeout and SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/lat_ops
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
double div
float bogomflops
double bogomflops'

# --- classic lines ------------------------------------------------------------------

# Each operation once, in order: its classic line, or (on a machine so busy
# that the longer chain never came out slower) a below_resolution message.
# labels TEXT: "<type> <op>" of each line, from classic lines and messages.
labels() {
    printf '%s\n' "$1" | sed -e 's/^lat_ops: \([a-z]*\) (type=\([a-z0-9]*\)): below_resolution: .*/\2 \1/' \
        -e 's/: [0-9.]* nanoseconds$//'
}
run "$CMD" -N 3
is "$RC" 0 "exit status 0"
is "$OUT" "" "nothing on stdout"
all_like "$ERR" '^((integer|int64|float|double) [a-z]+: [0-9]+\.[0-9]{2} nanoseconds|lat_ops: [a-z]+ \(type=[a-z0-9]+[^)]*\): below_resolution: .+)$' \
    "every line is '<type> <op>: X.XX nanoseconds' (or a below_resolution message)"
is "$(labels "$ERR")" "$LABELS" "the 18 operations in lmbench 3's order"
like "$ERR" '^int64 add: [0-9.]+ nanoseconds$' "int64 add has a line"
lines=$(printf '%s\n' "$ERR" | grep 'nanoseconds$')
hw_positive "$lines" "every latency printed is positive (no 0.00)"
# A sanity range, not a timing: one operation takes between 0.01 and 1000 ns.
check "every latency between 0.01 and 1000 ns" sh -c \
    'printf "%s\n" "$1" | awk "{ if (\$(NF-1) < 0.01 || \$(NF-1) > 1000) exit 1 }"' sh "$lines"

run "$CMD" --help
is "$RC" 0 "--help: exit status 0"
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: lat_ops \[-P <parallelism>\] \[-W <warmup>\] \[-N <repetitions>\]$' \
    "--help: the usage line"

# --- --json -------------------------------------------------------------------------

if json_usable; then
    run_json "$CMD" -N 3 --json
    is "$RC" 0 "--json: exit status 0"
    unlike "$ERR" 'nanoseconds$' "--json: no classic line on stderr"
    json_checks "$T/json" <<'JQ'
--json: 18 records of lat_ops
    .results | length == 18 and all(.[]; .benchmark == "lat_ops")
--json: cases and params.type as the classic labels
    [.results[] | "\(.params.type) \(.case)"] == ["integer bit", "integer add", "integer mul",
    "integer div", "integer mod", "int64 bit", "int64 add", "int64 mul", "int64 div",
    "int64 mod", "float add", "float mul", "float div", "double add", "double mul",
    "double div", "float bogomflops", "double bogomflops"]
--json: metric latency, unit ns, better lower
    .results | all(.[]; .metric == "latency" and .unit == "ns" and .better == "lower")
--json: headline min; three rounds of 3 samples; ok with value the minimum of the samples, or below_resolution with a reason
    .results | all(.[]; .headline == "min" and (.samples | length == 9)
    and ((.status == "ok" and .value == .stats.min and .value > 0)
    or (.status == "below_resolution" and .value == null and (.reason | length > 0))))
--json: bogomflops, lmbench 3's quantity: 12 elements of 4 flops each, the element updates of an interval counted
    [.results[] | select(.case == "bogomflops")] | length == 2 and all(.[]; .compat == "same"
    and .params.elements == 12 and .params.flops_per_element == 4
    and .params.elements_per_interval == .iterations_per_sample * 64 * 12)
--json: the other operations carry no element counts
    .results | all(.[]; .case == "bogomflops" or (.params | has("elements") | not))
JQ
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input ----------------------------------------------------------------------

usage_error lat_ops "$CMD" extra
usage_error lat_ops "$CMD" -P 0
usage_error lat_ops "$CMD" -t
hw_bad_common lat_ops "$CMD"

# --- -P 2 ---------------------------------------------------------------------------

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3
is "$RC" 0 "-P 2: exit status 0"
is "$(labels "$ERR")" "$LABELS" "-P 2: the 18 operations"
no_process_left "$tag" "-P 2: no process left behind"

# --- statuses -----------------------------------------------------------------------

# 1 ns intervals: every loop runs once, far under the clock's resolution.
run "$CMD" -N 3 --min-time 0.000000001
is "$RC" 0 "below resolution: exit status 0"
unlike "$ERR" 'nanoseconds$' "below resolution: no number printed"
is "$(grep -c '^lat_ops: [a-z]* (type=[a-z0-9]*[^)]*): below_resolution: .' "$T/err")" 18 \
    "below resolution: one message with a reason for each operation"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 1000 --min-time 0.5 --timeout 0.05
is "$RC" 1 "--timeout: exit status 1"
like "$ERR" 'timeout' "--timeout: said on stderr"
unlike "$ERR" 'nanoseconds$' "--timeout: no number printed"
no_process_left "$tag" "--timeout: no process left behind"

hw_interrupt "SIGINT" 2 "$CMD" -N 1000 --min-time 0.2

done_testing
