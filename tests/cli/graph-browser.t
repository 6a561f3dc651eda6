#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench graph in a real browser: headless Chromium loads the page made from
# two small runs of ours and an lmbench 3 file, and tests/browser/check-page.js,
# run in the page after its own script, finds no two text labels overlapping,
# no label cut off by its plot's edge, no empty plot, no series without a
# legend entry and no script error (at 1200 and at 700 px wide); one
# screenshot per plot type is kept (in $LMBENCH_ARTEFACTS/graph, default
# $LMBENCH_BUILD/test-artefacts/graph). Hand-made pages with each fault show
# that the check reports it; an interrupted check leaves no browser process.
. "$(dirname "$0")/lib.sh"
LMB_BROWSER_DIR=$SRCROOT/tests/browser
. "$LMB_BROWSER_DIR/lib-chromium.sh"

FIX=$SRCROOT/tests/fixtures
G=$FIX/graph
ART=${LMBENCH_ARTEFACTS:-$LMBENCH_BUILD/test-artefacts}/graph

if ! lmb_chromium_find; then
    skip "lmbench graph in a browser: chromium is not installed (scripts/install-deps installs it)"
    done_testing
fi
# The pages are drawn from results files of ours: a build without jansson
# cannot read them (it says so; graph.t checks that).
"$BIN/lat_syscall" --json -N 1 null >/dev/null 2>&1
if [ $? -eq 3 ]; then
    skip "lmbench graph in a browser: built without jansson (our results files cannot be read)"
    done_testing
fi
trap 'lmb_chromium_kill; _cleanup' EXIT

run "$LMBENCH" graph -o "$T/page.html" "$G/run-a.json" "$G/run-b.json" "$FIX/lmbench3-x86_64-linux-vm.0"
is "$RC:$ERR" "0:" "graph of two runs of ours and an lmbench 3 file: exit 0, nothing on stderr"
M=$FIX/modern
run "$LMBENCH" graph -o "$T/modern.html" "$M/big.json" "$M/small.json" "$M/scale.json"
is "$RC:$ERR" "0:" "graph of the modern fixtures (heat maps, loaded latency, scaling): exit 0"

# --- one browser run: the real page and the hand-made ones ------------------------------

TAG=$(new_tag)
LMB_CHROMIUM_TAG=$TAG
mkdir "$T/b"
lmb_browser_check "$T/b" "$T/page.html" "$T/modern.html" "$G/good.html" "$G/overlap.html" "$G/empty.html" \
    "$G/nolegend.html" "$G/clipped.html" >"$T/found" 2>"$T/found.err"
crc=$?
LMB_CHROMIUM_TAG=
isnt "$crc" 2 "the browser ran and every page's check reported"
[ "$crc" = 2 ] && diag_text "findings" "$(cat "$T/found" "$T/found.err")"
no_process_left "$TAG" "no browser process left after the run" 20

# problems PAGE: the problems the check found on PAGE, without the page's name.
problems() {
    grep -F "$1: problem " "$T/found" | sed "s|^.*: problem ||"
}
plots() {
    grep -F "$1: plot " "$T/found" | sed "s|^.*: plot ||"
}

# The check can fail: each fault of a hand-made page is reported, and only it.
is "$(problems "$G/good.html")" "" "a page with nothing wrong: no problem reported"
like "$(plots "$G/good.html")" '^good series=2 drawn=2 points=6 labels=[1-9]' \
    "... and its plot, series, points and labels are seen"
one_line_like "$(problems "$G/overlap.html")" \
    '^overlap: labels overlap: "L2 512K \(measured\)" \([0-9-]+,[0-9-]+ [0-9]+x[0-9]+\) and "L2 1M \(sysfs\)" ' \
    "two overlapping labels: reported, with their texts and boxes"
is "$(problems "$G/empty.html")" 'empty: series "a" draws nothing
empty: empty plot: no series draws anything' "an empty plot: reported"
is "$(problems "$G/nolegend.html")" 'nolegend: series "b" (data-series=1) has no legend entry' \
    "a series without a legend entry: reported"
one_line_like "$(problems "$G/clipped.html")" \
    '^clipped: label cut off by the edge of its plot: "L1 48K \(measured\)" \(-[0-9]+,' \
    "a label cut off by the edge of its svg: reported"

# The real page.
P=$(plots "$T/page.html")
like "$P" '^memory-latency series=[1-9][0-9]* drawn=[1-9]' "the page: a memory latency plot, drawn"
like "$P" '^bandwidth-bw_mem-frd series=[1-9][0-9]* drawn=[1-9]' "the page: a bandwidth plot, drawn"
like "$P" '^context-switch series=[1-9][0-9]* drawn=[1-9]' "the page: a context switch plot, drawn"
unlike "$P" ' labels=0 ' "the page: every plot has text labels that the check measured"
is "$(problems "$T/page.html")" "" \
    "the page: no overlapping or cut-off labels, no empty plot, every series in the legend, no script error"

# The modern plots: heat maps, the loaded-latency and the scaling curves.
MP=$(plots "$T/modern.html")
like "$MP" '^loaded-latency series=3 drawn=3' "the modern page: the loaded-latency curve, drawn"
like "$MP" '^scale-2-0 series=2 drawn=2' "the modern page: a scaling curve and its ideal line, drawn"
is "$(problems "$T/modern.html")" "" \
    "the modern page: no overlapping or cut-off labels (heat maps too), every series in the legend"

# --- one screenshot per plot type -------------------------------------------------------

# png_ok FILE W H: a PNG of W x H pixels with more than a blank page's bytes.
png_ok() {
    [ "$(od -An -tx1 -N8 "$1" 2>/dev/null | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
    _dims=$(od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
    [ "$_dims" = "$2 $3" ] && [ "$(wc -c <"$1")" -gt 4096 ]
}
rm -f "$ART"/*.png 2>/dev/null
TAG=$(new_tag)
LMB_CHROMIUM_TAG=$TAG
lmb_browser_shots "$T/b" "$T/page.html" "$T/found" "$ART" >"$T/shots" 2>&1
src=$?
LMB_CHROMIUM_TAG=
is "$src" 0 "screenshots: every one written"
[ "$src" = 0 ] || diag_text "shots" "$(cat "$T/shots")"
no_process_left "$TAG" "no browser process left after the screenshots" 20
for type in memory-latency bandwidth context-switch compare; do
    case $type in
    bandwidth | compare) line=$(printf '%s\n' "$P" | grep -E "^$type-[^ ]* " | head -n 1) ;;
    *) line=$(printf '%s\n' "$P" | grep -E "^$type " | head -n 1) ;;
    esac
    # The comparison view, once the page has one.
    [ -z "$line" ] && [ "$type" = compare ] && continue
    w=$(printf '%s\n' "$line" | sed -E 's/.* width=([0-9]*) .*/\1/')
    h=$(printf '%s\n' "$line" | sed -E 's/.* height=([0-9]*)$/\1/')
    check "screenshot of the $type plot: $ART/$type.png, a PNG of the plot's size" \
        png_ok "$ART/$type.png" $((w + 80)) $((h + 80))
done

# --- the runner: its output and exit status; interrupted, it leaves nothing -----------

run "$LMB_BROWSER_DIR/check-graph" "$G/good.html" "$G/nolegend.html"
is "$RC:$OUT" "1:$G/nolegend.html: problem nolegend: series \"b\" (data-series=1) has no legend entry" \
    "check-graph: exit 1, one line per problem"
run "$LMB_BROWSER_DIR/check-graph"
is "$RC:$OUT" "2:" "check-graph without a page: exit 2"
like "$ERR" '^Usage: tests/browser/check-graph ' "... and its usage"

# A page whose script never ends: the browser runs until interrupted.
sed 's|</svg>|</svg><script>for (;;) {}</script>|' "$G/good.html" >"$T/hang.html"
browser_started() {
    for _p in $(tagged_pids "$1"); do
        case $(cat "/proc/$_p/comm" 2>/dev/null) in
        chrom*) return 0 ;;
        esac
    done
    return 1
}
TAG=$(new_tag)
start_bg "$TAG" "$LMB_BROWSER_DIR/check-graph" "$T/hang.html"
if wait_for "the browser starts" 600 browser_started "$TAG"; then
    sleep 1
    kill -INT "$BG"
    wait_bg
    is "$BG_RC" 130 "check-graph interrupted (SIGINT): exit 130"
    no_process_left "$TAG" "... and no browser process left" 50
else
    fail "check-graph on a page that never loads: the browser did not start"
    diag_text "stderr" "$(cat "$T/bg.err")"
fi

done_testing
