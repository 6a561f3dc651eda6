#!/bin/sh
# SPDX-License-Identifier: MIT
# --timeout SEC bounds the whole command: every measurement, calibration,
# sweep point and launch together. Each command below would run for minutes
# with the bound applied per measurement; with --timeout 3 it must end within
# 3 s and a bounded margin (the harness promises 2 s; 5 s is allowed here so
# that a loaded machine does not make the test a timing flake), exit 1, report
# status timeout with a reason naming the command's --timeout, and leave no
# process behind. `timeout 30` is only a liveness guard.
. "$(dirname "$0")/lib.sh"

S=3
LIMIT=$((S + 5))

now() { date +%s.%N; }
# elapsed T0 T1: seconds between, as an integer (rounded up).
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { d = b - a; i = int(d); if (d > i) i++; print i }'; }

# bounded NAME TAG COMMAND...: runs the command under the guard with --json and
# checks the time, the exit status and the process table.
bounded() {
    _name=$1
    _tag=$2
    shift 2
    _t0=$(now)
    run_json env LMB_TEST_TAG="$_tag" timeout 30 "$@"
    _t1=$(now)
    _secs=$(elapsed "$_t0" "$_t1")
    ok $([ "$_secs" -le "$LIMIT" ]; echo $?) "$_name: ended within --timeout $S + 5 s (took ${_secs} s)"
    is "$RC" 1 "$_name: exit status 1 (timed out)"
    no_process_left "$_tag" "$_name: no process left behind" 10
}

# timed_out NAME: the JSON document has records, at least one timed out, and
# every one that did not end ok timed out with a reason naming the command's
# --timeout.
timed_out() {
    ok $([ -s "$T/json" ]; echo $?) "$1: --json: the document is printed"
    json_ok "$T/json" '(.results | length > 0) and
        ([.results[] | select(.status == "timeout")] | length > 0) and
        all(.results[]; .status == "ok" or
            (.status == "timeout" and (.reason | test("command.s --timeout of 3 s"))))' \
        "$1: --json: status timeout, the reason names the command's --timeout" '[.results[] | {status, reason}]'
}

if ! json_usable; then
    skip "--timeout: jq missing or built without jansson"
    done_testing
    exit
fi

# --- lat_ops: about 60 measurements, each of 100 s intervals --------------------------------
bounded "lat_ops" "$(new_tag)" env ENOUGH=100000000 "$BIN/lat_ops" --timeout $S --json
timed_out "lat_ops"

# --- lat_mem_rd: a sweep of some 40 points ----------------------------------------------------
bounded "lat_mem_rd sweep" "$(new_tag)" env ENOUGH=100000000 "$BIN/lat_mem_rd" --timeout $S --json 8m 64
timed_out "lat_mem_rd sweep"
json_ok "$T/json" '.results | length > 10' "lat_mem_rd sweep: every point has its record"

# --- mhz: its own attempts and rounds, each a measurement ----------------------------------
bounded "mhz" "$(new_tag)" env ENOUGH=200000 "$BIN/mhz" --timeout $S --json
timed_out "mhz"

# --- two-ended: the lat_ctx ring (partners), an overhead and four rings -------------------
bounded "lat_ctx" "$(new_tag)" env ENOUGH=100000000 "$BIN/lat_ctx" --timeout $S --json -s 0 2 4 8 16
timed_out "lat_ctx"
json_ok "$T/json" '[.results[] | select(.status == "timeout")] | length == 5' \
    "lat_ctx: the overhead and each ring timed out"

# --- two-ended: lat_pipe, one measurement with its partner --------------------------------
bounded "lat_pipe" "$(new_tag)" env ENOUGH=100000000 "$BIN/lat_pipe" --timeout $S --json
timed_out "lat_pipe"

# --- --launches 3: the launches share the one deadline ------------------------------------
bounded "--launches 3" "$(new_tag)" env ENOUGH=100000000 "$BIN/lat_ops" --launches 3 --timeout $S --json
timed_out "--launches 3"

# --- the backstop: a wait of the command's own (lat_http reading its URL list --------------
# from a pipe nobody writes to): stopped a second after the deadline, the
# report printed with a timeout record that says so.
mkfifo "$T/fifo"
sleep 40 >"$T/fifo" &
_writer=$!
BG_PIDS="$BG_PIDS $_writer"
tag=$(new_tag)
_t0=$(now)
env LMB_TEST_TAG="$tag" timeout 30 "$BIN/lat_http" --timeout $S --json localhost \
    <"$T/fifo" >"$T/json" 2>"$T/err"
RC=$?
_secs=$(elapsed "$_t0" "$(now)")
kill "$_writer" 2>/dev/null
ok $([ "$_secs" -le "$LIMIT" ]; echo $?) "backstop (lat_http blocked on its input): ended within --timeout $S + 5 s (took ${_secs} s)"
is "$RC" 1 "backstop: exit status 1"
ok $([ -s "$T/json" ]; echo $?) "backstop: the JSON document is printed"
json_ok "$T/json" '[.results[] | select(.status == "timeout" and (.reason | test("^stopped: the command.s --timeout of 3 s ran out")))] | length == 1' \
    "backstop: one record with status timeout says the command was stopped" '.results'
no_process_left "$tag" "backstop: no process left behind" 10

# --- the classic lines: timeouts said on stderr -----------------------------------------------
tag=$(new_tag)
_t0=$(now)
run env LMB_TEST_TAG="$tag" ENOUGH=100000000 timeout 30 "$BIN/lat_mem_rd" --timeout $S 1m 64
_secs=$(elapsed "$_t0" "$(now)")
ok $([ "$_secs" -le "$LIMIT" ]; echo $?) "lat_mem_rd (classic): ended within --timeout $S + 5 s (took ${_secs} s)"
is "$RC" 1 "lat_mem_rd (classic): exit status 1"
like "$ERR" "command's --timeout of 3 s" "lat_mem_rd (classic): stderr names the command's --timeout"
no_process_left "$tag" "lat_mem_rd (classic): no process left behind" 10

# --- without --timeout nothing changes: the internal bound is not a command bound -----------
run "$BIN/lat_syscall" -N 3 --json null
json_ok "$T/out" '.run.config.timeout_s == 300 and .results[0].status == "ok"' \
    "no --timeout: run.config.timeout_s 300 (per measurement), the record ok"

done_testing
