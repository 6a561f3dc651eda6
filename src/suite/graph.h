// SPDX-License-Identifier: MIT
/* What the parts of lmbench graph's page share: the colour of each results
 * file (one per file across the whole page), HTML escaping, and the
 * comparison view (src/suite/graphcmp.c). */
#ifndef LMB_SUITE_GRAPH_H
#define LMB_SUITE_GRAPH_H

#include <stdio.h>

#include "results.h"

/* The colour (CSS "#rrggbb") of the results file at index file in the page's
 * list: the same file has the same colour in every plot. */
const char *lmb_graph_colour(int file);

/* Writes s with &, <, > and " escaped for HTML text and attribute values. */
void lmb_graph_escape(FILE *out, const char *s);

/* The comparison view: with two or more files, each measurement of every
 * later file as a ratio to the first (new/base), its 95% interval and the
 * verdict of lmbench compare, sorted by the size of the change. Writes
 * nothing for one file. */
void lmb_graph_compare_view(FILE *out, const struct lmb_rs_file *files, int nfiles);

/* A plot of lines drawn as the page's other plots (axes, ticks, legend,
 * panels): what it is. logx, logy: 1 log, 0 linear, -1 log when the values
 * span a decade. */
struct lmb_graph_spec {
    const char *id, *title, *xlabel, *ylabel;
    int logx, logy;
    const char *note;          /* said under the plot */
    const char *panel_what;    /* "one panel per ..." when split into panels */
};

/* One line: points (x, y) of the file at index file (its colour). */
struct lmb_graph_line {
    const char *name;
    int file;
    const char *panel;         /* the small multiple it belongs to ("" one) */
    const double *x, *y;
    size_t n;
};

/* A vertical mark at x with its label above the panel (the point where a
 * curve stops scaling). */
struct lmb_graph_vline {
    double x;
    int file;
    const char *kind, *label, *title;
};

void lmb_graph_lines(FILE *out, const struct lmb_graph_spec *g, const struct lmb_graph_line *l,
                     size_t nl, const struct lmb_graph_vline *v, size_t nv,
                     const struct lmb_rs_file *files, int nfiles, int *sid);

/* The name of files[fi] in legends (its base name, told apart from another
 * file's of the same name by its directory). */
const char *lmb_graph_file_label(const struct lmb_rs_file *files, int nfiles, int fi);

/* The plots of issue 17 (src/suite/graphmod.c): a heat map of each file's
 * core-to-core matrix, its NUMA matrices as small heat maps, the
 * loaded-latency curve (latency against delivered bandwidth) and, of a
 * document of lmbench scale, throughput against copies with the ideal line
 * and the stop point. Nothing for files without such records. */
void lmb_graph_modern(FILE *out, const struct lmb_rs_file *files, int nfiles, int *sid);

#endif
