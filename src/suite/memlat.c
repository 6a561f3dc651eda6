// SPDX-License-Identifier: MIT
/* The "Memory latencies" row: lat_mem_rd curves picked out of a results file and
 * read for their cache levels with src/lib/curve (the analysis lat_mem_rd and
 * cache use too), checked against the caches the file says the system declares. */
#include "memlat.h"

#include "lib/curve.h"

#include <math.h>
#include <stdarg.h>
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
        if (!lmb_rs_is(r, "lat_mem_rd", kind) || r->status != LMB_RS_OK || r->compat != NULL)
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
            f->recs[i].compat == NULL && lmb_rs_pnum(&f->recs[i], "stride_bytes") == (double)best)
            n++;
    p = malloc(n * sizeof *p);
    if (p == NULL)
        return 0;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        double s;
        if (!lmb_rs_is(r, "lat_mem_rd", kind) || r->status != LMB_RS_OK || r->compat != NULL ||
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

/* --- reading the curve: src/lib/curve ----------------------------------------- */

static void note(struct lmb_memlat *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct lmb_memlat *m, const char *fmt, ...)
{
    size_t n = strlen(m->guesses);
    va_list ap;

    if (n + 3 >= sizeof m->guesses)
        return;
    if (n > 0) {
        memcpy(m->guesses + n, "; ", 3);
        n += 2;
    }
    va_start(ap, fmt);
    vsnprintf(m->guesses + n, sizeof m->guesses - n, fmt, ap);
    va_end(ap);
}

/* The data caches the file says the system declares, for lmb_curve_compare. */
static int declared(const struct lmb_rs_file *f, struct lmb_cache_info *out, int max)
{
    int n = 0;

    for (int i = 0; i < f->ncaches && n < max; i++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].level = f->caches[i].level;
        snprintf(out[n].type, sizeof out[n].type, "%s", f->caches[i].type);
        out[n].size = f->caches[i].size;
        out[n].line = f->caches[i].line;
        n++;
    }
    return n;
}

void lmb_memlat_summarize(const struct lmb_rs_file *f, struct lmb_memlat *m)
{
    struct lmb_cache_info caches[LMB_MAX_CACHES];
    int ncaches = declared(f, caches, LMB_MAX_CACHES);
    double llc = 0;   /* the largest data cache declared */
    struct lmb_curve *c = malloc(sizeof *c);
    double *s = NULL, *ns = NULL;
    size_t n;
    long stride;
    char a[32], b[32];

    memset(m, 0, sizeof *m);
    m->main_ns = m->rand_ns = NAN;
    for (int i = 0; i < ncaches; i++)
        if (strcmp(caches[i].type, "Instruction") != 0 && (double)caches[i].size > llc)
            llc = (double)caches[i].size;
    if (c == NULL) {
        note(m, "out of memory");
        return;
    }
    n = lmb_memlat_curve(f, "stride", 0, &s, &ns, &stride);
    if (n == 0) {
        note(m, "no lat_mem_rd curve");
    } else if (lmb_curve_analyze(s, ns, n, c) != 0) {
        note(m, "stride curve unreadable");
    } else {
        size_t levels = c->nlevels;
        bool prefetched = false;

        m->stride = stride;
        if (ncaches > 0)
            lmb_curve_compare(c, caches, ncaches);
        /* Prefetchers follow a fixed stride, so main memory can look as fast as a
         * cache on this curve: the analysis then ends on an open plateau too fast
         * for memory. When that plateau starts after a cache level and the curve
         * runs at least 4 times past it, it is main memory as the stride sees it
         * (lmbench 3's "Main mem"), and said so. */
        if (!c->memory.found && levels >= 2 && c->levels[levels - 1].open_ended &&
            c->max_bytes >= 4 * c->levels[levels - 2].size_bytes &&
            (llc == 0 || (c->levels[levels - 1].plateau_from > llc && c->max_bytes >= 4 * llc))) {
            prefetched = true;
            levels--;
            m->main_ns = c->levels[levels].latency_ns;
            note(m, "main mem prefetched (stride %ld)", stride);
        }
        for (size_t i = 0; i < levels && m->nlevels < LMB_MEMLAT_LEVELS; i++) {
            m->level_ns[m->nlevels] = c->levels[i].latency_ns;
            m->level_bytes[m->nlevels] = c->levels[i].size_bytes;
            m->nlevels++;
        }
        if (levels > 3)
            note(m, "%zu levels, L4 and beyond not shown", levels);
        if (levels == 0)
            note(m, "no cache level found");
        if (c->memory.found) {
            m->main_ns = c->memory.latency_ns;
            if (c->memory.past_cache > 0 && c->memory.past_cache < 4)
                note(m, "main mem only %.1fx past the last level", c->memory.past_cache);
        } else if (!prefetched) {
            note(m, "curve ends before memory");
        }
        for (size_t i = 0; i < c->ndeclared; i++) {
            const struct lmb_curve_declared *d = &c->declared[i];
            lmb_curve_format_size(d->size_bytes, a, sizeof a);
            switch (d->verdict) {
            case LMB_CURVE_AGREES:
                break;
            case LMB_CURVE_DIFFERS:
                lmb_curve_format_size(c->levels[d->measured].size_bytes, b, sizeof b);
                note(m, "L%d measured %s, declared %s", d->level, b, a);
                break;
            case LMB_CURVE_UNREACHABLE:
            case LMB_CURVE_BEYOND_SWEEP:
            case LMB_CURVE_NOT_SEEN:
                note(m, "L%d (%s) %s", d->level, a, lmb_curve_verdict_name(d->verdict));
                break;
            }
        }
        if (ncaches == 0)
            note(m, "no declared caches to check");
    }
    free(s);
    free(ns);
    s = ns = NULL;

    /* lmbench 3's Rand mem is the random chase at stride 16; one at another
     * stride is another quantity and stays out of the cell. */
    n = lmb_memlat_curve(f, "random", 16, &s, &ns, &stride);
    if (n > 0 && lmb_curve_analyze(s, ns, n, c) == 0) {
        if (c->memory.found)
            m->rand_ns = c->memory.latency_ns;
        else
            note(m, "random chase ends before memory");
    } else if (n > 0) {
        note(m, "random chase unreadable");
    } else {
        long other = 0;
        double *s2 = NULL, *ns2 = NULL;
        if (lmb_memlat_curve(f, "random", 0, &s2, &ns2, &other) > 0)
            note(m, "random chase at stride %ld, not 16", other);
        else if (m->stride)
            note(m, "no random chase");
        free(s2);
        free(ns2);
    }
    free(s);
    free(ns);
    free(c);
}
