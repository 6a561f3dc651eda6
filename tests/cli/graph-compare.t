#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench graph's comparison view: with two or more results files, one panel per
# later file with new/base of each measurement, its interval and the verdict of
# lmbench compare, sorted by the size of the change. Checked against
# `lmbench compare --json` on the same files: the same measurements, verdicts,
# ratios and counts; the changed one first; one file gives no view; an lmbench 3
# file as the base.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

if ! json_usable; then
    skip "the comparison view of JSON files: jq missing or built without jansson"
    done_testing
fi

# --- the files: made by our commands, then one measurement changed by jq --------------

"$BIN/bw_mem" --launches 3 -N 5 --json 64k rd >"$T/r1.json" 2>/dev/null
"$BIN/bw_mem" --launches 3 -N 5 --json 64k frd >"$T/r2.json" 2>/dev/null
"$BIN/lat_syscall" --launches 3 -N 5 --json null >"$T/r3.json" 2>/dev/null
# A fourth measurement with a long name (a parameter of its own), to see it cut.
jq '.results[0].params = {"a_parameter_with_a_long_name": "and_a_value_that_is_long_too"}' \
    "$T/r3.json" >"$T/r4.json"
jq -s '.[0] + {results: (map(.results) | add)}' "$T/r1.json" "$T/r2.json" "$T/r3.json" \
    "$T/r4.json" >"$T/measured.json"
is "$(jq '[.results[] | select(.status == "ok")] | length' "$T/measured.json")" 4 \
    "four measurements made (bw_mem rd, frd, lat_syscall null, and one renamed)"

# Each launch's samples made close around the record's value (the machine may be
# busy): the verdict of an unchanged measurement is then "same" and that of a
# changed one known.
cat >"$T/tame.jq" <<'EOF'
def jitter: [0.99, 1.0, 1.01, 0.995, 1.005, 0.998, 1.002];
.results |= map(if .status != "ok" then . else
    .value as $v
    | .launches |= (if . == null then . else map(.samples |= ([range(length)] | map($v * jitter[. % 7]))) end)
    | .samples = (if .launches == null then [range(.samples | length)] | map($v * jitter[. % 7])
                  else [.launches[].samples[]] end)
    | .between_launches |= (if . == null then . else (.medians |= map($v)) | .cv = 0 end)
  end)
EOF
# scale(f) multiplies every figure of one record (value, samples, statistics).
cat >"$T/scale.jq" <<'EOF'
def scale(f):
  .value *= f
  | .samples |= map(. * f)
  | .stats |= (if . == null then . else with_entries(
        if (.key | IN("min", "p25", "median", "p75", "max", "mean", "stdev")) then .value *= f
        elif .key == "ci95" and .value != null then .value |= map(. * f)
        else . end) end)
  | .between_launches |= (if . == null then . else .medians |= map(. * f) end)
  | .launches |= (if . == null then . else map(.samples |= map(. * f)) end);
# $p: only the records with this parameter ("": those without the long one).
.results |= map(if .benchmark == $b and .case == $c and
                   (if $p == "" then (.params | has("a_parameter_with_a_long_name") | not)
                    else (.params | has($p)) end)
                then scale($f) else . end)
EOF
scale() {   # scale IN OUT BENCHMARK CASE FACTOR [PARAM]
    jq --arg b "$3" --arg c "$4" --argjson f "$5" --arg p "${6:-}" -f "$T/scale.jq" "$1" >"$2"
}
jq -f "$T/tame.jq" "$T/measured.json" >"$T/base.json"
scale "$T/base.json" "$T/n1.json" bw_mem frd 1.5
scale "$T/n1.json" "$T/new.json" lat_syscall null 1.2 a_parameter_with_a_long_name
scale "$T/base.json" "$T/new2.json" bw_mem rd 0.5
LONG="lat_syscall null a_parameter_with_a_long_name=and_a_value_that_is_long_too"

# --- helpers ------------------------------------------------------------------------------

# section PAGE N: the HTML of the panel compare-N.
section() {
    awk -v id="id=\"compare-$2\"" 'index($0, "<section") && index($0, id) { on = 1 }
        on { print } on && index($0, "</section>") { exit }' "$1"
}
# rows PAGE N: "rank<TAB>name<TAB>verdict<TAB>ratio" of every measurement of the
# panel (drawn or in its table), in rank order.
rows() {
    section "$1" "$2" | grep -o 'class="cmp-row" data-name="[^"]*" data-rank="[0-9]*" data-verdict="[^"]*" data-ratio="[^"]*"' |
        sed -E 's/.*data-name="([^"]*)" data-rank="([0-9]*)" data-verdict="([^"]*)" data-ratio="([^"]*)"/\2\t\1\t\3\t\4/' |
        sed 's/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g' | sort -n
}
# drawn PAGE N: the same of the rows drawn in the panel's plot.
drawn() {
    section "$1" "$2" | sed -n '/<svg /,/<\/svg>/p' |
        grep -o 'class="cmp-row" data-name="[^"]*" data-rank="[0-9]*" data-verdict="[^"]*" data-ratio="[^"]*"' |
        sed -E 's/.*data-name="([^"]*)" data-rank="([0-9]*)" data-verdict="([^"]*)" data-ratio="([^"]*)"/\2\t\1\t\3\t\4/' | sort -n
}
# by_name: "name<TAB>verdict<TAB>ratio to 4 decimals" sorted, from rows' output.
by_name() {
    awk -F '\t' '{ r = ($4 == "nan" || $4 == "") ? "-" : sprintf("%.4f", $4); print $2 "\t" $3 "\t" r }' | LC_ALL=C sort
}
# expected BASE NEW K: the same from lmbench compare --json (comparison K, from 0).
expected() {
    "$LMBENCH" compare --json "$@" >"$T/cmp.json" 2>/dev/null
    jq -r --argjson k "$KTH" '.comparisons[$k].metrics[] |
        [.measurement,
         ({"unknown": "?", "info": "-", "not_comparable": "not comparable"}[.verdict] // .verdict),
         (if .ratio == null then "-" else .ratio end)] | @tsv' "$T/cmp.json" |
        awk -F '\t' '{ r = ($3 == "-") ? "-" : sprintf("%.4f", $3); print $1 "\t" $2 "\t" r }' | LC_ALL=C sort
}
# in_order: the rows (rank order) are sorted as the view promises: better and
# worse first, then same and ?, then - and not comparable; within each, the
# largest |log ratio| first.
in_order() {
    awk -F '\t' '
        function grp(v) { return v == "better" || v == "worse" ? 0 : v == "same" || v == "?" ? 1 : v == "-" ? 2 : 3 }
        function size(r) { return (r == "nan" || r + 0 <= 0) ? -1 : (log(r) < 0 ? -log(r) : log(r)) }
        { g = grp($3); s = size($4)
          if (NR > 1 && (g < pg || (g == pg && s > ps + 1e-5))) { print "row " NR " (" $2 ") out of order"; bad = 1 }
          pg = g; ps = s }
        END { exit bad }'
}
# agrees PAGE N ARGS...: the panel N holds what compare --json ARGS says of
# comparison N-1: measurements, verdicts, ratios, counts; and is in order.
agrees() {
    _ag_page=$1
    _ag_no=$2
    shift 2
    KTH=$((_ag_no - 1))
    rows "$_ag_page" "$_ag_no" >"$T/rows"
    expected "$@" >"$T/want"
    by_name <"$T/rows" >"$T/got"
    if [ -s "$T/want" ] && cmp -s "$T/want" "$T/got"; then
        pass "compare-$_ag_no: the measurements, verdicts and ratios of lmbench compare --json ($(wc -l <"$T/want") rows)"
    else
        fail "compare-$_ag_no: the measurements, verdicts and ratios of lmbench compare --json"
        diag_text "diff want got" "$(diff "$T/want" "$T/got" | head -20)"
    fi
    _why=$(in_order <"$T/rows")
    is "$_why" "" "compare-$_ag_no: sorted by verdict group, then the size of the change"
    _c=$(section "$_ag_page" "$_ag_no" | grep -o '<p class="note cmp-counts"[^>]*>' |
        sed -E 's/.*data-worse="([0-9]+)" data-better="([0-9]+)" data-same="([0-9]+)" data-unknown="([0-9]+)" data-info="([0-9]+)" data-apart="([0-9]+)" data-only-base="([0-9]+)" data-only-new="([0-9]+)".*/\1 \2 \3 \4 \5 \6 \7 \8/')
    _w=$(jq -r --argjson k "$KTH" '.comparisons[$k] | "\(.counts.worse) \(.counts.better) \(.counts.same) \(.counts.unknown) \(.counts.info) \(.not_comparable) \(.only_in_base) \(.only_in_new)"' "$T/cmp.json")
    is "$_c" "$_w" "compare-$_ag_no: the counts (worse better same ? - apart only-base only-new) of compare"
}

# --- two files: the changed measurements first -------------------------------------------

run "$LMBENCH" compare --json "$T/base.json" "$T/new.json"
is "$(printf '%s' "$OUT" | jq -r '[.comparisons[0].metrics[] | select(.verdict == "better" or .verdict == "worse") | "\(.measurement)=\(.verdict)"] | sort | join(",")')" \
    "bw_mem frd pages=4k size_bytes=65536=better,$LONG=worse" \
    "compare: bw_mem frd x1.5 is better, the renamed lat_syscall x1.2 worse, the rest not changed"

"$LMBENCH" graph -o "$T/page.html" "$T/base.json" "$T/new.json" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "graph BASE NEW: exit 0, nothing on stderr"
H=$(cat "$T/page.html")
like "$H" '<svg [^>]*data-plot="compare-1"' "a comparison plot (data-plot=compare-1)"
unlike "$H" 'data-plot="compare-2"' "... one, for one new file"
like "$H" '<h2>What changed: [^<]* \(new\.json\) against [^<]* \(base\.json\)</h2>' \
    "its title names both files (host and file name)"
like "$(section "$T/page.html" 1 | sed -n '/<svg /,/<\/svg>/p')" '>new/base, log scale</text>' \
    "the axis says its unit: new/base, log scale"
agrees "$T/page.html" 1 "$T/base.json" "$T/new.json"
drawn "$T/page.html" 1 >"$T/drawn"
is "$(cut -f2,3,4 "$T/drawn" | sed -n 1p)" "bw_mem frd pages=4k size_bytes=65536	better	1.5" \
    "drawn first: the largest change, bw_mem frd, better, 1.5"
is "$(cut -f2,3,4 "$T/drawn" | sed -n 2p)" "$LONG	worse	1.2" "then the renamed lat_syscall, worse, 1.2"
is "$(cut -f3 "$T/drawn" | sed -n '3,$p' | sort -u | tr '\n' ' ')" "same " "then the unchanged ones, same"
is "$(section "$T/page.html" 1 | grep -o '<svg [^>]*data-points="[0-9]*"' | sed 's/.*data-points="//; s/"//')" \
    "$(wc -l <"$T/drawn" | tr -d ' ')" "the plot's data-points counts its rows"
# The ratio printed beside each drawn row is compare's, to 3 decimals.
printed=$(for k in 1 2; do section "$T/page.html" 1 | grep "<g class=\"cmp-row\"[^>]*data-rank=\"$k\"" |
    grep -o '<text class="cmp-ratio"[^>]*>[^<]*' | sed 's/.*>//'; done | tr '\n' ' ')
want=$(jq -r '[.comparisons[0].metrics[] | select(.measurement == "bw_mem frd pages=4k size_bytes=65536") | .ratio * 1000 | round / 1000] | .[0]' "$T/cmp.json")
like "$printed" "^1\\.500 1\\.200 " "the printed ratios: 1.500 then 1.200 (compare --json: $want)"
# The long name is cut in the plot, whole in its <title>.
like "$(section "$T/page.html" 1)" '<text class="cmp-name"[^>]*>lat_syscall null a_parameter_with_a_long_name=and_a_v[^<]*…<title>lat_syscall null a_parameter_with_a_long_name=and_a_value_that_is_long_too</title>' \
    "a long name is cut (…) with the whole name in an SVG <title>"
nlong=$(section "$T/page.html" 1 | grep -o '<text class="cmp-name"[^>]*>[^<]*' | sed 's/.*>//; s/…/./g' | awk '{ if (length($0) > 56) n++ } END { print n + 0 }')
is "$nlong" 0 "no name drawn is longer than 56 characters"
# The legend names the verdict kinds drawn, each a series of its own.
is "$(section "$T/page.html" 1 | grep -o '<g class="legend"[^>]*>.*<text[^>]*>[^<]*' | sed 's/.*>//' | tr '\n' ',')" \
    "worse (1),better (1),same (2)," "the legend: each verdict kind drawn, with its count"
is "$(section "$T/page.html" 1 | grep -c '<g class="series"')" 3 "one series per verdict kind drawn"

# The same as measured (not tamed): whatever compare says, the view says.
scale "$T/measured.json" "$T/mnew.json" bw_mem frd 1.5
"$LMBENCH" graph -o "$T/mpage.html" "$T/measured.json" "$T/mnew.json" 2>/dev/null
agrees "$T/mpage.html" 1 "$T/measured.json" "$T/mnew.json"

# --- three files: a panel for each later one, in its colour -------------------------------

"$LMBENCH" graph -o "$T/page3.html" "$T/base.json" "$T/new.json" "$T/new2.json" 2>/dev/null
is "$?" 0 "graph BASE NEW NEW2: exit 0"
is "$(grep -o 'data-plot="compare-[0-9]*"' "$T/page3.html" | tr '\n' ' ')" \
    'data-plot="compare-1" data-plot="compare-2" ' "one comparison panel per new file"
agrees "$T/page3.html" 2 "$T/base.json" "$T/new.json" "$T/new2.json"
is "$(drawn "$T/page3.html" 2 | cut -f2,3,4 | sed -n 1p)" "bw_mem rd pages=4k size_bytes=65536	worse	0.5" \
    "compare-2 first: bw_mem rd halved, worse"
c1=$(section "$T/page3.html" 1 | grep -o '<g class="series"[^>]*fill="#[0-9a-f]*"' | sed 's/.*fill="//; s/"//' | sort -u)
c2=$(section "$T/page3.html" 2 | grep -o '<g class="series"[^>]*fill="#[0-9a-f]*"' | sed 's/.*fill="//; s/"//' | sort -u)
ok $([ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ] && [ "$(printf '%s\n' "$c1" | wc -l)" = 1 ]; echo $?) \
    "each panel's dots in its own file's colour ($c1, $c2)"

# --- one file: no view ----------------------------------------------------------------------

"$LMBENCH" graph -o "$T/one.html" "$T/base.json" 2>/dev/null
is "$?" 0 "graph of one file: exit 0"
unlike "$(cat "$T/one.html")" 'compare-|What changed' "one file: no comparison view"

# --- an lmbench 3 file as the base ---------------------------------------------------------

"$LMBENCH" graph -o "$T/raw.html" "$RAW3" "$T/measured.json" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "graph RAW3 OURS: exit 0, nothing on stderr"
like "$(cat "$T/raw.html")" "<h2>What changed: [^<]* \\(measured\\.json\\) against [^<]* \\($(basename "$RAW3" | sed 's/\./\\./g')\\)</h2>" \
    "the lmbench 3 file is the base, named in the title"
agrees "$T/raw.html" 1 "$RAW3" "$T/measured.json"
like "$(section "$T/raw.html" 1)" 'Only in base \([0-9]+\): ' "the measurements only in the lmbench 3 file are listed"

done_testing
