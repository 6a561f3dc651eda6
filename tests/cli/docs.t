#!/bin/sh
# SPDX-License-Identifier: MIT
# The documents in doc/ that list every command stay true of the build: each
# command of `lmbench list` is in lmbench(1)'s BENCHMARKS and SEE ALSO, and its
# usage line in doc/commands.md is the one its --help prints; nothing is listed
# there that the binary does not have.
. "$(dirname "$0")/lib.sh"

MAN1=$SRCROOT/doc/lmbench.1
CMDS=$SRCROOT/doc/commands.md

run "$LMBENCH" list
is "$RC" 0 "lmbench list: exit status 0"
LIST=$OUT

bench_part=$(sed -n '/^\.SH BENCHMARKS/,/^\.SH /p' "$MAN1")
see_part=$(sed -n '/^\.SH SEE ALSO/,$p' "$MAN1")
for n in $(printf '%s\n' "$LIST" | awk 'NF { print $1 }'); do
    cat=$(printf '%s\n' "$LIST" | awk -v n="$n" '$1 == n { print $2 }')
    like "$bench_part" "^\\.BR $n \\(1\\)\$" "lmbench(1) BENCHMARKS lists $n"
    like "$see_part" "^\\.BR $n \\(1\\),\$" "lmbench(1) SEE ALSO names $n"
    run "$BIN/$n" --help
    usage=$(printf '%s\n' "$OUT" | head -n 1 | sed "s/^Usage: $n //; s/|/\\\\|/g")
    row=$(grep -F "| $n | " "$CMDS" | head -n 1)
    is "$row" "$(printf '%s' "$row" | grep -F "| $n | \`$usage\` |")" \
        "doc/commands.md: $n's usage is what --help prints"
    check "doc/commands.md: $n has a row" test -n "$row"
    # The category heading above the row is the one lmbench list gives.
    heading=$(awk -v n="$n" '/^### /{ h = $0 } index($0, "| " n " | ") == 1 { print h; exit }' "$CMDS")
    like "$heading" "\\(\`$cat\`\\)" "doc/commands.md: $n is under category $cat"
done

# Nothing documented that the binary lacks.
for n in $(sed -n 's/^\.BR \([a-z_0-9]*\) (1)$/\1/p' "$MAN1"); do
    like "$LIST" "^$n " "lmbench(1) BENCHMARKS: $n is a command"
done
for n in $(sed -n '/^## The commands/,/^## The suite verbs/s/^| \([a-z_0-9]*\) | .*/\1/p' "$CMDS" | grep -vx command); do
    like "$LIST" "^$n " "doc/commands.md: $n is a command"
done

done_testing
