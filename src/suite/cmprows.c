// SPDX-License-Identifier: MIT
/* Which records of two results files are the same measurement, and the
 * verdict on each pair: the pairing and judging behind lmbench compare, shared
 * with the comparison view of lmbench graph. A record's identity is its
 * benchmark, case and identity parameters; an lmbench 3 raw file is matched
 * to ours on the parameters it has. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmprows.h"
#include "lib/launchpool.h"

/* Parameters that say where or how, not what: the same measurement on another
 * machine may use another vector unit, file or host name; and what a run found
 * or chose for itself (the mappings of the forking process, the faults a pass
 * took, the files lat_fs made per interval, the page sizes a buffer got, the
 * chains par_mem and cache found best, the elements lat_ops timed per
 * interval, the latencies par_ops measured on the way), which differ from run
 * to run. */
static bool identity_param(const char *key)
{
    /* The same list as the launches' pooling (src/lib/launchpool.c): what a
     * measurement found out about itself is not part of its name. */
    return lmb_launch_identity_param(key);
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct lmb_rs_param *)a)->key, ((const struct lmb_rs_param *)b)->key);
}

/* The record's identity: benchmark, case and its identity parameters in the
 * order of their names (files may write them in another order). */
void lmb_cmp_key(const struct lmb_rs_record *r, char *buf, size_t len)
{
    struct lmb_rs_record copy = *r;
    struct lmb_rs_param kept[32];
    size_t n = 0;

    for (size_t i = 0; i < r->nparams && n < 32; i++)
        if (identity_param(r->params[i].key))
            kept[n++] = r->params[i];
    qsort(kept, n, sizeof kept[0], by_key);
    copy.params = kept;
    copy.nparams = n;
    lmb_rs_describe(&copy, buf, len);
}

/* Whether the unit is a performance figure with a direction (not a size or a
 * count such as mhz, line, tlb). */
bool lmb_cmp_judged(const struct lmb_rs_record *r)
{
    return strcmp(r->unit, "us") == 0 || strcmp(r->unit, "ns") == 0 ||
           strcmp(r->unit, "MB/s") == 0;
}


/* The last ok record of each identity in f, in file order. */
static size_t index_records(const struct lmb_rs_file *f, const struct lmb_rs_record ***out,
                            char (**keys)[512])
{
    const struct lmb_rs_record **v = malloc((f->nrecs ? f->nrecs : 1) * sizeof *v);
    char (*k)[512] = malloc((f->nrecs ? f->nrecs : 1) * sizeof *k);
    size_t n = 0;

    if (v == NULL || k == NULL) {
        free(v);
        free(k);
        *out = NULL;
        *keys = NULL;
        return 0;
    }
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        char key[512];
        size_t j;
        if (r->status != LMB_RS_OK || !r->has_value || !(r->value > 0))
            continue;
        lmb_cmp_key(r, key, sizeof key);
        for (j = 0; j < n; j++)
            if (strcmp(k[j], key) == 0)
                break;
        if (j == n) {
            snprintf(k[n], sizeof k[n], "%s", key);
            n++;
        }
        v[j] = r;
    }
    *out = v;
    *keys = k;
    return n;
}

bool lmb_cmp_same_str(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* How well ours matches the lmbench 3 record raw: -1 not at all (another
 * benchmark or case, or a parameter raw has with another value or missing
 * from ours); else higher is better: the same quantity first, then the
 * placement (raw's own, else same_cpu as see shows, else two_cpus), then the
 * fewest parameters raw does not have (ours says more of how it measured:
 * message sizes, files per directory, the pages of a buffer). The placement
 * (ends) never keeps two records apart: lmbench 3 pinned nothing. */
static int raw_match(const struct lmb_rs_record *raw, const struct lmb_rs_record *ours)
{
    const char *re = lmb_rs_pstr(raw, "ends"), *oe = lmb_rs_pstr(ours, "ends");
    int score = 0, extra = 0;

    if (strcmp(raw->benchmark, ours->benchmark) != 0 ||
        !lmb_cmp_same_str(raw->case_name, ours->case_name))
        return -1;
    for (size_t i = 0; i < raw->nparams; i++) {
        const struct lmb_rs_param *p = &raw->params[i], *q;
        if (!identity_param(p->key) || strcmp(p->key, "ends") == 0)
            continue;
        q = lmb_rs_param(ours, p->key);
        if (q == NULL || (p->type == LMB_RS_STR) != (q->type == LMB_RS_STR))
            return -1;
        if (p->type == LMB_RS_STR ? strcmp(p->str, q->str) != 0 : p->num != q->num)
            return -1;
    }
    for (size_t i = 0; i < ours->nparams; i++)
        if (identity_param(ours->params[i].key) && strcmp(ours->params[i].key, "ends") != 0 &&
            lmb_rs_param(raw, ours->params[i].key) == NULL)
            extra++;
    if (lmb_rs_same_quantity(raw, ours))
        score += 1000;
    if (lmb_cmp_same_str(re, oe))
        score += 300;
    else if (oe != NULL && strcmp(oe, "same_cpu") == 0)
        score += 200;
    else if (oe != NULL && strcmp(oe, "two_cpus") == 0)
        score += 100;
    return score - (extra < 99 ? extra : 99);
}

/* --- one comparison ------------------------------------------------------------ */


const char *lmb_cmp_verdict_name(enum lmb_cmp_verdict v)
{
    switch (v) {
    case LMB_V_SAME: return "same";
    case LMB_V_BETTER: return "better";
    case LMB_V_WORSE: return "worse";
    case LMB_V_UNKNOWN: return "?";
    case LMB_V_INFO: return "-";
    case LMB_V_APART: return "not comparable";
    case LMB_V_COUNT: break;
    }
    return "";
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void placement_note(struct lmb_cmp_row *w, const struct lmb_rs_file *base,
                           const struct lmb_rs_file *nf)
{
    const char *be = lmb_rs_pstr(w->b, "ends"), *ne = lmb_rs_pstr(w->n, "ends");

    w->placement[0] = '\0';
    if (lmb_cmp_same_str(be, ne))
        return;
    snprintf(w->placement, sizeof w->placement, "base %s%s, new %s%s",
             be ? be : "not said", base->format == LMB_RS_RAW3 ? " (lmbench 3)" : "",
             ne ? ne : "not said", nf->format == LMB_RS_RAW3 ? " (lmbench 3)" : "");
}

/* Pairs the records of base and nf into set: the rows and those found in one
 * file only. Returns 0, or -1 on out of memory. */
static int pair_records(const struct lmb_rs_file *base, const struct lmb_rs_file *nf,
                        struct lmb_cmp_set *set)
{
    const struct lmb_rs_record **bv, **nv;
    char (*bk)[512], (*nk)[512];
    size_t nb = index_records(base, &bv, &bk), nn = index_records(nf, &nv, &nk), nrows = 0;
    bool raw_b = base->format == LMB_RS_RAW3, raw_n = nf->format == LMB_RS_RAW3;
    bool by_subset = raw_b != raw_n;
    bool *taken = calloc(nn ? nn : 1, sizeof *taken);
    struct lmb_cmp_row *rows = calloc(nb ? nb : 1, sizeof *rows);
    struct lmb_cmp_only *ob = calloc(nb ? nb : 1, sizeof *ob), *on = calloc(nn ? nn : 1, sizeof *on);
    size_t nob = 0, non = 0;

    if ((nb && (bv == NULL || bk == NULL)) || (nn && (nv == NULL || nk == NULL)) ||
        taken == NULL || rows == NULL || ob == NULL || on == NULL) {
        free(bv), free(bk), free(nv), free(nk), free(taken), free(rows), free(ob), free(on);
        return -1;
    }
    for (size_t i = 0; i < nb; i++) {
        size_t j, best = nn;
        int best_score = -1;
        for (j = 0; j < nn; j++) {
            int sc;
            if (taken[j])
                continue;
            if (!by_subset) {
                if (strcmp(bk[i], nk[j]) == 0) {
                    best = j;
                    break;
                }
                continue;
            }
            sc = raw_b ? raw_match(bv[i], nv[j]) : raw_match(nv[j], bv[i]);
            if (sc > best_score) {
                best_score = sc;
                best = j;
            }
        }
        if (best == nn) {
            ob[nob].r = bv[i];
            snprintf(ob[nob].name, sizeof ob[nob].name, "%s", bk[i]);
            nob++;
            continue;
        }
        taken[best] = true;
        rows[nrows].b = bv[i];
        rows[nrows].n = nv[best];
        /* The name of ours (the richer one) when one side is lmbench 3's. */
        snprintf(rows[nrows].name, sizeof rows[nrows].name, "%s", raw_b ? nk[best] : bk[i]);
        placement_note(&rows[nrows], base, nf);
        nrows++;
    }
    for (size_t j = 0; j < nn; j++)
        if (!taken[j]) {
            on[non].r = nv[j];
            snprintf(on[non].name, sizeof on[non].name, "%s", nk[j]);
            non++;
        }
    free(bv), free(bk), free(nv), free(nk), free(taken);
    set->rows = rows;
    set->n = nrows;
    set->only_base = ob;
    set->nonly_base = nob;
    set->only_new = on;
    set->nonly_new = non;
    return 0;
}

static struct lmb_cs_side side_of(const struct lmb_rs_record *r)
{
    struct lmb_cs_side s = { .x = r->samples, .n = r->nsamples, .launch_n = r->launch_n,
                             .nlaunches = r->nlaunches, .value = r->value,
                             .extreme_headline = r->headline != NULL &&
                                                 (strcmp(r->headline, "min") == 0 ||
                                                  strcmp(r->headline, "max") == 0) };
    return s;
}

/* The statistics of every row, judged together (one family for the FDR).
 * Returns -1 on out of memory. */
static int judge_rows(const struct lmb_cs_opts *co, struct lmb_cmp_row *rows, size_t n)
{
    struct lmb_cs_result *fam = malloc((n ? n : 1) * sizeof *fam);
    size_t *at = malloc((n ? n : 1) * sizeof *at), m = 0;

    if (fam == NULL || at == NULL) {
        free(fam);
        free(at);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct lmb_cmp_row *w = &rows[i];
        if (!lmb_rs_same_quantity(w->b, w->n)) {
            w->ratio = w->change_pct = NAN;
            w->verdict = LMB_V_APART;
            continue;
        }
        if (!lmb_cmp_judged(w->b)) {
            w->ratio = w->n->value / w->b->value;
            w->change_pct = (w->ratio - 1) * 100;
            w->verdict = LMB_V_INFO;
            continue;
        }
        struct lmb_cs_side sb = side_of(w->b), sn = side_of(w->n);
        lmb_cs_test(co, &sb, &sn, w->b->higher_better, name_hash(w->name), &fam[m]);
        at[m++] = i;
    }
    if (lmb_cs_judge(co, fam, m) != 0) {
        free(fam);
        free(at);
        return -1;
    }
    for (size_t k = 0; k < m; k++) {
        struct lmb_cmp_row *w = &rows[at[k]];
        w->cs = fam[k];
        w->ratio = fam[k].ratio;
        w->change_pct = (w->ratio - 1) * 100;
        switch (fam[k].verdict) {
        case LMB_CS_SAME: w->verdict = LMB_V_SAME; break;
        case LMB_CS_BETTER: w->verdict = LMB_V_BETTER; break;
        case LMB_CS_WORSE: w->verdict = LMB_V_WORSE; break;
        case LMB_CS_UNKNOWN: w->verdict = LMB_V_UNKNOWN; break;
        }
    }
    free(fam);
    free(at);
    return 0;
}

int lmb_cmp_pair(const struct lmb_cs_opts *co, const struct lmb_rs_file *base,
                 const struct lmb_rs_file *nf, struct lmb_cmp_set *set)
{
    memset(set, 0, sizeof *set);
    if (pair_records(base, nf, set) != 0)
        return -1;
    if (judge_rows(co, set->rows, set->n) != 0) {
        lmb_cmp_free(set);
        return -1;
    }
    return 0;
}

void lmb_cmp_free(struct lmb_cmp_set *set)
{
    free(set->rows);
    free(set->only_base);
    free(set->only_new);
    memset(set, 0, sizeof *set);
}
