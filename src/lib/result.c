// SPDX-License-Identifier: MIT
/* Results as values: statuses, reasons, warnings and facts of one measurement. */
#include "lib/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[LMB_NSTATUS] = {
    [LMB_OK] = "ok",
    [LMB_SKIPPED] = "skipped",
    [LMB_BELOW_RESOLUTION] = "below_resolution",
    [LMB_TIMEOUT] = "timeout",
    [LMB_FAILED] = "failed",
};

const char *lmb_status_name(enum lmb_status s)
{
    return (unsigned)s < LMB_NSTATUS ? status_names[s] : "unknown";
}

void lmb_result_free(struct lmb_result *r)
{
    free(r->samples);
    free(r->cpu_assigned);
    free(r->cpu_ran);
    free(r->partner_assigned);
    free(r->partner_ran);
    free(r->spans);
    r->samples = NULL;
    r->cpu_assigned = r->cpu_ran = NULL;
    r->partner_assigned = r->partner_ran = NULL;
    r->spans = NULL;
    r->n = 0;
}

void lmb_result_set_status(struct lmb_result *r, enum lmb_status s, const char *fmt, ...)
{
    va_list ap;

    r->status = s;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

void lmb_result_warn(struct lmb_result *r, const char *fmt, ...)
{
    va_list ap;

    if (r->nwarnings >= LMB_MAX_RESULT_WARNINGS) {
        snprintf(r->warnings[LMB_MAX_RESULT_WARNINGS - 1], LMB_WARNING_LEN,
                 "more warnings than fit in a record; some were dropped");
        return;
    }
    va_start(ap, fmt);
    vsnprintf(r->warnings[r->nwarnings++], LMB_WARNING_LEN, fmt, ap);
    va_end(ap);
}

static struct lmb_fact *fact_slot(struct lmb_result *r, const char *key)
{
    struct lmb_fact *f;

    for (unsigned i = 0; i < r->nfacts; i++)
        if (strcmp(r->facts[i].key, key) == 0)
            return &r->facts[i];
    if (r->nfacts >= LMB_MAX_FACTS)
        return NULL;
    f = &r->facts[r->nfacts++];
    memset(f, 0, sizeof *f);
    snprintf(f->key, sizeof f->key, "%s", key);
    return f;
}

void lmb_result_fact_int(struct lmb_result *r, const char *key, long long v)
{
    struct lmb_fact *f = fact_slot(r, key);

    if (f != NULL) {
        f->is_int = true;
        f->ival = v;
    }
}

void lmb_result_fact_str(struct lmb_result *r, const char *key, const char *v)
{
    struct lmb_fact *f = fact_slot(r, key);

    if (f != NULL) {
        f->is_int = false;
        snprintf(f->sval, sizeof f->sval, "%s", v);
    }
}

int lmb_result_set_values(struct lmb_result *r, const double *values, size_t n)
{
    double *copy = n ? malloc(n * sizeof *copy) : NULL;

    if (n > 0 && copy == NULL) {
        lmb_result_set_status(r, LMB_FAILED, "out of memory");
        return -1;
    }
    if (n > 0)
        memcpy(copy, values, n * sizeof *copy);
    free(r->samples);
    r->samples = copy;
    r->n = n;
    r->status = LMB_OK;
    r->reason[0] = '\0';
    return 0;
}

void lmb_result_move(struct lmb_result *to, struct lmb_result *from)
{
    if (to == from)
        return;
    lmb_result_free(to);
    *to = *from;
    memset(from, 0, sizeof *from);
}
