#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cli/NAME.t for NAME = lat_numa: the matrix of NUMA node pairs (one node
# here; two nodes and a memory-only node from fake sysfs trees), the classic
# lines, --json records (params, statuses, reasons), -P and --cpus placement,
# bad input, a size that does not fit, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"
. "$(dirname "$0")/lib-hw.sh"

NAME=lat_numa
CMD=$BIN/$NAME
UNITWORD='nanoseconds'
UNIT=ns
CASE=null
. "$(dirname "$0")/lib-numa.sh"
