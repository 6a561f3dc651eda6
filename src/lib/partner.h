// SPDX-License-Identifier: MIT
/* Two-ended benchmarks (a pipe, a socket, a ring of processes) before the
 * harness starts partners itself: lmb_measure_twoended() wraps a benchmark's
 * init and cleanup so that each copy forks its partners after init, places
 * them, and reaps them after cleanup.
 *
 * INTERIM: this mirrors the partner interface announced for the harness
 * (struct lmb_timed's partners, partner and after_partners); when that lands,
 * a benchmark moves these three fields into its struct lmb_timed, calls
 * lmb_measure, and this file goes. Partners here are processes only. */
#ifndef LMB_PARTNER_H
#define LMB_PARTNER_H

#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

/* What a partner is told when it starts. */
struct lmb_partner_ctx {
    unsigned index;          /* 0 .. partners-1 */
    bool thread;             /* a thread of the copy, not a process (never, here) */
    char *err;               /* where to put the reason when it fails */
    size_t errlen;
};

struct lmb_twoended {
    unsigned partners;       /* per copy */
    /* In the partner: serve until the copy's end goes away (EOF); 0 when it
     * ended normally, -1 with a reason in pc->err. */
    int (*partner)(void *state, const struct lmb_partner_ctx *pc);
    /* In the copy, after its partners started (close their ends). May be NULL. */
    void (*after_partners)(void *state, bool threads);
};

/* lmb_measure with partners. `ends` receives "same_cpu", "two_cpus" or
 * "unpinned": where the placement puts the two ends (for a ring, whether all
 * its processes share one CPU). */
void lmb_measure_twoended(struct lmb_ctx *ctx, const struct lmb_timed *t,
                          const struct lmb_twoended *two, struct lmb_result *res,
                          const char **ends);

/* From a copy's timed loop when its partner is gone (EOF, EPIPE): ends the
 * measurement as failed, with the partner's own reason if it gave one. */
void lmb_partner_gone(const char *what) __attribute__((noreturn));

/* In a copy: whether one of its partners has exited (a SIGCHLD came). Blocking
 * calls that no end of file can end (sem_wait, F_SETLKW) are interrupted by
 * that SIGCHLD with EINTR; loops check this then. */
bool lmb_partner_exited(void);

/* Ignore SIGPIPE in this process (a partner writing to a copy that left). */
void lmb_ignore_sigpipe(void);

#endif
