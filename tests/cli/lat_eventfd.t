#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_eventfd: both cases by default, each alone, placements of the two ends,
# --json (cases, partner kind, compat), bad input, a partner that dies or
# never answers, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"
. "$(dirname "$0")/lib-prim.sh"

CMD=$BIN/lat_eventfd
NUM='[0-9]+\.[0-9]{4}'

run "$CMD" -N 3
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
cases_lines "$ERR" "no operand: one line per case, thread then process" \
    "Eventfd latency (threads)" "Eventfd latency (processes)"
positive "$(label_value "$ERR")" "the latency is positive"
run "$CMD" -N 3 thread
one_line_like "$ERR" "^Eventfd latency \(threads\): $NUM microseconds\$" "thread: its one line"
run "$CMD" -N 3 process
one_line_like "$ERR" "^Eventfd latency \(processes\): $NUM microseconds\$" "process: its one line"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3
cases_lines "$ERR" "-P 2: the two lines" "Eventfd latency (threads)" "Eventfd latency (processes)"
no_process_left "$tag" "-P 2: no process (copy or partner) left behind"

placements "lat_eventfd thread" "$CMD" thread
placements "lat_eventfd process" "$CMD" process
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_checks "$T/json" <<'J'
--json: two records, lat_eventfd, cases thread and process, unit us, ok
    [.results[] | .benchmark] == ["lat_eventfd", "lat_eventfd"]
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

usage_error lat_eventfd "$CMD" extra
usage_error lat_eventfd "$CMD" thread process
usage_error lat_eventfd "$CMD" --threads
usage_error lat_eventfd "$CMD" -N 0
usage_error lat_eventfd "$CMD" -n 3

# Thread partners close the eventfds they share with their copy as they
# leave, after the copy's last write: several copies at once end cleanly.
run "$CMD" -N 3 -P 3 thread
one_line_like "$ERR" "^Eventfd latency \(threads\): $NUM microseconds\$" "thread -P 3: ok, one line"

partner_killed lat_eventfd "process: partner killed" "$CMD" process -N 1000 --min-time 0.2
partner_stopped lat_eventfd "process: partner stopped" "$CMD" process -N 1000 --min-time 0.2 --timeout 2
interrupted_running "lat_eventfd" "$CMD" -P 2 -N 1000 --min-time 0.2

done_testing
