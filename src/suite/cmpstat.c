// SPDX-License-Identifier: MIT
/* The statistics of a comparison: each measurement's ratio of medians, its
 * interval and p-value from a hierarchical bootstrap of each side (launches,
 * then samples) and Student's t, Benjamini-Hochberg across the measurements
 * of one comparison, and the verdict with an effect floor (cmpstat.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstat.h"

/* --- Student's t ------------------------------------------------------------ */

/* The continued fraction of the regularized incomplete beta function
 * (modified Lentz's method). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1), h;

    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    h = d;
    for (int m = 1; m <= 500; m++) {
        double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), del;
        d = 1 + num * d;
        c = 1 + num / c;
        d = fabs(d) < tiny ? 1 / tiny : 1 / d;
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + num * d;
        c = 1 + num / c;
        d = fabs(d) < tiny ? 1 / tiny : 1 / d;
        c = fabs(c) < tiny ? tiny : c;
        del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return h;
}

/* I_x(a, b). */
static double ibeta(double a, double b, double x)
{
    double front;

    if (!(x > 0))
        return 0;
    if (!(x < 1))
        return 1;
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_cf(a, b, x) / a;
    return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double lmb_cs_t_tail2(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    t = fabs(t);
    if (isinf(t))
        return 0;
    return ibeta(df / 2, 0.5, df / (df + t * t));
}

double lmb_cs_t_quantile2(double alpha, double df)
{
    double lo = 0, hi = 1;

    if (!(alpha > 0 && alpha < 1) || !(df > 0))
        return NAN;
    while (lmb_cs_t_tail2(hi, df) > alpha && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = (lo + hi) / 2;
        if (lmb_cs_t_tail2(mid, df) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* --- medians and the generator ---------------------------------------------- */

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) for n < 2^32: the high half of a 32x32-bit product. */
static size_t rng_below(uint64_t *s, size_t n)
{
    return (size_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* The k-th smallest (0-based) of x[0..n-1], reordering x. */
static double select_k(double *x, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;

    while (lo < hi) {
        double pivot = x[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                double t = x[i];
                x[i] = x[j];
                x[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return x[k];
    }
    return x[k];
}

/* The median of x[0..n-1] (n >= 1), reordering x: the middle one, or the mean
 * of the two middle ones. */
static double median_inplace(double *x, size_t n)
{
    double hi = select_k(x, n, n / 2), lo;

    if (n % 2)
        return hi;
    /* After the selection every element before n/2 is <= x[n/2]. */
    lo = x[0];
    for (size_t i = 1; i < n / 2; i++)
        if (x[i] > lo)
            lo = x[i];
    return (lo + hi) / 2;
}

static double median_of(const double *x, size_t n)
{
    double *c = malloc(n * sizeof *c), m;

    if (c == NULL)
        return NAN;
    memcpy(c, x, n * sizeof *c);
    m = median_inplace(c, n);
    free(c);
    return m;
}

/* The launches of s: how many, and their sizes (one launch of n when the
 * counts are absent or do not add up). */
static size_t groups(const struct lmb_cs_side *s, const size_t **sizes, size_t *one)
{
    size_t sum = 0;

    if (s->nlaunches >= 2 && s->launch_n != NULL) {
        for (size_t i = 0; i < s->nlaunches; i++) {
            if (s->launch_n[i] == 0)
                sum = s->n + 1;          /* an empty ok launch: treat as one */
            sum += s->launch_n[i];
        }
        if (sum == s->n) {
            *sizes = s->launch_n;
            return s->nlaunches;
        }
    }
    *one = s->n;
    *sizes = one;
    return 1;
}

double lmb_cs_launch_cv(const struct lmb_cs_side *s)
{
    const size_t *sz;
    size_t one, L = groups(s, &sz, &one), off = 0;
    double mean = 0, ss = 0, *med;

    if (L < 2)
        return NAN;
    med = malloc(L * sizeof *med);
    if (med == NULL)
        return NAN;
    for (size_t i = 0; i < L; i++) {
        med[i] = median_of(s->x + off, sz[i]);
        off += sz[i];
        mean += med[i];
    }
    mean /= (double)L;
    for (size_t i = 0; i < L; i++)
        ss += (med[i] - mean) * (med[i] - mean);
    free(med);
    if (!(mean > 0))
        return NAN;
    return sqrt(ss / (double)(L - 1)) / mean;
}

struct ranked {
    double v;
    size_t i;
};

static int by_value(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The value of rank k (0-based) among the drawn ranks: count[r] draws of rank r. */
static double kth_drawn(const size_t *count, const double *sorted, size_t k)
{
    size_t r = 0, seen = count[0];

    while (seen <= k)
        seen += count[++r];
    return sorted[r];
}

/* The bootstrap variance of the log median of s, scaled for few groups, and
 * its degrees of freedom. A resample draws samples, and its median is an order
 * statistic of what was drawn: each sample's rank among all of s is counted, so
 * no resample is sorted. Returns -1 when memory is short. */
static int side_variance(const struct lmb_cs_side *s, unsigned B, uint64_t seed, double *var,
                         double *df)
{
    const size_t *sz;
    size_t one, L = groups(s, &sz, &one), *off = malloc(L * sizeof *off);
    size_t *rank = malloc(s->n * sizeof *rank), *count = malloc(s->n * sizeof *count);
    double *sorted = malloc(s->n * sizeof *sorted), mean = 0, m2 = 0;
    struct ranked *rk = malloc(s->n * sizeof *rk);
    uint64_t st = seed;

    if (off == NULL || rank == NULL || count == NULL || sorted == NULL || rk == NULL) {
        free(off), free(rank), free(count), free(sorted), free(rk);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        rk[i] = (struct ranked){ s->x[i], i };
    qsort(rk, s->n, sizeof *rk, by_value);
    for (size_t r = 0; r < s->n; r++) {
        sorted[r] = rk[r].v;
        rank[rk[r].i] = r;
    }
    for (size_t i = 0, o = 0; i < L; i++) {
        off[i] = o;
        o += sz[i];
    }
    for (unsigned b = 0; b < B; b++) {
        size_t np = 0;
        double v, d;
        memset(count, 0, s->n * sizeof *count);
        for (size_t l = 0; l < L; l++) {
            size_t g = L == 1 ? 0 : rng_below(&st, L);
            for (size_t k = 0; k < sz[g]; k++)
                count[rank[off[g] + rng_below(&st, sz[g])]]++;
            np += sz[g];
        }
        v = kth_drawn(count, sorted, np / 2);
        if (np % 2 == 0)
            v = (v + kth_drawn(count, sorted, np / 2 - 1)) / 2;
        v = log(v);
        d = v - mean;                 /* Welford */
        mean += d / (double)(b + 1);
        m2 += d * (v - mean);
    }
    free(off), free(rank), free(count), free(sorted), free(rk);
    *var = B > 1 ? m2 / (double)(B - 1) : 0;
    if (L >= 2) {
        *var *= (double)L / (double)(L - 1);
        *df = (double)(L - 1);
    } else {
        *var *= (double)s->n / (double)(s->n - 1);
        *df = (double)(s->n - 1);
    }
    return 0;
}

static bool positive(const struct lmb_cs_side *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (!(s->x[i] > 0) || !isfinite(s->x[i]))
            return false;
    return true;
}

static double max_known(double a, double b, double c)
{
    double m = a;
    if (b > m)
        m = b;
    if (c > m)
        m = c;
    return m;
}

void lmb_cs_test(const struct lmb_cs_opts *o, const struct lmb_cs_side *base,
                 const struct lmb_cs_side *nw, bool higher_better, uint64_t seed,
                 struct lmb_cs_result *r)
{
    const size_t *sz;
    size_t one;
    double vb, vn, dfb, dfn, lr, se, t;

    memset(r, 0, sizeof *r);
    r->lo = r->hi = r->p = r->q = r->df = r->margin = NAN;
    r->higher_better = higher_better;
    r->method = LMB_CS_NONE;
    r->verdict = LMB_CS_UNKNOWN;
    r->launches_base = base->n ? groups(base, &sz, &one) : 0;
    r->launches_new = nw->n ? groups(nw, &sz, &one) : 0;
    r->cv_base = lmb_cs_launch_cv(base);
    r->cv_new = lmb_cs_launch_cv(nw);
    r->floor = max_known(o->min_effect, r->cv_base, r->cv_new);

    if (base->n == 0 || nw->n == 0) {
        const struct lmb_cs_side *measured = base->n ? base : nw;
        double cv = base->n ? r->cv_base : r->cv_new;
        r->ratio = nw->value / base->value;
        if (base->n == 0 && nw->n == 0) {
            r->reason = "spread unknown: neither side has samples";
        } else if (isnan(cv)) {
            r->reason = measured->n < 2 ? "spread unknown: one side has no samples"
                                        : "spread unknown: one side has no samples, the other "
                                          "one launch";
        } else {
            r->method = LMB_CS_MARGIN;
            r->margin = o->margin_cv * cv;
            if (o->margin_floor * r->floor > r->margin)
                r->margin = o->margin_floor * r->floor;
        }
        return;
    }
    if (base->extreme_headline && nw->extreme_headline)
        r->ratio = nw->value / base->value;
    else
        r->ratio = median_of(nw->x, nw->n) / median_of(base->x, base->n);
    if (base->n < o->min_samples || nw->n < o->min_samples) {
        r->reason = "too few samples";
        return;
    }
    if ((base->nlaunches ? base->nlaunches : 1) < o->min_launches ||
        (nw->nlaunches ? nw->nlaunches : 1) < o->min_launches) {
        r->reason = "one launch: the spread between runs is not measured (--launches 3)";
        return;
    }
    if (!positive(base) || !positive(nw) || !(r->ratio > 0) || !isfinite(r->ratio)) {
        r->reason = "samples not all positive";
        return;
    }
    if (side_variance(base, o->resamples, seed, &vb, &dfb) != 0 ||
        side_variance(nw, o->resamples, seed ^ 0x5bd1e9955bd1e995ULL, &vn, &dfn) != 0) {
        r->reason = "out of memory";
        return;
    }
    r->method = LMB_CS_BOOTSTRAP;
    lr = log(r->ratio);
    se = sqrt(vb + vn);
    if (!(se > 0)) {
        /* Every resample gave the same medians: a change is certain, or none. */
        r->p = lr == 0 ? 1 : 0;
        r->lo = r->hi = r->ratio;
        r->df = dfb + dfn;
        return;
    }
    r->df = (vb + vn) * (vb + vn) /
            ((vb > 0 ? vb * vb / dfb : 0) + (vn > 0 ? vn * vn / dfn : 0));
    t = lmb_cs_t_quantile2(0.05, r->df);
    r->lo = exp(lr - t * se);
    r->hi = exp(lr + t * se);
    r->p = lmb_cs_t_tail2(lr / se, r->df);
}

/* --- the family -------------------------------------------------------------- */

struct pidx {
    double p;
    size_t i;
};

static int by_p(const void *a, const void *b)
{
    const struct pidx *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int lmb_cs_bh(const double *p, size_t n, double *q)
{
    struct pidx *v = malloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    double run = 1;

    if (v == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        q[i] = NAN;
        if (!isnan(p[i]))
            v[m++] = (struct pidx){ p[i], i };
    }
    qsort(v, m, sizeof *v, by_p);
    /* q of rank k (1-based) = min over j >= k of p(j) * m / j, at most 1. */
    for (size_t k = m; k > 0; k--) {
        double a = v[k - 1].p * (double)m / (double)k;
        if (a < run)
            run = a;
        q[v[k - 1].i] = run;
    }
    free(v);
    return 0;
}

static enum lmb_cs_verdict direction(const struct lmb_cs_result *r)
{
    bool worse = r->higher_better ? r->ratio < 1 : r->ratio > 1;
    return worse ? LMB_CS_WORSE : LMB_CS_BETTER;
}

int lmb_cs_judge(const struct lmb_cs_opts *o, struct lmb_cs_result *r, size_t n)
{
    double *p = calloc(n ? n : 1, sizeof *p), *q = calloc(n ? n : 1, sizeof *q);

    if (p == NULL || q == NULL) {
        free(p);
        free(q);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        p[i] = r[i].method == LMB_CS_BOOTSTRAP ? r[i].p : NAN;
    if (lmb_cs_bh(p, n, q) != 0) {
        free(p);
        free(q);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct lmb_cs_result *w = &r[i];
        double eff = fabs(w->ratio - 1);
        w->q = q[i];
        switch (w->method) {
        case LMB_CS_NONE:
            w->verdict = LMB_CS_UNKNOWN;
            break;
        case LMB_CS_MARGIN:
            if (eff > w->margin && w->ratio != 1) {
                w->verdict = direction(w);
                w->reason = "beyond the margin: one side has no spread, the change exceeds "
                            "the other's between-launch spread by far";
            } else {
                w->verdict = LMB_CS_UNKNOWN;
                w->reason = "within the margin: one side has no spread, and the change is "
                            "not far beyond the other's between-launch spread";
            }
            break;
        case LMB_CS_BOOTSTRAP:
            if (w->q <= o->fdr && eff > w->floor) {
                w->verdict = direction(w);
                w->reason = NULL;
            } else if (w->q <= o->fdr && w->ratio != 1) {
                w->verdict = LMB_CS_SAME;
                w->reason = "a change, but not beyond the effect floor";
            } else if (w->lo >= 1 - w->floor && w->hi <= 1 + w->floor) {
                w->verdict = LMB_CS_SAME;
                w->reason = NULL;
            } else {
                w->verdict = LMB_CS_UNKNOWN;
                w->reason = "interval too wide to tell";
            }
            break;
        }
    }
    free(p);
    free(q);
    return 0;
}

const char *lmb_cs_verdict_name(enum lmb_cs_verdict v)
{
    switch (v) {
    case LMB_CS_SAME: return "same";
    case LMB_CS_BETTER: return "better";
    case LMB_CS_WORSE: return "worse";
    case LMB_CS_UNKNOWN: return "?";
    }
    return "?";
}
