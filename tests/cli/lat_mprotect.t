#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_mprotect: classic lines with the page count, --json (case, unit us per
# page, params pages and page_bytes, compat new), the pages operand, bad input,
# -P 2, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_mprotect
NUM='[0-9]+\.[0-9]{4}'

for pair in "mprotect:mprotect+back" "madvise:madvise DONTNEED+refault"; do
    v=${pair%%:*}
    label=${pair#*:}
    re=$(printf '%s' "$label" | sed 's/[+]/\\&/g')
    run "$CMD" -N 3 "$v"
    is "$RC" 0 "$v: exit status 0"
    is "$OUT" "" "$v: nothing on stdout"
    one_line_like "$ERR" "^$re per page \\(256 pages\\): $NUM microseconds\$" \
        "$v: stderr is exactly '$label per page (256 pages): X.XXXX microseconds' (the default)"
    positive "$(label_value "$ERR")" "$v: the latency is positive"
    for n in 1 7; do
        run "$CMD" -N 3 "$v" "$n"
        one_line_like "$ERR" "^$re per page \\($n pages\\): $NUM microseconds\$" "$v $n: the page count in the line"
    done
done

run "$CMD" -N 3 mprotect 1024
one_line_like "$ERR" "^mprotect\\+back per page \\(1024 pages\\): $NUM microseconds\$" "mprotect 1024: 1024 pages"

# --- help, list --------------------------------------------------------------------

run "$CMD" --list
is "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" "mprotect madvise " "--list: the two operations"
run "$CMD" --help
like "$OUT" '^Usage: lat_mprotect .*mprotect\|madvise \[pages\]' "--help: usage with the operations"

# --- JSON ----------------------------------------------------------------------------

if json_usable; then
    for v in mprotect madvise; do
        run_json "$CMD" -N 3 --json "$v" 16
        json_one_record "$T/json" lat_mprotect "$v" us
        json_ok "$T/json" '.results[0].params.pages == 16 and .results[0].params.page_bytes > 0' \
            "--json $v: params pages 16 and page_bytes"
        json_ok "$T/json" '.results[0].compat | startswith("new: ")' "--json $v: compat new"
        json_ok "$T/json" '.results[0].iterations_per_sample > 0' "--json $v: iterations counted"
    done
else
    skip "--json: jq missing or built without jansson"
fi

# --- bad input -------------------------------------------------------------------------

usage_error lat_mprotect "$CMD"
usage_error lat_mprotect "$CMD" munmap
usage_error lat_mprotect "$CMD" mprotect 0
usage_error lat_mprotect "$CMD" mprotect -5
usage_error lat_mprotect "$CMD" mprotect 12x
usage_error lat_mprotect "$CMD" mprotect 1k
usage_error lat_mprotect "$CMD" mprotect 99999999
usage_error lat_mprotect "$CMD" mprotect 4 extra
usage_error lat_mprotect "$CMD" -N 0 madvise

# --- -P 2 and signals ---------------------------------------------------------------

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 madvise 8
one_line_like "$ERR" "^madvise DONTNEED\\+refault per page \\(8 pages\\): $NUM microseconds\$" "-P 2 madvise: one classic line"
no_process_left "$tag" "-P 2 madvise: no process left behind"

interrupted_running "madvise" "$CMD" -N 1000 --min-time 0.2 madvise

done_testing
