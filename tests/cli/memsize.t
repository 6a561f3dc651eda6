#!/bin/sh
# SPDX-License-Identifier: MIT
# memsize: the megabytes on stdout, --json, bad input (no common options).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hw.sh"

CMD=$BIN/memsize

run "$CMD" 16
is "$RC" 0 "16: exit status 0"
one_line_like "$OUT" '^[0-9]+$' "16: stdout is one whole number"
check "16: between 1 and 16 MB ($OUT)" sh -c '[ "$1" -ge 1 ] && [ "$1" -le 16 ]' sh "${OUT:-0}"
is "$ERR" "" "16: nothing on stderr"

run "$CMD" 40
check "40: at most 40 MB, a multiple of the 16 MB step or 40 ($OUT)" \
    sh -c '[ "$1" = 40 ] || [ "$1" = 32 ] || [ "$1" = 16 ]' sh "${OUT:-0}"

run "$CMD" --help
like "$(printf '%s\n' "$OUT" | head -n 1)" '^Usage: memsize \[MB\]$' "--help: the usage line"

if json_usable; then
    run_json "$CMD" --json 8
    json_checks "$T/json" <<'JQ'
--json: one record of memsize, unit MB, metric size, params.asked_mb 8
    .results | length == 1 and (.[0] | .benchmark == "memsize" and .case == null and .unit == "MB"
    and .metric == "size" and .params.asked_mb == 8)
--json: ok, 8
    .results[0] | .status == "ok" and .value == 8
JQ
else
    skip "--json: jq missing or built without jansson"
fi

# --- the probe never wakes the OOM killer (issue 15) ------------------------------

# In a 256 MiB memory cgroup memsize tries the memory guard's share (75%) of
# the room; when the room shrinks while it touches (here the cgroup's limit is
# lowered under it, as another process taking memory would), it stops with a
# warning before the limit, and the OOM killer never runs.
. "$(dirname "$0")/lib-cgroup.sh"
if memcg_make 256m; then
    k0=$(memcg_oom_kills)
    memcg_run "$CMD" 1024
    check "1024 in a 256 MiB cgroup: at most 75% of it tried ($OUT MB)" \
        sh -c '[ "$1" -ge 16 ] && [ "$1" -le 192 ]' sh "${OUT:-0}"
    like "$ERR" 'only [0-9]+ MB \(75% of what is available: the memory cgroup' \
        "1024 in a 256 MiB cgroup: the warning names the share and the limit"
    if [ -f "$MEMCG/memory.limit_in_bytes" ]; then
        lim=$MEMCG/memory.limit_in_bytes use=$MEMCG/memory.usage_in_bytes
    else
        lim=$MEMCG/memory.max use=$MEMCG/memory.current
    fi
    timeout 120 sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 1024' sh "$MEMCG" "$CMD" \
        >"$T/ms.out" 2>"$T/ms.err" &
    ms=$!
    # Once it has started touching (8 MiB), the limit drops to 160 MiB while
    # it is still far under (64 MiB), or the probe outran the test.
    lowered=
    while kill -0 "$ms" 2>/dev/null; do
        u=$(cat "$use")
        if [ "$u" -gt 8388608 ]; then
            [ "$u" -lt 67108864 ] && echo 167772160 >"$lim" && lowered=yes
            break
        fi
    done
    wait "$ms"
    rc=$?
    k1=$(memcg_oom_kills)
    if [ -n "$lowered" ]; then
        is "$rc" 0 "the room shrinking under the probe: exit 0"
        is "$k1" "$k0" "the room shrinking under the probe: no OOM kill in the cgroup"
        like "$(cat "$T/ms.err")" 'stopped after [0-9]+ MB of [0-9]+: the memory available fell' \
            "the room shrinking under the probe: a warning says it stopped, a lower bound"
        check "the room shrinking under the probe: under the new limit ($(cat "$T/ms.out") MB)" \
            sh -c '[ "$1" -ge 1 ] && [ "$1" -lt 160 ]' sh "$(cat "$T/ms.out")"
    else
        for i in 1 2 3 4; do skip "the probe passed 64 MiB before the test could lower the limit"; done
    fi
    memcg_remove
else
    for i in 1 2 3 4 5 6; do skip "memory cgroup: $MEMCG_WHY"; done
fi

# --timeout: the touching stops with a second to spare and the figure so far
# is printed (a lower bound, said on stderr), rather than the backstop cutting
# the command off with nothing.
run timeout 20 "$CMD" --timeout 2 100000
is "$RC" 0 "--timeout 2 with 100000 MB asked: exit status 0"
one_line_like "$OUT" '^[0-9]+$' "--timeout 2: stdout is one whole number"
if printf '%s\n' "$ERR" | grep -q 'ran out'; then
    like "$ERR" "or the command's --timeout\) ran out" "--timeout 2: the warning names the timeout"
else
    like "$ERR" 'will be tried' "--timeout 2: all the memory tried was touched in time"
fi

usage_error memsize "$CMD" 0
usage_error memsize "$CMD" -1
usage_error memsize "$CMD" abc
usage_error memsize "$CMD" 1.5
usage_error memsize "$CMD" 16 32
usage_error memsize "$CMD" -N 3 16
usage_error memsize "$CMD" -P 2 16
usage_error memsize "$CMD" --bogus

done_testing
