#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_epoll: the classic line, -n, --json (params fds), descriptor limits,
# -P, bad input, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_epoll
NUM='[0-9]+\.[0-9]{4}'

run "$CMD" -N 3
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "exit 0, nothing on stdout"
one_line_like "$ERR" "^epoll_wait on 200 fd's: $NUM microseconds\$" \
    "the default: exactly 'epoll_wait on 200 fd's: X.XXXX microseconds'"
positive "$(label_value "$ERR")" "the latency is positive"
for n in 1 2 17 1000; do
    run "$CMD" -N 3 -n "$n"
    one_line_like "$ERR" "^epoll_wait on $n fd's: $NUM microseconds\$" "-n $n: the classic line"
done

# A low soft limit is raised up to the hard limit; a low hard limit fails clearly.
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 2100 ]; then
    run sh -c 'ulimit -Sn 256 && exec "$@"' sh "$CMD" -N 3 -n 2000
    one_line_like "$ERR" "^epoll_wait on 2000 fd's: $NUM microseconds\$" \
        "under a soft limit of 256 descriptors: raised, works"
else
    skip "under a soft limit: the hard limit ($hard) is too low here"
fi
failed_run lat_epoll "under a hard limit of 200 descriptors, -n 1000: exit 1, failed" \
    sh -c 'ulimit -n 200 && exec "$@"' sh "$CMD" -N 3 -n 1000
like "$ERR" 'limit' "a hard limit too low: the reason names the limit"

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 -n 50
one_line_like "$ERR" "^epoll_wait on 50 fd's: $NUM microseconds\$" "-P 2: one classic line"
no_process_left "$tag" "-P 2: no process left behind"

if json_usable; then
    run_json "$CMD" -N 3 --json -n 10
    json_one_record "$T/json" lat_epoll null us
    json_checks "$T/json" <<'J'
--json: params fds (integer, as asked), no ends (one-ended)
    .results[0].params == {"fds": 10}
--json: compat says lmbench 3 has no such figure
    .results[0].compat | startswith("new: lmbench 3 has no")
J
else
    skip "--json: no JSON"
fi

usage_error lat_epoll "$CMD" 100
usage_error lat_epoll "$CMD" -n 0
usage_error lat_epoll "$CMD" -n 100001
usage_error lat_epoll "$CMD" -n -5
usage_error lat_epoll "$CMD" -n ten
usage_error lat_epoll "$CMD" --threads

interrupted_running "lat_epoll" "$CMD" -P 2 -N 1000 --min-time 0.2

done_testing
