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

# --- several files: one colour a file, styles, bands, log axes, panels, marks (issue 16) ---

# ours-a: bw_mem, a lat_mem_rd curve and lat_ctx of this machine, with declared caches;
# ours-b: the same with another host name and its bw_mem measured in two launches.
# With the lmbench 3 file: three files on one page.
if json_usable; then
    "$BIN/lat_mem_rd" -N 3 --json 1 128 >"$T/mem.json" 2>/dev/null
    "$BIN/lat_ctx" -N 3 --json -s 0 2 4 8 >"$T/ctx.json" 2>/dev/null
    "$BIN/bw_mem" -N 3 --launches 2 --json 64k frd >"$T/bwl64.json" 2>/dev/null
    "$BIN/bw_mem" -N 3 --launches 2 --json 1m frd >"$T/bwl1m.json" 2>/dev/null
    jq -s '.[0] + {results: (.[0].results + .[1].results + .[2].results)} |
        .host.caches = [{level: 1, type: "Data", size: 32768, line: 64},
                        {level: 1, type: "Instruction", size: 32768, line: 64},
                        {level: 2, type: "Unified", size: 1048576, line: 64}]' \
        "$T/ours.json" "$T/mem.json" "$T/ctx.json" >"$T/ours-a.json"
    # ours-b's context switches ran on two CPUs, 40 times slower (as two-CPU rings are):
    # values across placements that span decades.
    jq -s '. as $all | $all[0] | .host.hostname = "other" |
        .results = ([.results[] | select(.benchmark != "bw_mem") |
                     if .benchmark == "lat_ctx" and .case == null
                     then .params.ends = "two_cpus" | .value *= 40 | .samples |= map(. * 40)
                     else . end] + $all[1].results + $all[2].results)' \
        "$T/ours-a.json" "$T/bwl64.json" "$T/bwl1m.json" >"$T/ours-b.json"
    "$LMBENCH" graph -o "$T/multi.html" "$RAW3" "$T/ours-a.json" "$T/ours-b.json" 2>"$T/err"
    is "$?:$(cat "$T/err")" "0:" "graph of three files (lmbench 3, ours, ours in launches): exit 0"
    # One line per element of interest:
    #   S plot file style band stroke bands panel id   (a series; bands: its band elements)
    #   L plot id file stroke                          (a legend entry)
    #   M plot file kind title|label                   (a cache-size mark)
    awk '
        /<svg [^>]*data-plot=/ { match($0, /data-plot="[^"]*"/); plot = substr($0, RSTART + 11, RLENGTH - 12); panel = -1
            if (plot !~ /^(memory-latency|bandwidth-.*|context-switch)$/) plot = "" }
        plot == "" { next }
        /<g class="panel"/ { panel++ }
        function attr(n,   r) { if (!match(line, " " n "=\"[^\"]*\"")) return ""; r = substr(line, RSTART + length(n) + 3, RLENGTH - length(n) - 4); return r }
        /<g class="series"/ { line = $0; inser = 1; nb = 0
            sid = attr("data-series"); sf = attr("data-file"); sst = attr("data-style")
            sb = attr("data-band"); sc = attr("stroke"); next }
        inser && /class="band/ { nb++ }
        inser && /^<\/g>$/ { print "S", plot, sf, sst, sb, sc, nb, panel, sid; inser = 0; next }
        /<g class="legend"/ { line = $0; print "L", plot, attr("data-series"), attr("data-file"), attr("stroke") }
        /<g class="mark"/ { line = $0; t = $0; sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t)
            l = $0; sub(/<\/text>.*/, "", l); sub(/.*>/, "", l)
            print "M", plot, attr("data-file"), attr("data-kind"), t "|" l }
    ' "$T/multi.html" >"$T/elems"
    S=$(awk '$1 == "S"' "$T/elems")
    is "$(printf '%s\n' "$S" | awk '{print $3}' | sort -u | tr '\n' ' ')" "0 1 2 " \
        "multi: series of all three files are drawn"
    is "$(printf '%s\n' "$S" | awk '{print $3, $6}' | sort -u | awk '{print $1}' | uniq -d)" "" \
        "multi: every series of a file has the same colour, in every plot"
    is "$(printf '%s\n' "$S" | awk '{print $6}' | sort -u | wc -l | tr -d ' ')" 3 \
        "multi: the three files have three colours"
    is "$(awk '$1 == "L" {print $4, $5}' "$T/elems" | sort -u)" \
        "$(printf '%s\n' "$S" | awk '{print $3, $6}' | sort -u)" "multi: legend entries have their file's colour"
    is "$(awk '$1 == "L" {print $2, $3}' "$T/elems" | sort)" "$(printf '%s\n' "$S" | awk '{print $2, $9}' | sort)" \
        "multi: every series has one legend entry, and every entry a series"
    is "$(printf '%s\n' "$S" | awk '{print $2, $3, $4}' | sort | uniq -d)" "" \
        "multi: within a plot, the series of one file differ in style (dash and marker)"
    is "$(printf '%s\n' "$S" | awk '$2 == "memory-latency" && $3 == 0 {print $4}' | sort -u | wc -l | tr -d ' ')" \
        "$(printf '%s\n' "$S" | awk '$2 == "memory-latency" && $3 == 0' | wc -l | tr -d ' ')" \
        "multi: the lmbench 3 file's memory curves have a style each"
    is "$(printf '%s\n' "$S" | awk '$3 == 0 && ($5 != "none" || $7 > 0)' | wc -l | tr -d ' ')" 0 \
        "multi: the lmbench 3 file (no samples) has no band anywhere"
    like "$(printf '%s\n' "$S" | awk '$2 == "memory-latency" && $3 == 1 {print $5, ($7 > 0)}')" '^iqr 1$' \
        "multi: our memory curve has an interquartile band"
    like "$(printf '%s\n' "$S" | awk '$2 == "context-switch" && $3 == 1 {print $5, ($7 > 0)}' | sort -u)" '^iqr 1$' \
        "multi: our context switch curve has an interquartile band"
    is "$(printf '%s\n' "$S" | awk '$2 == "bandwidth-bw_mem-frd" {print $3, $5, ($7 > 0)}')" \
        "$(printf '0 none 0\n1 iqr 1\n2 launches 1')" \
        "multi: bw_mem frd: no band for lmbench 3, quartiles for ours, launch medians for the launches file"
    svg_attr() {
        grep -o "<svg [^>]*data-plot=\"$1\"[^>]*" "$T/multi.html" | sed -E "s/.* $2=\"([^\"]*)\".*/\\1/"
    }
    is "$(svg_attr memory-latency data-xscale) $(svg_attr memory-latency data-yscale)" "log log" \
        "multi: memory latency on log-log axes"
    is "$(svg_attr context-switch data-xscale)" log \
        "multi: context switch x axis is logarithmic (lmbench 3's 96 processes do not flatten 2-8)"
    is "$(svg_attr context-switch data-yscale)" log \
        "multi: context switch y axis is logarithmic where values span decades"
    is "$(svg_attr bandwidth-bw_mem-bcopy data-yscale)" log \
        "multi: bandwidth spanning decades (lmbench 3's bcopy) on a log y axis"
    is "$(svg_attr bandwidth-bw_mem-frd data-panels)" 1 "multi: a plot of 3 series is one panel"
    np=$(svg_attr memory-latency data-panels)
    ok "$([ "$np" -gt 1 ]; echo $?)" "multi: memory latency of $(printf '%s\n' "$S" | awk '$2 == "memory-latency"' | wc -l | tr -d ' ') series is split into panels ($np)"
    is "$(printf '%s\n' "$S" | awk '{print $2, $8}' | sort | uniq -c | awk '$1 > 6')" "" \
        "multi: no panel holds more than 6 series"
    ok "$([ "$(svg_attr context-switch data-panels)" -gt 1 ]; echo $?)" \
        "multi: context switch (more than 6 series) is split into panels"
    like "$(grep -o '<text class="axis"[^>]*>[^<]*' "$T/multi.html" | sed 's/.*>//' | sort -u | tr '\n' ';')" \
        'MB/s.*ns per load.*processes in the ring.*size \(bytes\).*us per switch.*working set \(bytes\)' \
        "multi: every axis is labelled with its unit"
    M=$(awk '$1 == "M"' "$T/elems")
    ok "$([ -n "$(printf '%s\n' "$M" | awk '$2 == "memory-latency" && $3 == 0 && $4 == "measured"')" ]; echo $?)" \
        "multi: cache sizes measured on the lmbench 3 curve are marked"
    is "$(printf '%s\n' "$M" | awk '$3 == 1 && $4 == "declared"' | sed 's/.*|//' | sort -u | tr '\n' ';')" \
        "L1 32K declared (ours-a);L2 1M declared (ours-a);" \
        "multi: our declared caches (data and unified, not instruction) are marked, naming the file"
    is "$(printf '%s\n' "$M" | awk '{ k = $4; sub(/^[^|]*\|/, ""); if (index($0, k) == 0) print }')" "" \
        "multi: each mark's label says measured or declared, as its kind"
    is "$(printf '%s\n' "$M" | awk '{ f = $3; sub(/^M [^ ]* [^ ]* [^ ]* /, ""); n = $0; sub(/:.*/, "", n); print f, n }' | sort -u | tr '\n' ';')" \
        "0 lmbench3-x86_64-linux-vm.0;1 ours-a;2 ours-b;" \
        "multi: each mark names its own file"
    row() { grep "<tr data-file=\"$1\"" "$T/multi.html"; }
    like "$(row 0)" 'data-spread="none".*lmbench 3' "multi: the file table says the lmbench 3 file has no spread to draw"
    like "$(row 1)" 'data-spread="samples"' "multi: ... and ours has samples"
    like "$(row 2)" 'data-spread="launches".*<td>other</td>' "multi: ... and the launches file, with its host"
    cpu=$(jq -r '.host.context.cpu_model // empty' "$T/ours-a.json")
    if [ -n "$cpu" ]; then
        like "$(row 1)" "<td>$(printf '%s' "$cpu" | sed 's/[][\\.*^$(){}+?|]/\\&/g')</td>" \
            "multi: the file table names our CPU model"
    else
        skip "multi: this host's context has no cpu_model"
    fi
    like "$(row 1)" "<td>$(jq -r '.host.uname.sysname + " " + .host.uname.release' "$T/ours-a.json" | sed 's/[][\\.*^$(){}+?|]/\\&/g')</td>" \
        "multi: the file table names our kernel"
else
    skip "several files: jansson or jq missing"
fi

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

# browser_check PAGE WIDTH NAME: loads a copy of PAGE with two scripts of the
# test's own in a WIDTH px wide window: the first, before anything else, records
# errors (window.onerror, console.error); the last, after the page's own script,
# measures the plots of this command (memory-latency, bandwidth-*, context-switch;
# not the comparison view) and clicks a legend entry, and writes what it finds into
# the DOM, which --dump-dom prints; its findings go to $T/NAME.json. Overlaps are
# of the rendered boxes (getBoundingClientRect) of every non-empty <text>.
browser_check() {
    awk '
    /<head>/ {
        print
        print "<script>window.__errs=[];window.addEventListener(\"error\",function(e){__errs.push(\"error: \"+e.message)});"
        print "var __ce=console.error;console.error=function(){__errs.push(\"console.error: \"+[].join.call(arguments,\" \"));__ce.apply(console,arguments)};</script>"
        next
    }
    /<\/body>/ {
        print "<script>(function(){var r={plots:{},errors:window.__errs,outside:0,legend:\"\",overlaps:[],marks_on_data:0,unlisted:0,texts:0};"
        print "function hit(a,b,e){return a.left<b.right-e&&b.left<a.right-e&&a.top<b.bottom-e&&b.top<a.bottom-e;}"
        print "[].filter.call(document.querySelectorAll(\"svg[data-plot]\"),function(s){return /^(memory-latency|bandwidth-.*|context-switch)$/.test(s.getAttribute(\"data-plot\"));}).forEach(function(s){"
        print "  var name=s.getAttribute(\"data-plot\");var c=s.querySelectorAll(\".series .pt\");"
        print "  c.forEach(function(p){var f=p.closest(\".panel\").querySelector(\"rect.frame\").getBBox(),b=p.getBBox(),x=b.x+b.width/2,y=b.y+b.height/2;"
        print "    if(x<f.x-0.5||x>f.x+f.width+0.5||y<f.y-0.5||y>f.y+f.height+0.5)r.outside++;});"
        print "  var drawn=0;s.querySelectorAll(\".series path.line\").forEach(function(p){if(p.getTotalLength()>0||p.getAttribute(\"d\").indexOf(\"L\")<0)drawn++;});"
        print "  s.querySelectorAll(\".series\").forEach(function(g){if(!s.querySelector(\".legend[data-series=\\\"\"+g.getAttribute(\"data-series\")+\"\\\"]\"))r.unlisted++;});"
        print "  var t=[].filter.call(s.querySelectorAll(\"text\"),function(e){return e.textContent.trim()!==\"\";}).map(function(e){return {e:e,b:e.getBoundingClientRect()};});"
        print "  r.texts+=t.length;"
        print "  for(var i=0;i<t.length;i++)for(var j=i+1;j<t.length;j++)if(hit(t[i].b,t[j].b,0.5))r.overlaps.push(name+\": \"+t[i].e.textContent+\" / \"+t[j].e.textContent);"
        print "  var fr=[].map.call(s.querySelectorAll(\"rect.frame\"),function(f){return f.getBoundingClientRect();});"
        print "  s.querySelectorAll(\".mark text\").forEach(function(m){var a=m.getBoundingClientRect();fr.forEach(function(b){if(hit(a,b,0))r.marks_on_data++;});});"
        print "  r.plots[name]={series:s.querySelectorAll(\".series\").length,points:c.length,drawn:drawn,width:Math.round(s.getBoundingClientRect().width)};});"
        print "var l=document.querySelector(\"svg .legend\");if(l){l.dispatchEvent(new MouseEvent(\"click\",{bubbles:true}));"
        print "  var id=l.getAttribute(\"data-series\");var s=document.querySelector(\".series[data-series=\\\"\"+id+\"\\\"]\");"
        print "  r.legend=(s&&s.classList.contains(\"off\")&&getComputedStyle(s).display===\"none\")?\"hidden\":\"visible\";}"
        print "var pre=document.createElement(\"pre\");pre.id=\"lmb-check\";pre.textContent=JSON.stringify(r);document.body.appendChild(pre);})();</script>"
    }
    { print }' "$1" >"$T/$3.html"
    mkdir -p "$T/profile"
    timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
        --window-size="$2,900" --dump-dom "file://$T/$3.html" >"$T/$3.dom" 2>"$T/chrome.err"
    crc=$?
    sed -n 's/.*<pre id="lmb-check">\(.*\)<\/pre>.*/\1/p' "$T/$3.dom" | sed 's/&quot;/"/g; s/&amp;/\&/g' >"$T/$3.json"
}

browser_check "$T/page.html" 900 check
is "$crc" 0 "$CHROME --headless --dump-dom: exit status 0"
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
    is "$(jq -r '.outside' "$T/check.json")" 0 "browser: every point lies inside its panel's frame"
    is "$(jq -r '[.plots[] | select(.width < 300)] | length' "$T/check.json")" 0 \
        "browser: every plot is laid out at a useful width"
    is "$(jq -r '.legend' "$T/check.json")" hidden "browser: clicking a legend entry hides its series"
    is "$(jq -r '.overlaps | join("\n")' "$T/check.json")" "" "browser: no two text labels overlap"
    if [ -s "$T/multi.html" ]; then
        "$LMBENCH" graph -o "$T/one.html" "$T/ours-a.json"
        for w in 900 700 one; do
            if [ "$w" = one ]; then
                browser_check "$T/one.html" 700 "multi$w"
            else
                browser_check "$T/multi.html" "$w" "multi$w"
            fi
            f=multi$w
            [ "$w" = one ] && w="one file, 700"
            is "$crc" 0 "browser, $w px: exit status 0"
            if [ -s "$T/$f.json" ]; then
                is "$(jq -r '.errors | join("; ")' "$T/$f.json")" "" "browser, $w px: no error"
                is "$(jq -r '.overlaps | join("\n")' "$T/$f.json")" "" \
                    "browser, $w px: no two text labels overlap ($(jq -r .texts "$T/$f.json") labels)"
                is "$(jq -r .marks_on_data "$T/$f.json")" 0 \
                    "browser, $w px: no cache-size label lies over a plot's data area"
                is "$(jq -r .unlisted "$T/$f.json")" 0 "browser, $w px: every series has a legend entry"
                is "$(jq -r '[.plots[] | select(.points == 0 or .drawn != .series)] | length' "$T/$f.json")" 0 \
                    "browser, $w px: no plot is empty, every series is drawn"
                is "$(jq -r .outside "$T/$f.json")" 0 "browser, $w px: every point inside its panel's frame"
            else
                fail "browser, $w px: the check wrote no findings"
            fi
        done
    fi
else
    skip "browser findings: jq missing or no findings"
fi

done_testing
