#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian packaging (debian/, mk/deb.mk) stays true of the tree without
# building a package: debian/changelog's version is the VERSION file's, the
# Build-Depends cover what scripts/install-deps installs for the build and
# tests, debian/copyright carries LICENSE's text, the short command names the
# package keeps out of /usr/bin are the Makefile's, debian/rules passes the
# install variables and honours nocheck, and make-deb says why it cannot run
# (not root, a tool missing) with exit status 2. make check-deb builds and
# installs the real package (as root).
. "$(dirname "$0")/../cli/lib.sh"

D=$SRCROOT/debian

# --- the version -------------------------------------------------------------
release=$(cat "$SRCROOT/VERSION")
deb_version=$(sed -n '1s/^lmbench (\([^)]*\)) .*/\1/p' "$D/changelog")
check "debian/changelog's first line names lmbench and a version" test -n "$deb_version"
# VERSION is the release (a tarball's copy may carry +g<commit>).
is "${release%%+*}" "$deb_version" "debian/changelog's version is VERSION's ($release)"
is "$(cat "$D/source/format")" "3.0 (native)" "debian/source/format: 3.0 (native)"
unlike "$deb_version" '-' "a native package's version has no Debian revision"
like "$(sed -n '1p' "$D/changelog")" '^lmbench \([^)]*\) (unstable|UNRELEASED); urgency=(low|medium|high)$' \
    "debian/changelog's first line is a Debian changelog header"
like "$(grep '^ -- ' "$D/changelog" | head -n 1)" \
    '^ -- [^<]+ <[^>]+@[^>]+>  [A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:]{8} [+-][0-9]{4}$' \
    "debian/changelog's trailer line has a name, an address and an RFC 5322 date"

# --- Build-Depends and scripts/install-deps ----------------------------------
# The field's package names, one a line (no versions, no profiles).
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' "$D/control" | sed '$d' |
    sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/[(<].*//; s/^ *//; s/ *$//' | grep -v '^$')
apt_pkgs=$(sed -n 's/^APT_PKGS="\(.*\)"$/\1/p' "$SRCROOT/scripts/install-deps")
check "scripts/install-deps has its APT_PKGS list" test -n "$apt_pkgs"
# gcc and make are build-essential (never Build-Depends); chromium is only for
# the browser tests, which the package build does not run.
for p in $apt_pkgs; do
    case $p in gcc | make | chromium) continue ;; esac
    like "$bdeps" "^$p\$" "Build-Depends has $p (scripts/install-deps installs it)"
done
for p in libcmocka-dev jq perl iproute2 procps; do
    like "$(grep -E "^ +$p[ ,]" "$D/control")" "<!nocheck>" "$p is a test dependency (<!nocheck>)"
done
like "$bdeps" '^debhelper-compat$' "Build-Depends has debhelper-compat"
like "$(grep '^Build-Depends:' "$D/control")" 'debhelper-compat \(= 13\)' "debhelper compat level 13"

# --- debian/copyright ---------------------------------------------------------
# LICENSE's text after its copyright line, as the Expat paragraph holds it.
lic=$(sed -n '/^Permission is hereby granted/,$p' "$SRCROOT/LICENSE")
cpy=$(sed -n '/^License: Expat$/,$p' "$D/copyright" | sed -n '/^ Permission/,$p' |
    sed 's/^ //; s/^\.$//')
is "$cpy" "$lic" "debian/copyright's Expat text is LICENSE's"
like "$(head -n 1 "$D/copyright")" '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' \
    "debian/copyright is machine-readable (DEP-5)"
copyright_line=$(sed -n 's/^Copyright (c) //p' "$SRCROOT/LICENSE")
like "$(grep '^Copyright: ' "$D/copyright")" "^Copyright: $copyright_line\$" \
    "debian/copyright's holder is LICENSE's ($copyright_line)"

# --- the names kept out of /usr/bin -------------------------------------------
short=$(for f in "$SRCROOT"/src/bench/*.c; do
    n=${f##*/}
    n=${n%.c}
    case $n in bw_* | lat_* | lmdd) ;; *) echo "$n" ;; esac
done | sort | tr '\n' ' ')
smoke=$(sed -n 's/^for c in \(.*\); do$/\1/p' "$D/tests/smoke" | tr ' ' '\n' | sort | tr '\n' ' ')
is "$smoke" "$short" "debian/tests/smoke checks the Makefile's short names in libexec: $short"
desc=$(sed -n '/^Description:/,$p' "$D/control" | tr -d '\n' | sed 's/  */ /g')
for n in $short; do
    like "$desc" "[( ]$n[,)]" "debian/control's Description names $n among the libexec commands"
done
for f in README.md $(sed -n 's,^\(doc/[^*]*\)$,\1,p' "$D/lmbench.docs"); do
    check "debian/lmbench.docs: $f is there" test -f "$SRCROOT/$f"
done

# --- debian/rules -------------------------------------------------------------
if [ -f /usr/share/dpkg/buildflags.mk ] && [ -f /usr/share/dpkg/buildtools.mk ]; then
    inst=$(cd "$SRCROOT" && make --no-print-directory -f debian/rules -n override_dh_auto_install 2>&1)
    for v in PREFIX=/usr BINDIR=/usr/bin LIBEXECDIR=/usr/libexec/lmbench MANDIR=/usr/share/man \
        PLAIN_NAMES=no B=debian/build; do
        like "$inst" " $v( |\$)" "debian/rules installs with $v"
    done
    like "$inst" "CFLAGS='[^']*-D_FORTIFY_SOURCE=[0-9]" "debian/rules builds with dpkg's CPPFLAGS in CFLAGS"
    like "$inst" "LDFLAGS='[^']*-z,now" "debian/rules links with hardening=+all (bindnow)"
    unlike "$(printf '%s\n' "$inst" | grep -o "CFLAGS='[^']*'")" 'prefix-map' \
        "the recorded CFLAGS carry no build directory (-ffile-prefix-map goes with CC)"
    tst=$(cd "$SRCROOT" && DEB_BUILD_OPTIONS=nocheck make --no-print-directory -f debian/rules \
        -n override_dh_auto_test 2>&1)
    like "$tst" '^echo "debian/rules: tests not run' "DEB_BUILD_OPTIONS=nocheck: no test runs"
    unlike "$tst" 'prove|^dh ' "DEB_BUILD_OPTIONS=nocheck: no prove, no dh sequence"
    tst=$(cd "$SRCROOT" && DEB_BUILD_OPTIONS= make --no-print-directory -f debian/rules \
        -n override_dh_auto_test 2>&1)
    like "$tst" "^CMOCKA_MESSAGE_OUTPUT=TAP prove .*tests/unit/test_" "the build runs the unit tests"
    like "$tst" "prove .*tests/cli/lat_syscall.t" "and a few command tests"
    for t in $(printf '%s\n' "$tst" | grep -o 'tests/cli/[a-z_]*\.t'); do
        check "debian/rules' command test $t is there" test -f "$SRCROOT/$t"
    done
else
    skip "debian/rules: dpkg-dev's makefiles are not installed (scripts/install-deps --packaging)"
fi

# --- make deb, make check-deb -------------------------------------------------
run make --no-print-directory -C "$SRCROOT" -n deb check-deb
cmds=$(printf '%s\n' "$OUT" | sed -e ':a' -e '/\\$/{N;s/ *\\\n[[:space:]]*/ /;ba' -e '}')
like "$cmds" "debian/make-deb' build '$SRCROOT' '$SRCROOT/release/deb' '$release" \
    "make -n deb: debian/make-deb build into release/deb with the version"
like "$OUT" "debian/make-deb' check " "make -n check-deb: debian/make-deb check"

# Stand-ins: id says a user; a PATH without the package tools.
mkdir -p "$T/user" "$T/bare"
printf '#!/bin/sh\necho 1000\n' >"$T/user/id"
chmod +x "$T/user/id"
run env PATH="$T/user:$PATH" sh "$D/make-deb" check "$SRCROOT" "$T/debs" "$release"
is "$RC" 2 "make-deb check, not root: exit status 2"
like "$ERR" 'run as root' "it says it must run as root"
for tool in sh cat sed id mktemp rm; do
    ln -s "$(command -v "$tool")" "$T/bare/$tool"
done
run env PATH="$T/bare" sh "$D/make-deb" build "$SRCROOT" "$T/debs" "$release"
is "$RC" 2 "make-deb build without dpkg-buildpackage: exit status 2"
like "$ERR" 'missing:.*dpkg-buildpackage.*scripts/install-deps --packaging' \
    "it names what is missing and scripts/install-deps --packaging"
check "nothing was built" test ! -e "$T/debs"
run sh "$D/make-deb" frob "$SRCROOT" "$T/debs" "$release"
is "$RC" 2 "make-deb with an unknown mode: exit status 2"
check "debian/tests/smoke is a valid sh script" sh -n "$D/tests/smoke"
check "debian/rules is executable" test -x "$D/rules"

done_testing
