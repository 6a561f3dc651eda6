#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench see: the summary page from lmbench 3 raw files and from our JSON and
# JSONL, its golden layout, the cells of lmbench 3's own summary of the same
# file, --percent, --json, --csv, directories and bad input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

# The output with the version line made constant.
see_norm() {
    sed 's/^\t\t (lmbench [^,)]*/\t\t (lmbench VERSION/' "$1"
}

# Splits a summary page into its tables: one file per table in $2, named by the
# table's position, the first line being the title.
split_tables() {
    rm -rf "$2"
    mkdir -p "$2"
    awk -v D="$2" '
        /^$/ { n++; next }
        n >= 2 { f = sprintf("%s/%02d", D, n); print > f }' "$1"
}

verb_contract see

# --- the lmbench 3 fixture: golden output ------------------------------------------

run "$LMBENCH" see "$RAW3"
is "$RC" 0 "see on the lmbench 3 raw file: exit status 0"
is "$ERR" "" "see on the lmbench 3 raw file: nothing on stderr"
see_norm "$T/out" >"$T/ours"
see_norm "$FIXTURES/see-lmbench3-x86_64-linux-vm.0.txt" >"$T/golden"
ok $(cmp -s "$T/ours" "$T/golden"; echo $?) "see on the lmbench 3 raw file: the golden page, byte for byte"
cmp -s "$T/ours" "$T/golden" || diag_text "diff" "$(diff "$T/golden" "$T/ours")"

# --- the same cells as lmbench 3's own summary of that file --------------------------
# Every table of lmbench 3's page is in ours with the same title, header lines and
# row, byte for byte, except "Memory latencies", which doc/summary.md has us
# compute differently. Ours adds the uint64 table lmbench 3 never filled.

split_tables "$T/out" "$T/ours.d"
split_tables "$FIXTURES/lmbench3-x86_64-linux-vm.0.summary" "$T/theirs.d"
for f in "$T"/theirs.d/*; do
    title=$(head -n 1 "$f")
    case "$title" in
    "Memory latencies"*) continue ;;
    esac
    mine=
    for g in "$T"/ours.d/*; do
        [ "$(head -n 1 "$g")" = "$title" ] && mine=$g
    done
    if [ -z "$mine" ]; then
        fail "lmbench 3's table '$title' is in ours"
        continue
    fi
    ok $(cmp -s "$f" "$mine"; echo $?) "'$title': the same header and cells as lmbench 3's summary"
    cmp -s "$f" "$mine" || diag_text "diff (lmbench 3 < > ours)" "$(diff "$f" "$mine")"
done
like "$OUT" '^Basic uint64 operations - times in nanoseconds - smaller is better$' \
    "the uint64 table is filled from the int64 lines"
like "$OUT" '^vm        Linux 6\.18\.44 0\.1600        0\.7500 3\.1000 2\.8000$' \
    "uint64 row: int64 bit, (add 0.00 blank), mul, div, mod"
like "$OUT" '^Memory latencies in nanoseconds - smaller is better$' "the memory latencies table"
# Cache levels read (src/lib/curve) from the stride-128 curve: L1 0.98 ns to
# 48 KiB, L2 3.3 ns to about 1 MiB, L3 7.2 ns to about 30 MiB; beyond, 11 ns to
# 512 MiB, too fast for memory: main memory as the prefetched stride sees it
# (lmbench 3's 11.0), said in Guesses; the random chase's memory 149 ns.
like "$OUT" '^vm        Linux 6\.18\.44  4103 0\.9780 3\.3040 7\.1920       11\.0      149\.3  main mem prefetched \(stride 128\); no declared caches to check$' \
    "memory latencies: three cache levels, main memory, the random chase, and what was a guess"

# --- --json and --csv: the same table -------------------------------------------------

if json_usable; then
    run_json "$LMBENCH" see --json "$RAW3"
    is "$RC" 0 "--json: exit status 0"
    json_checks "$T/json" <<'EOF2'
--json: schema lmbench-summary 1, one file, lmbench3-raw
    .schema == "lmbench-summary" and .schema_version == 1 and (.files | length) == 1 and .files[0].format == "lmbench3-raw"
--json: host vm, os, platform
    .files[0].host == "vm" and .files[0].os == "Linux 6.18.44-fc-v782" and .files[0].platform == "x86_64-linux-gnu"
--json: every table of the text page, in its order
    [.tables[].key] == ["basic","processes","integer","uint64","float","double","context","local_latency","remote_latency","file_vm","local_bandwidth","memory"]
--json: null call 0.0524 us, null I/O the mean of read and write
    (.tables[] | select(.key == "processes") | .rows[0].cells) as $c | $c.null_call == 0.0524 and ($c.null_io * 10000 | round) == 635
--json: integer add (lmbench 3's 0.00) is null
    (.tables[] | select(.key == "integer") | .rows[0].cells.add) == null
--json: RPC cells (lmbench 3 failed) are null, TCP 6.097
    (.tables[] | select(.key == "local_latency") | .rows[0].cells) as $c | $c.rpc_udp == null and $c.rpc_tcp == null and $c.tcp == 6.097
--json: bandwidths from the largest size: mem read 29013.78, mem write 7887.85, bcopy 22109.83
    (.tables[] | select(.key == "local_bandwidth") | .rows[0].cells) as $c | $c.mem_read == 29013.78 and $c.mem_write == 7887.85 and $c.bcopy_libc == 22109.83
--json: 0K file create = 10^6 / 277535 per second
    (.tables[] | select(.key == "file_vm") | .rows[0].cells["0k_create"]) | (. * 1e4 | round) == 36031
--json: context switches 2p/0K 1.88, 16p/64K 2.32
    (.tables[] | select(.key == "context") | .rows[0].cells) as $c | $c["2p_0k"] == 1.88 and $c["16p_64k"] == 2.32
--json: units and directions
    (.tables[] | select(.key == "local_bandwidth") | .unit == "MB/s" and .better == "higher") and (.tables[] | select(.key == "processes") | .unit == "us" and .better == "lower")
EOF2
else
    skip "--json: jq missing or built without jansson"
fi

run "$LMBENCH" see --csv "$RAW3"
is "$RC" 0 "--csv: exit status 0"
is "$(printf '%s\n' "$OUT" | head -n 1)" "file,host,os,table,column,unit,value,mark,note" "--csv: the header line"
like "$OUT" "^$RAW3,vm,Linux 6\\.18\\.44-fc-v782,processes,null_call,us,0\\.0524,,\$" "--csv: the null call cell"
like "$OUT" "^$RAW3,vm,[^,]*,integer,add,ns,,,below resolution [^,]*\$" "--csv: a blank cell is an empty value, its note says why"
all_like "$(printf '%s\n' "$OUT" | sed 1d)" '^[^,]+,[^,]+,[^,]+,[a-z_0-9]+,[a-z_0-9]+,[^,]*,[^,]*,[*?]?,[^,]*$' \
    "--csv: nine fields on every line"
verb_usage_error see --json --csv "$RAW3"

# --- two rows, --percent ------------------------------------------------------------

# A second run of the same machine, twice as slow in every figure.
awk '/^Simple syscall: / { $3 = $3 * 2 } { print }' "$RAW3" >"$T/vm.1"
sed -i 's/^\[HOSTNAME: vm\]$/[HOSTNAME: vm2]/' "$T/vm.1"
run "$LMBENCH" see "$RAW3" "$T/vm.1"
is "$RC" 0 "two files: exit status 0"
like "$OUT" '^vm        Linux 6\.18\.44 4103 0\.05 ' "two files: the first row"
like "$OUT" '^vm2       Linux 6\.18\.44 4103 0\.10 ' "two files: the second row, its null call doubled"
cp "$RAW3" "$T/vm.7"
run "$LMBENCH" see "$RAW3" "$T/vm.7"
like "$OUT" '^vm\.7      Linux 6\.18\.44 4103 0\.05 ' "two files of one host: the rows named after the files"
# The fixture is named lmbench3-x86_64-linux-vm.0: its row is its host and run
# number, never the first 9 characters of that name ("lmbench3-").
like "$OUT" '^vm\.0      Linux 6\.18\.44 4103 0\.05 ' "an lmbench 3 file named otherwise: labelled by its host and run number"
unlike "$OUT" 'lmbench3-' "... and its file name appears nowhere on the page"
cp "$RAW3" "$T/old-run"
run "$LMBENCH" see "$T/old-run" "$RAW3"
like "$OUT" '^old-run   Linux 6\.18\.44 4103 0\.05 ' "a file without a run number: its name"
like "$OUT" '^vm\.0      Linux 6\.18\.44 4103 0\.05 ' "... beside the lmbench 3 file's host and run number"
mkdir -p "$T/a" "$T/b"
cp "$RAW3" "$T/a/vm.0"
cp "$RAW3" "$T/b/vm.0"
run "$LMBENCH" see "$T/a/vm.0" "$T/b/vm.0"
like "$OUT" '^vm\.0#1    Linux 6\.18\.44 4103 0\.05 ' "two files of one name: told apart by their row (first)"
like "$OUT" '^vm\.0#2    Linux 6\.18\.44 4103 0\.05 ' "two files of one name: told apart by their row (second)"
run "$LMBENCH" see --percent "$RAW3" "$T/vm.1"
is "$RC" 0 "--percent: exit status 0"
like "$OUT" '^vm        Linux 6\.18\.44 4103  100 ' "--percent: the best row is 100"
like "$OUT" '^vm2       Linux 6\.18\.44 4103  200 ' "--percent: twice the latency is 200"
like "$OUT" '^Processor, Processes - times in percent of the best in each column - smaller is better$' \
    "--percent: a table's title says percent, not microseconds"
like "$OUT" '^\*Local\* Communication bandwidths in percent of the best in each column - bigger is better$' \
    "--percent: a bandwidth table's title says percent, not MB/s"
unlike "$OUT" '^[^ ].* in (microseconds|nanoseconds|MB/s) - ' "--percent: no title names a unit its cells are not in"
like "$OUT" '^Basic system parameters$' "--percent: Basic system parameters (not in percent) keeps its title"
if json_usable; then
    run_json "$LMBENCH" see --json --percent "$RAW3" "$T/vm.1"
    json_ok "$T/json" '(.tables[] | select(.key == "processes") | .title) == "Processor, Processes - times in percent of the best in each column - smaller is better" and (.tables[] | select(.key == "basic") | .title) == "Basic system parameters"' \
        "--json --percent: the titles say percent"
else
    skip "--json --percent: jq missing or built without jansson"
fi

# --- directories ---------------------------------------------------------------------

mkdir -p "$T/results/sub"
cp "$RAW3" "$T/results/sub/vm.0"
cp "$T/vm.1" "$T/results/vm2.1"
echo "not a results file" >"$T/results/notes.txt"
run "$LMBENCH" see "$T/results"
is "$RC" 0 "a directory: exit status 0"
is "$(printf '%s\n' "$OUT" | grep -c '^vm2\{0,1\} .*Linux 6\.18\.44 4103 0\.')" 2 \
    "a directory (searched recursively, other files ignored): two rows"
(cd "$T" && "$LMBENCH" see >"$T/out" 2>"$T/err")
is "$?:$(grep -c 'Linux 6\.18\.44 4103 0\.' "$T/out")" "0:2" "no argument: ./results is read"
mkdir -p "$T/nores"
(cd "$T/nores" && "$LMBENCH" see >"$T/out" 2>"$T/err")
rc=$?
ok $([ "$rc" = 1 ] && [ ! -s "$T/out" ] && grep -q "^lmbench see: no ./results directory here" "$T/err" &&
     grep -q "lmbench run" "$T/err"; echo $?) \
    "no argument and no ./results: exit 1, says that lmbench run makes one"
[ "$rc" = 1 ] || diag_text "stderr" "$(cat "$T/err")"
mkdir -p "$T/nores/results"
(cd "$T/nores" && "$LMBENCH" see >"$T/out" 2>"$T/err")
rc=$?
ok $([ "$rc" = 1 ] && grep -q "no results files" "$T/err" && grep -q "lmbench run. writes its results files into ./results" "$T/err"; echo $?) \
    "no argument and an empty ./results: exit 1, says that lmbench run writes them there"
mkdir -p "$T/empty"
run "$LMBENCH" see "$T/empty"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q '^lmbench see: .*no results files'; echo $?) \
    "an empty directory: exit 1 and a message"
run "$LMBENCH" see "$T/nosuchfile"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q '^lmbench see: .*nosuchfile'; echo $?) \
    "a missing file: exit 1 and a message naming it"
run "$LMBENCH" see "$T/results/notes.txt" "$RAW3"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'notes.txt: not a results file' &&
     printf '%s\n' "$OUT" | grep -q '^vm .*4103 0\.05'; echo $?) \
    "a file that is not a results file: a message, exit 1, the other rows still shown"

# A run directory as lmbench run leaves it: one row per run, not per file.
if json_usable; then
    mkdir -p "$T/run"
    "$LMBENCH" import -o "$T/run/vm.0.json" "$RAW3"
    cp "$RAW3" "$T/run/vm.0"
    run "$LMBENCH" see "$T/run"
    is "$RC:$(printf '%s\n' "$OUT" | grep -c '^vm .*4103 0\.05')" "0:1" \
        "a run's .json and raw file together: one row (the .json)"
else
    skip "run directory: jq missing or built without jansson"
fi

# --- our JSON, from real commands ------------------------------------------------------

if json_usable; then
    "$BIN/lat_syscall" -N 3 --json null >"$T/sys.json" 2>/dev/null
    "$BIN/bw_mem" -N 3 --json 64k frd >"$T/bw.json" 2>/dev/null
    run "$LMBENCH" see "$T/sys.json" "$T/bw.json"
    is "$RC" 0 "our --json documents: exit status 0"
    h=$(hostname | cut -c1-9)
    sys_row=$(printf '%s\n' "$OUT" | sed -n '/^Processor, Processes/,/^$/p' | grep -v '^Host\|^ \|^-\|^Proc\|^$' | head -n 1)
    like "$sys_row" "^.{9} .{13}      [0-9.]{3,4}[?]?( |\$)" "lat_syscall --json: the null call cell is filled"
    bw=$(jq -r '.results[0].value' "$T/bw.json")
    bw_row=$(printf '%s\n' "$OUT" | sed -n '/^\*Local\* Communication bandwidths/,/^$/p' | tail -n 2 | head -n 1)
    like "$bw_row" "[0-9.]+[KM]?[?]? *\$" "bw_mem --json: the Mem read cell is filled ($bw MB/s; a ? when it was too noisy)"
    run_json "$LMBENCH" see --json "$T/bw.json"
    json_ok "$T/json" ".tables[] | select(.key == \"local_bandwidth\") | .rows[0].cells.mem_read == $bw" \
        "bw_mem --json: Mem read is the record's value"

    # JSONL: a header line, then records; an interrupted last line is tolerated.
    jq -c 'del(.results)' "$T/bw.json" >"$T/bw.jsonl"
    jq -c '.results[]' "$T/bw.json" >>"$T/bw.jsonl"
    printf '{"benchmark": "bw_mem", "ca' >>"$T/bw.jsonl"
    run_json "$LMBENCH" see --json "$T/bw.jsonl"
    is "$RC" 0 "a .jsonl file with a cut last line: exit status 0"
    json_ok "$T/json" ".files[0].format == \"jsonl\" and (.tables[] | select(.key == \"local_bandwidth\") | .rows[0].cells.mem_read == $bw)" \
        "a .jsonl file: read record by record"

    echo '{"schema": "lmbench-results", "schema_version": 2, "results": []}' >"$T/v2.json"
    run "$LMBENCH" see "$T/v2.json"
    ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'schema_version'; echo $?) \
        "a later schema_version: exit 1, says so"
    printf '{"schema": "lmbench-results", ' >"$T/cut.json"
    run "$LMBENCH" see "$T/cut.json" "$RAW3"
    ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q '^lmbench see: .*cut.json' &&
         printf '%s\n' "$OUT" | grep -q '^vm '; echo $?) \
        "a damaged JSON file: exit 1, a message naming it, the other rows shown"
else
    skip "our JSON: jq missing or built without jansson"
fi

# --- options ---------------------------------------------------------------------------

verb_usage_error see --ends nowhere "$RAW3"
verb_usage_error see --ends
run "$LMBENCH" see --ends two_cpus "$RAW3"
is "$RC" 0 "--ends two_cpus: exit status 0 (cells of other placements left blank, said under the tables)"
run "$LMBENCH" see -- "$RAW3"
is "$RC" 0 "-- ends the options"
"$LMBENCH" see "$RAW3" >/dev/full 2>"$T/err"
rc=$?
ok $([ "$rc" = 1 ] && grep -q '^lmbench see: cannot write' "$T/err"; echo $?) \
    "see >/dev/full: exit 1 with a message"

# --- hostile files (issue 15): no crash, bounded input, the reason said ------------------

# Lines whose sscanf literal stops before its %n (lmbench 3 lines cut short):
# read as lines not understood, never a crash.
for l in 'tlb: 31 pa' 'Avg xfer: 1KB, 2KB in 3 millisecs, 4 MB' \
    'L1 cache: 32768 bytes 1.00 nanoseconds 64 linesize 1.0 par' \
    'Memory latency: 80 nanoseconds 5 par' 'integer mul parallelism: 3x' \
    '"stride=128x' '"size=0k ovr=1.5 x'; do
    printf '[lmbench3.0 results for Linux x 6.1]\n[HOSTNAME: x]\n%s\n' "$l" >"$T/cut3"
    run "$LMBENCH" see "$T/cut3"
    is "$RC" 0 "an lmbench 3 line cut short ('$l'): exit 0, no crash"
done

mkfifo "$T/fifo"
run "$LMBENCH" see "$T/fifo" "$RAW3"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q "fifo is a FIFO, not a regular file" &&
     printf '%s\n' "$OUT" | grep -q '^vm '; echo $?) \
    "a FIFO: refused at once as a FIFO, the other rows shown"
run "$LMBENCH" see /dev/zero
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q "/dev/zero is a character device"; echo $?) \
    "/dev/zero: refused at once as a character device"
# A sparse file above the 64 MiB limit: refused by its size, not read.
printf '[lmbench3.0 results for Linux x]\n' >"$T/big"
truncate -s 300M "$T/big"
run "$LMBENCH" see "$T/big"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q "big is 300.0 MiB; the limit for this file is 64.0 MiB"; echo $?) \
    "a 300 MiB results file: refused, its size and the limit said"
# A line above the 16 MiB line limit, in a raw file and in a JSONL file.
{ printf '[lmbench3.0 results for Linux x]\n'; head -c 17000000 /dev/zero | tr '\0' a; echo; } >"$T/long3"
run "$LMBENCH" see "$T/long3"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q "long3: line 2: a line is longer than"; echo $?) \
    "a raw file with a 17 MB line: exit 1, the line and the limit said"
# (A build without jansson skips JSONL files before reading their lines.)
if json_usable; then
{ printf '{"schema": "lmbench-results", "schema_version": 1}\n{"x": "'; head -c 17000000 /dev/zero | tr '\0' a; echo '"}'; } >"$T/long.jsonl"
run "$LMBENCH" see "$T/long.jsonl"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q "long.jsonl: line 2: a line is longer than"; echo $?) \
    "a JSONL file with a 17 MB line: exit 1, the line and the limit said"
else
    skip "a JSONL file with a 17 MB line: built without jansson"
fi

# As another user (we are root: root reads everything): an unreadable file says
# so, and an unreadable directory met in a search is said without a leak
# (LeakSanitizer in the sanitized build).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 711 "$T"
    mkdir -p "$T/pub/tree/b"
    cp "$RAW3" "$T/pub/secret"
    cp "$RAW3" "$T/pub/tree/a"
    cp "$RAW3" "$T/pub/tree/c"
    chmod 600 "$T/pub/secret"
    chmod 700 "$T/pub/tree/b"
    chmod -R a+rX "$T/pub/tree/a" "$T/pub/tree/c"
    chmod 755 "$T/pub" "$T/pub/tree"
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$LMBENCH" see "$T/pub/secret"
    ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q "secret: Permission denied"; echo $?) \
        "an unreadable file: 'Permission denied', not 'not a results file'"
    [ "$RC" = 1 ] || diag_text "stderr" "$ERR"
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$LMBENCH" see "$T/pub/tree"
    ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q "tree/b: Permission denied" &&
         ! printf '%s\n' "$ERR" | grep -q 'LeakSanitizer'; echo $?) \
        "an unreadable directory in a search: said, exit 1, nothing leaked"
    [ "$RC" = 1 ] || diag_text "stderr" "$ERR"
else
    skip "unreadable files: needs root (to read as another user) and setpriv"
    skip "unreadable directory: needs root and setpriv"
fi

done_testing
