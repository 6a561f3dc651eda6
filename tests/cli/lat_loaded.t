#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_loaded: the classic lines, the records (two per point) and their params,
# -r and -w, a single CPU (loaded points skipped with the reason), more loaders
# than CPUs, bad input, --timeout and SIGINT (nothing left running, loader
# threads on their own CPUs).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_loaded
NUM='[0-9]+\.[0-9]+'
SMALL="-s 256k -N 3"
NCPU=$(usable_cpus | wc -l)
CPU0=$(usable_cpus | sed -n 1p)
CPU1=$(usable_cpus | sed -n 2p)
# Classic lines, not the warning that 256k is within the caches.
classic() {
    printf '%s\n' "$ERR" | grep -v ': warning: '
}

tag=$(new_tag)
run env ENOUGH=1000 LMB_TEST_TAG="$tag" "$CMD" $SMALL
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
no_process_left "$tag" "nothing left running after a run"
want=$NCPU
[ "$want" -lt 2 ] && want=1
is "$(classic | grep -c .)" "$want" "one classic line per measured point (no load, then 1 .. CPUs-1 loaders)"
like "$(classic | sed -n 1p)" "^loaders=0 rate=none: $NUM nanoseconds at 0\\.0 MB/s\$" \
    "point 0: 'loaders=0 rate=none: L nanoseconds at 0.0 MB/s'"
if [ "$NCPU" -ge 2 ]; then
    like "$(classic | sed -n 2p)" "^loaders=1 rate=max: $NUM nanoseconds at $NUM MB/s\$" \
        "point 1: 'loaders=1 rate=max: L nanoseconds at B MB/s'"
    bw=$(classic | sed -n 2p | awk '{ print $(NF - 1) }')
    positive "$bw" "one loader flat out delivered a positive bandwidth"
else
    skip "point 1: one CPU here"
    skip "point 1 bandwidth: one CPU here"
fi

if json_usable && [ "$NCPU" -ge 2 ]; then
    run_json env ENOUGH=1000 "$CMD" $SMALL -n 1 -r 300,10000000 --json --cpus "$CPU0,$CPU1"
    is "$RC" 0 "--json -r: exit 0"
    json_checks "$T/json" <<EOF
--json: two records per point (0, 1 at max, 1 at 300, 1 at 10000000), latency then bandwidth
    [.results[] | [.params.point, .case]] ==
    [[0,"latency"],[0,"bandwidth"],[1,"latency"],[1,"bandwidth"],[2,"latency"],[2,"bandwidth"],[3,"latency"],[3,"bandwidth"]]
--json: every record lat_loaded, ok, 3 samples; latency in ns, bandwidth in MB/s
    .results | all(.benchmark == "lat_loaded" and .status == "ok" and (.samples | length) == 3
                   and .unit == (if .case == "latency" then "ns" else "MB/s" end))
--json: params point, loaders, rate, load, size_bytes, chase_cpu, loader_cpus (+ the chase's pages)
    .results | all(.params | (keys - ["page_bytes", "huge_percent"] | sort) ==
                   (["chase_cpu","load","loader_cpus","loaders","point","rate","size_bytes"]))
--json: rates none, max, 300, 10000000; loaders 0, 1, 1, 1; load rd; size 262144
    [.results[] | select(.case == "latency") | [.params.rate, .params.loaders]] ==
        [["none",0],["max",1],["300",1],["10000000",1]]
    and (.results | all(.params.load == "rd" and .params.size_bytes == 262144))
--json: the chase on the first CPU, the loader on the second; the chase ran there
    .results | all(.params.chase_cpu == $CPU0 and .params.loader_cpus == (if .params.loaders == 0 then "" else "$CPU1" end))
    and ([.[] | select(.case == "latency") | .placement.ran_on[0]] | all(. == $CPU0))
--json: no load delivers 0 MB/s; one loader a positive figure; the medians are the values
    (.results[1].value == 0) and (.results[3].value > 0)
    and (.results | all(.value == .stats.median))
--json: a rate asked is not assumed: 300 MB/s delivers a positive figure, at most 1.5 times it
    .results[5].value > 0 and .results[5].value <= 450
--json: a rate out of reach is warned about (10^7 MB/s per loader)
    .results[7].warnings | any(test("asked 1 x 10000000 MB/s, delivered"))
--json: compat says lmbench 3 has no such figure
    .results | all(.compat | startswith("new: "))
EOF
    run_json env ENOUGH=1000 "$CMD" $SMALL -n 1 -w --json --cpus "$CPU0,$CPU1"
    json_ok "$T/json" '[.results[].params.load] | all(. == "wr")' "-w: load wr"
    json_ok "$T/json" '.results[3] | .status == "ok" and .value > 0' "-w: the writers delivered a positive bandwidth"
else
    skip "--json -r (no JSON or one CPU)"
    skip "-w (no JSON or one CPU)"
fi

# One usable CPU: point 0 only; the loaded point says why it was not measured.
run env ENOUGH=1000 "$CMD" $SMALL --cpus "$CPU0"
is "$RC" 0 "--cpus (one CPU): exit 0 (point 0 was measured)"
is "$(classic | grep -c '^loaders=')" 1 "one CPU: only point 0's line"
like "$ERR" "lat_loaded: latency \\(point=1 loaders=1 rate=max.*\\): skipped: not measured: 1 loaders need 1 CPUs besides the chase's; 0 usable" \
    "one CPU: point 1 skipped, with the reason"
run env ENOUGH=1000 LMBENCH_SCHED=SINGLE "$CMD" $SMALL
like "$ERR" "point=1 .*skipped: not measured" "LMBENCH_SCHED=SINGLE: one CPU, point 1 skipped"
if json_usable; then
    run_json env ENOUGH=1000 "$CMD" $SMALL --cpus "$CPU0" --json
    json_ok "$T/json" '[.results[] | .status] == ["ok","ok","skipped","skipped"]' \
        "one CPU --json: point 0 ok, both records of point 1 skipped"
else
    skip "one CPU --json"
fi
if [ "$NCPU" -ge 2 ]; then
    run env ENOUGH=1000 "$CMD" $SMALL -n 3 --cpus "$CPU0,$CPU1"
    is "$RC" 0 "-n 3 on two CPUs: exit 0"
    is "$(classic | grep -c '^loaders=')" 2 "-n 3 on two CPUs: points 0 and 1 measured"
    is "$(printf '%s\n' "$ERR" | grep -c 'skipped: not measured: [23] loaders need')" 4 \
        "-n 3 on two CPUs: points 2 and 3 skipped (both records each)"
else
    skip "-n 3 on two CPUs: one CPU here"
    skip "-n 3: one CPU"
    skip "-n 3: one CPU"
fi
run env ENOUGH=1000 "$CMD" $SMALL -n 0
is "$(classic | grep -c '^loaders=')" 1 "-n 0: point 0 only"

usage_error lat_loaded "$CMD" 64m
usage_error lat_loaded "$CMD" -s 1k
usage_error lat_loaded "$CMD" -s 64q
usage_error lat_loaded "$CMD" -n -1
usage_error lat_loaded "$CMD" -n x
usage_error lat_loaded "$CMD" -r abc
usage_error lat_loaded "$CMD" -r 0
usage_error lat_loaded "$CMD" -r 1.5
usage_error lat_loaded "$CMD" -r 100,
usage_error lat_loaded "$CMD" -r 100,,200
usage_error lat_loaded "$CMD" -r ""
usage_error lat_loaded "$CMD" -r 99999999
usage_error lat_loaded "$CMD" -n 0 -r 100
usage_error lat_loaded "$CMD" -P 2
usage_error lat_loaded "$CMD" -x

# Bounded: --timeout stops the loaders and the chase.
tag=$(new_tag)
t0=$(date +%s)
run env LMB_TEST_TAG="$tag" "$CMD" -s 256k -N 1000 --min-time 0.2 --timeout 1
t1=$(date +%s)
is "$RC" 1 "--timeout 1 with a long run: exit 1"
like "$ERR" "timeout" "--timeout: the records say timeout"
ok $([ $((t1 - t0)) -le 4 ]; echo $?) "--timeout 1: over within 4 s (took $((t1 - t0)) s)"
no_process_left "$tag" "--timeout: nothing left running"

# While a loaded point runs: the loader thread is pinned to the second CPU;
# SIGINT ends everything.
if [ "$NCPU" -ge 2 ]; then
    tag=$(new_tag)
    # Point 0 (one thread) takes a second or so; points 1 and 2 add a loader's.
    start_bg "$tag" "$CMD" -s 256k -N 5 --min-time 0.1 -n 1 -r 100 --cpus "$CPU0,$CPU1"
    # A thread other than the main one pinned to the second CPU (under
    # qemu-user the emulator's own threads are among the process's too, and
    # come first).
    _pinned() {
        for _tid in $(ls /proc/"$BG"/task 2>/dev/null | grep -v "^$BG\$"); do
            [ "$(taskset -pc "$_tid" 2>/dev/null | sed 's/.*: //')" = "$CPU1" ] && return 0
        done
        return 1
    }
    if wait_for "the loader thread" 100 _pinned; then
        pass "the loader thread is pinned to CPU $CPU1"
        kill -INT "$BG" 2>/dev/null
        wait_bg
        is "$BG_RC" 130 "SIGINT during a loaded point: exit 130"
        no_process_left "$tag" "SIGINT: no process left behind" 20
    else
        kill -KILL "$BG" 2>/dev/null
        wait_bg
        fail "the loader thread is pinned to CPU $CPU1: no thread pinned there appeared"
        skip "SIGINT: exit 130"
        skip "SIGINT: nothing left"
    fi
else
    skip "loader thread placement: one CPU"
    skip "SIGINT during a loaded point: one CPU"
    skip "SIGINT: one CPU"
fi

done_testing
