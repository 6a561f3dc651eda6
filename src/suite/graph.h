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

#endif
