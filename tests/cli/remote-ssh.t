#!/bin/sh
# SPDX-License-Identifier: MIT
# lmbench run --remote over real ssh: hosts h1 and h2 are network namespaces
# with OpenSSH's sshd (lib-sshd.sh), the remote lmbench is this build's binary
# (--remote-lmbench; the namespaces share the file system), ssh reads the
# test's configuration (--ssh 'ssh -F FILE'). Checks the remote steps' classic
# lines and records (remote true, h1's address), run.config, that the servers
# ran on h1 and nothing of ours is left there or here after a normal end, a
# failed step (a server the client cannot reach, a server that cannot start),
# and SIGINT of the run; then one clear message each when the host refuses
# ssh, when its host key is unknown, and when lmbench is not where
# --remote-lmbench says. Needs root, sshd and network namespaces; skipped
# otherwise.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-sshd.sh"

skip_all() {
    echo "1..0 # SKIP $1"
    exit 0
}
[ "$EMULATED" = yes ] &&
    skip_all "emulated: the ssh path is the same on every architecture (tested natively)"
if ! sshd_hosts 2; then
    case $SSHD_WHY in
    "needs root"* | "no OpenSSH"* | "no ip(8)"* | "ip netns add"*) skip_all "$SSHD_WHY" ;;
    esac
    echo "Bail out! hosts with sshd: $SSHD_WHY"
    exit 255
fi
json_usable || skip_all "no JSON (built without jansson) or no jq"
A1=$(sshd_addr 1)
NUM='[0-9]+(\.[0-9]+)?'
# lat_rpc only where the build has libtirpc.
RPC=yes
"$BIN/lat_rpc" -N 1 localhost 2>&1 | grep -q 'built without libtirpc' && RPC=

# lmbrun DIR [ARGS...]: a tiny network run into $T/DIR, tagged $TAG (on one
# CPU: the local steps in one placement each).
lmbrun() {
    _d=$1
    shift
    run env LMB_TEST_TAG="$TAG" "$LMBENCH" run -o "$T/$_d" --profile quick -N 1 --enough 200 \
        --no-retry --cpus 0 --groups network "$@"
}
# The interrupted runs: TCP's steps only (lat_tcp, bw_tcp), slow enough that
# a server of theirs is seen on h1.
printf 'BENCHMARK_UDP=NO\nBENCHMARK_RPC=NO\nBENCHMARK_CONNECT=NO\n' >"$T/tcp-only.conf"
slowrun() {
    start_bg "$TAG" "$LMBENCH" run -o "$T/$1" -c "$T/tcp-only.conf" --profile quick -N 1 \
        --enough 50000 --no-retry --cpus 0 --groups network --remote h1 --ssh "$SSH" \
        --remote-lmbench "$BIN/lmbench"
}
SSH="ssh -F $SSH_CONFIG"

# What of lmbench runs in host I's namespace (its sshd aside, whose sessions
# end once their lmbench has).
ns_empty() {
    [ -z "$(sshd_ns_pids "$1")" ]
}
ns_left() {
    wait_for "h$1 empty" 50 ns_empty "$1"
    _l=$(sshd_ns_pids "$1")
    if [ -z "$_l" ]; then
        pass "$2"
    else
        fail "$2"
        for _p in $_l; do
            diag "left in h$1: pid $_p: $(tr '\0' ' ' 2>/dev/null </proc/"$_p"/cmdline)"
        done
    fi
}

# --- a normal run ---------------------------------------------------------------------
TAG=$(new_tag)
lmbrun ok --remote h1 --ssh "$SSH" --remote-lmbench "$BIN/lmbench"
is "$RC" 0 "run --remote h1: exit status 0"
unlike "$ERR" 'remote host|could not (start|stop)' "run --remote h1: no message about the host"
RAW=$T/ok/$(ls "$T/ok" | grep -v '\.json' | head -n 1)
RAWT=$(cat "$RAW" 2>/dev/null)
like "$RAWT" "^UDP latency using $A1: $NUM microseconds" "raw file: UDP latency to h1's address"
like "$RAWT" "^TCP latency using $A1: $NUM microseconds" "raw file: TCP latency to h1's address"
like "$RAWT" "^TCP/IP connection cost to $A1: $NUM microseconds" "raw file: connection cost to h1"
if [ -n "$RPC" ]; then
    like "$RAWT" "^RPC/tcp latency using $A1: $NUM microseconds" "raw file: RPC/tcp latency to h1"
else
    skip "raw file: RPC latency to h1 (built without libtirpc)"
fi
like "$(grep -A1 '^Socket bandwidth using h1$' "$RAW")" "
[0-9.]+ $NUM MB/sec" "raw file: h1's socket bandwidth section and its line"
json_checks "$T/ok/$(ls "$T/ok" | grep '\.json$')" <<EOF
the records of h1's steps: remote true, h1's address
    [.results[] | select(.params.host == "$A1")] | length >= 5 and all(.params.remote == true)
every record against h1 is ok
    [.results[] | select(.params.host == "$A1") | .status] | all(. == "ok")
the local steps' records say remote false
    [.results[] | select(.params.host != "$A1") | .params.remote] | all(. == false)
run.config: remote, ssh and remote_lmbench as given
    .run.config.remote == "h1" and .run.config.ssh == "$SSH" and
    .run.config.remote_lmbench == "$BIN/lmbench"
run.steps: h1's five steps ok
    [.run.steps[] | select(.name | endswith(" h1")) | .status] | length == 5 and all(. == "ok")
EOF
ns_left 1 "normal end: nothing of ours left in h1"
no_process_left "$TAG" "normal end: nothing left here (ssh sessions, clients)" 20

# --- failed steps: a server its client cannot reach, a server that cannot start -------
# The remote "lmbench": lat_tcp's server on h1's loopback only (the client
# here is refused, the server runs there until stopped); lat_connect's server
# refuses to start. user@host on the way.
cat >"$T/lmb-wrap" <<EOF
#!/bin/sh
case "\$1 \$2" in
"lat_tcp -s") exec "$BIN/lmbench" lat_tcp -s ;;
"lat_connect -s") echo "lat_connect: refused by the test" >&2; exit 1 ;;
esac
exec "$BIN/lmbench" "\$@"
EOF
chmod +x "$T/lmb-wrap"
# The settings from a config file this time (REMOTE, SSH, REMOTE_LMBENCH).
printf 'REMOTE=root@h1\nSSH="%s"\nREMOTE_LMBENCH=%s\n' "$SSH" "$T/lmb-wrap" >"$T/remote.conf"
run "$LMBENCH" run -c "$T/remote.conf" --profile quick --cpus 0 --groups network --list
like "$OUT" "lat_tcp -N 3 --cpus 0 h1  \(server on root@h1 over ssh\)" \
    "--list: root@h1's steps, the client against h1"
TAG=$(new_tag)
lmbrun fail -c "$T/remote.conf"
is "$RC" 1 "failed steps: exit status 1"
one_line_like "$(printf '%s\n' "$ERR" | grep 'lat_tcp -N 1 --cpus 0 h1: ')" \
    "^lmbench run: lat_tcp -N 1 --cpus 0 h1: failed: " "failed steps: lat_tcp against root@h1 failed"
one_line_like "$(printf '%s\n' "$ERR" | grep 'lat_connect -N 1 --cpus 0 h1: ')" \
    "^lmbench run: lat_connect -N 1 --cpus 0 h1: failed: could not start its server on root@h1: lat_connect: refused by the test\$" \
    "failed steps: lat_connect's server could not start, with its message"
like "$(cat "$T"/fail/*[0-9] 2>/dev/null)" "^UDP latency using $A1: $NUM microseconds" \
    "failed steps: the others still measured (user@host: the client gets the address)"
json_ok "$T/fail/$(ls "$T/fail" | grep '\.json$')" \
    ".run.config.remote == \"root@h1\" and .run.config.ssh == \"$SSH\" and .run.config.remote_lmbench == \"$T/lmb-wrap\"" \
    "failed steps: run.config has the config file's REMOTE, SSH and REMOTE_LMBENCH"
ns_left 1 "failed steps: nothing of ours left in h1 (the unreachable server stopped)"
no_process_left "$TAG" "failed steps: nothing left here" 20

# --- SIGINT while a server runs on h1 --------------------------------------------------
# A server of ours in h1: "$BIN/lmbench BENCH -s -b ADDR".
h1_server() {
    for _p in $(sshd_ns_pids 1); do
        tr '\0' ' ' 2>/dev/null <"/proc/$_p/cmdline" | grep -q "^$BIN/lmbench [a-z_]* -s -b " &&
            return 0
    done
    return 1
}
TAG=$(new_tag)
slowrun int
if wait_for "a server on h1" 300 h1_server; then
    pass "SIGINT: a server of the run is serving on h1"
    kill -INT "$BG"
else
    fail "SIGINT: a server of the run is serving on h1"
    kill -INT "$BG" 2>/dev/null
fi
wait_bg
is "$BG_RC" 130 "SIGINT: the run exits 130"
unlike "$(cat "$T/bg.err")" 'could not stop' "SIGINT: its server was stopped without complaint"
ns_left 1 "SIGINT: nothing of ours left in h1"
no_process_left "$TAG" "SIGINT: nothing left here" 20

# --- the run killed (SIGKILL) while a server runs on h1: the server stops with
# its ssh session (no controller, no server) ------------------------------------------
TAG=$(new_tag)
slowrun kill
if wait_for "a server on h1" 300 h1_server; then
    pass "SIGKILL: a server of the run is serving on h1"
else
    fail "SIGKILL: a server of the run is serving on h1"
fi
kill -KILL "$BG" 2>/dev/null
wait_bg
ns_left 1 "SIGKILL: the server on h1 stopped when its session ended"
no_process_left "$TAG" "SIGKILL: nothing left here" 20

# --- one message per host that cannot be used ------------------------------------------
# ERR's lines that start with PREFIX: exactly one, like RE.
one_message() {
    one_line_like "$(printf '%s\n' "$ERR" | grep -F -- "$1")" "$2" "$3"
}

# h2's sshd goes away during the run (its lat_tcp server kills it): the step
# whose server then cannot start says why, once; the later steps are not tried.
cat >"$T/lmb-kill" <<EOF
#!/bin/sh
case "\$1 \$2" in
"lat_tcp -s") kill -KILL "\$(cat "$SSH_DIR/sshd2.pid")" ;;
esac
exec "$BIN/lmbench" "\$@"
EOF
chmod +x "$T/lmb-kill"
TAG=$(new_tag)
lmbrun gone --remote h2 --ssh "$SSH" --remote-lmbench "$T/lmb-kill"
is "$RC" 1 "h2 gone during the run: exit status 1"
like "$(cat "$T"/gone/*[0-9] 2>/dev/null)" "^TCP latency using $(sshd_addr 2): $NUM microseconds" \
    "h2 gone during the run: the step whose session was open still measured"
one_message "Connection refused" \
    "^lmbench run: lat_rpc -N 1 --cpus 0 h2: failed: could not start its server on h2: no ssh server answers there \(ssh: connect to host [0-9.]+ port 22: Connection refused\)" \
    "h2 gone during the run: said once, by the next step"
is "$(printf '%s\n' "$ERR" | grep -c 'h2: failed: remote host h2 cannot be used over ssh (said above)$')" 2 \
    "h2 gone during the run: its 2 later steps not tried"
ns_left 2 "h2 gone during the run: nothing of ours left in h2"

sshd_kill 2
TAG=$(new_tag)
lmbrun refused --remote h2 --ssh "$SSH" --remote-lmbench "$BIN/lmbench"
is "$RC" 1 "refused: exit status 1 (h2's steps failed)"
one_message "Connection refused" \
    "^lmbench run: remote host h2: no ssh server answers there \(ssh: connect to host [0-9.]+ port 22: Connection refused\): start sshd on it, or give the port its sshd listens on with --ssh 'ssh -p PORT'; its 5 network steps are not run\$" \
    "refused: one message, naming h2, ssh's reason and what to do"
is "$(printf '%s\n' "$ERR" | grep -c 'h2: failed: remote host h2 cannot be used over ssh (said above)$')" 5 \
    "refused: h2's 5 steps failed, pointing at that message"
json_ok "$T/refused/$(ls "$T/refused" | grep '\.json$')" \
    '[.run.steps[] | select(.name | endswith(" h2")) | .status] | length == 5 and all(. == "failed")' \
    "refused: h2's steps are failed in run.steps"
no_process_left "$TAG" "refused: nothing left here" 20

sed "s|UserKnownHostsFile .*|UserKnownHostsFile $T/empty_known_hosts|" "$SSH_CONFIG" >"$T/ssh_nokeys"
: >"$T/empty_known_hosts"
lmbrun hostkey --remote h1 --ssh "ssh -F $T/ssh_nokeys" --remote-lmbench "$BIN/lmbench"
is "$RC" 1 "host key unknown: exit status 1"
one_message "host key" \
    "^lmbench run: remote host h1: its host key is not known here \(No ED25519 host key is known for h1 and you have requested strict checking\.\): lmbench runs ssh with BatchMode=yes, which cannot ask; connect once with 'ssh h1' to check and accept it \(or add it to known_hosts with ssh-keyscan\); its 5 network steps are not run\$" \
    "host key unknown: one message saying what to do"

run "$LMBENCH" run --ssh '' --remote h1
is "$RC:$(printf '%s\n' "$ERR" | head -n 1)" "2:lmbench run: --ssh: empty value" "--ssh '': bad usage"
run "$LMBENCH" run --remote -oProxyCommand
is "$RC:$(printf '%s\n' "$ERR" | head -n 1)" \
    "2:lmbench run: --remote: '-oProxyCommand' is not a host name (it starts with '-')" \
    "--remote -o...: refused (ssh would take it for an option)"
lmbrun nossh --remote h1 --ssh "/nonexistent/ssh -F $SSH_CONFIG"
is "$RC" 1 "no ssh program: exit status 1"
one_message "ssh program" \
    "^lmbench run: remote host h1: cannot run the ssh program '/nonexistent/ssh' here \(No such file or directory\): install OpenSSH's client, or give the ssh command with --ssh CMD; its 5 network steps are not run\$" \
    "no ssh program: one message"

lmbrun missing --remote h1 --ssh "$SSH" --remote-lmbench /nonexistent/lmbench
is "$RC" 1 "no lmbench there: exit status 1"
one_message "no lmbench there" \
    "^lmbench run: remote host h1: no lmbench there: there is no program '/nonexistent/lmbench' \(.*/nonexistent/lmbench: .*\): install lmbench on it \(the static binary will do\) or give its path there with --remote-lmbench PATH; its 5 network steps are not run\$" \
    "no lmbench there: one message naming the path tried and --remote-lmbench"
ns_left 1 "after the failures: nothing of ours left in h1"

done_testing
