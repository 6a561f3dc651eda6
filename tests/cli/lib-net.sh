# SPDX-License-Identifier: MIT
# tests/cli/lib-net.sh: helpers for the network commands' tests, sourced after
# lib.sh. Servers run on ports chosen at run time (several people run the tests
# on one machine at once) and carry a marker in their environment, so that
# they are found and killed when the script ends, however it ends.
#
#   start_server lat_tcp          # sets PORT (or skips the file) and SRV_TAG
#   run "$BIN/lat_tcp" -p "$PORT" -N 3 127.0.0.1
#   send_raw tcp "$PORT" '\114\115...'   # raw bytes to the server (bash /dev/tcp)
#   stop_server lat_tcp

NET_TAG=$(new_tag)-srv
SRV_TAG=$NET_TAG

_net_cleanup() {
    for _p in $(tagged_pids "$NET_TAG"); do
        kill -KILL "$_p" 2>/dev/null
    done
    [ -n "${NET_EXTRA_CLEANUP:-}" ] && eval "$NET_EXTRA_CLEANUP"
    _cleanup
}
trap _net_cleanup EXIT

HAVE_BASH=no
command -v bash >/dev/null 2>&1 && HAVE_BASH=yes

# A port that nothing on this machine uses now (TCP or UDP), from 20000-59999.
free_port() {
    _i=0
    while [ $_i -lt 50 ]; do
        _p=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000))
        if ! ss -Hantu 2>/dev/null | awk '{ print $5 }' | grep -q ":$_p\$"; then
            echo "$_p"
            return 0
        fi
        _i=$((_i + 1))
    done
    return 1
}

# start_server CMD [OPTIONS...]: starts "CMD -s -p PORT OPTIONS" on a free port
# (trying again if another run took it meanwhile). Sets PORT, RC, ERR.
# PORT_FLAG (default -p) is the option that sets the port.
start_server() {
    _cmd=$1
    shift
    _tries=0
    while [ $_tries -lt 5 ]; do
        PORT=$(free_port) || break
        run env LMB_TEST_TAG="$NET_TAG" "$BIN/$_cmd" -s ${PORT_FLAG:--p} "$PORT" "$@"
        [ "$RC" = 0 ] && return 0
        printf '%s\n' "$ERR" | grep -q 'in use' || return 1
        _tries=$((_tries + 1))
    done
    return 1
}

stop_server() {
    _cmd=$1
    shift
    run "$BIN/$_cmd" -S 127.0.0.1 ${PORT_FLAG:--p} "$PORT" "$@"
}

# The pid of the server marked with the tag (the first if several).
server_pid() {
    tagged_pids "$NET_TAG" | head -n 1
}

# Polls (up to 2 s) until no process carries the servers' marker.
servers_gone() {
    wait_for "servers gone" 20 sh -c '[ -z "$(grep -lsazxF -- "LMB_TEST_TAG=$1" /proc/[0-9]*/environ 2>/dev/null)" ]' sh "$NET_TAG"
}

# send_raw tcp|udp PORT BYTES [SECONDS]: sends printf-escaped BYTES to
# 127.0.0.1:PORT, keeps the connection SECONDS (default 0.2) and prints what
# came back as hex. Needs bash (/dev/tcp, /dev/udp).
send_raw() {
    timeout 5 bash -c '
        exec 3<>"/dev/$1/127.0.0.1/$2" || exit 1
        printf "$3" >&3
        sleep "$4"
        timeout 0.3 od -An -tx1 <&3 | tr -d " \n"
        exec 3>&-' sh "$1" "$2" "$3" "${4:-0}" 2>/dev/null
}

# A request header of the binary protocol, printf-escaped:
# req_bytes BENCH OP MSG [TOTAL_HI_OCTAL_BYTES]. BENCH and OP are 1..6, MSG a
# number up to 2^32-1.
req_bytes() {
    _m=$3
    printf '\\114\\115\\116\\061\\000\\%03o\\000\\%03o\\%03o\\%03o\\%03o\\%03o' "$1" "$2" \
        $((_m >> 24 & 255)) $((_m >> 16 & 255)) $((_m >> 8 & 255)) $((_m & 255))
    printf '\\000\\000\\000\\000'
    printf '%s' "${4:-\\000\\000\\000\\000\\000\\000\\000\\000}"
}

# The process state line of pid: "ppid tty_nr session" (from /proc/pid/stat).
proc_stat() {
    sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $2, $5, $4 }'
}

# net_server_checks CMD: the daemon started by start_server is detached: not
# our child, no terminal, its own session.
net_server_checks() {
    _pid=$(server_pid)
    if [ -z "$_pid" ]; then
        fail "$1 -s: the server is running"
        return
    fi
    pass "$1 -s: the server is running (pid $_pid)"
    set -- "$1" $(proc_stat "$_pid")
    isnt "$2" "$$" "$1 -s: the server is not a child of the caller"
    is "$3" 0 "$1 -s: the server has no controlling terminal"
    isnt "$4" "$(proc_stat $$ | awk '{ print $3 }')" "$1 -s: the server runs in a session of its own"
}

# net_suite CMD LINE_REGEX PROTO [CLIENT_OPTIONS...]: what every network
# command must do, against a server on a free port: the server detaches, the
# classic line, --json parameters, a second server on the port fails, garbage
# and oversize requests (given in GARBAGE, one printf string a line) leave it
# serving, a silent server and a dead one make the client fail in time,
# -S stops it and nothing is left running. PROTO is tcp or udp (raw bytes).
net_suite() {
    _c=$1
    _re=$2
    _proto=$3
    shift 3
    _cl=${NET_CLIENT:-$BIN/$_c}
    CONTEXT="$_c -s"
    if ! start_server "$_c"; then
        fail "$_c -s: starts a server (exit $RC: $ERR)"
        return
    fi
    pass "$_c -s: exit 0 once the server listens"
    is "$OUT$ERR" "" "$_c -s: prints nothing"
    net_server_checks "$_c"

    run "$_cl" ${PORT_FLAG:--p} "$PORT" -N 3 "$@" 127.0.0.1
    is "$RC" 0 "$_c 127.0.0.1: exit status 0"
    is "$OUT" "" "$_c 127.0.0.1: nothing on stdout"
    all_like "$ERR" "$_re" "$_c 127.0.0.1: the classic line(s)"

    if [ -z "${NET_NO_P:-}" ]; then
        run "$_cl" ${PORT_FLAG:--p} "$PORT" -N 3 -P 2 "$@" localhost
        is "$RC" 0 "$_c -P 2 localhost: exit status 0"
        all_like "$ERR" "$_re" "$_c -P 2 localhost: the classic line(s)"
    fi

    if json_usable; then
        run_json "$_cl" ${PORT_FLAG:--p} "$PORT" -N 3 --json "$@" 127.0.0.1
        is "$RC" 0 "$_c --json: exit status 0"
        if [ -n "${NET_NO_REMOTE:-}" ]; then
            _rf='true'
            _rd=
        else
            _rf='.params.remote == false'
            _rd=' and remote false'
        fi
        json_ok "$T/json" "[.results[] | .status == \"ok\" and .params.host == \"127.0.0.1\"
                 and $_rf and (.samples | length) == 3] | all and length > 0" \
            "$_c --json: ok records with params host (as given)$_rd" '.results'
    else
        skip "$_c --json: no jq or no JSON"
    fi

    # A second server on the same port fails at once, with the reason.
    run "$BIN/$_c" -s ${PORT_FLAG:--p} "$PORT"
    is "$RC" 1 "$_c -s on a port in use: exit status 1"
    like "$ERR" "^$_c: .*in use" "$_c -s on a port in use: says the port is in use"

    # Garbage and oversize requests: the server survives and keeps serving.
    if [ "$HAVE_BASH" = yes ]; then
        printf '%s\n' "$GARBAGE" | while IFS= read -r _g; do
            [ -n "$_g" ] && send_raw "$_proto" "$PORT" "$_g" >/dev/null
        done
        head -c 3000 /dev/urandom >"$T/junk"
        send_raw "$_proto" "$PORT" "$(od -An -to1 -v "$T/junk" | tr -s ' \n' '  ' | sed 's/ \([0-7]\)/\\\1/g; s/ //g')" >/dev/null
        run "$_cl" ${PORT_FLAG:--p} "$PORT" -N 3 "$@" 127.0.0.1
        ok $([ "$RC" = 0 ] && printf '%s\n' "$ERR" | grep -Eq "$_re"; echo $?) \
            "$_c: after garbage and oversize requests the server still serves"
    else
        skip "$_c: garbage requests need bash"
    fi

    # A silent server (stopped): the client gives up in time, exit 1.
    _pid=$(server_pid)
    kill -STOP "$_pid"
    run "$_cl" ${PORT_FLAG:--p} "$PORT" -N 3 --timeout 1 "$@" 127.0.0.1
    kill -CONT "$_pid"
    is "$RC" 1 "$_c against a silent server: exit status 1"
    like "$ERR" "^$_c: .*failed: .*(no reply|no answer|no RPC answer|within|timed out)" \
        "$_c against a silent server: says it got no answer"

    stop_server "$_c"
    is "$RC:$OUT$ERR" "0:" "$_c -S 127.0.0.1: exit 0, silent"
    servers_gone
    ok $? "$_c -S: the server is gone"

    run "$_cl" ${PORT_FLAG:--p} "$PORT" -N 3 --timeout 2 "$@" 127.0.0.1
    is "$RC" 1 "$_c with no server: exit status 1"
    like "$ERR" "^$_c: .*failed: " "$_c with no server: a failed status with the reason"
    stop_server "$_c"
    is "$RC" 1 "$_c -S with no server: exit status 1"

    # Usage errors.
    usage_error "$_c" "$BIN/$_c"
    usage_error "$_c" "$BIN/$_c" a b
    usage_error "$_c" "$BIN/$_c" ${PORT_FLAG:--p} "$PORT" no-such-host.invalid
    usage_error "$_c" "$BIN/$_c" ${PORT_FLAG:--p} 0 localhost
    usage_error "$_c" "$BIN/$_c" ${PORT_FLAG:--p} 65536 localhost
    usage_error "$_c" "$BIN/$_c" ${PORT_FLAG:--p} x localhost
    usage_error "$_c" "$BIN/$_c" -s -S localhost
    usage_error "$_c" "$BIN/$_c" -s localhost
    usage_error "$_c" "$BIN/$_c" -b 127.0.0.1 localhost
    usage_error "$_c" "$BIN/$_c" -s -b no-such-host.invalid
    if json_usable; then
        usage_error "$_c" "$BIN/$_c" -s --json
    fi
}

# net_local_suite CMD LINE_REGEX [OPTIONS...]: CMD -l, no server: the classic
# line, the harness's ends for SINGLE (same CPU) and UNIQUE (two CPUs), the
# partner in placement.partners, bad combinations, nothing left running.
net_local_suite() {
    _c=$1
    _re=$2
    shift 2
    _tag=$(new_tag)
    run env LMB_TEST_TAG="$_tag" "$BIN/$_c" -l -N 3 "$@"
    is "$RC" 0 "$_c -l: exit status 0"
    one_line_like "$ERR" "$_re" "$_c -l: the classic line"
    no_process_left "$_tag" "$_c -l: no partner left behind"
    run env LMB_TEST_TAG="$_tag" "$BIN/$_c" -l -N 3 -P 2 "$@"
    one_line_like "$ERR" "$_re" "$_c -l -P 2: the classic line"
    no_process_left "$_tag" "$_c -l -P 2: no partner left behind"
    if json_usable; then
        run_json env LMBENCH_SCHED=SINGLE "$BIN/$_c" -l -N 3 --json "$@"
        json_ok "$T/json" '.results[0] | .status == "ok" and .params.ends == "same_cpu"
                 and .params.host == "localhost" and .params.remote == false
                 and (.placement.partners.per_copy | length) == 1' \
            "$_c -l under SINGLE: ends same_cpu, one partner recorded" '.results[0]'
        if "$BIN/$_c" --cpus 1 --list >/dev/null 2>&1; then
            run_json env LMBENCH_SCHED=UNIQUE "$BIN/$_c" -l -N 3 --json "$@"
            json_ok "$T/json" '.results[0] | .status == "ok" and .params.ends == "two_cpus"
                     and .placement.partners.per_copy[0][0].cpu != .placement.cpus[0]' \
                "$_c -l under UNIQUE: ends two_cpus, the partner on another CPU" '.results[0]'
        else
            skip "$_c -l on two CPUs: only one here"
        fi
    else
        skip "$_c -l --json: no jq or no JSON"
    fi
    usage_error "$_c" "$BIN/$_c" -l localhost
    usage_error "$_c" "$BIN/$_c" -l -s
    usage_error "$_c" "$BIN/$_c" -l -S localhost
    usage_error "$_c" "$BIN/$_c" -l -p 4000
}
