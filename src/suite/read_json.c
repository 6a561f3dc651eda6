// SPDX-License-Identifier: MIT
/* Reading our JSON results: one lmbench-results document (a command's --json or
 * `lmbench run`'s <host>.<n>.json), or a .jsonl file (a header line with tool,
 * run and host, then one record per line, as `lmbench run` appends them). Keys
 * this reader does not know are ignored, as doc/results-schema.md asks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/input.h"
#include "readers.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>

static char *str_or_null(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? lmb_rs_strdup(json_string_value(v)) : NULL;
}

/* The "launches" array: each launch's sample count, for the ok launches whose
 * samples are in "samples" (in launch order). A count that does not add up to
 * the samples read is dropped (the file is then read as of one launch). */
static int read_launches(json_t *a, struct lmb_rs_record *r, char *err, size_t errlen)
{
    json_t *l;
    size_t i, sum = 0;

    if (!json_is_array(a) || json_array_size(a) == 0)
        return 0;
    r->launches_asked = json_array_size(a);
    r->launch_n = malloc(json_array_size(a) * sizeof *r->launch_n);
    if (r->launch_n == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    json_array_foreach(a, i, l) {
        json_t *st = json_object_get(l, "status"), *smp = json_object_get(l, "samples");
        size_t n = 0, j;
        json_t *v;

        if (json_is_string(st) && strcmp(json_string_value(st), "ok") != 0)
            continue;
        json_array_foreach(smp, j, v)
            if (json_is_number(v))
                n++;
        if (n == 0)
            continue;
        r->launch_n[r->nlaunches++] = n;
        sum += n;
    }
    if (sum != r->nsamples) {
        free(r->launch_n);
        r->launch_n = NULL;
        r->nlaunches = 0;
    }
    return 0;
}

/* A step of run.steps or a .jsonl step line. */
static void read_step(json_t *o, struct lmb_rs_file *f)
{
    struct lmb_rs_step *s = lmb_rs_step_add(f);
    json_t *v = json_object_get(o, "step"), *x = json_object_get(o, "interference");

    if (json_is_integer(v))
        s->step = (int)json_integer_value(v);
    s->name = str_or_null(o, "name");
    s->status = str_or_null(o, "status");
    v = json_object_get(o, "attempts");
    s->attempts = json_is_integer(v) ? (int)json_integer_value(v) : 0;
    s->disturbed = json_is_true(json_object_get(o, "disturbed")) ||
                   json_is_true(json_object_get(x, "disturbed"));
    v = json_object_get(x, "other_share");
    if (json_is_number(v))
        s->other_share = json_number_value(v);
    v = json_object_get(x, "steal_share");
    if (json_is_number(v))
        s->steal_share = json_number_value(v);
}

static int read_record(json_t *o, struct lmb_rs_file *f, char *err, size_t errlen, long line)
{
    json_t *b = json_object_get(o, "benchmark"), *c = json_object_get(o, "case");
    json_t *u = json_object_get(o, "unit"), *p, *v, *s, *st;
    struct lmb_rs_record *r;
    const char *key;
    enum lmb_rs_status status = LMB_RS_OK;

    if (!json_is_string(b)) {
        if (line > 0)
            snprintf(err, errlen, "line %ld: a record without \"benchmark\"", line);
        else
            snprintf(err, errlen, "a record without \"benchmark\"");
        return -1;
    }
    r = lmb_rs_add(f, json_string_value(b), json_is_string(c) ? json_string_value(c) : NULL,
                   json_is_string(u) ? json_string_value(u) : "");
    v = json_object_get(o, "better");
    if (json_is_string(v))
        r->higher_better = strcmp(json_string_value(v), "higher") == 0;
    p = json_object_get(o, "params");
    json_object_foreach(p, key, v) {
        if (json_is_integer(v))
            lmb_rs_param_num(r, key, LMB_RS_INT, (double)json_integer_value(v));
        else if (json_is_real(v))
            lmb_rs_param_num(r, key, LMB_RS_NUM, json_real_value(v));
        else if (json_is_boolean(v))
            lmb_rs_param_num(r, key, LMB_RS_BOOL, json_is_true(v) ? 1 : 0);
        else if (json_is_string(v))
            lmb_rs_param_str(r, key, json_string_value(v));
    }
    v = json_object_get(o, "compat");
    if (json_is_string(v) && strcmp(json_string_value(v), "same") != 0)
        r->compat = lmb_rs_strdup(json_string_value(v));
    v = json_object_get(o, "status");
    if (json_is_string(v) && lmb_rs_status_parse(json_string_value(v), &status) != 0) {
        /* A status from a later schema: not ok, say what it was. */
        char why[160];
        snprintf(why, sizeof why, "unknown status '%.60s'", json_string_value(v));
        lmb_rs_set_status(r, LMB_RS_FAILED, why);
    } else {
        v = json_object_get(o, "reason");
        lmb_rs_set_status(r, status, json_is_string(v) ? json_string_value(v) : NULL);
    }
    r->headline = str_or_null(o, "headline");
    v = json_object_get(o, "value");
    if (json_is_number(v) && r->status == LMB_RS_OK)
        lmb_rs_set_value(r, json_number_value(v));
    s = json_object_get(o, "samples");
    if (json_is_array(s) && json_array_size(s) > 0) {
        size_t i;
        r->samples = malloc(json_array_size(s) * sizeof *r->samples);
        if (r->samples == NULL) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        json_array_foreach(s, i, v)
            if (json_is_number(v))
                r->samples[r->nsamples++] = json_number_value(v);
    }
    st = json_object_get(o, "stats");
    v = json_object_get(st, "ci95");
    if (json_is_array(v) && json_array_size(v) == 2 && json_is_number(json_array_get(v, 0)) &&
        json_is_number(json_array_get(v, 1))) {
        r->has_ci = true;
        r->ci_lo = json_number_value(json_array_get(v, 0));
        r->ci_hi = json_number_value(json_array_get(v, 1));
    }
    v = json_object_get(o, "step");
    if (json_is_integer(v))
        r->step = (int)json_integer_value(v);
    r->disturbed = json_is_true(json_object_get(o, "disturbed"));
    if (read_launches(json_object_get(o, "launches"), r, err, errlen) != 0)
        return -1;
    if (r->status == LMB_RS_OK && !r->has_value)
        lmb_rs_set_status(r, LMB_RS_FAILED, "status ok but no value");
    return 0;
}

static int read_header(json_t *doc, struct lmb_rs_file *f, char *err, size_t errlen)
{
    json_t *schema = json_object_get(doc, "schema"), *ver = json_object_get(doc, "schema_version");
    json_t *run = json_object_get(doc, "run"), *host = json_object_get(doc, "host");
    json_t *cfg = json_object_get(run, "config"), *uts = json_object_get(host, "uname");
    json_t *v, *caches, *warn;
    size_t i;

    if (!json_is_string(schema) || strcmp(json_string_value(schema), "lmbench-results") != 0) {
        snprintf(err, errlen, "not an lmbench-results document (no \"schema\": \"lmbench-results\")");
        return -1;
    }
    if (!json_is_integer(ver) || json_integer_value(ver) != 1) {
        snprintf(err, errlen, "schema_version %s is not supported (this lmbench reads version 1)",
                 json_is_integer(ver) ? "other than 1" : "missing");
        return -1;
    }
    f->run_id = str_or_null(run, "id");
    f->start = str_or_null(run, "start");
    f->end = str_or_null(run, "end");
    f->status = str_or_null(run, "status");
    f->profile = str_or_null(cfg, "profile");
    v = json_object_get(cfg, "parallel");
    if (json_is_integer(v))
        f->parallel = (int)json_integer_value(v);
    f->hostname = str_or_null(host, "hostname");
    f->sysname = str_or_null(uts, "sysname");
    f->release = str_or_null(uts, "release");
    f->version = str_or_null(uts, "version");
    f->machine = str_or_null(uts, "machine");
    f->platform = str_or_null(host, "platform");
    v = json_object_get(json_object_get(host, "cpu"), "online");
    if (json_is_integer(v))
        f->cpus_online = (int)json_integer_value(v);
    caches = json_object_get(host, "caches");
    json_array_foreach(caches, i, v) {
        struct lmb_rs_cache *c;
        json_t *t;
        if (f->ncaches >= (int)(sizeof f->caches / sizeof f->caches[0]))
            break;
        c = &f->caches[f->ncaches++];
        memset(c, 0, sizeof *c);
        c->level = (int)json_integer_value(json_object_get(v, "level"));
        t = json_object_get(v, "type");
        snprintf(c->type, sizeof c->type, "%s", json_is_string(t) ? json_string_value(t) : "");
        c->size = (uint64_t)json_integer_value(json_object_get(v, "size"));
        c->line = (int)json_integer_value(json_object_get(v, "line"));
    }
    warn = json_object_get(host, "warnings");
    json_array_foreach(warn, i, v)
        if (json_is_string(v))
            lmb_rs_warn(f, "%s", json_string_value(v));
    {
        const char *key;
        json_t *ctx = json_object_get(host, "context");
        json_object_foreach(ctx, key, v) {
            char num[64];
            if (json_is_string(v)) {
                lmb_rs_context_add(f, key, json_string_value(v));
            } else if (json_is_integer(v)) {
                snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
                lmb_rs_context_add(f, key, num);
            } else if (json_is_real(v)) {
                snprintf(num, sizeof num, "%g", json_real_value(v));
                lmb_rs_context_add(f, key, num);
            } else if (json_is_boolean(v)) {
                lmb_rs_context_add(f, key, json_is_true(v) ? "yes" : "no");
            }
        }
    }
    {
        json_t *steps = json_object_get(run, "steps");
        json_array_foreach(steps, i, v)
            if (json_is_object(v))
                read_step(v, f);
    }
    return 0;
}

/* json_load_callback's reader: fp, to at most LMB_INPUT_RESULTS_MAX bytes (a
 * file that grows after it was opened is not read on for good). */
struct bounded {
    FILE *fp;
    uint64_t left;
    bool over;
};

static size_t read_bounded(void *buf, size_t len, void *arg)
{
    struct bounded *b = arg;
    size_t got;

    if (b->left == 0) {
        if (fgetc(b->fp) != EOF) {
            b->over = true;
            return (size_t)-1;
        }
        return 0;
    }
    if (len > b->left)
        len = (size_t)b->left;
    got = fread(buf, 1, len, b->fp);
    if (got == 0 && ferror(b->fp))
        return (size_t)-1;
    b->left -= got;
    return got;
}

static int read_document(FILE *fp, const char *path, struct lmb_rs_file *f, char *err,
                         size_t errlen)
{
    json_error_t je;
    struct bounded in = { fp, LMB_INPUT_RESULTS_MAX, false };
    json_t *doc = json_load_callback(read_bounded, &in, JSON_REJECT_DUPLICATES, &je), *results, *r;
    char why[256];
    size_t i;
    int rc = 0;

    if (doc == NULL) {
        if (in.over)
            snprintf(err, errlen, "%s grew beyond the limit of %llu MiB while it was read", path,
                     (unsigned long long)(LMB_INPUT_RESULTS_MAX >> 20));
        else if (ferror(fp))
            snprintf(err, errlen, "%s: read error", path);
        else
            snprintf(err, errlen, "%s: line %d: %s", path, je.line, je.text);
        return -1;
    }
    if (read_header(doc, f, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        json_decref(doc);
        return -1;
    }
    results = json_object_get(doc, "results");
    if (!json_is_array(results)) {
        snprintf(err, errlen, "%s: no \"results\" array", path);
        json_decref(doc);
        return -1;
    }
    json_array_foreach(results, i, r) {
        if (read_record(r, f, why, sizeof why, 0) != 0) {
            snprintf(err, errlen, "%s: results[%zu]: %s", path, i, why);
            rc = -1;
            break;
        }
    }
    json_decref(doc);
    return rc;
}

static int read_lines(FILE *fp, const char *path, struct lmb_rs_file *f, char *err,
                      size_t errlen)
{
    char *line = NULL, why[256];
    size_t cap = 0;
    ssize_t len;
    long n = 0;
    bool header = false;
    int rc = 0;

    while ((len = lmb_input_line(fp, &line, &cap, LMB_INPUT_LINE_MAX, why, sizeof why)) >= 0) {
        json_error_t je;
        json_t *o;

        n++;
        if (len <= 1 && (len == 0 || line[0] == '\n'))
            continue;
        o = json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES, &je);
        if (o == NULL) {
            /* The last line of an interrupted run may be cut short: keep the rest. */
            int c = fgetc(fp);
            if (c == EOF && line[len - 1] != '\n') {
                lmb_rs_warn(f, "line %ld: incomplete last line ignored (an interrupted run)", n);
                break;
            }
            ungetc(c, fp);
            snprintf(err, errlen, "%s: line %ld: %s", path, n, je.text);
            rc = -1;
            break;
        }
        if (json_object_get(o, "schema") != NULL) {
            if (header) {
                snprintf(err, errlen, "%s: line %ld: a second header line", path, n);
                rc = -1;
            } else if (read_header(o, f, why, sizeof why) != 0) {
                snprintf(err, errlen, "%s: line %ld: %s", path, n, why);
                rc = -1;
            }
            header = true;
        } else if (!header) {
            snprintf(err, errlen, "%s: line %ld: records before the header line", path, n);
            rc = -1;
        } else if (json_object_get(o, "benchmark") != NULL) {
            if (read_record(o, f, why, sizeof why, n) != 0) {
                snprintf(err, errlen, "%s: %s", path, why);
                rc = -1;
            }
        }
        else if (json_object_get(o, "step") != NULL && json_object_get(o, "name") != NULL)
            read_step(o, f);
        /* Other lines are the runner's bookkeeping, not results. */
        json_decref(o);
        if (rc != 0)
            break;
    }
    free(line);
    if (len == -2) {
        snprintf(err, errlen, "%s: line %ld: %s", path, n + 1, why);
        rc = -1;
    } else if (rc == 0 && ferror(fp)) {
        snprintf(err, errlen, "%s: read error", path);
        rc = -1;
    }
    if (rc == 0 && !header) {
        snprintf(err, errlen, "%s: no header line", path);
        rc = -1;
    }
    return rc;
}

int lmb_rs_read_json(FILE *fp, const char *name, struct lmb_rs_file *f, bool lines, char *err,
                     size_t errlen)
{
    return lines ? read_lines(fp, name, f, err, errlen) : read_document(fp, name, f, err, errlen);
}

#else

int lmb_rs_read_json(FILE *fp, const char *name, struct lmb_rs_file *f, bool lines, char *err,
                     size_t errlen)
{
    (void)fp;
    (void)f;
    (void)lines;
    snprintf(err, errlen, "%s: skipped: built without jansson", name);
    return -2;
}

#endif
