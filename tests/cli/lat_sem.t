#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_sem: the classic line, placements of the two ends, --json, System V
# semaphores by default (a set while it runs, none left after, also after
# SIGINT), the posix variant, bad input, a partner that dies, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_sem
NUM='[0-9]+\.[0-9]{4}'
LABEL='Semaphore latency'

# The ids of the System V semaphore sets that exist now, one a line, sorted.
semsets() {
    awk 'NR > 1 { print $2 }' /proc/sysvipc/sem 2>/dev/null | sort
}
# semsets_new BEFORE: whether a set exists that was not in BEFORE.
semsets_new() {
    [ -n "$(semsets | comm -13 "$1" -)" ]
}

mkdir "$T/tmp"
run env TMPDIR="$T/tmp" "$CMD" -N 3
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "stderr is exactly '$LABEL: X.XXXX microseconds'"
positive "$(label_value "$ERR")" "the latency is positive"
is "$(ls -A "$T/tmp")" "" "nothing left in TMPDIR"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" TMPDIR="$T/tmp" "$CMD" -P 2 -N 3
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "-P 2: one classic line"
no_process_left "$tag" "-P 2: no process (copy or partner) left behind"
is "$(ls -A "$T/tmp")" "" "-P 2: nothing left in TMPDIR"

placements lat_sem "$CMD"
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -N 3 --threads
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "--threads (the partner a thread): the classic line"
no_process_left "$tag" "--threads: nothing left running"
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_one_record "$T/json" lat_sem null us
    json_ok "$T/json" '.results[0].params == {"ends": "unpinned"}' "--json: the params"
else
    skip "--json: no JSON"
fi

# The default is lmbench 3's line: System V semaphores, the set removed at the
# end, and after SIGINT too; the posix variant has its own label and case.
if [ -r /proc/sysvipc/sem ]; then
    semsets >"$T/sem.before"
    tag=$(new_tag)
    start_bg "$tag" "$CMD" -N 1000 --min-time 0.2
    if wait_for "a semaphore set" 100 semsets_new "$T/sem.before"; then
        pass "default: a System V semaphore set exists while it runs"
        sleep 0.2
    else
        fail "default: a System V semaphore set exists while it runs"
    fi
    kill -INT "$BG" 2>/dev/null
    wait_bg
    is "$BG_RC" 130 "default, SIGINT: exit 130"
    no_process_left "$tag" "default, SIGINT: no process left behind" 20
    is "$(semsets | comm -13 "$T/sem.before" -)" "" "default, SIGINT: no semaphore set left"
    run "$CMD" -N 3 -P 2
    is "$(semsets | comm -13 "$T/sem.before" -)" "" "-P 2: no semaphore set left after a run"
    run "$CMD" -N 3 posix
    is "$(semsets | comm -13 "$T/sem.before" -)" "" "posix: no semaphore set made"
else
    skip "System V semaphores: no /proc/sysvipc/sem here"
fi
run "$CMD" -N 3 posix
one_line_like "$ERR" "^POSIX semaphore latency: $NUM microseconds\$" "posix: its own label"
run "$CMD" -N 3 sysv
one_line_like "$ERR" "^$LABEL: $NUM microseconds\$" "sysv (named): lmbench 3's label"
if json_usable; then
    run_json "$CMD" -N 3 --json
    json_ok "$T/json" '.results[0] | .case == null and .compat == "same"' \
        "--json: the default is lmbench 3's line (case null, compat same)"
    run_json "$CMD" -N 3 --json sysv
    json_ok "$T/json" '.results[0] | .case == null and .compat == "same"' \
        "--json sysv: the same record as the default"
    run_json "$CMD" -N 3 --json posix
    json_ok "$T/json" '.results[0] | .case == "posix" and (.compat | startswith("new: POSIX"))
                       and .status == "ok"' "--json posix: case posix, compat new"
else
    skip "--json: no JSON"
fi

usage_error lat_sem "$CMD" extra
usage_error lat_sem "$CMD" sysv extra
usage_error lat_sem "$CMD" -N 0
usage_error lat_sem "$CMD" -m 1
partner_killed lat_sem "partner killed" "$CMD" -N 1000 --min-time 0.2
interrupted_running "lat_sem" "$CMD" -P 2 -N 1000 --min-time 0.2
if [ -r /proc/sysvipc/sem ]; then
    is "$(semsets | comm -13 "$T/sem.before" -)" "" \
        "no semaphore set left by any run above (a killed partner, SIGINT to -P 2)"
fi

done_testing
