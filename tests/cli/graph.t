#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench graph: the HTML page, self-contained; rendered in headless Chromium
# (Debian's chromium) with no console error and the expected number of series
# and points in each plot; -o, bad input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

verb_contract graph
verb_usage_error graph -o

run "$LMBENCH" graph -o "$T/r.html" "$RAW3"
is "$RC:$OUT:$ERR" "0::" "graph -o FILE: exit 0, nothing on stdout or stderr"
check "graph -o: the page is written" test -s "$T/r.html"
check "graph -o: no temporary file left" sh -c "! ls '$T' | grep -q '\\.tmp\$'"
H=$(cat "$T/r.html")
like "$H" '^<!DOCTYPE html>$' "an HTML5 page"
unlike "$H" '(src|href)=' "self-contained: nothing loaded from elsewhere (no src= or href=)"
unlike "$H" '(https?:)?//[a-z]' "self-contained: no URL at all"
like "$H" '<svg [^>]*data-plot="memory-latency"' "a memory latency plot"
like "$H" '<svg [^>]*data-plot="bandwidth-bw_mem-frd"' "a bw_mem frd plot"
like "$H" '<svg [^>]*data-plot="context-switch"' "a context switch plot"
run "$LMBENCH" graph "$RAW3"
is "$RC" 0 "without -o: the page on stdout"
like "$OUT" '^</html>$' "... to its end"
run "$LMBENCH" graph -o "$T/nodir/r.html" "$RAW3"
is "$RC" 1 "-o into a missing directory: exit 1"
run "$LMBENCH" graph "$T/nosuch"
is "$RC" 1 "a missing input file: exit 1"
"$LMBENCH" graph "$RAW3" >/dev/full 2>/dev/null
is "$?" 1 "graph >/dev/full: exit 1"

# --- the expected counts, computed independently from the imported records -------------

FILES="$RAW3"
if json_usable; then
    "$BIN/bw_mem" -N 3 --json 64k frd >"$T/bw64.json" 2>/dev/null
    "$BIN/bw_mem" -N 3 --json 1m frd >"$T/bw1m.json" 2>/dev/null
    jq -s '.[0] + {results: (.[0].results + .[1].results)}' "$T/bw64.json" "$T/bw1m.json" >"$T/ours.json"
    FILES="$RAW3 $T/ours.json"
    "$LMBENCH" import "$RAW3" >"$T/raw.json"
    # Series: one per (stride, mode) of lat_mem_rd; one per (file, conflict) per bw_mem op;
    # one per lat_ctx size. Points: every ok record of the curve.
    exp_mem=$(jq -r '[.results[] | select(.benchmark == "lat_mem_rd" and .status == "ok")] |
        "\([group_by(.case, .params.stride_bytes)[]] | length) \(length)"' "$T/raw.json")
    exp_frd=$(jq -rs '[.[] | [.results[] | select(.benchmark == "bw_mem" and .case == "frd" and .status == "ok")]] |
        "\(map(select(length > 0)) | length) \(map(length) | add)"' "$T/raw.json" "$T/ours.json")
    exp_bcopy=$(jq -r '[.results[] | select(.benchmark == "bw_mem" and .case == "bcopy" and .status == "ok")] |
        "\([group_by(.params.conflict)[]] | length) \(length)"' "$T/raw.json")
    exp_ctx=$(jq -r '[.results[] | select(.benchmark == "lat_ctx" and .case == null and .status == "ok")] |
        "\([group_by(.params.size_kb)[]] | length) \(length)"' "$T/raw.json")
else
    exp_mem="8 1047"
    exp_frd="1 21"
    exp_bcopy="2 40"
    exp_ctx="6 48"
fi
# shellcheck disable=SC2086
"$LMBENCH" graph -o "$T/page.html" $FILES 2>"$T/err"
is "$?" 0 "graph of the lmbench 3 file and our bw_mem JSON: exit status 0"
attr_counts() {
    grep -o "<svg [^>]*data-plot=\"$1\"[^>]*" "$T/page.html" |
        sed -E 's/.*data-series="([0-9]+)" data-points="([0-9]+)".*/\1 \2/'
}
is "$(attr_counts memory-latency)" "$exp_mem" "memory latency: series and points as the records ($exp_mem)"
is "$(attr_counts bandwidth-bw_mem-frd)" "$exp_frd" "bw_mem frd: both files overlaid ($exp_frd)"
is "$(attr_counts bandwidth-bw_mem-bcopy)" "$exp_bcopy" "bw_mem bcopy: aligned and unaligned ($exp_bcopy)"
is "$(attr_counts context-switch)" "$exp_ctx" "context switch: a series per size ($exp_ctx)"

# --- in a real browser -------------------------------------------------------------------

CHROME=
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then
        CHROME=$c
        break
    fi
done
if [ -z "$CHROME" ]; then
    skip "the page in a browser: chromium is not installed (scripts/install-deps installs it)"
    done_testing
fi

# A copy of the page with two scripts of the test's own: the first, before
# anything else, records errors (window.onerror, console.error); the last, after
# the page's own script, clicks a legend entry and writes what it finds into the
# DOM, which --dump-dom prints.
awk '
    /<head>/ {
        print
        print "<script>window.__errs=[];window.addEventListener(\"error\",function(e){__errs.push(\"error: \"+e.message)});"
        print "var __ce=console.error;console.error=function(){__errs.push(\"console.error: \"+[].join.call(arguments,\" \"));__ce.apply(console,arguments)};</script>"
        next
    }
    /<\/body>/ {
        print "<script>(function(){var r={plots:{},errors:window.__errs,outside:0,legend:\"\"};"
        print "document.querySelectorAll(\"svg[data-plot]\").forEach(function(s){"
        print "  var f=s.querySelector(\"rect.frame\").getBBox();"
        print "  var c=s.querySelectorAll(\".series circle\");"
        print "  c.forEach(function(p){var x=+p.getAttribute(\"cx\"),y=+p.getAttribute(\"cy\");"
        print "    if(x<f.x-0.5||x>f.x+f.width+0.5||y<f.y-0.5||y>f.y+f.height+0.5)r.outside++;});"
        print "  var drawn=0;s.querySelectorAll(\".series path\").forEach(function(p){if(p.getTotalLength()>0||p.getAttribute(\"d\").indexOf(\"L\")<0)drawn++;});"
        print "  r.plots[s.getAttribute(\"data-plot\")]={series:s.querySelectorAll(\".series\").length,points:c.length,drawn:drawn,width:Math.round(s.getBoundingClientRect().width)};});"
        print "var l=document.querySelector(\"svg .legend\");if(l){l.dispatchEvent(new MouseEvent(\"click\",{bubbles:true}));"
        print "  var id=l.getAttribute(\"data-series\");var s=document.querySelector(\".series[data-series=\\\"\"+id+\"\\\"]\");"
        print "  r.legend=(s&&s.classList.contains(\"off\")&&getComputedStyle(s).display===\"none\")?\"hidden\":\"visible\";}"
        print "var pre=document.createElement(\"pre\");pre.id=\"lmb-check\";pre.textContent=JSON.stringify(r);document.body.appendChild(pre);})();</script>"
    }
    { print }' "$T/page.html" >"$T/check.html"

mkdir -p "$T/profile"
timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
    --dump-dom "file://$T/check.html" >"$T/dom" 2>"$T/chrome.err"
crc=$?
is "$crc" 0 "$CHROME --headless --dump-dom: exit status 0"
sed -n 's/.*<pre id="lmb-check">\(.*\)<\/pre>.*/\1/p' "$T/dom" | sed 's/&quot;/"/g; s/&amp;/\&/g' >"$T/check.json"
check "the page's check ran and wrote its findings" test -s "$T/check.json"
if [ "$HAVE_JQ" = yes ] && [ -s "$T/check.json" ]; then
    is "$(jq -r '.errors | join("; ")' "$T/check.json")" "" "no error and no console.error in the browser"
    for pair in "memory-latency:$exp_mem" "bandwidth-bw_mem-frd:$exp_frd" \
                "bandwidth-bw_mem-bcopy:$exp_bcopy" "context-switch:$exp_ctx"; do
        p=${pair%%:*}
        is "$(jq -r ".plots[\"$p\"] | \"\\(.series) \\(.points)\"" "$T/check.json")" "${pair#*:}" \
            "browser: $p has ${pair#*:} series and points"
    done
    is "$(jq -r '[.plots[] | select(.drawn != .series)] | length' "$T/check.json")" 0 \
        "browser: every series has a drawn line"
    is "$(jq -r '.outside' "$T/check.json")" 0 "browser: every point lies inside its plot's frame"
    is "$(jq -r '[.plots[] | select(.width < 300)] | length' "$T/check.json")" 0 \
        "browser: every plot is laid out at a useful width"
    is "$(jq -r '.legend' "$T/check.json")" hidden "browser: clicking a legend entry hides its series"
else
    skip "browser findings: jq missing or no findings"
fi

done_testing
