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

struct lmb_sconf {
    char profile[16];          /* PROFILE: quick, default, full */
    unsigned parallel;         /* SYNC_MAX (lmbench 3) or PARALLEL: copies, -P */
    char sched[256];           /* LMBENCH_SCHED: DEFAULT, SINGLE, BALANCED, UNIQUE, CUSTOM "list" */
    char cpus[256];            /* CPUS: --cpus for every step, "" none */
    uint64_t mb;               /* MB: largest memory working set in MiB; 0: the profile's */
    char fsdir[1024];          /* FSDIR: where file system benchmarks make their files */
    char remote[512];          /* REMOTE: hosts for the network benchmarks, blank-separated */
    bool hardware, os, network;/* BENCHMARK_HARDWARE, BENCHMARK_OS, BENCHMARK_NETWORK */
    char enough[32];           /* ENOUGH: microseconds per timed interval, "" automatic */
    unsigned repetitions;      /* REPETITIONS: -N of every step, 0: the profile's */
    double timeout_s;          /* TIMEOUT: seconds a step may take, 0: the profile's */
};

#define LMB_PROFILES "quick, default or full"

void lmb_sconf_defaults(struct lmb_sconf *c);

/* Sets KEY to VALUE (quotes around VALUE already removed). Returns 0; 1 when the
 * key is an lmbench 3 key this lmbench accepts and does not use; -1 with a
 * message for an unknown key or a bad value. */
int lmb_sconf_set(struct lmb_sconf *c, const char *key, const char *value, char *err,
                  size_t errlen);

/* Reads a config file: KEY=VALUE lines (VALUE may be in single or double
 * quotes; `export KEY=VALUE` as lmbench 3's shell files had), # comments and
 * blank lines. Returns 0 or -1 with "FILE:LINE: message". */
int lmb_sconf_read(struct lmb_sconf *c, const char *path, char *err, size_t errlen);

/* Checks what the values mean together and here: the placement parses, FSDIR is
 * a writable directory, ENOUGH is a number the harness accepts. 0 or -1. */
int lmb_sconf_check(const struct lmb_sconf *c, char *err, size_t errlen);

/* Writes the settings as a config file `lmbench run -c` reads. Returns 0 or -1. */
int lmb_sconf_write(const struct lmb_sconf *c, FILE *f, const char *comment);

/* The profile's largest memory size in MiB when MB is not set, bounded by half
 * of the physical memory. */
uint64_t lmb_sconf_mb(const struct lmb_sconf *c);

#endif
