# SPDX-License-Identifier: MIT
# lmbench: a clean-room implementation of the lmbench 3 micro-benchmarks.
#
#   make                 build everything into build/
#   make check           build, then run the unit and command tests through prove
#   make check-cross     cross-build (static) for each of CROSS_TARGETS and run the
#                        command tests under qemu-user (scripts/check-cross)
#   make bench           compare our figures with independent tools, side by side
#   make install         PREFIX=/usr/local DESTDIR= (also honours CC, CFLAGS, LDFLAGS);
#                        PLAIN_NAMES=no, PLAIN_SKIP=NAMES keep short names out of bin
#   make install-strip   the same with the programs stripped ($(CROSS)strip)
#   make uninstall, make clean
#   make results         run the suite into ./results (PROFILE=quick, RUN_ARGS=...)
#   make see             print the summary of ./results (SEE_ARGS=...)
#
# WERROR=1 turns warnings into errors (CI does). JANSSON=no builds without JSON,
# JANSSON=yes fails when jansson cannot be used (default: use it when found).
# jansson is linked from libjansson.a where there is one (JANSSON_STATIC=no: the
# shared library), libtirpc is loaded by lat_rpc alone (dlopen) in a dynamic
# build: no other command's process maps them.
#
# Cross builds (doc/boards.md): CROSS=aarch64-linux-gnu- is the tool prefix: it
# takes $(CROSS)gcc and $(CROSS)ar and builds into build-aarch64-linux-gnu/.
# STATIC=1 links statically (a binary that needs nothing on the board).
# SYSROOT=DIR compiles against the target's root file system in DIR. Optional
# libraries of the target are found with pkg-config: PKG_CONFIG when given (and
# PKG_CONFIG_LIBDIR / PKG_CONFIG_SYSROOT_DIR from the environment), else
# pkg-config confined to SYSROOT, else $(CROSS)pkg-config, else Debian's
# multiarch directory /usr/lib/TRIPLET/pkgconfig; with none of them a cross
# build leaves the optional parts out rather than use the build machine's
# libraries. Every object depends on $(B)/gen/flags, so a changed compiler, flag or
# optional library rebuilds what it affects.

# The version: the file VERSION (the release; make dist writes the whole
# version string into the tarball's copy), and in a git checkout of this tree
# (its own .git, not one of a directory above) +g<commit>, .dirty with
# uncommitted changes to tracked files: 0.9.0+g7a61003.dirty.
SRCDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
BASE_VERSION := $(shell cat '$(SRCDIR)/VERSION' 2>/dev/null || echo unknown)
ifneq ($(wildcard $(SRCDIR)/.git),)
GIT_REV := $(shell git -C '$(SRCDIR)' rev-parse --short=7 HEAD 2>/dev/null)
GIT_DIRTY := $(if $(GIT_REV),$(shell git -C '$(SRCDIR)' status --porcelain --untracked-files=no 2>/dev/null | head -c 1))
endif
VERSION := $(BASE_VERSION)$(if $(GIT_REV),+g$(GIT_REV)$(if $(GIT_DIRTY),.dirty))

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/lmbench
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

CROSS ?=
SYSROOT ?=
STATIC ?=
CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=

ifneq ($(CROSS),)
ifeq ($(origin CC),default)
CC := $(CROSS)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS)ar
endif
STRIP ?= $(CROSS)strip
B ?= build-$(patsubst %-,%,$(CROSS))
else
B ?= build
STRIP ?= strip
endif

# Tests and benchmarks run on the build machine: a cross build is tested by make
# check-cross, which runs its command tests under qemu-user.
ifneq ($(CROSS),)
ifneq ($(filter check unit-tests check-asan asan-bin bench,$(MAKECMDGOALS)),)
$(error make $(filter check unit-tests check-asan asan-bin bench,$(MAKECMDGOALS)) runs on the \
	build machine, not with CROSS=$(CROSS); for a cross build use make check-cross)
endif
endif

# --- the target's optional libraries -------------------------------------------

# The pkg-config that describes the target's libraries, or empty when there is none.
ifneq ($(filter environment command line,$(origin PKG_CONFIG)),)
LMB_PKG_CONFIG := $(PKG_CONFIG)
else ifeq ($(CROSS)$(SYSROOT),)
LMB_PKG_CONFIG := pkg-config
else ifneq ($(SYSROOT),)
LMB_PKG_CONFIG := env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(or $(PKG_CONFIG_LIBDIR),$(SYSROOT)/usr/lib/$(patsubst %-,%,$(CROSS))/pkgconfig:$(SYSROOT)/usr/lib/pkgconfig:$(SYSROOT)/usr/share/pkgconfig) \
	pkg-config
else ifneq ($(PKG_CONFIG_LIBDIR),)
LMB_PKG_CONFIG := pkg-config
else
LMB_PKG_CONFIG := $(shell command -v $(CROSS)pkg-config 2>/dev/null)
# Debian's multiarch libraries of the target (dpkg --add-architecture).
LMB_MULTIARCH_PC := /usr/lib/$(patsubst %-,%,$(CROSS))/pkgconfig
ifeq ($(LMB_PKG_CONFIG),)
ifneq ($(wildcard $(LMB_MULTIARCH_PC)),)
LMB_PKG_CONFIG := env PKG_CONFIG_LIBDIR=$(LMB_MULTIARCH_PC):/usr/share/pkgconfig pkg-config
endif
endif
endif
PKG_CONFIG ?= pkg-config
LMB_STATIC_LDFLAGS := $(if $(filter-out 0 no,$(STATIC)),-static)
LMB_SYSROOT_FLAGS := $(if $(SYSROOT),--sysroot=$(SYSROOT))
LMB_PKG_LIBS_OPT := $(if $(LMB_STATIC_LDFLAGS),--static) --libs

# $(call lmb_have_pkg,PKG,HEADER,SYMBOLS[,LIBS]): "yes" when the target has the
# library: its pkg-config file is found, HEADER compiles and a program that uses
# SYMBOLS (the functions the code calls, so that a static link pulls in what they
# need) links with this build's flags (statically with STATIC=1), and with LIBS
# when given instead of what pkg-config says. Evaluated once, when needed.
lmb_have_pkg = $(if $(LMB_PKG_CONFIG),$(shell \
	$(LMB_PKG_CONFIG) --exists $(1) 2>/dev/null || exit 0; \
	mkdir -p $(B)/gen && \
	printf '#include <%s>\nint main(void)\n{\n    void *volatile p;\n   %s\n    (void)p;\n    return 0;\n}\n' \
		'$(2)' '$(foreach f,$(3), p = (void *)&$(f);)' > $(B)/gen/probe-$(1).c && \
	$(CC) $(LMB_SYSROOT_FLAGS) $$($(LMB_PKG_CONFIG) --cflags $(1)) $(CFLAGS) \
		-o $(B)/gen/probe-$(1) $(B)/gen/probe-$(1).c $(LMB_STATIC_LDFLAGS) $(LDFLAGS) \
		$(if $(4),$(4),$$($(LMB_PKG_CONFIG) $(LMB_PKG_LIBS_OPT) $(1))) >/dev/null 2>&1 && echo yes; \
	rm -f $(B)/gen/probe-$(1) $(B)/gen/probe-$(1).c))

# jansson (JSON output): JANSSON=no leaves it out, JANSSON=yes requires it.
ifeq ($(JANSSON),no)
HAVE_JANSSON :=
else
HAVE_JANSSON = $(eval HAVE_JANSSON := $(call lmb_have_pkg,jansson,jansson.h,json_object json_dumpf json_loads))$(call lmb_require,JANSSON,jansson)$(HAVE_JANSSON)
endif
lmb_require = $(if $(filter yes,$($(1))),$(if $(filter yes,$(HAVE_$(1))),,$(error $(1)=yes \
	but $(2) cannot be used for this target (pkg-config: $(or $(LMB_PKG_CONFIG),none for $(CROSS)); \
	set PKG_CONFIG, PKG_CONFIG_LIBDIR or SYSROOT))))
JSON_CFLAGS = $(if $(HAVE_JANSSON),-DLMB_HAVE_JANSSON $(shell $(LMB_PKG_CONFIG) --cflags jansson))
# A dynamic build links jansson's static archive (libjansson.a) where the target
# has one, so that no process of lmbench maps libjansson (the process lat_proc
# forks stays as small as a C program); else the shared library.
# JANSSON_STATIC=no always links the shared library.
JSON_STATIC_LIBS = $(patsubst -ljansson,-l:libjansson.a,$(shell $(LMB_PKG_CONFIG) --static --libs jansson))
HAVE_JANSSON_A = $(eval HAVE_JANSSON_A := $(if $(and $(HAVE_JANSSON),$(if $(LMB_STATIC_LDFLAGS),,yes),$(filter-out no,$(or $(JANSSON_STATIC),yes))),$(call lmb_have_pkg,jansson,jansson.h,json_object json_dumpf json_loads,$(JSON_STATIC_LIBS))))$(HAVE_JANSSON_A)
JSON_LIBS = $(if $(HAVE_JANSSON),$(if $(HAVE_JANSSON_A),$(JSON_STATIC_LIBS),$(shell $(LMB_PKG_CONFIG) $(LMB_PKG_LIBS_OPT) jansson)))

WARN := -Wall -Wextra $(if $(WERROR),-Werror)
LMB_CPPFLAGS = -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread -Isrc -I$(B)/gen $(LMB_SYSROOT_FLAGS) $(JSON_CFLAGS)
ALL_CFLAGS = $(LMB_CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP
LMB_LDFLAGS = $(LMB_SYSROOT_FLAGS) $(LMB_STATIC_LDFLAGS)
LIBS = $(JSON_LIBS) $(TIRPC_LIBS) -lm -pthread

LIB_SRCS := $(sort $(wildcard src/lib/*.c))
BENCH_SRCS := $(sort $(wildcard src/bench/*.c))
SUITE_SRCS := $(sort $(wildcard src/suite/*.c))
BENCH_NAMES := $(notdir $(BENCH_SRCS:.c=))
# make install puts every command name in bin, as lmbench 3 did. The names that
# do not start with bw_ or lat_ (nor lmdd) are short words another package may
# also use (ImageMagick's stream): they are links in libexec/lmbench as well, and
# PLAIN_NAMES=no leaves them out of bin (`lmbench NAME` still runs each),
# PLAIN_SKIP=NAMES leaves those names out. A file in bin that is not lmbench's
# link is never overwritten (scripts/install-links).
PLAIN_NAMES ?= yes
PLAIN_SKIP ?=
ifeq ($(filter yes no,$(PLAIN_NAMES)),)
$(error PLAIN_NAMES must be yes or no, not '$(PLAIN_NAMES)')
endif
ifneq ($(filter-out $(BENCH_NAMES),$(PLAIN_SKIP)),)
$(error PLAIN_SKIP: not a command name: $(filter-out $(BENCH_NAMES),$(PLAIN_SKIP)))
endif
LIBEXEC_NAMES := $(filter-out bw_% lat_% lmdd,$(BENCH_NAMES))
BIN_NAMES = $(filter-out $(PLAIN_SKIP) $(if $(filter no,$(PLAIN_NAMES)),$(LIBEXEC_NAMES)),$(BENCH_NAMES))

LIB_OBJS := $(LIB_SRCS:%.c=$(B)/obj/%.o)
MAIN_OBJS := $(patsubst %.c,$(B)/obj/%.o,src/main.c src/registry.c $(BENCH_SRCS) $(SUITE_SRCS))

# The suite's modules that unit tests reach (no verb, nothing of the registry).
SUITE_LIB_SRCS := $(addprefix src/suite/,results.c read_json.c import3.c summary.c memlat.c \
                    runconf.c util.c cmpstat.c cmprows.c progress.c scalecurve.c)

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_TESTS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%.t)
ASAN_TESTS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/asan/%.t)
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_LIB_OBJS := $(LIB_SRCS:%.c=$(B)/asan/%.o)
# The unit tests run on the build machine only (cmocka of the build machine).
CMOCKA_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)

MAN_PAGES := $(sort $(wildcard doc/*.1))
LINKS := $(BENCH_NAMES:%=$(B)/bin/%)
PROGS := $(B)/bin/lmbench $(LINKS) $(B)/libexec/lmbench/hello
# Links left in bin by a command whose file is gone.
STALE_LINKS = $(filter-out $(LINKS),$(shell find $(B)/bin -maxdepth 1 -type l 2>/dev/null))
# What the generated headers are; every compile waits for them (the .d files
# then tell which object really includes which).
GEN_HEADERS := $(B)/gen/registry.inc $(B)/gen/version.h
FLAGS := $(B)/gen/flags

CROSS_TARGETS ?= aarch64-linux-gnu arm-linux-gnueabihf riscv64-linux-gnu arm-linux-gnueabi

.PHONY: all check check-asan asan-bin check-cross unit-tests bench install install-strip uninstall \
	clean FORCE fuzz results see
.DELETE_ON_ERROR:

all: $(PROGS)
	$(if $(STALE_LINKS),rm -f $(STALE_LINKS))

# libtirpc for lat_rpc (TIRPC=no builds without it: lat_rpc then reports
# "skipped: built without libtirpc"). Only lat_rpc.o sees its flags; a stamp
# rebuilds it when they change.
# Found for the target as jansson is (lmb_have_pkg); TIRPC=yes requires it.
# A dynamic build does not link it: lat_rpc loads it (dlopen of its soname, read
# from the library here, libtirpc.so.3 when it cannot be) when it runs, so that
# no other command maps libtirpc and the Kerberos libraries it pulls in. A static
# build (STATIC=1) links it, and so do the sanitized binary and the fuzz targets.
ifeq ($(TIRPC),no)
HAVE_TIRPC :=
else
HAVE_TIRPC = $(eval HAVE_TIRPC := $(call lmb_have_pkg,libtirpc,rpc/rpc.h,svc_register svc_getreqset svc_sendreply clnt_vc_create clnt_dg_create pmap_set))$(call lmb_require,TIRPC,libtirpc)$(HAVE_TIRPC)
endif
TIRPC_SONAME = $(eval TIRPC_SONAME := $(or $(shell f=$$($(CC) $(LMB_SYSROOT_FLAGS) -print-file-name=libtirpc.so) && \
	$(CROSS)readelf -d "$$f" 2>/dev/null | sed -n 's/.*(SONAME)[^[]*\[\(libtirpc[^]]*\)\].*/\1/p'),libtirpc.so.3))$(TIRPC_SONAME)
TIRPC_PKG_CFLAGS = $(shell $(LMB_PKG_CONFIG) --cflags libtirpc)
TIRPC_PKG_LIBS = $(shell $(LMB_PKG_CONFIG) $(LMB_PKG_LIBS_OPT) libtirpc)
TIRPC_CFLAGS = $(if $(HAVE_TIRPC),-DLMB_HAVE_TIRPC $(if $(LMB_STATIC_LDFLAGS),-DLMB_TIRPC_LINKED,\
	-DLMB_TIRPC_SONAME='"$(TIRPC_SONAME)"') $(TIRPC_PKG_CFLAGS))
TIRPC_LIBS = $(if $(HAVE_TIRPC),$(if $(LMB_STATIC_LDFLAGS),$(TIRPC_PKG_LIBS),$(LMB_DL_LIBS)))
# The sanitized binary (make check-asan) and the fuzz targets link it: ASan's
# interceptors of the xdr functions look the real ones up at start-up, and find
# none in a library loaded later.
TIRPC_LINKED_CFLAGS = $(if $(HAVE_TIRPC),-DLMB_HAVE_TIRPC -DLMB_TIRPC_LINKED $(TIRPC_PKG_CFLAGS))
TIRPC_LINKED_LIBS = $(if $(HAVE_TIRPC),$(TIRPC_PKG_LIBS))
# -ldl where dlopen is not in the C library (glibc before 2.34).
LMB_DL_LIBS = $(eval LMB_DL_LIBS := $(shell mkdir -p $(B)/gen && \
	printf '#include <dlfcn.h>\nint main(void)\n{\n    return dlopen("x", RTLD_LAZY) != 0;\n}\n' > $(B)/gen/probe-dl.c && \
	{ $(CC) $(LMB_SYSROOT_FLAGS) $(CFLAGS) -o $(B)/gen/probe-dl $(B)/gen/probe-dl.c $(LDFLAGS) >/dev/null 2>&1 || echo -ldl; }; \
	rm -f $(B)/gen/probe-dl $(B)/gen/probe-dl.c))$(LMB_DL_LIBS)
$(B)/obj/src/bench/lat_rpc.o: ALL_CFLAGS += $(TIRPC_CFLAGS)
$(B)/asan/src/bench/lat_rpc.o: ALL_CFLAGS += $(TIRPC_LINKED_CFLAGS)
$(B)/obj/src/bench/lat_rpc.o $(B)/asan/src/bench/lat_rpc.o: $(B)/gen/tirpc.flags
$(B)/gen/tirpc.flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call lmb_q,$(TIRPC_CFLAGS)) $(call lmb_q,$(TIRPC_LINKED_CFLAGS) $(TIRPC_LINKED_LIBS)) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# lmhttp's static document tree, generated (no binary files in the source) by
# running the program just built: in a cross build under LMB_RUN, qemu-user for
# the target when it is installed (the tree is the same on every machine). With
# no way to run it, a cross build leaves the tree out (make install says so;
# `lmbench lmhttp -G DIR` on the board makes it there).
WWW := $(B)/share/lmbench/www
ifneq ($(CROSS),)
LMB_QEMU_ARCH := $(patsubst arm%,arm,$(firstword $(subst -, ,$(CROSS))))
LMB_RUN ?= $(firstword $(shell command -v qemu-$(LMB_QEMU_ARCH)-static qemu-$(LMB_QEMU_ARCH) 2>/dev/null))
LMB_CAN_RUN := $(if $(LMB_RUN),yes)
else
LMB_RUN ?=
LMB_CAN_RUN := yes
endif
ifeq ($(LMB_CAN_RUN),yes)
all: $(WWW)/URLS
endif
$(WWW)/URLS: $(B)/bin/lmbench src/lib/http.c
	@rm -rf $(WWW)
	@mkdir -p $(WWW)
	$(LMB_RUN) $(B)/bin/lmbench lmhttp -G $(WWW)
# The sanitized binary (make check-asan) finds the same tree next to it.
asan-bin: $(B)/asan/share/lmbench/www/URLS
$(B)/asan/share/lmbench/www/URLS: $(WWW)/URLS
	@rm -rf $(@D)
	@mkdir -p $(@D)
	cp -R $(WWW)/. $(@D)/

# make fuzz: libFuzzer (clang) on every reader of outside data, a bounded run
# each (FUZZ_SECONDS, default 10). Two kinds of target:
#   tests/fuzz/fuzz_NAME.c   includes src/bench/NAME.c to reach a server's static
#                            request decoders (NAME is a benchmark);
#   tests/fuzz/read_NAME.c   a reader in src/suite (results files, configs),
#                            linked with the suite's reader sources.
# tests/fuzz/seeds/TARGET/ (if there) seeds TARGET's corpus; the corpus itself
# grows under $(B)/fuzz/corpus-TARGET. A crash leaves $(B)/fuzz/TARGET-crash-*
# and fails the make.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10
FUZZ_FLAGS = $(LMB_CPPFLAGS) $(TIRPC_LINKED_CFLAGS) -g -O1 -fsanitize=fuzzer,address,undefined
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c) \
                  $(wildcard tests/fuzz/read_*.c)))
# The library and suite sources are compiled once for all targets.
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(B)/fuzz/obj/%.o)
FUZZ_SUITE_OBJS := $(SUITE_LIB_SRCS:%.c=$(B)/fuzz/obj/%.o)
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_SUITE_OBJS)
$(B)/fuzz/obj/%.o: %.c $(B)/gen/version.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -MMD -MP -c -o $@ $<
$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c src/bench/%.c $(FUZZ_LIB_OBJS) $(B)/gen/version.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_LIB_OBJS) $(LIBS) $(TIRPC_LINKED_LIBS)
$(B)/fuzz/read_%: tests/fuzz/read_%.c $(FUZZ_SUITE_OBJS) $(FUZZ_LIB_OBJS) $(B)/gen/version.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SUITE_OBJS) $(FUZZ_LIB_OBJS) $(LIBS) $(TIRPC_LINKED_LIBS)
fuzz: $(FUZZ_TARGETS)
	@for t in $(FUZZ_TARGETS); do \
		n=$${t##*/}; c=$(B)/fuzz/corpus-$$n; \
		mkdir -p $$c; \
		if [ -d tests/fuzz/seeds/$$n ]; then cp -p tests/fuzz/seeds/$$n/* $$c/ 2>/dev/null || true; fi; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s ($$(ls $$c | wc -l) inputs in the corpus)"; \
		$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -artifact_prefix=$(B)/fuzz/$$n- $$c \
			2>$(B)/fuzz/$$n.log || { tail -n 40 $(B)/fuzz/$$n.log; exit 1; }; \
		grep -E '^#[0-9]+.*DONE' $(B)/fuzz/$$n.log | tail -n 1; \
	done

# The command list, generated from the files in src/bench (rewritten only when
# it changes, so that nothing rebuilds needlessly).
$(B)/gen/registry.inc: FORCE
	@mkdir -p $(@D)
	@{ $(foreach n,$(BENCH_NAMES),echo 'LMB_BENCH($(n))';) } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# The version and build flags the binary reports, regenerated when they change.
$(B)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@printf '#define LMB_VERSION "%s"\n#define LMB_CFLAGS_STR "%s"\n' '$(VERSION)' '$(CFLAGS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# Everything that decides what the compiler and linker make: rewritten when it
# changes, and every object, library and program depends on it.
lmb_q = '$(subst ','\'',$(strip $(1)))'
$(FLAGS): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call lmb_q,CC=$(CC)) $(call lmb_q,AR=$(AR)) \
		$(call lmb_q,CFLAGS=$(ALL_CFLAGS)) $(call lmb_q,LDFLAGS=$(LMB_LDFLAGS) $(LDFLAGS)) \
		$(call lmb_q,LIBS=$(LIBS)) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/obj/%.o: %.c $(FLAGS) | $(GEN_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/liblmb.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/bin/lmbench: $(MAIN_OBJS) $(B)/liblmb.a $(FLAGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LMB_LDFLAGS) $(LDFLAGS) -o $@ $(MAIN_OBJS) $(B)/liblmb.a $(LIBS)

$(LINKS): $(B)/bin/lmbench
	@ln -sf lmbench $@

$(B)/libexec/lmbench/hello: $(B)/obj/src/helpers/hello.o $(FLAGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LMB_LDFLAGS) $(LDFLAGS) -o $@ $<

# --- tests ---------------------------------------------------------------------

$(B)/libsuite.a: $(SUITE_LIB_SRCS:%.c=$(B)/obj/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/asan/libsuite.a: $(SUITE_LIB_SRCS:%.c=$(B)/asan/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/tests/unit/%.t: tests/unit/%.c $(B)/libsuite.a $(B)/liblmb.a $(FLAGS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -o $@ $< $(B)/libsuite.a $(B)/liblmb.a $(CMOCKA_LIBS) $(LIBS) $(LDFLAGS)

$(B)/asan/%.o: %.c $(FLAGS) | $(GEN_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) -c -o $@ $<

$(B)/asan/liblmb.a: $(ASAN_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/tests/asan/%.t: tests/unit/%.c $(B)/asan/libsuite.a $(B)/asan/liblmb.a $(FLAGS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(CMOCKA_CFLAGS) -o $@ $< $(B)/asan/libsuite.a \
		$(B)/asan/liblmb.a $(CMOCKA_LIBS) $(LIBS) $(LDFLAGS)

unit-tests: $(UNIT_TESTS) $(ASAN_TESTS)

# The whole binary, benchmark files included, under ASan+UBSan, for the
# command tests (make check-asan; CI runs it).
ASAN_MAIN_OBJS := $(MAIN_OBJS:$(B)/obj/%=$(B)/asan/%)
ASAN_PROGS := $(B)/asan/bin/lmbench $(BENCH_NAMES:%=$(B)/asan/bin/%) \
	$(B)/asan/libexec/lmbench/hello

$(B)/asan/bin/lmbench: $(ASAN_MAIN_OBJS) $(B)/asan/liblmb.a $(FLAGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $(ASAN_MAIN_OBJS) $(B)/asan/liblmb.a $(LIBS) \
		$(TIRPC_LINKED_LIBS)

$(BENCH_NAMES:%=$(B)/asan/bin/%): $(B)/asan/bin/lmbench
	@ln -sf lmbench $@

$(B)/asan/libexec/lmbench/hello: $(B)/libexec/lmbench/hello
	@mkdir -p $(@D)
	cp $< $@

asan-bin: $(ASAN_PROGS)

# Command tests find the build through LMBENCH_BUILD; unit tests speak TAP.
# tests/scripts holds the tests of the build machinery (install, install-deps).
# Two test files at a time (PROVE_JOBS): the tests check formats and statuses,
# never speed, and each makes its own temporary directory, so they may share
# the CPUs; PROVE_JOBS= runs them one by one.
PROVE_JOBS ?= -j2
check: all unit-tests
	LMBENCH_BUILD=$(abspath $(B)) CMOCKA_MESSAGE_OUTPUT=TAP \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	prove $(PROVE_JOBS) --exec '' $(UNIT_TESTS) $(ASAN_TESTS) $(sort $(wildcard tests/cli/*.t)) \
		$(sort $(wildcard tests/scripts/*.t))

# Static builds for each target into build-TARGET/, command tests under qemu-user.
check-cross:
	+@MAKE='$(MAKE)' scripts/check-cross $(CROSS_TARGETS)

# The command tests again, on the sanitized binary.
check-asan: asan-bin
	LMBENCH_BUILD=$(abspath $(B)/asan) LMBENCH_SANITIZED=1 \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	prove --exec '' $(sort $(wildcard tests/cli/*.t))

bench: all
	B=$(B) scripts/bench

# --- install -------------------------------------------------------------------

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(B)/bin/lmbench $(DESTDIR)$(BINDIR)/lmbench
	@sh scripts/install-links install $(call lmb_q,$(DESTDIR)) $(call lmb_q,$(BINDIR)) \
		$(call lmb_q,$(BIN_NAMES)) $(call lmb_q,$(BENCH_NAMES))
	$(foreach n,$(LIBEXEC_NAMES),ln -sf $(BINDIR)/lmbench $(DESTDIR)$(LIBEXECDIR)/$(n);)
	install -m 755 $(B)/libexec/lmbench/hello $(DESTDIR)$(LIBEXECDIR)/hello
	$(if $(MAN_PAGES),install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/)
	@if [ -f $(WWW)/URLS ]; then \
		echo "install the document tree into $(DESTDIR)$(PREFIX)/share/lmbench/www"; \
		install -d $(DESTDIR)$(PREFIX)/share/lmbench/www/pics $(DESTDIR)$(PREFIX)/share/lmbench/www/docs && \
		cd $(WWW) && for f in URLS $$(cat URLS); do \
			install -m 644 "./$${f#/}" "$(DESTDIR)$(PREFIX)/share/lmbench/www/$${f#/}" || exit 1; done; \
	else \
		echo "note: no document tree for lat_http (nothing to run $(B)/bin/lmbench with);" \
			"make it on the board: lmbench lmhttp -G $(PREFIX)/share/lmbench/www"; \
	fi

# For boards with little room: the binaries without their symbols.
install-strip: install
	$(STRIP) $(DESTDIR)$(BINDIR)/lmbench $(DESTDIR)$(LIBEXECDIR)/hello

# Removes lmbench's files, and the directories that are lmbench's own
# (libexec/lmbench, share/lmbench) when empty; under a DESTDIR (a staging root)
# also every directory left empty, up to DESTDIR. Without DESTDIR, bin and
# share/man/man1 stay even when empty: make cannot know who made them.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lmbench
	@sh scripts/install-links uninstall $(call lmb_q,$(DESTDIR)) $(call lmb_q,$(BINDIR)) \
		$(call lmb_q,$(BENCH_NAMES))
	rm -f $(LIBEXEC_NAMES:%=$(DESTDIR)$(LIBEXECDIR)/%) $(DESTDIR)$(LIBEXECDIR)/hello
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES)))
	rm -rf $(DESTDIR)$(PREFIX)/share/lmbench/www
	@sh scripts/install-links prune $(call lmb_q,$(DESTDIR)) \
		$(if $(filter %/lmbench,$(LIBEXECDIR)),$(call lmb_q,$(LIBEXECDIR))) \
		$(call lmb_q,$(PREFIX)/share/lmbench) -- $(call lmb_q,$(LIBEXECDIR)) \
		$(call lmb_q,$(BINDIR)) $(call lmb_q,$(MANDIR)/man1)

# --- lmbench 3's top-level targets ------------------------------------------------

# make results: the suite, as `lmbench run` runs it (its default profile, results
# in ./results); PROFILE=quick|default|full, RUN_ARGS for any other option of run
# (RUN_ARGS='-o DIR', RUN_ARGS=--resume). make see: the summary page of ./results
# (SEE_ARGS: see's options and files instead). Both always run (.PHONY): the
# results directory is their output, never a reason to do nothing.
results: all
	$(B)/bin/lmbench run $(if $(PROFILE),--profile $(call lmb_q,$(PROFILE))) $(RUN_ARGS)

see: all
	$(B)/bin/lmbench see $(SEE_ARGS)

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# Releases and packages (make dist, make static-release, make deb, make rpm
# and their checks): one file each under mk/.
include $(sort $(wildcard $(SRCDIR)/mk/*.mk))
