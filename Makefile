# SPDX-License-Identifier: MIT
# lmbench: a clean-room implementation of the lmbench 3 micro-benchmarks.
#
#   make                 build everything into build/
#   make check           build, then run the unit and command tests through prove
#   make bench           compare our figures with independent tools, side by side
#   make install         PREFIX=/usr/local DESTDIR= (also honours CC, CFLAGS, LDFLAGS)
#   make uninstall, make clean
#
# WERROR=1 turns warnings into errors (CI does). JANSSON=no builds without JSON.

VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/lmbench
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
PKG_CONFIG ?= pkg-config
B ?= build

ifneq ($(JANSSON),no)
HAVE_JANSSON := $(shell $(PKG_CONFIG) --exists jansson 2>/dev/null && echo yes)
endif
ifeq ($(HAVE_JANSSON),yes)
JSON_CFLAGS := -DLMB_HAVE_JANSSON $(shell $(PKG_CONFIG) --cflags jansson)
JSON_LIBS := $(shell $(PKG_CONFIG) --libs jansson)
endif

WARN := -Wall -Wextra $(if $(WERROR),-Werror)
LMB_CPPFLAGS := -std=c11 -D_GNU_SOURCE -pthread -Isrc -I$(B)/gen $(JSON_CFLAGS)
ALL_CFLAGS = $(LMB_CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP
LIBS := $(JSON_LIBS) -lm -pthread

LIB_SRCS := $(sort $(wildcard src/lib/*.c))
BENCH_SRCS := $(sort $(wildcard src/bench/*.c))
SUITE_SRCS := $(sort $(wildcard src/suite/*.c))
BENCH_NAMES := $(notdir $(BENCH_SRCS:.c=))
# Commands users call directly go to bin; helpers the runner calls to libexec.
BIN_NAMES := $(filter bw_% lat_%,$(BENCH_NAMES))
LIBEXEC_NAMES := $(filter-out $(BIN_NAMES),$(BENCH_NAMES))

LIB_OBJS := $(LIB_SRCS:%.c=$(B)/obj/%.o)
MAIN_OBJS := $(patsubst %.c,$(B)/obj/%.o,src/main.c src/registry.c $(BENCH_SRCS) $(SUITE_SRCS))

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_TESTS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%.t)
ASAN_TESTS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/asan/%.t)
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_LIB_OBJS := $(LIB_SRCS:%.c=$(B)/asan/%.o)
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)

MAN_PAGES := $(sort $(wildcard doc/*.1))
LINKS := $(BENCH_NAMES:%=$(B)/bin/%)
PROGS := $(B)/bin/lmbench $(LINKS) $(B)/libexec/lmbench/hello

.PHONY: all check check-asan asan-bin unit-tests bench install uninstall clean FORCE
.DELETE_ON_ERROR:

all: $(PROGS)

# The command list, generated from the files in src/bench (rewritten only when
# it changes, so that nothing rebuilds needlessly).
$(B)/gen/registry.inc: FORCE
	@mkdir -p $(@D)
	@{ $(foreach n,$(BENCH_NAMES),echo 'LMB_BENCH($(n))';) } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/obj/src/main.o $(B)/obj/src/registry.o $(B)/obj/src/suite/run.o: $(B)/gen/registry.inc

# The version and build flags the binary reports, regenerated when they change.
$(B)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@printf '#define LMB_VERSION "%s"\n#define LMB_CFLAGS_STR "%s"\n' '$(VERSION)' '$(CFLAGS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/obj/src/main.o $(B)/obj/src/lib/report.o $(B)/asan/src/lib/report.o: $(B)/gen/version.h

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/liblmb.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/bin/lmbench: $(MAIN_OBJS) $(B)/liblmb.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(MAIN_OBJS) $(B)/liblmb.a $(LIBS)

$(LINKS): $(B)/bin/lmbench
	@ln -sf lmbench $@

$(B)/libexec/lmbench/hello: $(B)/obj/src/helpers/hello.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

# --- tests ---------------------------------------------------------------------

$(B)/tests/unit/%.t: tests/unit/%.c $(B)/liblmb.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -o $@ $< $(B)/liblmb.a $(CMOCKA_LIBS) $(LIBS) $(LDFLAGS)

$(B)/asan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) -c -o $@ $<

$(B)/asan/liblmb.a: $(ASAN_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/tests/asan/%.t: tests/unit/%.c $(B)/asan/liblmb.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(CMOCKA_CFLAGS) -o $@ $< $(B)/asan/liblmb.a \
		$(CMOCKA_LIBS) $(LIBS) $(LDFLAGS)

unit-tests: $(UNIT_TESTS) $(ASAN_TESTS)

# The whole binary, benchmark files included, under ASan+UBSan, for the
# command tests (make check-asan; CI runs it).
ASAN_MAIN_OBJS := $(MAIN_OBJS:$(B)/obj/%=$(B)/asan/%)
ASAN_PROGS := $(B)/asan/bin/lmbench $(BENCH_NAMES:%=$(B)/asan/bin/%) \
	$(B)/asan/libexec/lmbench/hello

$(B)/asan/src/main.o $(B)/asan/src/registry.o $(B)/asan/src/suite/run.o: $(B)/gen/registry.inc
$(B)/asan/src/main.o: $(B)/gen/version.h

$(B)/asan/bin/lmbench: $(ASAN_MAIN_OBJS) $(B)/asan/liblmb.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $(ASAN_MAIN_OBJS) $(B)/asan/liblmb.a $(LIBS)

$(BENCH_NAMES:%=$(B)/asan/bin/%): $(B)/asan/bin/lmbench
	@ln -sf lmbench $@

$(B)/asan/libexec/lmbench/hello: $(B)/libexec/lmbench/hello
	@mkdir -p $(@D)
	cp $< $@

asan-bin: $(ASAN_PROGS)

# Command tests find the build through LMBENCH_BUILD; unit tests speak TAP.
check: all unit-tests
	LMBENCH_BUILD=$(abspath $(B)) CMOCKA_MESSAGE_OUTPUT=TAP \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	prove --exec '' $(UNIT_TESTS) $(ASAN_TESTS) $(sort $(wildcard tests/cli/*.t))

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
	$(foreach n,$(BIN_NAMES),ln -sf lmbench $(DESTDIR)$(BINDIR)/$(n);)
	$(foreach n,$(LIBEXEC_NAMES),ln -sf $(BINDIR)/lmbench $(DESTDIR)$(LIBEXECDIR)/$(n);)
	install -m 755 $(B)/libexec/lmbench/hello $(DESTDIR)$(LIBEXECDIR)/hello
	$(if $(MAN_PAGES),install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lmbench $(BIN_NAMES:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(LIBEXEC_NAMES:%=$(DESTDIR)$(LIBEXECDIR)/%) $(DESTDIR)$(LIBEXECDIR)/hello
	rm -f $(notdir $(MAN_PAGES):%=$(DESTDIR)$(MANDIR)/man1/%)
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
