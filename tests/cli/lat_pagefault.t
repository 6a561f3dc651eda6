#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_pagefault: the classic line, -C, --json (the faults counted: more than
# none, about one a page), bad input and files, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_pagefault
NUM='[0-9]+\.[0-9]{4}'

head -c 1048576 /dev/urandom >"$T/data"

run "$CMD" -N 3 "$T/data"
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
one_line_like "$ERR" "^Pagefaults on $T/data: $NUM microseconds\$" "stderr is exactly 'Pagefaults on FILE: X.XXXX microseconds'"
positive "$(label_value "$ERR")" "the latency is positive"

# A file of one byte: one page.
printf x >"$T/one"
run "$CMD" -N 3 "$T/one"
one_line_like "$ERR" "^Pagefaults on $T/one: $NUM microseconds\$" "a one-byte file: the classic line"

mkdir "$T/d"
cp "$T/data" "$T/d/data"
tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -C -P 2 -N 3 "$T/d/data"
one_line_like "$ERR" "^Pagefaults on $T/d/data: $NUM microseconds\$" "-C -P 2: one classic line, naming the file given"
is "$(ls -A "$T/d")" "data" "-C -P 2: the copies are removed"
no_process_left "$tag" "-C -P 2: no process left behind"

if json_usable; then
    run_json "$CMD" -N 3 --json "$T/data"
    json_one_record "$T/json" lat_pagefault null us
    json_ok "$T/json" ".results[0].params.file == \"$T/data\" and .results[0].params.pages == 256" \
        "--json: params.file, and pages 256 (1 MiB)"
    json_ok "$T/json" '.results[0].params.faults > 0 and .results[0].params.major_faults >= 0' \
        "--json: the faults taken in a pass are counted, more than none"
    json_ok "$T/json" '.results[0].params.faults_per_page | type == "number" and . > 0' \
        "--json: faults_per_page recorded"
    json_ok "$T/json" '.results[0].compat == "same"' "--json: compat same"
    if [ "$EMULATED" = no ]; then
        # Each page is its own mapping: no fault-around, one fault a page.
        json_ok "$T/json" '.results[0].params.faults_per_page >= 0.9 and .results[0].params.faults_per_page <= 1.1 and (.results[0].warnings | length) == 0' \
            "--json: about one fault per page read, no warning"
    else
        skip "emulated: the emulator's own faults are counted too"
    fi
else
    skip "--json: jq missing or built without jansson"
fi

usage_error lat_pagefault "$CMD"
usage_error lat_pagefault "$CMD" "$T/data" extra
usage_error lat_pagefault "$CMD" -N 0 "$T/data"

failed_run lat_pagefault "a missing file: exit 1" "$CMD" -N 3 "$T/missing"
failed_run lat_pagefault "a directory: exit 1" "$CMD" -N 3 "$T"
: >"$T/empty"
failed_run lat_pagefault "an empty file: exit 1" "$CMD" -N 3 "$T/empty"
like "$ERR" 'holds 0 bytes' "an empty file: says it is too short"

# A file name is the user's text: its control bytes never reach the terminal
# raw, in the classic line or in a message (issue 15).
esc=$(printf '\033')
cp "$T/one" "$T/red${esc}[31m"
run "$CMD" -N 3 "$T/red${esc}[31m"
ok $(printf '%s' "$ERR" | grep -q "$esc"; [ $? = 1 ]; echo $?) "a name with an escape: no raw ESC byte in the output"
one_line_like "$ERR" "^Pagefaults on $T/red\\\\x1b\\[31m: $NUM microseconds\$" \
    "a name with an escape: the classic line shows it as \\x1b"
run "$CMD" -N 3 "$T/gone${esc}[31m"
is "$RC" 1 "a missing name with an escape: exit 1"
ok $(printf '%s' "$ERR" | grep -q "$esc"; [ $? = 1 ]; echo $?) "a missing name with an escape: no raw ESC byte in the message"

# The memory guard (issue 15): each copy's 32768 one-page mappings cost the
# kernel memory it cannot reclaim (a mapping record and a page-table entry
# each); 64 copies in a 256 MiB memory cgroup are refused at once (today: the
# OOM killer).
. "$(dirname "$0")/lib-cgroup.sh"
if ! truncate -s 128m "$T/sparse" 2>/dev/null; then
    skip "memory cgroup: no sparse file here"
elif memcg_make 256m; then
    memcg_refused lat_pagefault "-P 64 of a 128 MiB file in a 256 MiB memory cgroup: refused at once, no OOM kill" \
        "$CMD" -P 64 -N 1 "$T/sparse"
    memcg_remove
else
    skip "memory cgroup: $MEMCG_WHY"
fi
rm -f "$T/sparse"

interrupted lat_pagefault "$T/d" "-C -P 2" "$CMD" -C -P 2 -N 1000 --min-time 0.2 "$T/d/data"

done_testing
