// SPDX-License-Identifier: MIT
/* Running the earlier launches of a command (--launches K): launches 1 .. K-1
 * are fresh processes, `lmbench NAME --json ARGS` started from /proc/self/exe
 * with LMBENCH_LAUNCH=i in their environment, their stdout and stderr caught in
 * temporary files; each document is read into a launch pool (launchpool.h)
 * before the command measures itself as launch K. What the earlier launches
 * said on stderr is passed on once at the end (lmb_launcher_finish). */
#ifndef LMB_LAUNCH_H
#define LMB_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/launchpool.h"

/* The environment variable a launch is started with: its number (1 .. K-1).
 * A command that finds it set is an earlier launch and never launches again. */
#define LMB_LAUNCH_ENV "LMBENCH_LAUNCH"

/* Internal, for lmbench run: a colon-separated list of results documents that
 * earlier launches of the same command line wrote (`--json`, at other times of
 * the run): launch i is read from the i-th instead of being run now. A path
 * that is empty, missing or not a results document is run now, as without it. */
#define LMB_LAUNCH_FROM_ENV "LMBENCH_LAUNCH_FROM"

/* The program run for each earlier launch, as `PROGRAM NAME --json ARGS`;
 * /proc/self/exe when unset or empty. */
#define LMB_SELF_ENV "LMBENCH_SELF"

struct lmb_launcher {
    const char *prog;        /* prefix of messages */
    unsigned k;              /* launches asked */
    FILE *messages;          /* where messages go (the command's messages stream) */
    bool progress;           /* "launch i of K" lines (messages is a terminal) */
    /* Filled while running: */
    char **text;             /* per earlier launch, what it wrote on stderr (or NULL) */
    unsigned lost;           /* earlier launches that gave no results document */
    /* What the last launch wrote on the messages stream (lmb_launcher_tee). */
    char *own;
    size_t ownlen, owncap;
    bool own_short;          /* memory ran short: some of it is missing */
    FILE *tee;
};

/* Sets L up for k launches (2 .. LMB_MAX_LAUNCHES). */
void lmb_launcher_init(struct lmb_launcher *L, const char *prog, unsigned k, FILE *messages);

/* Runs launches 1 .. k-1 of benchmark `bench` with the arguments args[0 ..
 * nargs-1] (the command's, --launches left out) and adds what each reported to
 * pool (initialised for k). A launch that dies or gives no document is lost:
 * said at once with the end of its stderr, and noted in pool->lost. Returns 0
 * to go on with the last launch; LMB_EXIT_USAGE when a launch refused the
 * command line (its messages passed on as they were); LMB_EXIT_FAILED when the
 * launches could not be run (said why); LMB_EXIT_SKIPPED when built without
 * jansson. SIGINT and SIGTERM kill and reap the running launch and remove its
 * files (cleanup.h). */
int lmb_launcher_run(struct lmb_launcher *L, const char *bench, char **args, int nargs,
                     struct lmb_launch_pool *pool);

/* A stream that writes to L->messages and keeps a copy of what was written:
 * the last launch's messages stream, so that lmb_launcher_finish can leave out
 * what it said too. NULL when it cannot be made (then use L->messages). */
FILE *lmb_launcher_tee(struct lmb_launcher *L);

/* Closes the tee, then writes each distinct line the earlier launches wrote on
 * stderr that the last launch did not write, once, as "launch 2 of 3: LINE"
 * (or "launches 1-2 of 3: LINE"); frees what L holds. */
void lmb_launcher_finish(struct lmb_launcher *L);

/* The distinct lines of texts[0 .. n-1] (one per launch, NULL for none) that
 * are not lines of `own`, each with the launches that wrote it, passed to
 * emit(line, launches, nlaunches, arg) in first-seen order; launches are
 * 1-based. Returns 0, or -1 when memory is short. (The pure part of
 * lmb_launcher_finish, for tests.) */
int lmb_launch_distinct_lines(char *const *texts, unsigned n, const char *own,
                              void (*emit)(const char *line, const unsigned *launches,
                                           unsigned nlaunches, void *arg),
                              void *arg);

#endif
