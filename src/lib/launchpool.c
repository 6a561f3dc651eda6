// SPDX-License-Identifier: MIT
/* The outcomes of several launches of one command, pooled per record identity,
 * and the computations over them: pooled samples, the spread between launches,
 * the warning about launches that were not ok. */
#include "lib/launchpool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

void lmb_launches_free(struct lmb_launches *ls)
{
    for (unsigned i = 0; ls->l != NULL && i < ls->k; i++)
        free(ls->l[i].samples);
    free(ls->l);
    ls->l = NULL;
    ls->k = 0;
}

int lmb_launches_pool(const struct lmb_launches *ls, double **out, size_t *n)
{
    size_t total = 0, o = 0;

    *out = NULL;
    *n = 0;
    for (unsigned i = 0; i < ls->k; i++)
        if (ls->l[i].status == LMB_OK)
            total += ls->l[i].n;
    if (total == 0)
        return 0;
    *out = malloc(total * sizeof **out);
    if (*out == NULL)
        return -1;
    for (unsigned i = 0; i < ls->k; i++)
        if (ls->l[i].status == LMB_OK && ls->l[i].n > 0) {
            memcpy(*out + o, ls->l[i].samples, ls->l[i].n * sizeof **out);
            o += ls->l[i].n;
        }
    *n = total;
    return 0;
}

void lmb_launches_between(const struct lmb_launches *ls, struct lmb_between *b)
{
    struct lmb_stats st;

    b->n = 0;
    b->cv = NAN;
    for (unsigned i = 0; i < ls->k && b->n < LMB_MAX_LAUNCHES; i++) {
        if (ls->l[i].status != LMB_OK || ls->l[i].n == 0 ||
            lmb_stats_compute(ls->l[i].samples, ls->l[i].n, &st) != 0)
            continue;
        b->medians[b->n++] = st.median;
    }
    if (b->n >= 2 && lmb_stats_compute(b->medians, b->n, &st) == 0 && st.mean != 0.0)
        b->cv = st.cv;
}

bool lmb_launches_warning(const struct lmb_launches *ls, char *buf, size_t len)
{
    unsigned earlier = ls->k > 0 ? ls->k - 1 : 0, which[LMB_MAX_LAUNCHES];
    bool *said;
    size_t o = 0;

    if (len == 0)
        return false;
    buf[0] = '\0';
    said = calloc(earlier + 1, sizeof *said);
    if (said == NULL)
        return false;
    /* One clause per distinct status and reason, in the order first seen:
     * "launches 1-2 of 3 failed: why; launch 4 of 5 timeout: why". */
    for (unsigned i = 0; i < earlier && o + 1 < len; i++) {
        const struct lmb_launch *l = &ls->l[i];
        unsigned n = 0;
        char list[256];
        int w;
        if (l->status == LMB_OK || said[i])
            continue;
        for (unsigned j = i; j < earlier && n < LMB_MAX_LAUNCHES; j++)
            if (!said[j] && ls->l[j].status == l->status && strcmp(ls->l[j].reason, l->reason) == 0) {
                said[j] = true;
                which[n++] = j + 1;
            }
        lmb_launch_list_text(which, n, list, sizeof list);
        w = snprintf(buf + o, len - o, "%slaunch%s %s of %u %s: %s", o ? "; " : "",
                     n > 1 ? "es" : "", list, ls->k, lmb_status_name(l->status),
                     l->reason[0] ? l->reason : "(no reason given)");
        o = w > 0 && (size_t)w < len - o ? o + (size_t)w : len - 1;
    }
    free(said);
    return o > 0;
}

void lmb_launch_list_text(const unsigned *launches, unsigned n, char *buf, size_t len)
{
    size_t o = 0;

    if (len == 0)
        return;
    buf[0] = '\0';
    for (unsigned i = 0; i < n;) {
        unsigned j = i;
        int w;
        while (j + 1 < n && launches[j + 1] == launches[j] + 1)
            j++;
        if (j == i)
            w = snprintf(buf + o, len - o, "%s%u", o ? ", " : "", launches[i]);
        else
            w = snprintf(buf + o, len - o, "%s%u-%u", o ? ", " : "", launches[i], launches[j]);
        if (w < 0 || (size_t)w >= len - o)
            return;
        o += (size_t)w;
        i = j + 1;
    }
}

/* --- identities ------------------------------------------------------------------ */

bool lmb_launch_identity_param(const char *key)
{
    /* What a launch found out about itself, never what was asked: the
     * parameters lmb_copy_fact_* gives (maps, faults, major_faults,
     * huge_percent, page_bytes), lat_pagefault's faults per page and lat_fs's
     * calibrated file count, what par_ops, par_mem and lat_ops settled on or
     * measured on the way (chains, latency_ns, per_op_ns, elements_per_interval);
     * and those compare ignores for a record's name (vector, file, host).
     * lmbench compare uses this same list. */
    static const char *const not_identity[] = {
        "vector", "file", "host", "maps", "faults", "major_faults", "faults_per_page", "files",
        "huge_percent", "page_bytes", "chains", "latency_ns", "per_op_ns",
        "elements_per_interval",
    };
    for (size_t i = 0; i < sizeof not_identity / sizeof not_identity[0]; i++)
        if (strcmp(key, not_identity[i]) == 0)
            return false;
    return true;
}

/* Separators that never occur in a name or a value we print. */
#define SEP '\x1f'

static bool put_text(char *buf, size_t len, size_t *o, const char *s)
{
    size_t n = strlen(s);

    if (*o + n + 1 > len)
        return false;
    memcpy(buf + *o, s, n);
    *o += n;
    buf[*o] = '\0';
    return true;
}

static bool put_char(char *buf, size_t len, size_t *o, char c)
{
    char s[2] = { c, '\0' };
    return put_text(buf, len, o, s);
}

int lmb_launch_key(char *buf, size_t len, const char *benchmark, const char *case_name,
                   const char *const *keys, const char *const *vals, size_t n)
{
    size_t o = 0, order[64], m = 0;

    if (len == 0)
        return -1;
    buf[0] = '\0';
    for (size_t i = 0; i < n && m < sizeof order / sizeof order[0]; i++)
        if (lmb_launch_identity_param(keys[i]))
            order[m++] = i;
    /* Sorted by key (insertion sort: a record has a dozen parameters at most). */
    for (size_t i = 1; i < m; i++)
        for (size_t j = i; j > 0 && strcmp(keys[order[j - 1]], keys[order[j]]) > 0; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    if (!put_text(buf, len, &o, benchmark ? benchmark : "") || !put_char(buf, len, &o, SEP) ||
        !put_text(buf, len, &o, case_name ? case_name : ""))
        return -1;
    for (size_t i = 0; i < m; i++)
        if (!put_char(buf, len, &o, SEP) || !put_text(buf, len, &o, keys[order[i]]) ||
            !put_char(buf, len, &o, '=') || !put_text(buf, len, &o, vals[order[i]]))
            return -1;
    return 0;
}

void lmb_launch_key_describe(const char *key, char *buf, size_t len)
{
    const char *c = strchr(key, SEP), *p;
    size_t o = 0;
    bool first = true;

    if (len == 0)
        return;
    buf[0] = '\0';
    if (c == NULL) {
        put_text(buf, len, &o, key);
        return;
    }
    c++;
    p = strchr(c, SEP);
    for (const char *s = c; *s && s != p && o + 1 < len; s++)
        put_char(buf, len, &o, *s);
    while (p != NULL) {
        const char *next = strchr(p + 1, SEP);
        put_text(buf, len, &o, first ? (o ? " (" : "(") : " ");
        for (const char *s = p + 1; *s && s != next && o + 1 < len; s++)
            put_char(buf, len, &o, *s);
        first = false;
        p = next;
    }
    if (!first)
        put_char(buf, len, &o, ')');
}

/* --- the pool ---------------------------------------------------------------------- */

int lmb_launch_pool_init(struct lmb_launch_pool *p, unsigned k)
{
    memset(p, 0, sizeof *p);
    if (k < 2 || k > LMB_MAX_LAUNCHES)
        return -1;
    p->k = k;
    p->lost = calloc(k - 1, sizeof *p->lost);
    return p->lost != NULL ? 0 : -1;
}

static void entry_free(struct lmb_pool_entry *e, unsigned earlier)
{
    for (unsigned i = 0; e->l != NULL && i < earlier; i++)
        free(e->l[i].samples);
    free(e->l);
    free(e->present);
    free(e->key);
}

void lmb_launch_pool_free(struct lmb_launch_pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        entry_free(&p->e[i], p->k - 1);
    free(p->e);
    free(p->lost);
    memset(p, 0, sizeof *p);
}

static struct lmb_pool_entry *new_entry(struct lmb_launch_pool *p, const char *key)
{
    struct lmb_pool_entry *e;

    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        struct lmb_pool_entry *ne = realloc(p->e, cap * sizeof *ne);
        if (ne == NULL)
            return NULL;
        p->e = ne;
        p->cap = cap;
    }
    e = &p->e[p->n];
    memset(e, 0, sizeof *e);
    e->key = strdup(key);
    e->l = calloc(p->k - 1, sizeof *e->l);
    e->present = calloc(p->k - 1, sizeof *e->present);
    if (e->key == NULL || e->l == NULL || e->present == NULL) {
        entry_free(e, p->k - 1);
        return NULL;
    }
    p->n++;
    return e;
}

int lmb_launch_pool_add(struct lmb_launch_pool *p, unsigned i, const char *key,
                        enum lmb_status status, const char *reason, const double *samples,
                        size_t n, uint64_t iters)
{
    struct lmb_pool_entry *e = NULL;
    struct lmb_launch *l;

    if (i < 1 || i >= p->k)
        return -1;
    for (size_t j = 0; j < p->n && e == NULL; j++)
        if (!p->e[j].present[i - 1] && strcmp(p->e[j].key, key) == 0)
            e = &p->e[j];
    if (e == NULL && (e = new_entry(p, key)) == NULL)
        return -1;
    l = &e->l[i - 1];
    l->status = status;
    snprintf(l->reason, sizeof l->reason, "%s", reason ? reason : "");
    l->iters = iters;
    l->n = 0;
    l->samples = NULL;
    if (n > 0) {
        l->samples = malloc(n * sizeof *l->samples);
        if (l->samples == NULL)
            return -1;
        memcpy(l->samples, samples, n * sizeof *l->samples);
        l->n = n;
    }
    e->present[i - 1] = true;
    return 0;
}

static int copy_launch(struct lmb_launch *to, const struct lmb_launch *from)
{
    *to = *from;
    to->samples = NULL;
    to->n = 0;
    if (from->n > 0) {
        to->samples = malloc(from->n * sizeof *to->samples);
        if (to->samples == NULL)
            return -1;
        memcpy(to->samples, from->samples, from->n * sizeof *to->samples);
        to->n = from->n;
    }
    return 0;
}

int lmb_launch_pool_take(struct lmb_launch_pool *p, const char *key, const struct lmb_launch *own,
                         struct lmb_launches *out)
{
    struct lmb_pool_entry *e = NULL;

    out->k = 0;
    out->l = calloc(p->k, sizeof *out->l);
    if (out->l == NULL)
        return -1;
    out->k = p->k;
    for (size_t j = 0; j < p->n && e == NULL; j++)
        if (!p->e[j].taken && strcmp(p->e[j].key, key) == 0)
            e = &p->e[j];
    if (e != NULL)
        e->taken = true;
    for (unsigned i = 0; i + 1 < p->k; i++) {
        struct lmb_launch *l = &out->l[i];
        if (e != NULL && e->present[i]) {
            /* Moved, not copied: an entry is taken once. */
            *l = e->l[i];
            e->l[i].samples = NULL;
            e->l[i].n = 0;
            continue;
        }
        l->status = LMB_FAILED;
        if (p->lost[i][0])
            snprintf(l->reason, sizeof l->reason, "%s", p->lost[i]);
        else
            snprintf(l->reason, sizeof l->reason, "this launch did not report this record");
    }
    if (copy_launch(&out->l[p->k - 1], own) != 0) {
        lmb_launches_free(out);
        return -1;
    }
    return 0;
}
