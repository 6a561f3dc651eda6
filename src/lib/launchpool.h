// SPDX-License-Identifier: MIT
/* What several launches of one command measured (--launches K): each launch's
 * outcome for a record, the pool of the earlier launches' records keyed by the
 * record's identity, and the pure computations over them (the pooled samples,
 * the spread between launches). No processes and no JSON here: launch.c runs
 * the launches and fills the pool; report.c merges it into its records. */
#ifndef LMB_LAUNCHPOOL_H
#define LMB_LAUNCHPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/result.h"

#define LMB_MAX_LAUNCHES 100

/* One launch's outcome for one record. */
struct lmb_launch {
    enum lmb_status status;
    char reason[LMB_REASON_LEN];
    double *samples;          /* in the record's unit (owned) */
    size_t n;
    uint64_t iters;           /* iterations per sample, 0 unknown */
};

/* A record's launches, all k of them in order; the last is the launch that
 * made the record (this process). */
struct lmb_launches {
    unsigned k;
    struct lmb_launch *l;
};

void lmb_launches_free(struct lmb_launches *ls);

/* The pooled samples: the samples of the ok launches, concatenated in launch
 * order, in a new array (*out, *n); *out NULL and *n 0 when no launch is ok
 * or none has a sample. Returns 0, or -1 when memory is short. */
int lmb_launches_pool(const struct lmb_launches *ls, double **out, size_t *n);

/* The spread between launches: the median of each ok launch with samples (at
 * most LMB_MAX_LAUNCHES), and the coefficient of variation of those medians
 * (sample standard deviation over mean; NAN with fewer than 2 or a mean 0). */
struct lmb_between {
    unsigned n;
    double medians[LMB_MAX_LAUNCHES];
    double cv;
};
void lmb_launches_between(const struct lmb_launches *ls, struct lmb_between *b);

/* One warning line saying which earlier launches were not ok, one clause per
 * status and reason ("launches 1-2 of 5 failed: why; launch 4 of 5 timeout:
 * why"), into buf; returns false when they all were (buf then empty). The
 * last launch, this process's, is left out: its status is the record's own. */
bool lmb_launches_warning(const struct lmb_launches *ls, char *buf, size_t len);

/* "1-3, 5" of a sorted list of launch numbers, into buf. */
void lmb_launch_list_text(const unsigned *launches, unsigned n, char *buf, size_t len);

/* --- identities -------------------------------------------------------------
 * A record is the same measurement in two launches when its benchmark, case
 * and identity parameters are the same. The parameters a launch finds out for
 * itself (what its buffer got, how many faults it took, how many files it
 * made) are not part of it; src/suite/compare.c keeps the same list. */
bool lmb_launch_identity_param(const char *key);

/* The identity of a record as a string: benchmark, case and the identity
 * parameters sorted by key, each value given as text (integers "%lld", reals
 * "%.10g", booleans "true"/"false", strings as they are). Returns 0, or -1
 * when it does not fit in len. */
int lmb_launch_key(char *buf, size_t len, const char *benchmark, const char *case_name,
                   const char *const *keys, const char *const *vals, size_t n);

/* "case (key=value ...)" of a key, for messages. */
void lmb_launch_key_describe(const char *key, char *buf, size_t len);

/* --- the pool of the earlier launches ----------------------------------------- */

struct lmb_pool_entry {
    char *key;
    struct lmb_launch *l;     /* k - 1 slots, one per earlier launch */
    bool *present;            /* k - 1: whether that launch reported it */
    bool taken;               /* merged into a record of the last launch */
};

struct lmb_launch_pool {
    unsigned k;                          /* launches asked, this process's included */
    struct lmb_pool_entry *e;
    size_t n, cap;
    /* Per earlier launch: why it gave no records at all (died, no document),
     * "" when it gave a document. */
    char (*lost)[LMB_REASON_LEN];
};

/* A pool for k launches (2 .. LMB_MAX_LAUNCHES). Returns 0 or -1 (memory). */
int lmb_launch_pool_init(struct lmb_launch_pool *p, unsigned k);
void lmb_launch_pool_free(struct lmb_launch_pool *p);

/* Adds launch i's (1 .. k-1) outcome for the record of this key: the status,
 * reason and iterations are copied, the samples (n, in the record's unit)
 * copied too. Two records of one key in one launch are kept apart, in order.
 * Returns 0 or -1 (memory). */
int lmb_launch_pool_add(struct lmb_launch_pool *p, unsigned i, const char *key,
                        enum lmb_status status, const char *reason, const double *samples,
                        size_t n, uint64_t iters);

/* The launches of the record of this key, for the last launch that measured
 * it with `own` (its samples copied): the earliest entry of the key not yet
 * taken, and for each launch that did not report it a failed outcome saying
 * so (or why the launch was lost). *out gets k launches. Returns 0 or -1
 * (memory; *out then empty). */
int lmb_launch_pool_take(struct lmb_launch_pool *p, const char *key, const struct lmb_launch *own,
                         struct lmb_launches *out);

#endif
