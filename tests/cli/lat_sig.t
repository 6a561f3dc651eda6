#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_sig: classic lines, prot with and without a file, --json (catch as
# kill+handler minus kill(self, 0)), bad input and bad files, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_sig
NUM='[0-9]+\.[0-9]{4}'

# prot is a difference (the fault minus the handling of a signal): on a busy
# machine it may be lost in the noise, and then it says so instead of printing
# the line. Either is right; a number that is not positive never is.
prot_line_or_status() {
    if printf '%s\n' "$1" | grep -Eq '^lat_sig: prot: below_resolution: .*the fault is not measurably longer'; then
        is "$(count_lines "$1")" 1 "$2 (below_resolution this time, with the reason)"
    else
        one_line_like "$1" "^Protection fault: $NUM microseconds\$" "$2"
        positive "$(label_value "$1")" "$2: the latency is positive"
    fi
}

for pair in "install:Signal handler installation" "catch:Signal handler overhead"; do
    v=${pair%%:*}
    label=${pair#*:}
    run "$CMD" -N 3 "$v"
    ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "$v: exit 0, nothing on stdout"
    one_line_like "$ERR" "^$label: $NUM microseconds\$" "$v: stderr is exactly '$label: X.XXXX microseconds'"
    positive "$(label_value "$ERR")" "$v: the latency is positive"
done
run "$CMD" -N 3 prot
ok $([ "$RC" = 0 ] && [ -z "$OUT" ]; echo $?) "prot: exit 0, nothing on stdout"
prot_line_or_status "$ERR" "prot: stderr is exactly 'Protection fault: X.XXXX microseconds'"

# prot on a file given, kept in place.
printf 'some data\n' >"$T/file"
run "$CMD" -N 3 prot "$T/file"
prot_line_or_status "$ERR" "prot FILE: the classic line"
check "prot FILE: the file is left in place, unchanged" sh -c '[ "$(cat "$1")" = "some data" ]' sh "$T/file"

# A file given to install or catch: a warning, then the result.
run "$CMD" -N 3 catch "$T/file"
is "$RC" 0 "catch FILE: exit status 0"
like "$ERR" '^lat_sig: warning: ' "catch FILE: a warning"
like "$ERR" "^Signal handler overhead: $NUM microseconds\$" "catch FILE: the classic line"

# Several copies each catch their own signals and faults.
for v in catch prot; do
    tag=$(new_tag)
    run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 "$v"
    ok $([ "$RC" = 0 ] && [ "$(count_lines "$ERR")" = 1 ]; echo $?) "-P 2 $v: exit 0, one line"
    no_process_left "$tag" "-P 2 $v: no process left behind"
done

# --- JSON ----------------------------------------------------------------------------

if json_usable; then
    run_json "$CMD" -N 3 --json install
    json_one_record "$T/json" lat_sig install us
    json_ok "$T/json" '.results[0].params == {}' "--json install: no params"

    # prot is lmbench 3's quantity: the whole fault minus the signal handler
    # overhead; the whole fault and the overhead taken away are records too.
    run_json "$CMD" -N 3 --json prot
    json_checks "$T/json" <<'EOF2'
--json prot: three records, prot_raw, prot_handler (ok), prot (ok or below_resolution), us, no params
    .results | length == 3 and map(.case) == ["prot_raw", "prot_handler", "prot"]
    and all(.[:2][]; .status == "ok") and (.[2].status | IN("ok", "below_resolution"))
    and all(.[]; .benchmark == "lat_sig" and .unit == "us" and .params == {})
--json prot: prot is positive, or below_resolution with the reason
    .results[2] | (.status == "ok" and .value > 0)
                  or (.status == "below_resolution" and .value == null and (.reason | length) > 0)
--json prot: 3 samples of the fault, one value of the overhead, positive
    .results | (.[0].samples | length) == 3 and (.[2].samples | length) == 3
    and (.[1].samples | length) == 1 and .[1].value > 0
--json prot: each prot sample is the prot_raw sample minus the handler overhead
    .results | .[1].value as $h | [.[0].samples, .[2].samples] | transpose
    | all(.[]; (.[0] - $h - .[1]) | fabs < 1e-6)
--json prot without a file: compat says it differs (anonymous memory); the parts are new
    .results | (.[2].compat | startswith("differs: a page of anonymous memory"))
    and (.[0].compat | startswith("new: ")) and (.[1].compat | startswith("new: "))
EOF2

    # catch is lmbench 3's quantity: kill() and the handler minus kill(self, 0),
    # the latter's smallest sample; both parts are records of their own.
    run_json "$CMD" -N 3 --json catch
    json_checks "$T/json" <<'EOF2'
--json catch: three records, kill0, catch_raw, catch, all ok in us with 3 samples and no params
    .results | length == 3 and map(.case) == ["kill0", "catch_raw", "catch"]
    and all(.[]; .benchmark == "lat_sig" and .unit == "us" and .status == "ok"
                 and (.samples | length) == 3 and .params == {})
--json catch: catch is lmbench 3's line (compat same); kill0 and catch_raw are new figures
    .results | .[2].compat == "same" and (.[0].compat | startswith("new: "))
    and (.[1].compat | startswith("new: "))
--json catch: kill0's headline is its minimum, the figure subtracted
    .results[0] | .headline == "min" and .value == .stats.min
--json catch: each catch sample is the catch_raw sample minus the smallest kill0 sample
    .results | (.[0].samples | min) as $k | [.[1].samples, .[2].samples] | transpose
    | all(.[]; (.[0] - $k - .[1]) | fabs < 1e-6)
--json catch: the catch headline is the median of its samples, and positive
    .results[2] | .value == .stats.median and .value > 0
EOF2
    run_json "$CMD" -N 3 --json prot "$T/file"
    json_ok "$T/json" ".results | map(.params.file) == [\"$T/file\", \"$T/file\", \"$T/file\"] and .[2].case == \"prot\"" \
        "--json prot FILE: params.file is the file, in all three records"
    json_ok "$T/json" '.results[2].compat == "same"' \
        "--json prot FILE: lmbench 3's quantity (compat same)"
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input -------------------------------------------------------------------------

usage_error lat_sig "$CMD"
usage_error lat_sig "$CMD" raise
usage_error lat_sig "$CMD" prot "$T/file" extra
usage_error lat_sig "$CMD" -N 0 catch
usage_error lat_sig "$CMD" -P x catch

failed_run lat_sig "prot on a missing file: exit 1, failed" "$CMD" -N 3 prot "$T/nonexistent"
like "$ERR" 'No such file' "prot on a missing file: says so"
failed_run lat_sig "prot on a missing file with an escape in its name: exit 1" "$CMD" -N 3 prot \
    "$T/$(printf 'x\033[31m')"
unlike "$ERR" "$(printf '\033')" "prot: an escape in the file name never reaches the terminal raw"
failed_run lat_sig "prot on a directory: exit 1, failed" "$CMD" -N 3 prot "$T"
like "$ERR" 'is a directory' "prot on a directory: says so"
: >"$T/empty"
failed_run lat_sig "prot on an empty file: exit 1, failed" "$CMD" -N 3 prot "$T/empty"
like "$ERR" 'holds 0 bytes' "prot on an empty file: says it is too short"
if [ "$(id -u)" != 0 ]; then
    printf 'x' >"$T/secret"
    chmod 000 "$T/secret"
    failed_run lat_sig "prot on an unreadable file: exit 1, failed" "$CMD" -N 3 prot "$T/secret"
else
    skip "prot on an unreadable file: root reads everything"
fi

# --- signals -------------------------------------------------------------------------

interrupted_running "catch" "$CMD" -P 2 -N 1000 --min-time 0.2 catch
interrupted_running "prot" "$CMD" -N 1000 --min-time 0.2 prot

done_testing
