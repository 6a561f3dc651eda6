# SPDX-License-Identifier: MIT
# mk/rpm.mk: the RPM targets, included by the Makefile (mk/dist.mk makes the
# tarball they start from). doc/rpm.md is the user's page.
#
#   make srpm        make dist, then rpmbuild -bs of the tarball's own
#                    rpm/lmbench.spec: $(RPM_TOPDIR)/SRPMS/lmbench-*.src.rpm
#   make check-rpm   srpm; rpmlint of rpm/lmbench.spec and of the source rpm
#                    (an error fails; rpm/lmbench.rpmlintrc drops the checks
#                    Fedora's guidelines contradict); the spec's Version against VERSION; then
#                    rpmbuild -bb --nodeps (the build requirements are not
#                    rpm packages on Debian; _docdir_fmt %{NAME} as Fedora,
#                    openEuler and EL set it) in a temporary _topdir, removed on
#                    every exit, its binary rpm copied to $(RPM_TOPDIR)/RPMS;
#                    rpm -qlp of it against the paths the spec promises; its
#                    files unpacked and lmbench run from them.
#
# RPM_TOPDIR (default $(RELEASE_DIR)/rpm) holds what they leave. On Debian the
# binary rpm is built with Debian's rpm macros (-O2 -g, no Fedora hardening,
# no %{dist}, no debuginfo package): it checks the spec, it is not a package
# for Fedora; doc/rpm.md says how to build one there.

RPM_TOPDIR ?= $(RELEASE_DIR)/rpm
RPMBUILD ?= rpmbuild
RPMLINT ?= rpmlint

.PHONY: srpm check-rpm

lmb_rpm_tool = command -v $(1) >/dev/null 2>&1 || { echo "make $@: no $(1) (scripts/install-deps \
	--packaging installs rpm and rpmlint; Fedora: dnf install rpm-build rpmlint)" >&2; exit 1; }

srpm: dist
	@set -eu; $(call lmb_rpm_tool,$(RPMBUILD)); \
	mkdir -p '$(RPM_TOPDIR)/SOURCES' '$(RPM_TOPDIR)/SPECS' '$(RPM_TOPDIR)/SRPMS'; \
	cp '$(DIST_TARBALL)' '$(RPM_TOPDIR)/SOURCES/'; \
	tar -xzOf '$(DIST_TARBALL)' '$(DIST_NAME)/rpm/lmbench.spec' > '$(RPM_TOPDIR)/SPECS/lmbench.spec'; \
	rm -f '$(RPM_TOPDIR)'/SRPMS/lmbench-*.src.rpm; \
	$(RPMBUILD) -bs --define '_topdir $(RPM_TOPDIR)' '$(RPM_TOPDIR)/SPECS/lmbench.spec'; \
	echo "make srpm: $$(ls '$(RPM_TOPDIR)'/SRPMS/lmbench-*.src.rpm)"

# rpmlint's summary line: "... checked; N errors, M warnings ...".
lmb_rpmlint = out=$$($(RPMLINT) -r '$(SRCDIR)/rpm/lmbench.rpmlintrc' --ignore-unused-rpmlintrc $(1) 2>&1) && rc=0 || rc=$$?; printf '%s\n' "$$out"; \
	errs=$$(printf '%s\n' "$$out" | sed -n 's/.* \([0-9][0-9]*\) errors*,.*/\1/p' | tail -n 1); \
	if [ -z "$$errs" ]; then echo "check-rpm: no summary line from $(RPMLINT) $(1) (status $$rc)" >&2; exit 1; fi; \
	if [ "$$errs" != 0 ]; then echo "check-rpm: $(RPMLINT) $(1): $$errs errors" >&2; exit 1; fi

check-rpm: srpm
	@set -eu; $(call lmb_rpm_tool,$(RPMLINT)); \
	t=$$(mktemp -d "$${TMPDIR:-/tmp}/lmbench-rpm.XXXXXX"); \
	trap 'trap "" HUP INT TERM; chmod -R u+w "$$t" 2>/dev/null; rm -rf "$$t"' EXIT; \
	trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM; \
	fail() { echo "check-rpm: $$*" >&2; exit 1; }; \
	srpm=$$(ls '$(RPM_TOPDIR)'/SRPMS/lmbench-*.src.rpm); \
	echo "check-rpm: rpmlint of rpm/lmbench.spec and $$srpm"; \
	$(call lmb_rpmlint,'$(SRCDIR)/rpm/lmbench.spec' "$$srpm"); \
	v=$$(sed -n 's/^Version:[[:space:]]*//p' '$(SRCDIR)/rpm/lmbench.spec'); \
	[ "$$v" = '$(BASE_VERSION)' ] || fail "rpm/lmbench.spec says Version $$v, VERSION says $(BASE_VERSION)"; \
	echo "check-rpm: rpmbuild -bb --nodeps in $$t"; \
	mkdir -p "$$t/SOURCES" "$$t/SPECS"; \
	cp '$(DIST_TARBALL)' "$$t/SOURCES/"; \
	cp '$(RPM_TOPDIR)/SPECS/lmbench.spec' "$$t/SPECS/"; \
	$(RPMBUILD) -bb --nodeps --define "_topdir $$t" --define '_docdir_fmt %%{NAME}' "$$t/SPECS/lmbench.spec" > "$$t/build.log" 2>&1 || \
		{ tail -n 60 "$$t/build.log" >&2; fail "rpmbuild -bb failed (the end of its log above)"; }; \
	grep -E '^(ok|not ok|Result:|Files=)' "$$t/build.log" | grep -v '^ok' || :; \
	rpmf=$$(ls "$$t"/RPMS/*/lmbench-[0-9]*.rpm); \
	rpm -qlp "$$rpmf" > "$$t/files"; \
	fail() { echo "check-rpm: $$*; the rpm's files:" >&2; sed 's/^/    /' "$$t/files" >&2; exit 1; }; \
	for f in /usr/bin/lmbench /usr/bin/lat_syscall /usr/bin/bw_mem /usr/bin/lmdd \
		/usr/libexec/lmbench/hello /usr/libexec/lmbench/stream /usr/libexec/lmbench/mhz \
		/usr/share/lmbench/www/URLS /usr/share/licenses/lmbench/LICENSE \
		/usr/share/doc/lmbench/README.md /usr/share/doc/lmbench/boards.md; do \
		grep -qxF "$$f" "$$t/files" || fail "$$rpmf lacks $$f"; \
	done; \
	for m in lmbench lmbench-run lat_syscall lmbench-stream; do \
		grep -Eq "^/usr/share/man/man1/$$m\.1(\.gz|\.xz|\.bz2)?$$" "$$t/files" || fail "$$rpmf lacks the man page $$m.1"; \
	done; \
	for f in /usr/bin/stream /usr/bin/mhz /usr/bin/line; do \
		if grep -qxF "$$f" "$$t/files"; then fail "$$rpmf puts $$f in bin (a short name: libexec only)"; fi; \
	done; \
	if grep -Eq '^/usr/share/man/man1/stream\.1' "$$t/files"; then fail "$$rpmf has stream.1 (ImageMagick's name)"; fi; \
	if grep -Ev '^/usr/(bin|libexec/lmbench|share/(man/man1|lmbench|doc/lmbench|licenses/lmbench)|lib/\.build-id)(/|$$)' "$$t/files"; then \
		fail "$$rpmf has the files above outside the spec's directories"; fi; \
	echo "check-rpm: $$(wc -l < "$$t/files") files, where the spec says"; \
	mkdir "$$t/root"; \
	(cd "$$t/root" && rpm2cpio "$$rpmf" | cpio -idm --quiet); \
	v=$$("$$t/root/usr/bin/lmbench" --version); \
	[ "$$v" = 'lmbench $(VERSION)' ] || fail "the rpm's lmbench says '$$v', not 'lmbench $(VERSION)'"; \
	"$$t/root/usr/bin/lmbench" lat_syscall -N 1 null 2> "$$t/err" || { cat "$$t/err" >&2; fail "the rpm's lat_syscall failed"; }; \
	grep -q '^Simple syscall: ' "$$t/err" || fail "the rpm's lat_syscall printed no classic line"; \
	echo "check-rpm: the rpm's lmbench runs: $$v"; \
	echo "check-rpm: rpmlint of the binary rpm (Debian's rpm made it: errors here are reported, not fatal)"; \
	$(RPMLINT) -r '$(SRCDIR)/rpm/lmbench.rpmlintrc' --ignore-unused-rpmlintrc "$$rpmf" || :; \
	mkdir -p '$(RPM_TOPDIR)/RPMS'; \
	cp "$$rpmf" '$(RPM_TOPDIR)/RPMS/'; \
	echo "check-rpm: ok: $(RPM_TOPDIR)/SRPMS/$${srpm##*/} and $(RPM_TOPDIR)/RPMS/$${rpmf##*/}"
