// SPDX-License-Identifier: MIT
/* Records and the classic lines, status messages and report collection. */
#include "lib/report.h"

#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

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
    case LMB_UNIT_MHZ: return 1e6;          /* from Hz */
    case LMB_UNIT_MB: return 1048576.0;     /* from bytes */
    case LMB_UNIT_BYTES:
    case LMB_UNIT_PAGES:
    case LMB_UNIT_RATIO: return 1.0;
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

/* The parameter named key: the one already there (a fact replacing what the
 * benchmark guessed), or a new one. */
static struct lmb_param *new_param(struct lmb_record *r, const char *key)
{
    struct lmb_param *p;

    for (size_t i = 0; i < r->nparams; i++)
        if (strcmp(r->params[i].key, key) == 0)
            return &r->params[i];
    if (r->nparams >= LMB_MAX_PARAMS)
        abort();   /* a programming error in a benchmark file, caught by its test */
    p = &r->params[r->nparams++];
    memset(p, 0, sizeof *p);
    snprintf(p->key, sizeof p->key, "%s", key);
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

void lmb_record_param_double(struct lmb_record *r, const char *key, double v)
{
    struct lmb_param *p = new_param(r, key);
    p->type = LMB_PARAM_DOUBLE;
    p->dval = v;
}

static void set_headline(struct lmb_record *r)
{
    r->has_stats = true;
    r->value = r->headline == LMB_HEAD_MIN   ? r->stats.min
               : r->headline == LMB_HEAD_MAX ? r->stats.max
                                             : r->stats.median;
}

int lmb_record_finish(struct lmb_record *r, struct lmb_result *res)
{
    double divisor = unit_divisor(r->unit);

    r->result = *res;
    memset(res, 0, sizeof *res);
    /* lmbench 3's partners were processes: a thread partner (--threads) is
     * another quantity, whatever the benchmark says of its process one. */
    if (r->result.partners > 0 && r->result.partner_threads && r->compat == NULL)
        r->compat = "new: the partner is a thread of the copy (lmbench 3's was a process)";
    for (unsigned i = 0; i < r->result.nfacts; i++) {
        const struct lmb_fact f = r->result.facts[i];
        if (f.is_int)
            lmb_record_param_int(r, f.key, f.ival);
        else
            lmb_record_param_str(r, f.key, f.sval);
    }
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
    set_headline(r);
    return 0;
}

void lmb_record_free(struct lmb_record *r)
{
    free(r->values);
    r->values = NULL;
    if (r->launches != NULL) {
        lmb_launches_free(r->launches);
        free(r->launches);
        r->launches = NULL;
    }
    lmb_result_free(&r->result);
}

/* --- launches (--launches K) ------------------------------------------------ */

/* The record's identity as lmb_launch_key makes it, with each parameter's
 * value written as its JSON rendering is read back (report_json.c writes reals
 * with 10 significant digits). */
static int record_key(const struct lmb_record *r, char *buf, size_t len)
{
    const char *keys[LMB_MAX_PARAMS], *vals[LMB_MAX_PARAMS];
    char text[LMB_MAX_PARAMS][160];

    for (size_t i = 0; i < r->nparams; i++) {
        const struct lmb_param *p = &r->params[i];
        keys[i] = p->key;
        switch (p->type) {
        case LMB_PARAM_INT: snprintf(text[i], sizeof text[i], "%lld", p->ival); break;
        case LMB_PARAM_STR: snprintf(text[i], sizeof text[i], "%s", p->sval); break;
        case LMB_PARAM_BOOL: snprintf(text[i], sizeof text[i], p->ival ? "true" : "false"); break;
        case LMB_PARAM_DOUBLE:
            if (isfinite(p->dval))
                snprintf(text[i], sizeof text[i], "%.10g", p->dval);
            else
                snprintf(text[i], sizeof text[i], "null");
            break;
        }
        vals[i] = text[i];
    }
    return lmb_launch_key(buf, len, r->benchmark, r->case_name, keys, vals, r->nparams);
}

/* Merges the earlier launches of r's identity into the finished record r. */
static void merge_launches(struct lmb_report *rep, struct lmb_record *r)
{
    struct lmb_launch own;
    struct lmb_launches *ls;
    char key[4096], warn[LMB_WARNING_LEN];
    double *pool, *samples, divisor = unit_divisor(r->unit);
    size_t n;

    if (rep->pool == NULL)
        return;
    memset(&own, 0, sizeof own);
    own.status = r->result.status;
    snprintf(own.reason, sizeof own.reason, "%s", r->result.reason);
    own.samples = r->values;
    own.n = r->values != NULL ? r->result.n : 0;
    own.iters = r->result.iters;
    if (record_key(r, key, sizeof key) != 0) {
        lmb_result_warn(&r->result, "measured in this launch only: its name is too long to match");
        return;
    }
    ls = calloc(1, sizeof *ls);
    if (ls == NULL || lmb_launch_pool_take(rep->pool, key, &own, ls) != 0) {
        free(ls);
        lmb_result_warn(&r->result, "measured in this launch only: out of memory");
        return;
    }
    r->launches = ls;
    if (lmb_launches_warning(ls, warn, sizeof warn))
        lmb_result_warn(&r->result, "%s", warn);
    if (lmb_launches_pool(ls, &pool, &n) != 0) {
        lmb_result_warn(&r->result, "the launches' samples not pooled: out of memory");
        return;
    }
    if (n == 0)
        return;   /* no launch is ok: the record keeps its own samples */
    samples = malloc(n * sizeof *samples);
    if (samples == NULL) {
        free(pool);
        lmb_result_warn(&r->result, "the launches' samples not pooled: out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++)
        samples[i] = pool[i] * divisor;
    free(r->result.samples);
    free(r->values);
    r->result.samples = samples;
    r->result.n = n;
    r->values = pool;
    r->has_stats = false;
    if (lmb_stats_compute(r->values, n, &r->stats) != 0) {
        if (r->result.status == LMB_OK)
            lmb_result_set_status(&r->result, LMB_FAILED, "a sample is not a finite number");
        return;
    }
    set_headline(r);
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
    case LMB_CLASSIC_SIZE_MBSEC:
        n = snprintf(buf, len, "%.6f %.2f MB/sec\n", r->classic_x / 1e6, r->value);
        break;
    case LMB_CLASSIC_LABEL_MBSEC:
        n = snprintf(buf, len, "%s: %.2f MB/sec\n", r->label, r->value);
        break;
    case LMB_CLASSIC_HTTP:
        if (r->classic_n < 1 || r->value <= 0)
            return 0;
        n = snprintf(buf, len, "Avg xfer: %.1fKB, %.1fKB in %.4f millisecs, %.2f MB/sec\n",
                     r->classic_x / r->classic_n / 1e3, r->classic_x / 1e3,
                     r->classic_x / (r->value * 1e6) * 1e3, r->value);
        break;
    /* The processor and memory benchmarks' shapes. */
    case LMB_CLASSIC_LABEL_NS:
        n = snprintf(buf, len, "%s: %.2f nanoseconds\n", r->label, r->value);
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

    /* --- shapes of the operating-system benchmarks ------------------------- */
    case LMB_CLASSIC_MB_US:
        /* lmbench 3 printed small latencies with three decimals, others whole. */
        n = snprintf(buf, len, r->value < 10.0 ? "%.6f %.3f\n" : "%.6f %.0f\n",
                     r->classic_x / 1e6, r->value);
        break;
    case LMB_CLASSIC_LMDD: {
        double mbs = r->value, mb = r->classic_x / 1e6;
        switch (r->classic_mode) {
        case LMB_LMDD_MBS:
            n = snprintf(buf, len, "%s%.2f MB/sec\n", r->label, mbs);
            break;
        case LMB_LMDD_SECS:
            n = snprintf(buf, len, "%s%.4f secs\n", r->label, mb / mbs);
            break;
        case LMB_LMDD_KBS:
            n = snprintf(buf, len, "%s%.0f KB/sec\n", r->label, mbs * 1e3);
            break;
        default:
            n = snprintf(buf, len, "%s%.4f MB in %.4f secs, %.4f MB/sec\n", r->label, mb,
                         mb / mbs, mbs);
            break;
        }
        break;
    }
    case LMB_CLASSIC_COUNT_2F:
        n = snprintf(buf, len, "%.0f %.2f\n", r->classic_x, r->value);
        break;
    case LMB_CLASSIC_CTX_OVR:
        n = snprintf(buf, len, "\n\"size=%.0fk ovr=%.2f\n", r->classic_x, r->value);
        break;
    case LMB_CLASSIC_FS_PAIR:
        return 0;   /* needs both records: lmb_report_add_pair */
    }
    if (n < 0)
        return 0;
    return (size_t)n < len ? (size_t)n : len - 1;
}

/* --- the report ----------------------------------------------------------- */

bool lmb_stream_ok(FILE *f, int *err)
{
    if (f == NULL)
        return true;
    errno = 0;
    if (fflush(f) == 0 && !ferror(f))
        return true;
    if (err != NULL && *err == 0)
        *err = errno ? errno : EIO;
    return false;
}

/* A run id: the start time and 32 random bits, sortable and unique enough to
 * tell runs apart ("20261130T172301Z-3f9a12c4"). */
static void make_run_id(char *buf, size_t len, int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    uint32_t rnd = 0;
    char when[24] = "unknown";

    if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != (ssize_t)sizeof rnd)
        rnd = (uint32_t)((uint64_t)t * 2654435761u) ^ (uint32_t)getpid() ^ (uint32_t)clock();
    if (gmtime_r(&tt, &tm) != NULL)
        strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(buf, len, "%s-%08x", when, (unsigned)rnd);
}

void lmb_report_open(struct lmb_report *rep, const char *prog, const struct lmb_streams *io)
{
    memset(rep, 0, sizeof *rep);
    rep->prog = prog;
    rep->classic = io->classic;
    rep->messages = io->messages;
    rep->json = io->json;
    rep->start_time = (int64_t)time(NULL);
    make_run_id(rep->run_id, sizeof rep->run_id, rep->start_time);
    /* Before anything runs, so that the load seen is not our own. */
    if (rep->json != NULL)
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

void lmb_report_setting(struct lmb_report *rep, struct lmb_setting s)
{
    if (rep->nsettings < LMB_MAX_SETTINGS)
        rep->settings[rep->nsettings++] = s;
}

/* "<prog>: <case> (key=value ...)": enough to tell which point of a sweep a
 * message is about. */
static void message_head(FILE *f, const char *prog, const struct lmb_record *r)
{
    fputs(prog, f);
    if (r->case_name[0])
        fprintf(f, ": %s", r->case_name);
    for (size_t i = 0; i < r->nparams; i++) {
        const struct lmb_param *p = &r->params[i];
        fprintf(f, "%s%s=", i ? " " : r->case_name[0] ? " (" : ": (", p->key);
        switch (p->type) {
        case LMB_PARAM_INT: fprintf(f, "%lld", p->ival); break;
        case LMB_PARAM_STR: {
            /* A file name or other user string: escaped, cut as in messages. */
            char q[LMB_QUOTE_BUF];
            fputs(lmb_quote(p->sval, q, sizeof q), f);
            break;
        }
        case LMB_PARAM_BOOL: fputs(p->ival ? "true" : "false", f); break;
        case LMB_PARAM_DOUBLE: fprintf(f, "%g", p->dval); break;
        }
    }
    if (r->nparams)
        fputc(')', f);
}

/* "<head>: <status>: <reason>", and "<head>: warning: <text>" per warning. */
static void record_messages(struct lmb_report *rep, const struct lmb_record *r)
{
    FILE *f = rep->messages;

    if (f == NULL)
        return;
    if (r->result.status != LMB_OK) {
        message_head(f, rep->prog, r);
        fprintf(f, ": %s: %s\n", lmb_status_name(r->result.status),
                r->result.reason[0] ? r->result.reason : "(no reason given)");
    }
    for (unsigned i = 0; i < r->result.nwarnings; i++) {
        message_head(f, rep->prog, r);
        fprintf(f, ": warning: %s\n", r->result.warnings[i]);
    }
    fflush(f);
}

/* Writes text to the classic stream, noting a failure. */
static void classic_write(struct lmb_report *rep, const char *text)
{
    if (rep->classic == NULL)
        return;
    if (fputs(text, rep->classic) == EOF || fflush(rep->classic) != 0) {
        if (rep->write_errno == 0)
            rep->write_errno = errno ? errno : EIO;
    }
}

/* Finishes r (with the earlier launches' samples when there are launches),
 * counts it and says its status and warnings. */
static void add_finish(struct lmb_report *rep, struct lmb_record *r, struct lmb_result *res)
{
    lmb_record_finish(r, res);
    merge_launches(rep, r);
    rep->counts[r->result.status]++;
    record_messages(rep, r);
}

/* Keeps the finished record for the JSON document (or frees it). */
static void add_keep(struct lmb_report *rep, struct lmb_record *r)
{
    if (rep->json == NULL) {
        lmb_record_free(r);
        return;
    }
    if (rep->nrecords == rep->cap) {
        size_t cap = rep->cap ? rep->cap * 2 : 16;
        struct lmb_record *p = realloc(rep->records, cap * sizeof *p);
        if (p == NULL) {
            if (rep->messages != NULL)
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
}

void lmb_report_add(struct lmb_report *rep, struct lmb_record *r, struct lmb_result *res)
{
    char line[512];

    add_finish(rep, r, res);
    if (lmb_render_classic(r, line, sizeof line) > 0)
        classic_write(rep, line);
    add_keep(rep, r);
}

/* --- two records, one line (operating-system benchmarks) ------------------ */

/* The headline (median) of a raw ok result, in the unit's base (ns for a
 * latency), or -1. */
static double raw_median(const struct lmb_result *r)
{
    struct lmb_stats st;

    if (r->status != LMB_OK || r->n == 0 || lmb_stats_compute(r->samples, r->n, &st) != 0)
        return -1;
    return st.median;
}

void lmb_report_add_pair(struct lmb_report *rep, struct lmb_record *a, struct lmb_result *ra,
                         struct lmb_record *b, struct lmb_result *rb)
{
    double va, vb;
    char line[512] = "";

    /* Finished first: with launches their samples are then the pooled ones. */
    add_finish(rep, a, ra);
    add_finish(rep, b, rb);
    va = raw_median(&a->result);
    vb = raw_median(&b->result);
    /* Size in KiB ("4k", as lmbench 3), or in bytes when it is not whole KiB
     * ("1536", what -s takes), files per sample, then operations per second of
     * each record (their samples are nanoseconds per operation). */
    if (a->classic == LMB_CLASSIC_FS_PAIR && va > 0 && vb > 0) {
        double kib = a->classic_x / 1024.0;
        if (kib == floor(kib))
            snprintf(line, sizeof line, "%.0fk\t%.0f\t%.0f\t%.0f\n", kib, a->classic_y,
                     1e9 / va, 1e9 / vb);
        else
            snprintf(line, sizeof line, "%.0f\t%.0f\t%.0f\t%.0f\n", a->classic_x,
                     a->classic_y, 1e9 / va, 1e9 / vb);
    }
    add_keep(rep, a);
    add_keep(rep, b);
    if (line[0])
        classic_write(rep, line);
}

void lmb_report_marker(struct lmb_report *rep, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n] = '\n';
    line[n + 1] = '\0';
    classic_write(rep, line);
}

void lmb_report_warn(struct lmb_report *rep, const char *fmt, ...)
{
    va_list ap;

    if (rep->messages == NULL)
        return;
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

    for (int s = 0; s < LMB_NSTATUS; s++)
        total += rep->counts[s];
    if (rep->counts[LMB_FAILED] || rep->counts[LMB_TIMEOUT] || rep->write_errno)
        return LMB_EXIT_FAILED;
    if (total > 0 && rep->counts[LMB_SKIPPED] == total)
        return LMB_EXIT_SKIPPED;
    return LMB_EXIT_OK;
}

/* --- results computed from results (the processor and memory benchmarks) ------ */

static void copy_placement(struct lmb_result *out, const struct lmb_result *from)
{
    out->copies = from->copies;
    out->policy = from->policy;
    out->iters = from->iters;
    out->warmup_s = from->warmup_s;
    for (unsigned i = 0; i < from->nwarnings && i < LMB_MAX_RESULT_WARNINGS; i++)
        memcpy(out->warnings[i], from->warnings[i], sizeof out->warnings[i]);
    out->nwarnings = from->nwarnings;
    /* The facts of the measurement (where its ends ran, the pages its buffers
     * got) are the derived figure's facts too. */
    for (unsigned i = 0; i < from->nfacts && i < LMB_MAX_FACTS; i++)
        out->facts[i] = from->facts[i];
    out->nfacts = from->nfacts < LMB_MAX_FACTS ? from->nfacts : LMB_MAX_FACTS;
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
    out->warmup_s = a->warmup_s + (b != NULL ? b->warmup_s : 0);
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
    return lmb_result_set_values(out, v, n);
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

double lmb_result_sort_median(struct lmb_result *r)
{
    if (r->n == 0)
        return NAN;
    lmb_result_sort(r);
    return r->n % 2 ? r->samples[r->n / 2] : (r->samples[r->n / 2 - 1] + r->samples[r->n / 2]) / 2;
}
