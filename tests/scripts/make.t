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

R=$T/root
mk DESTDIR="$R" PREFIX=/usr install
is "$RC" 0 "make install DESTDIR PREFIX=/usr: exit status 0"
check "lmbench in bin, executable" test -f "$R/usr/bin/lmbench" -a -x "$R/usr/bin/lmbench"
for n in $NAMES; do
    case $n in
    bw_* | lat_* | lmdd)
        ok $([ -L "$R/usr/bin/$n" ] && [ "$(readlink "$R/usr/bin/$n")" = lmbench ]; echo $?) \
            "$n: a link to lmbench in bin"
        ;;
    *)
        ok $([ -L "$R/usr/libexec/lmbench/$n" ] && [ "$(readlink "$R/usr/libexec/lmbench/$n")" = /usr/bin/lmbench ]; echo $?) \
            "$n: a link to /usr/bin/lmbench in libexec/lmbench"
        ;;
    esac
done
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
check "make uninstall: libexec/lmbench removed" test ! -e "$R/usr/libexec/lmbench"
mk DESTDIR="$R" PREFIX=/usr uninstall
is "$RC" 0 "make uninstall a second time: exit status 0"

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
