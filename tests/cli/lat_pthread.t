#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_pthread: the three cases by default, each alone, placements of the two
# threads of mutex and cond, --json (cases, the partner a thread, no partner
# for create, compat), bad input, signals; no thread or process left.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"
. "$(dirname "$0")/lib-prim.sh"

CMD=$BIN/lat_pthread
NUM='[0-9]+\.[0-9]{4}'

run "$CMD" -N 3
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
cases_lines "$ERR" "no operand: one line per case, create, mutex, cond" \
    "pthread_create+join" "Mutex hand-off latency" "Condition variable hand-off latency"
positive "$(label_value "$ERR")" "the latency is positive"
run "$CMD" -N 3 create
one_line_like "$ERR" "^pthread_create\+join: $NUM microseconds\$" "create: its one line"
run "$CMD" -N 3 mutex
one_line_like "$ERR" "^Mutex hand-off latency: $NUM microseconds\$" "mutex: its one line"
run "$CMD" -N 3 cond
one_line_like "$ERR" "^Condition variable hand-off latency: $NUM microseconds\$" "cond: its one line"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3
cases_lines "$ERR" "-P 2: the three lines" \
    "pthread_create+join" "Mutex hand-off latency" "Condition variable hand-off latency"
no_process_left "$tag" "-P 2: no process left behind"

placements "lat_pthread mutex" "$CMD" mutex
placements "lat_pthread cond" "$CMD" cond
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_checks "$T/json" <<'J'
--json: three records, lat_pthread, cases create, mutex, cond, unit us, ok
    [.results[] | .benchmark] == ["lat_pthread", "lat_pthread", "lat_pthread"]
    and [.results[] | .case] == ["create", "mutex", "cond"]
    and all(.results[]; .unit == "us" and .status == "ok" and .value > 0
                        and (.samples | length) == 3)
--json: create has no partner and no ends; mutex and cond a partner thread and ends
    (.results[0] | (.params | has("ends") | not) and (.placement.partners == null))
    and all(.results[1:][]; .placement.partners.kind == "thread" and (.params | keys) == ["ends"])
--json: compat says lmbench 3 has no such figure
    all(.results[]; .compat | startswith("new: lmbench 3 has no"))
J
else
    skip "--json: no JSON"
fi

usage_error lat_pthread "$CMD" extra
usage_error lat_pthread "$CMD" mutex cond
usage_error lat_pthread "$CMD" --threads
usage_error lat_pthread "$CMD" -N 0

interrupted_running "lat_pthread mutex" "$CMD" mutex -P 2 -N 1000 --min-time 0.2
interrupted_running "lat_pthread cond" "$CMD" cond -P 2 -N 1000 --min-time 0.2

# A copy whose partner thread never answers is stopped by --timeout, whole:
# the copy and the partner are stopped together here (SIGSTOP to the copy).
tag=$(new_tag)
start_bg "$tag" "$CMD" mutex -N 1000 --min-time 0.2 --timeout 2
if wait_for "the copy" 100 tagged_count_at_least "$tag" 2; then
    sleep 0.2
    for _c in $(children_of "$BG"); do kill -STOP "$_c" 2>/dev/null; done
    wait_bg
    is "$BG_RC" 1 "mutex, copy stopped: --timeout ends the command (exit 1)"
    like "$(cat "$T/bg.err")" "^lat_pthread: .*timeout: " "mutex, copy stopped: the record says timeout"
    no_process_left "$tag" "mutex, copy stopped: no process left behind" 20
else
    kill -KILL "$BG" 2>/dev/null
    wait_bg
    fail "mutex: the copy did not start"
    skip "reason"
    skip "no process left"
fi

done_testing
