// SPDX-License-Identifier: MIT
/* The results model: building records, looking them up, finding results files
 * in directories and choosing the reader for each file. */
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/input.h"
#include "lib/text.h"
#include "readers.h"

char *lmb_rs_strdup(const char *s)
{
    char *p;

    if (s == NULL)
        return NULL;
    p = strdup(s);
    if (p == NULL) {
        fputs("lmbench: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);

    if (q == NULL) {
        fputs("lmbench: out of memory\n", stderr);
        abort();
    }
    return q;
}

struct lmb_rs_record *lmb_rs_add(struct lmb_rs_file *f, const char *benchmark,
                                 const char *case_name, const char *unit)
{
    struct lmb_rs_record *r;

    if (f->nrecs == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 64;
        f->recs = xrealloc(f->recs, f->cap * sizeof *f->recs);
    }
    r = &f->recs[f->nrecs++];
    memset(r, 0, sizeof *r);
    r->benchmark = lmb_rs_strdup(benchmark);
    r->case_name = case_name && *case_name ? lmb_rs_strdup(case_name) : NULL;
    r->unit = lmb_rs_strdup(unit ? unit : "");
    /* As the commands write it (lmb_unit_higher_is_better): lower is better for
     * latencies only. */
    r->higher_better = unit == NULL || (strcmp(unit, "us") != 0 && strcmp(unit, "ns") != 0);
    r->status = LMB_RS_OK;
    r->step = -1;
    return r;
}

static struct lmb_rs_param *new_param(struct lmb_rs_record *r, const char *key)
{
    struct lmb_rs_param *p;

    r->params = xrealloc(r->params, (r->nparams + 1) * sizeof *r->params);
    p = &r->params[r->nparams++];
    memset(p, 0, sizeof *p);
    p->key = lmb_rs_strdup(key);
    return p;
}

void lmb_rs_param_num(struct lmb_rs_record *r, const char *key, enum lmb_rs_ptype t, double v)
{
    struct lmb_rs_param *p = new_param(r, key);
    p->type = t;
    p->num = v;
}

void lmb_rs_param_str(struct lmb_rs_record *r, const char *key, const char *v)
{
    struct lmb_rs_param *p = new_param(r, key);
    p->type = LMB_RS_STR;
    p->str = lmb_rs_strdup(v);
}

void lmb_rs_set_value(struct lmb_rs_record *r, double v)
{
    r->has_value = isfinite(v);
    r->value = v;
}

void lmb_rs_set_status(struct lmb_rs_record *r, enum lmb_rs_status s, const char *reason)
{
    r->status = s;
    free(r->reason);
    r->reason = reason ? lmb_rs_strdup(reason) : NULL;
    if (s != LMB_RS_OK)
        r->has_value = false;
}

void lmb_rs_warn(struct lmb_rs_file *f, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    f->warnings = xrealloc(f->warnings, (f->nwarnings + 1) * sizeof *f->warnings);
    f->warnings[f->nwarnings++] = lmb_rs_strdup(buf);
}

void lmb_rs_header_add(struct lmb_rs_file *f, const char *key, const char *value)
{
    f->header = xrealloc(f->header, (f->nheader + 1) * sizeof *f->header);
    f->header[f->nheader].key = lmb_rs_strdup(key);
    f->header[f->nheader].value = lmb_rs_strdup(value);
    f->nheader++;
}

const char *lmb_rs_header(const struct lmb_rs_file *f, const char *key)
{
    for (size_t i = 0; i < f->nheader; i++)
        if (strcmp(f->header[i].key, key) == 0)
            return f->header[i].value;
    return NULL;
}

void lmb_rs_context_add(struct lmb_rs_file *f, const char *key, const char *value)
{
    f->context = xrealloc(f->context, (f->ncontext + 1) * sizeof *f->context);
    f->context[f->ncontext].key = lmb_rs_strdup(key);
    f->context[f->ncontext].value = lmb_rs_strdup(value);
    f->ncontext++;
}

const char *lmb_rs_context(const struct lmb_rs_file *f, const char *key)
{
    for (size_t i = 0; i < f->ncontext; i++)
        if (strcmp(f->context[i].key, key) == 0)
            return f->context[i].value;
    return NULL;
}

struct lmb_rs_step *lmb_rs_step_add(struct lmb_rs_file *f)
{
    struct lmb_rs_step *s;

    f->steps = xrealloc(f->steps, (f->nsteps + 1) * sizeof *f->steps);
    s = &f->steps[f->nsteps++];
    memset(s, 0, sizeof *s);
    s->step = -1;
    s->other_share = NAN;
    s->steal_share = NAN;
    return s;
}

static void free_record(struct lmb_rs_record *r)
{
    free(r->benchmark);
    free(r->case_name);
    for (size_t i = 0; i < r->nparams; i++) {
        free(r->params[i].key);
        free(r->params[i].str);
    }
    free(r->params);
    free(r->unit);
    free(r->reason);
    free(r->headline);
    free(r->samples);
    free(r->compat);
    free(r->launch_n);
}

bool lmb_rs_same_quantity(const struct lmb_rs_record *a, const struct lmb_rs_record *b)
{
    if (a->compat == NULL || b->compat == NULL)
        return a->compat == b->compat;
    return strcmp(a->compat, b->compat) == 0;
}

void lmb_rs_free(struct lmb_rs_file *f)
{
    for (size_t i = 0; i < f->nrecs; i++)
        free_record(&f->recs[i]);
    free(f->recs);
    for (size_t i = 0; i < f->nwarnings; i++)
        free(f->warnings[i]);
    free(f->warnings);
    for (size_t i = 0; i < f->nheader; i++) {
        free(f->header[i].key);
        free(f->header[i].value);
    }
    free(f->header);
    for (size_t i = 0; i < f->ncontext; i++) {
        free(f->context[i].key);
        free(f->context[i].value);
    }
    free(f->context);
    for (size_t i = 0; i < f->nsteps; i++) {
        free(f->steps[i].name);
        free(f->steps[i].status);
    }
    free(f->steps);
    free(f->path);
    free(f->hostname);
    free(f->sysname);
    free(f->release);
    free(f->version);
    free(f->machine);
    free(f->platform);
    free(f->run_id);
    free(f->start);
    free(f->end);
    free(f->status);
    free(f->profile);
    memset(f, 0, sizeof *f);
}

/* --- lookups ------------------------------------------------------------------ */

const struct lmb_rs_param *lmb_rs_param(const struct lmb_rs_record *r, const char *key)
{
    for (size_t i = 0; i < r->nparams; i++)
        if (strcmp(r->params[i].key, key) == 0)
            return &r->params[i];
    return NULL;
}

double lmb_rs_pnum(const struct lmb_rs_record *r, const char *key)
{
    const struct lmb_rs_param *p = lmb_rs_param(r, key);

    return p && p->type != LMB_RS_STR ? p->num : NAN;
}

const char *lmb_rs_pstr(const struct lmb_rs_record *r, const char *key)
{
    const struct lmb_rs_param *p = lmb_rs_param(r, key);

    return p && p->type == LMB_RS_STR ? p->str : NULL;
}

bool lmb_rs_is(const struct lmb_rs_record *r, const char *b, const char *c)
{
    if (strcmp(r->benchmark, b) != 0)
        return false;
    if (c != NULL && strcmp(c, "*") == 0)
        return true;
    if (c == NULL)
        return r->case_name == NULL;
    return r->case_name != NULL && strcmp(r->case_name, c) == 0;
}

static const char *const status_names[] = {
    [LMB_RS_OK] = "ok",
    [LMB_RS_SKIPPED] = "skipped",
    [LMB_RS_BELOW] = "below_resolution",
    [LMB_RS_TIMEOUT] = "timeout",
    [LMB_RS_FAILED] = "failed",
};

const char *lmb_rs_status_name(enum lmb_rs_status s)
{
    return status_names[s];
}

int lmb_rs_status_parse(const char *s, enum lmb_rs_status *out)
{
    for (int i = 0; i <= LMB_RS_FAILED; i++)
        if (strcmp(status_names[i], s) == 0) {
            *out = (enum lmb_rs_status)i;
            return 0;
        }
    return -1;
}

void lmb_rs_describe(const struct lmb_rs_record *r, char *buf, size_t len)
{
    size_t o = 0;
    int n;

#define ADD(...)                                                        \
    do {                                                                \
        n = snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__);      \
        if (n > 0)                                                      \
            o += (size_t)n;                                             \
    } while (0)
    ADD("%s", r->benchmark);
    if (r->case_name)
        ADD(" %s", r->case_name);
    for (size_t i = 0; i < r->nparams; i++) {
        const struct lmb_rs_param *p = &r->params[i];
        switch (p->type) {
        case LMB_RS_STR: ADD(" %s=%s", p->key, p->str); break;
        case LMB_RS_BOOL: ADD(" %s=%s", p->key, p->num != 0 ? "true" : "false"); break;
        case LMB_RS_INT: ADD(" %s=%.0f", p->key, p->num); break;
        case LMB_RS_NUM: ADD(" %s=%.10g", p->key, p->num); break;
        }
    }
#undef ADD
    if (len > 0 && o >= len)
        buf[len - 1] = '\0';
}

/* --- finding and reading files ---------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The format from the first bytes of fp (rewound after): 0 JSON, 1 JSONL
 * (name ends in .jsonl), 2 raw, -1 none of them. */
static int sniff_stream(FILE *fp, const char *name)
{
    char buf[64];
    size_t n, i = 0;

    n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    if (ferror(fp) || fseek(fp, 0, SEEK_SET) != 0)
        return -1;
    while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
        i++;
    if (i < n && buf[i] == '{')
        return ends_with(name, ".jsonl") ? 1 : 0;
    if (n - i >= 8 && memcmp(buf + i, "[lmbench", 8) == 0)
        return 2;
    return -1;
}

int lmb_rs_sniff(const char *path)
{
    char err[512];
    FILE *fp = lmb_input_open(path, LMB_INPUT_RESULTS_MAX, err, sizeof err);
    int kind;

    if (fp == NULL)
        return -1;
    kind = sniff_stream(fp, path);
    fclose(fp);
    return kind;
}

int lmb_rs_load_stream(FILE *fp, const char *path, struct lmb_rs_file *f, char *err,
                       size_t errlen)
{
    char q[256];
    int kind, rc;

    memset(f, 0, sizeof *f);
    f->cpus_online = -1;
    lmb_quote(path, q, sizeof q);
    kind = sniff_stream(fp, path);
    f->path = lmb_rs_strdup(path);
    switch (kind) {
    case 0:
        f->format = LMB_RS_JSON;
        rc = lmb_rs_read_json(fp, q, f, false, err, errlen);
        break;
    case 1:
        f->format = LMB_RS_JSONL;
        rc = lmb_rs_read_json(fp, q, f, true, err, errlen);
        break;
    case 2:
        f->format = LMB_RS_RAW3;
        rc = lmb_import3(fp, q, f, err, errlen);
        break;
    default:
        if (ferror(fp))
            snprintf(err, errlen, "%s: read error", q);
        else
            snprintf(err, errlen, "%s: not a results file (neither lmbench JSON nor an "
                     "lmbench 3 raw results file)", q);
        rc = -1;
    }
    if (rc != 0) {
        lmb_rs_free(f);
        return rc;
    }
    if (f->hostname == NULL)
        f->hostname = lmb_rs_strdup("unknown");
    return 0;
}

int lmb_rs_load(const char *path, struct lmb_rs_file *f, char *err, size_t errlen)
{
    FILE *fp = lmb_input_open(path, LMB_INPUT_RESULTS_MAX, err, errlen);
    int rc;

    if (fp == NULL) {
        memset(f, 0, sizeof *f);
        f->cpus_online = -1;
        return -1;
    }
    rc = lmb_rs_load_stream(fp, path, f, err, errlen);
    fclose(fp);
    return rc;
}

/* --- directories ---------------------------------------------------------- */

struct pathlist {
    char **v;
    int n, cap;
};

static void push(struct pathlist *l, char *p)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = p;
}

/* Natural order: "vm.2" before "vm.10". */
static int natcmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            char *ea, *eb;
            unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
            if (x != y)
                return x < y ? -1 : 1;
            a = ea;
            b = eb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int cmp_names(const void *x, const void *y)
{
    return natcmp(*(char *const *)x, *(char *const *)y);
}

static bool exists_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int scan_dir(const char *dir, struct pathlist *out, int depth, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;

    if (d == NULL) {
        char q[256];
        snprintf(err, errlen, "%s: %s", lmb_quote(dir, q, sizeof q), strerror(errno));
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            names = xrealloc(names, cap * sizeof *names);
        }
        names[n++] = lmb_rs_strdup(e->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        char path[4096], other[4200];
        struct stat st;
        const char *nm = names[i];

        snprintf(path, sizeof path, "%s/%s", dir, nm);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth < 4 && scan_dir(path, out, depth + 1, err, errlen) != 0) {
                for (size_t k = 0; k < n; k++)
                    free(names[k]);
                free(names);
                return -1;
            }
            continue;
        }
        if (!S_ISREG(st.st_mode) || ends_with(nm, ".tmp"))
            continue;
        /* One file per run: the .json, else the .jsonl, else the raw file; in a
         * build without jansson, the raw file first (it can be read). */
#ifndef LMB_HAVE_JANSSON
        if (ends_with(nm, ".json") || ends_with(nm, ".jsonl")) {
            snprintf(other, sizeof other, "%.*s", (int)(strlen(path) - (ends_with(nm, ".json") ? 5 : 6)),
                     path);
            if (exists_regular(other) && lmb_rs_sniff(other) == 2)
                continue;
        }
#endif
        if (ends_with(nm, ".jsonl")) {
            snprintf(other, sizeof other, "%.*s.json", (int)(strlen(path) - 6), path);
            if (exists_regular(other))
                continue;
        } else if (!ends_with(nm, ".json")) {
#ifdef LMB_HAVE_JANSSON
            snprintf(other, sizeof other, "%s.json", path);
            if (exists_regular(other))
                continue;
            snprintf(other, sizeof other, "%s.jsonl", path);
            if (exists_regular(other))
                continue;
#endif
        }
        if (lmb_rs_sniff(path) < 0)
            continue;
        push(out, lmb_rs_strdup(path));
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return 0;
}

int lmb_rs_expand(int nargs, char **args, char ***out, char *err, size_t errlen)
{
    struct pathlist l = { 0 };

    for (int i = 0; i < nargs; i++) {
        struct stat st;

        char q[256];

        lmb_quote(args[i], q, sizeof q);
        if (stat(args[i], &st) != 0) {
            snprintf(err, errlen, "%s: %s", q, strerror(errno));
            lmb_rs_free_paths(l.v, l.n);
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            int before = l.n;
            if (scan_dir(args[i], &l, 0, err, errlen) != 0) {
                lmb_rs_free_paths(l.v, l.n);
                return -1;
            }
            if (l.n == before) {
                snprintf(err, errlen, "%s: no results files in this directory", q);
                lmb_rs_free_paths(l.v, l.n);
                return -1;
            }
        } else {
            push(&l, lmb_rs_strdup(args[i]));
        }
    }
    *out = l.v;
    return l.n;
}

void lmb_rs_free_paths(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

int lmb_rs_load_args(const char *verb, int nargs, char **args, struct lmb_rs_file **files, int *n)
{
    char **paths = NULL, err[600], *def[] = { "results" };
    int npaths = nargs ? lmb_rs_expand(nargs, args, &paths, err, sizeof err)
                       : lmb_rs_expand(1, def, &paths, err, sizeof err);
    int rc = 0, skipped = 0;

    *files = NULL;
    *n = 0;
    if (npaths < 0) {
        fprintf(stderr, "lmbench %s: %s\n", verb, err);
        return 1;
    }
    *files = calloc((size_t)(npaths ? npaths : 1), sizeof **files);
    if (*files == NULL) {
        lmb_rs_free_paths(paths, npaths);
        fprintf(stderr, "lmbench %s: out of memory\n", verb);
        return 1;
    }
    for (int i = 0; i < npaths; i++) {
        int lr = lmb_rs_load(paths[i], &(*files)[*n], err, sizeof err);
        if (lr == 0) {
            (*n)++;
            continue;
        }
        fprintf(stderr, "lmbench %s: %s\n", verb, err);
        if (lr == -2)
            skipped++;
        else
            rc = 1;
    }
    lmb_rs_free_paths(paths, npaths);
    return rc ? rc : skipped ? 3 : 0;
}
