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

# A bare name is looked up in PATH once, before timing: every run is of the
# file found then. mycmd in the second directory of PATH puts a failing mycmd
# into the first on its first run; a child that searched PATH again would run
# that one and fail.
mkdir -p "$T/p1" "$T/p2"
printf '#!/bin/sh\nprintf "#!/bin/sh\\nexit 1\\n" >"%s/p1/mycmd"\nchmod +x "%s/p1/mycmd"\nexit 0\n' "$T" "$T" >"$T/p2/mycmd"
chmod +x "$T/p2/mycmd"
run env PATH="$T/p1:$T/p2:$PATH" "$CMD" -N 3 mycmd
ok $([ "$RC" = 0 ] && [ -x "$T/p1/mycmd" ]; echo $?) \
    "a bare name: the file found in PATH before timing runs every time (exit 0; the other mycmd appeared)"
one_line_like "$ERR" "^lat_cmd: $NUM microseconds\$" "a bare name found in PATH: the classic line"
# A file that is not a program (no #! line) runs under /bin/sh, as execvp runs it.
printf 'exit 0\n' >"$T/p2/noshebang"
chmod +x "$T/p2/noshebang"
run env PATH="$T/p2:$PATH" "$CMD" -N 3 noshebang
ok $([ "$RC" = 0 ]; echo $?) "a script without #!: runs under /bin/sh (exit 0)"

if json_usable; then
    run_json "$CMD" -N 3 --json -- sh -c 'exit 0'
    json_one_record "$T/json" lat_cmd null us
    json_ok "$T/json" '.results[0].params.command == "sh -c exit 0"' "--json: params.command is the command line"
    json_ok "$T/json" '.results[0].params.maps > 3' "--json: params.maps, the mappings of the process that forks"
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
