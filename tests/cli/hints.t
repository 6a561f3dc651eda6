#!/bin/sh
# SPDX-License-Identifier: MIT
# Errors that point to the fix (issue 16 item 12): a client with no server says
# how to start one (and -l where there is one), a host not reached or not found
# says so; an unknown command suggests the nearest name; a size given after the
# operation says the order; lat_mem_rd's fraction of a megabyte says what to
# type; no --help line is wider than 80 columns.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-net.sh"

# --- no server: the message says how to start one -------------------------------------

# hint_no_server CMD PORT_FLAG HAS_L [ARGS...]
hint_no_server() {
    _c=$1 _pf=$2 _l=$3
    shift 3
    _p=$(free_port) || { skip "$_c: no free port"; return; }
    run "$BIN/$_c" "$_pf" "$_p" -N 1 --timeout 3 "$@" 127.0.0.1
    is "$RC" 1 "$_c with no server: exit status 1"
    like "$ERR" "^$_c: .*failed: .*no $_c server (listens|answers) at 127\\.0\\.0\\.1 port $_p" \
        "$_c with no server: says no $_c server is there"
    like "$ERR" "start one with '$_c -s $_pf $_p' \\(or 'lmbench $_c -s $_pf $_p'\\)" \
        "$_c with no server: names the command that starts one, with the port"
    if [ "$_l" = yes ]; then
        like "$ERR" "without a server: '$_c -l'" "$_c with no server: points to -l"
    else
        unlike "$ERR" "'$_c -l'" "$_c with no server: no -l (it has none)"
    fi
}

hint_no_server lat_tcp -p yes
hint_no_server bw_tcp -p yes
hint_no_server lat_connect -p yes
hint_no_server lat_udp -p yes
hint_no_server bw_udp -p no
if "$BIN/lat_rpc" --help >/dev/null 2>&1 && [ "$("$BIN/lat_rpc" -S 127.0.0.1 -r 1 >/dev/null 2>&1; echo $?)" != 3 ]; then
    hint_no_server lat_rpc -r no
else
    skip "lat_rpc: not built with libtirpc"
fi
# lat_http reads its URLs first.
_p=$(free_port)
printf 'index.html\n' >"$T/urls"
"$BIN/lat_http" -p "$_p" -N 1 --timeout 3 127.0.0.1 <"$T/urls" >"$T/out" 2>"$T/err"
RC=$?
ERR=$(cat "$T/err")
is "$RC" 1 "lat_http with no server: exit status 1"
like "$ERR" "no lat_http server listens at 127\\.0\\.0\\.1 port $_p: start one with 'lat_http -s -p $_p'" \
    "lat_http with no server: names the command that starts one"

# No host at all: a usage error that names both ways.
usage_error lat_tcp "$BIN/lat_tcp"
like "$ERR" "which host\\? \\(start a server with 'lat_tcp -s', or measure without one: 'lat_tcp -l'\\)" \
    "lat_tcp with no host: -s or -l"
usage_error bw_udp "$BIN/bw_udp"
like "$ERR" "which host\\? \\(start a server with 'bw_udp -s'\\)" "bw_udp with no host: -s (it has no -l)"

# The default port: no -p in the hint.
if ! ss -Hant 2>/dev/null | awk '{ print $4 }' | grep -q ':31234$'; then
    run "$BIN/lat_tcp" -N 1 --timeout 3 localhost
    like "$ERR" "start one with 'lat_tcp -s' \\(or 'lmbench lat_tcp -s'\\)" \
        "lat_tcp on the default port: the hint has no -p"
else
    skip "port 31234 is in use here"
fi

# Another host (TEST-NET-1, RFC 5737: routed nowhere; a sandbox may refuse it
# at once): says it is not reached, or how to start a server there (-b).
run "$BIN/lat_tcp" -N 1 --timeout 2 192.0.2.1
is "$RC" 1 "lat_tcp to another host: exit status 1"
like "$ERR" "failed: (no answer from 192\\.0\\.2\\.1 port 31234 within .*is the host up|cannot reach 192\\.0\\.2\\.1 port 31234 .*check the address|no lat_tcp server listens at 192\\.0\\.2\\.1 port 31234: start one on that host with 'lat_tcp -s -b 192\\.0\\.2\\.1')" \
    "lat_tcp to another host: not reached, or start a server there listening on that address"

# A name that does not resolve: a usage error that says what to check.
usage_error lat_tcp "$BIN/lat_tcp" no-such-host.invalid
like "$ERR" "unknown host 'no-such-host\\.invalid'.*: check the name, or give an address" \
    "an unknown host: says to check the name or give an address"

# --- an unknown command suggests the nearest name ------------------------------------

run "$LMBENCH" lat_tpc
is "$RC:$OUT" "2:" "lmbench lat_tpc: exit status 2, nothing on stdout"
is "$(printf '%s\n' "$ERR" | head -n 1)" \
    "lmbench: unknown command 'lat_tpc'; did you mean 'lat_tcp'? (see 'lmbench list')" \
    "lmbench lat_tpc: did you mean 'lat_tcp'?"
run "$LMBENCH" compar
like "$ERR" "did you mean 'compare'\\?" "lmbench compar: did you mean 'compare'? (a suite verb)"
run "$LMBENCH" bw_meme
like "$ERR" "did you mean 'bw_mem'\\?" "lmbench bw_meme: did you mean 'bw_mem'?"
run "$LMBENCH" xyzzyplugh
is "$RC" 2 "a name close to nothing: exit status 2"
unlike "$ERR" "did you mean" "a name close to nothing: no suggestion"
run "$LMBENCH" help lat_tpc
is "$RC" 2 "lmbench help lat_tpc: exit status 2"
like "$ERR" "did you mean 'lat_tcp'\\?" "lmbench help lat_tpc: did you mean 'lat_tcp'?"
ln -s "$LMBENCH" "$T/lat_tpc"
run "$T/lat_tpc" localhost
is "$RC:$OUT" "2:" "a link named lat_tpc: exit status 2, nothing on stdout"
like "$ERR" "^lmbench: called as 'lat_tpc', which is no command; did you mean 'lat_tcp'\\?" \
    "a link named lat_tpc: did you mean 'lat_tcp'?"

# --- a size after the word: the order ---------------------------------------------------

usage_error bw_mem "$BIN/bw_mem" rd 64k
like "$ERR" "^bw_mem: .*did you mean 'bw_mem 64k rd'\\?" "bw_mem rd 64k: did you mean 'bw_mem 64k rd'?"
usage_error bw_mem "$BIN/bw_mem" cp 1m conflict
like "$ERR" "did you mean 'bw_mem 1m cp conflict'\\?" "bw_mem cp 1m conflict: the rest kept"
usage_error bw_mem "$BIN/bw_mem" rd xyz
unlike "$ERR" "did you mean" "bw_mem rd xyz: no swap suggested (xyz is no size)"
: >"$T/f"
usage_error bw_file_rd "$BIN/bw_file_rd" io_only 64k "$T/f"
like "$ERR" "did you mean 'bw_file_rd 64k io_only .*/f'\\?" "bw_file_rd io_only 64k FILE: the order"
usage_error bw_mmap_rd "$BIN/bw_mmap_rd" open2close 64k "$T/f"
like "$ERR" "did you mean 'bw_mmap_rd 64k open2close .*/f'\\?" "bw_mmap_rd open2close 64k FILE: the order"

# --- lat_mem_rd: the size is in MB --------------------------------------------------------

usage_error lat_mem_rd "$BIN/lat_mem_rd" 0.5
like "$ERR" "^lat_mem_rd: len_in_MB '0\\.5' is a fraction: a plain number counts MB \\(2\\^20 bytes\\); for 0\\.5 MB type 'lat_mem_rd 512k'" \
    "lat_mem_rd 0.5: says the unit and what to type"
usage_error lat_mem_rd "$BIN/lat_mem_rd" 1.5 128
like "$ERR" "type 'lat_mem_rd 1536k 128'" "lat_mem_rd 1.5 128: 1536k, the stride kept"
usage_error lat_mem_rd "$BIN/lat_mem_rd" 0.0001
like "$ERR" "below the minimum of 512 bytes .*such as 1k" "lat_mem_rd 0.0001: too small, says the minimum and how to write it"

# --- no --help line over 80 columns -------------------------------------------------------
# (The first line, the usage, stays whole: scripts, doc/commands.md and the error
# messages' usage line use it as one line.)

wide=
for c in $("$LMBENCH" list | awk 'NF { print $1 }'); do
    w=$("$BIN/$c" --help 2>&1 | sed 1d | awk -v c="$c" 'length($0) > 80 { print c ": " $0 }')
    [ -n "$w" ] && wide="$wide$w
"
done
is "$wide" "" "no --help line (after the usage) is over 80 columns"
is "$("$LMBENCH" --help | awk 'length($0) > 80')" "" "lmbench --help: no line over 80 columns"
# Every command that takes --threads shows it in its usage line (the usage
# line is made from the same table as the options' help).
hidden=
for c in $("$LMBENCH" list | awk 'NF { print $1 }'); do
    h=$("$BIN/$c" --help 2>&1)
    if printf '%s\n' "$h" | sed 1d | grep -q '^ *--threads'; then
        printf '%s\n' "$h" | head -n 1 | grep -Eq ' \[--threads\]( |$)' || hidden="$hidden $c"
    fi
done
is "$hidden" "" "every command taking --threads shows it in its usage line"
run "$BIN/lmdd" --help
unlike "$(printf '%s\n' "$OUT" | sed 1d)" ' print=0$' "lmdd --help: print=0 is not cut from its value"

done_testing
