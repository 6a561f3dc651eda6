#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_mem_rd: the stride blocks of the classic output, -t, -p, -H, sizes,
# --json, bad input, -P, statuses, timeout and SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/lat_mem_rd
ROW='^[0-9]+\.[0-9]{5} [0-9]+\.[0-9]{3}$'

# check_blocks FILE "STRIDE..." LEN_BYTES: prints "ok" when the classic output
# in FILE is right, else what is wrong with it. For each stride, in order: a line
# "stride=N, then rows "%.5f %.3f" (MiB, ns per load) whose sizes follow
# lmbench 3's steps from 512 bytes (or the first step >= the stride) up to
# LEN_BYTES, each latency positive, then one blank line.
check_blocks() {
    awk -v strides="$2" -v len="$3" '
        function fail(msg) { if (!bad) print "line " NR ": " msg; bad = 1 }
        # The next working-set size after s (lmbench 3: x2 to 4k, 2k steps to
        # 32k, then 8 steps per doubling).
        function next_size(s,   o) {
            if (s < 2048) return s * 2
            o = 1; while (o * 2 <= s) o *= 2
            if (s < 8192) return s + o / 2
            if (s < 32768) return s + 2048
            return s + o / 8
        }
        function start_block() {
            k++
            size = 512
            while (size < S[k]) size = next_size(size)
        }
        BEGIN { n = split(strides, S, " "); k = 0; state = "header" }
        bad { next }
        state == "header" {
            if (k >= n) { fail("more output after the last block: " $0); next }
            if ($0 != "\"stride=" S[k + 1]) { fail("expected \"stride=" S[k + 1] ", got: " $0); next }
            start_block(); rows = 0; state = "rows"; next
        }
        state == "rows" && $0 == "" {
            if (rows == 0) fail("no rows for stride " S[k])
            else if (size <= len) fail("block of stride " S[k] " ends before size " size)
            state = "header"; next
        }
        state == "rows" {
            if ($0 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9] [0-9]+\.[0-9][0-9][0-9]$/) { fail("bad row: " $0); next }
            want = sprintf("%.5f", size / 1048576)
            if ($1 != want) { fail("size " $1 ", expected " want " (" size " bytes)"); next }
            if (!($2 + 0 > 0)) { fail("latency not positive: " $0); next }
            rows++; size = next_size(size); next
        }
        END {
            if (!bad && state != "header") print "output ends inside the block of stride " S[k] " (no blank line)"
            else if (!bad && k != n) print "only " k " of " n " stride blocks"
            else if (!bad) print "ok"
        }' "$1"
}

# --- classic output ---------------------------------------------------------------------

# A plain number is megabytes: 1 = 1 MiB, rows up to 1.00000.
run "$CMD" -N 3 1 64 4096
is "$RC" 0 "1 64 4096: exit status 0"
is "$OUT" "" "1 64 4096: nothing on stdout"
is "$(check_blocks "$T/err" "64 4096" 1048576)" ok \
    "1 64 4096: two blocks: \"stride=N, rows '%.5f %.3f' of increasing sizes to 1.00000, a blank line"
like "$(grep -n . "$T/err" | sed -n 2p)" '^2:0\.00049 ' "1 64 4096: the first size is 512 bytes (0.00049)"
like "$(printf '%s\n' "$ERR" | grep -E "$ROW" | tail -n 1)" '^1\.00000 ' "1 64 4096: the last size is 1 MiB"
is "$(tail -c 2 "$T/err" | od -An -c | tr -d ' ')" '\n\n' "1 64 4096: the output ends with a blank line"

# A size with a suffix is bytes.
run "$CMD" -N 3 32k 8 128 32k
is "$RC" 0 "32k 8 128 32k: exit status 0"
is "$(check_blocks "$T/err" "8 128 32768" 32768)" ok \
    "32k 8 128 32k: three blocks in the order given, up to 0.03125"

# The default stride: one block with a stride that is a multiple of 8.
run "$CMD" -N 3 16k
is "$RC" 0 "16k (default stride): exit status 0"
s=$(sed -n '1s/^"stride=\([0-9][0-9]*\)$/\1/p' "$T/err")
check "16k: the default stride ($s) is a multiple of 8" sh -c '[ -n "$1" ] && [ $(($1 % 8)) -eq 0 ] && [ "$1" -gt 0 ]' sh "$s"
is "$(check_blocks "$T/err" "${s:-0}" 16384)" ok "16k: one block of the default stride"

# -t: the random cycle keeps the classic shape.
run "$CMD" -t -N 3 32k 64 256
is "$RC" 0 "-t 32k 64 256: exit status 0"
is "$(check_blocks "$T/err" "64 256" 32768)" ok "-t 32k 64 256: the same blocks and rows"
run "$CMD" -N 3 8k -t 64
is "$(check_blocks "$T/err" "64" 8192)" ok "-t after the size is taken too"

# -p: the page order keeps the classic shape too, also with a stride larger
# than a page (then each window holds one element).
run "$CMD" -p -N 3 32k 64 8k
is "$RC" 0 "-p 32k 64 8k: exit status 0"
is "$(check_blocks "$T/err" "64 8192" 32768)" ok "-p 32k 64 8k: the same blocks and rows"

# -H: huge pages. Where the kernel has transparent huge pages the point is
# measured; elsewhere it fails and says why.
run "$CMD" -H -S -N 3 4m 64
if [ "$RC" = 0 ]; then
    is "$(grep -E "$ROW" "$T/err" | cut -d' ' -f1)" "4.00000" "-H -S 4m 64: one row at 4 MiB"
else
    is "$RC" 1 "-H -S 4m 64: without huge pages, exit status 1"
    like "$ERR" 'huge' "-H -S 4m 64: without huge pages, the message says so"
fi

# -S: the largest size only, one row per stride, also off the steps.
run "$CMD" -S -N 3 20k 64 128
is "$RC" 0 "-S 20k 64 128: exit status 0"
is "$(grep -Ec "$ROW" "$T/err")" 2 "-S 20k 64 128: two rows"
is "$(grep -E "$ROW" "$T/err" | cut -d' ' -f1 | sort -u)" "0.01953" "-S 20k: the rows are at 20k (0.01953 MiB)"
is "$(sed -n '1p' "$T/err")" '"stride=64' "-S: the block header stays"

# -c: above its size only the powers of two and three times a power of two,
# and the sweep's last size; below it every size of the full sweep.
run "$CMD" -N 1 180k 64
FULL=$(grep -E "$ROW" "$T/err" | cut -d' ' -f1)
run "$CMD" -c 64k -N 1 180k 64
is "$RC" 0 "-c 64k 180k 64: exit status 0"
is "$(grep -E "$ROW" "$T/err" | cut -d' ' -f1 | awk '$1 > 0.0625' | tr '\n' ' ')" \
    "0.09375 0.12500 0.17188 " "-c 64k 180k: above 64k, 96k, 128k and the last size, 176k"
is "$(grep -E "$ROW" "$T/err" | cut -d' ' -f1 | awk '$1 <= 0.0625')" \
    "$(printf '%s\n' "$FULL" | awk '$1 <= 0.0625')" "-c 64k: up to 64k, the sizes of the full sweep"
run "$CMD" -c 1m -N 1 180k 64
is "$(grep -E "$ROW" "$T/err" | cut -d' ' -f1)" "$FULL" "-c above the largest size: the full sweep"
# The memory guard counts the chain's visit order (4 bytes an element: half
# the buffer with a stride of 8) with the buffer: 160 8 needs 240 MiB, in a
# 256 MiB memory cgroup refused at once, never left to the OOM killer.
. "$(dirname "$0")/lib-cgroup.sh"
if memcg_make 256m; then
    memcg_refused lat_mem_rd "160 8 in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -N 1 160 8
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
fi

usage_error lat_mem_rd "$CMD" -c 8q 1

# A length off the size steps stops at the last step below it.
run "$CMD" -N 3 5k 64
is "$(check_blocks "$T/err" "64" 5120)" ok "5k: rows up to 4096 bytes, the last step below 5k"

# A stride equal to the length: one row.
run "$CMD" -N 3 4k 4096
is "$(grep -Ec "$ROW" "$T/err")" 1 "4k 4096: one row"

# --- help ------------------------------------------------------------------------------

run "$CMD" --help
ok $([ "$RC" = 0 ] && [ -z "$ERR" ]; echo $?) "--help: exit 0, nothing on stderr"
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: lat_mem_rd .*\[-t\] \[-p\] \[-H\] \[-S\] \[-c <size>\] len_in_MB \[stride\.\.\.\]$' "--help: the usage line"
run "$CMD" --list
is "$RC:$OUT" "0:" "--list: exit 0, no variants"

# --- --json ------------------------------------------------------------------------------

if json_usable; then
    run "$CMD" -N 3 32k 64 128
    rows=$(grep -Ec "$ROW" "$T/err")
    run_json "$CMD" -N 3 --json 32k 64 128
    is "$RC" 0 "--json: exit status 0"
    is "$ERR" "" "--json: nothing on stderr (no stride lines, no rows)"
    check "--json: stdout is exactly one JSON document" \
        sh -c '[ "$(jq -s length "$1" 2>/dev/null)" = 1 ]' sh "$T/json"
    is "$(json_get "$T/json" '.results | length')" "$rows" "--json: one record per classic row ($rows)"
    json_checks "$T/json" <<'EOF'
--json: schema "lmbench-results" 1, tool.name lmbench, host.timer
    .schema == "lmbench-results" and .schema_version == 1 and .tool.name == "lmbench"
    and (.host.timer | type == "object")
--json: every record is lat_mem_rd, case stride
    .results | all(.[]; .benchmark == "lat_mem_rd" and .case == "stride")
--json: every record has numeric size_bytes and stride_bytes 64 or 128
    .results | all(.[]; (.params.size_bytes | type == "number")
    and (.params.stride_bytes == 64 or .params.stride_bytes == 128))
--json: metric latency, unit ns, better lower
    .results | all(.[]; .metric == "latency" and .unit == "ns" and .better == "lower")
--json: status ok, -N positive samples, stats.n 3
    .results | all(.[]; .status == "ok" and (.samples | length == 3 and all(.[]; type == "number" and . > 0))
    and .stats.n == 3)
--json: the value is the minimum of the samples (headline min)
    .results | all(.[]; .headline == "min" and .value == .stats.min and .value == (.samples | min))
--json: sizes from 512 bytes to 32768, increasing, in each stride
    . as $d | [64, 128] | all(.[]; . as $s
    | [$d.results[] | select(.params.stride_bytes == $s) | .params.size_bytes]
    | .[0] == 512 and .[-1] == 32768 and (. as $a | [range(1; length)] | all(.[]; $a[.] > $a[. - 1])))
--json: the stride 64 records come first
    [.results[].params.stride_bytes] | . == sort
EOF
    run_json "$CMD" -N 3 -t --json 8k 64
    json_checks "$T/json" <<'EOF'
-t --json: case random, status ok
    .results | length > 0 and all(.[]; .case == "random" and .status == "ok")
EOF
    run_json "$CMD" -N 3 -p --json 8k 64
    json_checks "$T/json" <<'EOF'
-p --json: case page, status ok, size_bytes and stride_bytes
    .results | length > 0 and all(.[]; .case == "page" and .status == "ok"
    and .params.stride_bytes == 64 and (.params.size_bytes | type == "number"))
EOF
    run_json "$CMD" -N 3 -H -S --json 2m 64
    json_checks "$T/json" <<'EOF'
-H --json: case huge, each ok or failed with a reason
    .results | length > 0 and all(.[]; .case == "huge"
    and (.status == "ok" or (.status == "failed" and (.reason | length > 0))))
EOF
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input -----------------------------------------------------------------------------

usage_error lat_mem_rd "$CMD"
usage_error lat_mem_rd "$CMD" -1
usage_error lat_mem_rd "$CMD" -- -1
usage_error lat_mem_rd "$CMD" 1.5m
usage_error lat_mem_rd "$CMD" 1.5
usage_error lat_mem_rd "$CMD" 1kk
usage_error lat_mem_rd "$CMD" ""
usage_error lat_mem_rd "$CMD" 99999999999999999999
usage_error lat_mem_rd "$CMD" 17592186044416
usage_error lat_mem_rd "$CMD" 0
usage_error lat_mem_rd "$CMD" 256x
# Strides are multiples of the pointer size (4 or 8 bytes): 6 is neither, 2 is
# below both, whatever the machine.
usage_error lat_mem_rd "$CMD" 64k 6
usage_error lat_mem_rd "$CMD" 64k 2
usage_error lat_mem_rd "$CMD" 64k 0
usage_error lat_mem_rd "$CMD" 64k 128k
usage_error lat_mem_rd "$CMD" 1 2m
usage_error lat_mem_rd "$CMD" 64k 1.5k
usage_error lat_mem_rd "$CMD" 64k ""
usage_error lat_mem_rd "$CMD" 64k 64 abc
# 65 strides: more than the command keeps.
set -- 64k
i=0
while [ $i -lt 65 ]; do set -- "$@" 64; i=$((i + 1)); done
usage_error lat_mem_rd "$CMD" "$@"
usage_error lat_mem_rd "$CMD" -P 0 64k
usage_error lat_mem_rd "$CMD" -N 0 64k
usage_error lat_mem_rd "$CMD" -N abc 64k
usage_error lat_mem_rd "$CMD" -x 64k
usage_error lat_mem_rd "$CMD" --random 64k
usage_error lat_mem_rd "$CMD" -p -H 64k
usage_error lat_mem_rd "$CMD" -t -p 64k
usage_error lat_mem_rd "$CMD" 64k -W
usage_error lat_mem_rd "$CMD" --timeout -1 64k
usage_error lat_mem_rd env ENOUGH=abc "$CMD" 64k
usage_error lat_mem_rd env LMBENCH_SCHED=nope "$CMD" 64k
usage_error lat_mem_rd "$CMD" --cpus 4095 64k
# With --json too (a build without JSON says that instead, exit 3).
if json_usable; then
    usage_error lat_mem_rd "$CMD" --json 64k 6
else
    skip "--json with bad input: built without jansson"
fi

# --- -P 2 ---------------------------------------------------------------------------------

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 16k 64
is "$RC" 0 "-P 2: exit status 0"
is "$(check_blocks "$T/err" "64" 16384)" ok "-P 2: the classic block"
no_process_left "$tag" "-P 2: no process left behind"
if json_usable; then
    tag=$(new_tag)
    run_json env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 --json 8k 64
    is "$RC" 0 "-P 2 --json: exit status 0"
    json_checks "$T/json" <<'EOF'
-P 2 --json: every record has copies 2 and placement arrays of length 2
    .results | length > 0 and all(.[]; .copies == 2 and (.placement.cpus | length) == 2
    and (.placement.ran_on | length) == 2)
-P 2 --json: run.config.parallel 2, all ok
    .run.config.parallel == 2 and (.results | all(.[]; .status == "ok"))
EOF
    no_process_left "$tag" "-P 2 --json: no process left behind"
else
    skip "-P 2 --json: jq missing or built without jansson"
fi

# --- statuses -------------------------------------------------------------------------------

# 1 ns intervals: one pass of 256 dependent loads is far under 100 times the
# clock's error. Every point comes out below_resolution: no rows, but the block
# still has its header and its blank line, and stderr says so for each point.
run "$CMD" -N 3 --min-time 0.000000001 4k 64
is "$RC" 0 "below resolution: exit status 0"
is "$(grep -Ec "$ROW" "$T/err")" 0 "below resolution: no classic row printed"
is "$(grep -c '^lat_mem_rd: .*below_resolution: .' "$T/err")" 5 \
    "below resolution: one message with a reason for each of the 5 sizes"
like "$(grep -m1 'below_resolution' "$T/err")" '(512|0\.00049)' \
    "below resolution: a message says which size it is about (512 bytes, 0.00049 MB)"
is "$(sed -n '1p;$p' "$T/err" | tr '\n' '|')" '"stride=64||' "below resolution: the header and blank line stay"
if json_usable; then
    run_json "$CMD" -N 3 --min-time 0.000000001 --json 4k 64
    json_checks "$T/json" <<'EOF'
below resolution --json: 5 records, each below_resolution with a reason and value null
    (.results | length) == 5 and (.results | all(.[]; .status == "below_resolution"
    and (.reason | type == "string" and length > 0) and .value == null))
EOF
else
    skip "below resolution --json: jq missing or built without jansson"
fi

# More memory than any machine has: a failure (exit 1) that says why.
run "$CMD" -N 3 1024t 64
is "$RC" 1 "1024t: exit status 1 (failed)"
like "$ERR" '^lat_mem_rd: .+' "1024t: says why on stderr"
is "$OUT" "" "1024t: nothing on stdout"
if json_usable; then
    # As bw_mem does: with --json the failure is a record in a JSON document.
    run_json "$CMD" -N 3 --json 1024t 64
    is "$RC" 1 "1024t --json: exit status 1"
    json_checks "$T/json" <<'EOF'
1024t --json: still a JSON document, with a failed record and its reason
    .schema == "lmbench-results" and (.results | length >= 1
    and any(.[]; .status == "failed" and (.reason | type == "string" and length > 0)))
EOF
else
    skip "1024t --json: jq missing or built without jansson"
fi

# --- timeout: the point running is stopped, the next one not started --------------------

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 1000 --min-time 0.5 --timeout 0.2 1k 64
is "$RC" 1 "--timeout: exit status 1"
is "$(grep -c 'timeout' "$T/err")" 2 "--timeout: says timeout for each of the 2 sizes"
is "$(grep -Ec "$ROW" "$T/err")" 0 "--timeout: no classic row"
no_process_left "$tag" "--timeout: no process left behind"

# --- SIGINT ----------------------------------------------------------------------------------

# A long run (2 copies, 1000 intervals of 10 ms for each size up to 256 MB):
# interrupted once it has printed its first line and its copies run.
tag=$(new_tag)
start_bg "$tag" env ENOUGH=10000 "$CMD" -P 2 -N 1000 256 64
wait_for "first line" 50 has_lines "$T/bg.err"
ok $? "SIGINT: the first line is printed"
wait_for "copies" 50 tagged_count_at_least "$tag" 3
ok $? "SIGINT: the command and its two copies are running"
kill -INT "$BG"
wait_bg
is "$BG_RC" 130 "SIGINT: the command dies of SIGINT"
no_process_left "$tag" "SIGINT: no process left behind" 10
is "$(head -n 1 "$T/bg.err")" '"stride=64' "SIGINT: what was printed is the start of a block"

# --- pages: --pages default|4k|thp|2m|1g -------------------------------------------------
# (the shared checks: hw_pages_checks in lib-hw.sh)
run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: lat_mem_rd \[-P <parallelism>\] \[-W <warmup>\] \[-N <repetitions>\] \[--pages default\|4k\|thp\|2m\|1g\] ' \
    "--help: the usage line shows --pages after -P/-W/-N"
usage_error lat_mem_rd "$CMD" -H --pages 4k -S 4m
usage_error lat_mem_rd "$CMD" --pages 2m -H -S 4m
hw_pages_checks lat_mem_rd "$CMD" 2 "-S 4m" "-S 4m"

done_testing
