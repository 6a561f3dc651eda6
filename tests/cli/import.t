#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench import: lmbench 3 raw results as our JSON records (golden), -o, bad
# input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

verb_contract import
verb_usage_error import
verb_usage_error import a b
verb_usage_error import -o

if ! json_usable; then
    run "$LMBENCH" import "$RAW3"
    is "$RC" 3 "built without jansson (or no jq): import is skipped (exit 3) or jq is missing"
    done_testing
fi

run_json "$LMBENCH" import "$RAW3"
is "$RC" 0 "import of the lmbench 3 fixture: exit status 0"
is "$ERR" "" "import: nothing on stderr"
# The golden records: benchmark, case, params, unit, status, value of each, in order.
jq -r '.results[] | [.benchmark, (.case // "-"), (.params | tojson), .unit, .status, (.value | tostring)] | @tsv' \
    "$T/json" >"$T/records.tsv"
ok $(cmp -s "$T/records.tsv" "$FIXTURES/lmbench3-x86_64-linux-vm.0.records.tsv"; echo $?) \
    "import: every record as the golden list (benchmark, case, params, unit, status, value)"
cmp -s "$T/records.tsv" "$FIXTURES/lmbench3-x86_64-linux-vm.0.records.tsv" ||
    diag_text "diff" "$(diff "$FIXTURES/lmbench3-x86_64-linux-vm.0.records.tsv" "$T/records.tsv" | head -n 20)"
json_checks "$T/json" <<'EOF2'
import: schema lmbench-results 1
    .schema == "lmbench-results" and .schema_version == 1
import: the host from the header keys
    .host.hostname == "vm" and .host.uname.sysname == "Linux" and .host.uname.release == "6.18.44-fc-v782" and .host.platform == "x86_64-linux-gnu" and .host.cpu.online == 2
import: the run's times in ISO 8601, its settings
    .run.start == "2026-11-30T10:26:29Z" and .run.end == "2026-11-30T11:09:20Z" and .run.config.MB == "512" and .run.config.parallel == 1
import: the tool is lmbench 3
    .tool.version == "lmbench-3alpha4" and .run.imported.format == "lmbench3-raw"
import: the header's error lines are warnings naming their line
    [.host.warnings[] | select(test("^line [0-9]+: not understood: (Kernel|Iface): error"))] | length == 2
import: integer add 0.00 is below_resolution with a reason
    [.results[] | select(.benchmark == "lat_ops" and .case == "add" and .params.type == "integer")][0] | .status == "below_resolution" and (.reason | test("0"))
import: the RPC error lines are failed lat_rpc records quoting the line
    [.results[] | select(.benchmark == "lat_rpc")] | length == 3 and all(.status == "failed" and (.reason | startswith("lmbench 3 printed: ")))
import: every ok record has a positive value, every other none
    all(.results[]; (.status == "ok" and .value > 0) or (.status != "ok" and .value == null))
import: lat_mem_rd: 8 stride curves and one random chase
    ([.results[] | select(.benchmark == "lat_mem_rd" and .case == "stride") | .params.stride_bytes] | unique) == [16,32,64,128,256,512,1024] and ([.results[] | select(.benchmark == "lat_mem_rd" and .case == "random") | .params.stride_bytes] | unique) == [16]
import: lat_mem_rd sizes are multiples of 512 bytes, from 512 to 512 MiB
    [.results[] | select(.benchmark == "lat_mem_rd") | .params.size_bytes] | all(. % 512 == 0) and min == 512 and max == 536870912
import: bw_mem at 1.05 MB is 1 MiB
    any(.results[]; .benchmark == "bw_mem" and .case == "frd" and .params.size_bytes == 1048576 and .value == 30373.88)
EOF2

# A JSON document goes through unchanged in its records.
"$BIN/lat_syscall" -N 3 --json null >"$T/sys.json" 2>/dev/null
run "$LMBENCH" import -o "$T/again.json" "$T/sys.json"
is "$RC:$OUT" "0:" "import -o FILE: exit 0, nothing on stdout"
json_ok "$T/again.json" ".results[0].benchmark == \"lat_syscall\" and .results[0].value == $(jq '.results[0].value' "$T/sys.json")" \
    "import of our JSON: the same record and value"
"$BIN/lat_syscall" --launches 2 -N 3 --json null >"$T/l2.json" 2>/dev/null
run "$LMBENCH" import -o "$T/l2again.json" "$T/l2.json"
json_ok "$T/l2again.json" '(.results[0].launches | map(.samples | length)) == [3,3] and (.results[0].samples | length) == 6 and (.host.context | type) == "object"' \
    "import keeps a record's launches and the host context"
check "import -o: no temporary file left" sh -c "! ls '$T' | grep -q '\\.tmp\$'"

run "$LMBENCH" import "$T/nosuch"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q '^lmbench import: .*nosuch'; echo $?) \
    "a missing file: exit 1, named"
printf 'hello\n' >"$T/junk"
run "$LMBENCH" import "$T/junk"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'not a results file'; echo $?) \
    "a file that is not a results file: exit 1"
run "$LMBENCH" import -o "$T/nodir/x.json" "$RAW3"
is "$RC" 1 "-o into a missing directory: exit 1"
"$LMBENCH" import "$RAW3" >/dev/full 2>"$T/err"
is "$?" 1 "import >/dev/full: exit 1"

# Hostile inputs (issue 15): a raw line cut short before its sscanf's %n is a
# line not understood, never a crash; a FIFO is refused at once, as such; an
# unreadable file says so (as another user: root reads everything).
printf '[lmbench3.0 results for Linux x 6.1]\n[HOSTNAME: x]\ntlb: 31 pa\nL1 cache: 1 bytes 2 nanoseconds 3 linesize 4 par\n' >"$T/cut3"
run "$LMBENCH" import "$T/cut3"
is "$RC" 0 "import of raw lines cut short: exit 0, no crash"
mkfifo "$T/fifo"
run "$LMBENCH" import "$T/fifo"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'fifo is a FIFO, not a regular file'; echo $?) \
    "import of a FIFO: refused at once, said"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 711 "$T"
    cp "$RAW3" "$T/secret"
    chmod 600 "$T/secret"
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$LMBENCH" import "$T/secret"
    ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q 'secret: Permission denied'; echo $?) \
        "import of an unreadable file: 'Permission denied'"
else
    skip "import of an unreadable file: needs root (to read as another user) and setpriv"
fi

done_testing
