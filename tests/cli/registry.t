#!/bin/sh
# SPDX-License-Identifier: MIT
# The registry: every src/bench/NAME.c is a command with its link, its man page,
# its test script, its line in `lmbench list` and its --help; and nothing is
# listed that has no file.
. "$(dirname "$0")/lib.sh"

run "$LMBENCH" list
LIST=$OUT
is "$RC" 0 "lmbench list: exit status 0"

NAMES=
for f in "$SRCROOT"/src/bench/*.c; do
    [ -e "$f" ] || continue
    n=${f##*/}
    NAMES="$NAMES ${n%.c}"
done
check "there are benchmark files in src/bench" test -n "$NAMES"

for n in $NAMES; do
    ok $([ -L "$BIN/$n" ] && [ "$(readlink "$BIN/$n")" = lmbench ] || [ "$BIN/$n" -ef "$LMBENCH" ]; echo $?) \
        "$n: $BIN/$n is a link to lmbench"
    check "$n: doc/$n.1 exists" test -s "$SRCROOT/doc/$n.1"
    check "$n: tests/cli/$n.t exists and is executable" test -x "$SRCROOT/tests/cli/$n.t"
    like "$LIST" "^$n " "$n: lmbench list shows it"
    run "$BIN/$n" --help
    ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | head -n 1 | grep -Eq "^Usage: $n( |\$)"; echo $?) \
        "$n: --help exits 0 and its first line starts with 'Usage: $n'"
    like "$OUT" "^See $n\\(1\\)\\.\$" "$n: --help points to $n(1)"
done

# Nothing listed without a file, no stray link.
for n in $(printf '%s\n' "$LIST" | awk '{ print $1 }'); do
    check "listed $n has src/bench/$n.c" test -f "$SRCROOT/src/bench/$n.c"
done
for l in "$BIN"/*; do
    [ -L "$l" ] || continue
    n=${l##*/}
    check "link $n in $BIN has src/bench/$n.c" test -f "$SRCROOT/src/bench/$n.c"
done

# Every test script follows the conventions prove needs.
for t in "$SRCROOT"/tests/cli/*.t; do
    n=${t##*/}
    ok $([ -x "$t" ] && [ "$(head -n 1 "$t")" = '#!/bin/sh' ]; echo $?) \
        "tests/cli/$n is executable with a #!/bin/sh line"
done

done_testing
