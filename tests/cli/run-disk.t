#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench run on a full disk (issue 15 item 6): the run stops at the first
# results write that fails, says so once (the file, the error, the --resume
# line), leaves every file whole (the .jsonl ends at a whole line), and
# --resume finishes it once there is space; also a disk full from the start,
# a final .json that does not fit, and --resume -o of a directory that is not
# there (nothing made). The full disks are tmpfs mounts in a private mount
# namespace (unshare -m, as root), so nothing outside the test is touched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

H=$(hostname)

# --resume -o DIR where DIR is not there: one message, exit 2, nothing made
# (no privileges needed).
run "$LMBENCH" run --resume -o "$T/nonexistent/x"
is "$RC:$(grep -c '^lmbench run: ' "$T/err")" "2:1" "--resume -o a missing directory: exit 2, one message"
like "$ERR" "nonexistent/x" "--resume -o a missing directory: the message names it"
check "--resume -o a missing directory: nothing is made" test ! -e "$T/nonexistent"

why=
if [ "$(id -u)" != 0 ]; then
    why="not root: a tmpfs in a private mount namespace needs root"
elif ! command -v unshare >/dev/null 2>&1; then
    why="unshare is not installed"
elif ! unshare -m sh -c "mount -t tmpfs -o size=8k none '$T'" 2>/dev/null; then
    why="cannot mount a tmpfs in a private mount namespace here"
elif ! json_usable; then
    why="jq missing or built without jansson (no .jsonl, no --resume)"
fi
if [ -n "$why" ]; then
    skip "full disk: $why"
    done_testing
fi

# A handful of short steps: lat_syscall and lat_sig only (10 steps, ~17 KB of
# .jsonl); the scratch file is outside the small disk.
mkdir -p "$T/fs" "$T/mnt" "$T/copy1" "$T/copy2"
printf 'BENCHMARK_HARDWARE=NO\nBENCHMARK_OS=NO\nBENCHMARK_NETWORK=NO\nBENCHMARK_SYSCALL=YES\nBENCHMARK_SIG=YES\n' >"$T/conf"
RUN="run -c $T/conf --profile quick --mb 1 --enough 300 --fsdir $T/fs"
D=$T/mnt/res
R=$D/$H.0

# in_ns SCRIPT: runs the sh SCRIPT in a private mount namespace (its mounts go
# with it) with L, D, R, T exported.
in_ns() {
    printf '%s\n' "$1" >"$T/ns.sh"
    L=$LMBENCH T=$T D=$D R=$R RUN=$RUN unshare -m sh "$T/ns.sh"
}

# jsonl_whole FILE: ends with a newline and every line is JSON.
jsonl_whole() {
    [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
        jq -c . "$1" >/dev/null 2>&1
}

# --- the disk fills during the run, then --resume with more space ------------------

TAG=$(new_tag)
export LMB_TEST_TAG=$TAG
in_ns '
mount -t tmpfs -o size=12k none "$T/mnt" || exit 99
$L $RUN -o "$D" >"$T/out1" 2>"$T/err1"
echo $? >"$T/rc1"
cp "$R" "$R.jsonl" "$T/copy1/" 2>/dev/null
ls -A "$D" >"$T/ls1"
mount -o remount,size=1m "$T/mnt" || exit 98
$L run --resume -o "$D" >"$T/out2" 2>"$T/err2"
echo $? >"$T/rc2"
cp "$R" "$R.jsonl" "$R.json" "$T/copy2/" 2>/dev/null
'
unset LMB_TEST_TAG
rc1=$(cat "$T/rc1" 2>/dev/null)
is "$rc1" 1 "disk full during the run: exit status 1"
is "$(grep -c 'No space left on device' "$T/err1")" 1 "disk full: said once" 
like "$(cat "$T/err1")" "^lmbench run: cannot write $R(\\.jsonl|\\.json)?: No space left on device" \
    "disk full: the message names the file and the error"
like "$(cat "$T/err1")" "lmbench run --resume -o $D\$" "disk full: the message gives the --resume line"
unlike "$(cat "$T/err1")" "^lmbench run: done after" "disk full: the run does not say it is done"
no_process_left "$TAG" "disk full: no process left behind" 20
is "$(ls -A "$T/fs")" "" "disk full: the scratch file is removed"
is "$(grep -c 'tmp' "$T/ls1")" 0 "disk full: no temporary file left in the results directory"
check "disk full: the .jsonl ends with a newline and every line is JSON" jsonl_whole "$T/copy1/$H.0.jsonl"
steps1=$(jq -c 'select(.benchmark == null and .step != null)' "$T/copy1/$H.0.jsonl" 2>/dev/null | wc -l | tr -d ' ')
# The raw file ends where the .jsonl's last step says its lines end.
rawend=$(jq -s '[.[] | select(.benchmark == null and .step != null) | .raw_bytes] | last // 0' "$T/copy1/$H.0.jsonl" 2>/dev/null)
rawsize=$(wc -c <"$T/copy1/$H.0" 2>/dev/null | tr -d ' ')
ok $([ -n "$rawsize" ] && { [ "$rawsize" = "$rawend" ] || { [ "$rawend" = 0 ] && [ "$rawsize" -ge 0 ]; }; }; echo $?) \
    "disk full: the raw file ends with the last step kept ($rawsize bytes, the .jsonl says $rawend)"
diag "disk full after $steps1 of 10 steps"

is "$(cat "$T/rc2" 2>/dev/null)" 0 "--resume with space again: exit status 0"
like "$(cat "$T/err2")" "resuming .*$H\\.0 at step $((steps1 + 1)) of 10" "--resume: continues after the last whole step"
json_ok "$T/copy2/$H.0.json" '.run.status == "ok" and ([.run.steps[].step] == [range(1; 11)]) and ([.results[].step] | unique | length) == 10' \
    "--resume: the .json has every step once, in order, status ok"
check "--resume: the .jsonl is whole" jsonl_whole "$T/copy2/$H.0.jsonl"
is "$(jq -c 'select(.benchmark == null and .step != null)' "$T/copy2/$H.0.jsonl" 2>/dev/null | wc -l | tr -d ' ')" 10 \
    "--resume: the .jsonl has each step once"
is "$(grep -c '^Simple syscall: ' "$T/copy2/$H.0" 2>/dev/null)" 1 "--resume: the raw file has each step's lines once"
is "$(grep -c '^\[lmbench3\.0 results for ' "$T/copy2/$H.0" 2>/dev/null)" 1 "--resume: the raw file has one header"

# --- the disk is full from the start -----------------------------------------------------

in_ns '
mount -t tmpfs -o size=8k none "$T/mnt" || exit 99
mkdir -p "$D"
dd if=/dev/zero of="$T/mnt/fill" bs=4k count=100 2>/dev/null
$L $RUN -o "$D" >"$T/out1" 2>"$T/err1"
echo $? >"$T/rc1"
ls -A "$D" >"$T/ls1"
'
is "$(cat "$T/rc1" 2>/dev/null)" 1 "disk full from the start: exit status 1"
is "$(grep -c 'No space left on device' "$T/err1")" 1 "disk full from the start: said once"
like "$(cat "$T/err1")" "^lmbench run: cannot write $R(\\.jsonl)?: No space left on device" \
    "disk full from the start: the message names the file and the error"
is "$(cat "$T/ls1")" "" "disk full from the start: nothing is left in the results directory"
is "$(ls -A "$T/fs")" "" "disk full from the start: the scratch file is removed"

# --- the steps fit, the final .json does not -------------------------------------------

# Room for the .jsonl and the raw file with two pages to spare (the .json, twice
# the .jsonl's size, cannot fit); --no-retry: no rewrite at the end.
in_ns '
mount -t tmpfs -o size=1m none "$T/mnt" || exit 99
$L $RUN --no-retry -o "$D" >/dev/null 2>&1
pages=$(( ($(wc -c <"$R.jsonl") + 4095) / 4096 + ($(wc -c <"$R") + 4095) / 4096 + 2 ))
umount "$T/mnt"
mount -t tmpfs -o size=$((pages * 4))k none "$T/mnt" || exit 98
$L $RUN --no-retry -o "$D" >"$T/out1" 2>"$T/err1"
echo $? >"$T/rc1"
ls -A "$D" >"$T/ls1"
mount -o remount,size=1m "$T/mnt" || exit 97
$L run --resume -o "$D" >"$T/out2" 2>"$T/err2"
echo $? >"$T/rc2"
cp "$R.json" "$T/copy2/final.json" 2>/dev/null
'
is "$(cat "$T/rc1" 2>/dev/null)" 1 "the .json does not fit: exit status 1"
is "$(grep -c 'No space left on device' "$T/err1")" 1 "the .json does not fit: said once"
like "$(cat "$T/err1")" "^lmbench run: cannot write $R\\.json: No space left on device.*lmbench run --resume -o $D\$" \
    "the .json does not fit: the message names it and gives the --resume line"
is "$(grep -c 'tmp' "$T/ls1")" 0 "the .json does not fit: no temporary file left"
is "$(cat "$T/rc2" 2>/dev/null)" 0 "the .json does not fit: --resume with space again writes it (exit 0)"
json_ok "$T/copy2/final.json" '.run.status == "ok" and ([.run.steps[].step] == [range(1; 11)])' \
    "the .json does not fit: after --resume, the .json has every step, status ok"

# --- the same with every step run again at the end (--disturbed 0) ------------------

# No room for a second .jsonl beside the first: it is rewritten in place with
# the attempts kept, so that it agrees with the rebuilt raw file; then the
# .json does not fit.
in_ns '
mount -t tmpfs -o size=1m none "$T/mnt" || exit 99
$L $RUN --no-retry -o "$D" >/dev/null 2>&1
pages=$(( ($(wc -c <"$R.jsonl") + 4095) / 4096 + ($(wc -c <"$R") + 4095) / 4096 + 2 ))
umount "$T/mnt"
mount -t tmpfs -o size=$((pages * 4))k none "$T/mnt" || exit 98
$L $RUN --disturbed 0 -o "$D" >"$T/out1" 2>"$T/err1"
echo $? >"$T/rc1"
cp "$R" "$R.jsonl" "$T/copy1/" 2>/dev/null
mount -o remount,size=1m "$T/mnt" || exit 97
$L run --resume -o "$D" >"$T/out2" 2>"$T/err2"
echo $? >"$T/rc2"
cp "$R.json" "$T/copy2/final.json" 2>/dev/null
'
is "$(cat "$T/rc1" 2>/dev/null)" 1 "retries, then a full disk: exit status 1"
is "$(grep -c 'No space left on device' "$T/err1")" 1 "retries, then a full disk: said once"
check "retries, then a full disk: the .jsonl is whole" jsonl_whole "$T/copy1/$H.0.jsonl"
# Each step's bytes, as the .jsonl gives them, are its lines in the raw file.
first=$(jq -r 'select(.benchmark == null and .step == 1) | "\(.raw_start) \(.raw_bytes)"' "$T/copy1/$H.0.jsonl" 2>/dev/null)
is "$(dd if="$T/copy1/$H.0" bs=1 skip="${first% *}" count=$((${first#* } - ${first% *})) 2>/dev/null | head -c 15)" \
    "Simple syscall:" "retries, then a full disk: the .jsonl's offsets are the raw file's"
diag "attempts in the .jsonl: $(jq -r 'select(.benchmark == null and .step != null) | .attempts' "$T/copy1/$H.0.jsonl" 2>/dev/null | tr '\n' ' ')"
is "$(cat "$T/rc2" 2>/dev/null)" 0 "retries, then a full disk: --resume with space again (exit 0)"
json_ok "$T/copy2/final.json" '.run.status == "ok" and ([.run.steps[].step] == [range(1; 11)])' \
    "retries, then a full disk: after --resume, the .json has every step, status ok"

done_testing
