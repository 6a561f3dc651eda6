#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_c2c: the classic lines of a pair, both variants, --threads, --json
# records (params, relation, placement), fake topologies (2s8c: relations told
# apart, pairs with CPUs not here reported as skipped; 2s16c: the
# representative set and -a; unknown: relations unknown), one CPU, CPUs not
# online, bad input, a partner killed or stopped, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_c2c
FIX=$(cd "$(dirname "$0")/../fixtures/sysfs" && pwd)
NUM='[0-9]+\.[0-9]{2}'
REL='(smt|core|socket|unknown)'
export ENOUGH=1000

CPUS=$(usable_cpus)
NCPUS=$(printf '%s\n' "$CPUS" | grep -c .)
A=$(printf '%s\n' "$CPUS" | sed -n 1p)
B=$(printf '%s\n' "$CPUS" | sed -n 2p)
# Whether both CPUs of a pair are usable here.
usable() {
    printf '%s\n' "$CPUS" | grep -qx "$1" && printf '%s\n' "$CPUS" | grep -qx "$2"
}

if [ "$NCPUS" -ge 2 ]; then
    PAIR="$A,$B"
    run "$CMD" -N 3 "$PAIR"
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "cas $PAIR: exit 0, nothing on stdout"
    one_line_like "$ERR" "^CPU $A <-> CPU $B \\($REL\\): $NUM nanoseconds\$" \
        "cas: stderr is exactly 'CPU $A <-> CPU $B (relation): X.XX nanoseconds'"
    positive "$(printf '%s\n' "$ERR" | sed -n 's/.*: \([0-9.]*\) nanoseconds$/\1/p')" \
        "cas: the round trip is positive"

    run "$CMD" -N 3 store "$PAIR"
    ok $([ "$RC" = 0 ]; echo $?) "store: exit 0"
    one_line_like "$ERR" "^CPU $A <-> CPU $B \\($REL\\): $NUM nanoseconds\$" "store: one classic line"

    tag=$(new_tag)
    run env LMB_TEST_TAG="$tag" "$CMD" -N 3 --threads "$PAIR"
    one_line_like "$ERR" "^CPU $A <-> CPU $B \\($REL\\): $NUM nanoseconds\$" \
        "--threads (the partner a thread): one classic line"
    no_process_left "$tag" "--threads: nothing left running"

    if json_usable; then
        run_json env LMBENCH_SCHED=SINGLE "$CMD" -N 3 --json "$PAIR"
        json_checks "$T/json" <<EOF
--json: one record, lat_c2c cas, unit ns, ok, the median of 3 samples
    .results | length == 1 and .[0].benchmark == "lat_c2c" and .[0].case == "cas"
    and .[0].unit == "ns" and .[0].status == "ok" and .[0].value > 0
    and (.[0].samples | length) == 3 and .[0].value == .[0].stats.median
--json: params cpu_a, cpu_b (ints), relation, ends
    .results[0].params | (keys == ["cpu_a", "cpu_b", "ends", "relation"])
    and .cpu_a == $A and .cpu_b == $B and (.relation | test("^$REL\$"))
--json: LMBENCH_SCHED=SINGLE is overridden: the copy on cpu_a, the partner on cpu_b
    .results[0] | .params.ends == "two_cpus" and .placement.cpus == [$A]
    and .placement.ran_on == [$A] and .placement.partners.per_copy[0][0].cpu == $B
    and .placement.partners.per_copy[0][0].ran_on == $B
--json: compat says lmbench 3 has no such figure
    .results[0].compat | startswith("new: ")
EOF
    else
        skip "--json: no JSON"
    fi

    # A partner that dies, one that stops answering (SIGSTOP), SIGINT.
    partner_killed lat_c2c "partner killed" "$CMD" -N 1000 --min-time 0.2 "$PAIR"
    tag=$(new_tag)
    start_bg "$tag" "$CMD" -N 1000 --min-time 0.2 store "$PAIR"
    if wait_for "the partner" 100 _has_grandchild "$BG"; then
        for _c in $(children_of "$BG"); do
            for _g in $(children_of "$_c"); do kill -STOP "$_g" 2>/dev/null; done
        done
        wait_bg
        is "$BG_RC" 1 "a stopped partner: the pair fails (exit 1), no hang"
        like "$(cat "$T/bg.err")" "^lat_c2c: store \\(cpu_a=$A .*failed: the partner on CPU $B did not answer for 1 s" \
            "a stopped partner: the reason says it did not answer"
        no_process_left "$tag" "a stopped partner: no process left behind" 20
    else
        kill -KILL "$BG" 2>/dev/null
        wait_bg
        fail "a stopped partner: no partner process appeared"
        skip "a stopped partner: reason"
        skip "a stopped partner: no process left"
    fi
    interrupted_running "lat_c2c" "$CMD" -N 1000 --min-time 0.2 "$PAIR"
else
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do skip "one usable CPU: no pair to measure"; done
fi

# The summary line needs two measured pairs: three usable CPUs.
if [ "$NCPUS" -ge 3 ]; then
    C=$(printf '%s\n' "$CPUS" | sed -n 3p)
    run "$CMD" -N 3 "$A,$B,$C"
    is "$(printf '%s\n' "$ERR" | grep -c ' nanoseconds$')" 4 "three CPUs: three pair lines and a summary"
    like "$ERR" "^cas round trip over 3 pairs: min $NUM, median $NUM, max $NUM nanoseconds\$" \
        "three CPUs: the summary line"
else
    run "$CMD" -N 3
    unlike "$ERR" "round trip over" "one pair measured: no summary line"
    skip "the summary line needs three usable CPUs"
fi

# One CPU: skipped, with the reason.
run "$CMD" -N 3 --cpus "$A"
is "$RC" 3 "--cpus $A (one CPU): exit 3, skipped"
one_line_like "$ERR" "^lat_c2c: cas: skipped: only one CPU \\(CPU $A\\) in --cpus: a core-to-core round trip needs two\$" \
    "one CPU: the reason"
run "$CMD" -N 3 "$A"
is "$RC" 3 "a one-CPU list: exit 3"
like "$ERR" "skipped: only one CPU \\(CPU $A\\) listed" "a one-CPU list: the reason"

# A CPU that is not online: the pair is there, skipped.
run "$CMD" -N 3 "$A,4000"
is "$RC" 3 "a CPU not online: exit 3 (all skipped)"
one_line_like "$ERR" "^lat_c2c: cas \\(cpu_a=$A cpu_b=4000 relation=unknown\\): skipped: CPU 4000 is not online \\(/sys/devices/system/cpu/online\\)\$" \
    "a CPU not online: a skipped pair with the reason"

if json_usable; then
    # The fake 2s8c machine: 28 pairs, relations from its topology, the pairs
    # this machine cannot run skipped with the reason.
    want_ok=0
    for p in 0,1 0,2 0,3 0,4 0,5 0,6 0,7 1,2 1,3 1,4 1,5 1,6 1,7 2,3 2,4 2,5 2,6 2,7 \
        3,4 3,5 3,6 3,7 4,5 4,6 4,7 5,6 5,7 6,7; do
        usable "${p%,*}" "${p#*,}" && want_ok=$((want_ok + 1))
    done
    run_json env LMBENCH_SYSFS="$FIX/2s8c" "$CMD" -N 3 --json
    json_checks "$T/json" <<EOF
2s8c: 28 records, one per pair a < b, in order
    [.results[].params | [.cpu_a, .cpu_b]] == [range(8) as \$a | range(\$a + 1; 8) as \$b | [\$a, \$b]]
2s8c: siblings N, N+4 are smt; one package core; across packages socket
    [.results[] | select(.params.relation == "smt") | [.params.cpu_a, .params.cpu_b]]
    == [[0,4],[1,5],[2,6],[3,7]]
    and ([.results[] | select(.params.relation == "core")] | length) == 8
    and ([.results[] | select(.params.relation == "socket")] | length) == 16
    and (.results[] | select(.params.cpu_a == 0 and .params.cpu_b == 2) | .params.relation) == "socket"
    and (.results[] | select(.params.cpu_a == 0 and .params.cpu_b == 5) | .params.relation) == "core"
2s8c: the pairs this machine can run measured ($want_ok), the others skipped with the reason
    ([.results[] | select(.status == "ok")] | length) == $want_ok
    and ([.results[] | select(.status != "ok")] | all(.status == "skipped"
         and (.reason | test("^CPU [0-9]+ is in the fake topology \\\\(LMBENCH_SYSFS\\\\) but this process can run only on CPUs "))))
    and ([.results[] | select(.status == "ok")] | all(.value > 0))
EOF
    run env LMBENCH_SYSFS="$FIX/2s8c" "$CMD" -N 3 store
    is "$(printf '%s\n' "$ERR" | grep -c '^lat_c2c: store (cpu_a=[0-9] cpu_b=[0-9] relation=[a-z]*): skipped: ')" \
        $((28 - want_ok)) "2s8c store: each pair not measured has its skipped line"
    ok $([ "$RC" = 0 ] || { [ "$want_ok" = 0 ] && [ "$RC" = 3 ]; }; echo $?) \
        "2s8c: exit 0 when a pair was measured (3 when none could be)"

    # 16 CPUs: CPU 0 with each other, one pair of each relation among the rest.
    # (--cpus of one CPU: nothing is measured, each pair is skipped at once.)
    run_json env LMBENCH_SYSFS="$FIX/2s16c" "$CMD" -N 3 --json --cpus "$A" 0-15
    json_ok "$T/json" '[.results[].params | [.cpu_a, .cpu_b]] == ([range(1; 16) | [0, .]] + [[1,2],[1,4],[1,9]])' \
        "2s16c: the representative set (0 with 1-15; core 1,2; socket 1,4; smt 1,9)" \
        '[.results[].params | [.cpu_a, .cpu_b, .relation]]'
    json_ok "$T/json" '[.results[] | select(.params.cpu_a == 1) | .params.relation] == ["core", "socket", "smt"]
        and all(.results[]; .status == "skipped" and (.reason | test("^CPU [0-9]+ is not in --cpus \\('"$A"'\\)$")))' \
        "2s16c: the extra pairs are one of each relation; pairs outside --cpus skipped, saying so"
    run_json env LMBENCH_SYSFS="$FIX/2s16c" "$CMD" -N 3 --json -a --cpus "$A" 0-9
    json_ok "$T/json" '(.results | length) == 45' "-a with a list of 10 CPUs: all 45 pairs"
    run_json env LMBENCH_SYSFS="$FIX/2s16c" "$CMD" -N 3 --json --cpus "$A" 0-9
    json_ok "$T/json" '(.results | length) == 9 + 3' "a list of 10 CPUs without -a: 9 pairs with 0, 3 more" \
        '[.results[].params | [.cpu_a, .cpu_b, .relation]]'

    # Topology files missing: every relation unknown.
    run_json env LMBENCH_SYSFS="$FIX/unknown" "$CMD" -N 3 --json --cpus "$A" 0-3
    json_ok "$T/json" '(.results | length) == 6 and all(.results[]; .params.relation == "unknown")' \
        "unknown topology: 6 pairs, relation unknown"
    run_json env LMBENCH_SYSFS="$FIX/nonode" "$CMD" -N 3 --json --cpus "$A" 0-3
    json_ok "$T/json" '[.results[].params.relation] == ["smt","core","core","core","core","smt"]' \
        "nonode (siblings 0,1 and 2,3): smt and core"
    run_json env LMBENCH_SYSFS="$T/nowhere" "$CMD" -N 3 --json
    json_ok "$T/json" '(.results | length) == 1 and .results[0].status == "failed"
        and (.results[0].reason | test("cannot read the online CPUs from .*nowhere"))' \
        "a sysfs root without the CPU list: a failed record with the reason"
else
    for i in 1 2 3 4 5 6 7 8 9 10 11 12; do skip "fake topologies: no JSON"; done
fi

usage_error lat_c2c "$CMD" bogus
usage_error lat_c2c "$CMD" cas 0-1 extra
usage_error lat_c2c "$CMD" 3-1
usage_error lat_c2c "$CMD" -P 2
usage_error lat_c2c "$CMD" -x

done_testing
