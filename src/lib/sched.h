// SPDX-License-Identifier: MIT
/* Where the processes of a measurement run: LMBENCH_SCHED and --cpus. */
#ifndef LMB_SCHED_H
#define LMB_SCHED_H

#include <stdbool.h>
#include <stddef.h>

#define LMB_MAX_CPUS 1024

enum lmb_sched_policy {
    LMB_SCHED_DEFAULT,    /* leave placement to the kernel */
    LMB_SCHED_SINGLE,     /* every process on the first allowed CPU */
    LMB_SCHED_BALANCED,   /* copies round-robin over the CPUs; a copy's helpers share its CPU */
    LMB_SCHED_UNIQUE,     /* every process (copies and helpers) round-robin on its own CPU */
    LMB_SCHED_CUSTOM,     /* process g on list[g % len] */
};

struct lmb_sched {
    enum lmb_sched_policy policy;
    bool restricted;              /* --cpus given */
    int ncpus;                    /* usable CPUs: --cpus, or the affinity we started with */
    int cpus[LMB_MAX_CPUS];
    int ncustom;                  /* CUSTOM list */
    int custom[LMB_MAX_CPUS];
};

/* Reads the policy from env (LMBENCH_SCHED, may be NULL) and --cpus (may be NULL).
 * Returns 0, or -1 with a message. */
int lmb_sched_setup(struct lmb_sched *s, const char *env, const char *cpus_opt,
                    char *err, size_t errlen);

const char *lmb_sched_policy_name(enum lmb_sched_policy p);

/* The CPU for process `proc` (0 = the copy itself, 1.. = its helpers, of
 * procs_per_copy) of copy `copy`; -1 when the policy does not pin it. */
int lmb_sched_cpu_for(const struct lmb_sched *s, unsigned copy, unsigned proc,
                      unsigned procs_per_copy);

/* Applies a placement to the calling process: pin to cpu, or when cpu is -1 and
 * --cpus was given, restrict to that set. Returns 0 or -1 (errno set). */
int lmb_sched_apply(const struct lmb_sched *s, int cpu);

#endif
