// SPDX-License-Identifier: MIT
/* Descriptive statistics: quantiles, mean, stdev, CV, the median's 95% CI. */
#include "lib/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double lmb_quantile_sorted(const double *sorted, size_t n, double q)
{
    double h, frac;
    size_t lo;

    if (n == 1)
        return sorted[0];
    h = q * (double)(n - 1);
    lo = (size_t)floor(h);
    if (lo >= n - 1)
        return sorted[n - 1];
    frac = h - (double)lo;
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* log of the binomial coefficient C(n, i). */
static double log_choose(size_t n, size_t i)
{
    return lgamma((double)n + 1.0) - lgamma((double)i + 1.0) - lgamma((double)(n - i) + 1.0);
}

bool lmb_median_ci_ranks(size_t n, size_t *j, size_t *k)
{
    /* The interval [x(j), x(n+1-j)] covers the median with probability
     * 1 - 2 * P(B <= j - 1), B ~ Binomial(n, 1/2). Take the largest j that keeps
     * the coverage at 95% or more. */
    double tail = 0.0;
    size_t best = 0;

    if (n < 6)
        return false;
    for (size_t jj = 1; jj <= n / 2; jj++) {
        tail += exp(log_choose(n, jj - 1) - (double)n * log(2.0));
        if (1.0 - 2.0 * tail >= 0.95)
            best = jj;
        else
            break;
    }
    if (best == 0)
        return false;
    *j = best;
    *k = n + 1 - best;
    return true;
}

int lmb_stats_compute(const double *x, size_t n, struct lmb_stats *st)
{
    double *s, sum = 0.0, ss = 0.0;
    size_t j, k;

    if (n == 0 || x == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return -1;
    s = malloc(n * sizeof *s);
    if (s == NULL)
        return -1;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);

    memset(st, 0, sizeof *st);
    st->n = n;
    st->min = s[0];
    st->max = s[n - 1];
    st->p25 = lmb_quantile_sorted(s, n, 0.25);
    st->median = lmb_quantile_sorted(s, n, 0.5);
    st->p75 = lmb_quantile_sorted(s, n, 0.75);
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    st->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - st->mean) * (s[i] - st->mean);
    st->stdev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    st->cv = st->mean != 0.0 ? st->stdev / fabs(st->mean) : 0.0;
    if (lmb_median_ci_ranks(n, &j, &k)) {
        st->has_ci = true;
        st->ci_lo = s[j - 1];
        st->ci_hi = s[k - 1];
    }
    free(s);
    return 0;
}
