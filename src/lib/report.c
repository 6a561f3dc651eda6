// SPDX-License-Identifier: MIT
/* Records and the classic lines, status messages and report collection. */
#include "report.h"
#include "report_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sysinfo.h"

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

static const char *const status_names[] = {
    [LMB_OK] = "ok",
    [LMB_SKIPPED] = "skipped",
    [LMB_BELOW_RESOLUTION] = "below_resolution",
    [LMB_TIMEOUT] = "timeout",
    [LMB_FAILED] = "failed",
};

const char *lmb_status_name(enum lmb_status s)
{
    return status_names[s];
}

void lmb_result_free(struct lmb_result *r)
{
    free(r->samples);
    free(r->cpu_assigned);
    free(r->cpu_ran);
    r->samples = NULL;
    r->cpu_assigned = NULL;
    r->cpu_ran = NULL;
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

/* --- results computed from results ------------------------------------------ */

static void copy_placement(struct lmb_result *out, const struct lmb_result *from)
{
    out->copies = from->copies;
    out->policy = from->policy;
    out->iters = from->iters;
    if (from->copies > 0 && from->cpu_assigned != NULL && from->cpu_ran != NULL) {
        out->cpu_assigned = malloc(from->copies * sizeof *out->cpu_assigned);
        out->cpu_ran = malloc(from->copies * sizeof *out->cpu_ran);
        if (out->cpu_assigned == NULL || out->cpu_ran == NULL) {
            free(out->cpu_assigned);
            free(out->cpu_ran);
            out->cpu_assigned = out->cpu_ran = NULL;
            out->copies = 0;
            return;
        }
        memcpy(out->cpu_assigned, from->cpu_assigned, from->copies * sizeof *out->cpu_assigned);
        memcpy(out->cpu_ran, from->cpu_ran, from->copies * sizeof *out->cpu_ran);
    } else {
        out->copies = 0;
    }
}

int lmb_result_derive(struct lmb_result *out, const struct lmb_result *a,
                      const struct lmb_result *b, double (*f)(double a, double b, void *arg),
                      void *arg)
{
    memset(out, 0, sizeof *out);
    copy_placement(out, a);
    out->elapsed_s = a->elapsed_s + (b != NULL ? b->elapsed_s : 0);
    if (a->status != LMB_OK) {
        lmb_result_set_status(out, a->status, "%s", a->reason);
        return 0;
    }
    if (b != NULL && b->status != LMB_OK) {
        lmb_result_set_status(out, b->status, "%s", b->reason);
        return 0;
    }
    if (b != NULL && b->n != a->n) {
        lmb_result_set_status(out, LMB_FAILED, "results of %zu and %zu samples cannot be combined",
                              a->n, b->n);
        return -1;
    }
    if (a->n > 0) {
        out->samples = malloc(a->n * sizeof *out->samples);
        if (out->samples == NULL) {
            lmb_result_set_status(out, LMB_FAILED, "out of memory");
            return -1;
        }
    }
    for (size_t i = 0; i < a->n; i++)
        out->samples[i] = f(a->samples[i], b != NULL ? b->samples[i] : 0.0, arg);
    out->n = a->n;
    out->status = LMB_OK;
    return 0;
}

int lmb_result_values(struct lmb_result *out, const double *v, size_t n,
                      const struct lmb_result *from)
{
    memset(out, 0, sizeof *out);
    if (from != NULL)
        copy_placement(out, from);
    if (n > 0) {
        out->samples = malloc(n * sizeof *out->samples);
        if (out->samples == NULL) {
            lmb_result_set_status(out, LMB_FAILED, "out of memory");
            return -1;
        }
        memcpy(out->samples, v, n * sizeof *v);
    }
    out->n = n;
    out->status = LMB_OK;
    return 0;
}

double lmb_result_min(const struct lmb_result *r)
{
    double m = INFINITY;

    for (size_t i = 0; i < r->n; i++)
        if (r->samples[i] < m)
            m = r->samples[i];
    return m;
}

static int cmp_sample(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void lmb_result_sort(struct lmb_result *r)
{
    if (r->n > 1)
        qsort(r->samples, r->n, sizeof *r->samples, cmp_sample);
}

double lmb_result_median(struct lmb_result *r)
{
    if (r->n == 0)
        return NAN;
    lmb_result_sort(r);
    return r->n % 2 ? r->samples[r->n / 2] : (r->samples[r->n / 2 - 1] + r->samples[r->n / 2]) / 2;
}

/* --- units ---------------------------------------------------------------- */

const char *lmb_unit_name(enum lmb_unit u)
{
    switch (u) {
    case LMB_UNIT_US: return "us";
    case LMB_UNIT_NS: return "ns";
    case LMB_UNIT_MBS: return "MB/s";
    case LMB_UNIT_MHZ: return "MHz";
    case LMB_UNIT_BYTES: return "bytes";
    case LMB_UNIT_PAGES: return "pages";
    case LMB_UNIT_MB: return "MB";
    case LMB_UNIT_RATIO: return "x";
    }
    return "";
}

const char *lmb_metric_name(enum lmb_unit u)
{
    switch (u) {
    case LMB_UNIT_US:
    case LMB_UNIT_NS: return "latency";
    case LMB_UNIT_MBS: return "bandwidth";
    case LMB_UNIT_MHZ: return "frequency";
    case LMB_UNIT_BYTES:
    case LMB_UNIT_PAGES:
    case LMB_UNIT_MB: return "size";
    case LMB_UNIT_RATIO: return "parallelism";
    }
    return "";
}

bool lmb_unit_higher_is_better(enum lmb_unit u)
{
    return u != LMB_UNIT_US && u != LMB_UNIT_NS;
}

/* Samples arrive in SI (ns per operation, bytes per second); a value in the
 * record's unit is the sample divided by this. */
static double unit_divisor(enum lmb_unit u)
{
    switch (u) {
    case LMB_UNIT_US: return 1e3;
    case LMB_UNIT_NS: return 1.0;
    case LMB_UNIT_MBS: return 1e6;
    case LMB_UNIT_MHZ:
    case LMB_UNIT_BYTES:
    case LMB_UNIT_PAGES:
    case LMB_UNIT_MB:
    case LMB_UNIT_RATIO: return 1.0;   /* computed in the unit itself */
    }
    return 1.0;
}

/* --- records -------------------------------------------------------------- */

void lmb_record_init(struct lmb_record *r, const char *benchmark, const char *case_name,
                     enum lmb_unit unit)
{
    memset(r, 0, sizeof *r);
    r->benchmark = benchmark;
    snprintf(r->case_name, sizeof r->case_name, "%s", case_name ? case_name : "");
    r->unit = unit;
    r->headline = LMB_HEAD_MEDIAN;
    r->classic = LMB_CLASSIC_NONE;
}

static struct lmb_param *new_param(struct lmb_record *r, const char *key)
{
    struct lmb_param *p;

    if (r->nparams >= LMB_MAX_PARAMS)
        abort();   /* a programming error in a benchmark file, caught by its test */
    p = &r->params[r->nparams++];
    memset(p, 0, sizeof *p);
    p->key = key;
    return p;
}

void lmb_record_param_int(struct lmb_record *r, const char *key, long long v)
{
    struct lmb_param *p = new_param(r, key);
    p->type = LMB_PARAM_INT;
    p->ival = v;
}

void lmb_record_param_str(struct lmb_record *r, const char *key, const char *v)
{
    struct lmb_param *p = new_param(r, key);
    p->type = LMB_PARAM_STR;
    snprintf(p->sval, sizeof p->sval, "%s", v);
}

void lmb_record_param_bool(struct lmb_record *r, const char *key, bool v)
{
    struct lmb_param *p = new_param(r, key);
    p->type = LMB_PARAM_BOOL;
    p->ival = v;
}

int lmb_record_finish(struct lmb_record *r, struct lmb_result *res)
{
    double divisor = unit_divisor(r->unit);

    r->result = *res;
    memset(res, 0, sizeof *res);
    r->has_stats = false;
    r->values = NULL;
    if (r->result.n == 0)
        return 0;
    r->values = malloc(r->result.n * sizeof *r->values);
    if (r->values == NULL) {
        lmb_result_set_status(&r->result, LMB_FAILED, "out of memory for statistics");
        return -1;
    }
    for (size_t i = 0; i < r->result.n; i++)
        r->values[i] = r->result.samples[i] / divisor;
    if (lmb_stats_compute(r->values, r->result.n, &r->stats) != 0) {
        if (r->result.status == LMB_OK)
            lmb_result_set_status(&r->result, LMB_FAILED, "a sample is not a finite number");
        return 0;
    }
    r->has_stats = true;
    r->value = r->headline == LMB_HEAD_MIN ? r->stats.min : r->stats.median;
    return 0;
}

void lmb_record_free(struct lmb_record *r)
{
    free(r->values);
    r->values = NULL;
    lmb_result_free(&r->result);
}

/* --- classic lines -------------------------------------------------------- */

size_t lmb_render_classic(const struct lmb_record *r, char *buf, size_t len)
{
    int n = 0;

    if (r->result.status != LMB_OK || !r->has_stats || len == 0)
        return 0;
    switch (r->classic) {
    case LMB_CLASSIC_NONE:
        return 0;
    case LMB_CLASSIC_LABEL_US:
        n = snprintf(buf, len, "%s: %.4f microseconds\n", r->label, r->value);
        break;
    case LMB_CLASSIC_SIZE_MBS: {
        double mb = r->classic_x / 1e6;
        n = snprintf(buf, len, mb < 1.0 ? "%.6f %.2f\n" : "%.2f %.2f\n", mb, r->value);
        break;
    }
    case LMB_CLASSIC_MEMLAT:
        n = snprintf(buf, len, "%.5f %.3f\n", r->classic_x / (1024.0 * 1024.0), r->value);
        break;
    /* The processor and memory benchmarks' shapes. */
    case LMB_CLASSIC_LABEL_NS:
        n = snprintf(buf, len, "%s: %.2f nanoseconds\n", r->label, r->value);
        break;
    case LMB_CLASSIC_LABEL_MBSEC:
        n = snprintf(buf, len, "%s: %.2f MB/sec\n", r->label, r->value);
        break;
    case LMB_CLASSIC_LABEL_VALUE:
        n = snprintf(buf, len, "%s: %.2f\n", r->label, r->value);
        break;
    case LMB_CLASSIC_MHZ:
        n = snprintf(buf, len, "%.0f MHz, %.4f nanosec clock\n", r->value, 1000.0 / r->value);
        break;
    case LMB_CLASSIC_PERIOD:
        n = snprintf(buf, len, "%.4f\n", 1000.0 / r->value);
        break;
    case LMB_CLASSIC_INT:
        n = snprintf(buf, len, "%.0f\n", r->value);
        break;
    case LMB_CLASSIC_LABEL_INT:
        n = snprintf(buf, len, "%s: %.0f %s\n", r->label, r->value, lmb_unit_name(r->unit));
        break;
    case LMB_CLASSIC_TLB_NS:
        n = snprintf(buf, len, "%s: %.0f %s %.5f nanoseconds\n", r->label, r->value,
                     lmb_unit_name(r->unit), r->classic_extra[0]);
        break;
    case LMB_CLASSIC_CACHE:
        n = snprintf(buf, len, "L%.0f cache: %.0f bytes %.2f nanoseconds %.0f linesize "
                               "%.2f parallelism\n",
                     r->classic_x, r->value, r->classic_extra[0], r->classic_extra[1],
                     r->classic_extra[2]);
        break;
    case LMB_CLASSIC_CACHE_MEM:
        n = snprintf(buf, len, "Memory latency: %.2f nanoseconds %.2f parallelism\n", r->value,
                     r->classic_extra[0]);
        break;
    case LMB_CLASSIC_SIZE_VALUE:
        n = snprintf(buf, len, "%.6f %.2f\n", r->classic_x / 1e6, r->value);
        break;
    case LMB_CLASSIC_FLOAT:
        n = snprintf(buf, len, "%f\n", r->value);
        break;
    }
    if (n < 0)
        return 0;
    return (size_t)n < len ? (size_t)n : len - 1;
}

/* --- the report ----------------------------------------------------------- */

void lmb_report_open(struct lmb_report *rep, const char *prog, bool json)
{
    memset(rep, 0, sizeof *rep);
    rep->prog = prog;
    rep->json = json;
    rep->classic = stderr;
    rep->messages = stderr;
    rep->start_time = (int64_t)time(NULL);
    /* Before anything runs, so that the load seen is not our own. */
    if (json)
        lmb_host_probe(&rep->host);
}

void lmb_report_close(struct lmb_report *rep)
{
    for (size_t i = 0; i < rep->nrecords; i++)
        lmb_record_free(&rep->records[i]);
    free(rep->records);
    rep->records = NULL;
    rep->nrecords = rep->cap = 0;
}

/* "<prog>: <case> (key=value ...): <status>: <reason>", the case and the
 * parameters when there are any: enough to tell which point of a sweep it is
 * about. */
static void status_message(struct lmb_report *rep, const struct lmb_record *r)
{
    FILE *f = rep->messages;

    fputs(rep->prog, f);
    if (r->case_name[0])
        fprintf(f, ": %s", r->case_name);
    for (size_t i = 0; i < r->nparams; i++) {
        const struct lmb_param *p = &r->params[i];
        fprintf(f, "%s%s=", i ? " " : r->case_name[0] ? " (" : ": (", p->key);
        switch (p->type) {
        case LMB_PARAM_INT: fprintf(f, "%lld", p->ival); break;
        case LMB_PARAM_STR: fputs(p->sval, f); break;
        case LMB_PARAM_BOOL: fputs(p->ival ? "true" : "false", f); break;
        }
    }
    fprintf(f, "%s: %s: %s\n", r->nparams ? ")" : "", lmb_status_name(r->result.status),
            r->result.reason[0] ? r->result.reason : "(no reason given)");
    fflush(f);
}

void lmb_report_add(struct lmb_report *rep, struct lmb_record *r, struct lmb_result *res)
{
    lmb_record_finish(r, res);
    rep->counts[r->result.status]++;
    if (r->result.status != LMB_OK)
        status_message(rep, r);

    if (rep->json) {
        if (rep->nrecords == rep->cap) {
            size_t cap = rep->cap ? rep->cap * 2 : 16;
            struct lmb_record *p = realloc(rep->records, cap * sizeof *p);
            if (p == NULL) {
                fprintf(rep->messages, "%s: out of memory keeping results\n", rep->prog);
                rep->counts[LMB_FAILED]++;
                lmb_record_free(r);
                return;
            }
            rep->records = p;
            rep->cap = cap;
        }
        rep->records[rep->nrecords++] = *r;
        memset(r, 0, sizeof *r);
        return;
    }
    char line[512];
    size_t n = lmb_render_classic(r, line, sizeof line);
    if (n > 0) {
        fputs(line, rep->classic);
        fflush(rep->classic);
    }
    lmb_record_free(r);
}

void lmb_report_marker(struct lmb_report *rep, const char *fmt, ...)
{
    va_list ap;

    if (rep->json)
        return;
    va_start(ap, fmt);
    vfprintf(rep->classic, fmt, ap);
    va_end(ap);
    fputc('\n', rep->classic);
    fflush(rep->classic);
}

void lmb_report_warn(struct lmb_report *rep, const char *fmt, ...)
{
    va_list ap;

    fprintf(rep->messages, "%s: warning: ", rep->prog);
    va_start(ap, fmt);
    vfprintf(rep->messages, fmt, ap);
    va_end(ap);
    fputc('\n', rep->messages);
    fflush(rep->messages);
}

int lmb_report_exit_status(const struct lmb_report *rep)
{
    unsigned total = 0;

    for (int s = 0; s <= LMB_FAILED; s++)
        total += rep->counts[s];
    if (rep->counts[LMB_FAILED] || rep->counts[LMB_TIMEOUT])
        return 1;
    if (total > 0 && rep->counts[LMB_SKIPPED] == total)
        return 3;
    return 0;
}

/* --- JSON ----------------------------------------------------------------- */

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
    put(o, "stdev", real_or_null(s->stdev), ok);
    put(o, "cv", real_or_null(s->cv), ok);
    if (s->has_ci)
        put(o, "ci95", json_pack("[ff]", s->ci_lo, s->ci_hi), ok);
    else
        put(o, "ci95", json_null(), ok);
    return o;
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
        }
    }
    put(o, "params", params, &ok);
    put(o, "metric", json_string(lmb_metric_name(r->unit)), &ok);
    put(o, "unit", json_string(lmb_unit_name(r->unit)), &ok);
    put(o, "better", json_string(lmb_unit_higher_is_better(r->unit) ? "higher" : "lower"), &ok);
    put(o, "status", json_string(lmb_status_name(res->status)), &ok);
    put(o, "reason", res->reason[0] ? text_json(res->reason) : json_null(), &ok);
    put(o, "headline", json_string(r->headline == LMB_HEAD_MIN ? "min" : "median"), &ok);
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
        } else {
            json_decref(cpus);
            json_decref(ran);
        }
        put(o, "copies", json_integer(res->copies), &ok);
        put(o, "placement", pl, &ok);
    }
    put(o, "elapsed_s", real_or_null(res->elapsed_s), &ok);
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
    return o;
}

int lmb_report_print_json(const struct lmb_report *rep, FILE *out, const char *argv0,
                          int argc, char **argv)
{
    bool ok = true;
    const struct lmb_run_config *c = &rep->config;
    json_t *doc = json_object(), *tool, *run, *args, *cfg, *results;

    if (doc == NULL)
        return -1;
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
    if (cfg != NULL) {
        put(cfg, "parallel", json_integer(c->parallel), &ok);
        put(cfg, "warmup_us", json_integer((json_int_t)c->warmup_us), &ok);
        put(cfg, "repetitions", json_integer(c->repetitions), &ok);
        put(cfg, "timeout_s", json_real(c->timeout_s), &ok);
        put(cfg, "interval_us", json_real((double)c->interval_ns / 1e3), &ok);
        put(cfg, "interval_source", json_string(c->interval_source ? c->interval_source : "default"),
            &ok);
        put(cfg, "sched", json_string(c->sched ? c->sched : "DEFAULT"), &ok);
        put(cfg, "cpus", c->cpus ? text_json(c->cpus) : json_null(), &ok);
    }
    run = json_object();
    if (run != NULL) {
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
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) == 0 ? 0 : -1;
    json_decref(doc);
    if (fputc('\n', out) == EOF || fflush(out) != 0 || ferror(out))
        rc = -1;
    return rc;
}

#else /* !LMB_HAVE_JANSSON */

bool lmb_have_json(void)
{
    return false;
}

int lmb_report_print_json(const struct lmb_report *rep, FILE *out, const char *argv0,
                          int argc, char **argv)
{
    (void)rep;
    (void)out;
    (void)argv0;
    (void)argc;
    (void)argv;
    return -2;
}

#endif
