// SPDX-License-Identifier: MIT
/* The summary page of lmbench see (doc/summary.md): its tables and
 * columns as data, the cells looked up from a results file's records, and the
 * number format of lmbench 3's report. see.c renders it as text, JSON or CSV. */
#ifndef LMB_SUITE_SUMMARY_H
#define LMB_SUITE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

enum lmb_cell_kind {
    LMB_CELL_NUM,     /* a measurement, formatted to the width */
    LMB_CELL_INT,     /* a count (MHz, pages, bytes, copies) */
    LMB_CELL_DESC,    /* the platform description, right-aligned text */
    LMB_CELL_TEXT,    /* free text (Guesses), left-aligned, last column */
};

struct lmb_sum_col {
    const char *key;          /* for --json and --csv */
    const char *label;        /* for people (--json) */
    int width;                /* of the cell */
    int digits;               /* of the number inside it, when narrower; 0: width */
    enum lmb_cell_kind kind;
    int id;                   /* what the cell is (summary.c) */
};

#define LMB_SUM_MAX_COLS 12

struct lmb_sum_table {
    const char *key;
    const char *title;
    const char *title2;               /* a second title line, or NULL */
    const char *unit;                 /* "us", "ns", "MB/s", "" */
    bool higher_better;
    bool percent;                     /* --percent applies to its cells */
    int rule;                         /* dashes under the title */
    const char *head[3];              /* column header lines (NULL-padded) */
    const char *dashes;               /* the dash line above the rows */
    struct lmb_sum_col cols[LMB_SUM_MAX_COLS];
    int ncols;
};

extern const struct lmb_sum_table lmb_sum_tables[];
extern const size_t lmb_sum_ntables;

/* How cells are chosen when a file holds several candidates. */
struct lmb_sum_opts {
    const char *ends;        /* two-ended records: prefer this placement ("same_cpu") */
};

/* The value of column c for file f: NAN when there is none. For LMB_CELL_TEXT
 * and LMB_CELL_DESC the text goes into text (may be empty). */
double lmb_sum_cell(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                    const struct lmb_sum_col *c, char *text, size_t textlen);

/* lmbench 3's number format: the value in at most `width` characters; values
 * below 10 with as many decimals as fit, larger ones with one decimal cut to the
 * width (198.7 in 4 is "198."), 10000 and more in thousands (K) or millions (M).
 * A positive value too small for the width keeps 3 significant digits. */
void lmb_sum_format(double v, int width, char *out, size_t outlen);

/* "Linux 6.18.44" and "x86_64-linux-gnu" for a file. */
void lmb_sum_os(const struct lmb_rs_file *f, char *out, size_t len);
void lmb_sum_platform(const struct lmb_rs_file *f, char *out, size_t len);

#endif
