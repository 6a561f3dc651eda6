#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench see: the Modern tables (doc/summary.md, "Modern") and --matrix, on
# the hand-made files of tests/fixtures/modern (make-fixtures.py there): only
# the columns some file has, the figures each cell takes (min, median, max of
# the pairs; the loaded point of the highest bandwidth; the worst remote
# pair; 4K against huge pages), "one node", blank unmeasured cells with their
# reason, the notes; lmbench 3 files show no Modern table; the same in
# --json, --csv and --markdown; the matrices.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

M=$FIXTURES/modern

table_of() {
    printf '%s\n' "$1" | awk -v t="$2" 'index($0, t) == 1 { on = 1 } on && /^$/ { exit } on'
}
notes_of() {
    printf '%s\n' "$1" | awk -v t="$2" '
        index($0, t) == 1 { on = 1; next }
        on == 1 && /^$/ { on = 2; next }
        on == 2 && /^  / { print; next }
        on == 2 { exit }'
}
# Every row keeps the column boundaries of the table's dash line.
widths_kept() {
    printf '%s\n' "$1" | awk '
        /^--------- / { d = $0; next }
        d != "" && NF > 0 {
            for (i = 1; i <= length(d) && i <= length($0); i++)
                if (substr(d, i, 1) == " " && substr($0, i, 1) != " ") bad = 1
            if (length($0) > length(d) + 1) bad = 1
        }
        END { exit bad }'
}

if ! json_usable; then
    skip_all_reason="jq missing or built without jansson"
    skip "see-modern: $skip_all_reason"
    done_testing
    exit 0
fi

# --- lmbench 3 files and old results: no Modern table ---------------------------------

run "$LMBENCH" see "$RAW3"
is "$RC" 0 "an lmbench 3 file: exit 0"
unlike "$OUT" 'Modern' "an lmbench 3 file: no Modern table"
run "$LMBENCH" see --json "$RAW3"
is "$(printf '%s' "$OUT" | jq '[.tables[].key | select(startswith("modern"))] | length')" 0 \
    "an lmbench 3 file: no Modern table in --json"
run "$LMBENCH" see --csv "$FIXTURES/see-notes.json"
unlike "$OUT" ',modern_' "an older run: no Modern lines in --csv"
run "$LMBENCH" see --matrix "$RAW3"
is "$RC" 0 "--matrix on a file without matrices: exit 0"
unlike "$OUT" 'round trip' "--matrix on a file without matrices: none printed"

# --- the text page ------------------------------------------------------------------

run "$LMBENCH" see "$M/big.json" "$M/small.json"
is "$RC" 0 "two modern files: exit 0"
is "$ERR" "" "two modern files: nothing on stderr"
C2C=$(table_of "$OUT" "Modern: core-to-core")
MEM=$(table_of "$OUT" "Modern: memory latencies")
BW=$(table_of "$OUT" "Modern: memory bandwidths")
THR=$(table_of "$OUT" "Modern: threads and events")
PROC=$(table_of "$OUT" "Modern: processes")
for t in "$C2C" "$MEM" "$BW" "$THR" "$PROC"; do
    ok $(widths_kept "$t"; echo $?) "$(printf '%s' "$t" | head -n 1 | cut -c1-40): cells within their columns"
done
like "$C2C" '^big       Linux 6\.1\.0-t     6   18\.5    smt  139\.0  152\.5 socket$' \
    "c2c: 6 pairs measured (cas, not store), min 18.5 smt, median 139, max 152.5 socket"
like "$C2C" '^small     Linux 6\.1\.0-t     1   45\.0   core   45\.0   45\.0   core$' \
    "c2c: one pair is min, median and max"
N=$(notes_of "$OUT" "Modern: core-to-core")
like "$N" '^  big: c2c min: CPUs 0 and 1 \(smt\), the fastest of 6 pairs$' "c2c: the fastest pair named"
like "$N" '^  big: c2c max: CPUs 0 and 3 \(socket\), the slowest of 6 pairs$' "c2c: the slowest pair named"
like "$N" '1 pair unmeasured \(skipped \(CPU 4 is not online here\)\)' "c2c: the unmeasured pair and why"

like "$MEM" '^big       Linux 6\.1\.0-t    90\.0   188\.0   93\.0    145\.5  105\.0   81\.0$' \
    "memory: idle, loaded (highest bandwidth point), NUMA local median, worst remote, 4K, thp"
like "$MEM" '^small     Linux 6\.1\.0-t    85\.0    97\.0   88\.0 one node *$' "memory: one node"
N=$(notes_of "$OUT" "Modern: memory latencies")
like "$N" '^  big: loaded latency: point 3: 3 rd loaders, rate max, 22400 MB/s delivered$' \
    "loaded: the point shown, its load and bandwidth"
like "$N" '^  big: NUMA remote: CPU on node 1, memory on node 0: the worst of 2 remote pairs$' \
    "NUMA: the worst remote pair named"
like "$N" '^  big: huge pages: pages thp: lat_mem_rd random, stride 64, at 64 MiB; 98% in huge pages$' \
    "huge pages: the curve, the size and the share obtained"
like "$N" '^  small: huge pages: blank: 2m pages: skipped \(no huge pages reserved' \
    "huge pages: a skipped huge-page record is a blank cell with its reason"
like "$N" '^  small: NUMA remote: blank: one NUMA node' "one node: said under the table"

like "$BW" '^big       Linux 6\.1\.0-t     22\.4K   20\.8K    12\.1K$' \
    "bandwidth: the loaded point's, NUMA local median, worst (lowest) remote"
like "$BW" '^small     Linux 6\.1\.0-t    8100\.0   15\.8K one node$' "bandwidth: one node"

like "$THR" 'futex  futex   eventfd eventfd epoll thread mutex    cond  uring uring' \
    "threads: a column for each figure"
like "$THR" '^small     Linux 6\.1\.0-t  2\.100   2\.600   3\.200   3\.900 0\.410   14\.5    1\.800 2\.200$' \
    "threads: io_uring skipped: blank cells"
N=$(notes_of "$OUT" "Modern: threads and events")
like "$N" '^  small: uring nop, uring read: blank: skipped \(io_uring_setup: Operation not permitted' \
    "io_uring skipped: the reason under the table"
like "$PROC" 'fork  vfork exec  spawn mprotect madvise' "processes: fork and exec beside vfork and spawn"
like "$PROC" '^big       Linux 6\.1\.0-t  95\.0  31\.0 310\.0 120\.0    0\.120    0\.350$' \
    "processes: the figures"
like "$(notes_of "$OUT" "Modern: threads and events")" '^  small: epoll wait: among 10 descriptors$' \
    "epoll: the descriptors said"
unlike "$OUT" 'Marks:' "nothing marked: no Marks line"

# Only the columns some file has; fork and exec only beside vfork or spawn.
jq '.results |= map(select(.benchmark == "lat_futex" or .benchmark == "lat_proc" and
    (.case == "fork" or .case == "exec")))' "$M/big.json" > "$T/futex.json"
run "$LMBENCH" see "$T/futex.json"
is "$RC" 0 "futex and fork only: exit 0"
THR=$(table_of "$OUT" "Modern: threads and events")
like "$THR" '^Host                 OS futex  futex$' "futex only: its two columns, no other"
unlike "$OUT" 'Modern: (core|memory|processes)' "futex only: no other Modern table (fork and exec stay in theirs)"
is "$(printf '%s\n' "$OUT" | grep -c '^Modern')" 1 "futex only: one Modern table"

# --ends: the placement asked; a benchmark of another placement only is blank.
jq '(.results[] | select(.benchmark == "lat_futex") | .params.ends) = "unpinned" |
    .results += [{"benchmark": "lat_ctx", "case": null, "params": {"size_kb": 0, "procs": 2,
    "ends": "same_cpu"}, "compat": "same", "unit": "us", "better": "lower", "status": "ok",
    "value": 2.5, "samples": [2.5]}]' "$M/big.json" > "$T/ends.json"
run "$LMBENCH" see "$T/ends.json"
like "$(notes_of "$OUT" "Modern: threads and events")" \
    '^  big: futex thread: ends unpinned \(its only placement; the file.s two-ended cells: same_cpu\)$' \
    "a benchmark of one other placement: shown, its placement said"
run "$LMBENCH" see --ends same_cpu "$T/ends.json"
like "$(notes_of "$OUT" "Modern: threads and events")" \
    '^  big: futex thread, futex process: blank: no same_cpu figure; --ends unpinned shows the unpinned one$' \
    "--ends same_cpu: never another placement"

# --- --json, --csv, --markdown ------------------------------------------------------

run "$LMBENCH" see --json "$M/big.json" "$M/small.json"
is "$RC" 0 "--json: exit 0"
J=$OUT
is "$(printf '%s' "$J" | jq -c '[.tables[].key | select(startswith("modern"))]')" \
    '["modern_c2c","modern_memory","modern_bandwidth","modern_threads","modern_processes"]' \
    "--json: the five Modern tables"
is "$(printf '%s' "$J" | jq -c '.tables[] | select(.key == "modern_c2c") | .rows[0].cells')" \
    '{"pairs":6,"min":18.5,"min_relation":"smt","median":139,"max":152.5,"max_relation":"socket"}' \
    "--json: the c2c cells"
is "$(printf '%s' "$J" | jq -c '.tables[] | select(.key == "modern_memory") | .rows[1].cells.numa_remote')" \
    null "--json: one node is null"
like "$(printf '%s' "$J" | jq -r '.tables[] | select(.key == "modern_memory") | .rows[1].notes[] | select(.column == "numa_remote") | .kind + ": " + .text')" \
    '^blank: one NUMA node' "--json: one node's note"
is "$(printf '%s' "$J" | jq -r '.tables[] | select(.key == "modern_c2c") | .rows[0].notes[] | select(.column == "min") | .kind')" \
    info "--json: what a figure is, as a note of kind info"
is "$(printf '%s' "$J" | jq -c '.tables[] | select(.key == "modern_threads") | [.columns[].key] | length')" 10 \
    "--json: the columns shown"
run "$LMBENCH" see --csv "$M/big.json" "$M/small.json"
like "$OUT" ',modern_c2c,min,ns,18\.5,,"CPUs 0 and 1 \(smt\)' "--csv: a c2c cell and its note"
like "$OUT" ',modern_threads,io_uring_nop,us,,,skipped \(io_uring_setup' "--csv: a skipped cell and its reason"
run "$LMBENCH" see --markdown "$M/big.json" "$M/small.json"
like "$OUT" '^## Modern: core-to-core round trip in nanoseconds - smaller is better$' "--markdown: the table's heading"
like "$OUT" '^\| small \| Linux 6\.1\.0-test \| 85 \| 97 \| 88 \| one node \|' "--markdown: one node"

# --- --matrix -----------------------------------------------------------------------

run "$LMBENCH" see --matrix "$M/big.json"
is "$RC" 0 "--matrix: exit 0"
like "$OUT" '^Core-to-core round trip \(lat_c2c cas\) in ns - smaller is better: big$' "--matrix: the c2c matrix's title"
like "$OUT" '^  CPU      0      1      2      3      4$' "--matrix: a column per CPU"
like "$OUT" '^    0       -   18\.5s  140\.0S  152\.5S      x$' "--matrix: figures with their relation, x unmeasured"
like "$OUT" '^    2  140\.0S  138\.0S       -   19\.0s$' "--matrix: symmetric"
like "$OUT" '^  x unmeasured: 0-4: CPU 4 is not online here$' "--matrix: why x"
like "$OUT" '^ node      0      1$' "--matrix: the NUMA matrices, node by node"
like "$OUT" '^    1  145\.5    94\.0$' "--matrix: the CPU's node in rows, the memory's in columns"
M1=$(printf '%s\n' "$OUT" | grep -n '^Core-to-core round trip (lat_c2c cas)' | cut -d: -f1)
M2=$(printf '%s\n' "$OUT" | grep -n '^Modern: processes' | cut -d: -f1)
ok $([ "$M1" -gt "$M2" ]; echo $?) "--matrix: after the tables"
run "$LMBENCH" see --json --matrix "$M/big.json"
is "$(printf '%s' "$OUT" | jq -c '.matrices[0] | [.key, .ids, .values[0], .relations[0][1], .unmeasured[0].reason]')" \
    '["c2c_cas",[0,1,2,3,4],[null,18.5,140,152.5,null],"smt","CPU 4 is not online here"]' \
    "--json --matrix: the matrix"
run "$LMBENCH" see --json "$M/big.json"
is "$(printf '%s' "$OUT" | jq 'has("matrices")')" false "--json without --matrix: no matrices"
run "$LMBENCH" see --csv --matrix "$M/big.json"
is "$RC" 0 "--csv --matrix: exit 0"
like "$OUT" '^tests/fixtures/modern/big\.json,big,Linux 6\.1\.0-test,matrix:c2c_cas,0->1,ns,18\.5,,smt$|,matrix:c2c_cas,0->1,ns,18\.5,,smt$' \
    "--csv --matrix: a c2c cell: its pair, unit, figure and relation"
like "$OUT" ',matrix:c2c_cas,0->4,ns,,,CPU 4 is not online here$' "--csv --matrix: an unmeasured pair: no value, the reason"
is "$(printf '%s\n' "$OUT" | grep -c ',matrix:c2c_cas,')" 7 "--csv --matrix: each c2c pair once (7 records, not 14)"
like "$OUT" ',matrix:numa_latency,1->0,ns,145\.5,,$' "--csv --matrix: NUMA cells: CPU node -> memory node"
is "$(printf '%s\n' "$OUT" | grep -c ',matrix:numa_bandwidth,')" 4 "--csv --matrix: the 2x2 bandwidth matrix"
C1=$(printf '%s\n' "$OUT" | grep -n ',matrix:' | head -n 1 | cut -d: -f1)
C2=$(printf '%s\n' "$OUT" | grep -n '^[^,]*,[^,]*,[^,]*,modern_' | tail -n 1 | cut -d: -f1)
ok $([ -n "$C1" ] && [ -n "$C2" ] && [ "$C1" -gt "$C2" ]; echo $?) "--csv --matrix: after the tables"
run "$LMBENCH" see --csv "$M/big.json"
is "$(printf '%s\n' "$OUT" | grep -c ',matrix:')" 0 "--csv without --matrix: no matrix lines"

done_testing
