// SPDX-License-Identifier: MIT
/* Descriptive statistics of a set of samples. */
#ifndef LMB_STATS_H
#define LMB_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct lmb_stats {
    size_t n;
    double min, p25, median, p75, max;
    double mean, stdev;   /* stdev: sample standard deviation (n - 1); 0 when n == 1 */
    double cv;            /* stdev / mean; 0 when mean == 0 */
    bool has_ci;          /* false when n is too small for a 95% interval (n < 6) */
    double ci_lo, ci_hi;  /* distribution-free 95% confidence interval of the median */
};

/* Computes the statistics of x[0..n-1] (n >= 1, every value finite). Does not
 * modify x. Returns 0, or -1 if n == 0, a value is not finite or memory is short. */
int lmb_stats_compute(const double *x, size_t n, struct lmb_stats *st);

/* Quantile q in [0,1] of sorted[0..n-1], linear interpolation between order
 * statistics (R's type 7, as numpy's default). */
double lmb_quantile_sorted(const double *sorted, size_t n, double q);

/* Ranks (1-based) j and k of the order statistics x(j) <= median <= x(k) whose
 * interval covers the median with probability >= 95%, chosen as narrow as possible
 * and symmetric. Returns false when no such interval exists (n < 6). */
bool lmb_median_ci_ranks(size_t n, size_t *j, size_t *k);

#endif
