#!/bin/sh
# SPDX-License-Identifier: MIT
# --launches K, the common option of every benchmark command: K fresh
# processes measure one after another, the record pools their samples and keeps
# each launch's; the classic line shows the pooled headline; failures, usage
# errors, messages, signals and temporary files.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_syscall
NUM='[0-9]+\.[0-9]{4}'

# --- a build without jansson: only --launches 1 --------------------------------------------

run "$CMD" --json -N 1 null
if [ "$RC" = 3 ]; then
    run "$CMD" --launches 2 -N 3 null
    is "$RC" 3 "built without jansson: --launches 2 exits 3"
    like "$ERR" '^lat_syscall: --launches: this lmbench was built without jansson' "and says why"
    run "$CMD" --launches 1 -N 3 null
    one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" "built without jansson: --launches 1 works"
    done_testing
    exit
fi

# --- the classic line: one, as without --launches ------------------------------------

run "$CMD" --launches 3 -N 3 null
is "$RC" 0 "--launches 3: exit status 0"
is "$OUT" "" "--launches 3: nothing on stdout"
one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" \
    "--launches 3: stderr is exactly the classic line (no launch's messages, no progress)"
run "$CMD" -N 3 --launches=2 -- null
one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" "--launches=2 and '--': the classic line"
run "$CMD" --launches 1 -N 3 null
one_line_like "$ERR" "^Simple syscall: $NUM microseconds\$" "--launches 1: the classic line"

# --- bad values and commands that refuse it ---------------------------------------------

usage_error lat_syscall "$CMD" --launches 0 null
usage_error lat_syscall "$CMD" --launches 101 null
usage_error lat_syscall "$CMD" --launches x null
usage_error lat_syscall "$CMD" null --launches
usage_error lmhttp "$BIN/lmhttp" --launches 2
like "$ERR" '^lmhttp: option --launches does not apply to lmhttp' "lmhttp (a server) refuses --launches"
# A command line the benchmark itself refuses: said once, as without --launches.
usage_error lat_syscall "$CMD" --launches 3 -N 3 nosuchcall
like "$ERR" "^lat_syscall: unknown system call 'nosuchcall'" \
    "a variant refused in the first launch: the command's own message"
usage_error lat_tcp "$BIN/lat_tcp" --launches 2 -s
like "$ERR" '^lat_tcp: --launches applies to measurements, not to -s' "lat_tcp -s refuses --launches"
check "--launches appears in --help" sh -c '"$1" --help | grep -Eq "^  --launches K +measure in K fresh processes"' sh "$CMD"

# --- messages: each once ---------------------------------------------------------------

echo data >"$T/file"
run "$CMD" --launches 3 -N 3 null "$T/file"
is "$RC" 0 "a warning every launch gives: exit status 0"
is "$(printf '%s\n' "$ERR" | grep -c 'warning: null does not use a file')" 1 \
    "a warning every launch gives is shown once"
like "$ERR" "^Simple syscall: $NUM microseconds\$" "the warning, then the classic line"

# --- the JSON record ---------------------------------------------------------------------

if json_usable; then
    run_json "$CMD" --launches 3 -N 3 --json null
    is "$RC" 0 "--launches 3 --json: exit status 0"
    is "$ERR" "" "--launches 3 --json: nothing on stderr"
    json_checks "$T/json" <<'EOF'
run.config.launches is 3
    .run.config.launches == 3
one record, ok, with 3 launches of 3 samples each, all ok
    .results | length == 1 and (.[0] | .status == "ok" and (.launches | length) == 3
    and ([.launches[] | .status == "ok" and (.samples | length) == 3] | all))
the launches are numbered 1 to 3, each with its statistics
    [.results[0].launches[] | .launch] == [1, 2, 3]
    and ([.results[0].launches[] | .stats.n == 3 and .stats.median > 0] | all)
the record's samples are the launches' samples in order: 9 pooled
    .results[0] | (.samples | length) == 9 and .samples == [.launches[].samples[]]
its statistics and value are of the pool
    .results[0] | .stats.n == 9 and .value == .stats.median and .value > 0
between_launches: n 3, three medians (the launches'), a CV
    .results[0] | .between_launches.n == 3
    and .between_launches.medians == [.launches[].stats.median]
    and (.between_launches.cv | type == "number" and . >= 0)
EOF
    # The reader takes it: compare of the file with itself.
    cp "$T/json" "$T/l3.json"
    run "$LMBENCH" compare "$T/l3.json" "$T/l3.json"
    is "$RC" 0 "compare A A of a --launches document: exit status 0"
    like "$OUT" '^1 compared' "compare A A of a --launches document: the record is compared"
    run "$LMBENCH" import "$T/l3.json"
    is "$RC" 0 "import of a --launches document: exit status 0"

    # One launch: neither key.
    run_json "$CMD" -N 3 --json null
    json_ok "$T/json" '.results[0] | has("launches") == false and has("between_launches") == false
        and (.samples | length) == 3' "one launch: no launches, no between_launches"

    # A process started as an earlier launch never launches again.
    run_json env LMBENCH_LAUNCH=1 "$CMD" --launches 3 -N 3 --json null
    json_ok "$T/json" '.results[0] | has("launches") == false and (.samples | length) == 3' \
        "LMBENCH_LAUNCH set: one launch, whatever --launches says"

    # Two records to one classic line (lat_fs): both pooled, one row.
    mkdir "$T/fs"
    run "$BIN/lat_fs" --launches 2 -N 3 -s 0 -n 20 "$T/fs"
    is "$RC" 0 "lat_fs --launches 2: exit status 0"
    # (Its warnings about short intervals name numbers of each launch: they may come
    # once per launch, prefixed.)
    is "$(printf '%s\n' "$ERR" | grep -Ev ': warning: ' | grep -Ec '^0k	[0-9]+	[0-9]+	[0-9]+$')" 1 \
        "lat_fs --launches 2: one row"
    is "$(printf '%s\n' "$ERR" | grep -Ev ': warning: ' | grep -Evc '^0k	')" 0 \
        "lat_fs --launches 2: nothing else but warnings"
    run_json "$BIN/lat_fs" --launches 2 -N 3 -s 0 -n 20 --json "$T/fs"
    json_ok "$T/json" '[.results[] | (.launches | length) == 2 and (.samples | length) == 6] | length == 2 and all' \
        "lat_fs --launches 2: both records of 2 launches, 6 samples each"
else
    skip "--launches --json: jq missing or built without jansson"
fi

# --- failures ----------------------------------------------------------------------------

# A failure in every launch: the record fails (exit 1), each launch says why.
if command -v python3 >/dev/null 2>&1 &&
   python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock" 2>/dev/null &&
   [ -S "$T/sock" ]; then
    run "$CMD" --launches 3 -N 3 open "$T/sock"
    is "$RC" 1 "open of a socket file in every launch: exit status 1"
    is "$(printf '%s\n' "$ERR" | grep -c ': failed: ')" 1 "the failure is said once"
    like "$ERR" '^lat_syscall: open .*: warning: launches 1-2 of 3 failed: ' \
        "the earlier launches' failures in one warning"
    unlike "$ERR" '^Simple ' "no classic number"
    if json_usable; then
        run_json "$CMD" --launches 3 -N 3 --json open "$T/sock"
        json_checks "$T/json" <<'EOF'
failed in every launch: the record failed, each launch failed with a reason, no samples
    .run.status == "failed" and (.results[0] | .status == "failed" and .value == null
    and (.launches | length) == 3
    and ([.launches[] | .status == "failed" and (.reason | length > 0)] | all)
    and .between_launches.n == 0 and .between_launches.cv == null)
EOF
    fi
else
    skip "failures on a socket file: no python3 to make one"
fi

# A launch that dies: said with its number, the others measure, exit 1.
tag=$(new_tag)
start_bg "$tag" "$CMD" --launches 3 -N 500 null
if wait_for "the first launch" 100 sh -c '[ -n "$(pgrep -P "$1")" ]' sh "$BG"; then
    for c in $(children_of "$BG"); do kill -KILL "$c" 2>/dev/null; done
    wait_bg
    is "$BG_RC" 1 "a launch killed: exit status 1"
    like "$(cat "$T/bg.err")" '^lat_syscall: launch 1 of 3: killed by signal 9' "a launch killed: said"
    like "$(cat "$T/bg.err")" 'warning: launch 1 of 3 failed: killed by signal 9' \
        "a launch killed: a warning on the record"
    like "$(cat "$T/bg.err")" "^Simple syscall: $NUM microseconds\$" "a launch killed: the others' result"
    no_process_left "$tag" "a launch killed: no process left behind" 20
else
    kill -KILL "$BG" 2>/dev/null
    wait_bg
    fail "a launch killed: no launch appeared"
fi

# --timeout applies within each launch as in one process.
if json_usable; then
    run_json "$BIN/bw_mem" --launches 2 -N 1000 --min-time 0.5 --timeout 0.2 --json 1m rd
    is "$RC" 1 "--timeout in each launch: exit status 1"
    json_ok "$T/json" '.results[0] | .status == "timeout" and ([.launches[].status] == ["timeout", "timeout"])' \
        "--timeout in each launch: both launches timed out"
fi

# --- signals and temporary files ----------------------------------------------------------

interrupted lat_syscall "$T/watch" "SIGINT during a launch" "$CMD" --launches 3 -N 500 null

done_testing
