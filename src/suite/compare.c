// SPDX-License-Identifier: MIT
/* lmbench compare BASE NEW...: every measurement of BASE beside the same
 * measurement (benchmark, case and parameters) of each NEW file, with the ratio,
 * the change, and whether it is larger than both runs' spread:
 *   - both with 6 samples or more: the distribution-free 95% confidence
 *     intervals of the two medians do not overlap;
 *   - both with 2 to 5 samples: the samples do not overlap at all (every sample
 *     of one beyond every sample of the other);
 *   - otherwise (lmbench 3 files carry one value): the spread is unknown.
 * --threshold PCT makes the exit status 1 when some measurement got worse by
 * more than PCT percent and beyond the spread (or with the spread unknown). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "results.h"
#include "suite.h"
#include "util.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

static const char usage[] = "[--threshold PCT] [--changed] [--only TEXT] [--json] BASE NEW...";

static void help(void)
{
    printf("Usage: lmbench compare %s\n"
           "Shows each measurement of the results file BASE beside the same measurement\n"
           "(benchmark, case and parameters) of each NEW file: both values, new/base,\n"
           "the change in percent, and a verdict: 'better' or 'worse' when the change\n"
           "is beyond both runs' spread, '~' when it is within it, '?' when a file has\n"
           "too few samples to tell (lmbench 3 raw files have none), 'not comparable'\n"
           "when the two hold different quantities (their compat differs: one is\n"
           "lmbench 3's figure and the other is not).\n"
           "Spread: with 6 samples or more on each side, the 95%% confidence intervals of\n"
           "the medians must not overlap; with 2 to 5, the samples must not overlap.\n"
           "\nOptions:\n"
           "  --threshold PCT   exit 1 when a measurement got worse by more than PCT\n"
           "                    percent and beyond the spread (or the spread is unknown)\n"
           "  --changed         show only the measurements whose verdict is better or worse\n"
           "  --only TEXT       show only measurements whose name contains TEXT\n"
           "                    (e.g. 'bw_mem frd' or 'lat_syscall')\n"
           "  --json            one JSON document instead of the table\n"
           "  -h, --help        show this help\n"
           "\nExit status: 0 no regression beyond the threshold (or no --threshold),\n"
           "1 a regression beyond it, or a file could not be read, 2 bad usage,\n"
           "3 skipped (JSON input in a build without jansson). See lmbench-compare(1).\n",
           usage);
}

/* Parameters that say where or how, not what: the same measurement on another
 * machine may use another vector unit, file or host name; and what a run found
 * or chose for itself (the mappings of the forking process, the faults a pass
 * took, the files lat_fs made per interval, the page sizes a buffer got), which differ from run to run. */
static bool identity_param(const char *key)
{
    static const char *const not_identity[] = {
        "vector", "file", "host", "maps", "faults", "major_faults", "faults_per_page", "files",
        "huge_percent", "page_bytes",
    };
    for (size_t i = 0; i < sizeof not_identity / sizeof not_identity[0]; i++)
        if (strcmp(key, not_identity[i]) == 0)
            return false;
    return true;
}

static void key_of(const struct lmb_rs_record *r, char *buf, size_t len)
{
    struct lmb_rs_record copy = *r;
    struct lmb_rs_param kept[32];
    size_t n = 0;

    for (size_t i = 0; i < r->nparams && n < 32; i++)
        if (identity_param(r->params[i].key))
            kept[n++] = r->params[i];
    copy.params = kept;
    copy.nparams = n;
    lmb_rs_describe(&copy, buf, len);
}

/* Whether the unit is a performance figure with a direction (not a size or a
 * count such as mhz, line, tlb). */
static bool judged(const struct lmb_rs_record *r)
{
    return strcmp(r->unit, "us") == 0 || strcmp(r->unit, "ns") == 0 ||
           strcmp(r->unit, "MB/s") == 0;
}

/* The 95% CI of the median of r: from the file, else from its samples. */
static bool median_ci(const struct lmb_rs_record *r, double *lo, double *hi)
{
    size_t j, k;
    double *s;

    if (r->has_ci) {
        *lo = r->ci_lo;
        *hi = r->ci_hi;
        return true;
    }
    if (r->nsamples < 6 || !lmb_median_ci_ranks(r->nsamples, &j, &k))
        return false;
    s = malloc(r->nsamples * sizeof *s);
    if (s == NULL)
        return false;
    memcpy(s, r->samples, r->nsamples * sizeof *s);
    for (size_t a = 1; a < r->nsamples; a++)
        for (size_t b = a; b > 0 && s[b - 1] > s[b]; b--) {
            double t = s[b];
            s[b] = s[b - 1];
            s[b - 1] = t;
        }
    *lo = s[j - 1];
    *hi = s[k - 1];
    free(s);
    return true;
}

static void range(const struct lmb_rs_record *r, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < r->nsamples; i++) {
        if (r->samples[i] < *lo)
            *lo = r->samples[i];
        if (r->samples[i] > *hi)
            *hi = r->samples[i];
    }
}

/* V_APART: the two records hold different quantities (their compat differs:
 * one is lmbench 3's figure and the other is not, or they differ in different
 * ways), so no ratio is made of them. */
enum verdict { V_SAME, V_BETTER, V_WORSE, V_UNKNOWN, V_INFO, V_APART };

struct row {
    const struct lmb_rs_record *b, *n;
    char name[512];
    double ratio, change_pct;
    enum verdict verdict;
    const char *method;     /* "ci95", "samples", "none" */
    bool regression;
};

static void judge(struct row *w)
{
    double blo, bhi, nlo, nhi;
    bool apart, worse_dir;

    if (!lmb_rs_same_quantity(w->b, w->n)) {
        w->ratio = w->change_pct = NAN;
        w->verdict = V_APART;
        w->method = "none";
        return;
    }
    w->ratio = w->n->value / w->b->value;
    w->change_pct = (w->ratio - 1) * 100;
    if (!judged(w->b)) {
        w->verdict = V_INFO;
        w->method = "none";
        return;
    }
    worse_dir = w->b->higher_better ? w->n->value < w->b->value : w->n->value > w->b->value;
    if (median_ci(w->b, &blo, &bhi) && median_ci(w->n, &nlo, &nhi)) {
        w->method = "ci95";
        apart = nlo > bhi || nhi < blo;
    } else if (w->b->nsamples >= 2 && w->n->nsamples >= 2) {
        w->method = "samples";
        range(w->b, &blo, &bhi);
        range(w->n, &nlo, &nhi);
        apart = nlo > bhi || nhi < blo;
    } else {
        w->method = "none";
        w->verdict = V_UNKNOWN;
        return;
    }
    if (!apart || w->n->value == w->b->value)
        w->verdict = V_SAME;
    else
        w->verdict = worse_dir ? V_WORSE : V_BETTER;
}

static const char *verdict_name(enum verdict v)
{
    switch (v) {
    case V_SAME: return "~";
    case V_BETTER: return "better";
    case V_WORSE: return "worse";
    case V_UNKNOWN: return "?";
    case V_INFO: return "-";
    case V_APART: return "not comparable";
    }
    return "";
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
        key_of(r, key, sizeof key);
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

static void fmt_value(double v, char *buf, size_t len)
{
    if (v >= 1e6 || v < 1e-3)
        snprintf(buf, len, "%.4g", v);
    else if (v >= 1000)
        snprintf(buf, len, "%.1f", v);
    else if (v >= 10)
        snprintf(buf, len, "%.3f", v);
    else
        snprintf(buf, len, "%.4f", v);
}

static const char *describe_file(const struct lmb_rs_file *f)
{
    static char buf[600];
    snprintf(buf, sizeof buf, "%s (%s%s%s)", f->path, f->hostname,
             f->start ? ", " : "", f->start ? f->start : "");
    return buf;
}

struct cmp_opts {
    double threshold;       /* < 0: none */
    bool changed, json;
    const char *only;
};

/* Compares base with one new file; prints the table (or adds to the JSON) and
 * returns the regressions beyond the threshold. */
static int compare_one(const struct cmp_opts *o, const struct lmb_rs_file *base,
                       const struct lmb_rs_file *nf, FILE *out, void *jarr)
{
    const struct lmb_rs_record **bv, **nv;
    char (*bk)[512], (*nk)[512];
    size_t nb = index_records(base, &bv, &bk), nn = index_records(nf, &nv, &nk);
    size_t shown = 0, counts[6] = { 0 }, only_base = 0, only_new = 0;
    int regressions = 0;
#ifdef LMB_HAVE_JANSSON
    json_t *metrics = jarr ? json_array() : NULL;
#else
    (void)jarr;
#endif

    if (!o->json) {
        fprintf(out, "base: %s\n", describe_file(base));
        fprintf(out, "new:  %s\n\n", describe_file(nf));
        fprintf(out, "%-44s %-5s %12s %12s %8s %9s  %s\n", "measurement", "unit", "base", "new",
                "new/base", "change", "verdict");
    }
    for (size_t i = 0; i < nb; i++) {
        struct row w = { .b = bv[i] };
        size_t j;
        for (j = 0; j < nn; j++)
            if (strcmp(bk[i], nk[j]) == 0)
                break;
        if (j == nn) {
            only_base++;
            continue;
        }
        w.n = nv[j];
        snprintf(w.name, sizeof w.name, "%s", bk[i]);
        if (o->only && strstr(w.name, o->only) == NULL)
            continue;
        judge(&w);
        counts[w.verdict]++;
        if ((w.verdict == V_WORSE || w.verdict == V_UNKNOWN) && o->threshold >= 0 &&
            fabs(w.change_pct) > o->threshold &&
            (w.b->higher_better ? w.n->value < w.b->value : w.n->value > w.b->value)) {
            w.regression = true;
            regressions++;
        }
        if (o->changed && w.verdict != V_BETTER && w.verdict != V_WORSE && !w.regression)
            continue;
        shown++;
        if (!o->json) {
            char bs[32], ns[32];
            fmt_value(w.b->value, bs, sizeof bs);
            fmt_value(w.n->value, ns, sizeof ns);
            if (w.verdict == V_APART) {
                fprintf(out, "%-44s %-5s %12s %12s %8s %9s  %s\n", w.name, w.b->unit, bs, ns, "-",
                        "-", verdict_name(w.verdict));
                fprintf(out, "    base: %s\n    new:  %s\n", w.b->compat ? w.b->compat : "same",
                        w.n->compat ? w.n->compat : "same");
            } else {
                fprintf(out, "%-44s %-5s %12s %12s %8.3f %+8.1f%%  %s%s\n", w.name, w.b->unit,
                        bs, ns, w.ratio, w.change_pct, verdict_name(w.verdict),
                        w.regression ? "  REGRESSION" : "");
            }
        }
#ifdef LMB_HAVE_JANSSON
        else if (metrics) {
            double lo, hi;
            json_t *m = json_object(), *b = json_object(), *n = json_object();
            json_object_set_new(m, "measurement", json_string(w.name));
            json_object_set_new(m, "benchmark", json_string(w.b->benchmark));
            json_object_set_new(m, "case", w.b->case_name ? json_string(w.b->case_name)
                                                          : json_null());
            json_object_set_new(m, "unit", json_string(w.b->unit));
            json_object_set_new(m, "better", json_string(w.b->higher_better ? "higher" : "lower"));
            json_object_set_new(b, "value", json_real(w.b->value));
            json_object_set_new(b, "n", json_integer((json_int_t)w.b->nsamples));
            json_object_set_new(b, "ci95", median_ci(w.b, &lo, &hi) ? json_pack("[ff]", lo, hi)
                                                                    : json_null());
            json_object_set_new(n, "value", json_real(w.n->value));
            json_object_set_new(n, "n", json_integer((json_int_t)w.n->nsamples));
            json_object_set_new(n, "ci95", median_ci(w.n, &lo, &hi) ? json_pack("[ff]", lo, hi)
                                                                    : json_null());
            json_object_set_new(m, "base", b);
            json_object_set_new(m, "new", n);
            json_object_set_new(m, "ratio", isfinite(w.ratio) ? json_real(w.ratio) : json_null());
            json_object_set_new(m, "change_pct",
                                isfinite(w.change_pct) ? json_real(w.change_pct) : json_null());
            json_object_set_new(b, "compat", json_string(w.b->compat ? w.b->compat : "same"));
            json_object_set_new(n, "compat", json_string(w.n->compat ? w.n->compat : "same"));
            json_object_set_new(m, "verdict", json_string(w.verdict == V_SAME ? "same"
                                                          : w.verdict == V_BETTER ? "better"
                                                          : w.verdict == V_WORSE ? "worse"
                                                          : w.verdict == V_UNKNOWN ? "unknown"
                                                          : w.verdict == V_APART ? "not_comparable"
                                                          : "info"));
            json_object_set_new(m, "spread_test", json_string(w.method));
            json_object_set_new(m, "regression", json_boolean(w.regression));
            json_array_append_new(metrics, m);
        }
#endif
    }
    for (size_t j = 0; j < nn; j++) {
        size_t i;
        for (i = 0; i < nb; i++)
            if (strcmp(bk[i], nk[j]) == 0)
                break;
        if (i == nb)
            only_new++;
    }
    if (!o->json) {
        if (shown == 0)
            fprintf(out, "(no measurement to show)\n");
        fprintf(out, "\n%zu compared: %zu worse, %zu better, %zu within the spread, %zu without "
                     "samples to judge; %zu only in base, %zu only in new\n",
                counts[V_SAME] + counts[V_BETTER] + counts[V_WORSE] + counts[V_UNKNOWN] +
                    counts[V_INFO],
                counts[V_WORSE], counts[V_BETTER], counts[V_SAME], counts[V_UNKNOWN], only_base,
                only_new);
        if (counts[V_APART])
            fprintf(out, "%zu not comparable: the same measurement, different quantities "
                         "(compat)\n", counts[V_APART]);
        if (o->threshold >= 0)
            fprintf(out, "regressions beyond %g%%: %d\n", o->threshold, regressions);
    }
#ifdef LMB_HAVE_JANSSON
    if (metrics) {
        json_t *c = json_object();
        json_object_set_new(c, "new", json_pack("{ssssso}", "path", nf->path, "host", nf->hostname,
                                                "run_id", nf->run_id ? json_string(nf->run_id)
                                                                     : json_null()));
        json_object_set_new(c, "metrics", metrics);
        json_object_set_new(c, "only_in_base", json_integer((json_int_t)only_base));
        json_object_set_new(c, "only_in_new", json_integer((json_int_t)only_new));
        json_object_set_new(c, "not_comparable", json_integer((json_int_t)counts[V_APART]));
        json_object_set_new(c, "regressions", json_integer(regressions));
        json_array_append_new((json_t *)jarr, c);
    }
#endif
    free(bv);
    free(bk);
    free(nv);
    free(nk);
    return regressions;
}

int lmb_suite_compare(int argc, char **argv)
{
    struct cmp_opts o = { .threshold = -1 };
    struct lmb_rs_file *files;
    char **pos, err[600];
    int npos = 0, rc = 0, regressions = 0, r, loaded = 0;
    const char *v;

    pos = calloc((size_t)argc + 1, sizeof *pos);
    if (pos == NULL)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            free(pos);
            help();
            return lmb_verb_check_output("compare", stdout, "the help");
        }
        if ((r = lmb_long_opt(argc, argv, &i, "--threshold", &v)) != 0) {
            char *end;
            if (r < 0) {
                free(pos);
                return lmb_verb_usage_error("compare", usage, "--threshold needs a percentage");
            }
            o.threshold = strtod(v, &end);
            if (end == v || *end != '\0' || !(o.threshold >= 0) || o.threshold > 1e6) {
                free(pos);
                return lmb_verb_usage_error("compare", usage,
                                            "--threshold: expected a percentage >= 0, got '%s'",
                                            lmb_quote_arg(v));
            }
        } else if ((r = lmb_long_opt(argc, argv, &i, "--only", &v)) != 0) {
            if (r < 0) {
                free(pos);
                return lmb_verb_usage_error("compare", usage, "--only needs a text");
            }
            o.only = v;
        } else if (strcmp(a, "--changed") == 0) {
            o.changed = true;
        } else if (strcmp(a, "--json") == 0) {
            o.json = true;
        } else if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                pos[npos++] = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            free(pos);
            return lmb_verb_usage_error("compare", usage, "unknown option '%s'", lmb_quote_arg(a));
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos < 2) {
        free(pos);
        return lmb_verb_usage_error("compare", usage, "needs a base file and at least one new file");
    }
#ifndef LMB_HAVE_JANSSON
    if (o.json) {
        free(pos);
        fprintf(stderr, "lmbench compare: --json: skipped: built without jansson\n");
        return 3;
    }
#endif
    files = calloc((size_t)npos, sizeof *files);
    if (files == NULL) {
        free(pos);
        return 1;
    }
    for (int i = 0; i < npos; i++) {
        int lr = lmb_rs_load(pos[i], &files[i], err, sizeof err);
        if (lr != 0) {
            fprintf(stderr, "lmbench compare: %s\n", err);
            for (int k = 0; k < i; k++)
                lmb_rs_free(&files[k]);
            free(files);
            free(pos);
            return lr == -2 ? 3 : 1;
        }
        loaded++;
    }
#ifdef LMB_HAVE_JANSSON
    json_t *doc = NULL, *arr = NULL;
    if (o.json) {
        doc = json_object();
        arr = json_array();
        json_object_set_new(doc, "schema", json_string("lmbench-compare"));
        json_object_set_new(doc, "schema_version", json_integer(1));
        json_object_set_new(doc, "base", json_pack("{ssssso}", "path", files[0].path, "host",
                                                   files[0].hostname, "run_id",
                                                   files[0].run_id ? json_string(files[0].run_id)
                                                                   : json_null()));
        json_object_set_new(doc, "threshold_pct", o.threshold >= 0 ? json_real(o.threshold)
                                                                   : json_null());
    }
#else
    void *arr = NULL;
#endif
    for (int i = 1; i < npos; i++) {
        if (i > 1 && !o.json)
            fputc('\n', stdout);
        regressions += compare_one(&o, &files[0], &files[i], stdout, arr);
    }
#ifdef LMB_HAVE_JANSSON
    if (doc) {
        json_object_set_new(doc, "comparisons", arr);
        json_object_set_new(doc, "regressions", json_integer(regressions));
        json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        fputc('\n', stdout);
        json_decref(doc);
    }
#endif
    if (lmb_verb_check_output("compare", stdout, "the comparison") != 0)
        rc = 1;
    else if (o.threshold >= 0 && regressions > 0) {
        fprintf(stderr, "lmbench compare: %d regression%s beyond %g%%\n", regressions,
                regressions == 1 ? "" : "s", o.threshold);
        rc = 1;
    }
    for (int i = 0; i < loaded; i++)
        lmb_rs_free(&files[i]);
    free(files);
    free(pos);
    return rc;
}
