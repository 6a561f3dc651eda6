#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench graph: the plots of issue 17 on the hand-made files of
# tests/fixtures/modern: a heat map per core-to-core and NUMA matrix (cells,
# colours, relation letters, unmeasured cells and why, the legend), the
# loaded-latency curve (one line per file and load, latency against the
# bandwidth delivered), the scaling curve of a document of lmbench scale
# (throughput against copies, the ideal line, the stop point); none of them
# for files without such records. The browser check is in graph-browser.t.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

M=$FIXTURES/modern

if ! json_usable; then
    skip "graph-modern: jq missing or built without jansson"
    done_testing
    exit 0
fi

run "$LMBENCH" graph -o "$T/p.html" "$M/big.json" "$M/small.json" "$M/scale.json"
is "$RC:$ERR" "0:" "the modern fixtures: exit 0, nothing on stderr"
P=$(cat "$T/p.html")
is "$(grep -o 'data-heatmap="[^"]*" data-file="[0-9]*" data-n="[0-9]*"' "$T/p.html" | tr '\n' ' ')" \
    'data-heatmap="c2c_cas" data-file="0" data-n="5" data-heatmap="c2c_store" data-file="0" data-n="3" data-heatmap="numa_latency" data-file="0" data-n="2" data-heatmap="numa_bandwidth" data-file="0" data-n="2" data-heatmap="c2c_cas" data-file="1" data-n="2" data-heatmap="numa_latency" data-file="1" data-n="1" data-heatmap="numa_bandwidth" data-file="1" data-n="1" ' \
    "a heat map per matrix and file: CPUs or nodes, in order"
# The first heat map: 5 x 5 cells.
H=$(awk '/data-heatmap="c2c_cas" data-file="0"/ { on = 1 } on && /<\/svg>/ { exit } on' "$T/p.html")
is "$(printf '%s\n' "$H" | grep -c '<rect class="cell"')" 25 "c2c heat map: n x n cells"
is "$(printf '%s\n' "$H" | grep -c 'data-kind="value"')" 12 "c2c heat map: 6 pairs measured, both halves"
is "$(printf '%s\n' "$H" | grep -c 'data-kind="unmeasured"')" 2 "c2c heat map: the unmeasured pair, both halves"
like "$H" '<title>CPU 0, CPU 1: 18\.5 ns \(SMT siblings\)</title>' "c2c heat map: a cell's figure and relation"
like "$H" '<title>CPU 0, CPU 4: unmeasured: CPU 4 is not online here \(relation unknown\)</title>' \
    "c2c heat map: why a cell is unmeasured"
like "$H" 'fill="#fff7bc" stroke="#fff" stroke-width="1.0"><title>CPU 0, CPU 1:' "the lowest figure: the lightest colour"
like "$H" 'fill="#4d004b" stroke="#fff" stroke-width="1.0"><title>CPU 0, CPU 3:' "the highest figure: the darkest colour"
like "$H" '>S</text>' "c2c heat map: relation letters"
like "$H" '<g class="scale" data-lo="18\.5" data-hi="152\.5">' "c2c heat map: the legend's range"
like "$H" '>152\.5 ns</text>' "c2c heat map: the legend in ns"
N=$(awk '/data-heatmap="numa_latency" data-file="0"/ { on = 1 } on && /<\/svg>/ { exit } on' "$T/p.html")
like "$N" '<title>CPU node 1, memory node 0: 145\.5 ns</title>' "NUMA heat map: rows the CPU's node, columns the memory's"

# The loaded-latency curve.
L=$(awk '/data-plot="loaded-latency"/ { on = 1 } on && /<\/svg>/ { exit } on' "$T/p.html")
like "$L" 'data-series="3" data-points="10"' "loaded latency: 3 lines (big rd, big wr, small rd), 10 points"
is "$(printf '%s\n' "$L" | grep -o 'data-name="[^"]*"' | tr '\n' ' ')" \
    'data-name="big rd" data-name="big wr" data-name="small rd" ' "loaded latency: one line per file and load"
like "$L" '<title>big rd: 22400, 188 ns per load</title>' "loaded latency: x the bandwidth, y the latency"
like "$P" 'bandwidth delivered by the loaders \(MB/s\)' "loaded latency: the x axis says what it is"

# The scaling curve.
S=$(awk '/data-plot="scale-2-0"/ { on = 1 } on && /<\/svg>/ { exit } on' "$T/p.html")
like "$S" 'data-series="2" data-points="8"' "scaling: the curve and its ideal line, 4 points each"
like "$S" 'data-name="scale ideal \(1 copy x copies\)"' "scaling: the ideal line"
like "$S" '<title>scale: 8, 3.81e\+07 operations per second, all copies</title>' \
    "scaling: throughput is copies over the latency"
like "$S" '<title>scale ideal \(1 copy x copies\): 8, 8e\+07 ' "scaling: ideal is one copy's throughput times the copies"
like "$S" 'data-kind="stop"><title>lmbench scale: the curve stops scaling at -P 4</title>' "scaling: the stop point"
like "$P" 'data-plot="scale-2-1"' "scaling: a plot per benchmark of the document (bw_mem too)"

# Files without such records: none of these plots.
run "$LMBENCH" graph "$FIXTURES/graph/run-a.json" "$RAW3"
is "$RC" 0 "files without modern records: exit 0"
unlike "$OUT" 'data-heatmap|loaded-latency|data-plot="scale' "files without modern records: no modern plot"

# A page that is nothing but modern plots is not "nothing to plot".
jq '.results |= map(select(.benchmark == "lat_c2c"))' "$M/big.json" > "$T/c2c.json"
run "$LMBENCH" graph "$T/c2c.json"
is "$RC" 0 "core-to-core alone: exit 0"
like "$OUT" 'data-heatmap="c2c_cas"' "core-to-core alone: its heat map"

done_testing
