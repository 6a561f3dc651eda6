// SPDX-License-Identifier: MIT
/* lmbench graph: one self-contained HTML page (no network needed to view it)
 * with inline SVG plots of results files overlaid: memory load latency against
 * working-set size (log axes) for each stride curve and the random chase, with
 * the cache sizes of each file marked (found on the curve, and declared by the
 * system); bandwidth against size for each bw_mem operation (and the file and
 * mmap re-reads); context-switch time against the number of processes.
 *
 * One colour per results file on the whole page; within a file, dash pattern
 * and marker shape tell its series apart. A plot that would hold more than 6
 * series is drawn as small multiples (one panel per stride, placement, ...),
 * the panels sharing their axes. Each point's spread is a band: the
 * interquartile range of its samples, or, for a record measured in several
 * launches, the range of the launches' medians. Axes are logarithmic where the
 * values span a decade or more. Labels are placed here, in C, with
 * conservative text widths, so that none overlaps another: cache-size labels
 * in rows above each panel's frame, never over the data. Every point carries
 * its value as an SVG <title>; a small inline script lets the legend hide and
 * show series. */
#include <ctype.h>
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
           "./results), overlaid, one colour per file: memory latency against working-set\n"
           "size for each stride and the random chase, with each file's cache sizes\n"
           "marked; bandwidth against size for each bw_mem operation and the file and\n"
           "mmap re-reads; context-switch time against the number of processes. Bands\n"
           "show each point's spread; a plot of more than 6 series is split into panels.\n"
           "Where the files hold them: core-to-core and NUMA heat maps, latency under\n"
           "load against delivered bandwidth, and the scaling curve of lmbench scale -o.\n"
           "Viewing it needs no network.\n"
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

/* Within a file, the k-th series of a plot: its dash pattern and marker. */
static const char *const dashes[] = { "", "7 3", "2 2", "9 3 2 3", "4 4", "12 3 2 3 2 3" };
#define NSTYLES (sizeof dashes / sizeof dashes[0])

/* What a point's band is made of. */
enum band { BAND_NONE, BAND_IQR, BAND_LAUNCHES };

#define MAX_SERIES_PER_PANEL 6

/* The page's geometry (SVG user units) and font sizes (px). */
#define W 900.0
#define PML 74.0        /* a panel's left margin: y ticks and the y axis label */
#define PMR 30.0        /* its right margin: room for the last x tick label */
#define FS_TICK 11.0
#define FS_AXIS 12.0
#define FS_MARK 10.0
#define FS_LEG 11.0
#define MARK_ROW 14.0
#define LEGEND_ROW 18.0
#define MAX_PANELS 48

struct series {
    char name[200];
    int file;                 /* index in the page's list: the colour */
    int style;                /* within the file and plot: dash and marker */
    char panel[64], sub[64];  /* small-multiple keys: the panel, a finer split */
    double *x, *y, *lo, *hi;  /* lo/hi: the band, NAN where none */
    size_t n;
    enum band band;
};

struct mark {
    double x;
    int file;
    bool declared;            /* the system's declared size, else found on the curve */
    char label[160];          /* the text drawn */
    char title[320];          /* its tooltip: the file's whole name */
    char kind[16];            /* data-kind: "measured", "declared", "stop" */
};

struct plot {
    const char *id, *title, *xlabel, *ylabel;
    int logx, logy;           /* 1 log, 0 linear, -1 log when the data span a decade */
    bool xbytes;
    struct series *s;
    size_t ns, cap;
    struct mark *marks;
    size_t nmarks, mcap;
    int *fstyles;             /* per file: the next style */
    int nfiles;
    const char *note;         /* said under the plot instead of the cache-size note */
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

/* A conservative width in pixels of s in the page's sans-serif at px: wider
 * than DejaVu Sans and Liberation Sans (Chromium's defaults on Linux) draw it. */
static double text_w(const char *s, double px)
{
    double em = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned c = *p;
        if ((c & 0xC0) == 0x80)
            continue;   /* UTF-8 continuation byte */
        if (c >= 0x80 || c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '%' || c == '@')
            em += 1.0;
        else if (c == ' ' || strchr("il.,:;'|!jI()[]", (int)c) != NULL)
            em += 0.45;
        else if (c == 'f' || c == 't' || c == 'r')
            em += 0.5;
        else if (isupper((int)c))
            em += 0.82;
        else if (isdigit((int)c))
            em += 0.66;
        else
            em += 0.66;
    }
    return em * px + 2;
}

/* Copies s into buf, cut (with "...") to fit within maxw pixels at px. */
static void fit_text(char *buf, size_t len, const char *s, double px, double maxw)
{
    size_t n;

    snprintf(buf, len, "%s", s);
    if (text_w(buf, px) <= maxw)
        return;
    n = strlen(buf);
    while (n > 0) {
        n--;
        while (n > 0 && ((unsigned char)buf[n] & 0xC0) == 0x80)
            n--;   /* not inside a UTF-8 character */
        if (n + 4 > len)
            continue;
        memcpy(buf + n, "...", 4);
        if (text_w(buf, px) <= maxw)
            return;
    }
}

static struct series *add_series(struct plot *p, const char *name, int file, const char *panel,
                                 const char *sub)
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
    snprintf(s->panel, sizeof s->panel, "%s", panel ? panel : "");
    snprintf(s->sub, sizeof s->sub, "%s", sub ? sub : "");
    s->file = file;
    s->style = 0;
    if (p->fstyles != NULL && file >= 0 && file < p->nfiles)
        s->style = p->fstyles[file]++;
    return s;
}

static void free_plot(struct plot *p)
{
    for (size_t i = 0; i < p->ns; i++) {
        free(p->s[i].x);
        free(p->s[i].y);
        free(p->s[i].lo);
        free(p->s[i].hi);
    }
    free(p->s);
    free(p->marks);
    free(p->fstyles);
    p->s = NULL;
    p->marks = NULL;
    p->fstyles = NULL;
    p->ns = p->cap = p->nmarks = p->mcap = 0;
}

static bool init_plot(struct plot *p, int nfiles)
{
    p->fstyles = calloc((size_t)(nfiles > 0 ? nfiles : 1), sizeof *p->fstyles);
    p->nfiles = nfiles;
    return p->fstyles != NULL;
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
    if (fabs(v) >= 1e6)
        snprintf(buf, len, "%gM", v / 1e6);
    else if (fabs(v) >= 1e4)
        snprintf(buf, len, "%gK", v / 1e3);
    else
        snprintf(buf, len, "%g", v);
}

/* --- the spread of a record ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile of sorted v[0..n), linear between neighbours. */
static double quantile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;

    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

/* The spread of r: with two or more launches whose sample counts add up, the
 * lowest and highest launch median (BAND_LAUNCHES); else with two or more
 * samples, the first and third quartile (BAND_IQR); else BAND_NONE. */
static enum band spread(const struct lmb_rs_record *r, double *lo, double *hi)
{
    double *v;
    size_t sum = 0;

    *lo = *hi = NAN;
    if (r->nsamples < 2 || r->samples == NULL)
        return BAND_NONE;
    v = malloc(r->nsamples * sizeof *v);
    if (v == NULL)
        return BAND_NONE;
    for (size_t i = 0; i < r->nlaunches && r->launch_n != NULL; i++)
        sum += r->launch_n[i];
    if (r->nlaunches >= 2 && sum == r->nsamples) {
        size_t at = 0;
        for (size_t i = 0; i < r->nlaunches; i++) {
            size_t k = r->launch_n[i];
            double med;
            if (k == 0)
                continue;
            memcpy(v, r->samples + at, k * sizeof *v);
            qsort(v, k, sizeof *v, cmp_double);
            med = quantile(v, k, 0.5);
            if (isnan(*lo) || med < *lo)
                *lo = med;
            if (isnan(*hi) || med > *hi)
                *hi = med;
            at += k;
        }
        free(v);
        return isnan(*lo) ? BAND_NONE : BAND_LAUNCHES;
    }
    memcpy(v, r->samples, r->nsamples * sizeof *v);
    qsort(v, r->nsamples, sizeof *v, cmp_double);
    *lo = quantile(v, r->nsamples, 0.25);
    *hi = quantile(v, r->nsamples, 0.75);
    free(v);
    return BAND_IQR;
}

/* --- curves from the records ------------------------------------------------------------- */

struct pt {
    double x, y, lo, hi;
    enum band band;
    size_t order;
};

static int cmp_pt(const void *a, const void *b)
{
    const struct pt *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->order < q->order ? -1 : p->order > q->order;
}

/* A curve of benchmark b, case c from file index fi: x from the parameter
 * xkey, filtered by an optional parameter equal to a number (fkey/fval) and an
 * optional string parameter (skey/sval). Points sorted by x; a repeated x keeps
 * the later. The series' band is the kind most of its points have; points of
 * the other kind get none. */
static void add_curve(struct plot *p, const char *name, const struct lmb_rs_file *f, int fi,
                      const char *panel, const char *sub, const char *b, const char *c,
                      const char *xkey, const char *fkey, double fval, const char *skey,
                      const char *sval)
{
    struct series *s;
    struct pt *pts;
    size_t n = 0, m = 0, kinds[3] = { 0, 0, 0 };
    enum band kind;

    pts = malloc((f->nrecs ? f->nrecs : 1) * sizeof *pts);
    if (pts == NULL)
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
        if (!(lmb_rs_pnum(r, xkey) > 0) || !(r->value > 0) || !isfinite(r->value))
            continue;
        pts[n].x = lmb_rs_pnum(r, xkey);
        pts[n].y = r->value;
        pts[n].band = spread(r, &pts[n].lo, &pts[n].hi);
        pts[n].order = i;
        n++;
    }
    if (n == 0) {
        free(pts);
        return;
    }
    qsort(pts, n, sizeof *pts, cmp_pt);
    s = add_series(p, name, fi, panel, sub);
    if (s == NULL) {
        free(pts);
        return;
    }
    s->x = malloc(n * sizeof *s->x);
    s->y = malloc(n * sizeof *s->y);
    s->lo = malloc(n * sizeof *s->lo);
    s->hi = malloc(n * sizeof *s->hi);
    if (s->x == NULL || s->y == NULL || s->lo == NULL || s->hi == NULL) {
        free(pts);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && s->x[m - 1] == pts[i].x)
            m--;
        s->x[m] = pts[i].x;
        s->y[m] = pts[i].y;
        s->lo[m] = pts[i].lo;
        s->hi[m] = pts[i].hi;
        pts[m].band = pts[i].band;
        m++;
    }
    for (size_t i = 0; i < m; i++)
        kinds[pts[i].band]++;
    kind = kinds[BAND_LAUNCHES] >= kinds[BAND_IQR] && kinds[BAND_LAUNCHES] > 0 ? BAND_LAUNCHES
           : kinds[BAND_IQR] > 0                                                ? BAND_IQR
                                                                                : BAND_NONE;
    for (size_t i = 0; i < m; i++)
        if (pts[i].band != kind || !(s->lo[i] > 0) || !(s->hi[i] > 0))
            s->lo[i] = s->hi[i] = NAN;
    s->band = kind;
    s->n = m;
    free(pts);
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

/* The name of files[fi] in legends and labels: label(), or where another
 * file of the page has the same one, its whole base name after its
 * directory's ("r1/vm.0.json", "r2/vm.0.json"). */
static const char *flabel(const struct lmb_rs_file *files, int nfiles, int fi)
{
    static char buf[4][192];
    static int k;
    char mine[128];
    const char *p = files[fi].path, *d = base_name(p), *b, *e;
    bool clash = false;
    char *o;

    snprintf(mine, sizeof mine, "%s", label(p));
    for (int j = 0; j < nfiles && !clash; j++)
        clash = j != fi && strcmp(label(files[j].path), mine) == 0;
    if (!clash)
        return label(p);
    o = buf[k++ % 4];
    if (d == p) {
        snprintf(o, sizeof buf[0], "%s", d);
        return o;
    }
    for (e = d - 1; e > p && e[-1] == '/'; e--)
        ;
    for (b = e; b > p && b[-1] != '/'; b--)
        ;
    snprintf(o, sizeof buf[0], "%.*s/%s", (int)(e - b), b, d);
    return o;
}

/* A cache-size mark of file fi at x bytes: level, found on the curve or
 * declared; one per file, kind and size. */
static void add_mark(struct plot *p, double x, int fi, const char *fname, int level,
                     bool declared)
{
    struct mark *m;
    char sz[32], who[64];

    for (size_t i = 0; i < p->nmarks; i++)
        if (p->marks[i].x == x && p->marks[i].file == fi && p->marks[i].declared == declared)
            return;
    if (p->nmarks == p->mcap) {
        size_t cap = p->mcap ? p->mcap * 2 : 16;
        struct mark *n = realloc(p->marks, cap * sizeof *n);
        if (n == NULL)
            return;
        p->marks = n;
        p->mcap = cap;
    }
    m = &p->marks[p->nmarks++];
    memset(m, 0, sizeof *m);
    m->x = x;
    m->file = fi;
    m->declared = declared;
    snprintf(m->kind, sizeof m->kind, "%s", declared ? "declared" : "measured");
    size_label(x, sz, sizeof sz);
    fit_text(who, sizeof who, fname, FS_MARK, 120);
    snprintf(m->label, sizeof m->label, "L%d %s %s (%s)", level, sz,
             declared ? "declared" : "measured", who);
    snprintf(m->title, sizeof m->title, "%s: L%d cache %s, %s", fname, level, sz,
             declared ? "the size the system declares (sysfs)"
                      : "the size found on the latency curve");
}

/* --- drawing ------------------------------------------------------------------------------ */


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

/* Tick values at a density level (0 densest): powers of 2 every 1, 2, 3, 4, 5,
 * 10, 20 octaves (bytes, log); 1-2-5 per decade, then every 1, 2, 3...
 * decades (log); a nice linear step, widened level times. */
static size_t ticks(const struct scale *s, bool bytes, int level, double *t, size_t max)
{
    size_t n = 0;

    if (s->log && bytes) {
        static const int ks[] = { 1, 2, 3, 4, 5, 10, 20 };
        double k = ks[level < 7 ? level : 6];
        double e0 = ceil(ceil(log2(s->lo) - 1e-9) / k) * k;
        for (double e = e0; exp2(e) <= s->hi * 1.0001 && n < max; e += k)
            t[n++] = exp2(e);
    } else if (s->log) {
        int every = level <= 1 ? 1 : level;
        for (double e = floor(log10(s->lo)); e <= ceil(log10(s->hi)) && n < max; e++) {
            static const double m[] = { 1, 2, 5 };
            if (fmod(fabs(e), (double)every) != 0)
                continue;
            for (int i = 0; i < (level == 0 ? 3 : 1) && n < max; i++) {
                double v = pow(10, e) * m[i];
                if (v >= s->lo * 0.9999 && v <= s->hi * 1.0001)
                    t[n++] = v;
            }
        }
    } else {
        double range = s->hi - s->lo, raw = range / 5, mag = pow(10, floor(log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag
                                                                                         : 10 * mag;
        for (int i = 0; i < level; i++)
            step *= 2;
        for (double v = ceil(s->lo / step) * step; v <= s->hi * 1.0001 && n < max; v += step)
            t[n++] = v;
    }
    return n;
}

static void tick_text(double v, bool bytes, char *buf, size_t len)
{
    if (bytes)
        size_label(v, buf, len);
    else
        num_label(v, buf, len);
}

/* The densest ticks whose labels keep clear of each other: along x, their
 * widths and 8 px between; along y, a line of text and 4 px. */
static size_t fit_ticks(const struct scale *s, bool bytes, bool along_x, double *t, size_t max)
{
    size_t n = 0;

    for (int level = 0; level < 12; level++) {
        bool ok = true;
        char a[64], b[64];
        n = ticks(s, bytes, level, t, max);
        for (size_t i = 1; i < n && ok; i++) {
            double d = fabs(map(s, t[i]) - map(s, t[i - 1]));
            if (along_x) {
                tick_text(t[i - 1], bytes, a, sizeof a);
                tick_text(t[i], bytes, b, sizeof b);
                ok = d >= (text_w(a, FS_TICK) + text_w(b, FS_TICK)) / 2 + 8;
            } else {
                ok = d >= FS_TICK * 1.25 + 4;
            }
        }
        if (ok)
            return n;
    }
    return n > 1 ? 1 : n;
}

static const char *band_name(enum band b)
{
    return b == BAND_IQR ? "iqr" : b == BAND_LAUNCHES ? "launches" : "none";
}

/* A marker of style st at (x, y), with its tooltip left open for the caller. */
static void marker(FILE *out, int st, double x, double y, bool legend)
{
    const char *cls = legend ? "" : " class=\"pt\"";

    switch (st % (int)NSTYLES) {
    case 0: fprintf(out, "<circle%s cx=\"%.1f\" cy=\"%.1f\" r=\"2.4\">", cls, x, y); break;
    case 1:
        fprintf(out, "<rect%s x=\"%.1f\" y=\"%.1f\" width=\"4.4\" height=\"4.4\">", cls, x - 2.2,
                y - 2.2);
        break;
    case 2:
        fprintf(out, "<path%s d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\">", cls, x, y - 3, x + 2.8,
                y + 2, x - 2.8, y + 2);
        break;
    case 3:
        fprintf(out, "<path%s d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\">", cls, x, y - 3,
                x + 3, y, x, y + 3, x - 3, y);
        break;
    case 4:
        fprintf(out, "<path%s d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\">", cls, x, y + 3, x + 2.8,
                y - 2, x - 2.8, y - 2);
        break;
    default:   /* a cross, stroked */
        fprintf(out, "<path%s d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" fill=\"none\" "
                     "style=\"stroke:inherit;stroke-width:1.3\">", cls, x - 2.6, y - 2.6,
                x + 2.6, y + 2.6, x - 2.6, y + 2.6, x + 2.6, y - 2.6);
    }
}

static void marker_end(FILE *out, int st)
{
    st %= (int)NSTYLES;
    fputs(st == 0 ? "</circle>" : st == 1 ? "</rect>" : "</path>", out);
}

/* The band of a series: a filled area over each run of two or more points
 * with a spread, an error bar for a point alone. */
static void draw_band(FILE *out, const struct series *s, const struct scale *xs,
                      const struct scale *ys)
{
    size_t i = 0;

    while (i < s->n) {
        size_t j = i;
        if (isnan(s->lo[i])) {
            i++;
            continue;
        }
        while (j + 1 < s->n && !isnan(s->lo[j + 1]))
            j++;
        if (j == i) {
            double x = map(xs, s->x[i]), lo = map(ys, s->lo[i]), hi = map(ys, s->hi[i]);
            fprintf(out, "<path class=\"band bar\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f"
                         "M%.1f %.1fL%.1f %.1f\"/>\n", x, lo, x, hi, x - 3, lo, x + 3, lo,
                    x - 3, hi, x + 3, hi);
        } else {
            fputs("<path class=\"band\" d=\"", out);
            for (size_t k = i; k <= j; k++)
                fprintf(out, "%s%.1f %.1f", k == i ? "M" : "L", map(xs, s->x[k]),
                        map(ys, s->hi[k]));
            for (size_t k = j + 1; k-- > i;)
                fprintf(out, "L%.1f %.1f", map(xs, s->x[k]), map(ys, s->lo[k]));
            fputs("Z\"/>\n", out);
        }
        i = j + 1;
    }
}

/* Assigns each series a panel: mode 0 one panel, 1 by s->panel, 2 by panel and
 * sub. Returns the most series a panel holds, -1 when there would be too many
 * panels. */
static int assign_panels(const struct plot *p, int mode, int *pidx, char names[][136], int *np)
{
    int counts[MAX_PANELS] = { 0 }, most = 0;

    *np = 0;
    for (size_t i = 0; i < p->ns; i++) {
        char key[136];
        int k;
        if (mode == 0)
            key[0] = '\0';
        else if (mode == 1 || p->s[i].sub[0] == '\0')
            snprintf(key, sizeof key, "%s", p->s[i].panel);
        else
            snprintf(key, sizeof key, "%s, %s", p->s[i].panel, p->s[i].sub);
        for (k = 0; k < *np; k++)
            if (strcmp(names[k], key) == 0)
                break;
        if (k == *np) {
            if (*np == MAX_PANELS)
                return -1;
            snprintf(names[(*np)++], 136, "%s", key);
        }
        pidx[i] = k;
        if (++counts[k] > most)
            most = counts[k];
    }
    return most;
}

struct placed {
    int row;              /* -1: not drawn in this panel */
    double x, l, r;       /* the line's x; the label's extent */
};

/* Places the cache-size labels of one panel in rows above its frame (row 0
 * nearest), each in the lowest row where it keeps 8 px from every other.
 * Returns the rows used. */
static int place_marks(const struct plot *p, const bool *in_panel, const struct scale *xs,
                       double fw, struct placed *pl)
{
    size_t *ord = malloc((p->nmarks ? p->nmarks : 1) * sizeof *ord);
    int rows = 0;

    for (size_t i = 0; i < p->nmarks; i++)
        pl[i].row = -1;
    if (ord == NULL)
        return 0;
    for (size_t i = 0; i < p->nmarks; i++)
        ord[i] = i;
    for (size_t i = 1; i < p->nmarks; i++)   /* by x, then file: a stable order */
        for (size_t k = i; k > 0; k--) {
            const struct mark *a = &p->marks[ord[k - 1]], *b = &p->marks[ord[k]];
            if (a->x < b->x || (a->x == b->x && a->file <= b->file))
                break;
            size_t t = ord[k];
            ord[k] = ord[k - 1];
            ord[k - 1] = t;
        }
    for (size_t o = 0; o < p->nmarks; o++) {
        size_t i = ord[o];
        const struct mark *m = &p->marks[i];
        double w = text_w(m->label, FS_MARK);
        int row;
        if (!in_panel[m->file] || m->x < xs->lo || m->x > xs->hi)
            continue;
        /* Right of its line; else left of it; else as near as the panel's
         * margins allow. */
        pl[i].x = map(xs, m->x);
        pl[i].l = pl[i].x + 3;
        if (pl[i].l + w > fw + PMR - 2)
            pl[i].l = pl[i].x - 3 - w;
        if (pl[i].l < -PML + 2)
            pl[i].l = fmax(-PML + 2, fw + PMR - 2 - w);
        pl[i].r = pl[i].l + w;
        for (row = 0;; row++) {
            bool clear = true;
            for (size_t k = 0; k < p->nmarks && clear; k++)
                if (k != i && pl[k].row == row && pl[k].l < pl[i].r + 8 && pl[i].l < pl[k].r + 8)
                    clear = false;
            if (clear)
                break;
        }
        pl[i].row = row;
        if (row + 1 > rows)
            rows = row + 1;
    }
    free(ord);
    return rows;
}

/* Draws plot p: one <svg> (data-plot, data-series, data-points, data-xscale,
 * data-yscale, data-panels) of one or more panels sharing their axes, and one
 * legend; then a note of what the bands and axes are. */
static void render_plot(FILE *out, const struct plot *p, const struct lmb_rs_file *files,
                        int nfiles, const char *panel_what, int *series_id)
{
    struct scale xs = { INFINITY, -INFINITY, false, 0, 0 };
    struct scale ys = { INFINITY, -INFINITY, false, 0, 0 };
    double xt[64], yt[64], blo = INFINITY, bhi = -INFINITY;
    size_t nxt, nyt, total = 0;
    int *pidx = NULL, np = 0, ncol, legcols, legrows, mark_rows = 0, mode = 0, bands[3] = { 0 };
    char (*pnames)[136] = NULL, buf[64];
    struct placed *pl = NULL;
    bool *in_panel = NULL;
    double cw, fw, fh, title_h, strip_h, cell_h, grid_h, legw = 0, height;

    for (size_t i = 0; i < p->ns; i++)
        for (size_t k = 0; k < p->s[i].n; k++) {
            const struct series *s = &p->s[i];
            if (s->x[k] < xs.lo) xs.lo = s->x[k];
            if (s->x[k] > xs.hi) xs.hi = s->x[k];
            if (s->y[k] < ys.lo) ys.lo = s->y[k];
            if (s->y[k] > ys.hi) ys.hi = s->y[k];
            if (!isnan(s->lo[k]) && s->lo[k] < blo) blo = s->lo[k];
            if (!isnan(s->hi[k]) && s->hi[k] > bhi) bhi = s->hi[k];
            total++;
        }
    if (total == 0)
        return;
    xs.log = p->logx == 1 || (p->logx < 0 && xs.lo > 0 && xs.hi / xs.lo >= 8);
    ys.log = p->logy == 1 || (p->logy < 0 && ys.lo > 0 && ys.hi / ys.lo >= 10);
    if (blo < ys.lo)
        ys.lo = blo;
    if (bhi > ys.hi)
        ys.hi = bhi;
    if (xs.lo == xs.hi) {
        if (xs.log) {
            xs.lo /= 2;
            xs.hi *= 2;
        } else {
            xs.lo -= 1;
            xs.hi += 1;
        }
    }
    if (ys.log) {
        ys.lo /= 1.15;
        ys.hi *= 1.15;
    } else {
        ys.lo = 0;
        ys.hi *= 1.08;
    }
    if (ys.lo == ys.hi)
        ys.hi = ys.lo + 1;

    pidx = calloc(p->ns, sizeof *pidx);
    pnames = calloc(MAX_PANELS, sizeof *pnames);
    pl = calloc(p->nmarks ? p->nmarks : 1, sizeof *pl);
    in_panel = calloc((size_t)(nfiles > 0 ? nfiles : 1), sizeof *in_panel);
    if (pidx == NULL || pnames == NULL || pl == NULL || in_panel == NULL)
        goto done;
    /* Small multiples where one panel would hold more than 6 series. */
    if (p->ns > MAX_SERIES_PER_PANEL) {
        int most = assign_panels(p, 1, pidx, pnames, &np);
        mode = most < 0 ? 0 : 1;
        if (most > MAX_SERIES_PER_PANEL && assign_panels(p, 2, pidx, pnames, &np) >= 0)
            mode = 2;
    }
    if (assign_panels(p, mode, pidx, pnames, &np) < 0)
        assign_panels(p, 0, pidx, pnames, &np);
    ncol = np == 1 ? 1 : 2;
    cw = W / ncol;
    fw = cw - PML - PMR;
    fh = np == 1 ? 300 : 200;
    xs.from = 0;
    xs.to = fw;
    ys.from = fh;
    ys.to = 0;
    nxt = fit_ticks(&xs, p->xbytes, true, xt, 64);
    nyt = fit_ticks(&ys, false, false, yt, 64);
    /* The mark rows: the most any panel needs, so that the panels line up. */
    for (int k = 0; k < np; k++) {
        int r;
        memset(in_panel, 0, (size_t)nfiles * sizeof *in_panel);
        for (size_t i = 0; i < p->ns; i++)
            if (pidx[i] == k && p->s[i].file < nfiles)
                in_panel[p->s[i].file] = true;
        r = place_marks(p, in_panel, &xs, fw, pl);
        if (r > mark_rows)
            mark_rows = r;
    }
    title_h = np > 1 ? 22 : 0;
    strip_h = mark_rows ? mark_rows * MARK_ROW + 11 : 8;
    cell_h = title_h + strip_h + fh + 54;
    grid_h = cell_h * (double)((np + ncol - 1) / ncol);
    for (size_t i = 0; i < p->ns; i++) {
        char t[200];
        fit_text(t, sizeof t, p->s[i].name, FS_LEG, W - 80);
        if (text_w(t, FS_LEG) + 32 > legw)
            legw = text_w(t, FS_LEG) + 32;
        bands[p->s[i].band]++;
    }
    legcols = (int)((W - 20) / (legw + 16));
    legcols = legcols < 1 ? 1 : legcols > 4 ? 4 : legcols;
    legrows = (int)((p->ns + (size_t)legcols - 1) / (size_t)legcols);
    height = grid_h + 8 + LEGEND_ROW * legrows + 6;

    fprintf(out, "<section class=\"plot\" id=\"%s\">\n<h2>", p->id);
    lmb_graph_escape(out, p->title);
    fprintf(out, "</h2>\n<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "data-plot=\"%s\" data-series=\"%zu\" data-points=\"%zu\" data-xscale=\"%s\" "
                 "data-yscale=\"%s\" data-panels=\"%d\" role=\"img\" aria-label=\"",
            W, height, W, height, p->id, p->ns, total, xs.log ? "log" : "linear",
            ys.log ? "log" : "linear", np);
    lmb_graph_escape(out, p->title);
    fputs("\">\n", out);
    for (int k = 0; k < np; k++) {
        double ox = (double)(k % ncol) * cw + PML;
        double oy = (double)(k / ncol) * cell_h + title_h + strip_h;

        fprintf(out, "<g class=\"panel\" data-panel=\"");
        lmb_graph_escape(out, pnames[k]);
        fprintf(out, "\" transform=\"translate(%.1f %.1f)\">\n", ox, oy);
        if (np > 1) {
            char t[160];
            fit_text(t, sizeof t, pnames[k], FS_AXIS, fw);
            fprintf(out, "<text class=\"ptitle\" x=\"0\" y=\"%.1f\">", -(title_h + strip_h) + 15);
            lmb_graph_escape(out, t);
            fputs("</text>\n", out);
        }
        fprintf(out, "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"%.1f\" height=\"%.1f\"/>\n", fw,
                fh);
        for (size_t i = 0; i < nxt; i++) {
            double x = map(&xs, xt[i]);
            tick_text(xt[i], p->xbytes, buf, sizeof buf);
            fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.1f\"/>"
                         "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
                         "</text>\n", x, x, fh, x, fh + 19, buf);
        }
        for (size_t i = 0; i < nyt; i++) {
            double y = map(&ys, yt[i]);
            num_label(yt[i], buf, sizeof buf);
            fprintf(out, "<line class=\"grid\" x1=\"0\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                         "<text class=\"tick\" x=\"-6\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    y, fw, y, y + 4, buf);
        }
        fprintf(out, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", fw / 2,
                fh + 40);
        lmb_graph_escape(out, p->xlabel);
        fprintf(out, "%s</text>\n<text class=\"axis\" transform=\"translate(%.1f %.1f) "
                     "rotate(-90)\" text-anchor=\"middle\">", xs.log ? ", log scale" : "",
                -PML + 16, fh / 2);
        lmb_graph_escape(out, p->ylabel);
        fprintf(out, "%s</text>\n", ys.log ? ", log scale" : "");
        /* Cache sizes of the files drawn in this panel. */
        memset(in_panel, 0, (size_t)nfiles * sizeof *in_panel);
        for (size_t i = 0; i < p->ns; i++)
            if (pidx[i] == k && p->s[i].file < nfiles)
                in_panel[p->s[i].file] = true;
        place_marks(p, in_panel, &xs, fw, pl);
        for (size_t i = 0; i < p->nmarks; i++) {
            const struct mark *m = &p->marks[i];
            const char *c = lmb_graph_colour(m->file);
            if (pl[i].row < 0)
                continue;
            fprintf(out, "<g class=\"mark\" data-file=\"%d\" data-kind=\"%s\"><title>", m->file,
                    m->kind);
            lmb_graph_escape(out, m->title);
            fprintf(out, "</title><line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                         "stroke-dasharray=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">",
                    pl[i].x, pl[i].x, fh, c, m->declared ? "1.5 3" : "6 3",
                    pl[i].l, -10 - MARK_ROW * pl[i].row, c);
            lmb_graph_escape(out, m->label);
            fputs("</text></g>\n", out);
        }
        for (size_t i = 0; i < p->ns; i++) {
            const struct series *s = &p->s[i];
            const char *color = lmb_graph_colour(s->file);
            if (pidx[i] != k)
                continue;
            fprintf(out, "<g class=\"series\" data-series=\"%d\" data-name=\"",
                    *series_id + (int)i);
            lmb_graph_escape(out, s->name);
            fprintf(out, "\" data-points=\"%zu\" data-file=\"%d\" data-style=\"%d\" "
                         "data-band=\"%s\" stroke=\"%s\" fill=\"%s\">\n", s->n, s->file, s->style,
                    band_name(s->band), color, color);
            draw_band(out, s, &xs, &ys);
            fputs("<path class=\"line\" d=\"", out);
            for (size_t j = 0; j < s->n; j++)
                fprintf(out, "%s%.1f %.1f", j ? " L" : "M", map(&xs, s->x[j]), map(&ys, s->y[j]));
            fprintf(out, "\"%s%s%s/>\n", dashes[s->style % (int)NSTYLES][0] ? " stroke-dasharray=\"" : "",
                    dashes[s->style % (int)NSTYLES], dashes[s->style % (int)NSTYLES][0] ? "\"" : "");
            for (size_t j = 0; j < s->n; j++) {
                marker(out, s->style, map(&xs, s->x[j]), map(&ys, s->y[j]), false);
                fputs("<title>", out);
                lmb_graph_escape(out, s->name);
                if (p->xbytes)
                    size_label(s->x[j], buf, sizeof buf);
                else
                    snprintf(buf, sizeof buf, "%g", s->x[j]);
                fprintf(out, ": %s, %.4g %s", buf, s->y[j], p->ylabel);
                if (!isnan(s->lo[j]))
                    fprintf(out, " (%s %.4g to %.4g)",
                            s->band == BAND_LAUNCHES ? "launch medians" : "quartiles", s->lo[j],
                            s->hi[j]);
                fputs("</title>", out);
                marker_end(out, s->style);
                fputc('\n', out);
            }
            fputs("</g>\n", out);
        }
        fputs("</g>\n", out);
    }
    for (size_t i = 0; i < p->ns; i++) {
        const struct series *s = &p->s[i];
        const char *color = lmb_graph_colour(s->file);
        const char *d = dashes[s->style % (int)NSTYLES];
        double lx = 10 + (double)(i % (size_t)legcols) * (legw + 16);
        double ly = grid_h + 8 + LEGEND_ROW * (double)(i / (size_t)legcols) + 12;
        char t[200];

        fit_text(t, sizeof t, s->name, FS_LEG, W - 80);
        fprintf(out, "<g class=\"legend\" data-series=\"%d\" data-file=\"%d\" tabindex=\"0\" "
                     "stroke=\"%s\" fill=\"%s\"><title>", *series_id + (int)i, s->file, color,
                color);
        lmb_graph_escape(out, s->name);
        fprintf(out, " (band: %s)</title><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s%s%s/>",
                s->band == BAND_IQR        ? "quartiles of the samples"
                : s->band == BAND_LAUNCHES ? "lowest to highest launch median"
                                           : "none, no samples",
                lx, ly - 4, lx + 24, ly - 4, d[0] ? " stroke-dasharray=\"" : "", d, d[0] ? "\"" : "");
        marker(out, s->style, lx + 12, ly - 4, true);
        marker_end(out, s->style);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\">", lx + 30, ly);
        lmb_graph_escape(out, t);
        fputs("</text></g>\n", out);
    }
    fputs("</svg>\n<p class=\"note\">", out);
    if (np > 1)
        fprintf(out, "%d panels, one per %s (one panel would hold %zu series), sharing their "
                     "axes. ", np, panel_what, p->ns);
    fprintf(out, "x axis %s, y axis %s. ", xs.log ? "logarithmic" : "linear",
            ys.log ? "logarithmic (the values span a decade or more)" : "linear");
    if (bands[BAND_IQR])
        fputs("Bands: the interquartile range of each point's samples. ", out);
    if (bands[BAND_LAUNCHES])
        fputs("Bands of records measured in several launches (--launches): from the lowest to "
              "the highest launch median. ", out);
    for (int fi = 0; fi < nfiles; fi++) {
        bool has = false, band = false;
        for (size_t i = 0; i < p->ns; i++)
            if (p->s[i].file == fi) {
                has = true;
                band |= p->s[i].band != BAND_NONE;
            }
        if (has && !band && p->note == NULL) {
            fputs("No band for ", out);
            lmb_graph_escape(out, flabel(files, nfiles, fi));
            fputs(files[fi].format == LMB_RS_RAW3 ? ": an lmbench 3 file keeps no samples. "
                                                  : ": its records hold fewer than 2 samples. ",
                  out);
        }
    }
    if (p->note != NULL)
        lmb_graph_escape(out, p->note);
    else if (p->nmarks)
        fputs("Cache sizes: dashed, the size found on the latency curve (measured); dotted, the "
              "size the system declares (sysfs); each label names its file and has the file's "
              "colour.", out);
    fputs("</p>\n</section>\n", out);
done:
    *series_id += (int)p->ns;
    free(pidx);
    free(pnames);
    free(pl);
    free(in_panel);
}

static void memlat_plot(FILE *out, struct lmb_rs_file *files, int nfiles, int *sid)
{
    struct plot p = { "memory-latency", "Memory load latency (lat_mem_rd)", "working set (bytes)",
                      "ns per load", 1, 1, true, NULL, 0, 0, NULL, 0, 0, NULL, 0, NULL };

    if (!init_plot(&p, nfiles))
        return;
    for (int i = 0; i < nfiles; i++) {
        const struct lmb_rs_file *f = &files[i];
        double strides[32];
        size_t ns = distinct(f, "lat_mem_rd", "stride", "stride_bytes", strides, 32);
        struct lmb_memlat m;
        char name[200], panel[64];

        /* Curves of several page sizes (--pages) are told apart. */
        const char *pages[6];
        size_t npg = distinct_str(f, "lat_mem_rd", "*", "pages", pages, 6);

        for (size_t g = 0; g < (npg > 1 ? npg : 1); g++) {
            char pg[48] = "";
            if (npg > 1)
                snprintf(pg, sizeof pg, " pages=%s", pages[g]);
            for (size_t k = 0; k < ns; k++) {
                snprintf(name, sizeof name, "%s stride=%.0f%s", flabel(files, nfiles, i),
                         strides[k], pg);
                snprintf(panel, sizeof panel, "stride %.0f bytes", strides[k]);
                add_curve(&p, name, f, i, panel, pg[0] ? pages[g] : NULL, "lat_mem_rd", "stride",
                          "size_bytes", "stride_bytes", strides[k], npg > 1 ? "pages" : NULL,
                          npg > 1 ? pages[g] : NULL);
            }
        }
        ns = distinct(f, "lat_mem_rd", "random", "stride_bytes", strides, 32);
        for (size_t g = 0; g < (npg > 1 ? npg : 1); g++) {
            char pg[48] = "";
            if (npg > 1)
                snprintf(pg, sizeof pg, " pages=%s", pages[g]);
            for (size_t k = 0; k < ns; k++) {
                snprintf(name, sizeof name, "%s random (stride=%.0f)%s", flabel(files, nfiles, i),
                         strides[k], pg);
                snprintf(panel, sizeof panel, "random chase, stride %.0f bytes", strides[k]);
                add_curve(&p, name, f, i, panel, pg[0] ? pages[g] : NULL, "lat_mem_rd", "random",
                          "size_bytes", "stride_bytes", strides[k], npg > 1 ? "pages" : NULL,
                          npg > 1 ? pages[g] : NULL);
            }
        }
        /* Cache sizes: as measured on the curve, and as the system declares. */
        lmb_memlat_summarize(f, &m);
        for (size_t k = 0; k < m.nlevels; k++)
            if (m.level_bytes[k] > 0)
                add_mark(&p, m.level_bytes[k], i, flabel(files, nfiles, i), (int)k + 1, false);
        for (int k = 0; k < f->ncaches; k++)
            if (strcmp(f->caches[k].type, "Instruction") != 0 && f->caches[k].size > 0)
                add_mark(&p, (double)f->caches[k].size, i, flabel(files, nfiles, i),
                         f->caches[k].level, true);
    }
    render_plot(out, &p, files, nfiles, "stride", sid);
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
        struct plot p = { NULL, ops[o].title, "size (bytes)", "MB/s", 1, -1, true, NULL, 0, 0,
                          NULL, 0, 0, NULL, 0, NULL };
        char id[64];

        if (!init_plot(&p, nfiles))
            return;
        snprintf(id, sizeof id, "bandwidth-%s-%s", ops[o].bench, ops[o].c);
        p.id = id;
        for (int i = 0; i < nfiles; i++) {
            const struct lmb_rs_file *f = &files[i];
            char name[200];
            double conf[2];
            size_t nc = distinct(f, ops[o].bench, ops[o].c, "conflict", conf, 2);
            if (nc == 0) {
                snprintf(name, sizeof name, "%s", flabel(files, nfiles, i));
                add_curve(&p, name, f, i, "as allocated", NULL, ops[o].bench, ops[o].c,
                          "size_bytes", NULL, 0, NULL, NULL);
            }
            for (size_t k = 0; k < nc; k++) {
                snprintf(name, sizeof name, "%s%s", flabel(files, nfiles, i),
                         conf[k] != 0 ? " conflict" : "");
                add_curve(&p, name, f, i, conf[k] != 0 ? "placed to conflict" : "as allocated",
                          NULL, ops[o].bench, ops[o].c, "size_bytes", "conflict", conf[k], NULL,
                          NULL);
            }
        }
        render_plot(out, &p, files, nfiles, "buffer placement", sid);
        free_plot(&p);
    }
}

static void ctx_plot(FILE *out, struct lmb_rs_file *files, int nfiles, int *sid)
{
    struct plot p = { "context-switch", "Context switch time (lat_ctx)", "processes in the ring",
                      "us per switch", -1, -1, false, NULL, 0, 0, NULL, 0, 0, NULL, 0, NULL };

    if (!init_plot(&p, nfiles))
        return;
    for (int i = 0; i < nfiles; i++) {
        const struct lmb_rs_file *f = &files[i];
        double sizes[32];
        const char *ends[4];
        size_t nsz = distinct(f, "lat_ctx", NULL, "size_kb", sizes, 32);
        size_t ne = distinct_str(f, "lat_ctx", NULL, "ends", ends, 4);
        for (size_t k = 0; k < nsz; k++) {
            char name[200], sub[64];
            snprintf(sub, sizeof sub, "size %.0fk", sizes[k]);
            if (ne == 0) {
                snprintf(name, sizeof name, "%s size=%.0fk", flabel(files, nfiles, i), sizes[k]);
                add_curve(&p, name, f, i, "placement not recorded", sub, "lat_ctx", NULL, "procs",
                          "size_kb", sizes[k], NULL, NULL);
            }
            for (size_t e = 0; e < ne; e++) {
                char panel[64];
                snprintf(name, sizeof name, "%s size=%.0fk %s", flabel(files, nfiles, i), sizes[k],
                         ends[e]);
                snprintf(panel, sizeof panel, "ends %s", ends[e]);
                add_curve(&p, name, f, i, panel, sub, "lat_ctx", NULL, "procs", "size_kb",
                          sizes[k], "ends", ends[e]);
            }
        }
    }
    render_plot(out, &p, files, nfiles, "placement of the ends (and process size)", sid);
    free_plot(&p);
}

void lmb_graph_lines(FILE *out, const struct lmb_graph_spec *g, const struct lmb_graph_line *l,
                     size_t nl, const struct lmb_graph_vline *v, size_t nv,
                     const struct lmb_rs_file *files, int nfiles, int *sid)
{
    struct plot p = { g->id, g->title, g->xlabel, g->ylabel, g->logx, g->logy, false, NULL, 0, 0,
                      NULL, 0, 0, NULL, 0, g->note };

    if (!init_plot(&p, nfiles))
        return;
    for (size_t i = 0; i < nl; i++) {
        struct series *s;
        size_t n = 0;
        if (l[i].n == 0)
            continue;
        s = add_series(&p, l[i].name, l[i].file, l[i].panel, NULL);
        if (s == NULL)
            break;
        s->x = malloc(l[i].n * sizeof *s->x);
        s->y = malloc(l[i].n * sizeof *s->y);
        s->lo = malloc(l[i].n * sizeof *s->lo);
        s->hi = malloc(l[i].n * sizeof *s->hi);
        if (s->x == NULL || s->y == NULL || s->lo == NULL || s->hi == NULL)
            break;
        for (size_t k = 0; k < l[i].n; k++) {
            /* A log axis takes positive values only. */
            if (!isfinite(l[i].x[k]) || !isfinite(l[i].y[k]) || (g->logx == 1 && !(l[i].x[k] > 0)) ||
                (g->logy == 1 && !(l[i].y[k] > 0)))
                continue;
            s->x[n] = l[i].x[k];
            s->y[n] = l[i].y[k];
            s->lo[n] = s->hi[n] = NAN;
            n++;
        }
        s->n = n;
        s->band = BAND_NONE;
    }
    for (size_t i = 0; i < nv; i++) {
        struct mark *m;
        if (p.nmarks == p.mcap) {
            size_t cap = p.mcap ? p.mcap * 2 : 8;
            struct mark *nm = realloc(p.marks, cap * sizeof *nm);
            if (nm == NULL)
                break;
            p.marks = nm;
            p.mcap = cap;
        }
        m = &p.marks[p.nmarks++];
        memset(m, 0, sizeof *m);
        m->x = v[i].x;
        m->file = v[i].file;
        snprintf(m->kind, sizeof m->kind, "%s", v[i].kind);
        snprintf(m->label, sizeof m->label, "%s", v[i].label);
        snprintf(m->title, sizeof m->title, "%s", v[i].title);
    }
    render_plot(out, &p, files, nfiles, g->panel_what ? g->panel_what : "series", sid);
    free_plot(&p);
}

const char *lmb_graph_file_label(const struct lmb_rs_file *files, int nfiles, int fi)
{
    return flabel(files, nfiles, fi);
}

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}"
    "h1{font-size:1.4em}h2{font-size:1.1em;margin:1.2em 0 .3em}"
    "table.files{border-collapse:collapse;font-size:.9em}"
    "table.files td,table.files th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
    ".swatch{display:inline-block;width:1.6em;height:.7em;vertical-align:middle}"
    "svg{background:#fff;max-width:100%;height:auto;font-family:sans-serif}"
    ".frame{fill:none;stroke:#444}.grid{stroke:#e4e4e4}"
    ".tick{font-size:11px;fill:#444}.axis{font-size:12px;fill:#222}"
    ".ptitle{font-size:12px;font-weight:bold;fill:#222}"
    ".series .line{stroke-width:1.5;fill:none}.series .pt{stroke:none}"
    ".series .band{stroke:none;fill-opacity:.16}"
    ".series .band.bar{fill:none;stroke-width:1;stroke-opacity:.6}"
    ".series.off{display:none}.legend{cursor:pointer;font-size:11px}.legend.off{opacity:.35}"
    ".legend line{stroke-width:1.5}.legend text{fill:#222}"
    ".mark line{stroke-width:1;opacity:.7}.mark text{font-size:10px}"
    "p.note{color:#555;font-size:.9em;max-width:60em}";

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

/* What spread a file's records carry: "launches" when some record was
 * measured in several launches, "samples" when some has two or more samples,
 * else "none". */
static const char *file_spread(const struct lmb_rs_file *f, size_t *most_launches)
{
    bool samples = false;

    *most_launches = 0;
    for (size_t i = 0; i < f->nrecs; i++) {
        if (f->recs[i].nsamples >= 2)
            samples = true;
        if (f->recs[i].nlaunches > *most_launches)
            *most_launches = f->recs[i].nlaunches;
    }
    return *most_launches >= 2 && samples ? "launches" : samples ? "samples" : "none";
}

static void cell(FILE *out, const char *s)
{
    fputs("<td>", out);
    lmb_graph_escape(out, s ? s : "");
    fputs("</td>", out);
}

static void page(FILE *out, struct lmb_rs_file *files, int nfiles)
{
    int sid = 0;

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>lmbench results</title>\n<style>", out);
    fputs(style, out);
    fputs("</style>\n</head>\n<body>\n<h1>lmbench results</h1>\n", out);
    fprintf(out, "<p class=\"note\">Made by lmbench %s graph. Each results file has one colour "
                 "on the whole page; within a file, dash pattern and marker shape tell its "
                 "series apart. Each point shows its value when the pointer rests on it; click a "
                 "legend entry to hide or show its series. Shaded bands are the spread of each "
                 "point (see the note under each plot).</p>\n", LMB_VERSION);
    fputs("<table class=\"files\">\n<tr><th>colour</th><th>file</th><th>host</th><th>kernel</th>"
          "<th>CPU</th><th>run</th><th>started</th><th>spread drawn</th></tr>\n", out);
    for (int i = 0; i < nfiles; i++) {
        const struct lmb_rs_file *f = &files[i];
        const char *cpu = lmb_rs_context(f, "cpu_model");
        size_t nl;
        const char *sp = file_spread(f, &nl);
        char kernel[256], spread_text[160];

        snprintf(kernel, sizeof kernel, "%s%s%s", f->sysname ? f->sysname : "",
                 f->sysname && f->release ? " " : "", f->release ? f->release : "");
        if (strcmp(sp, "launches") == 0)
            snprintf(spread_text, sizeof spread_text,
                     "quartiles of the samples; across launches (up to %zu), the range of the "
                     "launch medians", nl);
        else if (strcmp(sp, "samples") == 0)
            snprintf(spread_text, sizeof spread_text, "quartiles of the samples");
        else
            snprintf(spread_text, sizeof spread_text, "%s",
                     f->format == LMB_RS_RAW3 ? "none: an lmbench 3 file keeps no samples"
                                              : "none: fewer than 2 samples a record");
        fprintf(out, "<tr data-file=\"%d\" data-spread=\"%s\"><td><span class=\"swatch\" "
                     "style=\"background:%s\"></span></td>", i, sp, lmb_graph_colour(i));
        cell(out, f->path);
        cell(out, f->hostname);
        cell(out, kernel);
        cell(out, cpu ? cpu : f->format == LMB_RS_RAW3 ? "not recorded (lmbench 3)" : "not recorded");
        cell(out, f->run_id);
        cell(out, f->start);
        cell(out, spread_text);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    lmb_graph_compare_view(out, files, nfiles);
    memlat_plot(out, files, nfiles, &sid);
    bw_plots(out, files, nfiles, &sid);
    ctx_plot(out, files, nfiles, &sid);
    lmb_graph_modern(out, files, nfiles, &sid);
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
