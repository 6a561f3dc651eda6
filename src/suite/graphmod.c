// SPDX-License-Identifier: MIT
/* lmbench graph: the plots of the benchmarks lmbench 3 lacks (issue 17).
 * A heat map of each file's core-to-core matrix (CPU x CPU, a colour scale
 * with its legend in ns, each pair's relation as a letter and in its
 * tooltip); each file's NUMA matrices as small heat maps (node x node); the
 * loaded-latency curve (lat_loaded: the chase's latency against the bandwidth
 * the loaders delivered, one line per file and load kind); and, of a document
 * of lmbench scale (run.scale), throughput against copies with the ideal line
 * (one copy's throughput times the copies) and the point where it stops
 * scaling. The matrices come from summary.c (lmb_sum_matrices), as see
 * --matrix prints them; the curves are drawn by graph.c (lmb_graph_lines). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "results.h"
#include "summary.h"
#include "lib/input.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

/* The colour scale of the heat maps: light (low) to dark (high), linear in
 * the value between the matrix's lowest and highest figure. */
static const unsigned char ramp[][3] = {
    { 0xff, 0xf7, 0xbc }, { 0xfe, 0xc4, 0x4f }, { 0xf0, 0x6b, 0x2a }, { 0xb1, 0x00, 0x26 },
    { 0x4d, 0x00, 0x4b },
};
#define NRAMP (sizeof ramp / sizeof ramp[0])

static void heat_colour(double t, char *buf, size_t len)
{
    double at;
    size_t i;
    int c[3];

    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    at = t * (double)(NRAMP - 1);
    i = (size_t)at;
    if (i >= NRAMP - 1)
        i = NRAMP - 2;
    at -= (double)i;
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(ramp[i][k] + at * (ramp[i + 1][k] - ramp[i][k]));
    snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static const char *relation_word(char c)
{
    return c == 's' ? "SMT siblings" : c == 'c' ? "cores of one socket"
           : c == 'S' ? "two sockets" : c == 'u' ? "relation unknown" : "";
}

/* One matrix as an SVG heat map: a grid of n x n cells (the largest that
 * fits, at most 34 px; NUMA maps smaller), the ids along both axes, and a
 * colour legend with the lowest, middle and highest figure. */
static void heatmap(FILE *out, const struct lmb_sum_matrix *m, const char *fname, int fi,
                    int serial)
{
    bool numa = m->axis[0] == 'n';
    double lo = INFINITY, hi = -INFINITY, cell, ml = 44, mt = 30, gw, width, height;
    size_t nn = (size_t)m->n * (size_t)m->n;
    bool letters;
    int shown = 0;
    char col[16];

    for (size_t i = 0; i < nn; i++)
        if (!isnan(m->v[i])) {
            lo = fmin(lo, m->v[i]);
            hi = fmax(hi, m->v[i]);
        }
    cell = (numa ? 240.0 : 640.0) / m->n;
    if (cell > (numa ? 46 : 34))
        cell = numa ? 46 : 34;
    if (cell < 3)
        cell = 3;
    letters = cell >= 16;
    gw = cell * m->n;
    width = ml + gw + 150;
    height = mt + gw + 40;
    if (height < 190)
        height = 190;
    fprintf(out, "<section class=\"plot heat\" id=\"%s-%d-%d\">\n<h2>", m->key, fi, serial);
    lmb_graph_escape(out, m->title);
    fputs(": ", out);
    lmb_graph_escape(out, fname);
    fprintf(out, "</h2>\n<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "data-heatmap=\"%s\" data-file=\"%d\" data-n=\"%d\" data-unit=\"%s\" "
                 "role=\"img\" aria-label=\"", width, height, width, height, m->key, fi, m->n,
            m->unit);
    lmb_graph_escape(out, m->title);
    fputs("\">\n", out);
    /* Axis labels: the ids, thinned to keep clear of each other. */
    {
        int every = (int)ceil(14.0 / cell);
        if (every < 1)
            every = 1;
        for (int i = 0; i < m->n; i += every) {
            double c = ml + cell * (i + 0.5);
            fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d"
                         "</text>\n", c, mt - 6, m->ids[i]);
            fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d"
                         "</text>\n", ml - 6, mt + cell * (i + 0.5) + 4, m->ids[i]);
        }
    }
    fprintf(out, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            ml + gw / 2, mt + gw + 24, numa ? "memory node" : "CPU");
    fprintf(out, "<text class=\"axis\" transform=\"translate(12 %.1f) rotate(-90)\" "
                 "text-anchor=\"middle\">%s</text>\n", mt + gw / 2,
            numa ? "CPU node" : "CPU");
    for (int i = 0; i < m->n; i++)
        for (int j = 0; j < m->n; j++) {
            size_t at = (size_t)i * (size_t)m->n + (size_t)j;
            double v = m->v[at], x = ml + cell * j, y = mt + cell * i;
            const char *kind;
            if (!isnan(v)) {
                heat_colour(hi > lo ? (v - lo) / (hi - lo) : 0.5, col, sizeof col);
                kind = "value";
                shown++;
            } else if (m->why[at] != NULL) {
                snprintf(col, sizeof col, "#d9d9d9");
                kind = "unmeasured";
            } else if (i == j && !numa) {
                snprintf(col, sizeof col, "#ffffff");
                kind = "self";
            } else {
                snprintf(col, sizeof col, "#f4f4f4");
                kind = "none";
            }
            fprintf(out, "<rect class=\"cell\" data-kind=\"%s\" data-rel=\"%c\" x=\"%.1f\" "
                         "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"#fff\" "
                         "stroke-width=\"%.1f\"><title>", kind, m->rel[at] ? m->rel[at] : '-', x, y,
                    cell, cell, col, cell >= 8 ? 1.0 : 0.3);
            fprintf(out, "%s %d, %s %d: ", numa ? "CPU node" : "CPU", m->ids[i],
                    numa ? "memory node" : "CPU", m->ids[j]);
            if (!isnan(v))
                fprintf(out, "%.4g %s", v, m->unit);
            else if (m->why[at] != NULL) {
                fputs("unmeasured: ", out);
                lmb_graph_escape(out, m->why[at]);
            } else
                fputs(i == j ? "the same CPU" : "not measured", out);
            if (m->rel[at])
                fprintf(out, " (%s)", relation_word(m->rel[at]));
            fputs("</title></rect>\n", out);
            if (letters && m->rel[at] && !isnan(v)) {
                double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
                fprintf(out, "<text class=\"rel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                             "fill=\"%s\">%c</text>\n", x + cell / 2, y + cell / 2 + 4,
                        t > 0.45 ? "#fff" : "#222", m->rel[at]);
            } else if (letters && m->why[at] != NULL) {
                fprintf(out, "<text class=\"rel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                             "fill=\"#555\">x</text>\n", x + cell / 2, y + cell / 2 + 4);
            }
        }
    /* The legend: the colour scale from the lowest to the highest figure. */
    if (shown > 0) {
        double lx = ml + gw + 30, ly = mt, lh = 120;
        fprintf(out, "<g class=\"scale\" data-lo=\"%.6g\" data-hi=\"%.6g\">\n", lo, hi);
        for (int k = 0; k < 24; k++) {
            heat_colour(1.0 - k / 23.0, col, sizeof col);
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.2f\" fill=\"%s\"/>\n",
                    lx, ly + lh * k / 24.0, lh / 24.0 + 0.3, col);
        }
        fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\"/>\n",
                lx, ly, lh);
        for (int k = 0; k < 3; k++) {
            double v = hi - (hi - lo) * k / 2.0;
            fprintf(out, v >= 1e4 ? "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%.0f %s</text>\n"
                                  : "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%.4g %s</text>\n",
                    lx + 20, ly + lh * k / 2.0 + 4, v, m->unit);
        }
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", lx, ly + lh + 22,
                m->higher_better ? "darker: more" : "darker: slower");
        fputs("</g>\n", out);
    }
    fputs("</svg>\n<p class=\"note\">", out);
    fprintf(out, "%d of %d cells measured", shown, m->n * m->n - (numa ? 0 : m->n));
    if (m->unmeasured)
        fprintf(out, "; %d record%s unmeasured (grey%s; the tooltip says why)", m->unmeasured,
                m->unmeasured > 1 ? "s" : "", letters ? ", x" : "");
    fputs(". ", out);
    if (!numa)
        fprintf(out, "The pairs' relation from the topology: %s s SMT siblings, c cores of one "
                     "socket, S two sockets, u unknown. ",
                letters ? "a letter in each cell and in its tooltip:" : "in each cell's tooltip "
                "(the cells are too small for letters):");
    else
        fputs("Rows: the node of the CPU that ran; columns: the node the memory was bound to. ",
              out);
    fputs("Colour: linear from the lowest to the highest figure of this matrix.</p>\n"
          "</section>\n", out);
}

static void heatmaps(FILE *out, const struct lmb_rs_file *files, int nfiles)
{
    for (int fi = 0; fi < nfiles; fi++) {
        struct lmb_sum_matrix *m;
        int nm = lmb_sum_matrices(&files[fi], &m);
        for (int k = 0; k < nm; k++)
            if (m[k].measured + m[k].unmeasured > 0)
                heatmap(out, &m[k], lmb_graph_file_label(files, nfiles, fi), fi, k);
        lmb_sum_matrices_free(m, nm > 0 ? nm : 0);
    }
}

/* --- loaded latency ------------------------------------------------------------------ */

struct lpt {
    double bw, lat;
};

static int cmp_lpt(const void *a, const void *b)
{
    const struct lpt *x = a, *y = b;
    return (x->bw > y->bw) - (x->bw < y->bw);
}

static void loaded_plot(FILE *out, const struct lmb_rs_file *files, int nfiles, int *sid)
{
    static const char *const kinds[] = { "rd", "wr" };
    struct lmb_graph_line *lines = calloc((size_t)nfiles * 2 + 1, sizeof *lines);
    char (*names)[200] = calloc((size_t)nfiles * 2 + 1, sizeof *names);
    double **xs = calloc((size_t)nfiles * 2 + 1, sizeof *xs), **ys = calloc((size_t)nfiles * 2 + 1,
                                                                          sizeof *ys);
    size_t nl = 0;
    struct lmb_graph_spec g = {
        "loaded-latency", "Loaded latency (lat_loaded): the chase's latency against the "
        "bandwidth the loaders delivered", "bandwidth delivered by the loaders (MB/s)",
        "ns per load", 0, -1,
        "One line per file and load (rd: the loaders read, wr: they write), its points in the "
        "order of the bandwidth measured; the first point is the chase alone (no load). No "
        "bands: a point is two records (latency and bandwidth).",
        "load" };

    if (lines == NULL || names == NULL || xs == NULL || ys == NULL)
        goto done;
    for (int fi = 0; fi < nfiles; fi++)
        for (size_t k = 0; k < 2; k++) {
            const struct lmb_rs_file *f = &files[fi];
            struct lpt *pts = malloc((f->nrecs + 1) * sizeof *pts);
            size_t n = 0;
            if (pts == NULL)
                continue;
            for (size_t i = 0; i < f->nrecs; i++) {
                const struct lmb_rs_record *l = &f->recs[i];
                const char *lk = lmb_rs_pstr(l, "load");
                if (!lmb_rs_is(l, "lat_loaded", "latency") || lk == NULL ||
                    strcmp(lk, kinds[k]) != 0 || l->status != LMB_RS_OK || !l->has_value)
                    continue;
                /* Its point's bandwidth record. */
                for (size_t j = 0; j < f->nrecs; j++) {
                    const struct lmb_rs_record *b = &f->recs[j];
                    const char *bk = lmb_rs_pstr(b, "load");
                    if (lmb_rs_is(b, "lat_loaded", "bandwidth") && bk != NULL &&
                        strcmp(bk, kinds[k]) == 0 && b->status == LMB_RS_OK && b->has_value &&
                        lmb_rs_pnum(b, "point") == lmb_rs_pnum(l, "point")) {
                        pts[n].bw = b->value;
                        pts[n].lat = l->value;
                        n++;
                        break;
                    }
                }
            }
            if (n == 0) {
                free(pts);
                continue;
            }
            qsort(pts, n, sizeof *pts, cmp_lpt);
            xs[nl] = malloc(n * sizeof **xs);
            ys[nl] = malloc(n * sizeof **ys);
            if (xs[nl] == NULL || ys[nl] == NULL) {
                free(pts);
                free(xs[nl]);
                free(ys[nl]);
                xs[nl] = ys[nl] = NULL;
                continue;
            }
            for (size_t i = 0; i < n; i++) {
                xs[nl][i] = pts[i].bw;
                ys[nl][i] = pts[i].lat;
            }
            free(pts);
            snprintf(names[nl], sizeof names[nl], "%s %s", lmb_graph_file_label(files, nfiles, fi),
                     kinds[k]);
            lines[nl] = (struct lmb_graph_line){ names[nl], fi, kinds[k], xs[nl], ys[nl], n };
            nl++;
        }
    if (nl > 0)
        lmb_graph_lines(out, &g, lines, nl, NULL, 0, files, nfiles, sid);
done:
    for (size_t i = 0; xs != NULL && ys != NULL && i < nl; i++) {
        free(xs[i]);
        free(ys[i]);
    }
    free(xs);
    free(ys);
    free(lines);
    free(names);
}

/* --- scaling (lmbench scale) --------------------------------------------------------- */

#ifdef LMB_HAVE_JANSSON
/* Operations per second from a latency in unit per operation; NAN unknown. */
static double per_second(const char *unit)
{
    if (strcmp(unit, "ns") == 0)
        return 1e9;
    if (strcmp(unit, "us") == 0)
        return 1e6;
    if (strcmp(unit, "ms") == 0)
        return 1e3;
    if (strcmp(unit, "s") == 0)
        return 1;
    return NAN;
}

struct sgroup {
    char key[512], name[300], unit[32];
    bool higher;
    double x[64], y[64];
    size_t n;
};

static int cmp_pair(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The curves of one scale document (doc: its JSON) of file fi. */
static void scale_doc(FILE *out, json_t *doc, const struct lmb_rs_file *files, int nfiles,
                      int fi, int *sid)
{
    json_t *run = json_object_get(doc, "run"), *sc = json_object_get(run, "scale");
    json_t *res = json_object_get(doc, "results"), *r;
    json_t *stops = json_object_get(sc, "stops_at"), *cmd = json_object_get(sc, "command");
    struct sgroup *g = calloc(16, sizeof *g);
    size_t ng = 0, i;

    if (g == NULL)
        return;
    json_array_foreach(res, i, r) {
        json_t *c = json_object_get(r, "case"), *p = json_object_get(r, "params");
        json_t *v = json_object_get(r, "value"), *cp = json_object_get(r, "copies");
        json_t *st = json_object_get(r, "status"), *u = json_object_get(r, "unit");
        json_t *b = json_object_get(r, "better");
        const char *bench = json_string_value(json_object_get(r, "benchmark"));
        char *ps;
        char key[512];
        size_t k;
        if (bench == NULL || !json_is_number(v) || !json_is_integer(cp) ||
            !json_is_string(st) || strcmp(json_string_value(st), "ok") != 0 || !json_is_string(u))
            continue;
        ps = p ? json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
        snprintf(key, sizeof key, "%s %s %s", bench, json_is_string(c) ? json_string_value(c) : "",
                 ps ? ps : "{}");
        for (k = 0; k < ng; k++)
            if (strcmp(g[k].key, key) == 0)
                break;
        if (k == ng) {
            if (ng == 16) {
                free(ps);
                continue;
            }
            snprintf(g[k].key, sizeof g[k].key, "%s", key);
            snprintf(g[k].name, sizeof g[k].name, "%s%s%s%s%s", bench,
                     json_is_string(c) && *json_string_value(c) ? " " : "",
                     json_is_string(c) ? json_string_value(c) : "",
                     ps && strcmp(ps, "{}") != 0 ? " " : "", ps && strcmp(ps, "{}") != 0 ? ps : "");
            snprintf(g[k].unit, sizeof g[k].unit, "%s", json_string_value(u));
            g[k].higher = json_is_string(b) && strcmp(json_string_value(b), "higher") == 0;
            ng++;
        }
        free(ps);
        if (g[k].n < 64) {
            double copies = (double)json_integer_value(cp), val = json_number_value(v);
            double thr = g[k].higher ? val
                         : val > 0 ? copies * per_second(g[k].unit) / val : NAN;
            if (isfinite(thr) && copies > 0) {
                g[k].x[g[k].n] = copies;
                g[k].y[g[k].n] = thr;
                g[k].n++;
            }
        }
    }
    for (size_t k = 0; k < ng; k++) {
        struct sgroup *s = &g[k];
        double ideal[64], pairs[64][2];
        char id[64], title[400], ylabel[96], nm[2][260], label[96], tip[200], note[400];
        struct lmb_graph_line l[2];
        struct lmb_graph_vline vl;
        struct lmb_graph_spec spec;
        double one = NAN;
        json_t *stop = stops, *ser, *why = NULL;
        size_t si;
        if (s->n == 0)
            continue;
        /* run.scale.series: this curve's own stop point and its reason. */
        json_array_foreach(json_object_get(sc, "series"), si, ser) {
            json_t *c = json_object_get(ser, "case"), *p = json_object_get(ser, "params");
            const char *b = json_string_value(json_object_get(ser, "benchmark"));
            char *ps = p ? json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
            char key[512];
            snprintf(key, sizeof key, "%s %s %s", b ? b : "",
                     json_is_string(c) ? json_string_value(c) : "", ps ? ps : "{}");
            free(ps);
            if (strcmp(key, s->key) == 0) {
                stop = json_object_get(ser, "stops_at");
                why = json_object_get(ser, "reason");
                break;
            }
        }
        for (size_t j = 0; j < s->n; j++) {
            pairs[j][0] = s->x[j];
            pairs[j][1] = s->y[j];
        }
        qsort(pairs, s->n, sizeof pairs[0], cmp_pair);
        for (size_t j = 0; j < s->n; j++) {
            s->x[j] = pairs[j][0];
            s->y[j] = pairs[j][1];
            if (s->x[j] == 1)
                one = s->y[j];
        }
        if (isnan(one))
            one = s->y[0] / s->x[0];
        for (size_t j = 0; j < s->n; j++)
            ideal[j] = one * s->x[j];
        snprintf(id, sizeof id, "scale-%d-%zu", fi, k);
        snprintf(title, sizeof title, "Scaling (lmbench scale%s%s): %s, throughput against copies",
                 json_is_string(cmd) ? " " : "", json_is_string(cmd) ? json_string_value(cmd) : "",
                 s->name);
        if (s->higher)
            snprintf(ylabel, sizeof ylabel, "%s, all copies", s->unit);
        else if (!isnan(per_second(s->unit)))
            snprintf(ylabel, sizeof ylabel, "operations per second, all copies");
        else
            snprintf(ylabel, sizeof ylabel, "copies per %s", s->unit);
        snprintf(nm[0], sizeof nm[0], "%s", lmb_graph_file_label(files, nfiles, fi));
        snprintf(nm[1], sizeof nm[1], "%s ideal (1 copy x copies)",
                 lmb_graph_file_label(files, nfiles, fi));
        l[0] = (struct lmb_graph_line){ nm[0], fi, "", s->x, s->y, s->n };
        l[1] = (struct lmb_graph_line){ nm[1], fi, "", s->x, ideal, s->n };
        snprintf(note, sizeof note, "Throughput: %s. The ideal line is the throughput of one copy "
                 "times the copies. %s%s%s", s->higher ? "the bandwidth of all copies together"
                                                       : "the copies divided by the latency of "
                                                         "one operation",
                 json_is_string(why) ? "lmbench scale: " : "",
                 json_is_string(why) ? json_string_value(why) : "", json_is_string(why) ? "." : "");
        spec = (struct lmb_graph_spec){ id, title, "copies (-P)", ylabel, -1, -1, note, NULL };
        if (json_is_integer(stop)) {
            snprintf(label, sizeof label, "stops scaling at %lld copies",
                     (long long)json_integer_value(stop));
            snprintf(tip, sizeof tip, "lmbench scale: the curve stops scaling at -P %lld",
                     (long long)json_integer_value(stop));
            vl = (struct lmb_graph_vline){ (double)json_integer_value(stop), fi, "stop", label,
                                           tip };
        }
        lmb_graph_lines(out, &spec, l, 2, &vl, json_is_integer(stop) ? 1 : 0, files, nfiles, sid);
    }
    free(g);
}
#endif

static void scale_plots(FILE *out, const struct lmb_rs_file *files, int nfiles, int *sid)
{
#ifdef LMB_HAVE_JANSSON
    for (int fi = 0; fi < nfiles; fi++) {
        char err[256];
        FILE *fp;
        json_t *doc;
        json_error_t je;
        if (files[fi].format != LMB_RS_JSON)
            continue;
        fp = lmb_input_open(files[fi].path, 64u << 20, err, sizeof err);
        if (fp == NULL)
            continue;
        doc = json_loadf(fp, 0, &je);
        fclose(fp);
        if (doc == NULL)
            continue;
        if (json_is_object(json_object_get(json_object_get(doc, "run"), "scale")))
            scale_doc(out, doc, files, nfiles, fi, sid);
        json_decref(doc);
    }
#else
    (void)out;
    (void)files;
    (void)nfiles;
    (void)sid;
#endif
}

void lmb_graph_modern(FILE *out, const struct lmb_rs_file *files, int nfiles, int *sid)
{
    heatmaps(out, files, nfiles);
    loaded_plot(out, files, nfiles, sid);
    scale_plots(out, files, nfiles, sid);
}
