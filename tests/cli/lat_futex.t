#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_futex: both cases by default, each alone, placements of the two ends,
# --json (cases, partner kind, compat), bad input, a partner that dies or
# never answers, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"
. "$(dirname "$0")/lib-prim.sh"

CMD=$BIN/lat_futex
NUM='[0-9]+\.[0-9]{4}'

run "$CMD" -N 3
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
cases_lines "$ERR" "no operand: one line per case, thread then process" \
    "Futex latency (threads)" "Futex latency (processes)"
positive "$(label_value "$ERR")" "the latency is positive"
run "$CMD" -N 3 thread
one_line_like "$ERR" "^Futex latency \(threads\): $NUM microseconds\$" "thread: its one line"
run "$CMD" -N 3 process
one_line_like "$ERR" "^Futex latency \(processes\): $NUM microseconds\$" "process: its one line"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3
cases_lines "$ERR" "-P 2: the two lines" "Futex latency (threads)" "Futex latency (processes)"
no_process_left "$tag" "-P 2: no process (copy or partner) left behind"

placements "lat_futex thread" "$CMD" thread
placements "lat_futex process" "$CMD" process
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_checks "$T/json" <<'J'
--json: two records, lat_futex, cases thread and process, unit us, ok
    [.results[] | .benchmark] == ["lat_futex", "lat_futex"]
    and [.results[] | .case] == ["thread", "process"]
    and all(.results[]; .unit == "us" and .status == "ok" and .value > 0
                        and (.samples | length) == 3)
--json: the partner is a thread for thread, a process for process
    [.results[] | .placement.partners.kind] == ["thread", "process"]
--json: params hold ends only; compat says lmbench 3 has no such figure
    all(.results[]; (.params | keys) == ["ends"] and (.compat | startswith("new: lmbench 3 has no")))
J
else
    skip "--json: no JSON"
fi

usage_error lat_futex "$CMD" extra
usage_error lat_futex "$CMD" thread process
usage_error lat_futex "$CMD" --threads
usage_error lat_futex "$CMD" -N 0
usage_error lat_futex "$CMD" -n 3

partner_killed lat_futex "process: partner killed" "$CMD" process -N 1000 --min-time 0.2
partner_stopped lat_futex "process: partner stopped" "$CMD" process -N 1000 --min-time 0.2 --timeout 2
interrupted_running "lat_futex" "$CMD" -P 2 -N 1000 --min-time 0.2

done_testing
