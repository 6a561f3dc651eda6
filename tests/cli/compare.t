#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench compare: crafted results files where a real regression fails the
# threshold and noise does not; the interval beside the ratio, bandwidths, few
# samples, launches, lmbench 3 files without samples (matched across
# placements, judged by a margin), contexts that differ, --json, bad input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

verb_contract compare
verb_usage_error compare
verb_usage_error compare "$RAW3"
verb_usage_error compare --threshold abc "$RAW3" "$RAW3"
verb_usage_error compare --threshold -5 "$RAW3" "$RAW3"
verb_usage_error compare --threshold
verb_usage_error compare --min-effect abc "$RAW3" "$RAW3"
verb_usage_error compare --min-effect -1 "$RAW3" "$RAW3"
verb_usage_error compare --fdr 0 "$RAW3" "$RAW3"
verb_usage_error compare --fdr 1.5 "$RAW3" "$RAW3"
verb_usage_error compare --fdr
verb_usage_error compare --min-launches 0 "$RAW3" "$RAW3"
verb_usage_error compare --min-launches 1.5 "$RAW3" "$RAW3"
# Most files below are of one launch; their verdicts are of the samples of one
# process, which compare judges only when asked (--min-launches 1).
ONE="--min-launches 1"

if ! json_usable; then
    skip "compare on JSON files: jq missing or built without jansson"
    done_testing
fi

# doc FILE RECORD...: a results document with these records; a record is
# "benchmark|case|params-json|unit|better|s1 s2 s3 ..." (value: the median);
# samples "a b; c d; e f" are three launches. DOC_CONTEXT, when set, is the
# host's context object.
doc() {
    _f=$1
    shift
    {
        printf '{"schema":"lmbench-results","schema_version":1,"tool":{"name":"lmbench"},'
        printf '"run":{"id":"test","config":{"parallel":1}},"host":{"hostname":"testhost",'
        printf '"uname":{"sysname":"Linux","release":"6.1","version":"#1","machine":"x86_64"}'
        [ -n "${DOC_CONTEXT:-}" ] && printf ',"context":%s' "$DOC_CONTEXT"
        printf '},"results":['
        _sep=
        for _r in "$@"; do
            IFS='|' read -r _b _c _p _u _bt _s <<EOR
$_r
EOR
            _all=$(printf '%s' "$_s" | tr ';' ' ')
            _arr=$(printf '%s\n' $_all | paste -sd, -)
            _med=$(printf '%s\n' $_all | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
            _l=
            case $_s in
            *';'*)
                _l=',"launches":['
                _i=0
                _ls=
                _rest="$_s;"
                while [ -n "$_rest" ]; do
                    _one=${_rest%%;*}
                    _rest=${_rest#*;}
                    _i=$((_i + 1))
                    _l="$_l$_ls{\"launch\":$_i,\"status\":\"ok\",\"reason\":null,\"samples\":[$(printf '%s\n' $_one | paste -sd, -)],\"stats\":null}"
                    _ls=,
                done
                _l="$_l]"
                ;;
            esac
            printf '%s{"benchmark":"%s","case":%s,"params":%s,"unit":"%s","better":"%s","status":"ok","value":%s,"samples":[%s]%s}' \
                "$_sep" "$_b" "$_c" "$_p" "$_u" "$_bt" "$_med" "$_arr" "$_l"
            _sep=,
        done
        printf ']}\n'
    } >"$_f"
}

BASE_SYS='lat_syscall|"null"|{}|us|lower|1.00 1.01 0.99 1.02 1.00 0.98 1.01 1.00 0.99 1.01 1.00'
NOISE_SYS='lat_syscall|"null"|{}|us|lower|1.01 1.00 1.02 0.99 1.01 1.03 1.00 1.01 0.98 1.02 1.01'
SLOW_SYS='lat_syscall|"null"|{}|us|lower|1.20 1.21 1.19 1.22 1.20 1.18 1.21 1.20 1.19 1.21 1.20'
FAST_SYS='lat_syscall|"null"|{}|us|lower|0.80 0.81 0.79 0.82 0.80 0.78 0.81 0.80 0.79 0.81 0.80'
BASE_BW='bw_mem|"frd"|{"size_bytes":65536,"vector":"avx2"}|MB/s|higher|30000 30100 29900 30050 29950 30000 30020 29980 30010 29990 30000'
LOW_BW='bw_mem|"frd"|{"size_bytes":65536,"vector":"avx512f"}|MB/s|higher|25000 25100 24900 25050 24950 25000 25020 24980 25010 24990 25000'
NOISE_BW='bw_mem|"frd"|{"size_bytes":65536,"vector":"avx2"}|MB/s|higher|29000 31000 30500 29500 30200 29800 30400 29600 30100 29900 30000'

doc "$T/base.json" "$BASE_SYS" "$BASE_BW" 'lat_syscall|"read"|{}|us|lower|2 2 2 2 2 2'
doc "$T/noise.json" "$NOISE_SYS" "$NOISE_BW" 'lat_syscall|"write"|{}|us|lower|2 2 2 2 2 2'
doc "$T/slow.json" "$SLOW_SYS" "$BASE_BW"
doc "$T/fast.json" "$FAST_SYS" "$BASE_BW"
doc "$T/lowbw.json" "$BASE_SYS" "$LOW_BW"

# --- noise is not a regression ----------------------------------------------------------

run "$LMBENCH" compare $ONE --threshold 0.5 "$T/base.json" "$T/noise.json"
is "$RC" 0 "noise (1% apart, overlapping intervals) with --threshold 0.5: exit status 0"
like "$OUT" '^lat_syscall null +us +1\.000 +1\.010 +1\.010 \[0\.9[0-9]*, 1\.0[0-9]*\] +\+1\.0%  same$' \
    "noise: lat_syscall null side by side, ratio, its interval, change, 'same'"
like "$OUT" '^bw_mem frd size_bytes=65536 +MB/s .*  (same|\? \(interval too wide to tell\))$' \
    "noise: a noisy bandwidth is 'same' or '?', not a change"
like "$OUT" '^2 compared: 0 worse, 0 better' "noise: a count of the measurements compared"
like "$OUT" '^context unknown for both files' "files without a context: said"
like "$OUT" '^verdicts: .*false-discovery rate 0\.05, effect floor 3%' "the statistics' settings are said"
like "$OUT" '1 only in base, 1 only in new' "noise: measurements in one file only are counted"
like "$OUT" '^regressions beyond 0\.5%: 0$' "noise: no regression"

# --- a real regression fails ----------------------------------------------------------------

run "$LMBENCH" compare $ONE --threshold 5 "$T/base.json" "$T/slow.json"
is "$RC" 1 "a 20% slower null call with --threshold 5: exit status 1"
like "$OUT" '^lat_syscall null +us +1\.000 +1\.200 +1\.200 \[1\.1[0-9]*, 1\.2[0-9]*\] +\+20\.0%  worse  REGRESSION$' \
    "regression: marked worse and REGRESSION"
like "$ERR" '^lmbench compare: 1 regression beyond 5%$' "regression: said on stderr"
run "$LMBENCH" compare $ONE --threshold 25 "$T/base.json" "$T/slow.json"
is "$RC" 0 "the same 20% with --threshold 25: exit status 0"
like "$OUT" 'worse$' "... still shown as worse"
run "$LMBENCH" compare $ONE "$T/base.json" "$T/slow.json"
is "$RC" 0 "without --threshold: exit status 0 whatever changed"

run "$LMBENCH" compare $ONE --threshold 5 "$T/base.json" "$T/fast.json"
is "$RC" 0 "20% faster: exit status 0"
like "$OUT" '^lat_syscall null .* -20\.0%  better$' "faster: marked better"

# Bandwidth: lower is worse; the vector unit does not make it another measurement.
run "$LMBENCH" compare $ONE --threshold 5 "$T/base.json" "$T/lowbw.json"
is "$RC" 1 "a 17% lower bandwidth with --threshold 5: exit status 1"
like "$OUT" '^bw_mem frd size_bytes=65536 +MB/s +30000 +25000 +0\.833 \[0\.8[0-9]*, 0\.8[0-9]*\] +-16\.7%  worse  REGRESSION$' \
    "bandwidth: lower is worse (matched across vector units)"

# Several new files.
run "$LMBENCH" compare $ONE --threshold 5 "$T/base.json" "$T/noise.json" "$T/slow.json"
is "$RC" 1 "base against noise and a regression: exit status 1"
is "$(printf '%s\n' "$OUT" | grep -c '^base: ')" 2 "two comparisons, one block each"

# --threshold counts only what the statistics judged worse: a 20% slower figure
# whose floor (--min-effect 25) it does not pass is no regression.
run "$LMBENCH" compare $ONE --threshold 5 --min-effect 25 "$T/base.json" "$T/slow.json"
is "$RC" 0 "20% slower, below --min-effect 25: exit status 0 with --threshold 5"
like "$OUT" '^lat_syscall null .*  same$' "... 'same': a change, not beyond the floor"

# --- few samples, no samples ---------------------------------------------------------------

doc "$T/few1.json" 'lat_pipe|null|{"ends":"same_cpu"}|us|lower|5.0 5.1 4.9'
doc "$T/few2.json" 'lat_pipe|null|{"ends":"same_cpu"}|us|lower|6.0 6.1 5.9'
doc "$T/few3.json" 'lat_pipe|null|{"ends":"same_cpu"}|us|lower|5.05 6.1 4.8'
run "$LMBENCH" compare $ONE --threshold 5 "$T/few1.json" "$T/few2.json"
ok $([ "$RC" = 1 ] && printf '%s\n' "$OUT" | grep -q '^lat_pipe ends=same_cpu .*worse  REGRESSION$'; echo $?) \
    "3 samples each, apart: worse and a regression"
run "$LMBENCH" compare $ONE --threshold 5 "$T/few1.json" "$T/few3.json"
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -Eq '^lat_pipe ends=same_cpu .*  (same|\? \(interval too wide to tell\))$'; echo $?) \
    "3 samples each, overlapping: not a change, no regression"
doc "$T/two.json" 'lat_pipe|null|{"ends":"same_cpu"}|us|lower|6.0 6.1'
run "$LMBENCH" compare $ONE --threshold 5 "$T/few1.json" "$T/two.json"
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q '^lat_pipe ends=same_cpu .*  ? (too few samples)$'; echo $?) \
    "2 samples on a side: '?' (too few samples), no regression"

awk '/^Simple syscall: / { $3 = $3 * 2 } { print }' "$RAW3" >"$T/raw.1"
run "$LMBENCH" compare --threshold 10 "$RAW3" "$T/raw.1"
is "$RC" 0 "lmbench 3 files (no samples), null call doubled, --threshold 10: exit 0 (not judged worse)"
like "$OUT" '^lat_syscall null +us +0\.0524 +0\.1048 +2\.000 +\+100\.0%  \? \(spread unknown: neither side has samples\)$' \
    "no samples: '?' with the reason, no regression"
like "$OUT" '^      context unknown \(an lmbench 3 file\)$' "an lmbench 3 file: context unknown"
like "$OUT" '^mhz +MHz .*  -$' "mhz is shown but not judged"

# --- filters and JSON ---------------------------------------------------------------------

run "$LMBENCH" compare $ONE --only bw_mem "$T/base.json" "$T/slow.json"
unlike "$OUT" '^lat_syscall' "--only bw_mem: no lat_syscall row"
like "$OUT" '^bw_mem frd' "--only bw_mem: the bw_mem row"
run "$LMBENCH" compare $ONE --changed "$T/base.json" "$T/slow.json"
unlike "$OUT" '^bw_mem' "--changed: unchanged rows left out"
like "$OUT" '^lat_syscall null' "--changed: the changed row"

run_json "$LMBENCH" compare $ONE --json --threshold 5 "$T/base.json" "$T/slow.json"
is "$RC" 1 "--json with a regression: exit status 1"
json_checks "$T/json" <<'EOF2'
--json: schema lmbench-compare 1, the threshold, one regression
    .schema == "lmbench-compare" and .schema_version == 2 and .threshold_pct == 5 and .regressions == 1 and .min_effect_pct == 3 and .fdr == 0.05
--json: the null call: values, ratio and its interval, p, q, floor, verdict, the test used
    .comparisons[0].metrics[] | select(.benchmark == "lat_syscall") | .base.value == 1 and .new.value == 1.2 and (.ratio * 1000 | round) == 1200 and .interval[0] < 1.2 and .interval[1] > 1.2 and .p < 0.001 and .q >= .p and .effect_floor_pct == 3 and .reason == null and .verdict == "worse" and .regression and .spread_test == "bootstrap" and .base.ci95 == [0.99, 1.01] and .new.n == 11 and .base.launches == 1
--json: counts and contexts of the comparison
    .comparisons[0].counts.worse == 1 and .comparisons[0].context.base == null and .comparisons[0].context.differs == null
EOF2

# --- what a run found for itself is not part of the measurement's name ----------------

doc "$T/pf1.json" 'lat_pagefault|null|{"file":"/a/f","pages":2048,"faults":2048,"faults_per_page":1}|us|lower|1 1 1 1 1 1'
doc "$T/pf2.json" 'lat_pagefault|null|{"file":"/b/f","pages":2048,"faults":2051,"faults_per_page":1.0015}|us|lower|1 1 1 1 1 1'
doc "$T/fs1.json" 'lat_fs|"create"|{"size_bytes":0,"files":3000,"files_per_dir":100}|us|lower|9 9 9 9 9 9'
doc "$T/fs2.json" 'lat_fs|"create"|{"size_bytes":0,"files":4100,"files_per_dir":100}|us|lower|9 9 9 9 9 9'
run "$LMBENCH" compare $ONE "$T/pf1.json" "$T/pf2.json"
like "$OUT" '^lat_pagefault pages=2048 +us .*  same$' "lat_pagefault: matched across runs whose fault counts differ"
run "$LMBENCH" compare $ONE "$T/fs1.json" "$T/fs2.json"
like "$OUT" '^lat_fs create files_per_dir=100 size_bytes=0 +us .*  same$' \
    "lat_fs: matched across runs that made different numbers of files"

# --- different quantities (compat) are never put in one ratio ---------------------------

sed 's/"benchmark":"lat_syscall","case":"null",/&"compat":"differs: a test quantity",/' \
    "$T/slow.json" >"$T/compat.json"
run "$LMBENCH" compare --threshold 5 "$T/base.json" "$T/compat.json"
is "$RC" 0 "a 20% change between different quantities is no regression: exit status 0"
like "$OUT" '^lat_syscall null +us +1\.000 +1\.200 +- +-  not comparable$' \
    "compat differs: both values, no ratio, 'not comparable'"
like "$OUT" '^    new:  differs: a test quantity$' "compat differs: each side's compat is named"
like "$OUT" '^1 not comparable' "compat differs: counted"
like "$OUT" '^bw_mem frd size_bytes=65536 .*  (same|\? .*)$' "compat differs: the other rows are compared"
run_json "$LMBENCH" compare --json "$T/base.json" "$T/compat.json"
json_checks "$T/json" <<'EOF2'
--json: a not comparable row has no ratio and names both compats
    .comparisons[0].not_comparable == 1 and (.comparisons[0].metrics[] | select(.benchmark == "lat_syscall") | .verdict == "not_comparable" and .ratio == null and .base.compat == "same" and .new.compat == "differs: a test quantity")
EOF2

# --- launches: the spread between launches sets the floor and the interval --------------

# Three launches whose medians differ by ~10% (1.0, 1.1, 1.2) against three of
# the same spread shifted 5%: tight within each launch, but the launches say
# that 5% is noise.
doc "$T/l1.json" 'lat_proc|"fork"|{}|us|lower|1.00 1.01 0.99 1.00 1.01;1.10 1.11 1.09 1.10 1.11;1.20 1.21 1.19 1.20 1.21'
doc "$T/l2.json" 'lat_proc|"fork"|{}|us|lower|1.05 1.06 1.04 1.05 1.06;1.155 1.165 1.145 1.155 1.16;1.26 1.27 1.25 1.26 1.27'
doc "$T/l3.json" 'lat_proc|"fork"|{}|us|lower|1.00 1.01 0.99 1.00 1.01 1.10 1.11 1.09 1.10 1.11 1.20 1.21 1.19 1.20 1.21'
doc "$T/l4.json" 'lat_proc|"fork"|{}|us|lower|1.05 1.06 1.04 1.05 1.06 1.155 1.165 1.145 1.155 1.16 1.26 1.27 1.25 1.26 1.27'
run_json "$LMBENCH" compare --json "$T/l1.json" "$T/l2.json"
json_checks "$T/json" <<'EOF2'
--json: three launches each: counted, their CV is the floor, a 5% shift is not a change
    .comparisons[0].metrics[0] | .base.launches == 3 and .new.launches == 3 and (.base.between_launch_cv * 100 | round) == 9 and (.effect_floor_pct | round) == 9 and .verdict != "worse" and .df < 10
EOF2
run "$LMBENCH" compare "$T/l1.json" "$T/l2.json"
like "$OUT" '^lat_proc fork +us +1\.100 +1\.155 +1\.050 \[0\.[5-8][0-9]*, 1\.[3-9][0-9]*\] +\+5\.0%  \? \(interval too wide to tell\)$' \
    "three launches: the interval is as wide as the launches scatter"
run "$LMBENCH" compare $ONE "$T/l3.json" "$T/l4.json"
like "$OUT" '^lat_proc fork +us .* 1\.050 \[0\.9[0-9]*, 1\.1[0-9]*\] ' \
    "the same samples read as one launch: a narrower interval (samples alone)"
run "$LMBENCH" compare "$T/l3.json" "$T/l4.json"
like "$OUT" '^lat_proc fork +us .*  \? \(one launch: the spread between runs is not measured' \
    "by default one launch is not judged: '?', and why"
like "$OUT" '^\?: 0 too few samples, 1 one launch, ' "the one-launch rows counted"

# --- contexts ---------------------------------------------------------------------------

DOC_CONTEXT='{"cpu_model":"Test CPU","kernel":"6.1.0-18","thp":"always","governor":"performance","smt":"on"}' \
    doc "$T/ctx1.json" "$BASE_SYS"
DOC_CONTEXT='{"cpu_model":"Test CPU","kernel":"6.5.0","thp":"madvise","governor":"performance","smt":"on"}' \
    doc "$T/ctx2.json" "$SLOW_SYS"
run "$LMBENCH" compare "$T/ctx1.json" "$T/ctx2.json"
like "$OUT" '^context differs: thp always -> madvise; kernel 6\.1\.0-18 -> 6\.5\.0$' \
    "contexts that differ: said, key by key"
like "$OUT" '^      context: Test CPU, smt on, governor performance, thp always, kernel 6\.1\.0-18$' \
    "a short context line for each file"
ok $(printf '%s\n' "$OUT" | awk '/^context differs/ { c = NR } /^lat_syscall null/ { v = NR } END { exit !(c && v && c < v) }'; echo $?) \
    "the context difference comes before any verdict"
run "$LMBENCH" compare "$T/ctx1.json" "$T/ctx1.json"
like "$OUT" '^context: the same in both files$' "the same context: said"
run "$LMBENCH" compare "$T/ctx1.json" "$T/base.json"
like "$OUT" '^context unknown for new' "a file without context: said"
run_json "$LMBENCH" compare --json "$T/ctx1.json" "$T/ctx2.json"
json_checks "$T/json" <<'EOF2'
--json: the contexts and what differs
    .comparisons[0].context | .base.kernel == "6.1.0-18" and .new.thp == "madvise" and ([.differs[].key] == ["thp", "kernel"]) and .differs[1].new == "6.5.0"
EOF2

# --- lmbench 3 files beside ours ----------------------------------------------------------

# Ours: lat_pipe on one CPU and on two, in three launches, with the parameters
# ours writes and lmbench 3's lines do not (message size).
doc "$T/ours.json" \
    'lat_pipe|null|{"ends":"same_cpu","msg_bytes":1}|us|lower|21.0 21.1 20.9;21.5 21.4 21.6;20.8 20.9 21.0' \
    'lat_pipe|null|{"ends":"two_cpus","msg_bytes":1}|us|lower|40 41 39;42 41 40;40 39 41' \
    'lat_syscall|"null"|{}|us|lower|0.0530 0.0531 0.0529;0.0532 0.0533 0.0531;0.0528 0.0529 0.0530' \
    'lat_proc|"fork"|{}|us|lower|200 201 199;204 205 203;198 199 200'
run "$LMBENCH" compare "$RAW3" "$T/ours.json"
like "$OUT" '^lat_pipe ends=same_cpu msg_bytes=1 +us +10\.7[45] +21\.00 +1\.954 +\+95\.4%  worse \(beyond [0-9]+%: no spread on one side\)$' \
    "lmbench 3's unpinned pipe matched to ours on one CPU; judged by the margin, and said so"
like "$OUT" '^    placement: base unpinned \(lmbench 3\), new same_cpu$' "the placement difference is stated"
like "$OUT" '^lat_syscall null +us +0\.05240 +0\.05300 +1\.011 +\+1\.1%  \? \(within the margin' \
    "a 1% difference against a value without spread: '?' and why"
like "$OUT" '^lat_proc fork +us +92\.8 +200\.0 +2\.156 .*  worse \(beyond' "fork: worse, beyond the margin"
like "$OUT" '^3 compared:' "each of ours found in lmbench 3's file is compared"
like "$OUT" 'only in base, 1 only in new$' "ours on two CPUs has no lmbench 3 counterpart"
run "$LMBENCH" compare --threshold 5 "$RAW3" "$T/ours.json"
is "$RC" 1 "--threshold 5 against lmbench 3: the margin verdicts count: exit 1"
run_json "$LMBENCH" compare --json "$RAW3" "$T/ours.json"
json_checks "$T/json" <<'EOF2'
--json: a margin verdict: method, margin, the placement, no p
    .comparisons[0].metrics[] | select(.benchmark == "lat_pipe") | .spread_test == "margin" and .margin_pct >= 6 and .p == null and .interval == null and .placement == "base unpinned (lmbench 3), new same_cpu" and .base.ends == "unpinned" and .new.ends == "same_cpu"
EOF2
# A record of ours that is not lmbench 3's quantity stays apart.
sed 's/"benchmark":"lat_proc","case":"fork",/&"compat":"differs: a test quantity",/' \
    "$T/ours.json" >"$T/ours-differs.json"
run "$LMBENCH" compare "$RAW3" "$T/ours-differs.json"
like "$OUT" '^lat_proc fork +us +92\.8 +200\.0 +- +-  not comparable$' \
    "against lmbench 3, a record with compat 'differs' is not comparable"

# --- the table: columns that fit, digits, names in one file only -----------------------

# cols_aligned TEXT: every row of each table (and the header) has its unit starting,
# and its base, new, new/base and change ending, in one column, and its verdict
# starting in one column; a name too long for the column stands on its own line,
# the rest of its row under the others.
cols_aligned() {
    printf '%s\n' "$1" | awk '
        function at(line, col) { return substr(line, col, 1) }
        { l[NR] = $0 }
        END {
            for (i = 1; i <= NR && l[i] !~ /^measurement /; i++)
                ;
            if (i > NR) exit 1
            h = l[i]
            u = index(h, " unit ") + 1; v = index(h, "  verdict") + 2
            eb = index(h, " base ") + 4; en = index(h, " new ") + 3
            er = index(h, " new/base ") + 8; ec = index(h, " change ") + 6
            for (i++; i <= NR && l[i] != ""; i++) {
                x = l[i]
                if (x ~ /^    [a-z]/) continue                       # placement, compat
                if (x !~ /^            / && l[i + 1] ~ /^            /) continue   # a name alone
                bad = 0
                if (at(x, u - 1) != " " || at(x, u) == " ") bad = 1
                if (at(x, eb) == " " || at(x, eb + 1) != " ") bad = 1
                if (at(x, en) == " " || at(x, en + 1) != " ") bad = 1
                if (at(x, er) == " " || at(x, er + 1) != " ") bad = 1
                if (at(x, ec) == " " || at(x, ec + 1) != " ") bad = 1
                if (substr(x, v - 2, 2) != "  " || substr(x, v) !~ /^(same|better|worse|\?|-|not comparable)/) bad = 1
                if (bad) { print "misaligned: " x; err = 1 }
                rows++
            }
            exit err || !rows
        }'
}

MID='lat_fs|"create"|{"size_bytes":65536,"files_per_dir":100,"tree":"wide"}|us|lower'
LONG='lat_fs|"create"|{"size_bytes":0,"files_per_dir":100,"directory_layout":"nested-three-levels-deep-with-long-names","tree":"x"}|us|lower'
doc "$T/w1.json" "$MID|9.5 9.5 9.5 9.5 9.5 9.6" "$LONG|9 9 9 9 9 9.1" \
    'bw_mem|"rd"|{"size_bytes":65536}|MB/s|higher|999 999 999 999 999 998' \
    'lat_syscall|"null"|{}|us|lower|0.0524 0.0524 0.0524 0.0524 0.0524 0.0525' \
    'lat_syscall|"read"|{}|us|lower|2 2 2 2 2 2' 'lat_syscall|"stat"|{}|us|lower|2 2 2 2 2 2'
doc "$T/w2.json" "$MID|10.5 10.5 10.5 10.5 10.5 10.6" "$LONG|9 9 9 9 9 9.1" \
    'bw_mem|"rd"|{"size_bytes":65536}|MB/s|higher|1001 1001 1001 1001 1001 1000' \
    'lat_syscall|"null"|{}|us|lower|0.1048 0.1048 0.1048 0.1048 0.1048 0.1049' \
    'lat_syscall|"write"|{}|us|lower|2 2 2 2 2 2'
run "$LMBENCH" compare $ONE "$T/w1.json" "$T/w2.json"
is "$RC" 0 "long names: exit status 0"
ok $(cols_aligned "$OUT" >"$T/al" 2>&1; r=$?; cat "$T/al" >&2; echo $r) \
    "a 58-character name: the columns widen to it, every row aligned"
like "$OUT" '^lat_fs create files_per_dir=100 size_bytes=65536 tree=wide +us ' \
    "a 58-character name fits on its row"
like "$OUT" '^lat_fs create directory_layout=nested-three-levels-deep-with-long-names files_per_dir=100 size_bytes=0 tree=x$' \
    "a name longer than the column's cap: on its own line"
ok $(cols_aligned "$(awk '/^(measurement|lat_syscall|bw_mem|lat_fs create f)/' "$T/out")" >/dev/null 2>&1; echo $?) \
    "... the rows of short names aligned"
# Digits: base and new of one row with the same decimals (the smaller value 3
# significant digits or more, the larger 4); ratios and intervals 3 decimals,
# changes 1.
like "$OUT" '^lat_fs create files_per_dir=100 size_bytes=65536 tree=wide +us +9\.50 +10\.50 +1\.105 \[1\.[0-9]{3}, 1\.[0-9]{3}\] +\+10\.5%  worse$' \
    "9.5 beside 10.5: both with 2 decimals"
like "$OUT" '^bw_mem rd size_bytes=65536 +MB/s +999 +1001 +1\.002 \[1\.[0-9]{3}, 1\.[0-9]{3}\] +\+0\.2%  ' \
    "999 beside 1001: both whole numbers"
like "$OUT" '^lat_syscall null +us +0\.0524 +0\.1048 +2\.000 ' "0.0524 beside 0.1048: both with 4 decimals"
ok $(printf '%s\n' "$OUT" | awk '/^(lat_|bw_)/ && NF > 6 {
        for (i = 1; i <= NF; i++) if ($i ~ /^\[/) break
        r = $(i - 1); if (r !~ /^[0-9]+\.[0-9][0-9][0-9]$/ || $i !~ /^\[[0-9]+\.[0-9][0-9][0-9],$/ || $(i + 1) !~ /^[0-9]+\.[0-9][0-9][0-9]\]$/ || $(i + 2) !~ /^[-+][0-9]+\.[0-9]%$/) bad = 1
        b = $(i - 3); n = $(i - 2); sub(/^[^.]*/, "", b); sub(/^[^.]*/, "", n); if (length(b) != length(n)) bad = 1
    } END { exit bad }'; echo $?) \
    "every row: base and new with the same decimals, ratio and interval 3, change 1"
# Names in one file only, after the table.
like "$OUT" '^only in base \(2\):$' "only in base: counted"
like "$OUT" '^    lat_syscall read$' "only in base: named"
like "$OUT" '^    lat_syscall stat$' "only in base: each named"
like "$OUT" '^only in new \(1\):$' "only in new: counted"
like "$OUT" '^    lat_syscall write$' "only in new: named"
like "$OUT" '2 only in base, 1 only in new$' "the summary's counts"
ok $(printf '%s\n' "$OUT" | awk '/^measurement / { h = NR } /^only in base/ { o = NR } END { exit !(h && o > h) }'; echo $?) \
    "the names come after the table"
run "$LMBENCH" compare $ONE --only stat "$T/w1.json" "$T/w2.json"
like "$OUT" '^    lat_syscall stat$' "--only stat: the matching name in base only"
unlike "$OUT" '^    lat_syscall (read|write)$' "--only stat: the others left out"
unlike "$OUT" '^only in new' "--only stat: nothing only in new"
like "$OUT" '^0 compared: .*; 1 only in base, 0 only in new$' "--only stat: the counts are of what --only shows"
run "$LMBENCH" compare $ONE --changed "$T/w1.json" "$T/w2.json"
like "$OUT" '^lat_fs create files_per_dir=100 .*  worse$' "--changed: the changed row"
unlike "$OUT" '^bw_mem rd' "--changed: the others left out"
like "$OUT" '^2 not shown: neither better nor worse \(--changed\)$' "--changed: says how many it left out"
like "$OUT" '^    lat_syscall read$' "--changed: the names in one file only still listed"
run_json "$LMBENCH" compare $ONE --json "$T/w1.json" "$T/w2.json"
json_checks "$T/json" <<'EOF2'
--json: the names found in one file only, beside their counts
    .comparisons[0] | .only_in_base == 2 and .only_in_new == 1 and .only_in_base_names == ["lat_syscall read", "lat_syscall stat"] and .only_in_new_names == ["lat_syscall write"]
EOF2
run_json "$LMBENCH" compare $ONE --json --only stat "$T/w1.json" "$T/w2.json"
json_checks "$T/json" <<'EOF2'
--json --only stat: the names and counts of what --only shows
    .comparisons[0] | .only_in_base == 1 and .only_in_new == 0 and .only_in_base_names == ["lat_syscall stat"] and .only_in_new_names == []
EOF2

E=$(printf '\033')

# --- Markdown ----------------------------------------------------------------------

verb_usage_error compare --markdown --json "$T/w1.json" "$T/w2.json"
# (a '|' in a name: written as '%' and put in after, doc() splits on '|')
doc "$T/m1.json" "$BASE_SYS" 'lat_fs|"create"|{"size_bytes":0,"tree":"a%b"}|us|lower|9 9 9 9 9 9' \
    'lat_syscall|"read"|{}|us|lower|2 2 2 2 2 2'
doc "$T/m2.json" "$SLOW_SYS" 'lat_fs|"create"|{"size_bytes":0,"tree":"a%b"}|us|lower|9 9 9 9 9 9'
sed -i 's/a%b/a|b/' "$T/m1.json" "$T/m2.json"
run "$LMBENCH" compare $ONE --markdown --threshold 5 "$T/m1.json" "$T/m2.json"
is "$RC" 1 "--markdown with a regression: exit status 1"
like "$OUT" '^- base: .*m1\.json \(testhost\)$' "--markdown: the base file in a list"
like "$OUT" '^- new: .*m2\.json \(testhost\)$' "--markdown: the new file in a list"
like "$OUT" '^  - context unknown \(the file does not say\)$' "--markdown: each file's context under it"
like "$OUT" '^\| measurement +\| unit +\| +base \| +new \| new/base \| +95% interval \| +change \| verdict +\|$' \
    "--markdown: the table's header"
like "$OUT" '^\|-+\|-+\|-+:\|-+:\|-+:\|-+:\|-+:\|-+\|$' "--markdown: numbers right-aligned (---:)"
ok $(printf '%s\n' "$OUT" | awk '/^\|/ { s = $0; gsub(/\\\|/, "", s); n = gsub(/\|/, "", s); if (!h) h = n; else if (n != h) bad = 1; rows++ } END { exit !(h == 9 && rows == 4 && !bad) }'; echo $?) \
    "--markdown: header, delimiter and two rows, each with 8 cells"
like "$OUT" '^\| lat_fs create size_bytes=0 tree=a\\\|b +\|' "--markdown: a '|' in a name escaped"
like "$OUT" '^\| lat_syscall null +\| us +\| +1\.000 \| +1\.200 \| +1\.200 \| \[1\.[0-9]{3}, 1\.[0-9]{3}\] \| +\+20\.0% \| worse, REGRESSION +\|$' \
    "--markdown: a row with its verdict and REGRESSION"
like "$OUT" '^- 2 compared: 1 worse, 0 better, 1 same, 0 \?, 0 not judged; 1 only in base, 0 only in new$' \
    "--markdown: the counts after the table"
like "$OUT" '^- only in base \(1\): lat_syscall read$' "--markdown: names in one file only"
ok $(printf '%s\n' "$OUT" | awk '/^\|/ { t = 1; next } t && /^$/ { exit 0 } t { exit 1 }'; echo $?) \
    "--markdown: a blank line ends the table"
unlike "$OUT" "$E" "--markdown into a pipe: no colour"

# --- colour: on a terminal only, never with NO_COLOR -----------------------------------

if command -v script >/dev/null 2>&1 && script -qfec true /dev/null >/dev/null 2>&1; then
    tty_run() { TERM=xterm script -qfec "$*" /dev/null </dev/null 2>&1 | tr -d '\r'; }
    CMD="$LMBENCH compare $ONE --threshold 5 $T/w1.json $T/m2.json"
    out=$(tty_run "$CMD")
    like "$out" "^lat_syscall null .*  $E\\[31mworse$E\\[0m  $E\\[1m$E\\[31mREGRESSION$E\\[0m\$" \
        "on a terminal: a regression in bold red"
    out=$(tty_run "$LMBENCH compare $ONE $T/w1.json $T/w2.json")
    like "$out" "  $E\\[31mworse$E\\[0m\$" "on a terminal: worse in red"
    like "$out" "  same\$" "on a terminal: same plain"
    ok $(cols_aligned "$(printf '%s\n' "$out" | sed "s/$E\\[[0-9;]*m//g")" >/dev/null 2>&1; echo $?) \
        "on a terminal: the columns aligned with the colour taken out"
    doc "$T/f1.json" "$BASE_SYS"
    doc "$T/f2.json" "$FAST_SYS"
    out=$(tty_run "$LMBENCH compare $ONE $T/f1.json $T/f2.json")
    like "$out" "  $E\\[32mbetter$E\\[0m\$" "on a terminal: better in green"
    out=$(tty_run "$LMBENCH compare $T/f1.json $T/f2.json")
    like "$out" "  $E\\[33m\\?$E\\[0m \\(one launch" "on a terminal: ? in yellow"
    out=$(NO_COLOR=1 tty_run "$CMD")
    like "$out" "^lat_syscall null .*  worse  REGRESSION\$" "NO_COLOR=1 on a terminal: the table ..."
    unlike "$out" "$E" "... without colour"
    out=$(TERM=dumb script -qfec "$CMD" /dev/null </dev/null 2>&1)
    unlike "$out" "$E" "TERM=dumb on a terminal: no colour"
    out=$(tty_run "$LMBENCH compare $ONE --markdown $T/w1.json $T/w2.json")
    like "$out" '^\| measurement ' "--markdown on a terminal: the table ..."
    unlike "$out" "$E" "... without colour (it is text to paste)"
else
    skip "no script(1) to make a terminal: colour not tested"
fi
run "$LMBENCH" compare $ONE --threshold 5 "$T/w1.json" "$T/m2.json"
like "$OUT" '^lat_syscall null .*  worse  REGRESSION$' "into a pipe: the table ..."
unlike "$OUT" "$E" "... without colour"

run "$LMBENCH" compare "$T/base.json" "$T/nosuch.json"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q '^lmbench compare: .*nosuch'; echo $?) \
    "a missing file: exit 1, named"
"$LMBENCH" compare "$T/base.json" "$T/slow.json" >/dev/full 2>/dev/null
is "$?" 1 "compare >/dev/full: exit 1"

done_testing
