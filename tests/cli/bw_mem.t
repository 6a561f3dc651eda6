#!/bin/sh
# SPDX-License-Identifier: MIT
# bw_mem: classic lines for every operation, --json, bad input, -P, statuses,
# timeout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/bw_mem
BW='[0-9]+\.[0-9]{2}'
OPS="rd wr rdwr cp frd fwr fcp bzero bcopy"

# Passes when every classic line's bandwidth (second field) is positive.
positive_bw() {
    [ -n "$1" ] && printf '%s\n' "$1" | awk 'NF != 2 || !($2 + 0 > 0) { bad = 1 } END { exit bad }'
}

# --- classic lines -------------------------------------------------------------------

# 512 bytes = 0.000512 MB (10^6 bytes): sizes under 1 MB print with %.6f.
for op in $OPS; do
    run "$CMD" -N 3 512 "$op"
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "512 $op: exit 0, nothing on stdout"
    one_line_like "$ERR" "^0\\.000512 $BW\$" "512 $op: stderr is exactly '0.000512 MB/s'"
    check "512 $op: bandwidth is positive" positive_bw "$ERR"
done

# 1m = 1048576 bytes = 1.05 MB with %.2f.
for op in rd frd fcp bcopy; do
    run "$CMD" -N 3 1m "$op"
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "1m $op: exit 0, nothing on stdout"
    one_line_like "$ERR" "^1\\.05 $BW\$" "1m $op: stderr is exactly '1.05 MB/s'"
done

for op in cp fcp bcopy; do
    run "$CMD" -N 3 4k "$op" conflict
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "4k $op conflict: exit 0, nothing on stdout"
    one_line_like "$ERR" "^0\\.004096 $BW\$" "4k $op conflict: the classic line"
done

run "$CMD" -N 3 64 rd
one_line_like "$ERR" "^0\\.000064 $BW\$" "64 bytes, the smallest size: '0.000064 ...'"
run "$CMD" -N 3 1000 wr
one_line_like "$ERR" "^0\\.001000 $BW\$" "1000 bytes (not a power of two): '0.001000 ...'"
run "$CMD" -N 3 2M bzero
one_line_like "$ERR" "^2\\.10 $BW\$" "2M (upper-case suffix): '2.10 ...'"

# 'conflict' on an operation that is not a copy: a warning, then the result.
run "$CMD" -N 3 4k rd conflict
is "$RC" 0 "4k rd conflict: exit status 0"
like "$ERR" '^bw_mem: warning: ' "4k rd conflict: a warning"
like "$ERR" "^0\\.004096 $BW\$" "4k rd conflict: the classic line still comes"

# Options after the operands, '--', attached values.
run "$CMD" 4k rd -N3 -W 100
one_line_like "$ERR" "^0\\.004096 $BW\$" "options after the operands"
run "$CMD" -N 3 -- 4k frd
one_line_like "$ERR" "^0\\.004096 $BW\$" "'--' before the operands"

# --- help and variants -------------------------------------------------------------

run "$CMD" --help
ok $([ "$RC" = 0 ] && [ -z "$ERR" ]; echo $?) "--help: exit 0, nothing on stderr"
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: bw_mem .*size rd\|wr\|rdwr\|cp\|frd\|fwr\|fcp\|bzero\|bcopy \[conflict\]' \
    "--help: the usage line names every operation and [conflict]"
run "$CMD" --list
is "$RC" 0 "--list: exit status 0"
is "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" "$OPS " "--list: every operation, in order"

# --- --json ----------------------------------------------------------------------------

if json_usable; then
    run_json "$CMD" -N 3 --json 4k cp conflict
    is "$RC" 0 "--json: exit status 0"
    is "$ERR" "" "--json: nothing on stderr (no classic line)"
    check "--json: stdout is exactly one JSON document" \
        sh -c '[ "$(jq -s length "$1" 2>/dev/null)" = 1 ]' sh "$T/json"
    json_checks "$T/json" <<'EOF'
--json: schema "lmbench-results" 1, tool.name, host.timer
    .schema == "lmbench-results" and .schema_version == 1 and .tool.name == "lmbench"
    and (.host.timer.clock | type == "string") and (.host.timer.overhead_ns | type == "number")
--json: one result, benchmark bw_mem, case cp
    (.results | length) == 1 and .results[0].benchmark == "bw_mem" and .results[0].case == "cp"
--json: params size_bytes 4096 (a number), conflict true
    .results[0].params | .size_bytes == 4096 and .conflict == true
--json: metric bandwidth, unit MB/s, better higher
    .results[0] | .metric == "bandwidth" and .unit == "MB/s" and .better == "higher"
--json: status ok, reason null
    .results[0] | .status == "ok" and .reason == null
--json: -N samples, positive numbers
    .results[0].samples | length == 3 and all(.[]; type == "number" and . > 0)
--json: value is stats.median, positive
    .results[0] | (.value | type == "number") and .value > 0 and .value == .stats.median
--json: stats with n 3 and ordered quantiles
    .results[0].stats | .n == 3 and .min <= .median and .median <= .max
    and .min == ([.min, .p25, .median, .p75, .max] | min) and (.mean | type == "number")
--json: copies 1, placement of one copy
    .results[0] | .copies == 1 and (.placement.cpus | length) == 1 and (.placement.ran_on | length) == 1
EOF

    run_json "$CMD" -N 3 --json 4k frd
    json_checks "$T/json" <<'EOF'
--json frd: params size_bytes and vector (the instruction set), no conflict
    .results[0].params | .size_bytes == 4096 and (.vector | type == "string" and length > 0)
    and has("conflict") == false
--json frd: status ok
    .results[0].status == "ok"
EOF
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input -----------------------------------------------------------------------

usage_error bw_mem "$CMD"
usage_error bw_mem "$CMD" 4k
usage_error bw_mem "$CMD" 4k nosuchop
usage_error bw_mem "$CMD" rd 4k
usage_error bw_mem "$CMD" -1 rd
usage_error bw_mem "$CMD" -- -1 rd
usage_error bw_mem "$CMD" 1.5m rd
usage_error bw_mem "$CMD" 1kk rd
usage_error bw_mem "$CMD" "" rd
usage_error bw_mem "$CMD" 99999999999999999999 rd
usage_error bw_mem "$CMD" 17179869184g rd
usage_error bw_mem "$CMD" 16777216t rd
usage_error bw_mem "$CMD" 1x rd
usage_error bw_mem "$CMD" " 1k" rd
usage_error bw_mem "$CMD" +1k rd
usage_error bw_mem "$CMD" 0x10 rd
usage_error bw_mem "$CMD" 0 rd
usage_error bw_mem "$CMD" 63 rd
usage_error bw_mem "$CMD" 4k cp foo
usage_error bw_mem "$CMD" 4k rd Conflict
usage_error bw_mem "$CMD" 4k cp conflict extra
usage_error bw_mem "$CMD" -P 0 4k rd
usage_error bw_mem "$CMD" -N 0 4k rd
usage_error bw_mem "$CMD" -N abc 4k rd
usage_error bw_mem "$CMD" -N "" 4k rd
usage_error bw_mem "$CMD" --frobnicate 4k rd
usage_error bw_mem "$CMD" -z 4k rd
usage_error bw_mem "$CMD" 4k rd -P
usage_error bw_mem "$CMD" 4k rd --min-time
usage_error bw_mem "$CMD" --timeout -1 4k rd
usage_error bw_mem "$CMD" --timeout=-1 4k rd
usage_error bw_mem env ENOUGH=abc "$CMD" 4k rd
usage_error bw_mem env ENOUGH=1k "$CMD" 4k rd
usage_error bw_mem env LMBENCH_SCHED=sometimes "$CMD" 4k rd
usage_error bw_mem "$CMD" --cpus 4095 4k rd
# With --json too (a build without JSON says that instead, exit 3).
if json_usable; then
    usage_error bw_mem "$CMD" --json 1kk rd
else
    skip "--json with bad input: built without jansson"
fi

# --- -P 2 ------------------------------------------------------------------------------

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 64k frd
is "$RC" 0 "-P 2: exit status 0"
one_line_like "$ERR" "^0\\.065536 $BW\$" "-P 2: one classic line (the copies' bandwidths add up)"
no_process_left "$tag" "-P 2: no process left behind"

if json_usable; then
    tag=$(new_tag)
    run_json env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 --json 64k bcopy
    is "$RC" 0 "-P 2 --json: exit status 0"
    json_checks "$T/json" <<'EOF'
-P 2 --json: copies 2, run.config.parallel 2
    .results[0].copies == 2 and .run.config.parallel == 2
-P 2 --json: placement.cpus and placement.ran_on of length 2
    .results[0].placement | (.cpus | length) == 2 and (.ran_on | length) == 2
-P 2 --json: status ok, -N positive samples
    .results[0] | .status == "ok" and (.samples | length == 3 and all(.[]; . > 0))
EOF
    no_process_left "$tag" "-P 2 --json: no process left behind"
else
    skip "-P 2 --json: jq missing or built without jansson"
fi

# --- statuses ----------------------------------------------------------------------------

# 1 ns intervals: one pass over 64 bytes plus a clock read is far below 100
# times the clock's error.
run "$CMD" -N 3 --min-time 0.000000001 64 rd
is "$RC" 0 "below resolution: exit status 0"
unlike "$ERR" "^0\\.000064 " "below resolution: no classic number printed"
like "$ERR" '^bw_mem: rd( \(.*\))?: below_resolution: .+' "below resolution: said on stderr with a reason"
if json_usable; then
    run_json "$CMD" -N 3 --min-time 0.000000001 --json 64 rd
    json_checks "$T/json" <<'EOF'
below resolution --json: status below_resolution, a reason, value null
    .results[0] | .status == "below_resolution" and (.reason | type == "string" and length > 0)
    and .value == null
below resolution --json: -N samples kept
    .results[0].samples | length == 3
EOF
else
    skip "below resolution --json: jq missing or built without jansson"
fi

# More memory than any machine has: failed, with a reason, exit 1.
run "$CMD" -N 3 1024t rd
is "$RC" 1 "1024t: exit status 1 (failed)"
like "$ERR" '^bw_mem: rd( \(.*\))?: failed: .+' "1024t: says failed and why"
if json_usable; then
    run_json "$CMD" -N 3 --json 1024t rd
    is "$RC" 1 "1024t --json: exit status 1"
    json_checks "$T/json" <<'EOF'
1024t --json: status failed, a reason, value null
    .results[0] | .status == "failed" and (.reason | length > 0) and .value == null
1024t --json: run.status is not ok
    .run.status != "ok"
EOF
else
    skip "1024t --json: jq missing or built without jansson"
fi

# Sizes that parse but cannot fit: failed (exit 1) whatever the reason, never a
# usage error: past the address space, past the memory there is.
for size in 9223372036854775807 16777215t 1t; do
    run "$CMD" -N 3 "$size" rd
    is "$RC" 1 "$size: exit status 1 (does not fit)"
    like "$ERR" '^bw_mem: rd( \(.*\))?: failed: .+' "$size: says failed and why"
done
# Three quarters of what is available is the most a buffer may take.
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
if [ -n "$avail_kb" ]; then
    big=$((avail_kb * 9 / 10 / 1024))m
    run "$CMD" -N 3 "$big" rd
    is "$RC" 1 "$big (90% of MemAvailable): exit status 1, before touching any of it"
    # (A 32-bit build on a machine with more memory than it can address meets
    # the address space first.)
    like "$ERR" 'is available \(MemAvailable\)|address space' "$big: names the limit"
else
    skip "no MemAvailable in /proc/meminfo"
    skip "no MemAvailable in /proc/meminfo"
fi

# --- kernel sets and pages ------------------------------------------------------------------

# Every kernel set: measured, or skipped when the CPU lacks it, or unknown to
# this build (exit 2); lengths that are not a multiple of the step included.
if json_usable; then
    for v in avx512f avx2 sse2 simd128 scalar; do
        for size in 1000 4097 64k; do
            run_json env LMBENCH_VECTOR=$v "$CMD" -N 3 --json "$size" fcp
            case $RC in
            0) json_ok "$T/json" ".results[0] | .status == \"ok\" and .params.vector == \"$v\" and .value > 0" \
                   "LMBENCH_VECTOR=$v $size fcp: measured with $v" ;;
            3) json_ok "$T/json" ".results[0] | .status == \"skipped\" and (.reason | test(\"does not run\"))" \
                   "LMBENCH_VECTOR=$v $size fcp: skipped, this CPU lacks it" ;;
            2) like "$ERR" "unknown kernel set" "LMBENCH_VECTOR=$v: not in this build (exit 2, says so)" ;;
            *) fail "LMBENCH_VECTOR=$v $size fcp: exit status $RC" ;;
            esac
        done
    done
    usage_error bw_mem env LMBENCH_VECTOR=mmx "$CMD" -N 3 4k frd
    # scalar is in every build and every CPU runs it.
    run env LMBENCH_VECTOR=scalar "$CMD" -N 3 1000 frd
    one_line_like "$ERR" "^0\\.001000 $BW\$" "LMBENCH_VECTOR=scalar 1000 frd: the classic line"
    check "LMBENCH_VECTOR=scalar: positive bandwidth" positive_bw "$ERR"

    run_json "$CMD" -N 3 --json 4m rd
    json_checks "$T/json" <<'EOF'
base pages (no --pages): params.pages "4k", page_bytes a positive number, huge_percent 0
    .results[0].params | .pages == "4k" and .page_bytes > 0 and .huge_percent == 0
EOF
    run_json "$CMD" -N 3 -H --json 4m rd
    json_checks "$T/json" <<'EOF'
-H (--pages thp): params.pages "thp", run.config.pages "thp", page_bytes and huge_percent recorded
    .results[0].params | .pages == "thp" and .page_bytes > 0 and (.huge_percent | type == "number")
-H: run.config.pages "thp"
    .run.config.pages == "thp"
-H: status ok
    .results[0].status == "ok"
-H: a warning when the buffer did not get huge pages, none when it did
    .results[0] | (.params.huge_percent < 100) == (.warnings | any(test("huge pages")))
EOF
else
    skip "kernel sets and pages: jq missing or built without jansson"
fi

# --- timeout -----------------------------------------------------------------------------

# Intervals of at least 0.5 s cannot finish within 0.3 s.
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 1000 --min-time 0.5 --timeout 0.3 64m frd
is "$RC" 1 "--timeout: exit status 1"
like "$ERR" 'timeout' "--timeout: says timeout on stderr"
unlike "$ERR" "^[0-9]+\\.[0-9]+ $BW\$" "--timeout: no classic number"
no_process_left "$tag" "--timeout: no process left behind"

if json_usable; then
    tag=$(new_tag)
    run_json env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 1000 --min-time 0.5 --timeout 0.3 --json 1m frd
    is "$RC" 1 "--timeout -P 2 --json: exit status 1"
    json_checks "$T/json" <<'EOF'
--timeout --json: status timeout, a reason, value null
    .results[0] | .status == "timeout" and (.reason | type == "string" and length > 0) and .value == null
--timeout --json: copies 2 in the record
    .results[0].copies == 2
EOF
    no_process_left "$tag" "--timeout -P 2 --json: no process left behind"
else
    skip "--timeout --json: jq missing or built without jansson"
fi

# A buffer of 8 MiB or more is measured in 20 ms intervals by default (about
# ten passes each, over several scheduler slices); a smaller one keeps the
# harness's default; ENOUGH (as everywhere in these tests) and --min-time win.
if json_usable; then
    run_json env -u ENOUGH "$CMD" -N 1 --json 8m frd
    json_checks "$T/json" <<'EOF'
8m by default: intervals of 20 ms, said in run.config
    .run.config.interval_us == 20000 and (.run.config.interval_source | test("8 MiB"))
EOF
    run_json env -u ENOUGH "$CMD" -N 1 --json 1m frd
    json_checks "$T/json" <<'EOF'
1m by default: the harness's default interval
    .run.config.interval_us != 20000 and .run.config.interval_source == "default"
EOF
    run_json "$CMD" -N 1 --json 8m frd
    json_checks "$T/json" <<'EOF'
8m with ENOUGH=1000: its 1 ms intervals
    .run.config.interval_us == 1000
EOF
    run_json env -u ENOUGH "$CMD" -N 1 --min-time 0.002 --json 8m frd
    json_checks "$T/json" <<'EOF'
8m with --min-time 0.002: its 2 ms intervals
    .run.config.interval_us == 2000
EOF
else
    skip "8m default interval: jq missing or built without jansson"
    skip "1m default interval: jq missing or built without jansson"
    skip "8m with ENOUGH: jq missing or built without jansson"
    skip "8m with --min-time: jq missing or built without jansson"
fi

# --- pages: --pages default|4k|thp|2m|1g -------------------------------------------------
# (the shared checks: hw_pages_checks in lib-hw.sh)
run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: bw_mem \[-P <parallelism>\] \[-W <warmup>\] \[-N <repetitions>\] \[--pages default\|4k\|thp\|2m\|1g\] ' \
    "--help: the usage line shows --pages after -P/-W/-N"
usage_error bw_mem "$CMD" -H --pages 4k 4m rd
usage_error bw_mem "$CMD" --pages 2m -H 4m rd
hw_pages_checks bw_mem "$CMD" 2 "4m rd" "4m rd"

done_testing
