#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_io_uring: classic lines and --json where the kernel lets us have a ring;
# the skip (exit 3, with the reason) where it does not, forced here with a
# seccomp filter on io_uring_setup (EPERM and ENOSYS); the temporary file of
# read made in dir and removed (also on SIGINT); bad input; -P 2.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_io_uring
NUM='[0-9]+\.[0-9]{4}'
SKIP_RE='^lat_io_uring: (nop|read)( \([^)]*\))?: skipped: [^ ]'

# Whether this kernel (and build) gives us a ring: 0 yes, 3 skipped.
run "$CMD" -N 3 nop
AVAIL=$RC
case $AVAIL in
0 | 3) pass "nop: exit status 0 (measured) or 3 (skipped), here $AVAIL" ;;
*) fail "nop: exit status 0 or 3, not $AVAIL"; diag_text stderr "$ERR" ;;
esac
is "$OUT" "" "nop: nothing on stdout"
# A build without <linux/io_uring.h> (or with CFLAGS=-DLMB_NO_IO_URING).
BUILT=yes
case $ERR in *'built without io_uring headers'*) BUILT=no ;; esac

if [ "$AVAIL" = 0 ]; then
    for pair in "nop:io_uring nop" "read:io_uring 4k read"; do
        v=${pair%%:*}
        label=${pair#*:}
        mkdir -p "$T/d-$v"
        run "$CMD" -N 3 "$v" "$T/d-$v"
        [ "$v" = nop ] || is "$RC" 0 "$v: exit status 0"
        [ "$v" = nop ] && like "$ERR" "'$T/d-$v' ignored" "nop with a dir: a warning that it reads no file"
        printf '%s\n' "$ERR" | grep -v 'warning' >"$T/lines"
        one_line_like "$(cat "$T/lines")" "^$label: $NUM microseconds\$" \
            "$v: stderr is exactly '$label: X.XXXX microseconds'"
        positive "$(label_value "$ERR")" "$v: the latency is positive"
        is "$(ls -A "$T/d-$v")" "" "$v: nothing left in the directory"
    done
    if json_usable; then
        for v in nop read; do
            run_json "$CMD" -N 3 --json "$v" "$T"
            json_one_record "$T/json" lat_io_uring "$v" us
            json_ok "$T/json" '.results[0].compat | startswith("new: ")' "--json $v: compat new"
        done
        json_ok "$T/json" ".results[0].params == {\"bytes\": 4096, \"dir\": \"$T\"}" \
            "--json read: params bytes 4096 and the dir"
        run_json "$CMD" -N 3 --json nop
        json_ok "$T/json" '.results[0].params == {}' "--json nop: no params"
    else
        skip "--json: jq missing or built without jansson"
    fi

    # read in a directory that is not there: fails, saying why.
    failed_run lat_io_uring "read in a missing directory: exit 1 with a reason" \
        "$CMD" -N 3 read "$T/no/such/dir"
    like "$ERR" 'no/such/dir' "read in a missing directory: names it"

    # The default directory is $TMPDIR: nothing left there.
    mkdir -p "$T/tmpdir"
    run env TMPDIR="$T/tmpdir" "$CMD" -N 3 read
    is "$RC" 0 "read in \$TMPDIR: exit status 0"
    is "$(ls -A "$T/tmpdir")" "" "read in \$TMPDIR: nothing left there"

    tag=$(new_tag)
    run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 nop
    one_line_like "$ERR" "^io_uring nop: $NUM microseconds\$" "-P 2 nop: one classic line"
    no_process_left "$tag" "-P 2 nop: no process left behind"

    interrupted lat_io_uring "$T/intr" "read" "$CMD" -N 1000 --min-time 0.2 read
    interrupted_running "nop" "$CMD" -N 1000 --min-time 0.2 nop
elif [ "$BUILT" = no ]; then
    one_line_like "$ERR" '^lat_io_uring: skipped: built without io_uring headers$' \
        "a build without io_uring: 'lat_io_uring: skipped: built without io_uring headers'"
    run "$CMD" -N 3 read "$T"
    is "$RC" 3 "a build without io_uring: read exits 3 as well"
    if json_usable; then
        run_json "$CMD" --json nop
        json_ok "$T/json" '.results[0].status == "skipped" and .results[0].reason == "built without io_uring headers"' \
            "--json, a build without io_uring: status skipped, the reason"
    fi
    skip "measured cases: built without io_uring"
else
    one_line_like "$ERR" "$SKIP_RE" "nop: skipped with a reason (the kernel refuses io_uring here)"
    skip "measured cases: this kernel refuses io_uring"
fi

# --- the skip path, forced: a seccomp filter on io_uring_setup --------------------

# seccomp_run ERRNO CMD...: runs CMD with io_uring_setup (425 on every
# architecture) failing with ERRNO; exit 99 when the filter cannot be installed.
seccomp_run() {
    run python3 -c '
import ctypes, os, sys
class F(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]
class P(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(F))]
prog = (F * 4)(F(0x20, 0, 0, 0), F(0x15, 0, 1, 425), F(0x06, 0, 0, 0x50000 | int(sys.argv[1])),
               F(0x06, 0, 0, 0x7fff0000))
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(P(4, prog)), 0, 0) != 0:
    sys.exit(99)
os.execv(sys.argv[2], sys.argv[2:])' "$@"
}

if [ "$BUILT" = no ]; then
    skip "the forced skip path: a build without io_uring skips before asking the kernel"
elif [ "$AVAIL" != 0 ]; then
    # (qemu-user, for one, has no io_uring: the kernel is never asked.)
    skip "the forced skip path: no ring here to refuse"
elif command -v python3 >/dev/null 2>&1 && seccomp_run 1 /bin/true && [ "$RC" = 0 ]; then
    mkdir -p "$T/sec"
    for e in "1:Operation not permitted:kernel.io_uring_disabled" "38:Function not implemented:without io_uring"; do
        n=${e%%:*}
        rest=${e#*:}
        msg=${rest%%:*}
        why=${rest#*:}
        for v in nop read; do
            seccomp_run "$n" "$CMD" -N 3 "$v" "$T/sec"
            is "$RC" 3 "io_uring_setup refused ($msg): $v exits 3 (skipped)"
            is "$OUT" "" "io_uring_setup refused ($msg): $v: nothing on stdout"
            one_line_like "$ERR" "$SKIP_RE" "io_uring_setup refused ($msg): $v: one skipped line"
            like "$ERR" "io_uring_setup: $msg \\(.*$why" "io_uring_setup refused ($msg): $v: the errno and the reason"
        done
        is "$(ls -A "$T/sec")" "" "io_uring_setup refused ($msg): no file made"
    done
    if json_usable; then
        seccomp_run 1 "$CMD" -N 3 --json nop
        cp "$T/out" "$T/json"
        json_ok "$T/json" '.results[0].status == "skipped" and (.results[0].reason | test("io_uring_setup"))' \
            "--json, io_uring_setup refused: status skipped, with the reason"
    else
        skip "--json of the skip: jq missing or built without jansson"
    fi
else
    skip "the forced skip path: no python3 that can install a seccomp filter"
fi

# --- help, list, bad input --------------------------------------------------------

run "$CMD" --list
is "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" "nop read " "--list: nop and read"
run "$CMD" --help
like "$OUT" '^Usage: lat_io_uring .*nop\|read \[dir\]' "--help: usage with the operations"

# (Usage is checked before the kernel is asked.)
if [ "$BUILT" = yes ]; then
    usage_error lat_io_uring "$CMD"
    usage_error lat_io_uring "$CMD" write
    usage_error lat_io_uring "$CMD" read "$T" extra
    usage_error lat_io_uring "$CMD" -N 0 nop
    usage_error lat_io_uring "$CMD" -x nop
else
    skip "bad input: a build without io_uring skips before parsing"
fi

done_testing
