#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench see: what the page says beside the numbers. The context of each
# file in the header; a cell of two-ended benchmarks shows the placement asked
# for (never another one silently); substituted and implausible cells are
# marked inside lmbench 3's column widths and explained under their table; the
# run's warnings (load, disturbed steps) and the cells' spread at the end; the
# same in --json and --csv. tests/fixtures/see-notes.json is a hand-written
# run whose records trip every rule once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

NOTES=$FIXTURES/see-notes.json

# The lines of the table whose title starts with $2, up to the blank line.
table_of() {
    printf '%s\n' "$1" | awk -v t="$2" 'index($0, t) == 1 { on = 1 } on && /^$/ { exit } on'
}

# The lines said under the table whose title starts with $2: the block after
# the blank line that ends it, when it starts with two spaces.
notes_of() {
    printf '%s\n' "$1" | awk -v t="$2" '
        index($0, t) == 1 { on = 1; next }
        on == 1 && /^$/ { on = 2; next }
        on == 2 && /^  / { print; next }
        on == 2 { exit }'
}

# Every row of a table keeps the column boundaries of its dash line: where
# the dash line has a blank, the row has one too (marks live inside cells).
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
    skip "see-notes: $skip_all_reason"
    done_testing
    exit 0
fi

run "$LMBENCH" see "$NOTES"
is "$RC" 0 "a run with notes: exit status 0"
is "$ERR" "" "a run with notes: nothing on stderr"

# --- context -----------------------------------------------------------------------

like "$OUT" '^Context$' "the header has a Context block"
like "$OUT" '^box: CPU Test CPU 9000, microcode 0xde$' "context: CPU model and microcode"
like "$OUT" '^     1 socket\(s\), 4 cores, 8 threads, SMT on; governor performance, boost off$' \
    "context: sockets, cores, threads, SMT, governor, boost"
like "$OUT" '^     THP always \(defrag madvise\); NUMA nodes 1; memory 16\.0 GiB; virtualization none$' \
    "context: THP, NUMA, memory, virtualization"
like "$OUT" '^     kernel 6\.1\.0-test #1 SMP; cmdline BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet splash mitigatio\.\.\.$' \
    "context: kernel, and the command line shortened"
like "$OUT" '^     mitigations: 2 of 5 mitigated, 1 vulnerable \(spectre_v2\), 2 not affected$' \
    "context: mitigations summarised"
like "$OUT" '^     two-ended cells: same_cpu$' "context: the placement the cells show"

run "$LMBENCH" see "$RAW3"
like "$OUT" '^vm: context unknown \(an lmbench 3 file\); two-ended cells: unpinned \(the file.s only placement\)$' \
    "an lmbench 3 file: context unknown, its only placement (unpinned) shown"
jq 'del(.host.context)' "$NOTES" >"$T/noctx.json"
run "$LMBENCH" see "$T/noctx.json"
like "$OUT" '^box: context unknown; two-ended cells: same_cpu$' "a file without host.context: context unknown"

# --- placement: never mixed ----------------------------------------------------------

run "$LMBENCH" see "$NOTES"
ctx=$(table_of "$OUT" "Context switching")
like "$ctx" '^box       Linux 6\.1\.0-t        3\.0000        4\.0000 2\.000\?$' \
    "2p/0K: the one-CPU figure is below resolution, the cell is blank (not the two-CPU 5.0)"
like "$(notes_of "$OUT" "Context switching")" \
    '^  box: 2p/0K ctxsw: blank: same_cpu below resolution \(fewer than 10 timer ticks\); --ends two_cpus shows the two_cpus one$' \
    "2p/0K: the note says why and where the two-CPU figure is"
like "$(notes_of "$OUT" "*Local* Communication latencies")" \
    '^  box: AF UNIX: blank: no same_cpu figure; --ends two_cpus shows the two_cpus one' \
    "AF UNIX measured on two CPUs only: blank, said so"
unlike "$(notes_of "$OUT" "*Local* Communication latencies")" '2p/0K' \
    "the 2p/0K cell repeated in the latencies table is explained once"

run "$LMBENCH" see --ends two_cpus "$NOTES"
like "$(table_of "$OUT" "Context switching")" '^box       Linux 6\.1\.0-t 5\.0000 6\.0000$' \
    "--ends two_cpus: the two-CPU figures, the one-CPU ones left out"
like "$(table_of "$OUT" "*Local* Communication latencies")" '^box       Linux 6\.1\.0-t 5\.000 9\.000 12\.0$' \
    "--ends two_cpus: pipe and AF UNIX at two CPUs"
like "$(notes_of "$OUT" "Context switching")" '^  box: 8p/16K ctxsw, 8p/64K ctxsw: blank: no two_cpus figure; --ends same_cpu shows the same_cpu one$' \
    "--ends two_cpus: a cell measured on one CPU only is blank, said so"
like "$OUT" '^     two-ended cells: two_cpus \(--ends\)$' "--ends: the context says which placement"

run "$LMBENCH" see --ends same_cpu "$RAW3"
like "$(table_of "$OUT" "Context switching")" '^vm        Linux 6\.18\.44$' \
    "--ends same_cpu on an lmbench 3 file (unpinned): the context switch cells are blank"
like "$(notes_of "$OUT" "Context switching")" '^  vm: 2p/0K ctxsw, 2p/16K ctxsw, 2p/64K ctxsw, 8p/16K ctxsw, 8p/64K ctxsw, 16p/16K ctxsw, 16p/64K ctxsw: blank: no same_cpu figure; --ends unpinned shows the unpinned one$' \
    "... and the note says the unpinned figures are there"

run "$LMBENCH" see "$NOTES" "$RAW3"
like "$(notes_of "$OUT" "Context switching")" '^  rows of different placements: box same_cpu, vm unpinned$' \
    "rows of different placements in one table: said under it"
unlike "$(notes_of "$OUT" "*Local* Communication bandwidths")" 'rows of different placements' \
    "... and not under a table where only one row has two-ended cells"
like "$(notes_of "$OUT" "*Local* Communication bandwidths")" '^  Mem read: rows of different sizes: box 64 MiB, vm 512 MiB$' \
    "rows of a column measured at different largest sizes: said under the table"

# --- marks and notes ---------------------------------------------------------------------

run "$LMBENCH" see "$NOTES"
like "$(notes_of "$OUT" "Context switching")" \
    '^  box: 8p/64K ctxsw\?: 2 with more data is faster than 8p/16K.s 4 \(both same_cpu\)$' \
    "a switch with 64 KB faster than with 16 KB: marked ?, said why"
proc=$(table_of "$OUT" "Processor, Processes")
like "$proc" '^box       Linux 6\.1\.0-t      0\.11 0\.2\* 1\.00 1\.0\?                100\.$' \
    "processes: null I/O marked *, open marked ? inside the 4-wide cells"
pn=$(notes_of "$OUT" "Processor, Processes")
like "$pn" "^  box: null I/O\\*: read only \\(lmbench 3's is the mean of read and write\\); write: failed \\(write: injected\\)\$" \
    "null I/O from read alone: a substitution, said"
like "$pn" '^  box: spread over 50%, too noisy to trust \(\?\): open clos 88%$' "a spread over 50%: implausible, the cells on one line"
like "$pn" '^  box: measured in a disturbed step \(other work shared the CPUs\): fork proc$' \
    "a cell of a disturbed step is named"
like "$pn" '^  box: spread over 5%: null call 9% \(3 launches\), stat 20%$' \
    "cells whose spread is over 5%: between launches when known, else within the samples"
bw=$(table_of "$OUT" "*Local* Communication bandwidths")
like "$bw" '^box       Linux 6\.1\.0-t                              8000\.\*        20K\? 9000\*$' \
    "bandwidths: Bcopy and Mem write marked *, Mem read marked ?"
bn=$(notes_of "$OUT" "*Local* Communication bandwidths")
like "$bn" 'Bcopy \(libc\)\*: the aligned copy \(conflict\), not lmbench 3.s unaligned copy' \
    "Bcopy from the aligned (conflict) copy: said"
like "$bn" 'Mem read\?: 20000 MB/s at 64 MiB is faster than any size that fits a cache \(at most 10000 MB/s\)' \
    "memory faster than the caches: implausible"
like "$bn" 'Mem write\*: at 32 MiB, not the largest size 64 MiB: timed out' \
    "Mem write from a smaller size than the largest: said"
for t in "Processor, Processes" "Context switching" "*Local* Communication latencies" \
         "*Local* Communication bandwidths"; do
    ok $(widths_kept "$(table_of "$OUT" "$t")"; echo $?) "'$t': marks stay inside lmbench 3's column widths"
done

# --- warnings ------------------------------------------------------------------------------

w=$(printf '%s\n' "$OUT" | sed -n '/^Warnings$/,$p')
like "$w" '^box: load average 6\.50 on 8 CPUs: other work competes with the benchmarks$' \
    "warnings: the run's load"
like "$w" '^box: 2 of 3 steps disturbed \(other work shared their CPUs\): lat_ctx -s 0 \[one CPU\] \(others 35%, retried\), lat_proc fork \(others 50%\)$' \
    "warnings: the disturbed steps, named"
like "$w" '^box: cells said under their tables: 3 implausible \(\?\), 3 not exactly the column.s figure \(\*\), 2 blank, 2 with a spread over 5%$' \
    "warnings: how many cells are said under the tables"
like "$w" '^Marks: \? implausible, \* not exactly the column.s figure' "warnings: what the marks mean"
w3=$(LC_ALL=C "$LMBENCH" see "$RAW3" | sed -n '/^Warnings$/,$p')
like "$w3" '^vm: 2 lines of the file not understood \(lmbench import lists them\)$' \
    "an lmbench 3 file: its lines the import did not understand, counted"
unlike "$w3" '^Marks:' "an lmbench 3 file without marked cells: no legend"

# --- Guesses: a declared cache the curve cannot reach ------------------------------------------

# A virtual machine's view: the system declares a 32 MiB L3, but memory latency
# starts at 2 MiB on the stride curve.
jq '.host.caches = [{"level": 1, "type": "Data", "size": 32768, "line": 64},
                    {"level": 2, "type": "Unified", "size": 1048576, "line": 64},
                    {"level": 3, "type": "Unified", "size": 33554432, "line": 64}]
    | .results = [range(10; 27) as $e | pow(2; $e) as $s |
        {"benchmark": "lat_mem_rd", "case": "stride", "compat": "same", "unit": "ns",
         "better": "lower", "status": "ok", "headline": "median", "samples": [],
         "params": {"size_bytes": $s, "stride_bytes": 128},
         "value": (if $s <= 32768 then 1.0 elif $s <= 1048576 then 4.0 else 80.0 end)}]' \
    "$NOTES" >"$T/vmcache.json"
run "$LMBENCH" see "$T/vmcache.json"
like "$(table_of "$OUT" "Memory latencies")" '^box .* 1\.0000 4\.0000 +80\.0 +L3 \(32 MiB\) unreachable' \
    "Guesses: a declared L3 beyond where memory latency starts is 'unreachable'"
man1=$SRCROOT/doc/lmbench-see.1
for v in unreachable "beyond the sweep" "not seen"; do
    like "$(cat "$man1")" "^\.BI L n \" \(\" size \"\) $v\"\$" "lmbench-see(1) explains a Guesses cell that says '$v'"
done
like "$(cat "$man1")" '^\.BI L n " measured " size ", declared " size$' \
    "lmbench-see(1) explains a Guesses cell that says 'measured ..., declared ...'"

# --- --json and --csv -------------------------------------------------------------------------

run_json "$LMBENCH" see --json "$NOTES"
is "$RC" 0 "--json: exit status 0"
json_checks "$T/json" <<'EOF2'
--json: the file's context, every key
    .files[0].context | .cpu_model == "Test CPU 9000" and .memory_bytes == "17179869184" and (keys | length) == 16
--json: the placement the cells show
    .files[0].placement == "same_cpu"
--json: the run's warnings
    .files[0].warnings | length == 2 and (.[1] | startswith("2 of 3 steps disturbed"))
--json: marks by column
    (.tables[] | select(.key == "context") | .rows[0].marks) == {"8p_64k": "?"}
--json: a blank cell with a note of kind blank
    (.tables[] | select(.key == "context") | .rows[0].notes[] | select(.column == "2p_0k") | .kind) == "blank"
--json: substituted and implausible notes
    [.tables[] | select(.key == "local_bandwidth") | .rows[0].notes[].kind] == ["substituted", "implausible", "substituted"]
--json: spread in percent where known
    (.tables[] | select(.key == "processes") | .rows[0].spread_percent.stat | . * 10 | round) == 200
--json: the blank cell stays null
    (.tables[] | select(.key == "context") | .rows[0].cells["2p_0k"]) == null
EOF2
run_json "$LMBENCH" see --json "$RAW3"
json_ok "$T/json" '.files[0].context == null and .files[0].placement == "unpinned"' \
    "--json: an lmbench 3 file: context null, placement unpinned"

run "$LMBENCH" see --csv "$NOTES"
is "$RC" 0 "--csv: exit status 0"
like "$OUT" "^$NOTES,box,Linux 6\\.1\\.0-test,context,cpu_model,,Test CPU 9000,,\$" "--csv: context rows"
like "$OUT" "^$NOTES,box,Linux 6\\.1\\.0-test,context,placement,,same_cpu,,\$" "--csv: the placement row"
like "$OUT" "^$NOTES,box,[^,]*,context,8p_64k,us,2,\\?,2 with more data" "--csv: a mark and its note"
like "$OUT" "^$NOTES,box,[^,]*,warnings,run,,load average 6\\.50" "--csv: the run's warnings"

done_testing
