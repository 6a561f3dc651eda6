# SPDX-License-Identifier: MIT
# make bench, the harness (sourced by scripts/bench): -P copies in lockstep add
# up to what the CPUs can do, not to P times one copy.
#
#   bw_mem -P 4N 16k frd (N = CPUs usable)   vs  N x bw_mem 16k frd (one copy)
#                                                target: at most 1.15 (lmbench 3's
#                                                way summed copies that ran one
#                                                after another: 18x at -P 32 on 2 CPUs)

harness_ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
harness_P=$((4 * harness_ncpu))

ours_copies() {
    run "$BIN/bw_mem" -P "$harness_P" 16k frd
    # the classic line, not the warning that the copies share the CPUs
    pick "bw_mem -P $harness_P 16k frd" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }'
}

n_times_one() {
    local one
    run "$BIN/bw_mem" 16k frd
    one=$(pick "bw_mem 16k frd" 'NF == 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { print v }') || exit 1
    awk -v v="$one" -v n="$harness_ncpu" 'BEGIN { printf "%.2f\n", v * n }'
}

CASES="$CASES
harness-P|bw_mem -P $harness_P 16k frd / $harness_ncpu x one (MB/s)|ours_copies|n_times_one|le115|2"
DESCRIBE="$DESCRIBE  bw_mem -P $harness_P 16k frd    vs  $harness_ncpu x bw_mem 16k frd (one copy): copies in lockstep
                                sum to what $harness_ncpu CPUs do (target: ratio at most 1.15)
"
