#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_syscall: classic lines, --json, bad input, -P, placement, statuses,
# timeouts, signals and temporary files.
. "$(dirname "$0")/lib.sh"

CMD=$BIN/lat_syscall
NUM='[0-9]+\.[0-9]{4}'

# --- classic lines, one per variant ------------------------------------------------

for pair in "null:Simple syscall" "read:Simple read" "write:Simple write" \
            "stat:Simple stat" "fstat:Simple fstat" "open:Simple open/close"; do
    v=${pair%%:*}
    label=${pair#*:}
    run "$CMD" -N 3 "$v"
    is "$RC" 0 "$v: exit status 0"
    is "$OUT" "" "$v: nothing on stdout"
    one_line_like "$ERR" "^$label: $NUM microseconds\$" "$v: stderr is exactly '$label: X.XXXX microseconds'"
    x=$(printf '%s\n' "$ERR" | sed -n 's/^.*: \([0-9.]*\) microseconds$/\1/p')
    check "$v: latency is positive ($x)" awk -v x="$x" 'BEGIN { exit !(x + 0 > 0) }'
done

# The file variants on a file given on the command line.
echo data >"$T/file"
for pair in "stat:Simple stat" "fstat:Simple fstat" "open:Simple open/close"; do
    v=${pair%%:*}
    label=${pair#*:}
    run "$CMD" -N 3 "$v" "$T/file"
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ] && printf '%s\n' "$ERR" | grep -Eqx "$label: $NUM microseconds"; echo $?) \
        "$v FILE: exit 0 and the classic line"
done
check "the file given is left in place" test -f "$T/file"

# A file given to a variant that does not use one: a warning, then the result.
run "$CMD" -N 3 null "$T/file"
is "$RC" 0 "null FILE: exit status 0"
like "$ERR" '^lat_syscall: warning: ' "null FILE: a warning on stderr"
like "$ERR" "^Simple syscall: $NUM microseconds\$" "null FILE: the classic line still comes"

# Warm-up, attached option values, '--'.
run "$CMD" -W 200 -N3 -- null
ok $([ "$RC" = 0 ] && printf '%s\n' "$ERR" | grep -Eqx "Simple syscall: $NUM microseconds"; echo $?) \
    "-W 200 -N3 -- null: exit 0 and the classic line"

# Output never follows LC_NUMERIC.
run env LC_ALL=de_DE.UTF-8 LC_NUMERIC=de_DE.UTF-8 "$CMD" -N 3 null
one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" "a decimal point whatever the locale"

# --- help and variants -------------------------------------------------------------

run "$CMD" --help
is "$RC" 0 "--help: exit status 0"
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: lat_syscall ' "--help: first line is the usage"
like "$OUT" 'null\|read\|write\|stat\|fstat\|open' "--help: the usage lists the variants"
is "$ERR" "" "--help: nothing on stderr"
run "$CMD" -h
is "$RC:$(printf '%s\n' "$OUT" | head -n 1 | cut -c1-18)" "0:Usage: lat_syscall" "-h is --help"

run "$CMD" --list
is "$RC" 0 "--list: exit status 0"
is "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" "null read write stat fstat open " \
    "--list: the six variants, one a line"
all_like "$OUT" '^  [a-z]+ +[^ ].*$' "--list: each with a description"

# --- --json ---------------------------------------------------------------------------

if json_usable; then
    run_json "$CMD" -N 3 --json null
    J=$T/json
    is "$RC" 0 "--json: exit status 0"
    is "$ERR" "" "--json: nothing on stderr (no classic line)"
    check "--json: stdout is exactly one JSON document" \
        sh -c '[ "$(jq -s length "$1" 2>/dev/null)" = 1 ]' sh "$J"
    json_checks "$J" <<'EOF'
--json: schema "lmbench-results", schema_version 1
    .schema == "lmbench-results" and .schema_version == 1
--json: tool.name "lmbench", tool.version a string
    (.tool.name == "lmbench") and (.tool.version | type == "string")
--json: host.timer with clock, overhead_ns > 0, granularity_ns
    (.host.timer.clock | type == "string") and (.host.timer.overhead_ns | type == "number")
    and .host.timer.overhead_ns > 0 and (.host.timer.granularity_ns | type == "number")
--json: run.config with repetitions 3, parallel 1, a 1000 us interval from ENOUGH
    .run.config.repetitions == 3 and .run.config.parallel == 1
    and .run.config.interval_us == 1000 and .run.config.interval_source == "ENOUGH"
--json: one result
    .results | type == "array" and length == 1
--json: benchmark lat_syscall, case null
    .results[0] | .benchmark == "lat_syscall" and .case == "null"
--json: params an object, metric latency, unit us, better lower
    .results[0] | (.params | type == "object") and .metric == "latency" and .unit == "us"
    and .better == "lower"
--json: status ok, reason null
    .results[0] | .status == "ok" and .reason == null
--json: samples, -N of them, positive numbers
    .results[0].samples | length == 3 and all(.[]; type == "number" and . > 0)
--json: value is the median, a positive number
    .results[0] | (.value | type == "number") and .value > 0 and .value == .stats.median
--json: stats with n == 3, ordered quantiles, all numbers
    .results[0].stats | .n == 3 and .min <= .p25 and .p25 <= .median and .median <= .p75
    and .p75 <= .max and ([.min, .p25, .median, .p75, .max, .mean, .stdev, .cv]
    | all(.[]; type == "number"))
--json: stats.min and stats.max come from the samples
    .results[0] | .stats.min == (.samples | min) and .stats.max == (.samples | max)
--json: iterations_per_sample is a positive integer
    .results[0].iterations_per_sample | type == "number" and . >= 1 and floor == .
--json: copies 1, placement of one copy
    .results[0] | .copies == 1 and (.placement.cpus | length) == 1
    and (.placement.ran_on | length) == 1
EOF

    # From 6 samples on, a 95% confidence interval of the median.
    run_json "$CMD" -N 7 --json null
    json_checks "$T/json" <<'EOF'
-N 7 --json: 7 samples, stats.ci95 [lo, hi] around the median
    .results[0] | (.samples | length) == 7 and .stats.n == 7 and (.stats.ci95 | length) == 2
    and .stats.ci95[0] <= .stats.median and .stats.median <= .stats.ci95[1]
EOF

    run_json "$CMD" -N 3 --json stat
    json_ok "$T/json" '.results[0] | .case == "stat" and (.params.file | type == "string") and .status == "ok"' \
        "--json stat: case stat, params.file"
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input ------------------------------------------------------------------------

usage_error lat_syscall "$CMD"
usage_error lat_syscall "$CMD" nosuchcall
usage_error lat_syscall "$CMD" null extra more
usage_error lat_syscall "$CMD" stat "$T/does-not-exist"
usage_error lat_syscall "$CMD" -P 0 null
usage_error lat_syscall "$CMD" -P 1025 null
usage_error lat_syscall "$CMD" -N 0 null
usage_error lat_syscall "$CMD" -N abc null
usage_error lat_syscall "$CMD" -N 1001 null
usage_error lat_syscall "$CMD" -N -3 null
usage_error lat_syscall "$CMD" -W x null
usage_error lat_syscall "$CMD" --bogus null
usage_error lat_syscall "$CMD" -q null
usage_error lat_syscall "$CMD" null -N
usage_error lat_syscall "$CMD" null --timeout
usage_error lat_syscall "$CMD" null --cpus
usage_error lat_syscall "$CMD" --timeout -1 null
usage_error lat_syscall "$CMD" --timeout abc null
usage_error lat_syscall "$CMD" --min-time -1 null
usage_error lat_syscall "$CMD" --min-time 1e3 null
usage_error lat_syscall env ENOUGH=abc "$CMD" null
usage_error lat_syscall env ENOUGH=0 "$CMD" null
usage_error lat_syscall env ENOUGH=-5 "$CMD" null
usage_error lat_syscall env ENOUGH=99999999999999999999 "$CMD" null
usage_error lat_syscall env LMBENCH_SCHED=bogus "$CMD" null
usage_error lat_syscall env LMBENCH_SCHED="CUSTOM 4095" "$CMD" null
usage_error lat_syscall env LMBENCH_SCHED=CUSTOM "$CMD" null
usage_error lat_syscall "$CMD" --cpus 4095 null
usage_error lat_syscall "$CMD" --cpus 0-x null
usage_error lat_syscall "$CMD" --cpus= null
# With --json too (a build without JSON says that instead, exit 3).
if json_usable; then
    usage_error lat_syscall "$CMD" --json nosuchcall
else
    skip "--json with bad input: built without jansson"
fi

# --- -P 2 -----------------------------------------------------------------------------------

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 null
is "$RC" 0 "-P 2: exit status 0"
one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" "-P 2: one classic line"
no_process_left "$tag" "-P 2: no process left behind"

if json_usable; then
    tag=$(new_tag)
    run_json env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 --json read
    is "$RC" 0 "-P 2 --json: exit status 0"
    json_checks "$T/json" <<'EOF'
-P 2 --json: run.config.parallel 2, copies 2
    .run.config.parallel == 2 and .results[0].copies == 2
-P 2 --json: placement.cpus and placement.ran_on of length 2
    .results[0].placement | (.cpus | length) == 2 and (.ran_on | length) == 2
-P 2 --json: status ok, -N samples, a positive value
    .results[0] | .status == "ok" and (.samples | length) == 3 and .value > 0
EOF
    no_process_left "$tag" "-P 2 --json: no process left behind"

    # Placement: --cpus confines the copies; LMBENCH_SCHED places them.
    run_json "$CMD" -P 2 -N 3 --cpus 0 --json null
    json_ok "$T/json" '.run.config.cpus == "0" and (.results[0].placement.ran_on | all(.[]; . == 0))' \
        "--cpus 0: every copy ran on CPU 0"
    run_json env LMBENCH_SCHED=SINGLE "$CMD" -P 2 -N 3 --json null
    json_ok "$T/json" '.results[0].placement | .policy == "SINGLE" and .cpus[0] == .cpus[1]
                       and .ran_on == .cpus' "LMBENCH_SCHED=SINGLE: both copies on one CPU"
    if "$CMD" --cpus 0,1 --list >/dev/null 2>&1 && "$CMD" --cpus 0,1 -N 1 null 2>/dev/null; then
        run_json env LMBENCH_SCHED='CUSTOM "1 0"' "$CMD" -P 2 -N 3 --json null
        json_ok "$T/json" '.results[0].placement | .policy == "CUSTOM" and .cpus == [1, 0] and .ran_on == [1, 0]' \
            "LMBENCH_SCHED='CUSTOM \"1 0\"': copy 0 on CPU 1, copy 1 on CPU 0 (the list's order)" \
            '.results[0].placement'
    else
        skip "LMBENCH_SCHED=CUSTOM order: needs CPUs 0 and 1"
    fi
else
    skip "-P 2 --json: jq missing or built without jansson"
fi

# --- statuses: an interval too short to time is said so, never printed as a number ------
#
# --min-time 0.000000001 asks for 1 ns intervals: calibration stops at one
# iteration, and one system call plus a clock read is far under 100 times the
# clock's error (overhead + granularity), the harness's threshold.

run "$CMD" -N 3 --min-time 0.000000001 null
is "$RC" 0 "below resolution: exit status 0 (not a failure)"
unlike "$ERR" '^Simple syscall: ' "below resolution: no classic number printed"
like "$ERR" '^lat_syscall: null( \(.*\))?: below_resolution: .+' "below resolution: said on stderr, with a reason"
is "$OUT" "" "below resolution: nothing on stdout"
if json_usable; then
    run_json "$CMD" -N 3 --min-time 0.000000001 --json null
    json_checks "$T/json" <<'EOF'
below resolution --json: status below_resolution, a reason, value null
    .results[0] | .status == "below_resolution" and (.reason | type == "string" and length > 0)
    and .value == null
below resolution --json: the samples are kept
    .results[0].samples | length == 3
below resolution --json: run.config says the interval came from --min-time
    .run.config.interval_source == "--min-time"
EOF
    like "$ERR" 'below_resolution' "below resolution --json: said on stderr too"

    # ENOUGH=1 (1 us intervals): whatever the machine, the status and the value agree.
    run_json env ENOUGH=1 "$CMD" -N 3 --json null
    json_ok "$T/json" '.results[0] | (.status == "ok" or .status == "below_resolution")
                       and ((.status == "ok") == (.value != null))
                       and (.status == "ok" or (.reason | type == "string" and length > 0))' \
        "ENOUGH=1 --json: ok with a value, or below_resolution with a reason and no value"
else
    skip "below resolution --json: jq missing or built without jansson"
fi
run env ENOUGH=1 "$CMD" -N 3 null
ok $({ printf '%s\n' "$ERR" | grep -Eqx "Simple syscall: $NUM microseconds" ||
       printf '%s\n' "$ERR" | grep -Eq '^lat_syscall: null( \(.*\))?: below_resolution: .+'; } && [ "$RC" = 0 ]; echo $?) \
    "ENOUGH=1: either the classic line or an explicit below_resolution"

# --- temporary files ---------------------------------------------------------------------

mkdir "$T/tmp1"
run env TMPDIR="$T/tmp1" "$CMD" -N 3 open
is "$RC" 0 "open on a temporary file: exit status 0"
is "$(lmbench_tmpfiles "$T/tmp1")" "" "the temporary file is removed"

run env TMPDIR="$T/no-such-dir" "$CMD" -N 3 stat
is "$RC" 1 "TMPDIR that does not exist: exit status 1 (failed)"
like "$ERR" '^lat_syscall: .*temporary' "TMPDIR that does not exist: says why"
if json_usable; then
    # A failure is a result too: with --json it is a record with status failed.
    run_json env TMPDIR="$T/no-such-dir" "$CMD" -N 3 --json stat
    is "$RC" 1 "TMPDIR that does not exist --json: exit status 1"
    json_checks "$T/json" <<'EOF'
TMPDIR that does not exist --json: still a JSON document, with a failed record and its reason
    .schema == "lmbench-results" and (.results | length == 1 and (.[0].status == "failed")
    and (.[0].reason | type == "string" and length > 0))
EOF
else
    skip "TMPDIR --json: jq missing or built without jansson"
fi

# --- failures --------------------------------------------------------------------------------

# A UNIX socket file: stat() works, open() fails (ENXIO), in set-up (fstat) or
# in the timed loop (open). Both are failures with a reason, exit 1.
if command -v python3 >/dev/null 2>&1 &&
   python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock" 2>/dev/null &&
   [ -S "$T/sock" ]; then
    run "$CMD" -N 3 stat "$T/sock"
    one_line_like "$ERR" "^Simple stat: $NUM microseconds\$" "stat of a socket file works"
    for v in fstat open; do
        tag=$(new_tag)
        run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 "$v" "$T/sock"
        is "$RC" 1 "$v of a socket file: exit status 1"
        like "$ERR" "^lat_syscall: $v( \(.*\))?: failed: .+" "$v of a socket file: 'failed' and why on stderr"
        unlike "$ERR" '^Simple ' "$v of a socket file: no classic number"
        no_process_left "$tag" "$v of a socket file: no process left behind"
    done
    if json_usable; then
        run_json "$CMD" -N 3 --json open "$T/sock"
        is "$RC" 1 "open of a socket file --json: exit status 1"
        json_checks "$T/json" <<'EOF'
open of a socket file --json: status failed, a reason, value null
    .results[0] | .status == "failed" and (.reason | length > 0) and .value == null
EOF
    else
        skip "socket --json: jq missing or built without jansson"
    fi
else
    skip "failures on a socket file: no python3 to make one"
fi

# A FIFO: opened without blocking (no writer needed), so fstat and open of it
# are measured rather than waiting for ever.
if mkfifo "$T/fifo" 2>/dev/null; then
    tag=$(new_tag)
    run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 --timeout 30 fstat "$T/fifo"
    is "$RC" 0 "fstat of a FIFO does not block: exit status 0"
    one_line_like "$ERR" "^Simple fstat: $NUM microseconds\$" "fstat of a FIFO: the classic line"
    no_process_left "$tag" "fstat of a FIFO: no process left behind"
else
    skip "fstat of a FIFO: no mkfifo"
fi

# --timeout 0: no limit; ENOUGH empty: the default interval.
run "$CMD" -N 3 --timeout 0 null
one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" "--timeout 0 (none): the classic line"
run env ENOUGH= "$CMD" -N 3 null
one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" "ENOUGH empty (the default interval): the classic line"

# --- timeout ------------------------------------------------------------------------------

mkdir "$T/tmp2"
tag=$(new_tag)
run env TMPDIR="$T/tmp2" LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 1000 --min-time 0.5 --timeout 0.3 stat
is "$RC" 1 "--timeout: exit status 1"
like "$ERR" 'timeout' "--timeout: says timeout on stderr"
unlike "$ERR" '^Simple stat: ' "--timeout: no classic number"
no_process_left "$tag" "--timeout: no process left behind"
is "$(lmbench_tmpfiles "$T/tmp2")" "" "--timeout: the temporary file is removed"

# --- signals ------------------------------------------------------------------------------

# SIGINT and SIGTERM while two copies time stat() on a temporary file: the
# command dies of the signal, its copies with it, and the file is removed.
for sig in INT TERM; do
    d=$T/tmp-$sig
    mkdir "$d"
    tag=$(new_tag)
    start_bg "$tag" env TMPDIR="$d" "$CMD" -P 2 -N 1000 --min-time 0.2 stat
    wait_for "temporary file" 50 sh -c '[ -n "$(ls -A "$1")" ]' sh "$d"
    wait_for "copies" 50 tagged_count_at_least "$tag" 3
    ok $? "SIG$sig: the command and its two copies are running"
    kill -"$sig" "$BG"
    wait_bg
    case $sig in INT) want=130 ;; TERM) want=143 ;; esac
    is "$BG_RC" "$want" "SIG$sig: the command dies of the signal"
    no_process_left "$tag" "SIG$sig: no process left behind" 10
    is "$(lmbench_tmpfiles "$d")" "" "SIG$sig: no lmbench temporary file left"
done

# SIGKILL of the command: nothing can clean up in it, but its copies die with it.
tag=$(new_tag)
start_bg "$tag" "$CMD" -P 2 -N 1000 --min-time 0.2 null
wait_for "copies" 50 tagged_count_at_least "$tag" 3
ok $? "SIGKILL: the command and its two copies are running"
kill -KILL "$BG"
wait_bg
no_process_left "$tag" "SIGKILL of the command: its copies die with it" 20

# --- output errors ------------------------------------------------------------------------

if [ -w /dev/full ] && json_usable; then
    CONTEXT="lat_syscall -N 3 --json null >/dev/full"
    "$CMD" -N 3 --json null >/dev/full 2>"$T/err"
    rc=$?
    is "$rc" 1 "--json to a full device: exit status 1, the results are not lost silently"
    like "$(cat "$T/err")" '^lat_syscall: ' "--json to a full device: an error on stderr"
else
    skip "--json to /dev/full: no /dev/full or no JSON"
fi

done_testing
