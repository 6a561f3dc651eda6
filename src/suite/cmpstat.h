// SPDX-License-Identifier: MIT
/* The statistics of a comparison (lmbench compare): whether one measurement
 * changed between a base and a new run.
 *
 * For each measurement, lmb_cs_test() takes both sides' samples, grouped by
 * the fresh process (launch) that measured them, and gives
 *   - the point: the ratio new/base of the pooled medians (of the headline
 *     values when both headlines are a minimum or maximum);
 *   - each side's standard error of its log median, by a hierarchical
 *     bootstrap (resample launches with replacement, then samples with
 *     replacement within each chosen launch; a fixed-seed generator, so the
 *     same files give the same output), its variance scaled by L/(L-1) for L
 *     launches (n/(n-1) for one), since a bootstrap of few groups understates it;
 *   - a 95% interval of the ratio and a two-sided p-value for "no change" from
 *     Student's t on the log ratio, with Welch-Satterthwaite degrees of freedom
 *     (each side L-1 for L >= 2 launches, n-1 for one launch);
 *   - the effect floor: the larger of the minimum effect and both sides'
 *     between-launch CV (the CV of the launch medians), where measured.
 * lmb_cs_judge() then adjusts the p-values of all measurements of one
 * comparison together (Benjamini-Hochberg) and gives each a verdict:
 *   worse/better: q <= fdr and |ratio - 1| > floor;
 *   same:         the interval lies within [1 - floor, 1 + floor], or the change
 *                 is significant but not beyond the floor;
 *   unknown ("?"): with a reason: too few samples or launches (a side measured
 *                 in fewer than min_launches fresh processes: the repetitions
 *                 of one process understate the spread between runs), the spread
 *                 unknown (a file without samples: lmbench 3 imports), or an
 *                 interval too wide to tell.
 * A side without samples (one printed value) against a side measured in two
 * launches or more is judged by a margin instead: worse/better only when
 * |ratio - 1| exceeds both margin_cv times the measured side's between-launch
 * CV and margin_floor times the floor (method "margin"); otherwise "?". */
#ifndef LMB_SUITE_CMPSTAT_H
#define LMB_SUITE_CMPSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One side of a measurement: n samples in launch order, launch_n[i] of them
 * from launch i (their sum is n); nlaunches 0 means one launch. value is the
 * file's headline, used when there are no samples. */
struct lmb_cs_side {
    const double *x;
    size_t n;
    const size_t *launch_n;
    size_t nlaunches;
    double value;
    bool extreme_headline;  /* value is the minimum or maximum of the samples (lat_mem_rd,
                               lat_ops, stream, ...): the point is the ratio of the
                               values, the spread still the median's */
};

struct lmb_cs_opts {
    double min_effect;      /* fraction: 0.03 is 3% */
    double fdr;             /* Benjamini-Hochberg q */
    unsigned resamples;     /* bootstrap resamples per side */
    size_t min_samples;     /* fewer on a side: "?" */
    double margin_cv;       /* a side without samples: times the other's between-launch CV */
    double margin_floor;    /* ... and times the floor */
    size_t min_launches;    /* fewer launches on a side that has samples: "?" (one
                               process's repetitions understate the spread between runs) */
};

#define LMB_CS_DEFAULT_OPTS { .min_effect = 0.03, .fdr = 0.05, .resamples = 2000, \
                              .min_samples = 3, .margin_cv = 3.0, .margin_floor = 2.0, \
                              .min_launches = 2 }

enum lmb_cs_verdict { LMB_CS_SAME, LMB_CS_BETTER, LMB_CS_WORSE, LMB_CS_UNKNOWN };

enum lmb_cs_method {
    LMB_CS_NONE,            /* not tested: reason says why */
    LMB_CS_BOOTSTRAP,       /* interval, p and q */
    LMB_CS_MARGIN,          /* a side without spread, against the other's launches */
};

struct lmb_cs_result {
    double ratio;           /* new/base of the medians (of the values without samples or
                               when both headlines are extremes) */
    double lo, hi;          /* 95% interval of the ratio; NAN when none */
    double p, q;            /* two-sided p of no change, BH-adjusted q; NAN when none */
    double df;              /* degrees of freedom of the t; NAN when none */
    double floor;           /* the effect floor used, a fraction */
    double margin;          /* LMB_CS_MARGIN: the |ratio - 1| to exceed; NAN otherwise */
    double cv_base, cv_new; /* between-launch CV of each side; NAN when not measured */
    size_t launches_base, launches_new;
    bool higher_better;
    enum lmb_cs_method method;
    enum lmb_cs_verdict verdict;
    const char *reason;     /* static text: why "?", or how a verdict was reached; NULL */
};

/* Tests one measurement (the verdict is set by lmb_cs_judge). seed makes the
 * bootstrap reproducible (e.g. a hash of the measurement's name). */
void lmb_cs_test(const struct lmb_cs_opts *o, const struct lmb_cs_side *base,
                 const struct lmb_cs_side *nw, bool higher_better, uint64_t seed,
                 struct lmb_cs_result *out);

/* Benjamini-Hochberg: q[i] is the adjusted p of p[i] among the n p-values that
 * are not NAN (NAN ones get NAN). Returns -1 when memory is short, else 0. */
int lmb_cs_bh(const double *p, size_t n, double *q);

/* Adjusts the p of the n results of one comparison together and sets each
 * verdict. Returns -1 when memory is short, else 0. */
int lmb_cs_judge(const struct lmb_cs_opts *o, struct lmb_cs_result *r, size_t n);

/* Student's t: the two-sided tail P(|T| >= t) with df degrees of freedom, and
 * the t whose two-sided tail is alpha. */
double lmb_cs_t_tail2(double t, double df);
double lmb_cs_t_quantile2(double alpha, double df);

/* The between-launch CV of a side (sd / mean of its launch medians), NAN with
 * fewer than 2 launches. */
double lmb_cs_launch_cv(const struct lmb_cs_side *s);

const char *lmb_cs_verdict_name(enum lmb_cs_verdict v);   /* "same", "better", "worse", "?" */

#endif
