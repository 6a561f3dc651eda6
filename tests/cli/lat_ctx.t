#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_ctx: the marker and rows, the overhead record, no negative or missing
# row (a status instead), placements, --json, bad input, a ring process that
# dies, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_ctx

# Every row is "procs time" or there is a status message for it: never a
# negative number, never a row missing without a word.
rows_or_status() {
    printf '%s\n' "$1" | awk -v want="$2" '
        /^[0-9]+ [0-9]+\.[0-9][0-9]$/ { seen[$1] = 1; if ($2 + 0 <= 0) bad = 1; next }
        /^lat_ctx: \(.*procs=[0-9]+.*\): [a-z_]+: ./ { match($0, /procs=[0-9]+/); seen[substr($0, RSTART + 6, RLENGTH - 6)] = 1; next }
        END { n = split(want, w, " "); for (i = 1; i <= n; i++) if (!seen[w[i]]) bad = 1; exit bad }'
}

run "$CMD" -N 3 2 4
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "2 4: exit 0, nothing on stdout"
is "$(sed -n 1p "$T/err")" "" "2 4: the output starts with a blank line"
like "$(sed -n 2p "$T/err")" '^"size=0k ovr=[0-9]+\.[0-9]{2}$' "2 4: then '\"size=0k ovr=X.XX'"
check "2 4: a row (or a status) for 2 and for 4 processes, none negative" rows_or_status "$ERR" "2 4"

run "$CMD" -N 3 -s 16 --cpus 0 2 3 8
like "$(sed -n 2p "$T/err")" '^"size=16k ovr=[0-9]+\.[0-9]{2}$' "-s 16: '\"size=16k ovr=X.XX'"
check "-s 16 2 3 8 on one CPU: rows or statuses for 2, 3 and 8, none negative" rows_or_status "$ERR" "2 3 8"

if json_usable; then
    run_json env LMBENCH_SCHED=SINGLE "$CMD" -N 3 --json -s 4 2 8
    json_checks "$T/json" <<'EOF2'
--json: an overhead record, then one per ring
    .results | length == 3 and .[0].case == "overhead" and .[1].case == null and .[2].case == null
--json: the overhead: size_kb 4, no procs, us, ok
    .results[0] | .params.size_kb == 4 and (.params | has("procs") | not) and .unit == "us"
    and .status == "ok" and .value > 0
--json: the overhead shown and subtracted is its smallest sample (headline min), not the median
    .results[0] | .headline == "min" and .value == .stats.min
--json: the rings (LMBENCH_SCHED=SINGLE): size_kb, procs, ends same_cpu
    .results[1:] | map(.params | {size_kb, procs, ends}) ==
                   [{"size_kb": 4, "procs": 2, "ends": "same_cpu"}, {"size_kb": 4, "procs": 8, "ends": "same_cpu"}]
--json: a ring is ok with a positive value, or below_resolution with a reason; never negative
    .results[1:] | all(.[]; (.status == "ok" and .value > 0)
                         or (.status == "below_resolution" and (.reason | length) > 0 and .value == null))
EOF2
else
    skip "--json: no JSON"
fi

# The overhead (a loop on the CPU alone, whose smallest sample is subtracted):
# by default in 0.5 ms intervals, ten times -N of them, so that one can fall
# between two preemptions on a busy CPU; with ENOUGH (as everywhere in these
# tests) or --min-time, the intervals and -N the user chose.
if json_usable; then
    run_json env -u ENOUGH LMBENCH_SCHED=SINGLE "$CMD" -N 2 --json 2
    json_checks "$T/json" <<'EOF2'
default interval: the overhead takes ten times -N samples, the ring -N
    .results[0].stats.n == 20 and (.results[0].samples | length) == 20
    and (.results[1].status != "ok" or .results[1].stats.n == 2)
EOF2
    run_json env LMBENCH_SCHED=SINGLE "$CMD" -N 2 --json 2
    json_checks "$T/json" <<'EOF2'
ENOUGH given: the overhead takes -N samples of that interval
    .results[0].stats.n == 2
EOF2
    run_json env -u ENOUGH LMBENCH_SCHED=SINGLE "$CMD" -N 2 --min-time 0.001 --json 2
    json_checks "$T/json" <<'EOF2'
--min-time given: the overhead takes -N samples
    .results[0].stats.n == 2
EOF2
else
    skip "overhead samples: no JSON"
    skip "overhead samples with ENOUGH: no JSON"
    skip "overhead samples with --min-time: no JSON"
fi

run "$CMD" -N 3 --threads 2 5
check "--threads 2 5 (a ring of threads): rows or statuses, none negative" rows_or_status "$ERR" "2 5"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 3
check "-P 2 3: a row or a status" rows_or_status "$ERR" "3"
no_process_left "$tag" "-P 2: no process of any ring left behind"

usage_error lat_ctx "$CMD"
usage_error lat_ctx "$CMD" 1
usage_error lat_ctx "$CMD" 0
usage_error lat_ctx "$CMD" 130
usage_error lat_ctx "$CMD" two
usage_error lat_ctx "$CMD" -s -1 2
usage_error lat_ctx "$CMD" -s x 2
usage_error lat_ctx "$CMD" -s 2000000 2

partner_killed lat_ctx "a ring process killed" "$CMD" -N 6 --min-time 0.1 4 4 4
interrupted_running "ring of 8" "$CMD" -N 1000 --min-time 0.2 8

# The usage shows --threads (an option of lat_ctx's, the partner ends as threads).
run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: lat_ctx .*\[--threads\] \[-s <KB>\] nprocs \[nprocs\.\.\.\]$' \
    "--help: the usage shows --threads"

done_testing
