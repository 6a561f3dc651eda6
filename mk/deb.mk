# SPDX-License-Identifier: MIT
# The Debian package (debian/, doc/debian.md):
#   make deb         builds it in a temporary copy of the tree with
#                    dpkg-buildpackage -us -uc -b; the .deb files, .buildinfo
#                    and .changes go into DEB_DIR (release/deb)
#   make check-deb   as root: builds it, runs lintian (fails on errors), installs
#                    it with apt-get, runs debian/tests/smoke, removes it with
#                    apt-get remove --purge and checks that nothing is left
# scripts/install-deps --packaging installs the tools they need.
DEB_DIR ?= $(SRCDIR)/release/deb

.PHONY: deb check-deb
deb:
	@sh $(call lmb_q,$(SRCDIR)/debian/make-deb) build $(call lmb_q,$(SRCDIR)) \
		$(call lmb_q,$(DEB_DIR)) $(call lmb_q,$(VERSION))

check-deb:
	@sh $(call lmb_q,$(SRCDIR)/debian/make-deb) check $(call lmb_q,$(SRCDIR)) \
		$(call lmb_q,$(DEB_DIR)) $(call lmb_q,$(VERSION))
