// SPDX-License-Identifier: MIT
/* The pairing of two results files' records into comparisons and the verdict
 * on each (src/suite/cmprows.c): shared by lmbench compare and the comparison
 * view of lmbench graph. */
#ifndef LMB_SUITE_CMPROWS_H
#define LMB_SUITE_CMPROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "cmpstat.h"
#include "results.h"

/* LMB_V_APART: the two records hold different quantities (their compat
 * differs: one is lmbench 3's figure and the other is not, or they differ in
 * different ways), so no ratio is made of them. LMB_V_INFO: not a
 * performance figure (clock rate, sizes): a ratio but no verdict. */
enum lmb_cmp_verdict {
    LMB_V_SAME, LMB_V_BETTER, LMB_V_WORSE, LMB_V_UNKNOWN, LMB_V_INFO, LMB_V_APART, LMB_V_COUNT
};

struct lmb_cmp_row {
    const struct lmb_rs_record *b, *n;
    char name[512];         /* the measurement's name (ours when one side is lmbench 3's) */
    char placement[160];    /* "" when both were placed alike */
    double ratio, change_pct;   /* new/base; NAN for LMB_V_APART */
    struct lmb_cs_result cs;    /* the statistics (judged rows only) */
    enum lmb_cmp_verdict verdict;
    bool regression;        /* set by the caller (compare's --threshold) */
};

/* A measurement found in one file only. */
struct lmb_cmp_only {
    const struct lmb_rs_record *r;
    char name[512];
};

struct lmb_cmp_set {
    struct lmb_cmp_row *rows;   /* in base's file order */
    size_t n;
    struct lmb_cmp_only *only_base, *only_new;
    size_t nonly_base, nonly_new;
};

/* Pairs base's and nf's ok records (the last of each identity) and judges
 * every pair as one family (Benjamini-Hochberg across them). Returns 0, or -1
 * on out of memory (set is then empty). The set points into base and nf. */
int lmb_cmp_pair(const struct lmb_cs_opts *co, const struct lmb_rs_file *base,
                 const struct lmb_rs_file *nf, struct lmb_cmp_set *set);
void lmb_cmp_free(struct lmb_cmp_set *set);

/* "same", "better", "worse", "?", "-", "not comparable". */
const char *lmb_cmp_verdict_name(enum lmb_cmp_verdict v);

/* The record's identity as a name: benchmark, case and its identity
 * parameters in the order of their names. */
void lmb_cmp_key(const struct lmb_rs_record *r, char *buf, size_t len);

/* Both NULL, or both strings and equal. */
bool lmb_cmp_same_str(const char *a, const char *b);

/* Whether the unit is a performance figure with a direction (us, ns, MB/s). */
bool lmb_cmp_judged(const struct lmb_rs_record *r);

#endif
