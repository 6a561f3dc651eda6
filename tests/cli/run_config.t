#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench run -c with a config file as lmbench 3's config-run wrote it
# (tests/fixtures/CONFIG.lmbench3-example: every key it wrote): the keys with an
# equivalent honoured in the plan (--list), the others listed once as ignored,
# every bad value of a used key named with its line in one message, the shell
# forms of such a file, and a tiny run recording in run.config what came from
# the file (FILE's scratch file made and removed).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

CONF3=$FIXTURES/CONFIG.lmbench3-example
check "the fixture exists" test -s "$CONF3"

# plan: the steps of --list's output in PLAN (without --launches, which is the
# runner's business here), its line of settings in SETTINGS.
plan() {
    PLAN=$(printf '%s\n' "$OUT" | grep -E '^ *[0-9]+  ' | sed 's/ --launches [0-9]*//')
    SETTINGS=$(printf '%s\n' "$OUT" | grep -E '^[0-9]+ steps; ')
}

# --- the fixture as config-run wrote it ------------------------------------------------

# The environment's ENOUGH (lib.sh sets one) would win over the file's.
run env -u ENOUGH "$LMBENCH" run -c "$CONF3" --list
is "$RC" 0 "lmbench 3's config file: accepted (exit status 0)"
is "$ERR" "lmbench run: $CONF3: ignored (no equivalent): DISKS, DISK_DESC, OUTPUT, FASTMEM, INFO, LINE_SIZE, LOOP_O, MAIL, TOTAL_MEM, MHZ, MOTHERBOARD, NETWORKS, OS, PROCESSORS, SLOWFS, TIMING_O, RSH, RCP, VERSION, BENCHMARK_HTTP" \
    "the keys without an equivalent: one line on stderr, each key once"
plan
like "$SETTINGS" ' steps; profile default, -N 3, ENOUGH 5000, MB 1433, ' \
    "ENOUGH and MB honoured"
like "$PLAN" '^ *[0-9]+  hardware +bw_mem -N 3 -P 2 1433m frd$' "SYNC_MAX: -P 2; MB: the largest size"
like "$PLAN" '^ *[0-9]+  network +lat_tcp -N 3 peer1  \(server on peer1 over ssh\)$' \
    "REMOTE: the network steps again against its host"
unlike "$PLAN" '\[one CPU\]|\[two CPUs\]' "LMBENCH_SCHED=BALANCED: no placement of the suite's own"
# BENCHMARK_OS=NO with some OS benchmarks YES (as config-run wrote a choice):
# those only; the network ones (OS benchmarks in lmbench 3) likewise.
like "$PLAN" ' os +lat_syscall -N 3 -P 2 null$' "BENCHMARK_SYSCALL=YES: its steps"
like "$PLAN" ' os +lat_proc -N 3 -P 2 fork$' "BENCHMARK_PROC=YES: its steps"
like "$PLAN" ' os +lat_mmap -N 3 -P 2 512k \$FILE$' "BENCHMARK_MMAP=YES: its steps"
like "$PLAN" ' network +lat_tcp -N 3 -P 2 -l$' "BENCHMARK_TCP=YES: its steps"
like "$PLAN" ' os +lmdd ' "lmdd, which makes the file lat_mmap maps, runs though BENCHMARK_FILE=NO"
for b in lat_select lat_ctx lat_pagefault lat_fs bw_file_rd lat_pipe bw_pipe lat_unix bw_unix \
         lat_udp lat_connect lat_rpc lat_sig; do
    unlike "$PLAN" " $b " "a benchmark switched NO: no $b step"
done
like "$PLAN" ' hardware +bw_mem -N 3 -P 2 1k bcopy$' "BENCHMARK_HARDWARE=YES, BENCHMARK_BCOPY empty: the copies run"
like "$PLAN" ' hardware +lat_ops ' "BENCHMARK_OPS empty: lat_ops runs"

# --- variants of it ----------------------------------------------------------------------

sed -e 's/^BENCHMARK_BCOPY=$/BENCHMARK_BCOPY=NO/' -e 's/^BENCHMARK_CTX=NO$/BENCHMARK_CTX=YES/' \
    "$CONF3" >"$T/c1"
run "$LMBENCH" run -c "$T/c1" --list
plan
unlike "$PLAN" ' bw_mem .* (bcopy|fcp|cp|bzero)' "BENCHMARK_BCOPY=NO with its group on: no copy step"
like "$PLAN" ' hardware +bw_mem -N 3 -P 2 1k frd' "... the memory read steps still run"
like "$PLAN" ' os +lat_ctx ' "BENCHMARK_CTX=YES: lat_ctx runs"
sed -e 's/^BENCHMARK_MMAP=YES$/BENCHMARK_MMAP=NO/' "$CONF3" >"$T/c2"
run "$LMBENCH" run -c "$T/c2" --list
plan
unlike "$PLAN" ' lmdd | lat_mmap | bw_mmap_rd ' "nothing reads the file: no lmdd step either"
run "$LMBENCH" run -c "$CONF3" --groups hardware -P 1 --mb 64 --list
plan
ok $([ "$RC" = 0 ] && ! printf '%s\n' "$PLAN" | grep -Eq ' (os|network) ' &&
     printf '%s\n' "$PLAN" | grep -q 'bw_mem -N 3 64m frd$'; echo $?) \
    "options win over the file (--groups, -P, --mb)"

# The shell forms of such a file: comments, blank lines, export, quotes, ;,
# $KEY of a key set before.
{
    printf '#!/bin/sh\n# written by hand\n\n'
    sed -e 's/^FILE=.*/FILE=$FSDIR\/XXX; export FILE/' -e 's/^MB=1433$/export MB='"'"'64'"'"'/' "$CONF3"
    printf 'export ENOUGH MB\n'
} >"$T/c3"
run "$LMBENCH" run -c "$T/c3" --list
plan
ok $([ "$RC" = 0 ] && printf '%s\n' "$SETTINGS" | grep -q ' MB 64,'; echo $?) \
    "comments, blank lines, export, quotes, ; and \$FSDIR are read"

# --- wrong values: each named with its line, all in one message ------------------------------

sed -e 's/^MB=1433$/MB=abc/' "$CONF3" >"$T/bad1"
run "$LMBENCH" run -c "$T/bad1" --list
ok $([ "$RC" = 2 ] && printf '%s\n' "$ERR" | head -n 1 | grep -q "^lmbench run: $T/bad1:13: MB: "; echo $?) \
    "MB=abc: exit 2, the message names the file, line 13 and MB"
is "$OUT" "" "MB=abc: no plan"
sed -e 's/^MB=1433$/MB=abc/' -e 's/^SYNC_MAX="2"$/SYNC_MAX="0"/' -e 's/^BENCHMARK_TCP=YES$/BENCHMARK_TCP=perhaps/' \
    -e 's/^DISKS=""$/DISKS=""; MBB=1/' "$CONF3" >"$T/bad2"
run "$LMBENCH" run -c "$T/bad2" --list
E1=$(printf '%s\n' "$ERR" | head -n 1)
ok $([ "$RC" = 2 ] && printf '%s' "$E1" | grep -q ":1: unknown key 'MBB'" && printf '%s' "$E1" | grep -q ':13: MB: ' &&
     printf '%s' "$E1" | grep -q ':21: SYNC_MAX: ' && printf '%s' "$E1" | grep -q ':39: BENCHMARK_TCP: expected YES, NO or nothing'; echo $?) \
    "several wrong values: every one named with its line, in one message"
sed -e 's/^MHZ=.*/MHZ=2400 MHz/' "$CONF3" >"$T/bad3"
run "$LMBENCH" run -c "$T/bad3" --list
ok $([ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q ':14: MHZ: the value ends at a blank'; echo $?) \
    "an unquoted value with a blank: an error naming it (as the shell would not read it)"
sed -e 's/^FSDIR=.*/FSDIR=\/nonexistent\/dir/' "$CONF3" >"$T/bad4"
run "$LMBENCH" run -c "$T/bad4" --list
ok $([ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q "bad4:7: FSDIR '*/nonexistent/dir'*: not a directory"; echo $?) \
    "FSDIR that is not a directory: named with its line"
run "$LMBENCH" run -c "$T/bad4" --fsdir /tmp --list
is "$RC" 0 "... and --fsdir over it is fine"
printf 'FSDIR=/tmp\nFILE=/nonexistent/dir/XXX\n' >"$T/bad5"
run "$LMBENCH" run -c "$T/bad5" --list
ok $([ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q 'bad5:2: FILE .*its directory is not a writable directory'; echo $?) \
    "FILE in a missing directory: named with its line"
printf 'LMBENCH_SCHED=SOMETIMES\n' >"$T/bad6"
run "$LMBENCH" run -c "$T/bad6" --list
ok $([ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q "bad6:1: LMBENCH_SCHED='SOMETIMES'"; echo $?) \
    "a placement that does not parse: named with its line"

# --- a tiny run: what came from the file, in run.config --------------------------------------

mkdir -p "$T/fs" "$T/w"
cat >"$T/tiny" <<EOF
DISKS=""
ENOUGH=300
FILE=$T/fs/XXX
FSDIR=$T/fs
TOTAL_MEM=2048
MB=1
PROFILE=quick
SYNC_MAX="1"
BENCHMARK_HARDWARE=NO
BENCHMARK_OS=NO
BENCHMARK_SYSCALL=YES
BENCHMARK_SELECT=NO
EOF
(cd "$T/w" && env -u ENOUGH "$LMBENCH" run -c "$T/tiny" >"$T/out" 2>"$T/err")
rc=$?
is "$rc" 0 "a tiny run from a config file: exit status 0"
is "$(grep -c 'ignored (no equivalent): DISKS, TOTAL_MEM$' "$T/err")" 1 "a run says the ignored keys once"
R="$T/w/results/$(hostname).0"
like "$(cat "$R" 2>/dev/null)" "^\\[FILE: $T/fs/XXX\\.[^/]*\\]\$" "FILE: the scratch file is made at that path (a unique suffix added)"
is "$(ls -A "$T/fs")" "" "... and removed after the run"
if json_usable; then
    json_ok "$R.json" '.run.config.config_file.path == "'"$(cd "$T" && pwd -P)/tiny"'"
        and .run.config.config_file.used.MB == "1" and .run.config.config_file.used.ENOUGH == "300"
        and .run.config.config_file.used.BENCHMARK_SYSCALL == "YES" and .run.config.enough == "300"
        and .run.config.config_file.ignored == ["DISKS", "TOTAL_MEM"]
        and .run.config.file == "'"$T/fs/XXX"'" and (.run.config.benchmarks_off | index("SELECT")) != null
        and .run.config.os == true and .run.config.network == false and .run.config.hardware == false' \
        "run.config: the file's path, the keys it gave, those ignored, FILE and the switches" '.run.config'
    json_ok "$R.json" '[.run.steps[].name | select(test("^lat_syscall ") | not)] == []' \
        "only the benchmarks switched on ran" '[.run.steps[].name]'
else
    skip "run.config: built without jansson"
    skip "steps: built without jansson"
fi
run "$LMBENCH" run --list
is "$ERR" "" "without -c: no ignored-key line"

done_testing
