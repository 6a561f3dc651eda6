# SPDX-License-Identifier: MIT
# tests/cli/lib-transfer.sh: the refusal of stream totals that cannot be
# moved within the timeout (src/lib/transfer.h), sourced after lib.sh.
#
#   total_refused NAME WHAT CMD ARGS...
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
