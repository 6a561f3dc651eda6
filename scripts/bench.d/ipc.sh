# SPDX-License-Identifier: MIT
# make bench, signals and interprocess communication (sourced by scripts/bench):
# lat_sig catch against a small independent program.
#
#   lat_sig catch (us)  vs  bench-sig-ref (scripts/bench-sig-ref.c): kill() of
#                           SIGUSR1 to itself with a counting handler, minus
#                           kill(self, 0); medians of 15 alternating ~20 ms
#                           intervals of each; both pinned to one CPU
#
# The target: within 10% (eq10).

IPC_SIG=$OUT/bench-sig-ref
# Both sides run on one CPU, the last this script may use (away from CPU 0's
# interrupts), so that neither is moved between CPUs while it measures.
IPC_CPU=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
    awk -F- 'NF == 1 { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }' | tail -n 1)
ipc_pin() {
    if [ -n "$IPC_CPU" ]; then taskset -c "$IPC_CPU" "$@"; else "$@"; fi
}

if [ ! -x "$IPC_SIG" ] || [ scripts/bench-sig-ref.c -nt "$IPC_SIG" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$IPC_SIG" scripts/bench-sig-ref.c ||
        die "cannot compile scripts/bench-sig-ref.c"
fi

ours_sig_catch() {
    run ipc_pin "$BIN/lat_sig" catch
    pick "lat_sig catch" '/^Signal handler overhead:/ { print $4 }'
}

ref_sig_catch() {
    run ipc_pin "$IPC_SIG"
    pick bench-sig-ref 'NF == 3 { print $1 }'
}

DESCRIBE="$DESCRIBE  lat_sig catch (us)         vs  $IPC_SIG (scripts/bench-sig-ref.c):
                                kill(self, SIGUSR1) with its handler minus kill(self, 0),
                                medians of 15 alternating intervals of each; both on CPU ${IPC_CPU:-any}
"
CASES="$CASES
sig-catch|lat_sig catch (us)|ours_sig_catch|ref_sig_catch|eq10|3"
