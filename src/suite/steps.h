// SPDX-License-Identifier: MIT
/* The steps of `lmbench run`, as data: every lmbench 3 benchmark in the order of
 * its `make results` (tests/fixtures/lmbench3-x86_64-linux-vm.0), with the
 * section lines around them and the arguments of each profile, expanded into
 * one invocation per step. A step whose command is not built here, or cannot
 * run here, is a skipped step with its reason. */
#ifndef LMB_SUITE_STEPS_H
#define LMB_SUITE_STEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "runconf.h"

#define LMB_STEP_MAX_ARGS 40

struct lmb_step {
    char name[200];               /* for people: "bw_mem 64k frd" */
    const char *group;            /* "hardware", "os", "network" */
    const char *bench;            /* the command */
    char *argv[LMB_STEP_MAX_ARGS];/* argv[0] = bench; owned */
    int argc;
    const char *before;           /* a section line written before its lines, or NULL */
    bool blank_after;             /* a blank line after its lines */
    const char *header_key;       /* "MHZ", "LINE_SIZE": its line goes to the raw header */
    char skip[200];               /* why it is skipped; "" when it runs */
    bool server;                  /* start `bench -s` before, `bench -S host` after */
    const char *host;             /* the server's host for server steps */
    bool remote;                  /* the server runs on host, started over ssh */
    double weight;                /* seconds it is expected to take, all its launches
                                     (the ETA; steps.c est_seconds) */
    const char *sched;            /* LMBENCH_SCHED for this step, or NULL: the run's */
    unsigned launches;            /* --launches of its command (1: none given) */
    bool json_only;               /* its classic lines stay out of the raw file (the
                                     second placement of a two-ended benchmark: lmbench 3
                                     had one line, the raw file keeps the same-CPU one) */
};

struct lmb_plan {
    struct lmb_step *v;
    size_t n, cap;
    unsigned repetitions;         /* -N of the profile (or REPETITIONS) */
    unsigned launches;            /* launches of the steps that feed a summary cell */
    char enough[32];              /* ENOUGH for the steps ("" automatic) */
    double timeout_s;             /* per step */
    unsigned long long mb;        /* the largest memory size, MiB */
    char file[1200];              /* the scratch file in FSDIR ($FILE) */
};

/* Builds the plan for the settings c. `file` is the path of the scratch file
 * the file benchmarks use (created by the runner). launches: --launches of the
 * steps that feed a cell of `lmbench see`'s summary (summary.c), 0 for the
 * profile's (quick 1, default and full 3); the other steps are measured in one
 * launch. Returns 0 or -1 (memory). */
int lmb_plan_build(struct lmb_plan *p, const struct lmb_sconf *c, unsigned launches,
                   const char *file);
void lmb_plan_free(struct lmb_plan *p);

/* Prints the plan, one step a line, with skip reasons (lmbench run --list). */
void lmb_plan_print(const struct lmb_plan *p, FILE *out);

#endif
