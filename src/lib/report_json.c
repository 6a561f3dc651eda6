// SPDX-License-Identifier: MIT
/* The JSON rendering of records and of a command's whole document
 * (doc/results-schema.md), with jansson; a build without it says so. */
#include "lib/report.h"
#include "lib/report_json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

#include "version.h"   /* generated: LMB_VERSION, LMB_CFLAGS_STR */

#if defined(__clang__)
#define COMPILER __VERSION__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "unknown"
#endif

#ifdef LMB_HAVE_JANSSON

bool lmb_have_json(void)
{
    return true;
}

/* json_object_set_new that tolerates a NULL value (allocation failure) by
 * recording the failure in *ok. */
static void put(json_t *obj, const char *key, json_t *v, bool *ok)
{
    if (v == NULL || json_object_set_new(obj, key, v) != 0)
        *ok = false;
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if it is not one. */
static size_t utf8_seq(const unsigned char *s)
{
    unsigned char c = s[0];
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n;

    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;   /* no UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;   /* nothing above U+10FFFF */
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* A JSON string of text that may not be UTF-8 (file names, truncated
 * parameters, what the system reports): each byte that does not start a valid
 * sequence becomes U+FFFD, so the document is never lost to one bad byte. */
static json_t *text_json(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t len = strlen(text), o = 0;
    char *buf;
    json_t *j;

    size_t valid = 0, n;
    while (valid < len && (n = utf8_seq(s + valid)) != 0)
        valid += n;
    if (valid == len)
        return json_string(text);
    buf = malloc(len * 3 + 1);
    if (buf == NULL)
        return NULL;
    for (size_t i = 0; i < len;) {
        n = utf8_seq(s + i);
        if (n == 0) {
            memcpy(buf + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        } else {
            memcpy(buf + o, s + i, n);
            o += n;
            i += n;
        }
    }
    buf[o] = '\0';
    j = json_string(buf);
    free(buf);
    return j;
}

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *iso_time(int64_t t)
{
    char buf[32];
    time_t tt = (time_t)t;
    struct tm tm;

    if (gmtime_r(&tt, &tm) == NULL || strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        return json_null();
    return json_string(buf);
}

static json_t *stats_json(const struct lmb_stats *s, bool *ok)
{
    json_t *o = json_object();

    if (o == NULL) {
        *ok = false;
        return NULL;
    }
    put(o, "n", json_integer((json_int_t)s->n), ok);
    put(o, "min", real_or_null(s->min), ok);
    put(o, "p25", real_or_null(s->p25), ok);
    put(o, "median", real_or_null(s->median), ok);
    put(o, "p75", real_or_null(s->p75), ok);
    put(o, "max", real_or_null(s->max), ok);
    put(o, "mean", real_or_null(s->mean), ok);
    /* A spread needs two samples at least. */
    put(o, "stdev", s->n > 1 ? real_or_null(s->stdev) : json_null(), ok);
    put(o, "cv", s->n > 1 && s->mean != 0.0 ? real_or_null(s->cv) : json_null(), ok);
    if (s->has_ci)
        put(o, "ci95", json_pack("[ff]", s->ci_lo, s->ci_hi), ok);
    else
        put(o, "ci95", json_null(), ok);
    return o;
}

/* Per copy, its partners: [{"cpu": pinned or null, "ran_on": cpu or null}, ...]. */
static json_t *partners_json(const struct lmb_result *res, bool *ok)
{
    json_t *all = json_object(), *per = json_array();

    if (all == NULL || per == NULL) {
        json_decref(all);
        json_decref(per);
        *ok = false;
        return NULL;
    }
    put(all, "kind", json_string(res->partner_threads ? "thread" : "process"), ok);
    for (unsigned i = 0; i < res->copies; i++) {
        json_t *ends = json_array();
        for (unsigned k = 0; ends != NULL && k < res->partners; k++) {
            int a = res->partner_assigned ? res->partner_assigned[i * res->partners + k] : -1;
            int b = res->partner_ran ? res->partner_ran[i * res->partners + k] : -1;
            json_array_append_new(ends, json_pack("{soso}",
                                                  "cpu", a >= 0 ? json_integer(a) : json_null(),
                                                  "ran_on", b >= 0 ? json_integer(b) : json_null()));
        }
        if (ends == NULL || json_array_append_new(per, ends) != 0)
            *ok = false;
    }
    put(all, "per_copy", per, ok);
    return all;
}

/* "launches": each launch's status, reason, samples and their statistics;
 * "between_launches": the ok launches' medians and their CV. */
static void launches_json(json_t *o, const struct lmb_launches *ls, bool *ok)
{
    json_t *all = json_array(), *medians = json_array(), *between = json_object();
    struct lmb_between bl;

    if (all == NULL || medians == NULL || between == NULL) {
        json_decref(all);
        json_decref(medians);
        json_decref(between);
        *ok = false;
        return;
    }
    for (unsigned i = 0; i < ls->k; i++) {
        const struct lmb_launch *l = &ls->l[i];
        json_t *one = json_object(), *samples = json_array();
        struct lmb_stats st;
        if (one == NULL || samples == NULL) {
            json_decref(one);
            json_decref(samples);
            *ok = false;
            break;
        }
        for (size_t j = 0; j < l->n; j++)
            if (json_array_append_new(samples, real_or_null(l->samples[j])) != 0)
                *ok = false;
        put(one, "launch", json_integer((json_int_t)i + 1), ok);
        put(one, "status", json_string(lmb_status_name(l->status)), ok);
        put(one, "reason", l->reason[0] ? text_json(l->reason) : json_null(), ok);
        put(one, "samples", samples, ok);
        if (l->n > 0 && lmb_stats_compute(l->samples, l->n, &st) == 0)
            put(one, "stats", stats_json(&st, ok), ok);
        else
            put(one, "stats", json_null(), ok);
        put(one, "iterations_per_sample", l->iters > 0 ? json_integer((json_int_t)l->iters)
                                                       : json_null(), ok);
        if (json_array_append_new(all, one) != 0)
            *ok = false;
    }
    lmb_launches_between(ls, &bl);
    for (unsigned i = 0; i < bl.n; i++)
        if (json_array_append_new(medians, real_or_null(bl.medians[i])) != 0)
            *ok = false;
    put(between, "n", json_integer((json_int_t)bl.n), ok);
    put(between, "medians", medians, ok);
    put(between, "cv", real_or_null(bl.cv), ok);
    put(o, "launches", all, ok);
    put(o, "between_launches", between, ok);
}

json_t *lmb_record_json(const struct lmb_record *r)
{
    bool ok = true;
    json_t *o = json_object(), *params = json_object();
    const struct lmb_result *res = &r->result;

    if (o == NULL || params == NULL) {
        json_decref(o);
        json_decref(params);
        return NULL;
    }
    put(o, "benchmark", text_json(r->benchmark), &ok);
    put(o, "case", r->case_name[0] ? text_json(r->case_name) : json_null(), &ok);
    for (size_t i = 0; i < r->nparams; i++) {
        const struct lmb_param *p = &r->params[i];
        switch (p->type) {
        case LMB_PARAM_INT: put(params, p->key, json_integer((json_int_t)p->ival), &ok); break;
        case LMB_PARAM_STR: put(params, p->key, text_json(p->sval), &ok); break;
        case LMB_PARAM_BOOL: put(params, p->key, json_boolean(p->ival), &ok); break;
        case LMB_PARAM_DOUBLE:
            put(params, p->key, isfinite(p->dval) ? json_real(p->dval) : json_null(), &ok);
            break;
        }
    }
    put(o, "params", params, &ok);
    put(o, "compat", text_json(r->compat ? r->compat : "same"), &ok);
    put(o, "metric", json_string(lmb_metric_name(r->unit)), &ok);
    put(o, "unit", json_string(lmb_unit_name(r->unit)), &ok);
    put(o, "better", json_string(lmb_unit_higher_is_better(r->unit) ? "higher" : "lower"), &ok);
    put(o, "status", json_string(lmb_status_name(res->status)), &ok);
    put(o, "reason", res->reason[0] ? text_json(res->reason) : json_null(), &ok);
    put(o, "headline",
        json_string(r->headline == LMB_HEAD_MIN   ? "min"
                    : r->headline == LMB_HEAD_MAX ? "max"
                                                  : "median"),
        &ok);
    put(o, "value", res->status == LMB_OK && r->has_stats ? real_or_null(r->value) : json_null(),
        &ok);
    if (res->n > 0 && r->values != NULL) {
        json_t *a = json_array();
        if (a == NULL)
            ok = false;
        for (size_t i = 0; a != NULL && i < res->n; i++)
            if (json_array_append_new(a, real_or_null(r->values[i])) != 0)
                ok = false;
        put(o, "samples", a, &ok);
        put(o, "iterations_per_sample", json_integer((json_int_t)res->iters), &ok);
    } else {
        put(o, "samples", json_array(), &ok);
    }
    if (r->has_stats)
        put(o, "stats", stats_json(&r->stats, &ok), &ok);
    else
        put(o, "stats", json_null(), &ok);
    if (r->launches != NULL)
        launches_json(o, r->launches, &ok);
    if (res->copies > 0) {
        json_t *pl = json_object(), *cpus = json_array(), *ran = json_array();
        if (pl == NULL || cpus == NULL || ran == NULL)
            ok = false;
        for (unsigned i = 0; cpus && ran && i < res->copies; i++) {
            int a = res->cpu_assigned ? res->cpu_assigned[i] : -1;
            int b = res->cpu_ran ? res->cpu_ran[i] : -1;
            json_array_append_new(cpus, a >= 0 ? json_integer(a) : json_null());
            json_array_append_new(ran, b >= 0 ? json_integer(b) : json_null());
        }
        if (pl != NULL) {
            put(pl, "policy", json_string(res->policy ? res->policy : "DEFAULT"), &ok);
            put(pl, "cpus", cpus, &ok);
            put(pl, "ran_on", ran, &ok);
            if (res->partners > 0)
                put(pl, "partners", partners_json(res, &ok), &ok);
        } else {
            json_decref(cpus);
            json_decref(ran);
        }
        put(o, "copies", json_integer(res->copies), &ok);
        put(o, "placement", pl, &ok);
    }
    if (res->copies > 0)
        put(o, "warmup_s", real_or_null(res->warmup_s), &ok);
    put(o, "elapsed_s", real_or_null(res->elapsed_s), &ok);
    {
        json_t *w = json_array();
        for (unsigned i = 0; w != NULL && i < res->nwarnings; i++)
            if (json_array_append_new(w, text_json(res->warnings[i])) != 0)
                ok = false;
        put(o, "warnings", w, &ok);
    }
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *host_json(const struct lmb_report *rep, bool *ok)
{
    const struct lmb_host *h = &rep->host;
    json_t *o = json_object(), *uts, *cpu, *caches, *warn, *timer;

    if (o == NULL) {
        *ok = false;
        return NULL;
    }
    put(o, "hostname", text_json(h->hostname), ok);
    uts = json_pack("{ssssssss}", "sysname", h->uts.sysname, "release", h->uts.release,
                    "version", h->uts.version, "machine", h->uts.machine);
    put(o, "uname", uts, ok);
    cpu = json_pack("{sosIso}", "model", text_json(h->cpu_model), "online", (json_int_t)h->cpus_online,
                    "mhz", h->cpu_mhz > 0 ? json_real(h->cpu_mhz) : json_null());
    put(o, "cpu", cpu, ok);
    caches = json_array();
    for (int i = 0; caches != NULL && i < h->ncaches; i++)
        json_array_append_new(caches, json_pack("{sisssIsi}", "level", h->caches[i].level,
                                                "type", h->caches[i].type,
                                                "size", (json_int_t)h->caches[i].size,
                                                "line", h->caches[i].line));
    put(o, "caches", caches, ok);
    put(o, "memory_bytes", json_integer((json_int_t)h->memory_bytes), ok);
    put(o, "load_avg", json_pack("[fff]", h->loadavg[0], h->loadavg[1], h->loadavg[2]), ok);
    if (rep->clock != NULL)
        timer = json_pack("{sssfsf}", "clock", rep->clock->name,
                          "overhead_ns", rep->clock->overhead_ns,
                          "granularity_ns", rep->clock->granularity_ns);
    else
        timer = json_null();
    put(o, "timer", timer, ok);
    warn = json_array();
    for (int i = 0; warn != NULL && i < h->nwarnings; i++)
        json_array_append_new(warn, text_json(h->warnings[i]));
    put(o, "warnings", warn, ok);
    put(o, "context", lmb_context_json(&h->context), ok);
    return o;
}

static json_t *setting_json(const struct lmb_setting *s)
{
    switch (s->type) {
    case LMB_SET_INT: return json_integer((json_int_t)s->ival);
    case LMB_SET_REAL: return real_or_null(s->dval);
    case LMB_SET_STR: return s->sval ? text_json(s->sval) : json_null();
    case LMB_SET_BOOL: return json_boolean(s->ival);
    case LMB_SET_NULL: return json_null();
    }
    return json_null();
}

int lmb_report_print_json(struct lmb_report *rep, const char *argv0, int argc, char **argv)
{
    bool ok = true;
    json_t *doc = json_object(), *tool, *run, *args, *cfg, *results;
    FILE *out = rep->json;

    if (doc == NULL || out == NULL) {
        json_decref(doc);
        return -1;
    }
    put(doc, "schema", json_string("lmbench-results"), &ok);
    put(doc, "schema_version", json_integer(1), &ok);
    tool = json_pack("{ssssssss}", "name", "lmbench", "version", LMB_VERSION,
                     "compiler", COMPILER, "cflags", LMB_CFLAGS_STR);
    put(doc, "tool", tool, &ok);

    args = json_array();
    if (args != NULL) {
        json_array_append_new(args, text_json(argv0));
        for (int i = 0; i < argc; i++)
            json_array_append_new(args, text_json(argv[i]));
    }
    cfg = json_object();
    for (size_t i = 0; cfg != NULL && i < rep->nsettings; i++)
        put(cfg, rep->settings[i].key, setting_json(&rep->settings[i]), &ok);
    run = json_object();
    if (run != NULL) {
        put(run, "id", json_string(rep->run_id), &ok);
        put(run, "argv", args, &ok);
        put(run, "start", iso_time(rep->start_time), &ok);
        put(run, "end", iso_time((int64_t)time(NULL)), &ok);
        put(run, "config", cfg, &ok);
        int es = lmb_report_exit_status(rep);
        put(run, "status", json_string(es == 0 ? "ok" : es == 3 ? "skipped" : "failed"), &ok);
    } else {
        json_decref(args);
        json_decref(cfg);
    }
    put(doc, "run", run, &ok);
    put(doc, "host", host_json(rep, &ok), &ok);

    results = json_array();
    for (size_t i = 0; results != NULL && i < rep->nrecords; i++) {
        json_t *r = lmb_record_json(&rep->records[i]);
        if (r == NULL || json_array_append_new(results, r) != 0)
            ok = false;
    }
    put(doc, "results", results, &ok);

    if (!ok) {
        json_decref(doc);
        return -1;
    }
    errno = 0;
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) == 0 ? 0 : -1;
    json_decref(doc);
    if (rc != 0 || fputc('\n', out) == EOF || !lmb_stream_ok(out, &rep->write_errno)) {
        if (rep->write_errno == 0)
            rep->write_errno = errno ? errno : EIO;
        rc = -1;
    }
    return rc;
}

#else /* !LMB_HAVE_JANSSON */

bool lmb_have_json(void)
{
    return false;
}

int lmb_report_print_json(struct lmb_report *rep, const char *argv0, int argc, char **argv)
{
    (void)rep;
    (void)argv0;
    (void)argc;
    (void)argv;
    return -2;
}

#endif
