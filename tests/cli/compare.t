#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench compare: crafted results files where a real regression fails the
# threshold and noise does not; bandwidths, few samples, lmbench 3 files
# without samples, --json, bad input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-suite.sh"

verb_contract compare
verb_usage_error compare
verb_usage_error compare "$RAW3"
verb_usage_error compare --threshold abc "$RAW3" "$RAW3"
verb_usage_error compare --threshold -5 "$RAW3" "$RAW3"
verb_usage_error compare --threshold

if ! json_usable; then
    skip "compare on JSON files: jq missing or built without jansson"
    done_testing
fi

# doc FILE RECORD...: a results document with these records; a record is
# "benchmark|case|params-json|unit|better|s1 s2 s3 ..." (value: the median).
doc() {
    _f=$1
    shift
    {
        printf '{"schema":"lmbench-results","schema_version":1,"tool":{"name":"lmbench"},'
        printf '"run":{"id":"test","config":{"parallel":1}},"host":{"hostname":"testhost",'
        printf '"uname":{"sysname":"Linux","release":"6.1","version":"#1","machine":"x86_64"}},'
        printf '"results":['
        _sep=
        for _r in "$@"; do
            IFS='|' read -r _b _c _p _u _bt _s <<EOR
$_r
EOR
            _arr=$(printf '%s\n' $_s | paste -sd, -)
            _med=$(printf '%s\n' $_s | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
            printf '%s{"benchmark":"%s","case":%s,"params":%s,"unit":"%s","better":"%s","status":"ok","value":%s,"samples":[%s]}' \
                "$_sep" "$_b" "$_c" "$_p" "$_u" "$_bt" "$_med" "$_arr"
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

run "$LMBENCH" compare --threshold 0.5 "$T/base.json" "$T/noise.json"
is "$RC" 0 "noise (1% apart, overlapping intervals) with --threshold 0.5: exit status 0"
like "$OUT" '^lat_syscall null +us +1\.0000 +1\.0100 +1\.010 +\+1\.0%  ~$' \
    "noise: lat_syscall null side by side, ratio, change, '~'"
like "$OUT" '^bw_mem frd size_bytes=65536 +MB/s .*  ~$' "noise: a noisy bandwidth is '~'"
like "$OUT" '^1 compared|^2 compared' "noise: a count of the measurements compared"
like "$OUT" '1 only in base, 1 only in new' "noise: measurements in one file only are counted"
like "$OUT" '^regressions beyond 0\.5%: 0$' "noise: no regression"

# --- a real regression fails ----------------------------------------------------------------

run "$LMBENCH" compare --threshold 5 "$T/base.json" "$T/slow.json"
is "$RC" 1 "a 20% slower null call with --threshold 5: exit status 1"
like "$OUT" '^lat_syscall null +us +1\.0000 +1\.2000 +1\.200 +\+20\.0%  worse  REGRESSION$' \
    "regression: marked worse and REGRESSION"
like "$ERR" '^lmbench compare: 1 regression beyond 5%$' "regression: said on stderr"
run "$LMBENCH" compare --threshold 25 "$T/base.json" "$T/slow.json"
is "$RC" 0 "the same 20% with --threshold 25: exit status 0"
like "$OUT" 'worse$' "... still shown as worse"
run "$LMBENCH" compare "$T/base.json" "$T/slow.json"
is "$RC" 0 "without --threshold: exit status 0 whatever changed"

run "$LMBENCH" compare --threshold 5 "$T/base.json" "$T/fast.json"
is "$RC" 0 "20% faster: exit status 0"
like "$OUT" '^lat_syscall null .* -20\.0%  better$' "faster: marked better"

# Bandwidth: lower is worse; the vector unit does not make it another measurement.
run "$LMBENCH" compare --threshold 5 "$T/base.json" "$T/lowbw.json"
is "$RC" 1 "a 17% lower bandwidth with --threshold 5: exit status 1"
like "$OUT" '^bw_mem frd size_bytes=65536 +MB/s +30000\.0 +25000\.0 +0\.833 +-16\.7%  worse  REGRESSION$' \
    "bandwidth: lower is worse (matched across vector units)"

# Several new files.
run "$LMBENCH" compare --threshold 5 "$T/base.json" "$T/noise.json" "$T/slow.json"
is "$RC" 1 "base against noise and a regression: exit status 1"
is "$(printf '%s\n' "$OUT" | grep -c '^base: ')" 2 "two comparisons, one block each"

# --- few samples, no samples ---------------------------------------------------------------

doc "$T/few1.json" 'lat_pipe|null|{"ends":"same_cpu"}|us|lower|5.0 5.1 4.9'
doc "$T/few2.json" 'lat_pipe|null|{"ends":"same_cpu"}|us|lower|6.0 6.1 5.9'
doc "$T/few3.json" 'lat_pipe|null|{"ends":"same_cpu"}|us|lower|5.05 6.1 4.8'
run "$LMBENCH" compare --threshold 5 "$T/few1.json" "$T/few2.json"
ok $([ "$RC" = 1 ] && printf '%s\n' "$OUT" | grep -q '^lat_pipe ends=same_cpu .*worse  REGRESSION$'; echo $?) \
    "3 samples each, apart: worse and a regression"
run "$LMBENCH" compare --threshold 5 "$T/few1.json" "$T/few3.json"
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q '^lat_pipe ends=same_cpu .*  ~$'; echo $?) \
    "3 samples each, overlapping: '~', no regression"

awk '/^Simple syscall: / { $3 = $3 * 2 } { print }' "$RAW3" >"$T/raw.1"
run "$LMBENCH" compare --threshold 10 "$RAW3" "$T/raw.1"
is "$RC" 1 "lmbench 3 files (no samples), null call doubled, --threshold 10: exit 1"
like "$OUT" '^lat_syscall null +us +0\.0524 +0\.1048 +2\.000 +\+100\.0%  \?  REGRESSION$' \
    "no samples: '?' and a regression by the threshold alone"
like "$OUT" '^mhz +MHz .*  -$' "mhz is shown but not judged"

# --- filters and JSON ---------------------------------------------------------------------

run "$LMBENCH" compare --only bw_mem "$T/base.json" "$T/slow.json"
unlike "$OUT" '^lat_syscall' "--only bw_mem: no lat_syscall row"
like "$OUT" '^bw_mem frd' "--only bw_mem: the bw_mem row"
run "$LMBENCH" compare --changed "$T/base.json" "$T/slow.json"
unlike "$OUT" '^bw_mem' "--changed: unchanged rows left out"
like "$OUT" '^lat_syscall null' "--changed: the changed row"

run_json "$LMBENCH" compare --json --threshold 5 "$T/base.json" "$T/slow.json"
is "$RC" 1 "--json with a regression: exit status 1"
json_checks "$T/json" <<'EOF2'
--json: schema lmbench-compare 1, the threshold, one regression
    .schema == "lmbench-compare" and .schema_version == 1 and .threshold_pct == 5 and .regressions == 1
--json: the null call: values, ratio, verdict, the test used, the intervals
    .comparisons[0].metrics[] | select(.benchmark == "lat_syscall") | .base.value == 1 and .new.value == 1.2 and (.ratio * 1000 | round) == 1200 and .verdict == "worse" and .regression and .spread_test == "ci95" and .base.ci95 == [0.99, 1.01] and .new.n == 11
EOF2

# --- what a run found for itself is not part of the measurement's name ----------------

doc "$T/pf1.json" 'lat_pagefault|null|{"file":"/a/f","pages":2048,"faults":2048,"faults_per_page":1}|us|lower|1 1 1 1 1 1'
doc "$T/pf2.json" 'lat_pagefault|null|{"file":"/b/f","pages":2048,"faults":2051,"faults_per_page":1.0015}|us|lower|1 1 1 1 1 1'
doc "$T/fs1.json" 'lat_fs|"create"|{"size_bytes":0,"files":3000,"files_per_dir":100}|us|lower|9 9 9 9 9 9'
doc "$T/fs2.json" 'lat_fs|"create"|{"size_bytes":0,"files":4100,"files_per_dir":100}|us|lower|9 9 9 9 9 9'
run "$LMBENCH" compare "$T/pf1.json" "$T/pf2.json"
like "$OUT" '^lat_pagefault pages=2048 +us .*  ~$' "lat_pagefault: matched across runs whose fault counts differ"
run "$LMBENCH" compare "$T/fs1.json" "$T/fs2.json"
like "$OUT" '^lat_fs create files_per_dir=100 size_bytes=0 +us .*  ~$|^lat_fs create size_bytes=0 files_per_dir=100 +us .*  ~$' \
    "lat_fs: matched across runs that made different numbers of files"

# --- different quantities (compat) are never put in one ratio ---------------------------

sed 's/"benchmark":"lat_syscall","case":"null",/&"compat":"differs: a test quantity",/' \
    "$T/slow.json" >"$T/compat.json"
run "$LMBENCH" compare --threshold 5 "$T/base.json" "$T/compat.json"
is "$RC" 0 "a 20% change between different quantities is no regression: exit status 0"
like "$OUT" '^lat_syscall null +us +1\.0000 +1\.2000 +- +-  not comparable$' \
    "compat differs: both values, no ratio, 'not comparable'"
like "$OUT" '^    new:  differs: a test quantity$' "compat differs: each side's compat is named"
like "$OUT" '^1 not comparable' "compat differs: counted"
like "$OUT" '^bw_mem frd size_bytes=65536 .*  ~$' "compat differs: the other rows are compared"
run_json "$LMBENCH" compare --json "$T/base.json" "$T/compat.json"
json_checks "$T/json" <<'EOF2'
--json: a not comparable row has no ratio and names both compats
    .comparisons[0].not_comparable == 1 and (.comparisons[0].metrics[] | select(.benchmark == "lat_syscall") | .verdict == "not_comparable" and .ratio == null and .base.compat == "same" and .new.compat == "differs: a test quantity")
EOF2

run "$LMBENCH" compare "$T/base.json" "$T/nosuch.json"
ok $([ "$RC" = 1 ] && printf '%s\n' "$ERR" | grep -q '^lmbench compare: .*nosuch'; echo $?) \
    "a missing file: exit 1, named"
"$LMBENCH" compare "$T/base.json" "$T/slow.json" >/dev/full 2>/dev/null
is "$?" 1 "compare >/dev/full: exit 1"

done_testing
