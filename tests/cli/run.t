#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench run: options and environment checked once, the plan, a tiny run's
# three results files, progress, a second run, -c with lmbench 3's keys, a step
# timeout, SIGINT and SIGTERM (valid .jsonl and .json, nothing left running, the
# scratch file removed), --resume, and see/import/graph reading what run wrote.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

verb_contract run
verb_usage_error run extra
verb_usage_error run --profile bogus
verb_usage_error run -P 0
verb_usage_error run --groups hardware,disk
verb_usage_error run --mb abc
verb_usage_error run --fsdir "$T/nosuchdir"
verb_usage_error run --resume --profile quick
verb_usage_error run -c "$T/nosuchconfig"
verb_usage_error run -o
verb_usage_error run --help extra
verb_usage_error run --launches 0
verb_usage_error run --launches 101
verb_usage_error run --launches abc
verb_usage_error run --disturbed -1
verb_usage_error run --disturbed 101
verb_usage_error run --disturbed x
verb_usage_error run --resume --no-retry
verb_usage_error run --resume --launches 2

# The environment is checked once, before anything is written.
mkdir -p "$T/envrun"
(cd "$T/envrun" && ENOUGH=abc "$LMBENCH" run --profile quick >"$T/out" 2>"$T/err")
rc=$?
is "$rc:$(grep -c '^lmbench run: ' "$T/err")" "2:1" "ENOUGH=abc: exit 2 and one message"
like "$(cat "$T/err")" 'ENOUGH' "ENOUGH=abc: the message names ENOUGH"
is "$(ls -A "$T/envrun")" "" "ENOUGH=abc: no results directory, no file"
(cd "$T/envrun" && LMBENCH_SCHED=SOMETIMES "$LMBENCH" run --profile quick >"$T/out" 2>"$T/err")
is "$?:$(grep -c '^lmbench run: ' "$T/err")" "2:1" "LMBENCH_SCHED=SOMETIMES: exit 2 and one message"

# --- the plan ------------------------------------------------------------------------------

mkdir -p "$T/fs"
TINY="--profile quick --mb 1 --enough 300 --fsdir $T/fs"
run "$LMBENCH" run $TINY --list
is "$RC" 0 "--list: exit status 0"
all_like "$(printf '%s\n' "$OUT" | sed '$d')" '^ *[0-9]+  (hardware|os|network) +[a-z_0-9]+' \
    "--list: one numbered step a line, with its group"
like "$OUT" '^ *[0-9]+  hardware +lat_mem_rd -N 3 1 128$' "--list: the memory latency curve of the profile"
like "$OUT" '^ *[0-9]+  os +lat_syscall -N 3 null$' "--list: lat_syscall null"
like "$OUT" 'lat_mem_rd -N 3 -t 1 16$' "--list: the random chase at stride 16"
STEPS=$(printf '%s\n' "$OUT" | sed '$d' | wc -l | tr -d ' ')
like "$(printf '%s\n' "$OUT" | tail -n 1)" "^$STEPS steps; profile quick, -N 3, ENOUGH 300, MB 1" "--list: the step count and settings"
# Steps whose command is not built are listed as skipped with the reason.
for c in lat_ctx lat_tcp lat_fs; do
    if [ -e "$BIN/$c" ]; then
        unlike "$OUT" "$c.*skipped: $c is not built" "--list: $c is built here and not skipped"
    else
        like "$OUT" "$c.*\\[skipped: $c is not built in this lmbench yet\\]" "--list: $c, not built yet, is a skipped step"
    fi
done
# A long plan (the full profile): every skipped step names its own command.
run "$LMBENCH" run --profile full --fsdir "$T/fs" --list
is "$(printf '%s\n' "$OUT" | sed '$d' | awk '{ i = index($0, "[skipped: "); if (i == 0) next; split(substr($0, i + 10), b, " "); sub(/:$/, "", b[1]); if (b[1] != $3) bad++ } END { print bad + 0 }')" 0 \
    "--list --profile full: each skipped step's reason names its own command"
run "$LMBENCH" run $TINY --groups os --list
unlike "$OUT" ' hardware | network ' "--groups os: only OS steps"
run "$LMBENCH" run $TINY --remote otherhost --list
like "$OUT" 'lat_tcp -?.* otherhost .*server on otherhost over ssh|lat_tcp otherhost' "--remote: the network steps again against the remote host"

# --- a tiny run ---------------------------------------------------------------------------

mkdir -p "$T/w"
TAG=$(new_tag)
(cd "$T/w" && env LMB_TEST_TAG="$TAG" "$LMBENCH" run $TINY >"$T/out" 2>"$T/err")
rc=$?
H=$(hostname)
R="$T/w/results/$H.0"
# The hardware benchmarks that judge their own figures (mhz, line, tlb, par_mem,
# cache) may fail on a busy machine saying it was too noisy to tell: that is an
# honest outcome, not the runner's fault. JUDGED counts such steps (the runner
# then exits 1 and says so); any other failure fails the tests below.
JUDGED_STEP='.status == "failed" and (.name | test("^(mhz|line|tlb|par_mem|cache)( |$)")) and (.reason | test("too noisy|cannot be told"))'
JUDGED=0
if json_usable && [ -s "$R.json" ]; then
    JUDGED=$(jq "[.run.steps[] | select($JUDGED_STEP)] | length" "$R.json")
    [ "$JUDGED" = 0 ] || diag "steps too noisy to tell here: $(jq -r "[.run.steps[] | select($JUDGED_STEP) | .name] | join(\", \")" "$R.json")"
elif ! json_usable; then
    # Without jansson: the runner's line for each failed step on stderr.
    JUDGED=$(grep -Ec '^lmbench run: (mhz|line|tlb|par_mem|cache)( [^:]*)?: failed: .*(too noisy|cannot be told)' "$T/err")
    [ "$JUDGED" = 0 ] || diag "steps too noisy to tell here: $JUDGED"
fi
is "$rc" "$([ "$JUDGED" = 0 ] && echo 0 || echo 1)" "a tiny run: exit status 0 (1 with only too-noisy hardware judgements)"
is "$(cat "$T/out")" "" "a tiny run: nothing on stdout"
no_process_left "$TAG" "a tiny run: no process left behind"
check "the raw file <host>.0 in ./results" test -s "$R"
if json_usable; then
    check "<host>.0.json" test -s "$R.json"
    check "<host>.0.jsonl" test -s "$R.jsonl"
else
    skip "<host>.0.json and .jsonl: built without jansson (the raw file only)"
fi
is "$(ls -A "$T/w/results" | grep -c tmp)" 0 "no temporary file in the results directory"
is "$(ls -A "$T/fs")" "" "the scratch file in FSDIR is removed"
like "$(cat "$T/err")" "^lmbench run: \\[1/$STEPS\\] " "progress: plain numbered lines when stderr is not a terminal"
like "$(cat "$T/err")" "^lmbench run: done after [0-9]+ s: [0-9]+ ok, [0-9]+ skipped, $JUDGED failed, 0 timed out" "progress: a closing count"

head -n 1 "$R" >"$T/first"
like "$(cat "$T/first")" '^\[lmbench3\.0 results for ' "raw: lmbench 3's first header line"
RAWTXT=$(cat "$R")
like "$RAWTXT" "^\\[HOSTNAME: $H\\]\$" "raw: [HOSTNAME: ...]"
like "$RAWTXT" '^\[MB: 1\]$' "raw: [MB: 1]"
like "$RAWTXT" '^\[ENOUGH: 300\]$' "raw: [ENOUGH: 300]"
like "$RAWTXT" '^Memory load latency$' "raw: the Memory load latency section"
like "$RAWTXT" '^Random load latency$' "raw: the Random load latency section"
like "$RAWTXT" '^Memory read bandwidth$' "raw: the Memory read bandwidth section"
like "$RAWTXT" '^Simple syscall: [0-9]+\.[0-9]{4} microseconds$' "raw: lat_syscall's classic lines"
like "$RAWTXT" '^"stride=128$' "raw: lat_mem_rd's own section lines"
like "$RAWTXT" '^0\.00049 [0-9]+\.[0-9]{3}$' "raw: lat_mem_rd's rows"
like "$(sed -n '/^Memory read bandwidth$/{n;p;}' "$R")" '^0\.004096 [0-9]+\.[0-9]{2}$' "raw: bw_mem's rows under their section"
# lmbench 3's report script reads Rand mem from the "stride=16 block after
# "Random load latency", and ends the context-switch blocks and the tlb line at
# a blank line (without one it reads the next section into them).
is "$(sed -n '/^Random load latency$/{n;p;}' "$R")" '"stride=16' "raw: the random chase at stride 16"
if grep -q '^"size=' "$R"; then
    is "$(awk '/^"size=/ { c = 1; next } c && /^[0-9]+ [0-9.]+$/ { next } c { print ($0 == "" ? "blank" : "text: " $0); c = 0 }' "$R" | tail -n 1)" blank \
        "raw: a blank line after the last context-switch block"
else
    skip "raw: no context-switch block (lat_ctx failed on this machine)"
fi
if grep -q '^tlb: ' "$R"; then
    is "$(sed -n '/^tlb: /{n;p;}' "$R")" "" "raw: a blank line after the tlb line"
else
    skip "raw: no tlb line (tlb could not tell on this machine)"
fi
like "$RAWTXT" '^\[CONTEXT_KERNEL: .+\]$' "raw: the context as header lines ([CONTEXT_KERNEL: ...])"
like "$(cat "$T/err")" '^lmbench run: load average [0-9.]+ at the start, [0-9.]+ at the end, on [0-9]+ CPUs$' "the end: the load at the start and at the end"
like "$(cat "$T/err")" '^lmbench run: one launch per step \(profile quick\)' "the end: quick measures one launch per step and says so"
is "$(sed -n '/^lmbench run: done after /,$p' "$T/err" | wc -l | tr -d ' ')" "$(sed -n '/^lmbench run: done after /,$p' "$T/err" | grep -c '^lmbench run: ')" "the end: a few lmbench run: lines"
ok $([ "$(sed -n '/^lmbench run: done after /,$p' "$T/err" | wc -l)" -le 10 ]; echo $?) "the end: at most 10 lines"
like "$(tail -n 1 "$R")" '^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [0-9]+ [0-9:]+ UTC [0-9]+\]$' "raw: ends with the date"
run "$LMBENCH" import "$R"
if json_usable; then
    is "$RC" 0 "raw: lmbench import reads it as an lmbench 3 raw file"
    printf '%s\n' "$OUT" >"$T/imp.json"
    json_ok "$T/imp.json" '.host.hostname != null and .run.config.MB == "1"' "raw: its header read back"
fi

if json_usable; then
    is "$(jq -s length "$R.json")" 1 "json: one document"
    json_checks "$R.json" <<EOF2
json: schema lmbench-results 1, tool lmbench
    .schema == "lmbench-results" and .schema_version == 1 and .tool.name == "lmbench"
json: a run id (a UUID), start and end times, status ok (failed with only too-noisy judgements)
    (.run.id | test("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\$")) and (.run.start | test("Z\$")) and (.run.end | test("Z\$")) and .run.status == (if $JUDGED == 0 then "ok" else "failed" end)
json: the settings: profile quick, MB 1, ENOUGH 300, N 3
    .run.config.profile == "quick" and .run.config.mb == 1 and .run.config.enough == "300" and .run.config.repetitions == 3
json: every step of the plan, numbered, with its status
    (.run.steps | length) == $STEPS and ([.run.steps[].step] == [range(1; $STEPS + 1)]) and all(.run.steps[]; .status == "ok" or .status == "skipped" or ($JUDGED_STEP))
json: host context: hostname, uname, platform, cpus, caches, memory, load, timer, warnings
    (.host.hostname | type == "string") and (.host.uname.sysname | type == "string") and (.host.platform | test("-")) and .host.cpu.online >= 1 and (.host.caches | type == "array") and .host.memory_bytes > 0 and (.host.load_avg | length == 3) and (.host.timer.clock | type == "string") and (.host.warnings | type == "array")
json: every step ran once or twice (retried when disturbed), its interference measured or null
    all(.run.steps[]; (.attempts == 1 or .attempts == 2) and (.disturbed | type == "boolean") and (.interference == null or ((.interference | keys) as \$k | ["cpus","disturbed","load_after","load_before","other_cpu_s","other_share","own_cpu_s","steal_s","steal_share","wall_s"] - \$k == [])))
json: a step measured has its interference: wall time, CPUs, shares between 0 and 1, the load at both ends
    [.run.steps[] | select(.status == "ok") | .interference] | map(select(. != null)) | length > 0 and all(.[]; .wall_s > 0 and .cpus >= 1 and .other_share >= 0 and .other_share <= 1 and .steal_share >= 0 and (.load_before | length) == 3 and (.load_after | length) == 3)
json: host.context: the 16 keys of doc/results-schema.md in order, strings or null
    (.host.context | keys_unsorted) == ["cpu_model","microcode","sockets","cores","threads","smt","governor","boost","thp","thp_defrag","kernel","cmdline","mitigations","virtualization","numa_nodes","memory_bytes"] and all(.host.context[]; . == null or type == "string") and (.host.context.kernel | type == "string")
json: run.config says the launches, the disturbed threshold and whether disturbed steps are retried
    .run.config.launches == 1 and .run.config.disturbed_pct == 10 and .run.config.retry == true
json: every record says which step wrote it
    all(.results[]; .step >= 1 and .step <= $STEPS)
json: lat_syscall null measured, with samples and statistics
    [.results[] | select(.benchmark == "lat_syscall" and .case == "null")][0] | .status == "ok" and .value > 0 and (.samples | length) == 3 and .stats.n == 3
json: the memory latency curves, stride and random
    ([.results[] | select(.benchmark == "lat_mem_rd" and .case == "stride" and .status == "ok")] | length) > 10 and ([.results[] | select(.benchmark == "lat_mem_rd" and .case == "random" and .status == "ok")] | length) > 10
json: a skipped step is a skipped record with its reason, naming its command
    all(.results[] | select(.status == "skipped"); (.reason | length) > 0) and all(.run.steps[] | select(.status == "skipped"); . as \$s | (\$s.reason | type) == "string" and (\$s.reason | contains(\$s.name | split(" ")[0])))
EOF2
    # The .jsonl: a header line, the same records, one line per step.
    check "jsonl: every line is JSON" sh -c "jq -c . '$R.jsonl' >/dev/null"
    is "$(head -n 1 "$R.jsonl" | jq -r '.schema + " " + .run.id')" "lmbench-results $(jq -r .run.id "$R.json")" \
        "jsonl: the header line, with the run id"
    is "$(jq -c 'select(.benchmark != null)' "$R.jsonl" | wc -l | tr -d ' ')" "$(jq '.results | length' "$R.json")" \
        "jsonl: the same number of records as the .json"
    is "$(jq -c 'select(.benchmark == null and .step != null)' "$R.jsonl" | wc -l | tr -d ' ')" "$STEPS" \
        "jsonl: one line per step"
    is "$(head -n 1 "$R.jsonl" | jq -c '.host.context | keys_unsorted | length')" 16 "jsonl: the header has host.context"
else
    skip "the JSON files: jq missing or built without jansson"
fi

# What run wrote, read by see and graph.
run "$LMBENCH" see "$T/w/results"
is "$RC" 0 "see on the results directory: exit 0"
# Each table printed ends its header with a rule of dashes ("--------- -----..."),
# then has one row per results file.
is "$(printf '%s\n' "$OUT" | grep -c "^$(printf '%.9s' "$H") *Linux")" \
    "$(printf '%s\n' "$OUT" | grep -c '^--------- -------------')" \
    "see: one row per table (the .json, not also the raw file and .jsonl)"
like "$OUT" '^Memory latencies in nanoseconds' "see: the memory latencies table is filled"
run "$LMBENCH" graph -o "$T/r.html" "$T/w/results"
is "$RC" 0 "graph on the results directory: exit 0"

# The raw file, read as an lmbench 3 file, gives the cells of the .json (up to the
# classic lines' rounding: four significant digits, two decimals, or a whole number).
if json_usable; then
    "$LMBENCH" see --json "$R" >"$T/see-raw.json"
    "$LMBENCH" see --json "$R.json" >"$T/see-json.json"
    jq -n --slurpfile a "$T/see-raw.json" --slurpfile b "$T/see-json.json" '
        [ range($a[0].tables | length) as $t | $a[0].tables[$t] as $ta | $b[0].tables[$t] as $tb
          | $ta.columns[].key as $k
          | {k: ($ta.key + "." + $k), x: $ta.rows[0].cells[$k], y: $tb.rows[0].cells[$k]}
          # A cell whose result failed (emulation, a busy machine) is blank
          # in one or both: only cells present in both are compared.
          | select((.y | type) == "number" and (.x | type) == "number") ] as $cells
        | {n: ($cells | length),
           bad: [$cells[] | select((.x | type) != "number" or
                  (((.x - .y) | fabs) > 0.0006 * .y + 0.00006 and ((.x - .y) | fabs) > 0.00501 and
                   .x != (.y | round))) | .k]}' \
        >"$T/cells.json"
    json_ok "$T/cells.json" '.n >= 8 and (.bad | length) == 0' \
        "the raw file read as lmbench 3's gives the .json's cells (within the classic lines' rounding)" '.'
fi

# A second run goes to <host>.1.
(cd "$T/w" && "$LMBENCH" run $TINY --groups os >/dev/null 2>&1)
check "a second run: <host>.1" test -s "$T/w/results/$H.1"

# --- disturbed steps, retried; launches -----------------------------------------------------

# --disturbed 0 counts every measured step as disturbed: each is run again once
# at the end, the less disturbed attempt kept, and the raw file and the .jsonl
# hold one attempt of each step, as the .json.
LAUNCHES_OK=$("$LMBENCH" lat_syscall --help 2>&1 | grep -c -- '--launches')
# Launches are pooled through JSON: without jansson every step runs in one.
"$BIN/lat_syscall" --json -N 1 null >/dev/null 2>&1
if [ $? -eq 3 ]; then
    HAVE_JANSSON=no
    LAUNCHES_OK=0
else
    HAVE_JANSSON=yes
fi
mkdir -p "$T/dist"
(cd "$T/dist" && "$LMBENCH" run $TINY --groups os --disturbed 0 >"$T/out" 2>"$T/err")
rc=$?
D="$T/dist/results/$H.0"
is "$rc" 0 "--disturbed 0: exit status 0"
like "$(cat "$T/err")" '^lmbench run: retry 1 of [0-9]+ \(disturbed\): ' "--disturbed 0: the retries are said"
like "$(cat "$T/err")" '^lmbench run: disturbed: [0-9]+ steps shared their CPUs with other work \(over 0%\): ' "the end: the disturbed steps named"
like "$(cat "$T/err")" '^lmbench run: retried [0-9]+ of them: [0-9]+ less disturbed the second time; [0-9]+ still disturbed' "the end: what the retries did"
for l in 'Simple syscall:' 'Simple read:' 'Signal handler installation:' 'Process fork\+exit:' 'Pipe latency:'; do
    is "$(grep -Ec "^$l" "$D")" 1 "--disturbed 0: the raw file has '$l' once"
done
is "$(grep -c '^\[lmbench3\.0 results for ' "$D")" 1 "--disturbed 0: the raw file has one header"
like "$(tail -n 1 "$D")" '^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [0-9]+ [0-9:]+ UTC [0-9]+\]$' "--disturbed 0: the raw file ends with the date"
run "$LMBENCH" import "$D"
if [ "$HAVE_JANSSON" = yes ]; then
    is "$RC" 0 "--disturbed 0: the rewritten raw file reads as an lmbench 3 file"
else
    is "$RC" 3 "--disturbed 0: import, built without jansson: skipped (exit 3)"
fi
if json_usable; then
    json_checks "$D.json" <<EOF2
--disturbed 0: every step that was ok ran twice and is disturbed; a skipped one once
    all(.run.steps[]; if .status == "ok" then .attempts == 2 and .disturbed == true else .attempts == 1 end)
--disturbed 0: the records of a step still disturbed say so
    all(.results[] | select(.status == "ok"); .disturbed == true)
--disturbed 0: each step's records once (lat_syscall null: one record)
    ([.results[] | select(.benchmark == "lat_syscall" and .case == "null")] | length) == 1
--disturbed 0: run.config has the threshold
    .run.config.disturbed_pct == 0 and .run.config.retry == true
--disturbed 0: each step's raw_start and raw_bytes within the raw file, in order
    [.run.steps[] | [.raw_start, .raw_bytes]] as \$r | all(range(1; \$r | length); \$r[.][0] >= \$r[. - 1][1] and \$r[.][1] >= \$r[.][0])
--disturbed 0: the host's warnings name the disturbed steps
    any(.host.warnings[]; test("other work shared the CPUs while it ran; run again"))
EOF2
    is "$(jq -c 'select(.benchmark != null)' "$D.jsonl" | wc -l | tr -d ' ')" "$(jq '.results | length' "$D.json")" \
        "--disturbed 0: the .jsonl has the same records as the .json"
    is "$(jq -sc '[.[] | select(.benchmark == null and .step != null) | .attempts] | unique' "$D.jsonl")" \
        "$(jq -c '[.run.steps[].attempts] | unique' "$D.json")" "--disturbed 0: the .jsonl's step lines say the attempts"
    # Each step's bytes in the raw file are its own lines.
    _s=$(jq -r '.run.steps[] | select(.name == "lat_syscall -N 3 null") | "\(.raw_start) \(.raw_bytes)"' "$D.json")
    is "$(dd if="$D" bs=1 skip="${_s% *}" count=$((${_s#* } - ${_s% *})) 2>/dev/null | grep -c '^Simple syscall: ')" 1 \
        "--disturbed 0: raw_start and raw_bytes of a step frame its line"
fi

# --no-retry: disturbed steps are marked, not run again.
mkdir -p "$T/noretry"
(cd "$T/noretry" && "$LMBENCH" run $TINY --groups os --disturbed 0 --no-retry >"$T/out" 2>"$T/err")
is "$?" 0 "--no-retry: exit status 0"
unlike "$(cat "$T/err")" '^lmbench run: retry ' "--no-retry: nothing run again"
if json_usable; then
    json_ok "$T/noretry/results/$H.0.json" 'all(.run.steps[]; .attempts == 1) and all(.run.steps[] | select(.status == "ok"); .disturbed) and .run.config.retry == false' \
        "--no-retry: every step once, the disturbed ones marked"
fi

# --launches: the steps that feed a summary cell get --launches K, the others none.
run "$LMBENCH" run --profile default --fsdir "$T/fs" --list
if [ "$LAUNCHES_OK" -gt 0 ]; then
    like "$OUT" '^ *[0-9]+  os +lat_syscall --launches 3 -N [0-9]+ null$' "default profile: lat_syscall null (a cell) in 3 launches"
    like "$OUT" '^ *[0-9]+  os +lat_syscall -N [0-9]+ fstat$' "default profile: lat_syscall fstat (no cell) in one"
    like "$OUT" '^ *[0-9]+  os +lat_proc --launches 3 -N [0-9]+ fork$' "default profile: lat_proc fork in 3 launches"
    like "$OUT" '^ *[0-9]+  hardware +lat_mem_rd --launches 3 -N [0-9]+ -c 8m [0-9]+ 128$' "default profile: the stride curve, coarse above 8m, in 3 launches"
    like "$OUT" '^ *[0-9]+  hardware +lat_mem_rd --launches 3 -N [0-9]+ -c 8m -t [0-9]+ 16$' "default profile: the random chase, coarse above 8m, in 3 launches"
    like "$OUT" '^ *[0-9]+  os +lat_fs --launches 3 -N [0-9]+ -s 0k ' "default profile: lat_fs 0k (cells) in 3 launches"
    like "$OUT" '^ *[0-9]+  os +lat_fs -N [0-9]+ -s 4k ' "default profile: lat_fs 4k (no cell) in one"
    like "$OUT" '^ *[0-9]+  os +lat_fs --launches 3 -N [0-9]+ -s 10k ' "default profile: lat_fs 10k (cells) in 3 launches"
    like "$OUT" 'launches 3 for each step that feeds a summary cell, 1 for the others' "--list: the launches said"
    run "$LMBENCH" run $TINY --launches 2 --list
    like "$OUT" '^ *[0-9]+  os +lat_syscall --launches 2 -N 3 null$' "--launches 2: passed to the steps"
    unlike "$OUT" '^ *[0-9]+  os +lat_syscall --launches 2 -N 3 fstat$' "--launches 2: not to a step that feeds no cell"
    mkdir -p "$T/launch"
    (cd "$T/launch" && "$LMBENCH" run $TINY --groups os --launches 2 >"$T/out" 2>"$T/err")
    is "$?" 0 "--launches 2: a tiny run, exit status 0"
    like "$(cat "$T/err")" '^lmbench run: 2 launches for each step that feeds a summary cell' "the end: the launches said"
    # Interleaved: launch 1 of each such step runs in a round before the steps.
    like "$(cat "$T/err")" '^lmbench run: \[1/[0-9]+\] launch 1 of 2: lat_syscall --launches 2 -N 3 null' "--launches 2: launch 1 of each step runs in a round ahead"
    is "$(ls -A "$T/launch/results" | grep -c launches)" 0 "--launches 2: the earlier launches' documents are removed"
    if json_usable; then
        json_ok "$T/launch/results/$H.0.json" '.run.config.launches == 2 and ([.results[] | select(.benchmark == "lat_syscall" and .case == "null")][0] | (.launches | length) == 2)' \
            "--launches 2: lat_syscall null's record has its two launches"
    fi
elif [ "$HAVE_JANSSON" = no ]; then
    like "$OUT" '^ *[0-9]+  os +lat_syscall -N [0-9]+ null$' "default profile, built without jansson: lat_syscall null in one launch, not skipped"
    like "$OUT" 'launches 1 for each step that feeds a summary cell' "--list, built without jansson: one launch said"
else
    skip "--launches: the commands do not take it in this build"
fi

# --- -c FILE with lmbench 3's keys --------------------------------------------------------

cat >"$T/conf" <<EOF2
# an lmbench 3 style config
PROFILE=quick
MB="1"
ENOUGH=300
FSDIR=$T/fs
BENCHMARK_HARDWARE=NO
export BENCHMARK_OS=YES
OS="x86_64-linux-gnu"
DISKS=
EOF2
run "$LMBENCH" run -c "$T/conf" --list
ok $([ "$RC" = 0 ] && ! printf '%s\n' "$OUT" | grep -q ' hardware ' &&
     printf '%s\n' "$OUT" | grep -q 'lat_syscall -N 3 null'; echo $?) \
    "-c FILE: lmbench 3's keys (BENCHMARK_HARDWARE=NO), its other keys accepted"
run "$LMBENCH" run -c "$T/conf" --groups hardware --list
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q ' hardware '; echo $?) "options win over the config file"
printf 'PROFILE=quick\nMBB=1\n' >"$T/conf2"
run "$LMBENCH" run -c "$T/conf2" --list
ok $([ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q "conf2:2: unknown key 'MBB'"; echo $?) \
    "-c FILE: an unknown key is an error naming FILE:LINE"
printf 'FSDIR="/tmp\n' >"$T/conf3"
run "$LMBENCH" run -c "$T/conf3" --list
ok $([ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q 'unbalanced quote'; echo $?) "-c FILE: an unbalanced quote is an error"

# --- a step timeout -----------------------------------------------------------------------

mkdir -p "$T/to"
(cd "$T/to" && "$LMBENCH" run --profile quick --mb 64 --enough 2000 --fsdir "$T/fs" --groups hardware \
    --timeout 0.3 >"$T/out" 2>"$T/err")
rc=$?
is "$rc" 1 "a step over --timeout: the run goes on and exits 1"
like "$(cat "$T/err")" 'lat_mem_rd.*: timeout: no result within 0\.3 s' "a timeout: said with the step"
if json_usable; then
    json_ok "$T/to/results/$H.0.json" \
        '(.run.status == "failed") and any(.run.steps[]; .status == "timeout") and any(.results[]; .status == "timeout" and (.reason | test("0.3 s"))) and any(.run.steps[]; .status == "ok")' \
        "a timeout: recorded in the step and a record; later steps still ran"
fi

# --- SIGINT, SIGTERM, --resume ------------------------------------------------------------

# steps_done_at_least JSONL N: the run has finished N steps.
# Without jansson there is no .jsonl: the progress lines on stderr tell (step N
# started: N - 1 done).
steps_done_at_least() {
    if [ -e "$1" ] || json_usable; then
        _c=$(grep -c '"step":[0-9]*,"name"' "$1" 2>/dev/null)
    else
        _c=$(($(grep -c '^lmbench run: \[[0-9]*/' "$T/bg.err" 2>/dev/null) - 1))
    fi
    [ "${_c:-0}" -ge "$2" ]
}

mkdir -p "$T/int"
TAG=$(new_tag)
cd "$T/int" || exit 1
start_bg "$TAG" "$LMBENCH" run --profile quick --mb 8 --enough 1000 --fsdir "$T/fs"
wait_for "the run got going" 200 steps_done_at_least "$T/int/results/$H.0.jsonl" 8
kill -INT "$BG"
wait_bg
cd "$T" || exit 1
is "$BG_RC" 130 "SIGINT: exit status 130"
no_process_left "$TAG" "SIGINT: no process left behind" 20
is "$(ls -A "$T/fs")" "" "SIGINT: the scratch file is removed"
I="$T/int/results/$H.0"
like "$(cat "$T/bg.err")" '^lmbench run: stopped after ' "SIGINT: says it stopped"
if json_usable; then
    like "$(tail -n 1 "$T/bg.err")" '^lmbench run: interrupted \(Interrupt\); continue it with: lmbench run --resume -o results$' \
        "SIGINT: the last line says how to resume the run"
fi
if json_usable; then
    check "SIGINT: every .jsonl line is JSON" sh -c "jq -c . '$I.jsonl' >/dev/null"
    json_ok "$I.json" '.run.status == "interrupted" and (.run.steps | length) >= 8 and (.results | length) > 0' \
        "SIGINT: a valid .json, status interrupted, the steps done so far"
    done_before=$(jq '.run.steps | length' "$I.json")
    total=$(jq '.run.config.steps' "$I.json")
    run "$LMBENCH" run --resume -o "$T/int/results"
    J=$(jq "[.run.steps[] | select($JUDGED_STEP)] | length" "$I.json")
    [ "$J" = 0 ] || diag "steps too noisy to tell here: $J"
    is "$RC" "$([ "$J" = 0 ] && echo 0 || echo 1)" "--resume: exit status 0 (1 with only too-noisy hardware judgements)"
    like "$ERR" "resuming .*$H\\.0 at step $((done_before + 1)) of $total" "--resume: continues after the last finished step"
    json_ok "$I.json" "(.run.status == (if $J == 0 then \"ok\" else \"failed\" end)) and ([.run.steps[].step] == [range(1; $total + 1)]) and ([.results[].step] | unique | length) == $total" \
        "--resume: every step once, in order, the run complete"
    check "--resume: every .jsonl line is JSON" sh -c "jq -c . '$I.jsonl' >/dev/null"
    is "$(jq -c 'select(.benchmark == null and .step != null)' "$I.jsonl" | wc -l | tr -d ' ')" "$total" \
        "--resume: the .jsonl has each step once"
    run "$LMBENCH" run --resume -o "$T/int/results"
    ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'no interrupted run'; echo $?) \
        "--resume with nothing to resume: exit 1, says so"
else
    skip "resume: jq missing or built without jansson"
fi

mkdir -p "$T/term"
TAG=$(new_tag)
cd "$T/term" || exit 1
start_bg "$TAG" "$LMBENCH" run --profile quick --mb 8 --enough 1000 --fsdir "$T/fs"
wait_for "the run got going" 200 steps_done_at_least "$T/term/results/$H.0.jsonl" 3
kill -TERM "$BG"
wait_bg
cd "$T" || exit 1
is "$BG_RC" 143 "SIGTERM: exit status 143"
if json_usable; then
    like "$(tail -n 1 "$T/bg.err")" '^lmbench run: interrupted \(Terminated\); continue it with: lmbench run --resume -o results$' \
        "SIGTERM: the last line says how to resume the run"
fi
no_process_left "$TAG" "SIGTERM: no process left behind" 20
is "$(ls -A "$T/fs")" "" "SIGTERM: the scratch file is removed"
if json_usable; then
    json_ok "$T/term/results/$H.0.json" '.run.status == "interrupted"' "SIGTERM: a valid .json, status interrupted"
fi

done_testing
