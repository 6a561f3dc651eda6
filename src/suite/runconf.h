// SPDX-License-Identifier: MIT
/* The settings of a suite run: what lmbench 3's configuration asked, as one
 * struct read from a key=value config file (lmbench 3's keys where it had one),
 * then from `lmbench run`'s options, and written by `lmbench config`. */
#ifndef LMB_SUITE_RUNCONF_H
#define LMB_SUITE_RUNCONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* lmbench 3's per-benchmark switches (BENCHMARK_<name>) that name steps of
 * the plan, in lmbench 3's order; lmb_sconf_bench_on() says whether one runs. */
#define LMB_SWITCHES 17
extern const char *const lmb_sconf_switch_names[LMB_SWITCHES];

/* Keys of a config file whose values are checked by lmb_sconf_check (their
 * line is kept so that the message names it). */
enum { LMB_SCL_SCHED, LMB_SCL_FSDIR, LMB_SCL_FILE, LMB_SCL_ENOUGH, LMB_SCL_N };

struct lmb_sconf {
    char profile[16];          /* PROFILE: quick, default, full */
    unsigned parallel;         /* SYNC_MAX (lmbench 3) or PARALLEL: copies, -P */
    char sched[256];           /* LMBENCH_SCHED: DEFAULT, SINGLE, BALANCED, UNIQUE, CUSTOM "list" */
    char cpus[256];            /* CPUS: --cpus for every step, "" none */
    uint64_t mb;               /* MB: largest memory working set in MiB; 0: the profile's */
    char fsdir[1024];          /* FSDIR: where file system benchmarks make their files */
    char file[1024];           /* FILE: the scratch file's path (a unique suffix is
                                  added), "" a name in FSDIR */
    char remote[512];          /* REMOTE: hosts for the network benchmarks, blank-separated */
    char ssh[512];             /* SSH: the ssh command and its options, blank-separated
                                  words (default "ssh"; BatchMode=yes is added) */
    char remote_lmbench[1024]; /* REMOTE_LMBENCH: lmbench on the remote hosts (default
                                  "lmbench": found on their PATH) */
    bool hardware, os, network;/* BENCHMARK_HARDWARE, BENCHMARK_OS, BENCHMARK_NETWORK */
    signed char bench[LMB_SWITCHES]; /* BENCHMARK_<switch>: -1 unset, 0 NO, 1 YES */
    char enough[32];           /* ENOUGH: microseconds per timed interval, "" automatic */
    unsigned repetitions;      /* REPETITIONS: -N of every step, 0: the profile's */
    double timeout_s;          /* TIMEOUT: seconds a step may take, 0: the profile's */
    /* What came from the config file (lmb_sconf_read), for the run's record: */
    char source[1024];         /* its path, "" when there was none */
    char used[8192];           /* "KEY=VALUE\n" for every key used, in file order */
    char ignored[1024];        /* lmbench 3's keys with no equivalent, ", "-separated */
    unsigned line[LMB_SCL_N];  /* the line of FSDIR, FILE... in source, 0: not from it */
};

#define LMB_PROFILES "quick, default or full"

/* The most hosts REMOTE may name. */
#define LMB_REMOTE_MAX_HOSTS 16

/* The most words SSH (the ssh command and its options) may have. */
#define LMB_SSH_MAX_WORDS 24

/* The longest line of a config file, in bytes (its size is at most
 * LMB_INPUT_CONFIG_MAX, lib/input.h: 1 MiB). */
#define LMB_SCONF_LINE_MAX 65536

void lmb_sconf_defaults(struct lmb_sconf *c);

/* Sets KEY to VALUE (quotes around VALUE already removed). Returns 0; 1 when the
 * key is an lmbench 3 key this lmbench accepts and does not use; -1 with a
 * message for an unknown key or a bad value. An empty value is the default
 * (BENCHMARK_<switch>: its group decides). */
int lmb_sconf_set(struct lmb_sconf *c, const char *key, const char *value, char *err,
                  size_t errlen);

/* Reads a config file as lmbench 3's config-run wrote it, a shell fragment:
 * KEY=VALUE assignments (several on a line, `;` between them, `export` before
 * them or alone), values quoted as the shell does ('...', "...", \), $KEY and
 * ${KEY} of keys set before (or of the environment), # comments, blank lines.
 * The file must be a regular file of at most 1 MiB (LMB_INPUT_CONFIG_MAX) with
 * lines of at most LMB_SCONF_LINE_MAX bytes, text: a control character other
 * than a tab (or a CR before the newline) is an error naming its line.
 * lmbench 3's keys without an equivalent are kept in c->ignored; what was used
 * in c->used. When the file sets BENCHMARK_OS and not BENCHMARK_NETWORK, the
 * network group follows BENCHMARK_OS (lmbench 3 counted the network benchmarks
 * among the OS ones); a group switched off with some of its benchmarks
 * switched on runs those only. Returns 0, or -1 with every problem of the
 * file ("FILE:LINE: message; FILE:LINE: ..."): unknown keys, bad values of
 * the keys it uses, lines that are not assignments. */
int lmb_sconf_read(struct lmb_sconf *c, const char *path, char *err, size_t errlen);

/* Prints "PROG: FILE: ignored (no equivalent): KEY, KEY..." once on f when the
 * file read had such keys. */
void lmb_sconf_report(const struct lmb_sconf *c, const char *prog, FILE *f);

/* Whether the steps of lmbench 3's BENCHMARK_<name> run (name NULL: a step of
 * no switch): not when the switch is NO. */
bool lmb_sconf_bench_on(const struct lmb_sconf *c, const char *name);

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
/* Adds to a run's "config" object what lmb_sconf_json_get reads back:
 * "file" (FILE or null), "ssh" and "remote_lmbench" (SSH, REMOTE_LMBENCH),
 * "benchmarks_off" (the switches that are NO) and
 * "config_file" ({"path", "used": {KEY: VALUE...}, "ignored": [KEY...]} or
 * null). */
void lmb_sconf_json_put(const struct lmb_sconf *c, json_t *o);
void lmb_sconf_json_get(struct lmb_sconf *c, const json_t *o);
#endif

/* Checks what the values mean together and here: the placement parses, FSDIR is
 * a writable directory, ENOUGH is a number the harness accepts. 0 or -1. */
int lmb_sconf_check(const struct lmb_sconf *c, char *err, size_t errlen);

/* Writes the settings as a config file `lmbench run -c` reads. Returns 0 or -1. */
int lmb_sconf_write(const struct lmb_sconf *c, FILE *f, const char *comment);

/* The profile's largest memory size in MiB when MB is not set, bounded by half
 * of the physical memory. */
uint64_t lmb_sconf_mb(const struct lmb_sconf *c);

#endif
