// SPDX-License-Identifier: MIT
/* The comparison view of lmbench graph: for two or more results files, one
 * panel per later file with each measurement as new/base against the first
 * file, on a log axis centred on 1, its 95% interval as a bar and the verdict
 * of lmbench compare (the same pairing and statistics: lmb_cmp_pair with
 * compare's default options), sorted by the size of the change with the
 * measurements judged better or worse first. The changed measurements and the
 * largest of the others are drawn; the rest, those not judged and those not
 * comparable are listed in a collapsed table under the plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmprows.h"
#include "cmpstat.h"
#include "graph.h"
#include "results.h"

/* Layout of a panel (user units of the viewBox; the text of the rows is an
 * 11 px monospace font, so a column's width in characters is known). */
#define CW 900.0            /* width */
#define CHAR_W 6.7          /* one character of the rows' font, with a margin */
#define ROW_H 16.0          /* every row the same height */
#define TOP 24.0            /* the column heads above the rows */
#define NAME_X 8.0
#define NAME_CHARS 56       /* longer names are cut, the whole in a <title> */
#define PLOT_X0 395.0       /* the ratio axis */
#define PLOT_X1 655.0
#define RATIO_X 706.0      /* where the ratio ends */
#define VERDICT_X 713.0
#define VERDICT_CHARS 27
#define MAX_CHANGED 40      /* better/worse rows drawn */
#define MAX_OTHERS 10       /* and the largest changes among the rest */

enum { G_CHANGED, G_JUDGED, G_INFO, G_APART };

static int group_of(const struct lmb_cmp_row *w)
{
    switch (w->verdict) {
    case LMB_V_BETTER:
    case LMB_V_WORSE: return G_CHANGED;
    case LMB_V_SAME:
    case LMB_V_UNKNOWN: return isfinite(w->ratio) && w->ratio > 0 ? G_JUDGED : G_INFO;
    case LMB_V_INFO: return G_INFO;
    default: return G_APART;
    }
}

static double size_of_change(const struct lmb_cmp_row *w)
{
    return isfinite(w->ratio) && w->ratio > 0 ? fabs(log(w->ratio)) : -1;
}

/* Better/worse first, then same and ?, then not judged, then not comparable;
 * within each, the largest |log ratio| first, then by name. */
static int by_change(const void *a, const void *b)
{
    const struct lmb_cmp_row *x = *(const struct lmb_cmp_row *const *)a;
    const struct lmb_cmp_row *y = *(const struct lmb_cmp_row *const *)b;
    int gx = group_of(x), gy = group_of(y);
    double cx = size_of_change(x), cy = size_of_change(y);

    if (gx != gy)
        return gx < gy ? -1 : 1;
    if (cx != cy)
        return cx > cy ? -1 : 1;
    return strcmp(x->name, y->name);
}

static const char *verdict_colour(enum lmb_cmp_verdict v)
{
    switch (v) {
    case LMB_V_WORSE: return "#c0392b";
    case LMB_V_BETTER: return "#1e8449";
    case LMB_V_SAME: return "#7f8c8d";
    case LMB_V_UNKNOWN: return "#b9770e";
    default: return "#999999";
    }
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* "host (file)" of a results file. */
static void file_words(FILE *out, const struct lmb_rs_file *f)
{
    lmb_graph_escape(out, f->hostname && f->hostname[0] ? f->hostname : "unknown host");
    fputs(" (", out);
    lmb_graph_escape(out, base_name(f->path));
    fputc(')', out);
}

/* s cut to at most n characters (bytes of UTF-8 kept whole), "…" at the end
 * when cut. Returns whether it was cut. */
static bool cut(const char *s, size_t n, char *buf, size_t len)
{
    size_t k = 0, chars = 0, l = strlen(s);

    if (l <= n) {
        snprintf(buf, len, "%s", s);
        return false;
    }
    while (k < l && chars + 1 < n) {
        k++;
        while (k < l && ((unsigned char)s[k] & 0xC0) == 0x80)
            k++;
        chars++;
    }
    snprintf(buf, len, "%.*s\xe2\x80\xa6", (int)k, s);
    return true;
}

/* The reason of a "?" (or of how a verdict was reached) in a few words: its
 * text before the first colon. */
static void short_reason(const struct lmb_cmp_row *w, char *buf, size_t len)
{
    const char *r = w->cs.reason;
    const char *c;

    if (w->verdict == LMB_V_UNKNOWN && r) {
        c = strchr(r, ':');
        snprintf(buf, len, "? %.*s", (int)(c ? (size_t)(c - r) : strlen(r)), r);
    } else if ((w->verdict == LMB_V_BETTER || w->verdict == LMB_V_WORSE) &&
               w->cs.method == LMB_CS_MARGIN) {
        snprintf(buf, len, "%s (margin)", lmb_cmp_verdict_name(w->verdict));
    } else {
        snprintf(buf, len, "%s", lmb_cmp_verdict_name(w->verdict));
    }
}

static void ratio_text(double r, char *buf, size_t len)
{
    if (!isfinite(r))
        snprintf(buf, len, "-");
    else if (r >= 0.1 && r < 10)
        snprintf(buf, len, "%.3f", r);
    else
        snprintf(buf, len, "%.3g", r);
}

/* The full account of a row, for its tooltip and the table. */
static void row_words(FILE *out, const struct lmb_cmp_row *w)
{
    lmb_graph_escape(out, w->name);
    fprintf(out, ": base %.4g %s, new %.4g %s", w->b->value, w->b->unit, w->n->value, w->n->unit);
    if (isfinite(w->ratio))
        fprintf(out, ", new/base %.3f", w->ratio);
    if (w->verdict != LMB_V_INFO && w->verdict != LMB_V_APART && isfinite(w->cs.lo))
        fprintf(out, " [%.3f, %.3f]", w->cs.lo, w->cs.hi);
    if (isfinite(w->change_pct))
        fprintf(out, " (%+.1f%%)", w->change_pct);
    fputs(", ", out);
    lmb_graph_escape(out, lmb_cmp_verdict_name(w->verdict));
    if (w->verdict != LMB_V_INFO && w->verdict != LMB_V_APART && w->cs.reason) {
        fputs(": ", out);
        lmb_graph_escape(out, w->cs.reason);
    }
    if (w->placement[0]) {
        fputs("; placement: ", out);
        lmb_graph_escape(out, w->placement);
    }
}

struct axis {
    double lr;   /* log10 of the half range: the axis spans [1/R, R] */
};

static double axis_x(const struct axis *a, double v)
{
    double l = log10(v) / a->lr;
    if (l < -1)
        l = -1;
    if (l > 1)
        l = 1;
    return (PLOT_X0 + PLOT_X1) / 2 + l * (PLOT_X1 - PLOT_X0) / 2;
}

/* Tick values on each side of 1 from a list of round numbers, kept where they
 * lie at least 44 units from the last one kept on that side. */
static size_t axis_ticks(const struct axis *a, double *t, size_t max)
{
    static const double up[] = { 1.01, 1.02, 1.05, 1.1, 1.2, 1.5, 2, 3, 5, 10, 20, 50, 100, 200,
                                 500, 1e3, 1e4, 1e5, 1e6 };
    static const double down[] = { 0.99, 0.98, 0.95, 0.9, 0.8, 0.7, 0.5, 0.3, 0.2, 0.1, 0.05,
                                   0.02, 0.01, 5e-3, 2e-3, 1e-3, 1e-4, 1e-5, 1e-6 };
    size_t n = 0;
    double R = pow(10, a->lr);

    t[n++] = 1;
    for (int side = 0; side < 2; side++) {
        const double *v = side ? down : up;
        size_t nv = side ? sizeof down / sizeof down[0] : sizeof up / sizeof up[0];
        double last = axis_x(a, 1);
        for (size_t i = 0; i < nv && n < max; i++) {
            double x;
            if (side ? v[i] < 1 / R * 0.9999 : v[i] > R * 1.0001)
                break;
            x = axis_x(a, v[i]);
            if (fabs(x - last) >= 44) {
                t[n++] = v[i];
                last = x;
            }
        }
    }
    return n;
}

static void tick_text(double v, char *buf, size_t len)
{
    if (v >= 1e4)
        snprintf(buf, len, "%.0e", v);
    else if (v < 1e-3)
        snprintf(buf, len, "%.0e", v);
    else
        snprintf(buf, len, "%g", v);
}

static const char *const kinds[] = { "worse", "better", "same", "?" };
static const enum lmb_cmp_verdict kind_v[] = { LMB_V_WORSE, LMB_V_BETTER, LMB_V_SAME,
                                               LMB_V_UNKNOWN };
#define NKINDS 4

/* The plot of the rows drawn: one series (and legend entry) per verdict kind. */
static void draw(FILE *out, int panel, int fi, struct lmb_cmp_row *const *order,
                 const size_t *idx, size_t n)
{
    struct axis a;
    double R = 1.05, Ri = 1.05, t[48], bottom = TOP + ROW_H * (double)n, height;
    size_t nt, per[NKINDS] = { 0 }, nseries = 0;
    char buf[600];
    const char *colour = lmb_graph_colour(fi);

    for (size_t i = 0; i < n; i++) {
        const struct lmb_cmp_row *w = order[idx[i]];
        double r = w->ratio;
        double d = r >= 1 ? r : 1 / r;
        if (d > R)
            R = d;
        if (isfinite(w->cs.lo) && w->cs.lo > 0 && isfinite(w->cs.hi)) {
            double e = fmax(w->cs.hi, 1 / w->cs.lo);
            if (e > Ri)
                Ri = e;
        }
        for (int k = 0; k < NKINDS; k++)
            if (w->verdict == kind_v[k])
                per[k]++;
    }
    /* The intervals widen the axis up to the square of the largest ratio. */
    R = fmax(R, fmin(Ri, fmax(R * R, R * 1.5))) * 1.08;
    a.lr = log10(R);
    for (int k = 0; k < NKINDS; k++)
        nseries += per[k] > 0;
    height = bottom + 36 + 24;
    fprintf(out, "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "data-plot=\"compare-%d\" data-series=\"%zu\" data-points=\"%zu\" role=\"img\" "
                 "class=\"compare\">\n", CW, height, CW, height, panel, nseries, n);
    fprintf(out, "<text class=\"axis\" x=\"%.1f\" y=\"14\">measurement</text>"
                 "<text class=\"axis\" x=\"%.1f\" y=\"14\" text-anchor=\"end\">new/base</text>"
                 "<text class=\"axis\" x=\"%.1f\" y=\"14\">verdict</text>\n",
            NAME_X, RATIO_X, VERDICT_X);
    fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
            PLOT_X0, TOP, PLOT_X1 - PLOT_X0, bottom - TOP);
    nt = axis_ticks(&a, t, sizeof t / sizeof t[0]);
    for (size_t i = 0; i < nt; i++) {
        double x = axis_x(&a, t[i]);
        tick_text(t[i], buf, sizeof buf);
        fprintf(out, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                t[i] == 1 ? "cmp-one" : "grid", x, TOP, x, bottom, x, bottom + 14, buf);
    }
    fprintf(out, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                 "new/base, log scale</text>\n", (PLOT_X0 + PLOT_X1) / 2, bottom + 30);
    for (int k = 0; k < NKINDS; k++) {
        if (per[k] == 0)
            continue;
        /* As the page's other plots: the series in the file's colour (the
         * dots); the bars and the verdicts in the verdict's. */
        fprintf(out, "<g class=\"series\" data-series=\"compare-%d-%d\" data-name=\"%s\" "
                     "data-points=\"%zu\" data-file=\"%d\" data-style=\"0\" "
                     "data-band=\"interval\" stroke=\"%s\" fill=\"%s\">\n<path class=\"cmp-bars\" "
                     "fill=\"none\" stroke=\"%s\" d=\"", panel, k, kinds[k], per[k], fi, colour,
                colour, verdict_colour(kind_v[k]));
        /* The intervals, one path for the series. */
        for (size_t i = 0; i < n; i++) {
            const struct lmb_cmp_row *w = order[idx[i]];
            double y = TOP + ROW_H * ((double)i + 0.5);
            if (w->verdict != kind_v[k] || !isfinite(w->cs.lo) || !(w->cs.lo > 0) ||
                !isfinite(w->cs.hi))
                continue;
            fprintf(out, "M%.1f %.1fH%.1f", axis_x(&a, w->cs.lo), y, axis_x(&a, w->cs.hi));
        }
        fputs("\"/>\n", out);
        for (size_t i = 0; i < n; i++) {
            const struct lmb_cmp_row *w = order[idx[i]];
            double y = TOP + ROW_H * ((double)i + 0.5);
            bool cutname;
            if (w->verdict != kind_v[k])
                continue;
            fputs("<g class=\"cmp-row\" data-name=\"", out);
            lmb_graph_escape(out, w->name);
            fprintf(out, "\" data-rank=\"%zu\" data-verdict=\"%s\" data-ratio=\"%.15g\" "
                         "data-lo=\"%.6g\" data-hi=\"%.6g\">", idx[i] + 1, kinds[k], w->ratio,
                    w->cs.lo, w->cs.hi);
            cutname = cut(w->name, NAME_CHARS, buf, sizeof buf);
            fprintf(out, "<text class=\"cmp-name\" x=\"%.1f\" y=\"%.1f\" stroke=\"none\" "
                         "fill=\"#222\">", NAME_X, y + 4);
            lmb_graph_escape(out, buf);
            if (cutname) {
                fputs("<title>", out);
                lmb_graph_escape(out, w->name);
                fputs("</title>", out);
            }
            fprintf(out, "</text><circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>",
                    axis_x(&a, w->ratio), y);
            row_words(out, w);
            ratio_text(w->ratio, buf, sizeof buf);
            fprintf(out, "</title></circle><text class=\"cmp-ratio\" x=\"%.1f\" y=\"%.1f\" "
                         "text-anchor=\"end\" stroke=\"none\" fill=\"#222\">%s</text>", RATIO_X, y + 4, buf);
            short_reason(w, buf, sizeof buf);
            {
                char shown[200];
                bool cutv = cut(buf, VERDICT_CHARS, shown, sizeof shown);
                fprintf(out, "<text class=\"cmp-verdict\" x=\"%.1f\" y=\"%.1f\" stroke=\"none\" "
                             "fill=\"%s\">", VERDICT_X, y + 4, verdict_colour(w->verdict));
                lmb_graph_escape(out, shown);
                if (cutv || w->cs.reason) {
                    fputs("<title>", out);
                    lmb_graph_escape(out, lmb_cmp_verdict_name(w->verdict));
                    if (w->cs.reason) {
                        fputs(": ", out);
                        lmb_graph_escape(out, w->cs.reason);
                    }
                    fputs("</title>", out);
                }
                fputs("</text>", out);
            }
            fputs("</g>\n", out);
        }
        fputs("</g>\n", out);
    }
    /* The legend: the verdict kinds drawn, one row under the axis. */
    {
        double lx = NAME_X, ly = bottom + 52;
        for (int k = 0; k < NKINDS; k++) {
            if (per[k] == 0)
                continue;
            fprintf(out, "<g class=\"legend\" data-series=\"compare-%d-%d\" data-file=\"%d\" "
                         "tabindex=\"0\" stroke=\"%s\" fill=\"%s\"><title>%s: new/base in the "
                         "colour of the file, the interval in that of the verdict</title>"
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                         "stroke-width=\"2\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
                         "stroke=\"none\"/><text x=\"%.1f\" y=\"%.1f\" stroke=\"none\" "
                         "fill=\"#222\">%s (%zu)</text></g>\n",
                    panel, k, fi, colour, colour, kinds[k], lx, ly - 4, lx + 24, ly - 4,
                    verdict_colour(kind_v[k]), lx + 12, ly - 4, lx + 30, ly, kinds[k], per[k]);
            lx += 130;
        }
    }
    fputs("</svg>\n", out);
}

/* The rows not drawn, in the same order, as a table in a collapsed block. */
static void rest_table(FILE *out, struct lmb_cmp_row *const *order, const size_t *idx,
                       size_t n, const struct lmb_cmp_set *set)
{
    char buf[64];

    if (n == 0 && set->nonly_base == 0 && set->nonly_new == 0)
        return;
    fprintf(out, "<details class=\"cmp-rest\"><summary>");
    if (n)
        fprintf(out, "The other %zu measurement%s, by the size of the change", n,
                n == 1 ? "" : "s");
    else
        fputs("The measurements found in one file only", out);
    fputs("</summary>\n", out);
    if (n) {
        fputs("<table class=\"files cmp-table\">\n<tr><th>measurement</th><th>unit</th>"
              "<th>base</th><th>new</th><th>new/base</th><th>95% interval</th><th>change</th>"
              "<th>verdict</th></tr>\n", out);
        for (size_t i = 0; i < n; i++) {
            const struct lmb_cmp_row *w = order[idx[i]];
            fputs("<tr class=\"cmp-row\" data-name=\"", out);
            lmb_graph_escape(out, w->name);
            fprintf(out, "\" data-rank=\"%zu\" data-verdict=\"%s\" data-ratio=\"%.15g\"><td>",
                    idx[i] + 1, lmb_cmp_verdict_name(w->verdict), w->ratio);
            lmb_graph_escape(out, w->name);
            fputs("</td><td>", out);
            lmb_graph_escape(out, w->b->unit);
            fprintf(out, "</td><td>%.4g</td><td>%.4g</td>", w->b->value, w->n->value);
            ratio_text(w->ratio, buf, sizeof buf);
            fprintf(out, "<td>%s</td><td>", buf);
            if (w->verdict != LMB_V_INFO && w->verdict != LMB_V_APART && isfinite(w->cs.lo))
                fprintf(out, "[%.3f, %.3f]", w->cs.lo, w->cs.hi);
            fputs("</td><td>", out);
            if (isfinite(w->change_pct))
                fprintf(out, "%+.1f%%", w->change_pct);
            fputs("</td><td>", out);
            lmb_graph_escape(out, lmb_cmp_verdict_name(w->verdict));
            if (w->verdict == LMB_V_UNKNOWN && w->cs.reason) {
                fputs(" (", out);
                lmb_graph_escape(out, w->cs.reason);
                fputc(')', out);
            } else if (w->verdict == LMB_V_APART) {
                fputs(" (base: ", out);
                lmb_graph_escape(out, w->b->compat ? w->b->compat : "same");
                fputs("; new: ", out);
                lmb_graph_escape(out, w->n->compat ? w->n->compat : "same");
                fputc(')', out);
            }
            if (w->placement[0]) {
                fputs("; placement: ", out);
                lmb_graph_escape(out, w->placement);
            }
            fputs("</td></tr>\n", out);
        }
        fputs("</table>\n", out);
    }
    for (int side = 0; side < 2; side++) {
        const struct lmb_cmp_only *o = side ? set->only_new : set->only_base;
        size_t no = side ? set->nonly_new : set->nonly_base;
        if (no == 0)
            continue;
        fprintf(out, "<p class=\"note cmp-only\">Only in %s (%zu): ", side ? "new" : "base", no);
        for (size_t i = 0; i < no; i++) {
            if (i)
                fputs(", ", out);
            lmb_graph_escape(out, o[i].name);
        }
        fputs("</p>\n", out);
    }
    fputs("</details>\n", out);
}

static const char cmp_style[] =
    "<style>svg.compare text.cmp-name,svg.compare text.cmp-ratio,svg.compare text.cmp-verdict"
    "{font:11px \"DejaVu Sans Mono\",\"Liberation Mono\",monospace}"
    "svg.compare .cmp-one{stroke:#888}svg.compare .cmp-bars{stroke-width:2}"
    "svg.compare .legend text{font-size:11px;fill:#222}"
    "details.cmp-rest{margin:.4em 0 1em}table.cmp-table{font-size:.85em}</style>\n";

/* One panel: nf (file index fi) against base. */
static void panel(FILE *out, const struct lmb_rs_file *base, const struct lmb_rs_file *nf,
                  int fi, int no)
{
    const struct lmb_cs_opts co = LMB_CS_DEFAULT_OPTS;
    struct lmb_cmp_set set;
    struct lmb_cmp_row **order;
    size_t counts[LMB_V_COUNT] = { 0 }, nchanged = 0, njudged = 0, ndraw, m = 0;
    size_t *drawn, *rest, nd = 0, nr = 0;

    fprintf(out, "<section class=\"plot compare\" id=\"compare-%d\">\n<h2>What changed: ", no);
    file_words(out, nf);
    fputs(" against ", out);
    file_words(out, base);
    fputs("</h2>\n", out);
    if (lmb_cmp_pair(&co, base, nf, &set) != 0) {
        fputs("<p class=\"note\">Not compared: out of memory.</p>\n</section>\n", out);
        return;
    }
    order = malloc((set.n ? set.n : 1) * sizeof *order);
    if (order == NULL) {
        lmb_cmp_free(&set);
        fputs("<p class=\"note\">Not compared: out of memory.</p>\n</section>\n", out);
        return;
    }
    for (size_t i = 0; i < set.n; i++) {
        order[i] = &set.rows[i];
        counts[set.rows[i].verdict]++;
        if (group_of(&set.rows[i]) == G_CHANGED)
            nchanged++;
        else if (group_of(&set.rows[i]) == G_JUDGED)
            njudged++;
    }
    qsort(order, set.n, sizeof *order, by_change);
    fprintf(out, "<p class=\"note cmp-counts\" data-worse=\"%zu\" data-better=\"%zu\" "
                 "data-same=\"%zu\" data-unknown=\"%zu\" data-info=\"%zu\" "
                 "data-apart=\"%zu\" data-only-base=\"%zu\" data-only-new=\"%zu\">"
                 "%zu measurements in both: %zu worse, %zu better, %zu same, %zu ?, "
                 "%zu not judged (-), %zu not comparable; %zu only in base, %zu only in "
                 "new. Each is new/base with its 95%% interval and the verdict of "
                 "<code>lmbench compare</code> on the same two files (its default options), "
                 "drawn in this file's colour ",
            counts[LMB_V_WORSE], counts[LMB_V_BETTER], counts[LMB_V_SAME], counts[LMB_V_UNKNOWN],
            counts[LMB_V_INFO], counts[LMB_V_APART], set.nonly_base, set.nonly_new, set.n,
            counts[LMB_V_WORSE], counts[LMB_V_BETTER], counts[LMB_V_SAME], counts[LMB_V_UNKNOWN],
            counts[LMB_V_INFO], counts[LMB_V_APART], set.nonly_base, set.nonly_new);
    fprintf(out, "<span style=\"color:%s\">&#9679;</span>; ", lmb_graph_colour(fi));
    ndraw = (nchanged < MAX_CHANGED ? nchanged : MAX_CHANGED);
    m = njudged < MAX_OTHERS ? njudged : MAX_OTHERS;
    if (nchanged > ndraw)
        fprintf(out, "drawn: the %zu largest of the %zu changes judged better or worse, then ",
                ndraw, nchanged);
    else if (nchanged)
        fprintf(out, "drawn: the %zu judged better or worse, then ", ndraw);
    else
        fputs("drawn: ", out);
    fprintf(out, "the %zu largest changes of the others; the rest in the list under the "
                 "plot.</p>\n", m);
    /* Drawn: the first ndraw changed rows, then the first m of the judged
     * group; the rest in the table. Both lists hold ranks into order. */
    drawn = malloc((set.n ? set.n : 1) * sizeof *drawn);
    rest = malloc((set.n ? set.n : 1) * sizeof *rest);
    if (drawn == NULL || rest == NULL) {
        fputs("<p class=\"note\">Not drawn: out of memory.</p>\n", out);
    } else {
        for (size_t i = 0; i < set.n; i++) {
            if (i < ndraw || (i >= nchanged && i < nchanged + m))
                drawn[nd++] = i;
            else
                rest[nr++] = i;
        }
        if (nd > 0)
            draw(out, no, fi, order, drawn, nd);
        else
            fputs("<p class=\"note\">No measurement of both files has a ratio to draw.</p>\n",
                  out);
        rest_table(out, order, rest, nr, &set);
    }
    free(drawn);
    free(rest);
    fputs("</section>\n", out);
    free(order);
    lmb_cmp_free(&set);
}

void lmb_graph_compare_view(FILE *out, const struct lmb_rs_file *files, int nfiles)
{
    if (nfiles < 2)
        return;
    fputs(cmp_style, out);
    for (int i = 1; i < nfiles; i++)
        panel(out, &files[0], &files[i], i, i);
}
