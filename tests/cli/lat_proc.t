#!/bin/sh
# SPDX-License-Identifier: MIT
# lat_proc: classic lines, --json, the hello helper (found beside the binary,
# a clear failure when missing), bad input, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-os.sh"

CMD=$BIN/lat_proc
NUM='[0-9]+\.[0-9]{4}'

for pair in "procedure:Procedure call" "fork:Process fork+exit" "exec:Process fork+execve" \
            "shell:Process fork+/bin/sh -c" "vfork:Process vfork+exit" "spawn:Process posix_spawn"; do
    v=${pair%%:*}
    label=${pair#*:}
    run "$CMD" -N 3 "$v"
    is "$RC" 0 "$v: exit status 0"
    is "$OUT" "" "$v: nothing on stdout (the helper's output goes to /dev/null)"
    one_line_like "$ERR" "^$(printf '%s' "$label" | sed 's/[+/]/\\&/g'): $NUM microseconds\$" \
        "$v: stderr is exactly '$label: X.XXXX microseconds'"
    positive "$(label_value "$ERR")" "$v: the latency is positive"
done

# --- help, list ------------------------------------------------------------------

run "$CMD" --list
is "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" "procedure fork exec shell vfork spawn " \
    "--list: the four operations of lmbench 3, then ours: vfork, spawn"
run "$CMD" --help
like "$OUT" '^Usage: lat_proc .*procedure\|fork\|exec\|shell\|vfork\|spawn' "--help: usage with the operations"

# --- JSON ------------------------------------------------------------------------

if json_usable; then
    for v in procedure fork exec shell vfork spawn; do
        run_json "$CMD" -N 3 --json "$v"
        json_one_record "$T/json" lat_proc "$v" us
        if [ "$v" = procedure ]; then
            json_ok "$T/json" '.results[0].params == {}' "--json $v: no params"
        else
            json_ok "$T/json" '(.results[0].params | keys) == ["maps"] and .results[0].params.maps > 3' \
                "--json $v: params.maps, the mappings of the process that forks"
        fi
    done
    for v in fork exec vfork spawn; do
        run_json "$CMD" -N 3 --json "$v"
        case $v in
        vfork | spawn) want='startswith("new: ")' ;;
        *) want='. == "same"' ;;
        esac
        json_ok "$T/json" ".results[0].compat | $want" "--json $v: compat ${want%%(*}"
    done
else
    skip "--json: jq missing or built without jansson"
fi

# --- the hello helper ----------------------------------------------------------------

# Where the helper is looked for is tested on the build machine: under qemu-user
# a copy of $LMBENCH is a wrapper that runs the build's own binary.
if [ -z "${LMBENCH_RUNNER:-}" ]; then
    # A copy of the build without the helper: exec and shell fail clearly, the
    # others still run; the helper is never looked for in /tmp.
    mkdir -p "$T/b/bin" "$T/b/libexec/lmbench"
    cp "$LMBENCH" "$T/b/bin/lmbench"
    ln -s lmbench "$T/b/bin/lat_proc"
    for v in exec shell spawn; do
        failed_run lat_proc "no hello helper: $v fails with exit 1 and a reason" "$T/b/bin/lat_proc" -N 3 "$v"
        like "$ERR" 'hello helper' "no hello helper: $v names the helper"
    done
    run "$T/b/bin/lat_proc" -N 3 fork
    is "$RC" 0 "no hello helper: fork still works"
    # Beside the binary, or in ../libexec/lmbench.
    cp "$LMBENCH_BUILD/libexec/lmbench/hello" "$T/b/libexec/lmbench/hello"
    run "$T/b/bin/lat_proc" -N 3 exec
    one_line_like "$ERR" "^Process fork\\+execve: $NUM microseconds\$" "hello in ../libexec/lmbench: exec works"
    run "$T/b/bin/lat_proc" -N 3 spawn
    one_line_like "$ERR" "^Process posix_spawn: $NUM microseconds\$" "hello in ../libexec/lmbench: spawn works"
    rm "$T/b/libexec/lmbench/hello"
    cp "$LMBENCH_BUILD/libexec/lmbench/hello" "$T/b/bin/hello"
    run "$T/b/bin/lat_proc" -N 3 shell
    one_line_like "$ERR" "^Process fork\\+/bin/sh -c: $NUM microseconds\$" "hello beside the binary: shell works"
    # A helper that fails: the measurement fails, saying so.
    printf '#!/bin/sh\nexit 3\n' >"$T/b/bin/hello"
    chmod +x "$T/b/bin/hello"
    failed_run lat_proc "a helper that exits 3: exec fails with a reason" "$T/b/bin/lat_proc" -N 3 exec
    like "$ERR" 'status 3' "a helper that exits 3: the status is in the reason"
    failed_run lat_proc "a helper that exits 3: spawn fails with a reason" "$T/b/bin/lat_proc" -N 3 spawn
    like "$ERR" 'status 3' "a helper that exits 3: spawn gives the status"
    # A path with a quote and a space, through /bin/sh -c.
    mkdir -p "$T/it's here/bin"
    cp "$LMBENCH" "$T/it's here/bin/lmbench"
    ln -s lmbench "$T/it's here/bin/lat_proc"
    cp "$LMBENCH_BUILD/libexec/lmbench/hello" "$T/it's here/bin/hello"
    run "$T/it's here/bin/lat_proc" -N 3 shell
    one_line_like "$ERR" "^Process fork\\+/bin/sh -c: $NUM microseconds\$" "a helper path with a quote and a space: shell works"
else
    skip "the helper's location: a copy of the binary under qemu-user is only its wrapper"
fi

# --- the process that forks ------------------------------------------------------------

# Its mappings, read from /proc while it forks: the binary, libc, libm and the
# loader; never libtirpc or the Kerberos, keyutils and resolver libraries it
# needs (lat_rpc alone loads them; the sanitized binary links them), nor
# libjansson where the build links libjansson.a in. Under qemu-user /proc shows
# the emulator's mappings.
copy_maps() {
    _c=$(children_of "$1" | head -n 1)
    [ -n "$_c" ] && cat "/proc/$_c/maps" >"$T/maps" 2>/dev/null && [ -s "$T/maps" ]
}
if [ -z "${LMBENCH_RUNNER:-}" ] && [ -r /proc/self/maps ]; then
    start_bg "$(new_tag)" "$CMD" -N 1000 --min-time 0.2 fork
    if wait_for "the copy" 100 copy_maps "$BG"; then
        objs=$(awk '$6 ~ /\.so/ { n = split($6, p, "/"); print p[n] }' "$T/maps" | sort -u | tr '\n' ' ')
        if [ -n "${LMBENCH_SANITIZED:-}" ]; then
            skip "libtirpc in the forking process: the sanitized binary links it (ASan's xdr interceptors)"
        else
            unlike "$objs" 'libtirpc|libgssapi|libkrb5|libk5crypto|libkrb5support|libcom_err|libkeyutils|libresolv' \
                "the forking process maps no libtirpc, Kerberos, keyutils or resolver library ($objs)"
        fi
        like "$objs" 'libc\.so' "the forking process maps libc"
        static_jansson=no
        for f in "$LMBENCH_BUILD/gen/flags" "$LMBENCH_BUILD/../gen/flags"; do
            [ -f "$f" ] && grep -q 'libjansson\.a' "$f" && static_jansson=yes
        done
        if [ "$static_jansson" = yes ]; then
            unlike "$objs" 'libjansson' "the forking process maps no libjansson (linked in statically)"
        else
            skip "libjansson in the forking process: this build links the shared library (no libjansson.a)"
        fi
    else
        fail "the forking process: lat_proc did not start its copy"
        skip "the forking process: libc"
        skip "the forking process: libjansson"
    fi
    kill -INT "$BG" 2>/dev/null
    wait_bg
else
    skip "the forking process's mappings: under qemu-user /proc shows the emulator's"
    skip "the forking process: libc"
    skip "the forking process: libjansson"
fi

# --- bad input -----------------------------------------------------------------------

usage_error lat_proc "$CMD"
usage_error lat_proc "$CMD" clone
usage_error lat_proc "$CMD" fork extra
usage_error lat_proc "$CMD" -N 0 fork
usage_error lat_proc "$CMD" -P 0 fork
usage_error lat_proc "$CMD" -x fork

# --- -P 2 and signals ---------------------------------------------------------------

tag=$(new_tag)
run env LMB_TEST_TAG="$tag" "$CMD" -P 2 -N 3 fork
one_line_like "$ERR" "^Process fork\\+exit: $NUM microseconds\$" "-P 2 fork: one classic line"
no_process_left "$tag" "-P 2 fork: no process left behind"

interrupted_running "fork" "$CMD" -N 1000 --min-time 0.2 fork
interrupted_running "shell" "$CMD" -N 1000 --min-time 0.2 shell
interrupted_running "vfork" "$CMD" -N 1000 --min-time 0.2 vfork
interrupted_running "spawn" "$CMD" -N 1000 --min-time 0.2 spawn

done_testing
