#!/bin/sh
# SPDX-License-Identifier: MIT
# The Makefile's own promises: make install puts every file where the README
# says, make uninstall removes every one of them; a link left by a command whose
# file is gone is removed; a changed compiler flag or optional library rebuilds
# the objects. All of it on a copy of the build directory, so the build under
# test is never touched.
. "$(dirname "$0")/../cli/lib.sh"

if [ "$EMULATED" = yes ]; then
    plan 1
    skip "the Makefile's tests run on the build machine only"
    done_testing
fi

# make from the source tree, on the copy, with the variables of the make that
# runs the tests (MAKEFLAGS) but not its jobserver.
MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" | sed -E 's/(^| )--jobserver-(auth|fds)=[^ ]*//g')
export MAKEFLAGS
unset MAKELEVEL MFLAGS
mk() {
    run make --no-print-directory -C "$SRCROOT" B="$COPY" "$@"
}

COPY=$T/build
if ! cp -a "$LMBENCH_BUILD" "$COPY"; then
    echo "Bail out! cannot copy $LMBENCH_BUILD"
    exit 255
fi
# The command names, from src/bench, as the Makefile sees them.
NAMES=
for f in "$SRCROOT"/src/bench/*.c; do
    [ -e "$f" ] || continue
    n=${f##*/}
    NAMES="$NAMES ${n%.c}"
done

# --- what the binary links ------------------------------------------------------------

# No libtirpc (lat_rpc loads it when it runs), and no libjansson where the build
# links libjansson.a: the processes lat_proc and lat_cmd fork stay small.
if command -v readelf >/dev/null 2>&1; then
    needed=$(readelf -d "$COPY/bin/lmbench" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' | tr '\n' ' ')
    unlike "$needed" 'libtirpc|libgssapi|libkrb5' "lmbench needs no libtirpc or Kerberos library ($needed)"
    if grep -q 'libjansson\.a' "$COPY/gen/flags" 2>/dev/null; then
        unlike "$needed" 'libjansson' "lmbench needs no libjansson (linked from libjansson.a)"
    else
        skip "libjansson: this build links the shared library (or none)"
    fi
else
    skip "what lmbench links: no readelf"
    skip "libjansson: no readelf"
fi

# --- install ---------------------------------------------------------------------

# Every command name is a command in bin (lmbench 3 installed them all in one
# directory); the names that do not start with bw_ or lat_ (nor lmdd) are links
# in libexec/lmbench as well.
is_bin_link() {
    [ -L "$1/usr/bin/$2" ] && [ "$(readlink "$1/usr/bin/$2")" = lmbench ]
}
is_libexec_link() {
    [ -L "$1/usr/libexec/lmbench/$2" ] && [ "$(readlink "$1/usr/libexec/lmbench/$2")" = /usr/bin/lmbench ]
}
R=$T/root
mk DESTDIR="$R" PREFIX=/usr install
is "$RC" 0 "make install DESTDIR PREFIX=/usr: exit status 0"
check "lmbench in bin, executable" test -f "$R/usr/bin/lmbench" -a -x "$R/usr/bin/lmbench"
LISTED=$("$COPY/bin/lmbench" list | awk '{ print $1 }' | sort | tr '\n' ' ')
is "$LISTED" "$(printf '%s\n' $NAMES | sort | tr '\n' ' ')" "lmbench list names the commands of src/bench"
SHORT=
for n in $NAMES; do
    ok $(is_bin_link "$R" "$n"; echo $?) "$n: a link to lmbench in bin"
    case $n in
    bw_* | lat_* | lmdd) ;;
    *)
        SHORT="$SHORT $n"
        ok $(is_libexec_link "$R" "$n"; echo $?) "$n: also a link to /usr/bin/lmbench in libexec/lmbench"
        ;;
    esac
done
run "$R/usr/bin/mhz" --help
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | head -n 1 | grep -q '^Usage: mhz'; echo $?) \
    "the installed bin/mhz is the command mhz (--help: exit 0, 'Usage: mhz')"
check "hello in libexec/lmbench, executable" test -x "$R/usr/libexec/lmbench/hello"
for m in "$SRCROOT"/doc/*.1; do
    [ -e "$m" ] || continue
    check "man page ${m##*/} in share/man/man1" test -f "$R/usr/share/man/man1/${m##*/}"
done
run "$R/usr/bin/lmbench" version
is "$RC" 0 "the installed lmbench runs"

# --- uninstall: nothing of ours is left ----------------------------------------------

mk DESTDIR="$R" PREFIX=/usr uninstall
is "$RC" 0 "make uninstall: exit status 0"
is "$(cd "$R" && find . ! -type d | sort)" "" "make uninstall: no file or link left"
is "$(cd "$R" && find . -mindepth 1 | sort | tr '\n' ' ')" "" \
    "make uninstall under DESTDIR: no directory left either (usr/bin, usr/libexec/lmbench, usr/share/...)"
check "make uninstall: DESTDIR itself stays" test -d "$R"
mk DESTDIR="$R" PREFIX=/usr uninstall
is "$RC" 0 "make uninstall a second time: exit status 0"

# Without DESTDIR, the standard directories stay (make cannot know who made
# them); lmbench's own go.
P=$T/prefix
mk PREFIX="$P" install
is "$RC" 0 "make install PREFIX=DIR: exit status 0"
mk PREFIX="$P" uninstall
is "$RC" 0 "make uninstall PREFIX=DIR: exit status 0"
is "$(cd "$P" && find . ! -type d | sort)" "" "make uninstall PREFIX=DIR: no file or link left"
check "... libexec/lmbench removed" test ! -e "$P/libexec/lmbench"
check "... share/lmbench removed" test ! -e "$P/share/lmbench"
check "... bin and share/man/man1 stay (not lmbench's own)" test -d "$P/bin" -a -d "$P/share/man/man1"
rm -rf "$P"

# --- names another package may use -----------------------------------------------------

# PLAIN_NAMES=no: the short names only in libexec/lmbench (lmbench NAME runs
# them); an install over a default one removes lmbench's links of them from bin.
mk DESTDIR="$R" PREFIX=/usr install
mk DESTDIR="$R" PREFIX=/usr PLAIN_NAMES=no install
is "$RC" 0 "make install PLAIN_NAMES=no: exit status 0"
n_bin=0 n_lx=0
for n in $SHORT; do
    is_bin_link "$R" "$n" || [ -e "$R/usr/bin/$n" ] || n_bin=$((n_bin + 1))
    is_libexec_link "$R" "$n" && n_lx=$((n_lx + 1))
done
set -- $SHORT
is "$n_bin" "$#" "PLAIN_NAMES=no: none of the $# short names in bin (over a default install)"
is "$n_lx" "$#" "PLAIN_NAMES=no: each in libexec/lmbench"
ok $(is_bin_link "$R" bw_mem && is_bin_link "$R" lat_syscall && is_bin_link "$R" lmdd; echo $?) \
    "PLAIN_NAMES=no: bw_*, lat_* and lmdd still in bin"
run "$R/usr/bin/lmbench" mhz --help
is "$RC" 0 "PLAIN_NAMES=no: lmbench mhz runs mhz"
mk DESTDIR="$R" PREFIX=/usr PLAIN_SKIP=stream install
ok $([ ! -e "$R/usr/bin/stream" ] && is_bin_link "$R" mhz && is_bin_link "$R" line; echo $?) \
    "PLAIN_SKIP=stream: stream alone left out of bin"
mk DESTDIR="$R" PREFIX=/usr PLAIN_NAMES=maybe install
ok $([ "$RC" != 0 ] && printf '%s\n' "$ERR" | grep -q 'PLAIN_NAMES must be yes or no'; echo $?) \
    "PLAIN_NAMES=maybe: make fails, saying yes or no"
mk DESTDIR="$R" PREFIX=/usr PLAIN_SKIP=steam install
ok $([ "$RC" != 0 ] && printf '%s\n' "$ERR" | grep -q 'PLAIN_SKIP: not a command name: steam'; echo $?) \
    "PLAIN_SKIP=steam: make fails, naming the name"
mk DESTDIR="$R" PREFIX=/usr uninstall
is "$(cd "$R" && find . -mindepth 1 | sort | tr '\n' ' ')" "" "uninstall after those: nothing left"

# A file in bin that is not lmbench's is never overwritten, nor removed.
mkdir -p "$R/usr/bin"
printf '#!/bin/sh\necho foreign\n' >"$R/usr/bin/stream"
chmod 755 "$R/usr/bin/stream"
ln -s /usr/bin/true "$R/usr/bin/line"
mk DESTDIR="$R" PREFIX=/usr install
is "$RC" 0 "make install over a foreign bin/stream: exit status 0"
is "$(cat "$R/usr/bin/stream")" "$(printf '#!/bin/sh\necho foreign')" "... the foreign stream is not overwritten"
is "$(readlink "$R/usr/bin/line")" /usr/bin/true "... nor a foreign link bin/line"
like "$ERR" "warning: /usr/bin/stream is not lmbench's: left alone \\('lmbench stream' runs" \
    "... and make install says so"
ok $(is_bin_link "$R" mhz; echo $?) "... the other names are installed"
mk DESTDIR="$R" PREFIX=/usr uninstall
is "$RC" 0 "make uninstall with a foreign bin/stream: exit status 0"
is "$(cd "$R" && find . -mindepth 1 | sort | tr '\n' ' ')" "./usr ./usr/bin ./usr/bin/line ./usr/bin/stream " \
    "make uninstall leaves the foreign files (and their directory), nothing else"
like "$OUT" "/usr/bin/stream is not lmbench's: left alone" "... and says so"
rm -rf "$R"

# A command of the same name elsewhere on PATH: make install names it and says
# how to keep ours out of bin.
mkdir -p "$T/other"
printf '#!/bin/sh\n' >"$T/other/tlb"
chmod 755 "$T/other/tlb"
save_path=$PATH
PATH=$T/other:$PATH
mk DESTDIR="$R" PREFIX=/usr install
PATH=$save_path
like "$OUT" "note: tlb is also $T/other/tlb; whichever of it and /usr/bin/tlb comes first in PATH runs" \
    "a tlb elsewhere on PATH: make install notes it"
like "$OUT" "PLAIN_SKIP=tlb \\(or PLAIN_NAMES=no\\) leaves tlb out of /usr/bin" "... and says how to avoid it"
unlike "$OUT" "note: (mhz|lat_syscall) is also" "... and notes nothing else of that directory"
ok $(is_bin_link "$R" tlb; echo $?) "... ours is installed all the same"
mk DESTDIR="$R" PREFIX=/usr uninstall
rm -rf "$R"

# --- make results, make see (lmbench 3's top-level targets) ----------------------------

mk -n results
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -qx "$COPY/bin/lmbench run *"; echo $?) \
    "make -n results: runs '$COPY/bin/lmbench run' (run's default profile and ./results)"
unlike "$OUT" "Nothing to be done|is up to date" "make -n results: never 'Nothing to be done'"
mk -n results PROFILE=quick RUN_ARGS="-o $T/res --groups os"
ok $(printf '%s\n' "$OUT" | grep -qx "$COPY/bin/lmbench run --profile 'quick' -o $T/res --groups os"; echo $?) \
    "make -n results PROFILE=quick RUN_ARGS=...: passes them to lmbench run"
mk -p -n -q results
phony=$(printf '%s\n' "$OUT" | sed -n 's/^\.PHONY: //p')
ok $(printf ' %s \n' "$phony" | grep -q ' results ' && printf ' %s \n' "$phony" | grep -q ' see '; echo $?) \
    "results and see are .PHONY: an existing results/ never stops them"
mk -s results PROFILE=quick RUN_ARGS=--list
is "$RC" 0 "make results PROFILE=quick RUN_ARGS=--list: exit status 0"
is "$OUT" "$("$COPY/bin/lmbench" run --profile quick --list)" "... prints lmbench run's quick plan"
mkdir -p "$T/res"
cp "$SRCROOT/tests/fixtures/lmbench3-x86_64-linux-vm.0" "$T/res/"
mk -s see SEE_ARGS="$T/res"
is "$RC" 0 "make see SEE_ARGS=DIR: exit status 0"
is "$OUT" "$("$COPY/bin/lmbench" see "$T/res")" "make see: lmbench see's summary page"
mk -s see SEE_ARGS="$T/none"
isnt "$RC" 0 "make see with no results there: fails"
like "$ERR" "^lmbench see: " "... with see's own message"

# --- install-strip ------------------------------------------------------------------

mk DESTDIR="$R" PREFIX=/usr install-strip
is "$RC" 0 "make install-strip: exit status 0"
ok $([ "$(wc -c <"$R/usr/bin/lmbench")" -lt "$(wc -c <"$COPY/bin/lmbench")" ]; echo $?) \
    "make install-strip: the installed lmbench is smaller than the built one"
run "$R/usr/bin/lmbench" version
is "$RC" 0 "make install-strip: the stripped lmbench runs"
mk DESTDIR="$R" PREFIX=/usr uninstall
is "$(cd "$R" && find . ! -type d | sort)" "" "make uninstall after install-strip: nothing left"

# --- stale command links -------------------------------------------------------------

ln -s lmbench "$COPY/bin/lat_gone"
ln -s lmbench "$COPY/bin/bw_gone"
mk all
is "$RC" 0 "make with stale links in bin: exit status 0"
check "a link whose src/bench file is gone is removed" test ! -e "$COPY/bin/lat_gone" -a ! -L "$COPY/bin/lat_gone"
check "... every such link" test ! -L "$COPY/bin/bw_gone"
for n in $NAMES; do
    check "the link of $n stays" test -L "$COPY/bin/$n"
done

# --- a changed configuration rebuilds --------------------------------------------------

OBJ=$COPY/obj/src/lib/report.o
mk "$OBJ"
is "$(printf '%s\n' "$OUT" | grep -c ' -c -o ')" 0 "same flags: report.o is not compiled again"
mk CFLAGS="-O1 -g" "$OBJ"
like "$OUT" " -O1 -g .*-c -o $OBJ " "CFLAGS changed: report.o is compiled again, with them"
mk CFLAGS="-O1 -g" "$OBJ"
is "$(printf '%s\n' "$OUT" | grep -c ' -c -o ')" 0 "CFLAGS as last time: nothing compiled"
mk CFLAGS="-O1 -g" JANSSON=no "$OBJ"
ok $(printf '%s\n' "$OUT" | grep -e "-c -o $OBJ " | grep -qv LMB_HAVE_JANSSON; echo $?) \
    "JSON support changed: report.o is compiled again, without LMB_HAVE_JANSSON"
mk CFLAGS="-O1 -g" JANSSON=no all
is "$RC" 0 "JANSSON=no: the rest relinks (exit status 0)"
[ "$RC" = 0 ] || diag "$(printf '%s\n' "$ERR" | tail -n 20)"
run "$COPY/bin/lat_syscall" --json -N 1 null
is "$RC" 3 "JANSSON=no: --json is skipped (exit 3) in the relinked binary"
like "$ERR" 'without jansson' "JANSSON=no: says built without jansson"

done_testing
