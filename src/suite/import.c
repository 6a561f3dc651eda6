// SPDX-License-Identifier: MIT
/* lmbench import: an lmbench 3 raw results file (or any results file the suite
 * reads) written as one lmbench-results JSON document, so that old runs can be
 * kept, diffed and loaded with the same tools as new ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/outfile.h"
#include "lib/text.h"
#include "results.h"
#include "suite.h"
#include "util.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

static const char usage[] = "[-o FILE] FILE";

static void help(void)
{
    printf("Usage: lmbench import %s\n"
           "Reads a results file (an lmbench 3 raw results file, or our JSON or JSONL) and\n"
           "writes it as one lmbench-results JSON document (doc/results-schema.md) on\n"
           "stdout, or into FILE with -o.\n"
           "\nOptions:\n"
           "  -o FILE      write the document into FILE (replaced atomically)\n"
           "  -h, --help   show this help\n"
           "\nExit status: 0 ok, 1 unreadable input or write error, 2 bad usage,\n"
           "3 skipped (built without jansson). See lmbench-import(1).\n", usage);
}

#ifdef LMB_HAVE_JANSSON

const char *lmb_rs_metric_of_unit(const char *unit)
{
    if (strcmp(unit, "MB/s") == 0)
        return "bandwidth";
    if (strcmp(unit, "us") == 0 || strcmp(unit, "ns") == 0)
        return "latency";
    if (strcmp(unit, "MHz") == 0)
        return "frequency";
    if (strcmp(unit, "x") == 0)
        return "parallelism";   /* as the commands write it (lmb_metric_name) */
    return "size";
}

static json_t *num_or_null(double v, bool has)
{
    return has ? json_real(v) : json_null();
}

static json_t *record_json(const struct lmb_rs_record *r)
{
    json_t *o = json_object(), *p = json_object(), *s = json_array();

    for (size_t i = 0; i < r->nparams; i++) {
        const struct lmb_rs_param *q = &r->params[i];
        switch (q->type) {
        case LMB_RS_INT: json_object_set_new(p, q->key, json_integer((json_int_t)q->num)); break;
        case LMB_RS_NUM: json_object_set_new(p, q->key, json_real(q->num)); break;
        case LMB_RS_BOOL: json_object_set_new(p, q->key, json_boolean(q->num != 0)); break;
        case LMB_RS_STR: json_object_set_new(p, q->key, json_string(q->str)); break;
        }
    }
    for (size_t i = 0; i < r->nsamples; i++)
        json_array_append_new(s, json_real(r->samples[i]));
    json_object_set_new(o, "benchmark", json_string(r->benchmark));
    json_object_set_new(o, "case", r->case_name ? json_string(r->case_name) : json_null());
    json_object_set_new(o, "params", p);
    json_object_set_new(o, "compat", json_string(r->compat ? r->compat : "same"));
    json_object_set_new(o, "metric", json_string(lmb_rs_metric_of_unit(r->unit)));
    json_object_set_new(o, "unit", json_string(r->unit));
    json_object_set_new(o, "better", json_string(r->higher_better ? "higher" : "lower"));
    json_object_set_new(o, "status", json_string(lmb_rs_status_name(r->status)));
    json_object_set_new(o, "reason", r->reason ? json_string(r->reason) : json_null());
    json_object_set_new(o, "headline", json_string(r->headline ? r->headline : "median"));
    json_object_set_new(o, "value", num_or_null(r->value, r->has_value && r->status == LMB_RS_OK));
    json_object_set_new(o, "samples", s);
    if (r->nlaunches > 1) {
        /* The launches of a --launches record, as far as the file said: the ok
         * launches' samples (the others' are not kept by the reader). */
        json_t *l = json_array();
        size_t at = 0;
        for (size_t k = 0; k < r->nlaunches; k++) {
            json_t *ls = json_array();
            for (size_t j = 0; j < r->launch_n[k] && at < r->nsamples; j++)
                json_array_append_new(ls, json_real(r->samples[at++]));
            json_array_append_new(l, json_pack("{sIsssnso}", "launch", (json_int_t)(k + 1),
                                               "status", "ok", "reason", "samples", ls));
        }
        json_object_set_new(o, "launches", l);
    }
    json_object_set_new(o, "stats", json_null());
    json_object_set_new(o, "elapsed_s", json_null());
    if (r->disturbed)
        json_object_set_new(o, "disturbed", json_true());
    return o;
}

/* "Mon Nov 30 10:26:29 UTC 2026" (date(1) in UTC) as ISO 8601, else NULL. */
static json_t *iso_from_date(const char *s)
{
    struct tm tm;
    char buf[32];
    const char *end;

    if (s == NULL)
        return json_null();
    memset(&tm, 0, sizeof tm);
    end = strptime(s, "%a %b %d %H:%M:%S UTC %Y", &tm);
    if (end == NULL || *end != '\0')
        return json_null();
    if (strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        return json_null();
    return json_string(buf);
}

static json_t *file_json(const struct lmb_rs_file *f)
{
    json_t *doc = json_object(), *tool, *run, *cfg, *host, *uts, *cpu, *warn, *res, *imp, *hdr;
    const char *ver = lmb_rs_header(f, "LMBENCH VERSION"), *v;
    bool raw = f->format == LMB_RS_RAW3;

    json_object_set_new(doc, "schema", json_string("lmbench-results"));
    json_object_set_new(doc, "schema_version", json_integer(1));
    tool = json_object();
    json_object_set_new(tool, "name", json_string("lmbench"));
    json_object_set_new(tool, "version", json_string(raw ? (ver && *ver ? ver : "lmbench 3")
                                                         : "unknown"));
    json_object_set_new(doc, "tool", tool);

    run = json_object();
    json_object_set_new(run, "id", f->run_id ? json_string(f->run_id) : json_null());
    json_object_set_new(run, "argv", json_null());
    json_object_set_new(run, "start", raw ? iso_from_date(f->start)
                                          : f->start ? json_string(f->start) : json_null());
    json_object_set_new(run, "end", raw ? iso_from_date(f->end)
                                        : f->end ? json_string(f->end) : json_null());
    cfg = json_object();
    json_object_set_new(cfg, "parallel", f->parallel > 0 ? json_integer(f->parallel) : json_null());
    if (raw) {
        static const char *const keys[] = { "MB", "ENOUGH", "FSDIR", "REMOTE", "LMBENCH_SCHED",
                                            "BENCHMARK_HARDWARE", "BENCHMARK_OS" };
        hdr = json_object();
        for (size_t i = 0; i < f->nheader; i++)
            json_object_set_new(hdr, f->header[i].key, json_string(f->header[i].value));
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if ((v = lmb_rs_header(f, keys[i])) != NULL)
                json_object_set_new(cfg, keys[i], json_string(v));
        imp = json_object();
        json_object_set_new(imp, "format", json_string("lmbench3-raw"));
        json_object_set_new(imp, "start_text", f->start ? json_string(f->start) : json_null());
        json_object_set_new(imp, "end_text", f->end ? json_string(f->end) : json_null());
        json_object_set_new(imp, "header", hdr);
        json_object_set_new(run, "imported", imp);
    }
    json_object_set_new(run, "config", cfg);
    json_object_set_new(run, "status", json_string(f->status ? f->status : "ok"));
    json_object_set_new(doc, "run", run);

    host = json_object();
    json_object_set_new(host, "hostname", json_string(f->hostname ? f->hostname : "unknown"));
    uts = json_object();
    json_object_set_new(uts, "sysname", json_string(f->sysname ? f->sysname : ""));
    json_object_set_new(uts, "release", json_string(f->release ? f->release : ""));
    json_object_set_new(uts, "version", json_string(f->version ? f->version : ""));
    json_object_set_new(uts, "machine", json_string(f->machine ? f->machine : ""));
    json_object_set_new(host, "uname", uts);
    json_object_set_new(host, "platform", f->platform ? json_string(f->platform) : json_null());
    cpu = json_object();
    json_object_set_new(cpu, "model", json_string(""));
    json_object_set_new(cpu, "online", json_integer(f->cpus_online));
    json_object_set_new(cpu, "mhz", json_null());
    json_object_set_new(host, "cpu", cpu);
    {
        json_t *caches = json_array();
        for (int i = 0; i < f->ncaches; i++)
            json_array_append_new(caches, json_pack("{sisssIsi}", "level", f->caches[i].level,
                                                    "type", f->caches[i].type,
                                                    "size", (json_int_t)f->caches[i].size,
                                                    "line", f->caches[i].line));
        json_object_set_new(host, "caches", caches);
    }
    warn = json_array();
    for (size_t i = 0; i < f->nwarnings; i++)
        json_array_append_new(warn, json_string(f->warnings[i]));
    json_object_set_new(host, "warnings", warn);
    if (f->ncontext > 0) {
        json_t *ctx = json_object();
        for (size_t i = 0; i < f->ncontext; i++)
            json_object_set_new(ctx, f->context[i].key, json_string(f->context[i].value));
        json_object_set_new(host, "context", ctx);
    }
    json_object_set_new(doc, "host", host);

    res = json_array();
    for (size_t i = 0; i < f->nrecs; i++)
        json_array_append_new(res, record_json(&f->recs[i]));
    json_object_set_new(doc, "results", res);
    return doc;
}

static int write_doc(json_t *doc, const char *out)
{
    struct lmb_outfile of;
    char err[LMB_QUOTE_BUF + 128];
    int rc;

    if (out == NULL) {
        rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        if (rc == 0)
            fputc('\n', stdout);
        return lmb_verb_check_output("import", stdout, "the document") != 0 || rc != 0 ? 1 : 0;
    }
    /* lib/outfile.h: a device or FIFO written through, else a temporary file renamed. */
    if (lmb_outfile_open(&of, out, 0, err, sizeof err) != 0) {
        fprintf(stderr, "lmbench import: %s\n", err);
        return 1;
    }
    rc = json_dumpf(doc, of.fp, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    if (rc == 0)
        fputc('\n', of.fp);
    if (rc != 0) {
        lmb_outfile_fail(&of, err, sizeof err);
        fprintf(stderr, "lmbench import: %s\n", err);
        return 1;
    }
    if (lmb_outfile_commit(&of, err, sizeof err) != 0) {
        fprintf(stderr, "lmbench import: %s\n", err);
        return 1;
    }
    return 0;
}
#endif

int lmb_suite_import(int argc, char **argv)
{
    const char *out = NULL, *in = NULL;
    struct lmb_rs_file f;
    char err[512];
    int rc, r;

    lmb_cleanup_init();   /* -o's temporary file goes on SIGINT */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            help();
            return lmb_verb_check_output("import", stdout, "the help");
        }
        if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return lmb_verb_usage_error("import", usage, "-o needs a file name");
            out = argv[++i];
        } else if ((r = lmb_long_opt(argc, argv, &i, "--output", &out)) != 0) {
            if (r < 0)
                return lmb_verb_usage_error("import", usage, "--output needs a file name");
        } else if (a[0] == '-' && a[1] != '\0') {
            return lmb_verb_usage_error("import", usage, "unknown option '%s'", lmb_quote_arg(a));
        } else if (in != NULL) {
            return lmb_verb_usage_error("import", usage, "one input file only");
        } else {
            in = a;
        }
    }
    if (in == NULL)
        return lmb_verb_usage_error("import", usage, "needs a results file");
#ifndef LMB_HAVE_JANSSON
    (void)out;
    (void)f;
    (void)err;
    (void)rc;
    fprintf(stderr, "lmbench import: skipped: built without jansson\n");
    return 3;
#else
    rc = lmb_rs_load(in, &f, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "lmbench import: %s\n", err);
        return rc == -2 ? 3 : 1;
    }
    json_t *doc = file_json(&f);
    lmb_rs_free(&f);
    if (doc == NULL) {
        fprintf(stderr, "lmbench import: out of memory\n");
        return 1;
    }
    rc = write_doc(doc, out);
    json_decref(doc);
    return rc;
#endif
}
