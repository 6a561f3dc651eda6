// SPDX-License-Identifier: MIT
/* Analysis of a latency-versus-working-set curve: plateaus, cache levels,
 * memory, and the comparison with the caches the system declares. See curve.h
 * for the method. */
#include "lib/curve.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Half-width, in octaves of size, of the window over which the local slope is
 * fitted, and the slope (natural log of latency per octave) below which a
 * point lies on a plateau, before the allowance for noise. */
#define SLOPE_HALF_WINDOW 0.375
#define FLAT_SLOPE 0.35
/* A memory region is "well past" the last cache from this factor on. */
#define WELL_PAST 4.0
/* Matching declared caches with measured levels: a ratio of sizes worse than
 * this costs more than leaving both unmatched. */
#define SKIP_RATIO 8.0

const char *lmb_curve_verdict_name(enum lmb_curve_verdict v)
{
    switch (v) {
    case LMB_CURVE_AGREES: return "agrees";
    case LMB_CURVE_DIFFERS: return "differs";
    case LMB_CURVE_UNREACHABLE: return "unreachable";
    case LMB_CURVE_BEYOND_SWEEP: return "beyond the sweep";
    case LMB_CURVE_NOT_SEEN: return "not seen";
    }
    return "?";
}

void lmb_curve_format_size(double bytes, char *buf, size_t len)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    size_t u = 0;
    double v = bytes;

    while (v >= 1024.0 && u + 1 < sizeof unit / sizeof unit[0]) {
        v /= 1024.0;
        u++;
    }
    if (fabs(v - round(v)) < 0.05)
        snprintf(buf, len, "%.0f %s", v, unit[u]);
    else
        snprintf(buf, len, "%.1f %s", v, unit[u]);
}

static void note(struct lmb_curve *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct lmb_curve *c, const char *fmt, ...)
{
    va_list ap;

    if (c->nnotes >= LMB_CURVE_MAX_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(c->notes[c->nnotes], LMB_CURVE_NOTE_LEN, fmt, ap);
    va_end(ap);
    c->nnotes++;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1] (n >= 1); sorts v. */
static double median_sort(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static double median3(double a, double b, double c)
{
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    if (b > c)
        b = c;
    return a > b ? a : b;
}

/* Least-squares slope of y against x over [lo, hi]; the spread of x (the square
 * root of its sum of squared deviations) goes to *sxx_root. */
static double fit_slope(const double *x, const double *y, size_t lo, size_t hi, double *sxx_root)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    size_t k = hi - lo + 1;

    for (size_t i = lo; i <= hi; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)k;
    my /= (double)k;
    for (size_t i = lo; i <= hi; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    *sxx_root = sqrt(sxx);
    return sxx > 0 ? sxy / sxx : 0.0;
}

/* A run of points lying flat. */
struct run {
    size_t first, last;
    double latency;   /* median of the raw latencies */
};

static double run_median(const double *ns, size_t first, size_t last, double *scratch)
{
    size_t k = 0;

    for (size_t i = first; i <= last; i++)
        scratch[k++] = ns[i];
    return median_sort(scratch, k);
}

static int check_input(const double *sz, const double *ns, size_t n, struct lmb_curve *out)
{
    if (n == 0) {
        note(out, "no points");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(isfinite(sz[i]) && sz[i] > 0)) {
            note(out, "point %zu: size is not a positive number", i);
            return -1;
        }
        if (!(isfinite(ns[i]) && ns[i] > 0)) {
            note(out, "point %zu: latency is not a positive number", i);
            return -1;
        }
        if (i > 0 && !(sz[i] > sz[i - 1])) {
            note(out, "point %zu: sizes must increase strictly", i);
            return -1;
        }
    }
    return 0;
}

/* The largest size from `from` on whose smoothed latency stays below limit
 * (log scale), or the size at `from` when even that one is not. */
static size_t last_below(const double *S, size_t n, size_t from, double limit)
{
    size_t i = from;

    while (i + 1 < n && S[i + 1] < limit)
        i++;
    return i;
}

/* Finds the flat runs of the curve. Returns their number (at most max). */
static size_t find_runs(const double *x, const double *S, const double *ns, size_t n,
                        double slope_allow, double *scratch, struct run *runs, size_t max)
{
    size_t nruns = 0, i = 0;
    bool *flat = calloc(n, sizeof *flat);

    if (flat == NULL)
        return SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        size_t lo = k, hi = k;
        double sr;
        while (lo > 0 && x[k] - x[lo - 1] <= SLOPE_HALF_WINDOW + 1e-9)
            lo--;
        while (hi + 1 < n && x[hi + 1] - x[k] <= SLOPE_HALF_WINDOW + 1e-9)
            hi++;
        /* Coarse curves: at least the neighbours on each side. */
        if (lo == k && k > 0)
            lo = k - 1;
        if (hi == k && k + 1 < n)
            hi = k + 1;
        if (hi == lo) {
            flat[k] = true;
            continue;
        }
        double g = fit_slope(x, S, lo, hi, &sr);
        flat[k] = fabs(g) <= FLAT_SLOPE + slope_allow / (sr > 0 ? sr : 1.0);
    }
    while (i < n) {
        if (!flat[i]) {
            i++;
            continue;
        }
        size_t j = i;
        while (j + 1 < n && flat[j + 1])
            j++;
        if (j - i + 1 >= LMB_CURVE_MIN_POINTS && exp2(x[j] - x[i]) >= LMB_CURVE_MIN_SPAN - 1e-9 &&
            nruns < max) {
            runs[nruns].first = i;
            runs[nruns].last = j;
            runs[nruns].latency = run_median(ns, i, j, scratch);
            nruns++;
        }
        i = j + 1;
    }
    free(flat);
    return nruns;
}

int lmb_curve_analyze(const double *sz, const double *ns, size_t n, struct lmb_curve *out)
{
    double *L = NULL, *S = NULL, *x = NULL, *scratch = NULL;
    struct run *runs = NULL;
    size_t nruns, mem_run;
    char a[32], b[32];
    int rc = -1;

    memset(out, 0, sizeof *out);
    if (check_input(sz, ns, n, out) != 0)
        return -1;
    out->npoints = n;
    out->min_bytes = sz[0];
    out->max_bytes = sz[n - 1];
    L = malloc(n * sizeof *L);
    S = malloc(n * sizeof *S);
    x = malloc(n * sizeof *x);
    scratch = malloc(n * sizeof *scratch);
    runs = malloc(n * sizeof *runs);
    if (L == NULL || S == NULL || x == NULL || scratch == NULL || runs == NULL) {
        note(out, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        L[i] = log(ns[i]);
        x[i] = log2(sz[i]);
    }

    /* Noise: the median step between neighbours, as the standard deviation of
     * one point (the median of |difference of two| is 0.954 sigma). */
    double sigma = 0;
    if (n >= 3) {
        for (size_t i = 1; i < n; i++)
            scratch[i - 1] = fabs(L[i] - L[i - 1]);
        sigma = median_sort(scratch, n - 1) / 0.954;
    }
    out->noise = expm1(sigma);
    out->tolerance = fmin(fmax(4.0 * sigma, 0.06), 0.25);

    for (size_t i = 0; i < n; i++)
        S[i] = (i == 0 || i + 1 == n) ? L[i] : median3(L[i - 1], L[i], L[i + 1]);

    /* What noise alone can do to a fitted slope: about 0.7 sigma per smoothed
     * point, twice over for a safe margin. */
    nruns = find_runs(x, S, ns, n, 2.0 * 0.7 * sigma, scratch, runs, n);
    if (nruns == SIZE_MAX) {
        note(out, "out of memory");
        goto done;
    }

    /* Neighbouring runs close in latency are one level. */
    size_t m = 0;
    for (size_t k = 0; k < nruns; k++) {
        if (m > 0) {
            double r = runs[k].latency / runs[m - 1].latency;
            if (r < LMB_CURVE_MERGE_RATIO && r > 1.0 / LMB_CURVE_MERGE_RATIO) {
                runs[m - 1].last = runs[k].last;
                runs[m - 1].latency = run_median(ns, runs[m - 1].first, runs[m - 1].last, scratch);
                continue;
            }
        }
        runs[m++] = runs[k];
    }
    nruns = m;

    if (out->noise > 0.05)
        note(out, "noisy curve: neighbouring points differ by about %.0f%%; levels may be "
                  "missed or sizes misjudged", 100.0 * out->noise);
    for (size_t k = 1; k < nruns; k++)
        if (runs[k].latency < runs[k - 1].latency) {
            lmb_curve_format_size(sz[runs[k].first], a, sizeof a);
            note(out, "latency falls from %.2f ns to %.2f ns at %s: the curve is disturbed there",
                 runs[k - 1].latency, runs[k].latency, a);
        }

    /* Memory: the first plateau that is slow enough. */
    mem_run = nruns;
    for (size_t k = 0; k < nruns; k++)
        if (runs[k].latency >= LMB_CURVE_MEMORY_NS) {
            mem_run = k;
            break;
        }

    size_t nlev = mem_run;
    if (nlev > LMB_CURVE_MAX_LEVELS) {
        note(out, "%zu plateaus before memory; only the first %d are reported", nlev,
             LMB_CURVE_MAX_LEVELS);
        nlev = LMB_CURVE_MAX_LEVELS;
    }
    for (size_t k = 0; k < nlev; k++) {
        struct lmb_curve_level *lv = &out->levels[k];
        lv->first = runs[k].first;
        lv->last = runs[k].last;
        lv->plateau_from = sz[lv->first];
        lv->plateau_to = sz[lv->last];
        lv->latency_ns = runs[k].latency;
    }
    out->nlevels = nlev;

    /* Where memory starts when no plateau is slow enough but the curve gets
     * there anyway (a noisy or still rising end). */
    size_t mem_first = n;
    if (mem_run < nruns) {
        mem_first = runs[mem_run].first;
    } else {
        size_t from = nlev > 0 ? out->levels[nlev - 1].last + 1 : 0;
        for (size_t i = from; i < n; i++)
            if (exp(S[i]) >= LMB_CURVE_MEMORY_NS) {
                mem_first = i;
                break;
            }
    }
    /* Sizes: the largest working set still below the geometric mean of this
     * level's latency and the next one's. */
    for (size_t k = 0; k < nlev; k++) {
        struct lmb_curve_level *lv = &out->levels[k];
        double next;
        if (k + 1 < mem_run)
            next = runs[k + 1].latency;
        else if (mem_run < nruns)
            next = runs[mem_run].latency;
        else if (mem_first < n)
            next = ns[mem_first];
        else
            next = 0;
        if (next > lv->latency_ns) {
            double limit = 0.5 * (log(lv->latency_ns) + log(next));
            size_t end = last_below(S, n, lv->first, limit);
            /* A shoulder: more than a doubling of working sets between
             * LMB_CURVE_SIZE_RISE times this level's latency and the geometric
             * mean, a level the curve does not show as a plateau (noise, or
             * too small). It is not this level: end where the climb starts,
             * and say so. */
            if (limit > log(LMB_CURVE_SIZE_RISE * lv->latency_ns)) {
                size_t cap = last_below(S, n, lv->first, log(LMB_CURVE_SIZE_RISE * lv->latency_ns));
                if (end >= cap + 4 && sz[end] >= 2.0 * sz[cap]) {
                    lmb_curve_format_size(sz[cap], a, sizeof a);
                    lmb_curve_format_size(sz[end], b, sizeof b);
                    note(out, "between %s and %s latency climbs from %.2f ns to %.2f ns without a "
                              "plateau: a level may be hidden there (noise, or one too small to "
                              "show)", a, b, ns[cap], ns[end]);
                    end = cap;
                }
            }
            lv->size_bytes = sz[end];
        } else {
            lv->size_bytes = sz[lv->last];
            if (k + 1 == nlev && mem_first == n) {
                lv->open_ended = lv->last + 1 >= n || exp(S[n - 1]) < lv->latency_ns *
                                                          LMB_CURVE_MERGE_RATIO;
            }
        }
    }

    if (mem_first < n) {
        struct lmb_curve_memory *mm = &out->memory;
        double cache = nlev > 0 ? out->levels[nlev - 1].size_bytes : 0;
        size_t k = 0, first_past = n;

        mm->found = true;
        mm->from_bytes = sz[mem_first];
        mm->to_bytes = sz[n - 1];
        mm->past_cache = cache > 0 ? mm->to_bytes / cache : 0;
        for (size_t i = mem_first; i < n; i++)
            if (cache > 0 && sz[i] >= WELL_PAST * cache) {
                first_past = i;
                break;
            }
        if (first_past == n)
            first_past = mem_first;
        for (size_t i = first_past; i < n; i++)
            scratch[k++] = ns[i];
        mm->latency_ns = median_sort(scratch, k);
        if (n - mem_first >= 3) {
            double sr, g = fit_slope(x, L, mem_first, n - 1, &sr);
            double rise = g * (x[n - 1] - x[mem_first]);
            if (rise > out->tolerance) {
                mm->rising = true;
                lmb_curve_format_size(mm->from_bytes, a, sizeof a);
                lmb_curve_format_size(mm->to_bytes, b, sizeof b);
                note(out, "memory latency keeps rising, by about %.0f%% from %s to %s (TLB "
                          "misses, or a larger cache): the memory figure depends on the size",
                     100.0 * expm1(rise), a, b);
            }
        }
        if (cache > 0 && mm->to_bytes < WELL_PAST * cache) {
            lmb_curve_format_size(mm->to_bytes, a, sizeof a);
            lmb_curve_format_size(cache, b, sizeof b);
            note(out, "the curve stops at %s, less than %.0f times the last cache level (%s): "
                      "the memory figure may include cache hits",
                 a, WELL_PAST, b);
        }
        if (mem_run == nruns) {
            lmb_curve_format_size(mm->from_bytes, a, sizeof a);
            note(out, "no flat memory plateau: latency passes %.0f ns at %s but does not settle",
                 LMB_CURVE_MEMORY_NS, a);
        }
    } else if (nlev > 0 && out->levels[nlev - 1].open_ended) {
        lmb_curve_format_size(sz[n - 1], a, sizeof a);
        note(out, "the curve ends at %s on a plateau of %.2f ns, too fast for memory: "
                  "memory was not reached (sweep further)",
             a, out->levels[nlev - 1].latency_ns);
    } else if (n > 0) {
        lmb_curve_format_size(sz[n - 1], a, sizeof a);
        note(out, "the curve ends at %s while latency is still rising (%.2f ns): memory was "
                  "not reached (sweep further)",
             a, ns[n - 1]);
    }
    if (nlev == 0)
        note(out, "no cache plateau found");
    else if (out->levels[0].first > 0 && exp2(x[out->levels[0].first] - x[0]) > 2.0) {
        lmb_curve_format_size(sz[out->levels[0].first], a, sizeof a);
        note(out, "the first plateau starts only at %s: the smallest sizes were disturbed", a);
    }
    rc = 0;
done:
    free(L);
    free(S);
    free(x);
    free(scratch);
    free(runs);
    return rc;
}

/* --- the declared caches ----------------------------------------------------- */

static int cmp_declared(const void *a, const void *b)
{
    const struct lmb_curve_declared *x = a, *y = b;
    if (x->level != y->level)
        return x->level - y->level;
    return (x->size_bytes > y->size_bytes) - (x->size_bytes < y->size_bytes);
}

static double match_cost(double measured, double declared)
{
    return fabs(log(measured / declared));
}

void lmb_curve_compare(struct lmb_curve *c, const struct lmb_cache_info *caches, int ncaches)
{
    struct lmb_curve_declared *d = c->declared;
    size_t nd = 0, nm = c->nlevels;
    char a[32], b[32], m[32];

    c->ndeclared = 0;
    for (int i = 0; i < ncaches && nd < LMB_CURVE_MAX_LEVELS; i++) {
        if (strcmp(caches[i].type, "Instruction") == 0 || caches[i].size == 0)
            continue;
        bool dup = false;
        for (size_t k = 0; k < nd; k++)
            if (d[k].level == caches[i].level)
                dup = true;
        if (dup)
            continue;
        d[nd] = (struct lmb_curve_declared){ .level = caches[i].level,
                                             .size_bytes = (double)caches[i].size,
                                             .line = caches[i].line,
                                             .measured = -1 };
        nd++;
    }
    qsort(d, nd, sizeof *d, cmp_declared);
    c->ndeclared = nd;
    if (nd == 0)
        return;

    /* Monotone matching: as many as the counts allow in order when they are
     * equal, else the cheapest matching where each side may skip. */
    if (nd == nm) {
        for (size_t i = 0; i < nd; i++)
            d[i].measured = (int)i;
    } else {
        double cost[LMB_CURVE_MAX_LEVELS + 1][LMB_CURVE_MAX_LEVELS + 1];
        int how[LMB_CURVE_MAX_LEVELS + 1][LMB_CURVE_MAX_LEVELS + 1];
        double skip = log(SKIP_RATIO) / 2.0;
        for (size_t i = 0; i <= nd; i++)
            for (size_t j = 0; j <= nm; j++) {
                if (i == 0 && j == 0) {
                    cost[i][j] = 0;
                    how[i][j] = 0;
                    continue;
                }
                double best = INFINITY;
                int h = 0;
                if (i > 0 && cost[i - 1][j] + skip < best) {
                    best = cost[i - 1][j] + skip;
                    h = 1;
                }
                if (j > 0 && cost[i][j - 1] + skip < best) {
                    best = cost[i][j - 1] + skip;
                    h = 2;
                }
                if (i > 0 && j > 0) {
                    double v = cost[i - 1][j - 1] +
                               match_cost(c->levels[j - 1].size_bytes, d[i - 1].size_bytes);
                    if (v < best) {
                        best = v;
                        h = 3;
                    }
                }
                cost[i][j] = best;
                how[i][j] = h;
            }
        for (size_t i = nd, j = nm; i > 0 || j > 0;) {
            if (how[i][j] == 3) {
                d[i - 1].measured = (int)(j - 1);
                i--;
                j--;
            } else if (how[i][j] == 1) {
                i--;
            } else {
                j--;
            }
        }
    }

    bool used[LMB_CURVE_MAX_LEVELS] = { false };
    double swept = c->max_bytes;
    for (size_t i = 0; i < nd; i++) {
        struct lmb_curve_declared *x = &d[i];
        bool mem_below = c->memory.found && c->memory.from_bytes < x->size_bytes / 2.0;

        lmb_curve_format_size(x->size_bytes, a, sizeof a);
        if (x->measured >= 0) {
            const struct lmb_curve_level *lv = &c->levels[x->measured];
            used[x->measured] = true;
            x->ratio = lv->size_bytes / x->size_bytes;
            lmb_curve_format_size(lv->size_bytes, m, sizeof m);
            if (x->ratio >= 0.5 && x->ratio <= 2.0 && !lv->open_ended) {
                x->verdict = LMB_CURVE_AGREES;
            } else if (x->ratio < 0.5 && mem_below) {
                x->verdict = LMB_CURVE_UNREACHABLE;
                lmb_curve_format_size(c->memory.from_bytes, b, sizeof b);
                note(c, "L%d: the system declares %s but the level measured ends near %s and "
                        "memory latency starts at %s: only part of it is reachable from this "
                        "CPU (a virtual machine may declare the host's whole L%d)",
                     x->level, a, m, b, x->level);
            } else if (lv->open_ended && x->ratio < 2.0) {
                x->verdict = LMB_CURVE_BEYOND_SWEEP;
                note(c, "L%d: the system declares %s; the curve ends on this level at %s, so its "
                        "size is not measured (sweep further)",
                     x->level, a, m);
            } else {
                x->verdict = LMB_CURVE_DIFFERS;
                note(c, "L%d: the system declares %s, the curve shows %s (%.2f times)", x->level, a,
                     m, x->ratio);
            }
            continue;
        }
        if (mem_below) {
            x->verdict = LMB_CURVE_UNREACHABLE;
            lmb_curve_format_size(c->memory.from_bytes, b, sizeof b);
            note(c, "L%d: the system declares %s but memory latency starts at %s: no level of "
                    "that size is reachable from this CPU (a virtual machine may declare the "
                    "host's cache)",
                 x->level, a, b);
        } else if (!c->memory.found || swept < 2.0 * x->size_bytes) {
            x->verdict = LMB_CURVE_BEYOND_SWEEP;
            note(c, "L%d: the system declares %s; the curve does not reach far enough past it "
                    "to show it",
                 x->level, a);
        } else {
            x->verdict = LMB_CURVE_NOT_SEEN;
            note(c, "L%d: the system declares %s; no level of the curve matches it (its latency "
                    "may be too close to a neighbour's)",
                 x->level, a);
        }
    }
    for (size_t j = 0; j < nm; j++)
        if (!used[j]) {
            lmb_curve_format_size(c->levels[j].size_bytes, m, sizeof m);
            note(c, "measured level %zu (%s, %.2f ns) matches no declared cache", j + 1, m,
                 c->levels[j].latency_ns);
        }
}
