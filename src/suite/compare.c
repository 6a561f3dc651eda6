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
 * worse got worse by more than PCT percent. The table's columns are as wide as
 * the rows shown, the measurements of one file only are named after it; the
 * same as Markdown with --markdown, as JSON with --json; verdicts coloured on
 * a terminal (lmb_want_colour). */
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
                            "[--only TEXT] [--json|--markdown] BASE NEW...";

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
           "contexts (kernel, THP, governor, ...) are shown first, and any difference;\n"
           "the measurements found in one file only are named after the table. On a\n"
           "terminal the verdicts are coloured (not with NO_COLOR set, nor into a pipe).\n"
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
           "  --markdown        the comparison as Markdown (a list and a table, for pull\n"
           "                    requests and mailing lists)\n"
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

/* A short context of f, the facts that most often explain a change:
 * "context: ..." or "context unknown (...)". */
static void context_line(const struct lmb_rs_file *f, char *buf, size_t len)
{
    static const char *const shown[] = { "cpu_model", "threads", "smt", "governor", "boost",
                                         "thp", "kernel", "virtualization", "numa_nodes" };
    const char *sep = "";
    size_t at;

    if (f->ncontext == 0) {
        snprintf(buf, len, "context unknown%s",
                 f->format == LMB_RS_RAW3 ? " (an lmbench 3 file)" : " (the file does not say)");
        return;
    }
    at = (size_t)snprintf(buf, len, "context: ");
    for (size_t i = 0; i < sizeof shown / sizeof shown[0] && at < len; i++) {
        const char *v = lmb_rs_context(f, shown[i]);
        if (v == NULL)
            continue;
        if (strcmp(shown[i], "cpu_model") == 0)
            at += (size_t)snprintf(buf + at, len - at, "%s%.60s", sep, v);
        else
            at += (size_t)snprintf(buf + at, len - at, "%s%s %.40s", sep, shown[i], v);
        sep = ", ";
    }
}

/* How the contexts of base and nf differ, said before any verdict. */
static void context_diff(const struct lmb_rs_file *base, const struct lmb_rs_file *nf, char *buf,
                         size_t len)
{
    const char *sep = "";
    size_t at = 0;

    if (base->ncontext == 0 || nf->ncontext == 0) {
        snprintf(buf, len, "context unknown for %s: whether the two machines and settings match "
                           "cannot be told",
                 base->ncontext == 0 && nf->ncontext == 0 ? "both files"
                 : base->ncontext == 0                     ? "base"
                                                           : "new");
        return;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < NCONTEXT && at < len; i++) {
        const char *a = lmb_rs_context(base, context_keys[i]);
        const char *b = lmb_rs_context(nf, context_keys[i]);
        if (lmb_cmp_same_str(a, b))
            continue;
        at += (size_t)snprintf(buf + at, len - at, "%s%s %.60s -> %.60s",
                               *sep ? sep : "context differs: ", context_keys[i],
                               a ? a : "unknown", b ? b : "unknown");
        sep = "; ";
    }
    if (!*sep)
        snprintf(buf, len, "context: the same in both files");
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

/* A name longer than this stands on its own line above its row, so that one
 * very long name does not widen every row of the table. */
#define NAME_CAP 60

/* Decimals that give |v| (> 0) sig significant digits; none from 10^sig up. */
static int decimals_for(double v, int sig)
{
    int d = sig - 1 - (int)floor(log10(v));
    return d < 0 ? 0 : d;
}

/* Base's and new's values of one row, written alike: the same decimals, enough
 * for the larger to have 4 significant digits and the smaller at least 3;
 * each with 4 significant digits of its own (none from 1000 up) where their
 * orders of magnitude differ by more than 2; in exponent notation below
 * 0.0001 or from 10^9 up. */
static void fmt_pair(double b, double n, char *bs, char *ns, size_t len)
{
    double hi = fmax(fabs(b), fabs(n)), lo = fmin(fabs(b), fabs(n));
    int d;

    if (!isfinite(b) || !isfinite(n)) {
        snprintf(bs, len, "%g", b);
        snprintf(ns, len, "%g", n);
        return;
    }
    if (hi == 0) {
        snprintf(bs, len, "0");
        snprintf(ns, len, "0");
        return;
    }
    if (lo == 0)
        lo = hi;
    if (hi >= 1e9 || lo < 1e-4) {
        snprintf(bs, len, "%.3e", b);
        snprintf(ns, len, "%.3e", n);
        return;
    }
    if (floor(log10(hi)) - floor(log10(lo)) > 2) {
        snprintf(bs, len, "%.*f", b == 0 ? 0 : decimals_for(fabs(b), 4), b);
        snprintf(ns, len, "%.*f", n == 0 ? 0 : decimals_for(fabs(n), 4), n);
        return;
    }
    d = decimals_for(hi, 4);
    if (decimals_for(lo, 3) > d)
        d = decimals_for(lo, 3);
    snprintf(bs, len, "%.*f", d, b);
    snprintf(ns, len, "%.*f", d, n);
}

static void describe_file(const struct lmb_rs_file *f, char *buf, size_t len)
{
    snprintf(buf, len, "%s (%s%s%s)", f->path, f->hostname ? f->hostname : "unknown host",
             f->start ? ", " : "", f->start ? f->start : "");
}

struct cmp_opts {
    double threshold;       /* < 0: none */
    bool changed, json, markdown, colour;
    const char *only;
    struct lmb_cs_opts cs;
};

/* One row's text: ratios and intervals always with 3 decimals, changes with 1. */
struct cells {
    char base[48], nw[48], ratio[32], iv[80], change[32], note[160];
};

static void row_cells(const struct lmb_cmp_row *w, struct cells *c)
{
    fmt_pair(w->b->value, w->n->value, c->base, c->nw, sizeof c->base);
    c->iv[0] = c->note[0] = '\0';
    if (w->verdict == LMB_V_APART) {
        snprintf(c->ratio, sizeof c->ratio, "-");
        snprintf(c->change, sizeof c->change, "-");
        return;
    }
    snprintf(c->ratio, sizeof c->ratio, "%.3f", w->ratio);
    snprintf(c->change, sizeof c->change, "%+.1f%%", w->change_pct);
    if (w->verdict != LMB_V_INFO && isfinite(w->cs.lo))
        snprintf(c->iv, sizeof c->iv, "[%.3f, %.3f]", w->cs.lo, w->cs.hi);
    if (w->verdict == LMB_V_UNKNOWN && w->cs.reason)
        snprintf(c->note, sizeof c->note, " (%s)", w->cs.reason);
    else if ((w->verdict == LMB_V_BETTER || w->verdict == LMB_V_WORSE) && w->cs.method == LMB_CS_MARGIN)
        snprintf(c->note, sizeof c->note, " (beyond %.0f%%: no spread on one side)",
                 w->cs.margin * 100);
}

/* The widths of the columns, from the rows shown. */
struct widths {
    int name, unit, base, nw, ratio, iv, change, verdict;
};

static void widen(int *w, const char *s)
{
    int n = (int)strlen(s);
    if (n > *w)
        *w = n;
}

static const char *verdict_sgr(enum lmb_cmp_verdict v)
{
    return v == LMB_V_WORSE ? LMB_SGR_BAD : v == LMB_V_BETTER ? LMB_SGR_GOOD
                          : v == LMB_V_UNKNOWN ? LMB_SGR_WARN : NULL;
}

static void print_row(const struct cmp_opts *o, const struct lmb_cmp_row *w, const struct cells *c,
                      const struct widths *wd, FILE *out)
{
    const char *sgr = o->colour ? verdict_sgr(w->verdict) : NULL;

    if ((int)strlen(w->name) > wd->name)
        fprintf(out, "%s\n%-*s", w->name, wd->name, "");
    else
        fprintf(out, "%-*s", wd->name, w->name);
    /* The verdict is the last column: colour wraps its text, no padding moves. */
    fprintf(out, " %-*s %*s %*s %*s %-*s %*s  %s%s%s%s", wd->unit, w->b->unit, wd->base, c->base,
            wd->nw, c->nw, wd->ratio, c->ratio, wd->iv, c->iv, wd->change, c->change,
            sgr ? sgr : "", lmb_cmp_verdict_name(w->verdict), sgr ? LMB_SGR_OFF : "", c->note);
    if (w->regression)
        fprintf(out, "  %s%sREGRESSION%s", o->colour ? LMB_SGR_BOLD : "", o->colour ? LMB_SGR_BAD : "",
                o->colour ? LMB_SGR_OFF : "");
    fputc('\n', out);
    if (w->verdict == LMB_V_APART)
        fprintf(out, "    base: %s\n    new:  %s\n", w->b->compat ? w->b->compat : "same",
                w->n->compat ? w->n->compat : "same");
    if (w->placement[0])
        fprintf(out, "    placement: %s\n", w->placement);
}

/* --- Markdown ---------------------------------------------------------------------- */

/* s as a Markdown cell's text (through lmb_md_cell) in buf. */
static void md_text(const char *s, char *buf, size_t len)
{
    FILE *m = fmemopen(buf, len, "w");

    buf[0] = '\0';
    if (m == NULL)
        return;
    setvbuf(m, NULL, _IONBF, 0);
    lmb_md_cell(m, s);
    fclose(m);
    buf[len - 1] = '\0';
}

enum { MD_COLS = 8 };

struct md_row {
    char cell[MD_COLS][1100];
};

static void md_row_of(const struct lmb_cmp_row *w, const struct cells *c, struct md_row *r)
{
    char v[1100];
    size_t at;

    md_text(w->name, r->cell[0], sizeof r->cell[0]);
    md_text(w->b->unit, r->cell[1], sizeof r->cell[1]);
    md_text(c->base, r->cell[2], sizeof r->cell[2]);
    md_text(c->nw, r->cell[3], sizeof r->cell[3]);
    md_text(c->ratio, r->cell[4], sizeof r->cell[4]);
    md_text(c->iv, r->cell[5], sizeof r->cell[5]);
    md_text(c->change, r->cell[6], sizeof r->cell[6]);
    at = (size_t)snprintf(v, sizeof v, "%s%s%s", lmb_cmp_verdict_name(w->verdict), c->note,
                          w->regression ? ", REGRESSION" : "");
    if (w->verdict == LMB_V_APART && at < sizeof v)
        at += (size_t)snprintf(v + at, sizeof v - at, " (base: %s; new: %s)",
                               w->b->compat ? w->b->compat : "same",
                               w->n->compat ? w->n->compat : "same");
    if (w->placement[0] && at < sizeof v)
        snprintf(v + at, sizeof v - at, "; placement: %s", w->placement);
    md_text(v, r->cell[7], sizeof r->cell[7]);
}

static const bool md_right[MD_COLS] = { false, false, true, true, true, true, true, false };

static void md_line(const struct md_row *r, const int *wd, FILE *out)
{
    for (int k = 0; k < MD_COLS; k++)
        fprintf(out, md_right[k] ? "| %*s " : "| %-*s ", wd[k], r->cell[k]);
    fputs("|\n", out);
}

/* The rows shown as one Markdown table, its cells padded so that the text
 * reads as a table too (mailing lists). */
static int md_table(struct lmb_cmp_row *const *rows, size_t n, FILE *out)
{
    static const char *const head[MD_COLS] = { "measurement", "unit", "base", "new", "new/base",
                                               "95% interval", "change", "verdict" };
    struct md_row *r = calloc(n + 1, sizeof *r);
    int wd[MD_COLS];

    if (r == NULL)
        return -1;
    for (int k = 0; k < MD_COLS; k++) {
        snprintf(r[0].cell[k], sizeof r[0].cell[k], "%s", head[k]);
        wd[k] = 4;
    }
    for (size_t i = 0; i < n; i++) {
        struct cells c;
        row_cells(rows[i], &c);
        md_row_of(rows[i], &c, &r[i + 1]);
    }
    for (size_t i = 0; i <= n; i++)
        for (int k = 0; k < MD_COLS; k++)
            widen(&wd[k], r[i].cell[k]);
    md_line(&r[0], wd, out);
    for (int k = 0; k < MD_COLS; k++) {
        fputc('|', out);
        for (int j = 0; j < wd[k] + (md_right[k] ? 1 : 2); j++)
            fputc('-', out);
        fputs(md_right[k] ? ":" : "", out);
    }
    fputs("|\n", out);
    for (size_t i = 1; i <= n; i++)
        md_line(&r[i], wd, out);
    free(r);
    return 0;
}

/* "- " in Markdown, "" in text: the lines after the table are a list there. */
#define ITEM(o) ((o)->markdown ? "- " : "")

/* The measurements of one file only that --only shows, by name: in text one
 * per line under a count, in Markdown one list item. */
static void print_only(const struct cmp_opts *o, const char *which,
                       const struct lmb_cmp_only *only, size_t n, size_t count, FILE *out)
{
    const char *sep = "";

    if (count == 0)
        return;
    fprintf(out, "%sonly in %s (%zu):%s", ITEM(o), which, count, o->markdown ? " " : "\n");
    for (size_t i = 0; i < n; i++) {
        if (o->only && strstr(only[i].name, o->only) == NULL)
            continue;
        if (o->markdown) {
            fputs(sep, out);
            lmb_md_cell(out, only[i].name);
            sep = ", ";
        } else {
            fprintf(out, "    %s\n", only[i].name);
        }
    }
    if (o->markdown)
        fputc('\n', out);
}

static size_t count_only(const struct cmp_opts *o, const struct lmb_cmp_only *only, size_t n)
{
    size_t c = 0;

    for (size_t i = 0; i < n; i++)
        if (!o->only || strstr(only[i].name, o->only) != NULL)
            c++;
    return c;
}

/* The files and their contexts: lines in text, a list in Markdown. */
static void print_files(const struct cmp_opts *o, const struct lmb_rs_file *base,
                        const struct lmb_rs_file *nf, FILE *out)
{
    char desc[700], ctx[4096];

    if (o->markdown) {
        fputs("### ", out);
        lmb_md_cell(out, base->path);
        fputs(" vs ", out);
        lmb_md_cell(out, nf->path);
        fputs("\n\n", out);
    }
    for (int k = 0; k < 2; k++) {
        const struct lmb_rs_file *f = k ? nf : base;
        describe_file(f, desc, sizeof desc);
        context_line(f, ctx, sizeof ctx);
        if (o->markdown) {
            fprintf(out, "- %s: ", k ? "new" : "base");
            lmb_md_cell(out, desc);
            fputs("\n  - ", out);
            lmb_md_cell(out, ctx);
            fputc('\n', out);
        } else {
            fprintf(out, "%s %s\n      %s\n", k ? "new: " : "base:", desc, ctx);
        }
    }
    context_diff(base, nf, ctx, sizeof ctx);
    if (o->markdown) {
        fputs("- ", out);
        lmb_md_cell(out, ctx);
        fputc('\n', out);
    } else {
        fprintf(out, "%s\n", ctx);
    }
    fputc('\n', out);
}

/* The text table of the rows shown, its columns as wide as their widest cell. */
static void text_table(const struct cmp_opts *o, struct lmb_cmp_row *const *rows, size_t n,
                       FILE *out)
{
    struct widths wd = { 11, 4, 4, 3, 8, 14, 6, 7 };
    struct cells c;

    for (size_t i = 0; i < n; i++) {
        if ((int)strlen(rows[i]->name) <= NAME_CAP)
            widen(&wd.name, rows[i]->name);
        widen(&wd.unit, rows[i]->b->unit);
        row_cells(rows[i], &c);
        widen(&wd.base, c.base);
        widen(&wd.nw, c.nw);
        widen(&wd.ratio, c.ratio);
        widen(&wd.iv, c.iv);
        widen(&wd.change, c.change);
    }
    fprintf(out, "%-*s %-*s %*s %*s %*s %-*s %*s  %s\n", wd.name, "measurement", wd.unit, "unit",
            wd.base, "base", wd.nw, "new", wd.ratio, "new/base", wd.iv, "[95% interval]", wd.change,
            "change", "verdict");
    for (size_t i = 0; i < n; i++) {
        row_cells(rows[i], &c);
        print_row(o, rows[i], &c, &wd, out);
    }
}

/* Compares base with one new file; prints the table (or adds to the JSON) and
 * returns the regressions beyond the threshold, or -1 on out of memory. */
static int compare_one(const struct cmp_opts *o, const struct lmb_rs_file *base,
                       const struct lmb_rs_file *nf, FILE *out, void *jarr)
{
    struct lmb_cmp_set set;
    struct lmb_cmp_row **shown;
    size_t nshown = 0, counts[LMB_V_COUNT] = { 0 }, placed = 0, left_out = 0;
    size_t why_few = 0, why_unknown = 0, why_wide = 0, why_margin = 0, why_one = 0, disturbed = 0;
    size_t only_b, only_n;
    int regressions = 0;
#ifndef LMB_HAVE_JANSSON
    (void)jarr;
#endif

    if (lmb_cmp_pair(&o->cs, base, nf, &set) != 0) {
        fprintf(stderr, "lmbench compare: out of memory\n");
        return -1;
    }
    shown = calloc(set.n + 1, sizeof *shown);
    if (shown == NULL) {
        lmb_cmp_free(&set);
        fprintf(stderr, "lmbench compare: out of memory\n");
        return -1;
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
        if (o->changed && w->verdict != LMB_V_BETTER && w->verdict != LMB_V_WORSE && !w->regression) {
            left_out++;
            continue;
        }
        shown[nshown++] = w;
    }
    only_b = count_only(o, set.only_base, set.nonly_base);
    only_n = count_only(o, set.only_new, set.nonly_new);
    if (!o->json) {
        print_files(o, base, nf, out);
        if (nshown == 0)
            fprintf(out, "(no measurement to show)\n");
        else if (!o->markdown)
            text_table(o, shown, nshown, out);
        else if (md_table(shown, nshown, out) != 0) {
            free(shown);
            lmb_cmp_free(&set);
            fprintf(stderr, "lmbench compare: out of memory\n");
            return -1;
        }
        if (left_out)
            fprintf(out, "%s%zu not shown: neither better nor worse (--changed)\n",
                    o->markdown ? "\n" : "", left_out);
        fputc('\n', out);
        if (!o->markdown) {
            print_only(o, "base", set.only_base, set.nonly_base, only_b, out);
            print_only(o, "new", set.only_new, set.nonly_new, only_n, out);
            if (only_b || only_n)
                fputc('\n', out);
        }
        fprintf(out, "%s%zu compared: %zu worse, %zu better, %zu same, %zu ?, %zu not judged; "
                     "%zu only in base, %zu only in new\n", ITEM(o),
                counts[LMB_V_SAME] + counts[LMB_V_BETTER] + counts[LMB_V_WORSE] + counts[LMB_V_UNKNOWN] +
                    counts[LMB_V_INFO],
                counts[LMB_V_WORSE], counts[LMB_V_BETTER], counts[LMB_V_SAME], counts[LMB_V_UNKNOWN],
                counts[LMB_V_INFO], only_b, only_n);
        if (o->markdown) {
            print_only(o, "base", set.only_base, set.nonly_base, only_b, out);
            print_only(o, "new", set.only_new, set.nonly_new, only_n, out);
        }
        if (counts[LMB_V_UNKNOWN])
            fprintf(out, "%s?: %zu too few samples, %zu one launch, %zu spread unknown, "
                         "%zu interval too wide, %zu within the margin (one side without "
                         "spread)\n", ITEM(o),
                    why_few, why_one, why_unknown, why_wide, why_margin);
        if (counts[LMB_V_APART])
            fprintf(out, "%s%zu not comparable: the same measurement, different quantities "
                         "(compat)\n", ITEM(o), counts[LMB_V_APART]);
        if (placed)
            fprintf(out, "%s%zu compared across placements (%s)\n", ITEM(o), placed,
                    o->markdown ? "the placement in each verdict" : "the placement line under each");
        if (disturbed)
            fprintf(out, "%s%zu measured in a step that shared its CPUs beyond the threshold "
                         "(disturbed) in base or new\n", ITEM(o), disturbed);
        fprintf(out, "%sverdicts: 95%% intervals of the ratio of medians (bootstrap over launches "
                     "and samples), false-discovery rate %g, effect floor %g%% or the "
                     "between-launch spread where larger\n", ITEM(o),
                o->cs.fdr, o->cs.min_effect * 100);
        if (o->threshold >= 0)
            fprintf(out, "%sregressions beyond %g%%: %d\n", ITEM(o), o->threshold, regressions);
    }
#ifdef LMB_HAVE_JANSSON
    if (o->json && jarr) {
        json_t *c = json_object(), *metrics = json_array(), *names[2];
        for (size_t i = 0; i < nshown; i++)
            json_array_append_new(metrics, row_json(shown[i]));
        for (int k = 0; k < 2; k++) {
            const struct lmb_cmp_only *only = k ? set.only_new : set.only_base;
            size_t n = k ? set.nonly_new : set.nonly_base;
            names[k] = json_array();
            for (size_t i = 0; i < n; i++)
                if (!o->only || strstr(only[i].name, o->only) != NULL)
                    json_array_append_new(names[k], json_string(only[i].name));
        }
        json_object_set_new(c, "new", json_pack("{ssss?so}", "path", nf->path, "host", nf->hostname,
                                                "run_id", nf->run_id ? json_string(nf->run_id)
                                                                     : json_null()));
        json_object_set_new(c, "context", context_json(base, nf));
        json_object_set_new(c, "metrics", metrics);
        json_object_set_new(c, "only_in_base", json_integer((json_int_t)only_b));
        json_object_set_new(c, "only_in_new", json_integer((json_int_t)only_n));
        json_object_set_new(c, "only_in_base_names", names[0]);
        json_object_set_new(c, "only_in_new_names", names[1]);
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
    free(shown);
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
        } else if (strcmp(a, "--markdown") == 0) {
            o.markdown = true;
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
    if (o.json && o.markdown) {
        free(pos);
        return lmb_verb_usage_error("compare", usage, "--json and --markdown: choose one");
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
    o.colour = !o.json && !o.markdown && lmb_want_colour(stdout);
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
