// SPDX-License-Identifier: MIT
/* The summary page of lmbench see (doc/summary.md): its tables and
 * columns as data, the cells looked up from a results file's records, and the
 * number format of lmbench 3's report. see.c renders it as text, Markdown, JSON
 * or CSV. */
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
    const char *ends;        /* two-ended records: the placement asked for ("same_cpu",
                                "two_cpus", "unpinned"); NULL: each file's own
                                (lmb_sum_placement) */
};

/* The placement a cell of two-ended records shows for file f: o->ends when
 * given; else same_cpu when the file has such records, else the file's only
 * placement (an lmbench 3 file: unpinned; a run with LMBENCH_SCHED other than
 * DEFAULT), else unpinned, else two_cpus. *only (may be NULL) says that the
 * file's two-ended records have that one placement. NULL when the file has no
 * record with a placement and none was asked. */
const char *lmb_sum_placement(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                              bool *only);

/* The value of column c for file f: NAN when there is none. For LMB_CELL_TEXT
 * and LMB_CELL_DESC the text goes into text (may be empty). */
double lmb_sum_cell(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                    const struct lmb_sum_col *c, char *text, size_t textlen);

/* Marks after a number (doc/summary.md, "Marks and notes"). */
#define LMB_SUM_MARK_SUBST '*'       /* not exactly the column's figure: another size or case */
#define LMB_SUM_MARK_DOUBT '?'       /* implausible: a rule refuses it */
#define LMB_SUM_SPREAD_NOTE 5.0      /* percent: a spread beyond it is said under the table */
#define LMB_SUM_SPREAD_DOUBT 50.0    /* percent: a spread beyond it makes the cell doubtful */
#define LMB_SUM_CTX_SLACK 0.10       /* a switch with more data may be this much faster */
#define LMB_SUM_LEVEL_SLACK 0.10     /* a memory level may be this much faster than the last */
#define LMB_SUM_BW_SLACK 0.10        /* memory may be this much faster than the caches */

/* A numeric cell with what its reader must know. */
struct lmb_sum_cellx {
    double value;                        /* NAN: blank */
    const struct lmb_rs_record *rec;     /* the record shown; NULL: none, or computed from a
                                            curve (memory latencies) */
    char mark;                           /* 0, LMB_SUM_MARK_SUBST or LMB_SUM_MARK_DOUBT */
    char subst[200];                     /* what was taken instead of the column's figure */
    char doubt[200];                     /* why the figure is implausible, but for its spread */
    bool noisy;                          /* implausible for its spread alone: over
                                            LMB_SUM_SPREAD_DOUBT (also marked '?') */
    char blank[240];                     /* why a blank cell is blank when the file says
                                            something about it ("" when it has no record) */
    bool below;                          /* blank: below the timer's resolution */
    double spread;                       /* CV in percent of the shown record; NAN unknown */
    size_t spread_launches;              /* spread is between this many launches; 0: within
                                            the record's samples */
    bool disturbed;                      /* the record's step was disturbed */
};

/* Cell c of file f with its marks and notes (any kind of column; the text of
 * LMB_CELL_TEXT and LMB_CELL_DESC columns is not filled). */
void lmb_sum_cell_ex(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                     const struct lmb_sum_col *c, struct lmb_sum_cellx *x);

/* The spread of a record in percent: the CV of its launches' medians when it
 * has two or more launches (*launches gets their count), else the CV of its
 * samples (*launches 0); NAN with fewer than 2 samples. */
double lmb_sum_spread(const struct lmb_rs_record *r, size_t *launches);

/* "9 of 12 mitigated, 1 vulnerable (spectre_v2), 2 not affected" from
 * host.context's mitigations ("name: state; name: state", as src/lib/context.c
 * writes it). */
void lmb_sum_mitigations(const char *v, char *out, size_t len);

/* lmbench 3's number format: the value in at most `width` characters; values
 * below 10 with as many decimals as fit, larger ones with one decimal cut to the
 * width (198.7 in 4 is "198."), 10000 and more in thousands (K) or millions (M).
 * A positive value too small for the width keeps 3 significant digits. */
void lmb_sum_format(double v, int width, char *out, size_t outlen);

/* The title of table t as the page prints it: its own, or under --percent
 * (percent true) for a table whose cells are percentages, the title with its
 * unit ("in microseconds", "in MB/s") replaced by "in percent of the best in
 * each column". */
void lmb_sum_title(const struct lmb_sum_table *t, bool percent, char *out, size_t len);

/* A size for people: "256 MiB", "64 KiB", "1000 B". */
void lmb_sum_size_text(double b, char *out, size_t len);

/* "Linux 6.18.44" and "x86_64-linux-gnu" for a file. */
void lmb_sum_os(const struct lmb_rs_file *f, char *out, size_t len);
void lmb_sum_platform(const struct lmb_rs_file *f, char *out, size_t len);

#endif
