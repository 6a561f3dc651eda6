#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_cmd: the classic line, a command with arguments, --json, commands that
# fail or do not exist, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_cmd
NUM='[0-9]+\.[0-9]{4}'

run "$CMD" -N 3 true
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "true: exit 0, nothing on stdout"
one_line_like "$ERR" "^lat_cmd: $NUM microseconds\$" "true: stderr is exactly 'lat_cmd: X.XXXX microseconds'"
positive "$(label_value "$ERR")" "true: the time is positive"

# A command with arguments (after --), its output not shown.
run "$CMD" -N 3 -- echo -n hello
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "echo -n hello: exit 0, its output goes to /dev/null"
one_line_like "$ERR" "^lat_cmd: $NUM microseconds\$" "echo -n hello: the classic line"

# A path, and standard input from /dev/null (cat ends at once).
run "$CMD" -N 3 /bin/cat
one_line_like "$ERR" "^lat_cmd: $NUM microseconds\$" "/bin/cat: runs with /dev/null as input"

if json_usable; then
    run_json "$CMD" -N 3 --json -- sh -c 'exit 0'
    json_one_record "$T/json" lat_cmd null us
    json_ok "$T/json" '.results[0].params.command == "sh -c exit 0"' "--json: params.command is the command line"
else
    skip "--json: jq missing or built without jansson"
fi

# --- failures ------------------------------------------------------------------------

failed_run lat_cmd "a command that fails: exit 1, failed" "$CMD" -N 3 false
like "$ERR" 'status 1' "a command that fails: its status is the reason"
failed_run lat_cmd "a command that is not there: exit 1, failed" "$CMD" -N 3 no-such-command-here
like "$ERR" 'no-such-command-here' "a command that is not there: named"
failed_run lat_cmd "a path that is not executable: exit 1" "$CMD" -N 3 /etc/passwd
failed_run lat_cmd "a directory: exit 1" "$CMD" -N 3 /tmp
failed_run lat_cmd "a command killed by a signal: exit 1" "$CMD" -N 3 -- sh -c 'kill -KILL $$'
like "$ERR" 'signal 9' "a command killed by a signal: the signal is the reason"

usage_error lat_cmd "$CMD"
usage_error lat_cmd "$CMD" ""
usage_error lat_cmd "$CMD" -N 0 true
usage_error lat_cmd "$CMD" ls -l

interrupted_running "sleep" "$CMD" -N 1000 --min-time 0.2 sleep 0.01

done_testing
