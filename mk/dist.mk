# SPDX-License-Identifier: MIT
# mk/dist.mk: the release targets, included by the Makefile (which sets SRCDIR
# and VERSION). doc/release.md is the user's page for them.
#
#   make dist                 release/lmbench-$(VERSION).tar.gz: the files git
#                             tracks, under lmbench-$(VERSION)/, its VERSION file
#                             holding the whole version string (so a build from
#                             it reports the same version without git)
#   make distcheck            dist, then unpack it in a temporary directory, build
#                             it there with WERROR=1, check its version, run its
#                             unit tests and DISTCHECK_TESTS; the directory is
#                             removed on every exit (SIGINT too)
#   make static-release       static, stripped binaries for STATIC_TARGETS into
#                             release/lmbench-$(VERSION)-static/ (lmbench-ARCH,
#                             hello-ARCH, README, SHA256SUMS) and its tarball
#   make check-static-release static-release, then its checks: checksums, static,
#                             stripped, and each binary run (qemu-user for another
#                             architecture): --version, a benchmark through a link,
#                             JSON as the README says
#
# RELEASE_DIR (default $(SRCDIR)/release) is where all of it goes.
# dist needs a git checkout: the tarball's file list is `git ls-files`, so it
# cannot drift from what is committed, and no manifest needs keeping. A tree
# with uncommitted changes to tracked files is released as it is, with a
# warning: its version (and so the tarball's name and `lmbench --version`) ends
# in .dirty, which says so wherever it goes. DIST_CLEAN=1 refuses such a tree
# instead (for a release that is published).

RELEASE_DIR ?= $(SRCDIR)/release
DIST_NAME = lmbench-$(VERSION)
DIST_TARBALL = $(RELEASE_DIR)/$(DIST_NAME).tar.gz
DIST_CLEAN ?=

# The command tests distcheck runs on the unpacked build (tests/cli/NAME.t):
# a few quick ones that reach the multi-call binary, its links, the helper,
# the docs and the Makefile's install; make check runs them all.
DISTCHECK_TESTS ?= lmbench registry lat_syscall lat_proc bw_pipe docs

.PHONY: dist distcheck static-release check-static-release

dist:
	@set -eu; cd '$(SRCDIR)'; \
	if [ ! -e .git ] || ! git rev-parse -q --verify HEAD >/dev/null 2>&1; then \
		echo "make dist: needs a git checkout of lmbench: the tarball holds the files git" \
			"tracks (git ls-files), and $(SRCDIR) is not one (an unpacked tarball builds," \
			"but is not released again)" >&2; \
		exit 1; \
	fi; \
	if [ -n '$(GIT_DIRTY)' ]; then \
		if [ -n '$(DIST_CLEAN)' ]; then \
			echo "make dist: DIST_CLEAN=1 and the tree has uncommitted changes to tracked files" \
				"(git status): commit them first" >&2; \
			exit 1; \
		fi; \
		echo "make dist: warning: uncommitted changes to tracked files go into the tarball;" \
			"its version says so: $(VERSION)" >&2; \
	fi; \
	gone=$$(git ls-files --deleted); \
	if [ -n "$$gone" ]; then \
		echo "make dist: tracked files are missing from the tree (commit their removal or" \
			"restore them): $$gone" >&2; \
		exit 1; \
	fi; \
	when=$$(git log -1 --format=%ct HEAD); \
	mkdir -p '$(RELEASE_DIR)'; \
	tmp=$$(mktemp -d '$(RELEASE_DIR)/.dist.XXXXXX'); \
	trap 'trap "" HUP INT TERM; rm -rf "$$tmp"' EXIT; trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM; \
	top=$$tmp/$(DIST_NAME); \
	mkdir "$$top"; \
	git ls-files -z > "$$tmp/files"; \
	tar --null -T "$$tmp/files" -cf "$$tmp/copy.tar"; \
	tar -xf "$$tmp/copy.tar" -C "$$top"; \
	rm -f "$$tmp/copy.tar"; \
	printf '%s\n' '$(VERSION)' > "$$top/VERSION"; \
	spec=$$top/rpm/lmbench.spec; \
	if [ -f "$$spec" ]; then \
		sed -i 's/^%{!?lmb_tarversion:%global lmb_tarversion [^}]*}$$/%{!?lmb_tarversion:%global lmb_tarversion $(VERSION)}/' "$$spec"; \
		grep -qxF '%{!?lmb_tarversion:%global lmb_tarversion $(VERSION)}' "$$spec" || { \
			echo "make dist: rpm/lmbench.spec has no lmb_tarversion line to write the version on" >&2; exit 1; }; \
	fi; \
	(cd "$$tmp" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@"$$when" \
		--mode=u+rwX,go=rX --format=gnu -cf out.tar '$(DIST_NAME)'); \
	gzip -9n "$$tmp/out.tar"; \
	mv -f "$$tmp/out.tar.gz" '$(DIST_TARBALL)'; \
	echo "make dist: $(DIST_TARBALL) ($$(tr -cd '\0' < "$$tmp/files" | wc -c) files, version $(VERSION))"

# The sub-make of distcheck starts clean (no MAKEFLAGS of this one: no B, no
# CROSS, nothing of the caller's command line), as a user's make of the tarball.
distcheck: dist
	@set -eu; \
	d=$$(mktemp -d "$${TMPDIR:-/tmp}/lmbench-distcheck.XXXXXX"); \
	trap 'trap "" HUP INT TERM; cd /; chmod -R u+w "$$d" 2>/dev/null; rm -rf "$$d"' EXIT; \
	trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM; \
	echo "distcheck: unpacking $(DIST_TARBALL) in $$d"; \
	tar -xzf '$(DIST_TARBALL)' -C "$$d"; \
	s=$$d/$(DIST_NAME); \
	top=$$(ls -A "$$d"); \
	if [ "$$top" != '$(DIST_NAME)' ]; then \
		echo "distcheck: the tarball holds '$$top', not only $(DIST_NAME)/" >&2; exit 1; \
	fi; \
	if [ -e "$$s/.git" ]; then echo "distcheck: the tarball holds a .git" >&2; exit 1; fi; \
	echo "distcheck: make -j2 WERROR=1 all unit-tests in $$s"; \
	MAKEFLAGS= MFLAGS= MAKELEVEL= $(MAKE) -C "$$s" --no-print-directory -j2 WERROR=1 all unit-tests; \
	v=$$("$$s/build/bin/lmbench" --version); \
	if [ "$$v" != 'lmbench $(VERSION)' ]; then \
		echo "distcheck: the tarball's build says '$$v', not 'lmbench $(VERSION)'" >&2; exit 1; \
	fi; \
	echo "distcheck: $$v"; \
	cd "$$s"; \
	CMOCKA_MESSAGE_OUTPUT=TAP ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		prove --exec '' build/tests/unit/*.t build/tests/asan/*.t; \
	LMBENCH_BUILD=$$s/build prove --exec '' $(patsubst %,tests/cli/%.t,$(DISTCHECK_TESTS)); \
	echo "distcheck: $(DIST_TARBALL) builds and passes on its own"

# --- static binaries for boards ---------------------------------------------

# The architectures, by the names of the release's files, and the triplet of
# each (the Debian cross compiler's prefix, scripts/install-deps --cross).
STATIC_TARGETS ?= x86_64 aarch64 armhf riscv64
LMB_REL_TRIPLET_x86_64 := x86_64-linux-gnu
LMB_REL_TRIPLET_aarch64 := aarch64-linux-gnu
LMB_REL_TRIPLET_armhf := arm-linux-gnueabihf
LMB_REL_TRIPLET_riscv64 := riscv64-linux-gnu
# qemu-user's name for each, and what `uname -m` says on such a machine.
LMB_REL_QEMU_x86_64 := x86_64
LMB_REL_QEMU_aarch64 := aarch64
LMB_REL_QEMU_armhf := arm
LMB_REL_QEMU_riscv64 := riscv64
LMB_REL_UNAME_x86_64 := x86_64
LMB_REL_UNAME_aarch64 := aarch64
LMB_REL_UNAME_armhf := armv7l armv8l
LMB_REL_UNAME_riscv64 := riscv64
LMB_REL_ARCHS := x86_64 aarch64 armhf riscv64

REL_STATIC_NAME = lmbench-$(VERSION)-static
REL_STATIC_DIR = $(RELEASE_DIR)/$(REL_STATIC_NAME)
REL_STATIC_TARBALL = $(RELEASE_DIR)/$(REL_STATIC_NAME).tar.gz
LMB_HOST_UNAME := $(shell uname -m)

ifneq ($(filter static-release check-static-release static-release-%,$(MAKECMDGOALS)),)
ifneq ($(filter-out $(LMB_REL_ARCHS),$(STATIC_TARGETS)),)
$(error STATIC_TARGETS: unknown $(filter-out $(LMB_REL_ARCHS),$(STATIC_TARGETS)) (known: $(LMB_REL_ARCHS)))
endif
ifeq ($(strip $(STATIC_TARGETS)),)
$(error STATIC_TARGETS names no architecture (known: $(LMB_REL_ARCHS)))
endif
endif

# The build machine's own architecture builds natively (cc), the others with
# CROSS=TRIPLET-. Each into its own build-release-ARCH/, never a test build's.
lmb_rel_native = $(filter $(LMB_HOST_UNAME),$(LMB_REL_UNAME_$(1)))
lmb_rel_cross = $(if $(call lmb_rel_native,$(1)),,$(LMB_REL_TRIPLET_$(1))-)
lmb_rel_cc = $(if $(call lmb_rel_native,$(1)),$(CC),$(LMB_REL_TRIPLET_$(1))-gcc)
lmb_rel_strip = $(if $(call lmb_rel_native,$(1)),strip,$(LMB_REL_TRIPLET_$(1))-strip)
LMB_REL_MISSING = $(foreach a,$(STATIC_TARGETS),$(if $(shell command -v $(call lmb_rel_cc,$(a)) 2>/dev/null),,$(a)))

.PHONY: static-release-compilers
static-release-compilers:
	@if [ -n '$(strip $(LMB_REL_MISSING))' ]; then \
		echo "make static-release: no C compiler for: $(foreach a,$(LMB_REL_MISSING),$(a) ($(call lmb_rel_cc,$(a))))." \
			"scripts/install-deps --cross installs the cross compilers (as root; Debian and Ubuntu)," \
			"or choose the architectures: make static-release STATIC_TARGETS='$(filter-out $(LMB_REL_MISSING),$(STATIC_TARGETS))'" >&2; \
		exit 1; \
	fi

# static-release-ARCH: the static build of one architecture (not a phony
# target, so that the pattern applies; FORCE runs it each time, the sub-make
# decides what is out of date).
static-release-%: static-release-compilers FORCE
	+$(MAKE) -C '$(SRCDIR)' --no-print-directory CROSS=$(call lmb_rel_cross,$*) STATIC=1 \
		B=build-release-$* build-release-$*/bin/lmbench build-release-$*/libexec/lmbench/hello

# The optional parts a build has, from the flags it recorded.
lmb_rel_parts = b='$(SRCDIR)/build-release-$(1)/gen'; \
	if grep -q -e -DLMB_HAVE_JANSSON "$$b/flags"; then json=yes; else json=no; fi; \
	if grep -q -e -DLMB_HAVE_TIRPC "$$b/tirpc.flags"; then rpc=yes; else rpc=no; fi

static-release: $(STATIC_TARGETS:%=static-release-%)
	@set -eu; \
	mkdir -p '$(RELEASE_DIR)'; \
	tmp=$$(mktemp -d '$(RELEASE_DIR)/.static.XXXXXX'); \
	trap 'trap "" HUP INT TERM; rm -rf "$$tmp"' EXIT; trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM; \
	o=$$tmp/$(REL_STATIC_NAME); \
	mkdir "$$o"; \
	printf '%s\n' "$$LMB_REL_README" > "$$o/README"; \
	$(foreach a,$(STATIC_TARGETS), \
		$(call lmb_rel_strip,$(a)) -o "$$o/lmbench-$(a)" '$(SRCDIR)/build-release-$(a)/bin/lmbench'; \
		$(call lmb_rel_strip,$(a)) -o "$$o/hello-$(a)" '$(SRCDIR)/build-release-$(a)/libexec/lmbench/hello'; \
		chmod 755 "$$o/lmbench-$(a)" "$$o/hello-$(a)"; \
		$(call lmb_rel_parts,$(a)); \
		printf '  %-16s %-20s %-5s %s\n' lmbench-$(a) $(LMB_REL_TRIPLET_$(a)) $$json $$rpc >> "$$o/README";) \
	printf '%s\n' "$$LMB_REL_README_TAIL" >> "$$o/README"; \
	(cd "$$o" && sha256sum $(foreach a,$(STATIC_TARGETS),lmbench-$(a) hello-$(a)) README > SHA256SUMS); \
	when=$$(if [ -e '$(SRCDIR)/.git' ]; then git -C '$(SRCDIR)' log -1 --format=%ct HEAD; else date +%s; fi); \
	(cd "$$tmp" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@"$$when" \
		--mode=u+rwX,go=rX --format=gnu -cf out.tar '$(REL_STATIC_NAME)'); \
	gzip -9n "$$tmp/out.tar"; \
	rm -rf '$(REL_STATIC_DIR)'; \
	mv "$$o" '$(REL_STATIC_DIR)'; \
	mv -f "$$tmp/out.tar.gz" '$(REL_STATIC_TARBALL)'; \
	echo "make static-release: $(REL_STATIC_DIR)/ ($(STATIC_TARGETS)) and $(REL_STATIC_TARBALL)"

# Every binary of the release run where it can be: natively for the build
# machine's architecture, else under qemu-ARCH-static (or qemu-ARCH), no
# binfmt_misc needed. Checks what a board user relies on.
check-static-release: static-release
	@set -eu; cd '$(REL_STATIC_DIR)'; \
	t=$$(mktemp -d "$${TMPDIR:-/tmp}/lmbench-static-check.XXXXXX"); \
	trap 'trap "" HUP INT TERM; rm -rf "$$t"' EXIT; trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM; \
	fail() { echo "check-static-release: $$*" >&2; exit 1; }; \
	sha256sum -c --quiet SHA256SUMS || fail "SHA256SUMS does not match the files"; \
	echo "check-static-release: SHA256SUMS matches"; \
	tar -tzf '$(REL_STATIC_TARBALL)' | grep -v '/$$' | sort > "$$t/list"; \
	(cd '$(RELEASE_DIR)' && find '$(REL_STATIC_NAME)' -type f | sort) > "$$t/want"; \
	cmp -s "$$t/list" "$$t/want" || fail "$(REL_STATIC_TARBALL) does not hold the directory's files"; \
	$(foreach a,$(STATIC_TARGETS), \
		f=lmbench-$(a); \
		if readelf -lW "$$f" | grep -q 'INTERP'; then fail "$$f is not static (it has a program interpreter)"; fi; \
		if readelf -SW "$$f" | grep -q '\.symtab'; then fail "$$f is not stripped"; fi; \
		if [ -n '$(call lmb_rel_native,$(a))' ]; then r=; else \
			r=$$(command -v qemu-$(LMB_REL_QEMU_$(a))-static || command -v qemu-$(LMB_REL_QEMU_$(a)) || :); \
			[ -n "$$r" ] || fail "no qemu-$(LMB_REL_QEMU_$(a))-static to run $$f (Debian: qemu-user-static; scripts/install-deps --cross)"; \
		fi; \
		v=$$($$r "./$$f" --version) || fail "$$f --version failed"; \
		[ "$$v" = 'lmbench $(VERSION)' ] || fail "$$f --version says '$$v', not 'lmbench $(VERSION)'"; \
		ln -s "$$PWD/$$f" "$$t/lat_syscall"; \
		$$r "$$t/lat_syscall" -N 1 null 2> "$$t/err" || { cat "$$t/err" >&2; fail "$$f as lat_syscall failed"; }; \
		grep -q '^Simple syscall: ' "$$t/err" || fail "$$f as lat_syscall: no 'Simple syscall:' line: $$(cat "$$t/err")"; \
		rm -f "$$t/lat_syscall"; \
		rc=0; $$r "./$$f" lat_syscall --json -N 1 null > "$$t/json" 2>&1 || rc=$$?; \
		$(call lmb_rel_parts,$(a)); \
		if [ $$json = yes ]; then [ $$rc = 0 ] || fail "$$f: --json failed (status $$rc) but the README says JSON"; \
		else [ $$rc = 3 ] || fail "$$f: --json gave status $$rc, not 3 (built without jansson)"; fi; \
		if [ $$rpc = no ]; then rc=0; $$r "./$$f" lat_rpc localhost > "$$t/rpc" 2>&1 || rc=$$?; \
			[ $$rc = 3 ] && grep -q 'built without libtirpc' "$$t/rpc" || \
				fail "$$f: lat_rpc gave status $$rc, not 3 'built without libtirpc' as the README says"; fi; \
		$$r "./hello-$(a)" > "$$t/hello" || fail "hello-$(a) failed"; \
		grep -qx 'Hello world' "$$t/hello" || fail "hello-$(a) did not say Hello world"; \
		echo "check-static-release: $$f: $$v, static, stripped, runs$${r:+ under $${r##*/}}; JSON $$json, lat_rpc $$rpc";) \
	echo "check-static-release: $(REL_STATIC_DIR) is good"

# The release's README: the top, then one line per architecture (written by
# static-release from each build's flags), then the tail.
define LMB_REL_README_TOP
lmbench $(VERSION): static binaries for Linux boards and machines

Each lmbench-ARCH is the whole of lmbench in one statically linked, stripped
file: it needs no library, no shell tools and nothing else on the machine.
It is a multi-call binary: `lmbench-ARCH bw_mem 64m rd` runs the bw_mem
benchmark, and so does a link to it named bw_mem. hello-ARCH is the small
program lat_proc's exec and shell cases start; nothing else needs it.

  file             built with           JSON  lat_rpc
endef
define LMB_REL_README_BOTTOM

  JSON     --json and the results files of `lmbench run` (jansson); without
           it the classic text lines still work, --json exits with status 3.
  lat_rpc  the SunRPC benchmark (libtirpc); without it lat_rpc reports
           "skipped: built without libtirpc".
  Built on Debian 12: it has no jansson for riscv64, and no static Kerberos
  library (libgssapi_krb5.a), which a static libtirpc needs: lat_rpc is in
  none of these static binaries (a distribution's package has it).

Verify (on the machine you copied the files to, or before you copy them):

  sha256sum -c SHA256SUMS          every line must say OK
  sha256sum -c --ignore-missing SHA256SUMS    when you copied only some files

Install on a board (aarch64 here; `uname -m` says which: x86_64, aarch64,
armv7l for armhf, riscv64):

  scp lmbench-aarch64 hello-aarch64 root@board:/tmp/
  ssh root@board
  install -m 755 /tmp/lmbench-aarch64 /usr/local/bin/lmbench
  mkdir -p /usr/local/libexec/lmbench
  install -m 755 /tmp/hello-aarch64 /usr/local/libexec/lmbench/hello

(the binary looks for hello beside itself or in ../libexec/lmbench). Then

  lmbench --version
  lmbench lat_syscall null
  lmbench run -o /tmp/results

The short command names (bw_mem, lat_syscall, ...) are links you make, if
you want them; `lmbench CMD ...` works without:

  cd /usr/local/bin && lmbench list | while read c rest; do ln -sf lmbench "$$c"; done

Some names (stream, line, cache, mhz, ...) are other programs' too: leave
out those you have. doc/boards.md and doc/release.md in the source say more.
endef
LMB_REL_README_TAIL := $(LMB_REL_README_BOTTOM)
static-release: export LMB_REL_README = $(LMB_REL_README_TOP)
static-release: export LMB_REL_README_TAIL := $(LMB_REL_README_BOTTOM)
