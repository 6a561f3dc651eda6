# SPDX-License-Identifier: MIT
# tests/cli/lib-transfer.sh: the refusal of stream totals that cannot be
# moved within the timeout (src/lib/transfer.h), sourced after lib.sh.
#
#   total_refused NAME WHAT CMD ARGS...
#   stream_limits NAME   (the whole set for bw_pipe and bw_unix: uses $CMD,
#                         $LABEL and $BW of the caller)
#
# Two test points: a usage error (exit 2, "NAME: ...", the usage line) at once,
# and its message naming the figures, matched against the extended regex WHAT.

total_refused() {
    _tname=$1
    _twhat=$2
    shift 2
    usage_error "$_tname" timeout 20 "$@"
    like "$(printf '%s\n' "$ERR" | sed -n 1p)" "^$_tname: $_twhat" \
        "$(_show_args "$@"): refused with the figures: $_twhat"
}

# The message for a total of SIZE (as printed, e.g. '1 TiB') moved at least
# ROUNDS times (N + 2) at up to 40 GB/s, taking at least SECS s (a regex
# fragment), beyond the timeout TIMEOUT.
total_too_slow() {
    echo "-M [^ ]+: $1 moved at least $2 times \\(one calibration round, one untimed interval, [0-9]+ samples?\\) at up to 40 GB/s takes at least $3 s, beyond --timeout $4 s\$"
}

# The totals refused and the memory guard, for a local stream benchmark (-M
# total, -m message) whose copy and writer each hold a -m message: 4 copies of
# 64 MiB messages need 512 MiB, refused in a 256 MiB memory cgroup before
# anything is allocated.
stream_limits() {
    total_refused "$1" "$(total_too_slow '1 TiB' 13 357 300)" "$CMD" -M 1t
    total_refused "$1" "$(total_too_slow '1 TiB' 3 82.5 60)" "$CMD" -N 1 -M 1t --timeout 60
    total_refused "$1" "-M 1t: 1 TiB moved at least 13 times .* takes at least 357 s, beyond the 300 s one measurement may take\$" \
        "$CMD" -M 1t --timeout 1000
    total_refused "$1" "$(total_too_slow '1 TiB' 13 357 300)" "$CMD" -P 4 -M 1t
    total_refused "$1" "-M 9223372036854775807: 8.0 EiB moved at least 13 times .* is more bytes than 64-bit counts hold\$" \
        "$CMD" -M 9223372036854775807
    total_refused "$1" "-M 700t: 700 TiB moved at least 13 times .* by each of 1024 copies is more bytes than 64-bit counts hold\$" \
        "$CMD" -P 1024 -M 700t
    run env ENOUGH=1000 "$CMD" -N 3 -M 64k --timeout 60
    one_line_like "$ERR" "^$LABEL: $BW MB/sec\$" "-M 64k --timeout 60 (well within it): measured"

    # The memory guard (issue 15): each copy and its writer hold a -m message: 4
    # copies of 64 MiB messages need 512 MiB, refused in a 256 MiB memory cgroup
    # before anything is allocated.
    if memcg_make 256m; then
        memcg_refused "$1" "-P 4 -m 64m in a 256 MiB memory cgroup: refused at once, no OOM kill" \
            "$CMD" -P 4 -N 1 -m 64m -M 64m
        memcg_run env ENOUGH=1000 "$CMD" -N 3 -M 1m
        one_line_like "$ERR" "^$LABEL: $BW MB/sec\$" "in the 256 MiB cgroup, -M 1m: measured"
        memcg_remove
    else
        skip "memory cgroup: $MEMCG_WHY"
        skip "memory cgroup: $MEMCG_WHY"
    fi
}
