#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cli/NAME.t for NAME = bw_numa: the matrix of NUMA node pairs (one node
# here; two nodes and a memory-only node from fake sysfs trees), the classic
# lines, --json records (params, statuses, reasons), -P and --cpus placement,
# bad input, a size that does not fit, SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"
. "$(dirname "$0")/lib-hw.sh"

NAME=bw_numa
CMD=$BIN/$NAME
UNITWORD='MB/sec'
UNIT=MB/s
CASE=rd
. "$(dirname "$0")/lib-numa.sh"
