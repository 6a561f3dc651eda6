# SPDX-License-Identifier: MIT
# tests/cli/lib-numa.sh: the checks lat_numa.t and bw_numa.t share, sourced by
# each after lib.sh, lib-os.sh and lib-hw.sh with NAME (the command), CMD,
# UNITWORD (the classic line's unit), UNIT (the JSON unit) and CASE (the
# record's case, null for none) set: the matrix of NUMA node pairs (one node
# here; two nodes and a memory-only node from fake sysfs trees), the classic
# lines, --json records (params, statuses, reasons), -P and --cpus placement,
# bad input, a size that does not fit, SIGINT.

NUM='[0-9]+\.[0-9]{2}'
FIX=$SRCROOT/tests/fixtures/sysfs
SIZE=1m
NODES=$(cat /sys/devices/system/node/online 2>/dev/null || echo 0)
if [ "$CASE" = null ]; then JCASE=null; else JCASE="\"$CASE\""; fi

# The common options are checked before anything else, on every system.
usage_error "$NAME" "$CMD" -N 0
usage_error "$NAME" "$CMD" --bogus
usage_error "$NAME" env ENOUGH=abc "$CMD"

run "$CMD" -s "$SIZE" -N 3
if [ "$RC" = 3 ]; then
    # A kernel or container that binds no memory: one skipped record, nothing else.
    like "$ERR" "^$NAME: .*skipped: .*mbind" "exit 3: skipped, and why (mbind)"
    done_testing
    exit 0
fi
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
all_like "$(printf '%s\n' "$ERR" | grep -v ': note: ')" "^node [0-9]+ -> node [0-9]+: $NUM $UNITWORD\$" \
    "every line but the notes is 'node C -> node M: X $UNITWORD'"
like "$ERR" "^node 0 -> node 0: $NUM $UNITWORD\$" "node 0 -> node 0 is measured"
hw_positive "$(printf '%s\n' "$ERR" | grep '^node ')" "the values are positive"
if [ "$NODES" = 0 ]; then
    like "$ERR" "^$NAME: note: one NUMA node: only local memory measured\$" \
        "one node: the note says only local memory was measured"
    is "$(printf '%s\n' "$ERR" | grep -c '^node ')" 1 "one node: one pair"
else
    skip "one node: the note (this machine has nodes $NODES)"
    skip "one node: one pair (this machine has nodes $NODES)"
fi

if json_usable; then
    run_json "$CMD" -s "$SIZE" -N 3 --json
    json_checks "$T/json" <<EOF
--json: a record per pair, benchmark $NAME, case $CASE, unit $UNIT
    .results | length >= 1 and all(.benchmark == "$NAME" and .case == $JCASE and .unit == "$UNIT")
--json: node 0 -> node 0 ok: params cpu_node, mem_node, size_bytes, cpus, mem_on_node 1, page_bytes
    .results[0] | .status == "ok" and .params.cpu_node == 0 and .params.mem_node == 0
    and .params.size_bytes == 1048576 and (.params.cpus | type) == "string"
    and .params.mem_on_node == 1 and .params.page_bytes > 0
--json: a positive value, the median of 3 samples
    .results[0] | .value > 0 and (.samples | length) == 3 and .value == .stats.median
--json: compat says lmbench 3 has no such benchmark
    .results[0].compat | startswith("new: ")
--json: the copy ran on a CPU of the node's list
    .results[0].placement.policy == "CUSTOM" and (.results[0].placement.cpus | length) == 1
EOF

    # Two nodes of two CPUs each, from a fake tree: node 1 does not exist
    # here, nor do CPUs 2-3. Every pair is a record; the three that cannot be
    # measured say why, and the exit status says so.
    if [ -d /sys/devices/system/node/node1 ]; then
        skip "fake trees: this machine has a node 1 of its own"
    else
    run_json env LMBENCH_SYSFS="$FIX/numa2" "$CMD" -s "$SIZE" -N 3 --json
    is "$RC" 1 "numa2: exit 1 (pairs not measured)"
    json_checks "$T/json" <<'EOF'
numa2: four records, one per pair, in order 0->0, 0->1, 1->0, 1->1
    [.results[] | [.params.cpu_node, .params.mem_node]] == [[0,0],[0,1],[1,0],[1,1]]
numa2: 0 -> 0 measured
    .results[0].status == "ok" and .results[0].value > 0
numa2: 0 -> 1 failed: mbind to node 1 refused, with the reason
    .results[1].status == "failed" and (.results[1].reason | test("mbind to node 1: Invalid argument"))
numa2: 1 -> 0 and 1 -> 1 skipped, as lat_c2c skips such pairs: node 1's CPUs 2-3 are not here (a fake tree)
    .results[2:] | all(.status == "skipped" and (.reason | test("node 1's CPUs \\(2-3\\).*LMBENCH_SYSFS")))
numa2: no value for an unmeasured pair
    .results[1:] | all(.value == null)
EOF
    run_json env LMBENCH_SYSFS="$FIX/numa-memonly" "$CMD" -s "$SIZE" -N 3 --json
    is "$RC" 1 "numa-memonly: exit 1 (node 1's memory not here)"
    like "$ERR" "^$NAME: note: node 1 has no CPUs: it is measured as memory only\$" \
        "numa-memonly: a note says node 1 has no CPUs"
    json_checks "$T/json" <<'EOF'
numa-memonly: two records (no row for the node without CPUs): 0->0 ok, 0->1 failed (mbind)
    [.results[] | [.params.cpu_node, .params.mem_node, .status]] == [[0,0,"ok"],[0,1,"failed"]]
    and (.results[1].reason | test("mbind to node 1"))
EOF
    fi

    tag=$(new_tag)
    run_json env LMB_TEST_TAG="$tag" "$CMD" -s "$SIZE" -N 3 -P 2 --json
    json_checks "$T/json" <<'EOF'
-P 2: 0 -> 0 ok with two copies, each on a CPU of node 0
    .results[0] | .status == "ok" and .copies == 2 and (.placement.cpus | length) == 2
EOF
    no_process_left "$tag" "-P 2: no copy left behind"

    cpu=$(usable_cpus | tail -n 1)
    run_json "$CMD" -s "$SIZE" -N 3 --cpus "$cpu" --json
    json_checks "$T/json" <<EOF
--cpus $cpu: the pair runs there, and says so
    .results[0] | .status == "ok" and .params.cpus == "$cpu" and .placement.cpus == [$cpu]
EOF
else
    skip "--json checks: no JSON"
fi

# The classic lines of the fake trees: one line for the measured pair, a
# failed or skipped message for each other.
if [ -d /sys/devices/system/node/node1 ]; then
    skip "numa2 classic lines: this machine has a node 1 of its own"
else
    run env LMBENCH_SYSFS="$FIX/numa2" "$CMD" -s "$SIZE" -N 3
    is "$(printf '%s\n' "$ERR" | grep -c '^node 0 -> node 0: ')" 1 "numa2: one classic line (0 -> 0)"
    is "$(printf '%s\n' "$ERR" | grep -c "^$NAME: .*(cpu_node=0 mem_node=1 .*): failed: ")" 1 \
        "numa2: a 'failed: reason' message naming 0 -> 1 (mbind refused)"
    is "$(printf '%s\n' "$ERR" | grep -c "^$NAME: .*(cpu_node=1 mem_node=[01] .*): skipped: ")" 2 \
        "numa2: two 'skipped: reason' messages naming 1 -> 0 and 1 -> 1 (CPUs not here)"
fi

# A size that does not fit in memory: a failed record, exit 1.
failed_run "$NAME" "a buffer larger than memory fails (exit 1), with the reason" "$CMD" -s 64g -N 3

usage_error "$NAME" "$CMD" extra
usage_error "$NAME" "$CMD" -s
usage_error "$NAME" "$CMD" -s abc
usage_error "$NAME" "$CMD" -s 4k
usage_error "$NAME" "$CMD" -s 65537
hw_interrupt "$NAME SIGINT" 2 "$CMD" -s 16m -N 1000 --min-time 0.2

done_testing
