#!/bin/sh
# SPDX-License-Identifier: MIT
# The Ansible fleet of contrib/ansible/ against four namespace "hosts" with a
# real sshd each (tests/cli/lib-sshd.sh): h1 and h2 run the quick profile's os
# group from the static-binary directory the test makes, h3 is unreachable
# (its sshd killed before the play), h4's run fails (a bad --groups). Checks
# that h1's and h2's results arrive in one directory for the fleet run, that
# lmbench see and compare ran across them, that h3 and h4 are reported failed
# and ansible-playbook exits non-zero, that a host without a binary for its
# architecture fails with a clear message, and that nothing is left: not on
# the hosts (processes, their work directories), not in ansible's temporary
# directories, not in ~/.ansible. Skipped without root, sshd or
# ansible-playbook, and under emulation (the playbook does not depend on the
# architecture the binary was built for).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-sshd.sh"

skip_all() {
    echo "1..0 # SKIP $1"
    exit 0
}
if [ "${LMBENCH_EMULATED:-0}" = 1 ] || [ -n "${LMBENCH_RUNNER:-}" ]; then
    skip_all "emulated: the playbook is architecture-independent, tested with the native build"
fi
if [ "${LMBENCH_SANITIZED:-0}" = 1 ]; then
    skip_all "sanitized build: the playbook's lmbench run is the one run*.t check under ASan; here it would only be slower"
fi
if ! command -v ansible-playbook >/dev/null 2>&1; then
    if [ "${LMBENCH_REQUIRE_FLEET:-0}" = 1 ]; then
        echo "Bail out! LMBENCH_REQUIRE_FLEET=1 but no ansible-playbook (scripts/install-deps --fleet)"
        exit 255
    fi
    skip_all "no ansible-playbook (scripts/install-deps --fleet installs ansible-core)"
fi
PLAYBOOK=$SRCROOT/contrib/ansible/lmbench.yml
[ -f "$PLAYBOOK" ] || skip_all "no $PLAYBOOK"
sshd_hosts 4 || skip_all "$SSHD_WHY"

# ~/.ansible before: the test must leave it as it was.
: >"$T/start"
sleep 1
HOME_ANSIBLE=${HOME:-/root}/.ansible
HAD_HOME_ANSIBLE=no
[ -e "$HOME_ANSIBLE" ] && HAD_HOME_ANSIBLE=yes

# Ansible: nothing of the user's configuration, everything of its own in $T.
A=$T/ansible
mkdir -p "$A/home" "$A/local" "$A/remote" "$T/bins" "$T/work" "$T/results" "$T/nobins" || {
    echo "Bail out! cannot make the test's directories"
    exit 255
}
printf '[defaults]\n' >"$A/ansible.cfg"
ANSIBLE_CONFIG=$A/ansible.cfg
ANSIBLE_HOME=$A/home
ANSIBLE_LOCAL_TEMP=$A/local
ANSIBLE_REMOTE_TEMP=$A/remote
ANSIBLE_SSH_CONTROL_PATH_DIR=$A/cp
ANSIBLE_HOST_KEY_CHECKING=True
ANSIBLE_RETRY_FILES_ENABLED=False
ANSIBLE_PYTHON_INTERPRETER=auto_silent
ANSIBLE_PIPELINING=True
# No ssh master connection outliving a task (ansible's default keeps one for
# 60 s, with a session on the host).
ANSIBLE_SSH_ARGS="-o ControlMaster=no -o ControlPath=none"
ANSIBLE_NOCOLOR=1
ANSIBLE_DEPRECATION_WARNINGS=False
# play ARGS...: ansible-playbook, bounded in time (ansible wants a UTF-8 locale).
play() {
    env LC_ALL=C.UTF-8 LANG=C.UTF-8 timeout "$PLAY_LIMIT" ansible-playbook "$@"
}
PLAY_LIMIT=300
export ANSIBLE_CONFIG ANSIBLE_HOME ANSIBLE_LOCAL_TEMP ANSIBLE_REMOTE_TEMP ANSIBLE_SSH_CONTROL_PATH_DIR ANSIBLE_HOST_KEY_CHECKING \
    ANSIBLE_RETRY_FILES_ENABLED ANSIBLE_PYTHON_INTERPRETER ANSIBLE_PIPELINING ANSIBLE_SSH_ARGS \
    ANSIBLE_NOCOLOR ANSIBLE_DEPRECATION_WARNINGS

# The binaries directory as make static-release names it: this machine's
# architecture only (the hosts share this machine's files).
case $(uname -m) in
x86_64) ARCH=x86_64 ;;
aarch64) ARCH=aarch64 ;;
armv7l | armv8l) ARCH=armhf ;;
riscv64) ARCH=riscv64 ;;
*) skip_all "no static-release name for this machine's architecture $(uname -m)" ;;
esac
ln -s "$LMBENCH" "$T/bins/lmbench-$ARCH" &&
    ln -s "$LMBENCH_BUILD/libexec/lmbench/hello" "$T/bins/hello-$ARCH" || {
    echo "Bail out! cannot link the binaries"
    exit 255
}

# The inventory: the hosts of lib-sshd.sh, reached through its ssh config.
cat >"$T/inventory.yml" <<EOF
all:
  children:
    fleet:
      hosts:
        h1: {}
        h2: {}
        h3: {}
        h4:
          lmbench_run_args: [--groups, nosuch]
      vars:
        ansible_ssh_common_args: -F $SSH_CONFIG
        lmbench_binary_dir: $T/bins
        lmbench_workdir: $T/work
        lmbench_results_dir: $T/results
        lmbench_controller_path: $LMBENCH
        lmbench_profile: quick
        # One repetition on a busy machine: a step may fail (lat_sig prot
        # needs its handler to be measurably slower than kill(self, 0)).
        lmbench_allow_failed_steps: true
        lmbench_run_args: [--groups, os, -N, "1", --enough, "500", --timeout, "20", --no-retry]
EOF

run play -i "$T/inventory.yml" --syntax-check "$PLAYBOOK"
is "$RC" 0 "ansible-playbook --syntax-check"
[ "$RC" = 0 ] || diag_text "syntax-check" "$OUT
$ERR"

# h3 refuses connections: unreachable.
sshd_kill 3
TAG=$(new_tag)
LMB_TEST_TAG=$TAG
export LMB_TEST_TAG
run play -i "$T/inventory.yml" -e lmbench_tag=fleet1 "$PLAYBOOK"
unset LMB_TEST_TAG
PLAY_OUT=$OUT
isnt "$RC" 0 "ansible-playbook exits non-zero when a host failed (exit status $RC)"
is "$RC" 2 "ansible-playbook's exit status is 2 (a failed task: the role's report)"
like "$PLAY_OUT" 'lmbench fleet run fleet1: 2 of 4 hosts failed: h3, h4' "the play ends naming the failed hosts"
[ "$RC" = 2 ] || diag_text "ansible-playbook's output (end)" "$(printf '%s\n' "$PLAY_OUT" | tail -n 40)
$ERR"
no_process_left "$TAG" "no process of the play is left on the controller" 50

F=$T/results/fleet1
for h in h1 h2; do
    check "$h's results are in the fleet directory" test -s "$F/$h/$h.0.json" -a -s "$F/$h/$h.0.jsonl" -a -s "$F/$h/$h.0"
    json_ok "$F/$h/$h.0.json" '.schema == "lmbench-results" and (.run.status == "ok" or .run.status == "failed") and (.results | length) > 0' \
        "$h's $h.0.json is the results document of a finished run"
    check "$h's run messages are kept (run.log)" grep -q '^lmbench run: ' "$F/$h/run.log"
done
check "the unreachable host has no results directory" test ! -e "$F/h3"
check "the failed run left no results file" test ! -e "$F/h4/h4.0.json"

REPORT=$(cat "$F/report.txt" 2>/dev/null)
like "$REPORT" '^lmbench fleet run fleet1: 4 hosts, 2 ok, 2 failed$' "report.txt counts the hosts"
like "$REPORT" '^h1: (ok|failed steps); results h1/h1\.0\.json$' "report.txt: h1 ok"
like "$REPORT" '^h2: (ok|failed steps); results h2/h2\.0\.json$' "report.txt: h2 ok"
# ansible says ssh's "Connection refused", or, when it had begun to write the
# module to ssh (pipelining) before ssh gave up, "Broken pipe".
like "$REPORT" '^h3: failed \(unreachable: .*([Cc]onnection refused|[Bb]roken pipe)' "report.txt: h3 unreachable, with ansible's reason"
like "$REPORT" "^h4: failed \\(lmbench run exited 2: .*--groups: 'nosuch'" "report.txt: h4's run failed, with lmbench's message"

SUMMARY=$(cat "$F/summary.txt" 2>/dev/null)
like "$SUMMARY" 'L M B E N C H' "summary.txt is lmbench see's page"
# The rows are labelled with the host name the results hold (the same on
# every namespace host): the legend above the page says which is which.
for h in h1 h2; do
    LABEL=$(printf '%s\n' "$SUMMARY" | sed -n "s|^  $h  \([^ ]*\)  $h/$h\.0\.json\$|\1|p")
    isnt "$LABEL" "" "the summary's legend names $h and its file"
    like "$SUMMARY" "^$LABEL(#[12])? +Linux " "the summary has a row for $h ($LABEL)"
done
COMPARE=$(cat "$F/compare.h2.txt" 2>/dev/null)
like "$COMPARE" '^base: h1/h1\.0\.json ' "compare.h2.txt: h1 is the base"
like "$COMPARE" '^new: +h2/h2\.0\.json ' "compare.h2.txt: h2 the new file"
like "$COMPARE" '^lat_syscall null ' "compare.h2.txt compares measurements"

# Nothing left on the hosts nor in ansible's temporary directories.
left=
for i in 1 2 3 4; do
    [ -n "$(sshd_ns_pids "$i")" ] && left="$left h$i: $(sshd_ns_pids "$i" | tr '\n' ' ')"
done
is "$left" "" "no process left on the hosts"
is "$(ls -A "$T/work")" "" "the hosts' work directories are removed"
is "$(ls -A "$A/remote")" "" "nothing left in ansible's remote temporary directory"
is "$(find "$A/local" -mindepth 1 -name 'ansible-tmp-*' -o -mindepth 1 -name 'ansible-local-*')" "" \
    "nothing left in ansible's local temporary directory"

# A host whose architecture has no binary: a clear message, nothing left.
run play -i "$T/inventory.yml" -l h1 -e lmbench_tag=nobin \
    -e "lmbench_binary_dir=$T/nobins" "$PLAYBOOK"
isnt "$RC" 0 "no binary for the host: ansible-playbook exits non-zero"
like "$(cat "$T/results/nobin/report.txt" 2>/dev/null)" \
    "^h1: failed \\(Refuse a missing binary: no $T/nobins/lmbench-$ARCH on the controller for this host \\(architecture $(uname -m)\\)" \
    "no binary for the host: the report says which file is missing"
is "$(ls -A "$T/work")" "" "no binary for the host: its work directory is removed"

# The same tag twice: refused, nothing overwritten.
run play -i "$T/inventory.yml" -l h1 -e lmbench_tag=fleet1 "$PLAYBOOK"
isnt "$RC" 0 "a fleet run's tag used again: refused"
like "$OUT" "$F already exists" "a fleet run's tag used again: the message names the directory"

if [ "$HAD_HOME_ANSIBLE" = yes ]; then
    is "$(find "$HOME_ANSIBLE" -newer "$T/start" 2>/dev/null)" "" "nothing new in ~/.ansible"
else
    check "no ~/.ansible made" test ! -e "$HOME_ANSIBLE"
fi

done_testing
