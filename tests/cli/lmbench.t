#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench, the multi-call binary: `lmbench CMD ...` is `CMD ...`; list, help,
# version; dispatch on the name it is called by.
. "$(dirname "$0")/lib.sh"

# The output of a run with every number replaced by '#': its shape.
shape() {
    printf '%s\n' "$1" | sed -E 's/[0-9]+(\.[0-9]+)?/#/g'
}

# same_run DESC ARGS...: `lmbench ARGS` and `ARGS` (ARGS[0] a command name)
# both succeed and print the same shape on stdout and stderr.
same_run() {
    _desc=$1
    shift
    _c=$1
    shift
    run "$BIN/$_c" "$@"
    _rc1=$RC _out1=$(shape "$OUT") _err1=$(shape "$ERR")
    run "$LMBENCH" "$_c" "$@"
    is "$RC:$_rc1" "0:0" "$_desc: exit status 0 both ways"
    check "$_desc: some output" test -n "$ERR$OUT"
    is "$(shape "$OUT")" "$_out1" "$_desc: the same stdout, numbers aside"
    is "$(shape "$ERR")" "$_err1" "$_desc: the same stderr, numbers aside"
}

# same_bytes DESC ARGS...: as same_run, byte for byte.
same_bytes() {
    _desc=$1
    shift
    _c=$1
    shift
    run "$BIN/$_c" "$@"
    cp "$T/out" "$T/out1"
    cp "$T/err" "$T/err1"
    _rc1=$RC
    run "$LMBENCH" "$_c" "$@"
    ok $([ "$RC" = "$_rc1" ] && cmp -s "$T/out" "$T/out1" && cmp -s "$T/err" "$T/err1"; echo $?) \
        "$_desc: the same exit status ($_rc1), stdout and stderr, byte for byte"
}

# --- lmbench itself -------------------------------------------------------------------

run "$LMBENCH"
is "$RC" 2 "no arguments: exit status 2"
is "$OUT" "" "no arguments: nothing on stdout"
like "$ERR" '^Usage: lmbench ' "no arguments: the usage on stderr"

run "$LMBENCH" nosuchcommand
is "$RC" 2 "unknown command: exit status 2"
is "$OUT" "" "unknown command: nothing on stdout"
like "$(printf '%s\n' "$ERR" | head -n 1)" "^lmbench: .*nosuchcommand" "unknown command: 'lmbench: ...' naming it"
like "$ERR" '^Usage: lmbench ' "unknown command: then the usage"

run "$LMBENCH" --frobnicate
is "$RC:$OUT" "2:" "unknown option: exit status 2, nothing on stdout"

for h in --help -h help; do
    run "$LMBENCH" $h
    ok $([ "$RC" = 0 ] && [ -z "$ERR" ] && printf '%s\n' "$OUT" | head -n 1 | grep -q '^Usage: lmbench '; echo $?) \
        "lmbench $h: exit 0, the usage on stdout"
done

run "$LMBENCH" version
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -Eqx 'lmbench [^ ]+'; echo $?) "lmbench version: 'lmbench VERSION'"
run "$LMBENCH" --version
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -Eqx 'lmbench [^ ]+'; echo $?) "lmbench --version: 'lmbench VERSION'"

# --- list -------------------------------------------------------------------------------

run "$LMBENCH" list
LIST=$OUT
is "$RC" 0 "list: exit status 0"
is "$ERR" "" "list: nothing on stderr"
all_like "$LIST" '^[a-z][a-z0-9_]* +(hardware|os|network|calibration) +[^ ].*$' \
    "list: every line is 'NAME CATEGORY SUMMARY'"
like "$LIST" '^bw_mem +hardware +' "list: bw_mem, hardware"
like "$LIST" '^lat_mem_rd +hardware +' "list: lat_mem_rd, hardware"
like "$LIST" '^lat_syscall +os +' "list: lat_syscall, os"
NAMES=$(printf '%s\n' "$LIST" | awk '{ print $1 }')
is "$(printf '%s\n' "$NAMES" | LC_ALL=C sort)" "$NAMES" "list: sorted by name"
is "$(printf '%s\n' "$NAMES" | sort -u | wc -l | tr -d ' ')" "$(count_lines "$NAMES")" "list: no name twice"
run "$LMBENCH" list extra
is "$RC:$OUT" "2:" "list with an argument: exit status 2, nothing on stdout"

# --- help ---------------------------------------------------------------------------------

run "$LMBENCH" help nosuchcommand
ok $([ "$RC" = 2 ] && [ -z "$OUT" ] && printf '%s\n' "$ERR" | grep -q 'nosuchcommand'; echo $?) \
    "help of an unknown command: exit 2, says which"
run "$LMBENCH" help bw_mem lat_syscall
is "$RC" 2 "help of two commands: exit status 2"
run "$LMBENCH" help list
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q 'list'; echo $?) "help of a verb: exit 0"

# --- every command: lmbench CMD ... == CMD ... ------------------------------------------------

MEASURE_WITHOUT_OPERANDS="lat_fs lat_pipe lat_unix lat_fifo lat_sem lat_fcntl lat_unix_connect
    bw_pipe bw_unix lat_c2c lat_epoll lat_eventfd lat_futex lat_pthread"
MEASURE_WITHOUT_OPERANDS=$(echo $MEASURE_WITHOUT_OPERANDS)
MEASURE_LONG_WITHOUT_OPERANDS="lat_ops par_ops mhz line cache tlb par_mem stream lat_rand
    lat_dram_page memsize lat_loaded lat_numa bw_numa"
MEASURE_LONG_WITHOUT_OPERANDS=$(echo $MEASURE_LONG_WITHOUT_OPERANDS)
for c in $NAMES; do
    run "$BIN/$c" --help
    cp "$T/out" "$T/help1"
    rc1=$RC
    run "$LMBENCH" help "$c"
    ok $([ "$RC" = 0 ] && [ "$rc1" = 0 ] && cmp -s "$T/out" "$T/help1"; echo $?) \
        "lmbench help $c is $c --help (exit 0, same text)"
    same_bytes "lmbench $c --help" "$c" --help
    same_bytes "lmbench $c --list" "$c" --list
    # A command whose operands are all optional measures when given none (its
    # figures differ from run to run): only the exit status must agree.
    case " $MEASURE_WITHOUT_OPERANDS " in
    *" $c "*)
        run "$BIN/$c" -N 1
        rc1=$RC
        run "$LMBENCH" "$c" -N 1
        is "$RC" "$rc1" "lmbench $c -N 1 (no operands; it measures): the same exit status ($rc1)"
        ;;
    *)
        case " $MEASURE_LONG_WITHOUT_OPERANDS " in
        *" $c "*)
            # These measure for long without operands (whole sweeps): a bad
            # operand instead, a usage error both ways.
            same_bytes "lmbench $c (a bad operand)" "$c" no-such-operand
            ;;
        *)
            # lmhttp with no arguments starts a server on port 8008: not here.
            [ "$c" = lmhttp ] || same_bytes "lmbench $c (no arguments)" "$c"
            ;;
        esac
        ;;
    esac
    same_bytes "lmbench $c --no-such-option" "$c" --no-such-option
    same_bytes "lmbench $c -N 0" "$c" -N 0 x
done

# --- real runs and bad input, by name ------------------------------------------------------

same_run "lat_syscall -N 3 null" lat_syscall -N 3 null
same_run "bw_mem -N 3 512 rd" bw_mem -N 3 512 rd
same_run "bw_mem -N 3 4k cp conflict" bw_mem -N 3 4k cp conflict
same_run "lat_mem_rd -N 3 8k 64" lat_mem_rd -N 3 8k 64
same_run "lat_mem_rd -t -N 3 4k 64 128" lat_mem_rd -t -N 3 4k 64 128
same_bytes "bw_mem 1kk rd" bw_mem 1kk rd
same_bytes "bw_mem 4k cp foo" bw_mem 4k cp foo
same_bytes "lat_syscall nosuchcall" lat_syscall nosuchcall
same_bytes "lat_mem_rd 64k 6" lat_mem_rd 64k 6
same_bytes "lat_syscall -P 0 null" lat_syscall -P 0 null
same_bytes "bw_mem --cpus 4095 4k rd" bw_mem --cpus 4095 4k rd
run "$LMBENCH" bw_mem 1kk rd
like "$(printf '%s\n' "$ERR" | head -n 1)" '^bw_mem: ' "lmbench bw_mem: messages are prefixed with bw_mem, not lmbench"
like "$(printf '%s\n' "$ERR" | sed -n 2p)" '^Usage: bw_mem ' "lmbench bw_mem: the usage names bw_mem"

# The same exit status for a timeout.
run "$BIN/bw_mem" -N 1000 --min-time 0.5 --timeout 0.2 1m rd
rc1=$RC
run "$LMBENCH" bw_mem -N 1000 --min-time 0.5 --timeout 0.2 1m rd
is "$RC:$rc1" "1:1" "a timeout: exit status 1 both ways"

if json_usable; then
    # The same document, values aside: same paths, same types, same argv.
    jshape='[paths(scalars) as $p | ($p | map(tostring) | join(".")) + " " + (getpath($p) | type)
             | select(startswith("run.start") or startswith("run.end") | not)] | join("\n")'
    run_json "$BIN/lat_syscall" -N 3 --json null
    s1=$(jq -r "$jshape" "$T/json")
    a1=$(jq -c '.run.argv' "$T/json")
    run_json "$LMBENCH" lat_syscall -N 3 --json null
    is "$RC" 0 "lmbench lat_syscall --json: exit status 0"
    s2=$(jq -r "$jshape" "$T/json")
    check "lmbench lat_syscall --json: a document with fields" test -n "$s2"
    is "$s2" "$s1" "lmbench lat_syscall --json: the same fields with the same types"
    is "$(jq -c '.run.argv' "$T/json")" "$a1" "lmbench lat_syscall --json: the same run.argv ($a1)"
else
    skip "--json: jq missing or built without jansson"
fi

# --- dispatch on the name it is called by ------------------------------------------------------

ln -s "$LMBENCH" "$T/bw_mem"
run "$T/bw_mem" -N 3 512 rd
one_line_like "$ERR" '^0\.000512 [0-9]+\.[0-9]{2}$' "a link named bw_mem anywhere is bw_mem"
ln -s "$LMBENCH" "$T/mybench"
run "$T/mybench" list
ok $([ "$RC" = 0 ] && [ "$OUT" = "$LIST" ]; echo $?) "a link with another name is lmbench"
run "$T/mybench" lat_syscall -N 3 null
one_line_like "$ERR" '^Simple syscall: [0-9]+\.[0-9]{4} microseconds$' "... and runs the commands given to it"

done_testing
