// SPDX-License-Identifier: MIT
/* lmbench compare BASE NEW...: every measurement of BASE beside the same
 * measurement (benchmark, case and parameters) of each NEW file, with the ratio
 * of medians, its 95% interval and a verdict from the statistics of cmpstat.h
 * (a hierarchical bootstrap over launches and samples, Benjamini-Hochberg
 * across the measurements of one comparison, an effect floor). Each file's
 * context (kernel, THP, governor, ...) is shown first, and where the two
 * differ compare says so before any verdict. An lmbench 3 raw file is matched
 * to ours on the parameters it has, its placement (unpinned) stated beside
 * ours. --threshold PCT makes the exit status 1 when a measurement judged
 * worse got worse by more than PCT percent. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmprows.h"
#include "lib/stats.h"
#include "results.h"
#include "suite.h"
#include "util.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

static const char usage[] = "[--threshold PCT] [--min-effect PCT] [--min-launches K] [--fdr Q] [--changed] "
                            "[--only TEXT] [--json] BASE NEW...";

static void help(void)
{
    printf("Usage: lmbench compare %s\n"
           "Shows each measurement of the results file BASE beside the same measurement\n"
           "(benchmark, case and parameters) of each NEW file: both values, new/base (the\n"
           "ratio of the medians of the samples) with its 95%% interval, the change in\n"
           "percent, and a verdict:\n"
           "  worse, better   significant after the false-discovery control across all\n"
           "                  measurements of the comparison, and the change beyond the\n"
           "                  effect floor\n"
           "  same            the interval lies within the floor (or the change is\n"
           "                  significant but smaller than the floor)\n"
           "  ?               too few samples, a spread unknown (lmbench 3 files have no\n"
           "                  samples) or an interval too wide to tell; the reason follows\n"
           "  -               not a performance figure (clock rate, sizes): not judged\n"
           "  not comparable  the two hold different quantities (their compat differs)\n"
           "The interval comes from a bootstrap that resamples launches, then samples\n"
           "within each, and Student's t; the effect floor is --min-effect or, where\n"
           "larger, the between-launch spread measured in either file. The two files'\n"
           "contexts (kernel, THP, governor, ...) are shown first, and any difference.\n"
           "\nOptions:\n"
           "  --threshold PCT   exit 1 when a measurement judged worse got worse by more\n"
           "                    than PCT percent\n"
           "  --min-effect PCT  the smallest change called better or worse (default 3)\n"
           "  --min-launches K  judge only measurements taken in at least K launches on\n"
           "                    each side (default 2; 1 judges one process's repetitions)\n"
           "  --fdr Q           the false-discovery rate across the measurements of one\n"
           "                    comparison (Benjamini-Hochberg; default 0.05)\n"
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

#ifdef LMB_HAVE_JANSSON
static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
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
    qsort(s, r->nsamples, sizeof *s, by_double);
    *lo = s[j - 1];
    *hi = s[k - 1];
    free(s);
    return true;
}

#endif

/* --- context ------------------------------------------------------------------- */

static const char *const context_keys[] = {
    "cpu_model", "microcode", "sockets", "cores", "threads", "smt", "governor", "boost", "thp",
    "thp_defrag", "kernel", "cmdline", "mitigations", "virtualization", "numa_nodes",
    "memory_bytes",
};
#define NCONTEXT (sizeof context_keys / sizeof context_keys[0])

/* A short context line of f: the facts that most often explain a change. */
static void context_line(const struct lmb_rs_file *f, FILE *out)
{
    static const char *const shown[] = { "cpu_model", "threads", "smt", "governor", "boost",
                                         "thp", "kernel", "virtualization", "numa_nodes" };
    const char *sep = "";

    if (f->ncontext == 0) {
        fprintf(out, "      context unknown%s\n",
                f->format == LMB_RS_RAW3 ? " (an lmbench 3 file)" : " (the file does not say)");
        return;
    }
    fprintf(out, "      context: ");
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        const char *v = lmb_rs_context(f, shown[i]);
        if (v == NULL)
            continue;
        if (strcmp(shown[i], "cpu_model") == 0)
            fprintf(out, "%s%.60s", sep, v);
        else
            fprintf(out, "%s%s %.40s", sep, shown[i], v);
        sep = ", ";
    }
    fputc('\n', out);
}

/* Says how the contexts of base and nf differ, before any verdict. */
static void context_diff(const struct lmb_rs_file *base, const struct lmb_rs_file *nf, FILE *out)
{
    const char *sep = "";

    if (base->ncontext == 0 || nf->ncontext == 0) {
        fprintf(out, "context unknown for %s: whether the two machines and settings match "
                     "cannot be told\n",
                base->ncontext == 0 && nf->ncontext == 0 ? "both files"
                : base->ncontext == 0                     ? "base"
                                                          : "new");
        return;
    }
    for (size_t i = 0; i < NCONTEXT; i++) {
        const char *a = lmb_rs_context(base, context_keys[i]);
        const char *b = lmb_rs_context(nf, context_keys[i]);
        if (lmb_cmp_same_str(a, b))
            continue;
        fprintf(out, "%s%s %.60s -> %.60s", *sep ? sep : "context differs: ", context_keys[i],
                a ? a : "unknown", b ? b : "unknown");
        sep = "; ";
    }
    if (*sep)
        fputc('\n', out);
    else
        fprintf(out, "context: the same in both files\n");
}

#ifdef LMB_HAVE_JANSSON
static const char *verdict_json(enum lmb_cmp_verdict v)
{
    switch (v) {
    case LMB_V_SAME: return "same";
    case LMB_V_BETTER: return "better";
    case LMB_V_WORSE: return "worse";
    case LMB_V_UNKNOWN: return "unknown";
    case LMB_V_INFO: return "info";
    case LMB_V_APART: return "not_comparable";
    case LMB_V_COUNT: break;
    }
    return "";
}

static const char *method_name(enum lmb_cs_method m)
{
    return m == LMB_CS_BOOTSTRAP ? "bootstrap" : m == LMB_CS_MARGIN ? "margin" : "none";
}

static json_t *context_json(const struct lmb_rs_file *base, const struct lmb_rs_file *nf)
{
    json_t *c = json_object(), *d = json_array();

    for (int k = 0; k < 2; k++) {
        const struct lmb_rs_file *f = k ? nf : base;
        json_t *o = f->ncontext ? json_object() : json_null();
        for (size_t i = 0; i < f->ncontext; i++)
            json_object_set_new(o, f->context[i].key, json_string(f->context[i].value));
        json_object_set_new(c, k ? "new" : "base", o);
    }
    if (base->ncontext && nf->ncontext)
        for (size_t i = 0; i < NCONTEXT; i++) {
            const char *a = lmb_rs_context(base, context_keys[i]);
            const char *b = lmb_rs_context(nf, context_keys[i]);
            if (!lmb_cmp_same_str(a, b))
                json_array_append_new(d, json_pack("{ssss?ss?}", "key", context_keys[i], "base",
                                                   a, "new", b));
        }
    json_object_set_new(c, "differs", base->ncontext && nf->ncontext ? d : json_null());
    if (!(base->ncontext && nf->ncontext))
        json_decref(d);
    return c;
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row_json(const struct lmb_cmp_row *w)
{
    json_t *m = json_object(), *b = json_object(), *n = json_object();
    bool stat = w->verdict != LMB_V_APART && w->verdict != LMB_V_INFO;

    json_object_set_new(m, "measurement", json_string(w->name));
    json_object_set_new(m, "benchmark", json_string(w->b->benchmark));
    json_object_set_new(m, "case", w->b->case_name ? json_string(w->b->case_name) : json_null());
    json_object_set_new(m, "unit", json_string(w->b->unit));
    json_object_set_new(m, "better", json_string(w->b->higher_better ? "higher" : "lower"));
    for (int k = 0; k < 2; k++) {
        const struct lmb_rs_record *r = k ? w->n : w->b;
        json_t *o = k ? n : b;
        json_object_set_new(o, "value", json_real(r->value));
        json_object_set_new(o, "n", json_integer((json_int_t)r->nsamples));
        json_object_set_new(o, "launches",
                            json_integer((json_int_t)(r->nsamples == 0 ? 0
                                                      : r->nlaunches ? r->nlaunches : 1)));
        double lo, hi;
        json_object_set_new(o, "ci95", median_ci(r, &lo, &hi) ? json_pack("[ff]", lo, hi)
                                                              : json_null());
        json_object_set_new(o, "between_launch_cv",
                            stat ? num_or_null(k ? w->cs.cv_new : w->cs.cv_base) : json_null());
        json_object_set_new(o, "compat", json_string(r->compat ? r->compat : "same"));
        json_object_set_new(o, "disturbed", json_boolean(r->disturbed));
        json_object_set_new(o, "ends", lmb_rs_pstr(r, "ends") ? json_string(lmb_rs_pstr(r, "ends"))
                                                              : json_null());
    }
    json_object_set_new(m, "base", b);
    json_object_set_new(m, "new", n);
    json_object_set_new(m, "ratio", num_or_null(w->ratio));
    json_object_set_new(m, "interval", stat && isfinite(w->cs.lo)
                                           ? json_pack("[ff]", w->cs.lo, w->cs.hi)
                                           : json_null());
    json_object_set_new(m, "change_pct", num_or_null(w->change_pct));
    json_object_set_new(m, "p", stat ? num_or_null(w->cs.p) : json_null());
    json_object_set_new(m, "q", stat ? num_or_null(w->cs.q) : json_null());
    json_object_set_new(m, "df", stat ? num_or_null(w->cs.df) : json_null());
    json_object_set_new(m, "effect_floor_pct", stat ? num_or_null(w->cs.floor * 100) : json_null());
    json_object_set_new(m, "margin_pct", stat ? num_or_null(w->cs.margin * 100) : json_null());
    json_object_set_new(m, "verdict", json_string(verdict_json(w->verdict)));
    json_object_set_new(m, "reason", stat && w->cs.reason ? json_string(w->cs.reason)
                                                          : json_null());
    json_object_set_new(m, "spread_test", json_string(stat ? method_name(w->cs.method) : "none"));
    json_object_set_new(m, "placement", w->placement[0] ? json_string(w->placement) : json_null());
    json_object_set_new(m, "regression", json_boolean(w->regression));
    return m;
}
#endif

/* --- output -------------------------------------------------------------------- */

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

static void describe_file(const struct lmb_rs_file *f, char *buf, size_t len)
{
    snprintf(buf, len, "%s (%s%s%s)", f->path, f->hostname ? f->hostname : "unknown host",
             f->start ? ", " : "", f->start ? f->start : "");
}

struct cmp_opts {
    double threshold;       /* < 0: none */
    bool changed, json;
    const char *only;
    struct lmb_cs_opts cs;
};

static void print_row(const struct lmb_cmp_row *w, FILE *out)
{
    char bs[32], ns[32], iv[48] = "";

    fmt_value(w->b->value, bs, sizeof bs);
    fmt_value(w->n->value, ns, sizeof ns);
    if (w->verdict == LMB_V_APART) {
        fprintf(out, "%-44s %-5s %12s %12s %8s %16s %9s  %s\n", w->name, w->b->unit, bs, ns, "-",
                "", "-", lmb_cmp_verdict_name(w->verdict));
        fprintf(out, "    base: %s\n    new:  %s\n", w->b->compat ? w->b->compat : "same",
                w->n->compat ? w->n->compat : "same");
        return;
    }
    if (w->verdict != LMB_V_INFO && isfinite(w->cs.lo))
        snprintf(iv, sizeof iv, "[%.3f, %.3f]", w->cs.lo, w->cs.hi);
    fprintf(out, "%-44s %-5s %12s %12s %8.3f %-16s %+8.1f%%  %s", w->name, w->b->unit, bs, ns,
            w->ratio, iv, w->change_pct, lmb_cmp_verdict_name(w->verdict));
    if (w->verdict == LMB_V_UNKNOWN && w->cs.reason)
        fprintf(out, " (%s)", w->cs.reason);
    else if ((w->verdict == LMB_V_BETTER || w->verdict == LMB_V_WORSE) && w->cs.method == LMB_CS_MARGIN)
        fprintf(out, " (beyond %.0f%%: no spread on one side)", w->cs.margin * 100);
    fprintf(out, "%s\n", w->regression ? "  REGRESSION" : "");
    if (w->placement[0])
        fprintf(out, "    placement: %s\n", w->placement);
}

/* Compares base with one new file; prints the table (or adds to the JSON) and
 * returns the regressions beyond the threshold, or -1 on out of memory. */
static int compare_one(const struct cmp_opts *o, const struct lmb_rs_file *base,
                       const struct lmb_rs_file *nf, FILE *out, void *jarr)
{
    struct lmb_cmp_set set;
    size_t shown = 0, counts[LMB_V_COUNT] = { 0 }, placed = 0;
    size_t why_few = 0, why_unknown = 0, why_wide = 0, why_margin = 0, why_one = 0, disturbed = 0;
    int regressions = 0;
    char desc[700];
#ifdef LMB_HAVE_JANSSON
    json_t *metrics = jarr ? json_array() : NULL;
#else
    (void)jarr;
#endif

    if (lmb_cmp_pair(&o->cs, base, nf, &set) != 0) {
        fprintf(stderr, "lmbench compare: out of memory\n");
        return -1;
    }
    if (!o->json) {
        describe_file(base, desc, sizeof desc);
        fprintf(out, "base: %s\n", desc);
        context_line(base, out);
        describe_file(nf, desc, sizeof desc);
        fprintf(out, "new:  %s\n", desc);
        context_line(nf, out);
        context_diff(base, nf, out);
        fputc('\n', out);
        fprintf(out, "%-44s %-5s %12s %12s %8s %-16s %9s  %s\n", "measurement", "unit", "base",
                "new", "new/base", "[95% interval]", "change", "verdict");
    }
    for (size_t i = 0; i < set.n; i++) {
        struct lmb_cmp_row *w = &set.rows[i];
        if (o->only && strstr(w->name, o->only) == NULL)
            continue;
        counts[w->verdict]++;
        if (w->placement[0])
            placed++;
        if (w->b->disturbed || w->n->disturbed)
            disturbed++;
        if (w->verdict == LMB_V_UNKNOWN && w->cs.reason) {
            if (strstr(w->cs.reason, "few"))
                why_few++;
            else if (strstr(w->cs.reason, "one launch"))
                why_one++;
            else if (strstr(w->cs.reason, "wide"))
                why_wide++;
            else if (strstr(w->cs.reason, "margin"))
                why_margin++;
            else
                why_unknown++;
        }
        if (w->verdict == LMB_V_WORSE && o->threshold >= 0 && fabs(w->change_pct) > o->threshold) {
            w->regression = true;
            regressions++;
        }
        if (o->changed && w->verdict != LMB_V_BETTER && w->verdict != LMB_V_WORSE && !w->regression)
            continue;
        shown++;
        if (!o->json)
            print_row(w, out);
#ifdef LMB_HAVE_JANSSON
        else if (metrics)
            json_array_append_new(metrics, row_json(w));
#endif
    }
    if (!o->json) {
        if (shown == 0)
            fprintf(out, "(no measurement to show)\n");
        fprintf(out, "\n%zu compared: %zu worse, %zu better, %zu same, %zu ?, %zu not judged; "
                     "%zu only in base, %zu only in new\n",
                counts[LMB_V_SAME] + counts[LMB_V_BETTER] + counts[LMB_V_WORSE] + counts[LMB_V_UNKNOWN] +
                    counts[LMB_V_INFO],
                counts[LMB_V_WORSE], counts[LMB_V_BETTER], counts[LMB_V_SAME], counts[LMB_V_UNKNOWN],
                counts[LMB_V_INFO], set.nonly_base, set.nonly_new);
        if (counts[LMB_V_UNKNOWN])
            fprintf(out, "?: %zu too few samples, %zu one launch, %zu spread unknown, "
                         "%zu interval too wide, %zu within the margin (one side without "
                         "spread)\n",
                    why_few, why_one, why_unknown, why_wide, why_margin);
        if (counts[LMB_V_APART])
            fprintf(out, "%zu not comparable: the same measurement, different quantities "
                         "(compat)\n", counts[LMB_V_APART]);
        if (placed)
            fprintf(out, "%zu compared across placements (the placement line under each)\n",
                    placed);
        if (disturbed)
            fprintf(out, "%zu measured in a step that shared its CPUs beyond the threshold "
                         "(disturbed) in base or new\n", disturbed);
        fprintf(out, "verdicts: 95%% intervals of the ratio of medians (bootstrap over launches "
                     "and samples), false-discovery rate %g, effect floor %g%% or the "
                     "between-launch spread where larger\n",
                o->cs.fdr, o->cs.min_effect * 100);
        if (o->threshold >= 0)
            fprintf(out, "regressions beyond %g%%: %d\n", o->threshold, regressions);
    }
#ifdef LMB_HAVE_JANSSON
    if (metrics) {
        json_t *c = json_object();
        json_object_set_new(c, "new", json_pack("{ssss?so}", "path", nf->path, "host", nf->hostname,
                                                "run_id", nf->run_id ? json_string(nf->run_id)
                                                                     : json_null()));
        json_object_set_new(c, "context", context_json(base, nf));
        json_object_set_new(c, "metrics", metrics);
        json_object_set_new(c, "only_in_base", json_integer((json_int_t)set.nonly_base));
        json_object_set_new(c, "only_in_new", json_integer((json_int_t)set.nonly_new));
        json_object_set_new(c, "not_comparable", json_integer((json_int_t)counts[LMB_V_APART]));
        json_object_set_new(c, "counts", json_pack("{sIsIsIsIsI}", "worse",
                                                   (json_int_t)counts[LMB_V_WORSE], "better",
                                                   (json_int_t)counts[LMB_V_BETTER], "same",
                                                   (json_int_t)counts[LMB_V_SAME], "unknown",
                                                   (json_int_t)counts[LMB_V_UNKNOWN], "info",
                                                   (json_int_t)counts[LMB_V_INFO]));
        json_object_set_new(c, "regressions", json_integer(regressions));
        json_array_append_new((json_t *)jarr, c);
    }
#endif
    lmb_cmp_free(&set);
    return regressions;
}

/* A percentage or fraction option: v in [lo, hi]. */
static int number_opt(const char *v, double lo, double hi, double *out)
{
    char *end;
    double d = strtod(v, &end);

    if (end == v || *end != '\0' || !(d >= lo) || !(d <= hi))
        return -1;
    *out = d;
    return 0;
}

int lmb_suite_compare(int argc, char **argv)
{
    struct cmp_opts o = { .threshold = -1, .cs = LMB_CS_DEFAULT_OPTS };
    struct lmb_rs_file *files;
    char **pos, err[600];
    int npos = 0, rc = 0, regressions = 0, r, loaded = 0;
    bool oom = false;
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
            if (r < 0 || number_opt(v, 0, 1e6, &o.threshold) != 0) {
                free(pos);
                if (r < 0)
                    return lmb_verb_usage_error("compare", usage, "--threshold needs a percentage");
                return lmb_verb_usage_error("compare", usage,
                                            "--threshold: expected a percentage >= 0, got '%s'",
                                            lmb_quote_arg(v));
            }
        } else if ((r = lmb_long_opt(argc, argv, &i, "--min-effect", &v)) != 0) {
            double pct;
            if (r < 0 || number_opt(v, 0, 1000, &pct) != 0) {
                free(pos);
                if (r < 0)
                    return lmb_verb_usage_error("compare", usage, "--min-effect needs a percentage");
                return lmb_verb_usage_error("compare", usage,
                                            "--min-effect: expected a percentage from 0 to 1000, "
                                            "got '%s'", lmb_quote_arg(v));
            }
            o.cs.min_effect = pct / 100;
        } else if ((r = lmb_long_opt(argc, argv, &i, "--min-launches", &v)) != 0) {
            double k;
            if (r < 0 || number_opt(v, 1, 100, &k) != 0 || k != (double)(size_t)k) {
                free(pos);
                if (r < 0)
                    return lmb_verb_usage_error("compare", usage, "--min-launches needs a count");
                return lmb_verb_usage_error("compare", usage,
                                            "--min-launches: expected a count from 1 to 100, "
                                            "got '%s'", lmb_quote_arg(v));
            }
            o.cs.min_launches = (size_t)k;
        } else if ((r = lmb_long_opt(argc, argv, &i, "--fdr", &v)) != 0) {
            if (r < 0 || number_opt(v, 1e-9, 1, &o.cs.fdr) != 0 || o.cs.fdr >= 1) {
                free(pos);
                if (r < 0)
                    return lmb_verb_usage_error("compare", usage, "--fdr needs a rate");
                return lmb_verb_usage_error("compare", usage,
                                            "--fdr: expected a rate between 0 and 1, got '%s'",
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
        json_object_set_new(doc, "schema_version", json_integer(2));
        json_object_set_new(doc, "base", json_pack("{ssss?so}", "path", files[0].path, "host",
                                                   files[0].hostname, "run_id",
                                                   files[0].run_id ? json_string(files[0].run_id)
                                                                   : json_null()));
        json_object_set_new(doc, "threshold_pct", o.threshold >= 0 ? json_real(o.threshold)
                                                                   : json_null());
        json_object_set_new(doc, "min_effect_pct", json_real(o.cs.min_effect * 100));
        json_object_set_new(doc, "fdr", json_real(o.cs.fdr));
        json_object_set_new(doc, "resamples", json_integer(o.cs.resamples));
    }
#else
    void *arr = NULL;
#endif
    for (int i = 1; i < npos && !oom; i++) {
        int got;
        if (i > 1 && !o.json)
            fputc('\n', stdout);
        got = compare_one(&o, &files[0], &files[i], stdout, arr);
        if (got < 0)
            oom = true;
        else
            regressions += got;
    }
#ifdef LMB_HAVE_JANSSON
    if (doc) {
        json_object_set_new(doc, "comparisons", arr);
        json_object_set_new(doc, "regressions", json_integer(regressions));
        if (!oom) {
            json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
            fputc('\n', stdout);
        }
        json_decref(doc);
    }
#endif
    if (lmb_verb_check_output("compare", stdout, "the comparison") != 0 || oom)
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
