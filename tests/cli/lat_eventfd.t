#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_eventfd: both cases by default, each alone, placements of the two ends,
# --json (cases, partner kind, compat), bad input, a partner that dies or
# never answers, signals (prim_round_trip_checks in lib-prim.sh); several
# thread copies at once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"
. "$(dirname "$0")/lib-prim.sh"

prim_round_trip_checks lat_eventfd Eventfd

# Thread partners close the eventfds they share with their copy as they
# leave, after the copy's last write: several copies at once end cleanly.
run "$BIN/lat_eventfd" -N 3 -P 3 thread
one_line_like "$ERR" "^Eventfd latency \(threads\): [0-9]+\.[0-9]{4} microseconds\$" "thread -P 3: ok, one line"

done_testing
