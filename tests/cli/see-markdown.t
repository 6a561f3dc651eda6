#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench see --markdown: the summary page as Markdown tables (GitHub,
# CommonMark): a heading per table, a header row, an alignment row with the
# numbers right-aligned, every row with the header's number of cells, '|' in a
# cell escaped; exclusive with --json and --csv. And colour on the text page:
# only on a terminal (a pseudo-terminal made by script(1)), never in a pipe,
# never with NO_COLOR, never in --markdown; the text under the colour is the
# plain page, byte for byte.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

# The cells of a Markdown table row: the '|' that are not escaped, less one.
md_cells() {
    printf '%s\n' "$1" | sed 's/\\\\//g; s/\\|//g' | awk -F'|' '{ print NF - 2 }'
}

# Checks every table of a Markdown page: a header row right under a heading
# (after a blank line), an alignment row of as many cells, rows of as many
# cells; prints the first fault, or nothing.
md_tables_ok() {
    awk '
        function cells(s,   t) { t = s; gsub(/\\\\/, "", t); gsub(/\\\|/, "", t); return gsub(/\|/, "|", t) - 1 }
        /^\|/ {
            if (!intable) {
                intable = 1; head = cells($0); nrow = 0
                if (prev != "" ) { print "line " NR ": a table not after a blank line"; exit 1 }
                if (heading == "") { print "line " NR ": a table without a heading"; exit 1 }
                next
            }
            nrow++
            if (nrow == 1 && $0 !~ /^\|( *:?-+:? *\|)+$/) { print "line " NR ": no alignment row"; exit 1 }
            if (cells($0) != head) { print "line " NR ": " cells($0) " cells, the header has " head; exit 1 }
            next
        }
        { if (intable && nrow < 2) { print "line " NR ": a table without rows"; exit 1 }
          intable = 0; prev = $0 }
        /^#+ / { heading = $0 }
        END { }' "$1"
}

# The lines of the Markdown table under the heading whose text starts with $2.
md_table() {
    awk -v t="$2" 'index($0, t) == 1 { on = 1; next } on && /^\|/ { print; seen = 1; next } on && seen { exit }' "$1"
}

run "$LMBENCH" see --markdown "$RAW3"
is "$RC" 0 "--markdown: exit status 0"
is "$ERR" "" "--markdown: nothing on stderr"
cp "$T/out" "$T/md"
is "$(md_tables_ok "$T/md")" "" "--markdown: every table has a heading, a header row, an alignment row, rows of the header's cells"
unlike "$OUT" "$(printf '\033')" "--markdown: no escape sequences"
like "$OUT" '^# lmbench summary' "--markdown: a heading for the page"
like "$OUT" '^## Context$' "--markdown: the Context heading"
like "$OUT" '^- vm: context unknown \(an lmbench 3 file\); two-ended cells: unpinned' "--markdown: each file's context as a list item"
# Every table of the text page, by title, each under its own heading.
"$LMBENCH" see "$RAW3" >"$T/text"
ntext=$(grep -c -E '(smaller|bigger) is better$|^Basic system parameters$' "$T/text")
nmd=$(grep -c '^## .*\(is better\|Basic system parameters\)$' "$T/md")
is "$nmd" "$ntext" "--markdown: a heading per table of the text page ($ntext)"
like "$OUT" '^## \\\*Local\\\* Communication latencies in microseconds - smaller is better$' \
    "--markdown: the title's asterisks escaped (not read as emphasis)"
proc=$(md_table "$T/md" "## Processor, Processes")
like "$proc" '^\| Host \| OS \| Mhz \| null call \| null I/O \| stat \| open clos \| slct TCP \| sig inst \| sig hndl \| fork proc \| exec proc \| sh proc \|$' \
    "--markdown: the header row names every column"
like "$proc" '^\|---\|---\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|$' \
    "--markdown: host and OS left-aligned, the numbers right-aligned"
like "$proc" '^\| vm \| Linux 6\.18\.44-fc-v782 \| 4103 \| 0\.0524 \| ' \
    "--markdown: a row: the host, the whole OS, the numbers to 4 significant digits"
bw=$(md_table "$T/md" "## \\*Local\\* Communication bandwidths")
like "$bw" '^\| vm \| [^|]* \| 7194 \| 18[0-9]{3} \| [0-9]{5} \| [0-9]{5} \| [0-9]{5} \| 22110 \| [0-9]{5} \| 29014 \| 7888 \|$' \
    "--markdown: large numbers whole, not cut to lmbench 3's widths (29014, not 29.K)"
basic=$(md_table "$T/md" "## Basic system parameters")
like "$basic" '^\|---\|---\|---\|---:\|' "--markdown: the Description text left-aligned"
mem=$(md_table "$T/md" "## Memory latencies")
like "$mem" '\| Guesses \|$' "--markdown: the memory table's Guesses column"
like "$mem" ':\|---\|$' "--markdown: Guesses (text) left-aligned"
like "$OUT" '^## Warnings$' "--markdown: the Warnings heading"
like "$OUT" '^- vm: 2 lines of the file not understood' "--markdown: a warning as a list item"

# A '|' in a cell (a host name) is escaped; the rows keep their cells.
sed 's/^\[HOSTNAME: vm\]$/[HOSTNAME: v|m]/' "$RAW3" >"$T/pipe.0"
run "$LMBENCH" see --markdown "$T/pipe.0"
cp "$T/out" "$T/md2"
is "$RC" 0 "--markdown, a host name with '|': exit status 0"
like "$OUT" '^\| v\\\|m \| ' "--markdown: the '|' of a cell escaped"
is "$(md_tables_ok "$T/md2")" "" "--markdown: with an escaped '|', every row still has the header's cells"

run "$LMBENCH" see --markdown --percent "$RAW3" "$RAW3"
like "$OUT" '^## Processor, Processes - times in percent of the best in each column - smaller is better$' \
    "--markdown --percent: the titles say percent"
like "$OUT" '^# lmbench summary .*percent of the best' "--markdown --percent: the page's heading says so"

verb_usage_error see --markdown --json "$RAW3"
verb_usage_error see --csv --markdown "$RAW3"

# --- colour ----------------------------------------------------------------------------

ESC=$(printf '\033')
# A terminal: script(1) runs the command on a pseudo-terminal.
on_tty() {
    script -qfec "$1" /dev/null </dev/null 2>/dev/null | tr -d '\r'
}
if command -v script >/dev/null 2>&1 && script -qfec true /dev/null </dev/null >/dev/null 2>&1; then
    tty=$(TERM=xterm NO_COLOR= on_tty "'$LMBENCH' see '$RAW3'")
    like "$tty" "^${ESC}\\[1mBasic system parameters${ESC}\\[0m\$" "on a terminal: table titles bold"
    like "$tty" "  ${ESC}\\[2mmain mem prefetched" "on a terminal: the Guesses (not a measurement) dim"
    printf '%s\n' "$tty" | sed "s/${ESC}\\[[0-9;]*m//g" >"$T/tty.plain"
    "$LMBENCH" see "$RAW3" >"$T/pipe.txt"
    ok $(cmp -s "$T/tty.plain" "$T/pipe.txt"; echo $?) "on a terminal: without its colour, the page is the plain page"
    cmp -s "$T/tty.plain" "$T/pipe.txt" || diag_text "diff" "$(diff "$T/pipe.txt" "$T/tty.plain")"
    tty=$(TERM=xterm NO_COLOR=1 on_tty "'$LMBENCH' see '$RAW3'")
    unlike "$tty" "$ESC" "on a terminal with NO_COLOR=1: no colour"
    tty=$(TERM=dumb NO_COLOR= on_tty "'$LMBENCH' see '$RAW3'")
    unlike "$tty" "$ESC" "on a terminal with TERM=dumb: no colour"
    tty=$(TERM=xterm NO_COLOR= on_tty "'$LMBENCH' see '$RAW3' | cat")
    unlike "$tty" "$ESC" "into a pipe (from a terminal): no colour"
    tty=$(TERM=xterm NO_COLOR= on_tty "'$LMBENCH' see --markdown '$RAW3'")
    unlike "$tty" "$ESC" "--markdown on a terminal: no colour (it is for pasting)"
    tty=$(TERM=xterm NO_COLOR= on_tty "'$LMBENCH' see --csv '$RAW3'")
    unlike "$tty" "$ESC" "--csv on a terminal: no colour"
    if json_usable; then
        NOTES=$FIXTURES/see-notes.json
        tty=$(TERM=xterm NO_COLOR= on_tty "'$LMBENCH' see '$NOTES'")
        like "$tty" " ${ESC}\\[33m1\\.0\\?${ESC}\\[0m" "on a terminal: an implausible (?) cell yellow"
        like "$tty" " ${ESC}\\[2m0\\.2\\*${ESC}\\[0m" "on a terminal: a substituted (*) cell dim"
        like "$tty" "^${ESC}\\[1mWarnings${ESC}\\[0m\$" "on a terminal: the Warnings heading bold"
        printf '%s\n' "$tty" | sed "s/${ESC}\\[[0-9;]*m//g" >"$T/tty.plain"
        "$LMBENCH" see "$NOTES" >"$T/pipe.txt"
        ok $(cmp -s "$T/tty.plain" "$T/pipe.txt"; echo $?) "marked cells on a terminal: without colour, the plain page"
        cmp -s "$T/tty.plain" "$T/pipe.txt" || diag_text "diff" "$(diff "$T/pipe.txt" "$T/tty.plain")"
        run "$LMBENCH" see --markdown "$NOTES"
        cp "$T/out" "$T/md3"
        is "$(md_tables_ok "$T/md3")" "" "--markdown of a run with marks and notes: every table well formed"
        like "$OUT" '^\| box \| Linux 6\.1\.0-test \| ([0-9]+ )?\| 0\.11 \| 0\.2\* \| 1 \| 1\? \|' \
            "--markdown: marked cells keep their marks"
        like "$OUT" '^- box: null I/O\\\*: read only' "--markdown: the notes under a table as list items, '*' escaped"
    else
        skip "colour of marked cells: jq missing or built without jansson"
        skip "colour of marked cells: jq missing or built without jansson"
        skip "colour of marked cells: jq missing or built without jansson"
        skip "colour of marked cells: jq missing or built without jansson"
        skip "markdown of marks: jq missing or built without jansson"
        skip "markdown of marks: jq missing or built without jansson"
        skip "markdown of marks: jq missing or built without jansson"
    fi
else
    skip "colour: script(1) (util-linux) cannot make a terminal here"
fi

done_testing
