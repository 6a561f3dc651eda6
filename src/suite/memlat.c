// SPDX-License-Identifier: MIT
/* The "Memory latencies" row: lat_mem_rd curves picked out of a results file and
 * read for their cache levels. */
#include "memlat.h"

#include <math.h>
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

void lmb_memlat_summarize(const struct lmb_rs_file *f, struct lmb_memlat *m)
{
    double *s, *ns;
    size_t n;
    long stride;

    memset(m, 0, sizeof *m);
    m->main_ns = m->rand_ns = NAN;
    n = lmb_memlat_curve(f, "stride", 0, &s, &ns, &stride);
    if (n > 0) {
        m->stride = stride;
        m->main_ns = ns[n - 1];
        snprintf(m->guesses, sizeof m->guesses, "levels not analysed");
    }
    free(s);
    free(ns);
    n = lmb_memlat_curve(f, "random", 0, &s, &ns, &stride);
    if (n > 0)
        m->rand_ns = ns[n - 1];
    free(s);
    free(ns);
}
