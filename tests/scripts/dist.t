#!/bin/sh
# SPDX-License-Identifier: MIT
# make dist (mk/dist.mk), on a clone of this checkout's HEAD so that what others
# have not committed never enters: the tarball holds exactly git's files under
# lmbench-VERSION/, its VERSION and spec hold the version, it has no .git, two
# runs make the same bytes, the unpacked tree plans its build without git, and
# make dist there says it needs git; a changed tracked file gives a warning and
# a .dirty version, DIST_CLEAN=1 refuses it; an interrupted make distcheck
# (SIGINT) leaves no temporary directory. Under a minute: no full build.
. "$(dirname "$0")/../cli/lib.sh"

if [ "$EMULATED" = yes ]; then
    plan 1
    skip "make dist runs on the build machine only"
    done_testing
fi
if ! command -v git >/dev/null 2>&1; then
    plan 1
    skip "no git: make dist needs it"
    done_testing
fi
if [ ! -e "$SRCROOT/.git" ]; then
    plan 1
    skip "$SRCROOT is no git checkout (an unpacked tarball): make dist needs one"
    done_testing
fi

# make with none of the calling make's variables or jobserver.
unset MAKEFLAGS MAKELEVEL MFLAGS
mk() {
    _d=$1
    shift
    run make --no-print-directory -C "$_d" "$@"
}

C=$T/clone
if ! git clone -q --no-hardlinks "$SRCROOT" "$C" 2>"$T/clone.err"; then
    echo "Bail out! git clone of $SRCROOT failed: $(cat "$T/clone.err")"
    exit 255
fi
# The version make computes in the clone: VERSION, +g and the short commit.
V=$(cat "$C/VERSION")+g$(git -C "$C" rev-parse --short=7 HEAD)
NAME=lmbench-$V
# The same, as an extended regular expression.
VRE=$(printf '%s' "$V" | sed 's/[.+]/\\&/g')
NRE=lmbench-$VRE

# --- the tarball ----------------------------------------------------------------

mk "$C" dist RELEASE_DIR="$T/rel"
is "$RC" 0 "make dist exits 0"
like "$OUT" "^make dist: $T/rel/$NRE\\.tar\\.gz \\([0-9]+ files, version $VRE\\)" "it names the tarball and version"
unlike "$ERR" 'warning' "no warning from a clean tree"
TB=$T/rel/$NAME.tar.gz
if [ ! -f "$TB" ]; then
    fail "$TB exists"
    done_testing
fi
pass "$TB exists"
is "$(ls -A "$T/rel")" "$NAME.tar.gz" "RELEASE_DIR holds the tarball alone (no temporary left)"

tar -tzf "$TB" >"$T/list"
is "$(grep -Ecv "^$NRE/" "$T/list")" 0 "every entry is under $NAME/"
grep -v '/$' "$T/list" | sed "s|^$NAME/||" | sort >"$T/have"
git -C "$C" -c core.quotepath=off ls-files | sort >"$T/want"
if cmp -s "$T/have" "$T/want"; then
    pass "its files are git ls-files ($(wc -l <"$T/want" | tr -d ' '))"
else
    fail "its files are git ls-files"
    diag_text "diff" "$(diff "$T/want" "$T/have")"
fi
is "$(grep -Ec '(^|/)\.git(/|$)' "$T/list")" 0 "no .git inside"
is "$(tar --numeric-owner -tvzf "$TB" | awk '$2 != "0/0"' | wc -l | tr -d ' ')" 0 "every entry is owned by 0/0"
is "$(tar -xzOf "$TB" "$NAME/VERSION")" "$V" "its VERSION holds the whole version"
like "$(tar -xzOf "$TB" "$NAME/rpm/lmbench.spec")" "^%\\{!\\?lmb_tarversion:%global lmb_tarversion $VRE\\}\$" \
    "its rpm/lmbench.spec holds it too"
is "$(tar -xzOf "$TB" "$NAME/Makefile" | cksum)" "$(cksum <"$C/Makefile")" "its other files are git's (Makefile)"

sum1=$(cksum <"$TB")
sleep 1
mk "$C" dist RELEASE_DIR="$T/rel"
is "$(cksum <"$TB")" "$sum1" "a second make dist makes the same bytes"

# --- the unpacked tree, without git ----------------------------------------------

mkdir -p "$T/u" "$T/nogit"
tar -xzf "$TB" -C "$T/u"
# A git that only says it was called: nothing may call it.
cat >"$T/nogit/git" <<EOF
#!/bin/sh
echo "git \$*" >>"$T/git.log"
exit 1
EOF
chmod +x "$T/nogit/git"
U=$T/u/$NAME
PATH=$T/nogit:$PATH mk "$U" -n all
is "$RC" 0 "make -n all works in the unpacked tree"
# (version.h's printf, with the version as its argument)
like "$OUT" "LMB_VERSION .* '$VRE' " "it would build version $V"
PATH=$T/nogit:$PATH mk "$U" dist RELEASE_DIR="$T/rel2"
isnt "$RC" 0 "make dist in the unpacked tree fails"
like "$ERR" '^make dist: needs a git checkout' "and says it needs a git checkout"
check "git was never called there" test ! -e "$T/git.log"

# --- a tree with changes ------------------------------------------------------

echo "# a change" >>"$C/README.md"
mk "$C" dist RELEASE_DIR="$T/rel3"
is "$RC" 0 "make dist of a changed tree exits 0"
like "$ERR" "^make dist: warning: uncommitted changes .* $VRE\\.dirty\$" "with a warning naming the .dirty version"
check "the tarball is $NAME.dirty.tar.gz" test -f "$T/rel3/$NAME.dirty.tar.gz"
like "$(tar -xzOf "$T/rel3/$NAME.dirty.tar.gz" "$NAME.dirty/README.md" | tail -n 1)" '^# a change$' \
    "it holds the changed file as it is"
mk "$C" dist RELEASE_DIR="$T/rel4" DIST_CLEAN=1
isnt "$RC" 0 "DIST_CLEAN=1 refuses it"
like "$ERR" 'DIST_CLEAN=1 and the tree has uncommitted changes' "with the reason"
check "and writes nothing" test ! -e "$T/rel4/$NAME.dirty.tar.gz"
git -C "$C" checkout -q -- README.md

# --- SIGINT in make distcheck -----------------------------------------------------

# make distcheck in its own process group (perl makes a new session for it and
# restores SIGINT, which sh starts a background job with ignored); one SIGINT
# to the group, as a terminal's ^C sends it.
# Whether process PID has ended (gone, or a zombie not yet waited for).
ended() {
    [ ! -r "/proc/$1/stat" ] || sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'
}
if command -v perl >/dev/null 2>&1; then
    mkdir "$T/tmp"
    TAG=$(new_tag)
    TMPDIR=$T/tmp LMB_TEST_TAG=$TAG perl -e 'use POSIX (); POSIX::setsid() >= 0 or die "setsid: $!\n";
        $SIG{INT} = "DEFAULT"; exec @ARGV or exit 127' \
        make --no-print-directory -C "$C" distcheck RELEASE_DIR="$T/rel5" >"$T/dc.out" 2>&1 &
    DC=$!
    BG_PIDS="$BG_PIDS -$DC"
    # Once it builds (a compiler runs in the unpacked tree), interrupt it.
    if wait_for "distcheck compiles" 600 grep -q '^cc ' "$T/dc.out"; then
        pass "make distcheck unpacked the tarball and started the build"
        kill -INT "-$DC"
        if wait_for "distcheck ends" 300 ended "$DC"; then
            wait "$DC"
            rc=$?
            isnt "$rc" 0 "an interrupted make distcheck fails (status $rc)"
        else
            fail "an interrupted make distcheck ends within 30 s"
            kill -KILL "-$DC" 2>/dev/null
            wait "$DC"
        fi
        is "$(ls -A "$T/tmp")" "" "it leaves no temporary directory"
        no_process_left "$TAG" "nor a process" 50
    else
        fail "make distcheck unpacked the tarball and started the build"
        diag_text "its output" "$(tail -n 20 "$T/dc.out")"
        kill -KILL "-$DC" 2>/dev/null
        wait "$DC"
    fi
else
    skip "SIGINT in make distcheck: no perl"
fi

done_testing
