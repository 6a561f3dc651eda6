# SPDX-License-Identifier: MIT
# tests/cli/lib-sshd.sh: other "hosts" with a real OpenSSH server, for the
# tests of --remote over ssh and of the Ansible fleet. Sourced after lib.sh
# (and after lib-net.sh where that is used too).
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/lib-sshd.sh"
#   sshd_hosts 2 || skip_all "$SSHD_WHY"    # h1, h2: a namespace and sshd each
#   ssh -F "$SSH_CONFIG" h1 true            # root there, with the test's key
#   sshd_addr 1                             # h1's address (169.254.X.Y)
#   sshd_ns_pids 1                          # what runs there but its sshd
#   sshd_kill 2                             # h2's sshd gone: connection refused
#
# Each host is a network namespace joined to this one by a veth pair (a /30
# of its own, 169.254.X.0/24 for the set, X chosen free at run time), with
# OpenSSH's sshd listening on the namespace's address only, port 22, its own
# ed25519 host key, and one authorised key made for the test (root's login by
# key only, no PAM). $SSH_CONFIG names the hosts h1..hN (User root, the key,
# the known_hosts file holding their host keys, BatchMode, short timeouts):
# `ssh -F "$SSH_CONFIG" hN` needs nothing of ~/.ssh. The namespaces share this
# machine's files: a file put "there" is a file here.
#
# Everything (the processes in each namespace, the namespaces, the veth pairs,
# keys and configurations under $T) is removed when the script exits, however
# it exits (sshd_hosts_down, also callable earlier).
#
# sshd_hosts fails (status 1, the reason in SSHD_WHY) when this machine cannot
# have them: not root, no sshd or ssh-keygen, no network namespaces. Set-up
# errors after that are failures too (SSHD_WHY says which step); the caller
# decides whether that is a skip. With LMBENCH_REQUIRE_FLEET=1 (CI, which
# installs sshd with scripts/install-deps --fleet) it is never one: the test
# file bails out with the reason instead.

SSHD_N=0
SSHD_NET=
SSHD_WHY=
SSH_DIR=$T/ssh
SSH_CONFIG=$SSH_DIR/ssh_config
SSH_KEY=$SSH_DIR/id_ed25519
SSHD_U=$$-$(od -An -N3 -tu4 /dev/urandom | tr -d ' ')

# sshd_ns I: the namespace of host I.
sshd_ns() {
    echo "lmbssh$1-$SSHD_U"
}

# sshd_addr I: host I's address; sshd_peer_addr I: this side of its veth.
sshd_addr() {
    echo "169.254.$SSHD_NET.$((4 * $1 + 2))"
}
sshd_peer_addr() {
    echo "169.254.$SSHD_NET.$((4 * $1 + 1))"
}

_sshd_binary() {
    for _sss in /usr/sbin/sshd /usr/local/sbin/sshd; do
        [ -x "$_sss" ] && { echo "$_sss"; return 0; }
    done
    command -v sshd 2>/dev/null
}

# A 169.254.X.0/24 no interface here uses (X in 100-249).
_sshd_free_net() {
    _ssi=0
    while [ $_ssi -lt 40 ]; do
        _ssx=$((100 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 150))
        if ! ip -o addr show 2>/dev/null | grep -q " 169\.254\.$_ssx\."; then
            echo "$_ssx"
            return 0
        fi
        _ssi=$((_ssi + 1))
    done
    return 1
}

# sshd_ns_pids I: the processes in host I's namespace other than its sshd.
sshd_ns_pids() {
    _ssmain=$(cat "$SSH_DIR/sshd$1.pid" 2>/dev/null)
    ip netns pids "$(sshd_ns "$1")" 2>/dev/null | while read -r _ssp; do
        [ "$_ssp" = "$_ssmain" ] || echo "$_ssp"
    done
}

# sshd_kill I: stops host I's sshd (the host stays: its address answers, with
# connection refused on port 22).
sshd_kill() {
    _ssp=$(cat "$SSH_DIR/sshd$1.pid" 2>/dev/null)
    [ -n "$_ssp" ] && kill -KILL "$_ssp" 2>/dev/null
    rm -f "$SSH_DIR/sshd$1.pid"
    return 0
}

sshd_hosts_down() {
    _ssi=1
    while [ "$_ssi" -le "$SSHD_N" ]; do
        _ssns=$(sshd_ns "$_ssi")
        for _ssp in $(ip netns pids "$_ssns" 2>/dev/null); do
            kill -KILL "$_ssp" 2>/dev/null
        done
        ip netns del "$_ssns" 2>/dev/null
        ip link del "lmbs$_ssi-$$" 2>/dev/null
        _ssi=$((_ssi + 1))
    done
    SSHD_N=0
}

_sshd_cleanup() {
    sshd_hosts_down
    if command -v _net_cleanup >/dev/null 2>&1; then
        _net_cleanup
    else
        _cleanup
    fi
}
trap _sshd_cleanup EXIT

# _sshd_step WHAT COMMAND...: runs a set-up step; on failure SSHD_WHY says
# what failed and with which message.
_sshd_step() {
    _sswhat=$1
    shift
    if ! "$@" >"$T/sshd-step.out" 2>&1; then
        SSHD_WHY="$_sswhat: $(head -n 3 "$T/sshd-step.out" | tr '\n' ' ')"
        return 1
    fi
    return 0
}

# sshd_hosts N: hosts h1..hN (see above). 0 when all answer over ssh.
sshd_hosts() {
    _sshd_hosts "$@" && return 0
    if [ "${LMBENCH_REQUIRE_FLEET:-0}" = 1 ]; then
        echo "Bail out! LMBENCH_REQUIRE_FLEET=1 but no sshd hosts: $SSHD_WHY"
        exit 255
    fi
    return 1
}

_sshd_hosts() {
    _ssn=$1
    if [ "$(id -u)" != 0 ]; then
        SSHD_WHY="needs root (network namespaces, sshd)"
        return 1
    fi
    SSHD_BIN=$(_sshd_binary)
    if [ -z "$SSHD_BIN" ] || ! command -v ssh >/dev/null 2>&1 ||
       ! command -v ssh-keygen >/dev/null 2>&1; then
        SSHD_WHY="no OpenSSH server and client here (scripts/install-deps --fleet installs them)"
        return 1
    fi
    if ! command -v ip >/dev/null 2>&1; then
        SSHD_WHY="no ip(8) (iproute2)"
        return 1
    fi
    SSHD_NET=$(_sshd_free_net) || { SSHD_WHY="no free 169.254.X.0/24 here"; return 1; }
    mkdir -p "$SSH_DIR" /run/sshd || { SSHD_WHY="cannot make $SSH_DIR"; return 1; }
    chmod 700 "$SSH_DIR"
    _sshd_step "ssh-keygen (client key)" ssh-keygen -q -t ed25519 -N '' -C lmbench-test \
        -f "$SSH_KEY" || return 1
    cp "$SSH_KEY.pub" "$SSH_DIR/authorized_keys" && chmod 600 "$SSH_DIR/authorized_keys"
    : >"$SSH_DIR/known_hosts"
    cat >"$SSH_CONFIG" <<EOF
Host *
    User root
    IdentityFile $SSH_KEY
    IdentitiesOnly yes
    UserKnownHostsFile $SSH_DIR/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    BatchMode yes
    ConnectTimeout 5
    ServerAliveInterval 5
    ServerAliveCountMax 2
    LogLevel ERROR
EOF
    _ssi=1
    while [ "$_ssi" -le "$_ssn" ]; do
        _ssns=$(sshd_ns "$_ssi")
        _ssa=$(sshd_addr "$_ssi")
        _sshd_step "ip netns add $_ssns" ip netns add "$_ssns" || return 1
        SSHD_N=$_ssi
        _sshd_step "veth to $_ssns" ip link add name "lmbs$_ssi-$$" type veth peer name eth0 \
            netns "$_ssns" || return 1
        _sshd_step "addresses of h$_ssi" sh -c "ip addr add $(sshd_peer_addr "$_ssi")/30 dev lmbs$_ssi-$$ &&
            ip link set lmbs$_ssi-$$ up && ip -n $_ssns addr add $_ssa/30 dev eth0 &&
            ip -n $_ssns link set eth0 up && ip -n $_ssns link set lo up" || return 1
        _sshd_step "ssh-keygen (h$_ssi's host key)" ssh-keygen -q -t ed25519 -N '' \
            -f "$SSH_DIR/host$_ssi" || return 1
        cat >"$SSH_DIR/sshd$_ssi.conf" <<EOF
ListenAddress $_ssa
Port 22
HostKey $SSH_DIR/host$_ssi
PidFile $SSH_DIR/sshd$_ssi.pid
AuthorizedKeysFile $SSH_DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
MaxStartups 50:30:100
MaxSessions 50
Subsystem sftp internal-sftp
LogLevel ERROR
EOF
        printf 'h%s,%s %s\n' "$_ssi" "$_ssa" "$(cut -d' ' -f1,2 "$SSH_DIR/host$_ssi.pub")" \
            >>"$SSH_DIR/known_hosts"
        printf 'Host h%s\n    HostName %s\n    HostKeyAlias h%s\n' "$_ssi" "$_ssa" "$_ssi" \
            >>"$SSH_CONFIG"
        # sshd goes to the background itself once it listens (its pid file).
        _sshd_step "sshd on h$_ssi" ip netns exec "$_ssns" "$SSHD_BIN" -f "$SSH_DIR/sshd$_ssi.conf" \
            -E "$SSH_DIR/sshd$_ssi.log" || return 1
        _ssi=$((_ssi + 1))
    done
    _ssi=1
    while [ "$_ssi" -le "$_ssn" ]; do
        _ssw=0
        until ssh -F "$SSH_CONFIG" "h$_ssi" true 2>"$T/sshd-step.out"; do
            _ssw=$((_ssw + 1))
            if [ "$_ssw" -ge 50 ]; then
                SSHD_WHY="ssh to h$_ssi: $(head -n 2 "$T/sshd-step.out" | tr '\n' ' ')"
                return 1
            fi
            sleep 0.1
        done
        _ssi=$((_ssi + 1))
    done
    return 0
}
