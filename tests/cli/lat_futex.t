#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_futex: both cases by default, each alone, placements of the two ends,
# --json (cases, partner kind, compat), bad input, a partner that dies or
# never answers, signals (prim_round_trip_checks in lib-prim.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"
. "$(dirname "$0")/lib-prim.sh"

prim_round_trip_checks lat_futex Futex

done_testing
