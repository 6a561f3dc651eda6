#!/bin/sh
# SPDX-License-Identifier: MIT
# The files the suite verbs write (import -o, graph -o, config -o, run's
# results files) are written safely (lib/outfile.h): a device, a FIFO or an
# open descriptor (/dev/stdout) is written through and never replaced; a FIFO
# nobody reads is refused at once; a directory is refused; a regular file is
# replaced by renaming a temporary file made with O_EXCL (a symbolic link
# planted at FILE.tmp is not followed), keeping the file's mode; a new file gets
# the umask's mode; a link to a regular file stays a link; errors name the
# user's path (cut when long), never the temporary one; nothing is left behind.
# The device nodes and full file systems are made in a private mount namespace
# (unshare -m, a tmpfs over a scratch directory), as root only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

# write VERB OUT: runs VERB writing its file to OUT (stdin empty, stdout and
# stderr as the caller redirects them).
write() {
    case $1 in
    import) "$LMBENCH" import -o "$2" "$RAW3" </dev/null ;;
    graph) "$LMBENCH" graph -o "$2" "$RAW3" </dev/null ;;
    config) "$LMBENCH" config --defaults -o "$2" </dev/null ;;
    esac
}

# What each verb's file holds.
marker() {
    case $1 in
    import) echo '"schema": "lmbench-results"' ;;
    graph) echo '<html' ;;
    config) echo '^PROFILE=' ;;
    esac
}

VERBS="graph config"
if json_usable; then
    VERBS="import graph config"
else
    skip "import: built without jansson (or no jq)"
fi

LONG=$(printf '%10000s' '' | tr ' ' a)

for v in $VERBS; do
    d=$T/$v
    mkdir -p "$d"
    m=$(marker "$v")

    # -o a link to /proc/self/fd/1 (what /dev/stdout is), stdout a pipe.
    ln -s /proc/self/fd/1 "$d/stdout"
    write "$v" "$d/stdout" 2>"$d/err" | cat >"$d/got"
    check "$v -o a link to /proc/self/fd/1: the link stays a link" test -L "$d/stdout"
    check "$v -o a link to /proc/self/fd/1 (a pipe): the file reaches stdout" grep -q -- "$m" "$d/got"
    # stdout a file opened for appending: appended to, as the shell would.
    printf 'first line\n' >"$d/app"
    write "$v" "$d/stdout" >>"$d/app" 2>"$d/err"
    ok $([ "$(head -n 1 "$d/app")" = "first line" ] && grep -q -- "$m" "$d/app" && [ -L "$d/stdout" ]; echo $?) \
        "$v -o /proc/self/fd/1 with stdout appending to a file: appended, the link stays"

    # A symbolic link planted at FILE.tmp is not followed.
    printf 'victim\n' >"$d/victim"
    ln -s "$d/victim" "$d/p.out.tmp"
    write "$v" "$d/p.out" >/dev/null 2>"$d/err"
    rc=$?
    ok $([ "$rc" = 0 ] && [ "$(cat "$d/victim")" = victim ] && [ -L "$d/p.out.tmp" ] &&
         [ -f "$d/p.out" ] && [ ! -L "$d/p.out" ] && grep -q -- "$m" "$d/p.out"; echo $?) \
        "$v -o FILE with a link planted at FILE.tmp: the link's target untouched, FILE written"

    # An existing file keeps its mode; a new one gets the umask's.
    printf 'old\n' >"$d/mode.out"
    chmod 0640 "$d/mode.out"
    write "$v" "$d/mode.out" >/dev/null 2>&1
    is "$(stat -c %a "$d/mode.out")" 640 "$v -o an existing file of mode 640: still 640"
    (umask 027 && write "$v" "$d/new.out" >/dev/null 2>&1)
    is "$(stat -c %a "$d/new.out")" 640 "$v -o a new file under umask 027: mode 640"
    (umask 0 && write "$v" "$d/new0.out" >/dev/null 2>&1)
    is "$(stat -c %a "$d/new0.out")" 666 "$v -o a new file under umask 0: mode 666 (not mkstemp's 600)"

    # A link to a regular file: the file it leads to is written, the link stays.
    printf 'old\n' >"$d/real.out"
    ln -s real.out "$d/link.out"
    write "$v" "$d/link.out" >/dev/null 2>&1
    ok $([ -L "$d/link.out" ] && grep -q -- "$m" "$d/real.out"; echo $?) \
        "$v -o a link to a regular file: the file written, the link stays"
    ln -s "$d/nosuch" "$d/dangling.out"
    write "$v" "$d/dangling.out" >/dev/null 2>"$d/err"
    ok $([ $? = 1 ] && [ ! -e "$d/nosuch" ] && grep -q "symbolic link" "$d/err"; echo $?) \
        "$v -o a dangling link: refused, exit 1, nothing made"

    # Errors name the user's path, not the temporary one.
    write "$v" "$d/nodir/x.out" >/dev/null 2>"$d/err"
    rc=$?
    err=$(cat "$d/err")
    ok $([ "$rc" = 1 ] && printf '%s\n' "$err" | grep -q "^lmbench $v: cannot write '$d/nodir/x.out': No such file or directory\$" &&
         ! printf '%s\n' "$err" | grep -q '\.tmp'; echo $?) \
        "$v -o into a missing directory: exit 1, the user's path named, no temporary name"
    [ "$rc" = 1 ] || diag_text "stderr" "$err"
    write "$v" "$d/$LONG/x.out" >/dev/null 2>"$d/err"
    rc=$?
    ok $([ "$rc" = 1 ] && [ "$(wc -c <"$d/err")" -lt 400 ] && grep -q '\.\.\.' "$d/err"; echo $?) \
        "$v -o a 10 KB path: exit 1, the path cut in the message ($(wc -c <"$d/err") bytes)"

    # A directory is refused.
    write "$v" "$d" >/dev/null 2>"$d/err"
    ok $([ $? = 1 ] && grep -q 'it is a directory' "$d/err" && [ -d "$d" ]; echo $?) \
        "$v -o a directory: refused, exit 1"

    # A FIFO nobody reads: refused at once, not waited on, not replaced.
    mkfifo "$d/fifo"
    ( write "$v" "$d/fifo" >/dev/null 2>"$d/err" ) &
    wpid=$!
    n=0
    while kill -0 "$wpid" 2>/dev/null && [ "$n" -lt $((100 * SLOW)) ]; do
        sleep 0.1
        n=$((n + 1))
    done
    if kill -0 "$wpid" 2>/dev/null; then
        kill -KILL "$wpid" 2>/dev/null
        wait "$wpid" 2>/dev/null
        rc=hung
    else
        wait "$wpid"
        rc=$?
    fi
    ok $([ "$rc" = 1 ] && [ -p "$d/fifo" ] && grep -q 'no process reads' "$d/err"; echo $?) \
        "$v -o a FIFO with no reader: refused at once ($rc), still a FIFO"
    # A FIFO with a reader: written through.
    cat "$d/fifo" >"$d/fgot" &
    rpid=$!
    n=0
    while :; do
        write "$v" "$d/fifo" >/dev/null 2>"$d/err"
        rc=$?
        [ "$rc" = 0 ] || ! grep -q 'no process reads' "$d/err" || [ "$n" -ge $((50 * SLOW)) ] && break
        sleep 0.1
        n=$((n + 1))
    done
    # The reader ends with the writer's close (or, before the fix, is left
    # waiting on a FIFO that was renamed away: killed then).
    n=0
    while kill -0 "$rpid" 2>/dev/null && [ "$n" -lt $((50 * SLOW)) ]; do
        sleep 0.1
        n=$((n + 1))
    done
    kill -KILL "$rpid" 2>/dev/null
    wait "$rpid" 2>/dev/null
    ok $([ "$rc" = 0 ] && [ -p "$d/fifo" ] && grep -q -- "$m" "$d/fgot"; echo $?) \
        "$v -o a FIFO with a reader: written through, still a FIFO"

    check "$v: no temporary file left" sh -c "[ -z \"\$(find '$d' -name '*.tmp' ! -type l)\" ]"
done

# --- lmbench run's results files: a link planted at each .tmp name -----------------------

if json_usable; then
    mkdir -p "$T/run/res"
    printf 'PROFILE=quick\nBENCHMARK_HARDWARE=NO\nBENCHMARK_OS=NO\nBENCHMARK_NETWORK=NO\nBENCHMARK_SYSCALL=YES\nENOUGH=300\nMB=1\nFSDIR=%s\n' \
        "$T/run" >"$T/run/c.conf"
    H=$(hostname)
    printf 'victim\n' >"$T/run/victim"
    for s in .json.tmp .jsonl.tmp .tmp; do
        ln -s "$T/run/victim" "$T/run/res/$H.0$s"
    done
    # --disturbed 0: every step is run again at the end, so the raw file and the
    # JSONL are rewritten too.
    "$LMBENCH" run -c "$T/run/c.conf" -o "$T/run/res" --disturbed 0 >"$T/out" 2>"$T/err"
    rc=$?
    ok $([ "$(cat "$T/run/victim")" = victim ] && [ -f "$T/run/res/$H.0.json" ] &&
         grep -q '"schema": "lmbench-results"' "$T/run/res/$H.0.json"; echo $?) \
        "run with links planted at its .tmp names: the links' target untouched, the files written (exit $rc)"
    check "run: no temporary file left" sh -c "[ -z \"\$(find '$T/run/res' -name '*.tmp' ! -type l)\" ]"
else
    skip "run's results files: built without jansson (or no jq)"
fi

# --- devices and full file systems, in a private mount namespace (root) ---------------

ns_why=
if [ "$(id -u)" != 0 ]; then
    ns_why="needs root (mknod, mount in a private mount namespace)"
elif ! command -v unshare >/dev/null 2>&1; then
    ns_why="no unshare(1)"
elif ! unshare -m sh -c "mkdir -p '$T/probe' && mount -t tmpfs -o size=64k lmbtest '$T/probe' && mknod '$T/probe/null' c 1 3 && echo x >'$T/probe/null'" 2>/dev/null; then
    ns_why="cannot mount a tmpfs with a device node in a private mount namespace here"
fi

if [ -n "$ns_why" ]; then
    skip "-o /dev/null, /dev/full, /dev/stdout and a full file system: $ns_why"
else
    # In the namespace: a tmpfs with null (1,3) and full (1,7) at $T/mnt; a
    # one-page tmpfs filled up at $T/mnt/small; a tmpfs over /dev with its own
    # /dev/stdout link. Each write's exit status and what became of its target
    # go to $T/ns.out, outside the namespace's mounts.
    mkdir -p "$T/mnt"
    cat >"$T/ns.sh" <<EOF
set -u
LMBENCH='$LMBENCH'; RAW3='$RAW3'; T='$T'
$(sed -n '/^write() {/,/^}/p' "$0")
mount -t tmpfs -o size=1m,mode=0755 lmbtest "\$T/mnt" || exit 1
mknod "\$T/mnt/null" c 1 3 && mknod "\$T/mnt/full" c 1 7 || exit 1
mkdir "\$T/mnt/small" && mount -t tmpfs -o size=4k lmbtest "\$T/mnt/small" || exit 1
dd if=/dev/zero of="\$T/mnt/small/fill" bs=4096 count=1 2>/dev/null
mount -t tmpfs -o mode=0755 lmbtest /dev || exit 1
mknod /dev/null c 1 3 && ln -s /proc/self/fd/1 /dev/stdout || exit 1
for v in $VERBS; do
    write "\$v" "\$T/mnt/null" >"\$T/ns.\$v.null.out" 2>"\$T/ns.\$v.null.err"
    echo "\$v null \$? \$(stat -c %F "\$T/mnt/null")"
    write "\$v" "\$T/mnt/full" >"\$T/ns.\$v.full.out" 2>"\$T/ns.\$v.full.err"
    echo "\$v full \$? \$(stat -c %F "\$T/mnt/full")"
    write "\$v" "\$T/mnt/small/f.out" >"\$T/ns.\$v.small.out" 2>"\$T/ns.\$v.small.err"
    echo "\$v small \$? \$(ls "\$T/mnt/small" | tr '\n' ' ')"
    write "\$v" /dev/stdout 2>"\$T/ns.\$v.stdout.err" | cat >"\$T/ns.\$v.stdout.got"
    echo "\$v stdout \$(stat -c %F /dev/stdout)"
done
EOF
    unshare -m sh "$T/ns.sh" >"$T/ns.out" 2>"$T/ns.err"
    is "$?" 0 "the namespace script ran"
    check "the real /dev/stdout is still a link" test -L /dev/stdout
    check "the real /dev/null is still a character device" test -c /dev/null
    for v in $VERBS; do
        m=$(marker "$v")
        is "$(grep "^$v null " "$T/ns.out")" "$v null 0 character special file" \
            "$v -o a null device: exit 0, still a character device"
        is "$(grep "^$v full " "$T/ns.out")" "$v full 1 character special file" \
            "$v -o a full device: exit 1, still a character device"
        like "$(cat "$T/ns.$v.full.err")" "^lmbench $v: cannot write '$T/mnt/full': No space left on device\$" \
            "$v -o a full device: says so, naming it"
        is "$(grep "^$v small " "$T/ns.out")" "$v small 1 fill " \
            "$v -o a file on a full file system: exit 1, no temporary file left"
        like "$(cat "$T/ns.$v.small.err")" "^lmbench $v: cannot write '$T/mnt/small/f.out': No space left on device\$" \
            "$v -o a file on a full file system: says so, naming the file"
        is "$(grep "^$v stdout " "$T/ns.out")" "$v stdout symbolic link" \
            "$v -o /dev/stdout: /dev/stdout stays a link"
        check "$v -o /dev/stdout: the file reaches stdout" grep -q -- "$m" "$T/ns.$v.stdout.got"
    done
fi

done_testing
