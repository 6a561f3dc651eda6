// SPDX-License-Identifier: MIT
/* lmbench graph: one self-contained HTML page (no network needed to view it)
 * with inline SVG plots of results files overlaid: memory load latency against
 * working-set size (log axes) for each stride curve and the random chase, with
 * the cache sizes marked; bandwidth against size for each bw_mem operation (and
 * the file and mmap re-reads); context-switch time against the number of
 * processes. Every point carries its value as an SVG <title>; a small inline
 * script lets the legend hide and show series. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/outfile.h"
#include "lib/text.h"
#include "graph.h"
#include "memlat.h"
#include "results.h"
#include "suite.h"
#include "util.h"

#include "version.h"   /* generated: LMB_VERSION */

static const char usage[] = "[-o FILE] [FILE|DIR...]";

static void help(void)
{
    printf("Usage: lmbench graph %s\n"
           "Writes one self-contained HTML page of plots of the results files (our JSON,\n"
           "JSONL, lmbench 3 raw files; a DIR is searched as lmbench see does; default\n"
           "./results), overlaid: memory latency against working-set size for each stride\n"
           "and the random chase, with the cache sizes marked; bandwidth against size for\n"
           "each bw_mem operation and the file and mmap re-reads; context-switch time\n"
           "against the number of processes. Viewing it needs no network.\n"
           "\nOptions:\n"
           "  -o FILE      write the page into FILE (default: standard output)\n"
           "  -h, --help   show this help\n"
           "\nExit status: 0 written, 1 a file could not be read or the page not written,\n"
           "2 bad usage, 3 nothing to plot (every file skipped). See lmbench-graph(1).\n",
           usage);
}

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22", "#393b79", "#ad494a",
};
#define NCOLORS (sizeof palette / sizeof palette[0])

const char *lmb_graph_colour(int file)
{
    return palette[(size_t)(file < 0 ? 0 : file) % NCOLORS];
}

struct series {
    char name[200];
    double *x, *y;
    size_t n;
};

struct mark {
    double x;
    char label[64];
};

struct plot {
    const char *id, *title, *xlabel, *ylabel;
    bool logx, logy, xbytes;
    struct series *s;
    size_t ns, cap;
    struct mark marks[24];
    size_t nmarks;
};

void lmb_graph_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

static struct series *add_series(struct plot *p, const char *name)
{
    struct series *s;

    if (p->ns == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 8;
        struct series *n = realloc(p->s, cap * sizeof *n);
        if (n == NULL)
            return NULL;
        p->s = n;
        p->cap = cap;
    }
    s = &p->s[p->ns++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    return s;
}

static void free_plot(struct plot *p)
{
    for (size_t i = 0; i < p->ns; i++) {
        free(p->s[i].x);
        free(p->s[i].y);
    }
    free(p->s);
    p->s = NULL;
    p->ns = p->cap = 0;
}

static void size_label(double b, char *buf, size_t len)
{
    static const char *const u[] = { "", "K", "M", "G", "T" };
    int k = 0;

    while (b >= 1024 && k < 4) {
        b /= 1024;
        k++;
    }
    if (b == floor(b))
        snprintf(buf, len, "%.0f%s", b, u[k]);
    else
        snprintf(buf, len, "%.3g%s", b, u[k]);
}

static void num_label(double v, char *buf, size_t len)
{
    if (fabs(v) >= 1e4)
        snprintf(buf, len, "%.0fK", v / 1e3);
    else
        snprintf(buf, len, "%g", v);
}

#define W 900.0
#define H 440.0
#define ML 72.0
#define MR 20.0
#define LEGEND_ROW 18.0
#define MT 20.0
#define MB 50.0

struct scale {
    double lo, hi;
    bool log;
    double from, to;   /* pixels */
};

static double map(const struct scale *s, double v)
{
    double a = s->log ? log10(v) : v, lo = s->log ? log10(s->lo) : s->lo;
    double hi = s->log ? log10(s->hi) : s->hi;
    if (hi == lo)
        return (s->from + s->to) / 2;
    return s->from + (a - lo) / (hi - lo) * (s->to - s->from);
}

/* Tick values: powers of 2 (bytes, log), 1-2-5 decades (log), or a nice linear step. */
static size_t ticks(const struct scale *s, bool bytes, double *t, size_t max)
{
    size_t n = 0;

    if (s->log && bytes) {
        double lo = exp2(floor(log2(s->lo))), span = log2(s->hi / lo);
        double step = span > 24 ? 16 : span > 12 ? 4 : span > 6 ? 2 : 1;
        for (double v = lo; v <= s->hi * 1.0001 && n < max; v *= step)
            if (v >= s->lo * 0.9999)
                t[n++] = v;
    } else if (s->log) {
        for (double d = pow(10, floor(log10(s->lo))); d <= s->hi && n < max; d *= 10) {
            static const double m[] = { 1, 2, 5 };
            for (int i = 0; i < 3 && n < max; i++)
                if (d * m[i] >= s->lo * 0.9999 && d * m[i] <= s->hi * 1.0001)
                    t[n++] = d * m[i];
        }
    } else {
        double range = s->hi - s->lo, raw = range / 5, mag = pow(10, floor(log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag
                                                                                         : 10 * mag;
        for (double v = ceil(s->lo / step) * step; v <= s->hi * 1.0001 && n < max; v += step)
            t[n++] = v;
    }
    return n;
}

static void render_plot(FILE *out, const struct plot *p, int *series_id)
{
    struct scale xs = { INFINITY, -INFINITY, p->logx, ML, W - MR };
    struct scale ys = { INFINITY, -INFINITY, p->logy, H - MB, MT };
    double t[64];
    size_t nt, total = 0;
    char buf[64];

    for (size_t i = 0; i < p->ns; i++)
        for (size_t k = 0; k < p->s[i].n; k++) {
            double x = p->s[i].x[k], y = p->s[i].y[k];
            if (x < xs.lo) xs.lo = x;
            if (x > xs.hi) xs.hi = x;
            if (y < ys.lo) ys.lo = y;
            if (y > ys.hi) ys.hi = y;
            total++;
        }
    if (total == 0)
        return;
    if (!p->logy)
        ys.lo = 0;
    if (p->logy) {
        ys.lo /= 1.15;
        ys.hi *= 1.15;
    } else {
        ys.hi *= 1.08;
    }
    if (!p->logx && xs.lo == xs.hi) {
        xs.lo -= 1;
        xs.hi += 1;
    }
    if (ys.lo == ys.hi)
        ys.hi = ys.lo + 1;

    fprintf(out, "<section class=\"plot\" id=\"%s\">\n<h2>", p->id);
    lmb_graph_escape(out, p->title);
    /* The legend goes under the plot, two entries a row. */
    double height = H + LEGEND_ROW * (double)((p->ns + 1) / 2) + 8;
    fprintf(out, "</h2>\n<svg viewBox=\"0 0 %.0f %.0f\" "
                 "width=\"%.0f\" height=\"%.0f\" data-plot=\"%s\" data-series=\"%zu\" "
                 "data-points=\"%zu\" role=\"img\">\n", W, height, W, height, p->id, p->ns,
            total);
    fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
            ML, MT, W - MR - ML, H - MB - MT);
    nt = ticks(&xs, p->xbytes, t, 64);
    for (size_t i = 0; i < nt; i++) {
        double x = map(&xs, t[i]);
        if (p->xbytes)
            size_label(t[i], buf, sizeof buf);
        else
            num_label(t[i], buf, sizeof buf);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                x, MT, x, H - MB, x, H - MB + 16, buf);
    }
    nt = ticks(&ys, false, t, 64);
    for (size_t i = 0; i < nt; i++) {
        double y = map(&ys, t[i]);
        num_label(t[i], buf, sizeof buf);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                ML, y, W - MR, y, ML - 6, y + 4, buf);
    }
    fprintf(out, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (ML + W - MR) / 2,
            H - 12);
    lmb_graph_escape(out, p->xlabel);
    fprintf(out, "</text>\n<text class=\"axis\" transform=\"translate(16 %.1f) rotate(-90)\" "
                 "text-anchor=\"middle\">", (MT + H - MB) / 2);
    lmb_graph_escape(out, p->ylabel);
    fputs("</text>\n", out);
    for (size_t i = 0; i < p->nmarks; i++) {
        double x;
        if (p->marks[i].x < xs.lo || p->marks[i].x > xs.hi)
            continue;
        x = map(&xs, p->marks[i].x);
        fprintf(out, "<g class=\"mark\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                     "<text x=\"%.1f\" y=\"%.1f\">", x, MT, x, H - MB, x + 3, MT + 12 + 12.0 * (double)(i % 4));
        lmb_graph_escape(out, p->marks[i].label);
        fputs("</text></g>\n", out);
    }
    for (size_t i = 0; i < p->ns; i++) {
        const struct series *s = &p->s[i];
        const char *color = palette[(size_t)*series_id % NCOLORS];
        double ly = H + 6 + LEGEND_ROW * (double)(i / 2), lx = ML + (double)(i % 2) * 420;

        fprintf(out, "<g class=\"series\" data-series=\"%d\" data-name=\"", *series_id);
        lmb_graph_escape(out, s->name);
        fprintf(out, "\" data-points=\"%zu\" stroke=\"%s\" fill=\"%s\">\n<path d=\"", s->n, color,
                color);
        for (size_t k = 0; k < s->n; k++)
            fprintf(out, "%s%.1f %.1f", k ? " L" : "M", map(&xs, s->x[k]), map(&ys, s->y[k]));
        fputs("\" fill=\"none\"/>\n", out);
        for (size_t k = 0; k < s->n; k++) {
            fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\"><title>",
                    map(&xs, s->x[k]), map(&ys, s->y[k]));
            lmb_graph_escape(out, s->name);
            if (p->xbytes)
                size_label(s->x[k], buf, sizeof buf);
            else
                snprintf(buf, sizeof buf, "%g", s->x[k]);
            fprintf(out, ": %s, %.4g %s</title></circle>\n", buf, s->y[k], p->ylabel);
        }
        fputs("</g>\n", out);
        fprintf(out, "<g class=\"legend\" data-series=\"%d\" tabindex=\"0\"><rect x=\"%.1f\" "
                     "y=\"%.1f\" width=\"14\" height=\"4\" fill=\"%s\"/><text x=\"%.1f\" "
                     "y=\"%.1f\">", *series_id, lx, ly - 4, color, lx + 20, ly);
        lmb_graph_escape(out, s->name);
        fputs("</text></g>\n", out);
        (*series_id)++;
    }
    fputs("</svg>\n</section>\n", out);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* A file's name in legends: its base name without .json or .jsonl. */
static const char *label(const char *path)
{
    static char buf[4][128];
    static int k;
    const char *b = base_name(path);
    size_t n = strlen(b);
    char *o = buf[k++ % 4];

    if (n > 6 && strcmp(b + n - 6, ".jsonl") == 0)
        n -= 6;
    else if (n > 5 && strcmp(b + n - 5, ".json") == 0)
        n -= 5;
    snprintf(o, sizeof buf[0], "%.*s", (int)n, b);
    return o;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A curve of benchmark b, case c from f: x from the parameter xkey, filtered by
 * an optional parameter equal to a number (fkey/fval) and an optional string
 * parameter (skey/sval). Points sorted by x; a repeated x keeps the later. */
static void add_curve(struct plot *p, const char *name, const struct lmb_rs_file *f, const char *b,
                      const char *c, const char *xkey, const char *fkey, double fval,
                      const char *skey, const char *sval)
{
    struct series *s;
    double *pairs;
    size_t n = 0, m = 0;

    pairs = malloc((f->nrecs ? f->nrecs : 1) * 2 * sizeof *pairs);
    if (pairs == NULL)
        return;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        const char *sv;
        if (r->status != LMB_RS_OK || !r->has_value || !lmb_rs_is(r, b, c))
            continue;
        if (fkey && lmb_rs_pnum(r, fkey) != fval)
            continue;
        if (skey && ((sv = lmb_rs_pstr(r, skey)) == NULL || strcmp(sv, sval) != 0))
            continue;
        if (!(lmb_rs_pnum(r, xkey) > 0) || !(r->value > 0))
            continue;
        pairs[2 * n] = lmb_rs_pnum(r, xkey);
        pairs[2 * n + 1] = r->value;
        n++;
    }
    if (n == 0) {
        free(pairs);
        return;
    }
    /* Stable by x: sort indices by x, keep the last of equal x in file order. */
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && pairs[2 * (k - 1)] > pairs[2 * k]; k--) {
            double tx = pairs[2 * k], ty = pairs[2 * k + 1];
            pairs[2 * k] = pairs[2 * (k - 1)];
            pairs[2 * k + 1] = pairs[2 * (k - 1) + 1];
            pairs[2 * (k - 1)] = tx;
            pairs[2 * (k - 1) + 1] = ty;
        }
    s = add_series(p, name);
    if (s == NULL) {
        free(pairs);
        return;
    }
    s->x = malloc(n * sizeof *s->x);
    s->y = malloc(n * sizeof *s->y);
    if (s->x == NULL || s->y == NULL) {
        free(pairs);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && s->x[m - 1] == pairs[2 * i])
            m--;
        s->x[m] = pairs[2 * i];
        s->y[m] = pairs[2 * i + 1];
        m++;
    }
    s->n = m;
    free(pairs);
}

/* The distinct values of a numeric parameter over records of b/c, sorted. */
static size_t distinct(const struct lmb_rs_file *f, const char *b, const char *c, const char *key,
                       double *out, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        double v;
        size_t k;
        if (r->status != LMB_RS_OK || !lmb_rs_is(r, b, c))
            continue;
        v = lmb_rs_pnum(r, key);
        if (isnan(v))
            continue;
        for (k = 0; k < n; k++)
            if (out[k] == v)
                break;
        if (k == n && n < max)
            out[n++] = v;
    }
    qsort(out, n, sizeof *out, cmp_double);
    return n;
}

/* Distinct string values of a parameter (e.g. ends), at most max. */
static size_t distinct_str(const struct lmb_rs_file *f, const char *b, const char *c,
                           const char *key, const char **out, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < f->nrecs; i++) {
        const char *v = lmb_rs_pstr(&f->recs[i], key);
        size_t k;
        if (v == NULL || !lmb_rs_is(&f->recs[i], b, c))
            continue;
        for (k = 0; k < n; k++)
            if (strcmp(out[k], v) == 0)
                break;
        if (k == n && n < max)
            out[n++] = v;
    }
    return n;
}

static void add_mark(struct plot *p, double x, const char *fmt, const char *who, int level,
                     const char *src)
{
    char sz[32];

    if (p->nmarks >= sizeof p->marks / sizeof p->marks[0])
        return;
    for (size_t i = 0; i < p->nmarks; i++)
        if (p->marks[i].x == x)
            return;
    size_label(x, sz, sizeof sz);
    p->marks[p->nmarks].x = x;
    snprintf(p->marks[p->nmarks].label, sizeof p->marks[0].label, fmt, level, sz, src);
    (void)who;
    p->nmarks++;
}

static void memlat_plot(FILE *out, struct lmb_rs_file *files, int nfiles, int *sid)
{
    struct plot p = { "memory-latency", "Memory load latency (lat_mem_rd)", "working set (bytes)",
                      "ns per load", true, true, true, NULL, 0, 0, { { 0, "" } }, 0 };

    for (int i = 0; i < nfiles; i++) {
        const struct lmb_rs_file *f = &files[i];
        double strides[32];
        size_t ns = distinct(f, "lat_mem_rd", "stride", "stride_bytes", strides, 32);
        struct lmb_memlat m;
        char name[200];

        for (size_t k = 0; k < ns; k++) {
            snprintf(name, sizeof name, "%s stride=%.0f", label(f->path), strides[k]);
            add_curve(&p, name, f, "lat_mem_rd", "stride", "size_bytes", "stride_bytes", strides[k],
                      NULL, NULL);
        }
        ns = distinct(f, "lat_mem_rd", "random", "stride_bytes", strides, 32);
        for (size_t k = 0; k < ns; k++) {
            snprintf(name, sizeof name, "%s random (stride=%.0f)", label(f->path), strides[k]);
            add_curve(&p, name, f, "lat_mem_rd", "random", "size_bytes", "stride_bytes",
                      strides[k], NULL, NULL);
        }
        /* Cache sizes: as measured on the curve, and as the system declares. */
        lmb_memlat_summarize(f, &m);
        for (size_t k = 0; k < m.nlevels; k++)
            if (m.level_bytes[k] > 0)
                add_mark(&p, m.level_bytes[k], "L%d %s (measured%s)", f->hostname, (int)k + 1, "");
        for (int k = 0; k < f->ncaches; k++)
            if (strcmp(f->caches[k].type, "Instruction") != 0 && f->caches[k].size > 0)
                add_mark(&p, (double)f->caches[k].size, "L%d %s (%s)", f->hostname,
                         f->caches[k].level, "sysfs");
    }
    render_plot(out, &p, sid);
    free_plot(&p);
}

static void bw_plots(FILE *out, struct lmb_rs_file *files, int nfiles, int *sid)
{
    static const struct { const char *bench, *c, *title; } ops[] = {
        { "bw_mem", "rd", "bw_mem rd: read, one word in four" },
        { "bw_mem", "frd", "bw_mem frd: read every byte" },
        { "bw_mem", "wr", "bw_mem wr: write, one word in four" },
        { "bw_mem", "fwr", "bw_mem fwr: write every byte" },
        { "bw_mem", "rdwr", "bw_mem rdwr: read then write" },
        { "bw_mem", "cp", "bw_mem cp: copy, one word in four" },
        { "bw_mem", "fcp", "bw_mem fcp: copy every byte" },
        { "bw_mem", "bzero", "bw_mem bzero: libc bzero" },
        { "bw_mem", "bcopy", "bw_mem bcopy: libc bcopy" },
        { "bw_file_rd", "io_only", "bw_file_rd io_only: file re-read" },
        { "bw_file_rd", "open2close", "bw_file_rd open2close" },
        { "bw_mmap_rd", "mmap_only", "bw_mmap_rd mmap_only: mapped file re-read" },
        { "bw_mmap_rd", "open2close", "bw_mmap_rd open2close" },
    };

    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        struct plot p = { NULL, ops[o].title, "size (bytes)", "MB/s", true, false, true, NULL, 0,
                          0, { { 0, "" } }, 0 };
        char id[64];

        snprintf(id, sizeof id, "bandwidth-%s-%s", ops[o].bench, ops[o].c);
        p.id = id;
        for (int i = 0; i < nfiles; i++) {
            const struct lmb_rs_file *f = &files[i];
            char name[200];
            double conf[2];
            size_t nc = distinct(f, ops[o].bench, ops[o].c, "conflict", conf, 2);
            if (nc == 0) {
                snprintf(name, sizeof name, "%s", label(f->path));
                add_curve(&p, name, f, ops[o].bench, ops[o].c, "size_bytes", NULL, 0, NULL, NULL);
            }
            for (size_t k = 0; k < nc; k++) {
                snprintf(name, sizeof name, "%s%s", label(f->path),
                         conf[k] != 0 ? " conflict" : "");
                add_curve(&p, name, f, ops[o].bench, ops[o].c, "size_bytes", "conflict", conf[k],
                          NULL, NULL);
            }
        }
        render_plot(out, &p, sid);
        free_plot(&p);
    }
}

static void ctx_plot(FILE *out, struct lmb_rs_file *files, int nfiles, int *sid)
{
    struct plot p = { "context-switch", "Context switch time (lat_ctx)", "processes",
                      "us per switch", false, false, false, NULL, 0, 0, { { 0, "" } }, 0 };

    for (int i = 0; i < nfiles; i++) {
        const struct lmb_rs_file *f = &files[i];
        double sizes[32];
        const char *ends[4];
        size_t nsz = distinct(f, "lat_ctx", NULL, "size_kb", sizes, 32);
        size_t ne = distinct_str(f, "lat_ctx", NULL, "ends", ends, 4);
        for (size_t k = 0; k < nsz; k++) {
            char name[200];
            if (ne == 0) {
                snprintf(name, sizeof name, "%s size=%.0fk", label(f->path), sizes[k]);
                add_curve(&p, name, f, "lat_ctx", NULL, "procs", "size_kb", sizes[k], NULL, NULL);
            }
            for (size_t e = 0; e < ne; e++) {
                snprintf(name, sizeof name, "%s size=%.0fk %s", label(f->path), sizes[k],
                         ends[e]);
                add_curve(&p, name, f, "lat_ctx", NULL, "procs", "size_kb", sizes[k], "ends",
                          ends[e]);
            }
        }
    }
    render_plot(out, &p, sid);
    free_plot(&p);
}

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}"
    "h1{font-size:1.4em}h2{font-size:1.1em;margin:1.2em 0 .3em}"
    "table.files{border-collapse:collapse;font-size:.9em}"
    "table.files td,table.files th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
    "svg{background:#fff;max-width:100%;height:auto}"
    ".frame{fill:none;stroke:#444}.grid{stroke:#e4e4e4}"
    ".tick{font-size:11px;fill:#444}.axis{font-size:12px;fill:#222}"
    ".series path{stroke-width:1.5}.series .pt{stroke:none}"
    ".series.off{display:none}.legend{cursor:pointer;font-size:11px}.legend.off{opacity:.35}"
    ".mark line{stroke:#999;stroke-dasharray:4 3}.mark text{font-size:10px;fill:#666}"
    "p.note{color:#555;font-size:.9em}";

/* Clicking a legend entry hides or shows its series. */
static const char script[] =
    "(function(){\n"
    "  document.querySelectorAll('svg .legend').forEach(function(l){\n"
    "    function toggle(){\n"
    "      var id=l.getAttribute('data-series');\n"
    "      var s=l.ownerSVGElement.querySelector('.series[data-series=\"'+id+'\"]');\n"
    "      if(!s)return;\n"
    "      s.classList.toggle('off');l.classList.toggle('off');\n"
    "    }\n"
    "    l.addEventListener('click',toggle);\n"
    "    l.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' ')toggle();});\n"
    "  });\n"
    "})();\n";

static void page(FILE *out, struct lmb_rs_file *files, int nfiles)
{
    int sid = 0;

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>lmbench results</title>\n<style>", out);
    fputs(style, out);
    fputs("</style>\n</head>\n<body>\n<h1>lmbench results</h1>\n", out);
    fprintf(out, "<p class=\"note\">Made by lmbench %s graph. Each point shows its value when "
                 "the pointer rests on it; click a legend entry to hide or show its series. "
                 "Dashed lines mark cache sizes.</p>\n", LMB_VERSION);
    fputs("<table class=\"files\">\n<tr><th>file</th><th>host</th><th>system</th><th>run</th>"
          "<th>started</th></tr>\n", out);
    for (int i = 0; i < nfiles; i++) {
        const struct lmb_rs_file *f = &files[i];
        fputs("<tr><td>", out);
        lmb_graph_escape(out, base_name(f->path));
        fputs("</td><td>", out);
        lmb_graph_escape(out, f->hostname);
        fputs("</td><td>", out);
        lmb_graph_escape(out, f->sysname ? f->sysname : "");
        fputc(' ', out);
        lmb_graph_escape(out, f->release ? f->release : "");
        fputs("</td><td>", out);
        lmb_graph_escape(out, f->run_id ? f->run_id : "");
        fputs("</td><td>", out);
        lmb_graph_escape(out, f->start ? f->start : "");
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    lmb_graph_compare_view(out, files, nfiles);
    memlat_plot(out, files, nfiles, &sid);
    bw_plots(out, files, nfiles, &sid);
    ctx_plot(out, files, nfiles, &sid);
    if (sid == 0)
        fputs("<p class=\"note\">These files hold no curve to plot (lat_mem_rd, bw_mem, "
              "bw_file_rd, bw_mmap_rd, lat_ctx).</p>\n", out);
    fputs("<script>\n", out);
    fputs(script, out);
    fputs("</script>\n</body>\n</html>\n", out);
}

int lmb_suite_graph(int argc, char **argv)
{
    const char *outpath = NULL;
    char **args, err[LMB_QUOTE_BUF + 128];
    int nargs = 0, rc = 0, skipped = 0, nfiles = 0, r;
    struct lmb_rs_file *files;
    struct lmb_outfile of;
    FILE *out = stdout;

    lmb_cleanup_init();   /* -o's temporary file goes on SIGINT */
    args = calloc((size_t)argc + 1, sizeof *args);
    if (args == NULL)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            free(args);
            help();
            return lmb_verb_check_output("graph", stdout, "the help");
        }
        if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                free(args);
                return lmb_verb_usage_error("graph", usage, "-o needs a file name");
            }
            outpath = argv[++i];
        } else if ((r = lmb_long_opt(argc, argv, &i, "--output", &outpath)) != 0) {
            if (r < 0) {
                free(args);
                return lmb_verb_usage_error("graph", usage, "--output needs a file name");
            }
        } else if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                args[nargs++] = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            free(args);
            return lmb_verb_usage_error("graph", usage, "unknown option '%s'", lmb_quote_arg(a));
        } else {
            args[nargs++] = argv[i];
        }
    }
    rc = lmb_rs_load_args("graph", nargs, args, &files, &nfiles);
    free(args);
    skipped = rc == 3;
    if (rc == 3)
        rc = 0;
    if (nfiles == 0) {
        free(files);
        if (rc == 0 && !skipped)
            fprintf(stderr, "lmbench graph: no results to plot\n");
        return rc ? rc : skipped ? 3 : 1;
    }
    /* lib/outfile.h: a device or FIFO written through, else a temporary file renamed. */
    if (outpath != NULL && strcmp(outpath, "-") != 0) {
        if (lmb_outfile_open(&of, outpath, 0, err, sizeof err) != 0) {
            fprintf(stderr, "lmbench graph: %s\n", err);
            rc = 1;
            goto done;
        }
        out = of.fp;
    }
    page(out, files, nfiles);
    if (out != stdout) {
        if (lmb_outfile_commit(&of, err, sizeof err) != 0) {
            fprintf(stderr, "lmbench graph: %s\n", err);
            rc = 1;
        }
    } else if (lmb_verb_check_output("graph", stdout, "the page") != 0) {
        rc = 1;
    }
done:
    for (int i = 0; i < nfiles; i++)
        lmb_rs_free(&files[i]);
    free(files);
    return rc;
}
