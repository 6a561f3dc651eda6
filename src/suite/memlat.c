// SPDX-License-Identifier: MIT
/* The "Memory latencies" row: lat_mem_rd curves picked out of a results file and
 * read for their cache levels. */
#include "memlat.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pt {
    double size, ns;
};

static int cmp_pt(const void *a, const void *b)
{
    const struct pt *x = a, *y = b;
    return x->size < y->size ? -1 : x->size > y->size;
}

size_t lmb_memlat_curve(const struct lmb_rs_file *f, const char *kind, long stride,
                        double **sizes, double **ns, long *stride_used)
{
    struct pt *p;
    size_t n = 0, k = 0;
    long best = 0;

    *sizes = *ns = NULL;
    *stride_used = 0;
    /* Which stride: the one asked for, else the one closest to 128 bytes
     * (lmbench 3's summary curve), the larger on a tie. */
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        double s;
        if (!lmb_rs_is(r, "lat_mem_rd", kind) || r->status != LMB_RS_OK)
            continue;
        s = lmb_rs_pnum(r, "stride_bytes");
        if (!(s > 0))
            continue;
        if (stride > 0) {
            if ((long)s == stride)
                best = stride;
            continue;
        }
        if (best == 0 || fabs(log2(s / 128.0)) < fabs(log2((double)best / 128.0)) ||
            (fabs(log2(s / 128.0)) == fabs(log2((double)best / 128.0)) && s > (double)best))
            best = (long)s;
    }
    if (best == 0)
        return 0;
    for (size_t i = 0; i < f->nrecs; i++)
        if (lmb_rs_is(&f->recs[i], "lat_mem_rd", kind) && f->recs[i].status == LMB_RS_OK &&
            lmb_rs_pnum(&f->recs[i], "stride_bytes") == (double)best)
            n++;
    p = malloc(n * sizeof *p);
    if (p == NULL)
        return 0;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        double s;
        if (!lmb_rs_is(r, "lat_mem_rd", kind) || r->status != LMB_RS_OK ||
            lmb_rs_pnum(r, "stride_bytes") != (double)best)
            continue;
        s = lmb_rs_pnum(r, "size_bytes");
        if (!(s > 0) || !(r->value > 0))
            continue;
        p[k].size = s;
        p[k].ns = r->value;
        k++;
    }
    qsort(p, k, sizeof *p, cmp_pt);
    /* One point per size: a size measured twice keeps its later figure. */
    n = 0;
    for (size_t i = 0; i < k; i++) {
        if (n > 0 && p[n - 1].size == p[i].size)
            n--;
        p[n++] = p[i];
    }
    *sizes = malloc((n ? n : 1) * sizeof **sizes);
    *ns = malloc((n ? n : 1) * sizeof **ns);
    if (*sizes == NULL || *ns == NULL) {
        free(*sizes);
        free(*ns);
        free(p);
        *sizes = *ns = NULL;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        (*sizes)[i] = p[i].size;
        (*ns)[i] = p[i].ns;
    }
    free(p);
    *stride_used = best;
    return n;
}

/* --- reading the curve ----------------------------------------------------------
 *
 * Interim: a minimal plateau reading of our own, until src/lib/curve.[ch] (the
 * hardware issue's analysis, checked against sysfs) lands on main; then this
 * section gives way to it and lmb_memlat_summarize keeps its interface.
 *
 * Each point is replaced by the median of itself and its neighbours; a plateau
 * is a run of points within 15% (log scale) of the run's first point, at least
 * 3 points spanning 1.5x in size; plateaus within 30% of each other in latency
 * are one level. The last plateau, when it reaches the end of the curve, is
 * main memory if the curve goes past the largest cache the system declares (or,
 * without declared caches, if there are slower levels before it). */

#define TOL 0.15
#define MERGE 1.3

struct plateau {
    size_t first, last;
    double ns;
};

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(const double *v, size_t from, size_t to)
{
    size_t n = to - from + 1;
    double *t = malloc(n * sizeof *t), m;

    if (t == NULL)
        return v[from];
    memcpy(t, v + from, n * sizeof *t);
    qsort(t, n, sizeof *t, cmp_d);
    m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    free(t);
    return m;
}

static size_t plateaus(const double *s, const double *ns, size_t n, struct plateau *out,
                       size_t max)
{
    double *sm = malloc(n * sizeof *sm);
    size_t np = 0, i = 0;

    if (sm == NULL)
        return 0;
    for (size_t k = 0; k < n; k++) {
        double a = ns[k > 0 ? k - 1 : k], b = ns[k], c = ns[k + 1 < n ? k + 1 : k];
        sm[k] = a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
    }
    while (i < n) {
        size_t j = i;
        while (j + 1 < n && fabs(log(sm[j + 1] / sm[i])) < TOL)
            j++;
        if (j - i + 1 >= 3 && s[j] / s[i] >= 1.5 && np < max) {
            double m = median_of(ns, i, j);
            if (np > 0 && m / out[np - 1].ns < MERGE && out[np - 1].ns / m < MERGE) {
                out[np - 1].last = j;
                out[np - 1].ns = median_of(ns, out[np - 1].first, j);
            } else {
                out[np].first = i;
                out[np].last = j;
                out[np].ns = m;
                np++;
            }
        }
        i = j + 1;
    }
    free(sm);
    return np;
}

static void note(struct lmb_memlat *m, const char *text)
{
    size_t n = strlen(m->guesses);
    snprintf(m->guesses + n, sizeof m->guesses - n, "%s%s", n ? "; " : "", text);
}

void lmb_memlat_summarize(const struct lmb_rs_file *f, struct lmb_memlat *m)
{
    double *s, *ns, llc = 0;
    size_t n, np;
    long stride;
    struct plateau p[16];
    bool mem = false;

    memset(m, 0, sizeof *m);
    m->main_ns = m->rand_ns = NAN;
    for (int i = 0; i < f->ncaches; i++)
        if (strcmp(f->caches[i].type, "Instruction") != 0 && (double)f->caches[i].size > llc)
            llc = (double)f->caches[i].size;

    n = lmb_memlat_curve(f, "stride", 0, &s, &ns, &stride);
    if (n > 0) {
        m->stride = stride;
        np = plateaus(s, ns, n, p, 16);
        if (np == 0) {
            note(m, "no plateau on the curve");
        } else {
            /* The last plateau is memory when it runs to the end of the curve and
             * starts past the largest declared cache (or, with none declared, when
             * caches come before it). */
            const struct plateau *last = &p[np - 1];
            if (last->last == n - 1 && np >= 2 &&
                (llc > 0 ? s[last->first] > llc : true))
                mem = true;
            for (size_t i = 0; i + (mem ? 1 : 0) < np && m->nlevels < LMB_MEMLAT_LEVELS; i++) {
                m->level_ns[m->nlevels] = p[i].ns;
                m->level_bytes[m->nlevels] = s[p[i].last];
                m->nlevels++;
            }
            if (mem) {
                /* Well past the last cache: the points at 4x its size or more. */
                double from = m->nlevels ? 4 * m->level_bytes[m->nlevels - 1] : s[last->first];
                size_t k = last->first;
                while (k < n - 1 && s[k] < from)
                    k++;
                if (s[n - 1] < from)
                    note(m, "memory not 4x past the last cache");
                m->main_ns = median_of(ns, s[k] >= from ? k : last->first, n - 1);
            } else {
                note(m, "curve ends before memory");
            }
            if (llc == 0)
                note(m, "no declared caches to check");
            else if (m->nlevels > 0 && m->nlevels < (size_t)f->caches[f->ncaches - 1].level)
                note(m, "fewer levels than declared");
        }
    } else {
        note(m, "no lat_mem_rd curve");
    }
    free(s);
    free(ns);

    n = lmb_memlat_curve(f, "random", 0, &s, &ns, &stride);
    if (n > 0) {
        double past = m->nlevels ? 4 * m->level_bytes[m->nlevels - 1] : llc * 4;
        size_t k = n - 1;
        while (k > 0 && s[k - 1] >= past)
            k--;
        if (past > 0 && s[n - 1] < past) {
            note(m, "random chase not 4x past the last cache");
            k = n - 1;
        }
        m->rand_ns = median_of(ns, k, n - 1);
    } else if (n == 0 && m->stride) {
        note(m, "no random chase");
    }
    free(s);
    free(ns);
}
