#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench scale: the table of a latency and a bandwidth curve, the default -P
# counts, --copies, --json and -o (a document that see reads), bad input, a
# command without -P refused, a point's --timeout, write errors, SIGINT, and
# the build without jansson.
. "$(dirname "$0")/lib.sh"

S="$LMBENCH scale"
NCPU=$(nproc 2>/dev/null || echo 1)

# --- help ----------------------------------------------------------------------

run $S --help
is "$RC" 0 "--help exits 0"
like "$OUT" '^Usage: lmbench scale ' "--help starts with the usage"
like "$OUT" 'stops scaling' "--help states the stopping rule"
run $S --help
wide=$(printf '%s\n' "$OUT" | sed 1d | awk 'length > 80' | head -n 1)
is "$wide" "" "--help keeps within 80 columns after the usage line"
run "$LMBENCH" help scale
is "$RC" 0 "lmbench help scale exits 0"
like "$OUT" '^lmbench scale: ' "lmbench help scale gives its summary"
$S --help >/dev/full 2>/dev/null
is "$?" 1 "--help >/dev/full exits 1 (a write error is an error)"

# --- bad input ---------------------------------------------------------------------

for args in "" "--no-such-option" "-N 0" "-N -1" "-N abc" "-W -1" "-P 0" "-P abc" "-P 2" \
    "--copies 0 lat_syscall null" "--copies 1,,2 lat_syscall null" "--copies abc lat_syscall null" \
    "--copies 1, lat_syscall null" "--copies lat_syscall" "--copies 1025 lat_syscall null" \
    "--timeout -1 lat_syscall null" "--min-efficiency 2 lat_syscall null" \
    "--min-efficiency x lat_syscall null" "--cpus nope lat_syscall null" "-o" \
    "nosuch_bench" "lat_syscall -P 2 null" "lat_syscall --json null"; do
    # shellcheck disable=SC2086
    usage_error "lmbench scale" $S $args
done
run $S lat_tpc
like "$ERR" "no benchmark command" "an unknown command is named as such"

# A command that takes no -P is refused, and the message names those that do.
usage_error "lmbench scale" $S mhz
like "$ERR" 'mhz takes no -P' "mhz: refused for taking no -P"
like "$ERR" 'take -P: .*lat_syscall' "the refusal names the commands that take -P"
unlike "$ERR" 'take -P: .*[ ]mhz( |$)' "the list leaves mhz out"

# Everything that runs points needs jansson (scale reads their documents).
if json_usable; then
    # The benchmark's own refusal of its arguments: passed on, exit 2.
    run $S -N 3 --copies 1 lat_syscall nosuch_variant
    is "$RC" 2 "a bad argument of the benchmark exits 2"
    like "$ERR" 'lat_syscall: ' "the benchmark's own message is passed on"
    is "$OUT" "" "nothing on stdout after a refused argument"

    # --- a latency curve -------------------------------------------------------------------

    tag=$(new_tag)
    run env LMB_TEST_TAG="$tag" $S -N 3 --copies 1,2 lat_syscall null
    is "$RC" 0 "lat_syscall null at -P 1,2: exit 0"
    like "$OUT" '^lat_syscall null$' "the table names the measurement"
    like "$OUT" '^copies +latency/op +throughput +interval +efficiency$' "the table's header"
    like "$OUT" '^ +1 +[0-9.e+-]+ us +[0-9.]+[kMG]? op/s +[0-9.]+[kMG]?-[0-9.]+[kMG]? op/s +1\.00' \
        "-P 1: latency, throughput, interval, efficiency 1.00"
    like "$OUT" '^ +2 +[0-9.e+-]+ us +[0-9.]+[kMG]? op/s ' "-P 2: its row"
    like "$OUT" '^(stops scaling at -P 2: |does not stop scaling: )' "the verdict line"
    like "$ERR" 'lat_syscall at -P 2 \(point 2 of 2' "progress on stderr"
    no_process_left "$tag" "nothing left running after the curve"

    # The default counts: 1, 2, 4 ... up to the CPUs, and their count.
    exp=$(awk -v n="$NCPU" 'BEGIN { for (c = 1; c <= n; c *= 2) { printf "%s%d", s, c; s = " "; last = c }
                                   if (last != n) printf " %d", n; print "" }')
    run $S -N 3 lat_syscall null
    got=$(printf '%s\n' "$OUT" | awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " } END { print "" }')
    is "$got" "$exp" "default copies for $NCPU CPUs: $exp"
    run $S -N 3 --cpus 0 lat_syscall null
    got=$(printf '%s\n' "$OUT" | awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " } END { print "" }')
    is "$got" "1" "--cpus 0: one usable CPU, one point"

    # --copies: sorted, duplicates dropped; more copies than CPUs said.
    run $S -N 3 --copies "$((NCPU + 1)),1,1" lat_syscall null
    got=$(printf '%s\n' "$OUT" | awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " } END { print "" }')
    is "$got" "1 $((NCPU + 1))" "--copies $((NCPU + 1)),1,1 runs -P 1 and $((NCPU + 1))"
    like "$ERR" "more than the $NCPU usable CPUs" "more copies than CPUs: said on stderr"
else
    skip "the curves: jq missing or built without jansson"
fi

# --- a bandwidth curve, --json and -o --------------------------------------------------------

if json_usable; then
    run $S -N 3 --copies 1,2 -o "$T/scale.json" bw_mem 16k rd
    is "$RC" 0 "bw_mem 16k rd -o FILE: exit 0"
    like "$OUT" '^copies +per copy +throughput +interval +efficiency$' "bandwidth table header"
    like "$OUT" '^ +2 +[0-9.e+]+ MB/s +[0-9]+ MB/s +[0-9]+-[0-9]+ MB/s +[0-9.]+' "-P 2: MB/s per copy and summed"
    json_checks "$T/scale.json" <<'EOF'
-o: an lmbench-results document
    .schema == "lmbench-results" and .schema_version == 1
-o: run.scale names the command, its arguments and the counts
    .run.scale.command == "bw_mem" and .run.scale.argv == ["16k", "rd"] and .run.scale.copies == [1, 2]
-o: the records of each point, with their copies
    [.results[] | .copies] == [1, 2] and all(.results[]; .benchmark == "bw_mem" and .case == "rd")
-o: stops_at is null or one of the counts
    .run.scale.stops_at == null or ([.run.scale.stops_at] | inside([1, 2]))
-o: one series, its points with throughput, per copy and efficiency
    (.run.scale.series | length) == 1 and
    all(.run.scale.series[0].points[]; .status == "ok" and .throughput > 0 and .per_copy > 0
        and .throughput_lo <= .throughput and .throughput <= .throughput_hi)
    and .run.scale.series[0].points[0].efficiency == 1
-o: per copy is the summed bandwidth over the copies
    .run.scale.series[0].points[1] as $p | ($p.per_copy * 2 - $p.throughput | fabs) < 1e-6 * $p.throughput
-o: the summed bandwidth is the record's value
    .run.scale.series[0].points[1].throughput == .results[1].value
-o: run.status ok, run.argv the scale command line, config.parallel null
    .run.status == "ok" and .run.argv[0:2] == ["lmbench", "scale"] and .run.config.parallel == null
EOF
    run "$LMBENCH" see "$T/scale.json"
    is "$RC" 0 "lmbench see reads the document"

    run_json $S -N 3 --copies 1,2 --json lat_syscall null
    is "$RC" 0 "--json: exit 0"
    like "$ERR" '^lat_syscall null$' "--json: the table goes to stderr"
    json_checks "$T/json" <<'EOF'
--json: the document on stdout, latency series in op/s
    .run.scale.command == "lat_syscall" and .run.scale.series[0].throughput_unit == "op/s"
    and .run.scale.series[0].unit == "us"
--json: throughput is copies / latency
    .results[1] as $r | .run.scale.series[0].points[1].throughput as $t |
    (($t - 2 / ($r.value * 1e-6)) | fabs) < 1e-6 * $t
--json: placement one copy per CPU unless LMBENCH_SCHED says
    .run.scale.sched == "BALANCED" and .results[1].placement.policy == "BALANCED"
EOF
    run_json env LMBENCH_SCHED=SINGLE $S -N 3 --copies 1,2 --json lat_syscall null
    json_ok "$T/json" '.results[1].placement.policy == "SINGLE" and .run.scale.sched == "SINGLE"' \
        "LMBENCH_SCHED is passed on"
    $S -N 3 --copies 1 --json lat_syscall null >/dev/full 2>/dev/null
    is "$?" 1 "--json >/dev/full exits 1"
    run $S -N 3 --copies 1 -o "$T/nodir/x.json" lat_syscall null
    is "$RC" 1 "-o into a missing directory exits 1"
    like "$ERR" "cannot write" "... and says it cannot write"
else
    skip "--json and -o: jq missing or built without jansson"
fi
$S -N 3 --copies 1 lat_syscall null >/dev/full 2>/dev/null
rc=$?
if json_usable; then
    is "$rc" 1 "the table >/dev/full exits 1"
else
    is "$rc" 3 "built without jansson: skipped even into /dev/full"
fi

# --- a point's timeout, SIGINT ---------------------------------------------------------------------

if json_usable; then
    run $S --timeout 0.3 -N 1000 --copies 1 lat_syscall null
    is "$RC" 1 "a point past its --timeout: exit 1"
    like "$OUT" '^ +1 +timeout' "the table says the point timed out"

    # SIGINT during the second point: the first one's table and document stay.
    tag=$(new_tag)
    start_bg "$tag" $S -N 200 --copies 1,2 -o "$T/int.json" lat_syscall null
    wait_for "the second point" 100 grep -q 'point 2 of 2' "$T/bg.err"
    ok $? "SIGINT: scale reached its second point"
    wait_for "scale and its point" 100 tagged_count_at_least "$tag" 2
    ok $? "SIGINT: scale and a point are running"
    kill -INT "$BG"
    wait_bg
    is "$BG_RC" 130 "SIGINT ends scale (exit 130)"
    no_process_left "$tag" "SIGINT: no process left behind" 10
    like "$(cat "$T/bg.out")" '^interrupted after 1 of 2 points$' "SIGINT: the table of the point done"
    json_ok "$T/int.json" '.run.status == "interrupted" and .run.scale.copies == [1]
        and [.results[].copies] == [1]' "SIGINT: the document of the point done, run.status interrupted"
    is "$(ls -A "$T" | grep -c '\.tmp$')" 0 "SIGINT: no temporary file left"
else
    run $S -N 3 lat_syscall null
    is "$RC" 3 "built without jansson: exit 3"
    like "$ERR" 'built without jansson' "built without jansson: said"
fi

done_testing
