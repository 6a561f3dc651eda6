#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/install-deps with stand-in package managers: apt-get, dnf and yum (and
# dpkg-query, dpkg, rpm, id, sudo) placed first on a PATH that has no real
# package manager. Each stand-in writes the command it was given to a log; the
# tests check what was asked to be installed, and that nothing is asked when
# everything is there.
. "$(dirname "$0")/../cli/lib.sh"

SCRIPT=$SRCROOT/scripts/install-deps
PM=$T/pm
SYS=$T/sys
LOG=$T/log
mkdir -p "$PM" "$SYS"

# The few real tools the script and the stand-ins use, and nothing else.
for tool in sh grep tr cat; do
    ln -s "$(command -v "$tool")" "$SYS/$tool"
done

# A stand-in that logs its command line and succeeds (or fails when
# $T/fail-NAME exists).
stand_in() {
    cat >"$PM/$1" <<EOF
#!/bin/sh
echo "$1 \$*" >>"$LOG"
[ ! -e "$T/fail-$1" ]
EOF
    chmod +x "$PM/$1"
}

# dpkg-query -W -f=... PKG and rpm -q --quiet --whatprovides CAP: installed
# when listed in $T/installed.
cat >"$PM/dpkg-query" <<EOF
#!/bin/sh
for a in "\$@"; do p=\$a; done
grep -qxF -- "\$p" "$T/installed" 2>/dev/null || exit 1
printf 'install ok installed'
EOF
cat >"$PM/rpm" <<EOF
#!/bin/sh
for a in "\$@"; do p=\$a; done
grep -qxF -- "\$p" "$T/installed" 2>/dev/null
EOF
# dpkg --print-foreign-architectures prints $T/archs; --add-architecture is logged.
cat >"$PM/dpkg" <<EOF
#!/bin/sh
case \$1 in
--print-foreign-architectures) cat "$T/archs" 2>/dev/null ;;
*) echo "dpkg \$*" >>"$LOG" ;;
esac
EOF
# id -u prints $T/uid (0 unless written).
cat >"$PM/id" <<EOF
#!/bin/sh
cat "$T/uid" 2>/dev/null || echo 0
EOF
cat >"$PM/sudo" <<EOF
#!/bin/sh
echo "sudo" >>"$LOG"
exec "\$@"
EOF
chmod +x "$PM/dpkg-query" "$PM/rpm" "$PM/dpkg" "$PM/id" "$PM/sudo"

printf 'ID=debian\nVERSION_ID="12"\n' >"$T/debian"
printf 'NAME="Ubuntu"\nID=ubuntu\n' >"$T/ubuntu"
printf 'NAME="openEuler"\nID="openEuler"\n' >"$T/openeuler"

# use MANAGER...: the package managers present (apt-get, dnf, yum, or none).
use() {
    rm -f "$PM/apt-get" "$PM/dnf" "$PM/yum"
    for m in "$@"; do stand_in "$m"; done
    : >"$LOG"
    : >"$T/installed"
    rm -f "$T/archs" "$T/uid" "$T"/fail-*
}

# deps [ARGS...]: runs the script on the stand-ins; RC, OUT, ERR, and LOGGED
# (the log).
deps() {
    run env -i PATH="$PM:$SYS" HOME="$T" INSTALL_DEPS_OS_RELEASE="${OSR:-$T/debian}" \
        sh "$SCRIPT" "$@"
    LOGGED=$(cat "$LOG")
}

APT_BASE="gcc make pkg-config libjansson-dev libcmocka-dev perl jq iproute2 procps libtirpc-dev chromium"
RPM_BASE="gcc make /usr/bin/pkg-config pkgconfig(jansson) pkgconfig(cmocka) /usr/bin/prove jq iproute procps-ng pkgconfig(libtirpc)"

# --- apt-get --------------------------------------------------------------------------

use apt-get
deps
is "$RC" 0 "apt-get: exit status 0"
is "$LOGGED" "apt-get update -qq
apt-get install -y -qq --no-install-recommends $APT_BASE" \
    "apt-get: updates, then installs the build and test packages"

use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps
is "$RC:$LOGGED" "0:" "apt-get, all installed: exit 0, nothing run"
like "$OUT" '^install-deps: everything is installed$' "apt-get, all installed: says so"

use apt-get
printf 'gcc\nmake\njq\n' >"$T/installed"
deps
is "$(printf '%s\n' "$LOGGED" | sed -n 2p)" \
    "apt-get install -y -qq --no-install-recommends pkg-config libjansson-dev libcmocka-dev perl iproute2 procps libtirpc-dev chromium" \
    "apt-get, some installed: only the missing ones"

use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps --bench
is "$(printf '%s\n' "$LOGGED" | sed -n 2p)" "apt-get install -y -qq --no-install-recommends linux-perf sockperf iperf3" \
    "apt-get --bench: linux-perf, sockperf, iperf3"

use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps --fleet --packaging
is "$RC:$(printf '%s\n' "$LOGGED" | sed -n 2p)" "0:apt-get install -y -qq --no-install-recommends openssh-server openssh-client ansible-core debhelper dpkg-dev fakeroot lintian rpm rpmlint" \
    "apt-get --fleet --packaging: sshd, ssh, ansible-core; the Debian and RPM package tools"

# --fuzz: clang, then (no fuzz target links with this stand-in PATH, which has
# no clang) its libFuzzer runtime; and with clang there, the runtime alone.
use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps --fuzz
is "$RC:$(printf '%s\n' "$LOGGED" | sed -n '2,3p')" "0:apt-get install -y -qq --no-install-recommends clang
apt-get install -y -qq --no-install-recommends libclang-rt-dev" \
    "apt-get --fuzz: clang, then its libFuzzer runtime"
use apt-get
for p in $APT_BASE clang; do echo "$p" >>"$T/installed"; done
deps --fuzz
is "$RC:$LOGGED" "0:apt-get update -qq
apt-get install -y -qq --no-install-recommends libclang-rt-dev" \
    "apt-get --fuzz, clang installed but no libFuzzer: the runtime alone"
use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps
is "$RC:$LOGGED" "0:" "apt-get without --fuzz: no clang asked for"

CROSS_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross gcc-riscv64-linux-gnu libc6-dev-riscv64-cross gcc-arm-linux-gnueabi libc6-dev-armel-cross qemu-user-static"
use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps --cross
is "$RC" 0 "apt-get --cross on Debian: exit status 0"
is "$LOGGED" "dpkg --add-architecture arm64
dpkg --add-architecture armhf
apt-get update -qq
apt-get install -y -qq --no-install-recommends $CROSS_PKGS
apt-get install -y -qq --no-install-recommends libjansson-dev:arm64 libtirpc-dev:arm64
apt-get install -y -qq --no-install-recommends libjansson-dev:armhf libtirpc-dev:armhf" \
    "apt-get --cross on Debian: arm64 and armhf added, cross compilers, C libraries, qemu, then the targets' jansson and libtirpc"

use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
echo arm64 >"$T/archs"
printf 'libjansson-dev:arm64\nlibtirpc-dev:arm64\n' >>"$T/installed"
deps --cross
is "$(printf '%s\n' "$LOGGED" | head -n 1)" "dpkg --add-architecture armhf" \
    "apt-get --cross: an architecture already added is not added again"
like "$LOGGED" '^apt-get install -y -qq --no-install-recommends libjansson-dev:armhf libtirpc-dev:armhf$' \
    "apt-get --cross: only the missing libraries"

use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
OSR=$T/ubuntu deps --cross
is "$LOGGED" "apt-get update -qq
apt-get install -y -qq --no-install-recommends $CROSS_PKGS" \
    "apt-get --cross on Ubuntu: no foreign architecture, compilers and qemu only"

use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps --cross=aarch64-linux-gnu
is "$LOGGED" "dpkg --add-architecture arm64
apt-get update -qq
apt-get install -y -qq --no-install-recommends gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
apt-get install -y -qq --no-install-recommends libjansson-dev:arm64 libtirpc-dev:arm64" \
    "apt-get --cross=aarch64-linux-gnu: that target only"

# The targets' libraries are optional: when apt-get cannot install them, a
# warning, exit 0. A stand-in that fails only for them:
use apt-get
for p in $APT_BASE $CROSS_PKGS; do echo "$p" >>"$T/installed"; done
cat >"$PM/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$LOG"
case "\$*" in *:arm64*) exit 100 ;; esac
EOF
chmod +x "$PM/apt-get"
deps --cross=aarch64-linux-gnu,arm-linux-gnueabihf
is "$RC" 0 "apt-get --cross, the arm64 libraries fail to install: exit status 0"
like "$ERR" '^install-deps: warning: could not install libjansson-dev:arm64 libtirpc-dev:arm64;' \
    "... with a warning naming them"
like "$LOGGED" '^apt-get install -y -qq --no-install-recommends libjansson-dev:armhf libtirpc-dev:armhf$' \
    "... and armhf's are still installed"
use apt-get
for p in $APT_BASE $CROSS_PKGS; do echo "$p" >>"$T/installed"; done
touch "$T/fail-apt-get"
deps --cross=aarch64-linux-gnu
is "$RC" 0 "... (any failure of that step alone)"
use apt-get
touch "$T/fail-apt-get"
deps --cross=aarch64-linux-gnu
isnt "$RC" 0 "apt-get failing to install the compilers: a failure"

use apt-get
for p in $APT_BASE; do echo "$p" >>"$T/installed"; done
deps --cross=riscv64-linux-gnu,arm-linux-gnueabi
is "$(printf '%s\n' "$LOGGED" | tr '\n' '|')" "apt-get update -qq|apt-get install -y -qq --no-install-recommends gcc-riscv64-linux-gnu libc6-dev-riscv64-cross gcc-arm-linux-gnueabi libc6-dev-armel-cross qemu-user-static|" \
    "apt-get --cross=riscv64-linux-gnu,arm-linux-gnueabi: no architecture added (no jansson for them)"

use apt-get
deps --cross=sparc-linux-gnu
is "$RC:$LOGGED" "2:" "--cross with an unknown target: exit 2, nothing run"
like "$ERR" "unknown target 'sparc-linux-gnu'" "--cross with an unknown target: names it"

use apt-get
echo 1000 >"$T/uid"
deps
is "$LOGGED" "sudo
apt-get update -qq
sudo
apt-get install -y -qq --no-install-recommends $APT_BASE" \
    "apt-get as a user: through sudo"

use apt-get
echo 1000 >"$T/uid"
rm "$PM/sudo"
deps
is "$RC:$LOGGED" "1:" "apt-get as a user without sudo: exit 1, nothing run"
like "$ERR" '^install-deps: run as root' "apt-get as a user without sudo: says why"
cat >"$PM/sudo" <<EOF
#!/bin/sh
echo "sudo" >>"$LOG"
exec "\$@"
EOF
chmod +x "$PM/sudo"

# --- dnf and yum ------------------------------------------------------------------------

for m in dnf yum; do
    use "$m"
    OSR=$T/openeuler deps
    is "$RC" 0 "$m: exit status 0"
    is "$LOGGED" "$m install -y $RPM_BASE" \
        "$m: one install of the packages, libraries by pkgconfig(), tools by path"

    use "$m"
    for p in $RPM_BASE; do echo "$p" >>"$T/installed"; done
    OSR=$T/openeuler deps --bench
    is "$LOGGED" "$m install -y perf sockperf iperf3" "$m --bench: perf, sockperf, iperf3, when the rest is installed"

    use "$m"
    for p in $RPM_BASE; do echo "$p" >>"$T/installed"; done
    OSR=$T/openeuler deps --fleet --packaging
    is "$LOGGED" "$m install -y /usr/sbin/sshd /usr/bin/ssh ansible-core rpm-build rpmlint" \
        "$m --fleet --packaging: sshd and ssh by path, ansible-core, rpm-build, rpmlint"

    use "$m"
    for p in $RPM_BASE; do echo "$p" >>"$T/installed"; done
    OSR=$T/openeuler deps
    is "$RC:$LOGGED" "0:" "$m, all installed: exit 0, nothing run"

    use "$m"
    echo 1000 >"$T/uid"
    OSR=$T/openeuler deps
    is "$LOGGED" "sudo
$m install -y $RPM_BASE" "$m as a user: through sudo"

    use "$m"
    OSR=$T/openeuler deps --cross
    ok $([ "$RC" = 1 ] && [ -z "$LOGGED" ]; echo $?) "$m --cross: exit 1, nothing installed"
    like "$ERR" '^install-deps: --cross needs Debian or Ubuntu' "$m --cross: says why"

    use "$m"
    touch "$T/fail-$m"
    OSR=$T/openeuler deps
    is "$RC" 1 "$m failing: exit status 1"
    like "$ERR" 'CodeReady Builder' "$m failing: points to the repositories RHEL needs"
done

# dnf before yum where both are present.
use dnf yum
deps
like "$LOGGED" '^dnf install ' "dnf and yum: dnf is used"

# --- neither, and bad usage ----------------------------------------------------------------

use
deps
is "$RC:$LOGGED" "1:" "no package manager: exit 1, nothing run"
like "$ERR" 'no apt-get, dnf or yum' "no package manager: says so and lists what to install"

use apt-get
deps --frobnicate
is "$RC:$LOGGED" "2:" "unknown argument: exit 2, nothing run"
like "$ERR" '^Usage: scripts/install-deps' "unknown argument: the usage"
deps --help
ok $([ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q '^Usage: scripts/install-deps'; echo $?) "--help: exit 0, the usage"

done_testing
