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

/* A table whose dashes is NULL is one of the Modern tables (doc/summary.md,
 * "Modern"): it is left out, with every column, when no file holds one of its
 * figures, shows only the columns some file has (a column repeated from an
 * earlier table, such as fork beside vfork, only beside one of its own), and
 * its header lines and dashes are made from the labels and widths of the
 * columns shown (lmb_sum_shown_cols). */
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
    char word[16];                       /* blank: a word the cell shows instead ("one node") */
    char info[240];                      /* what the figure is, said under the table (the CPUs
                                            of a core-to-core pair, the load of a point) */
};

/* Cell c of file f with its marks and notes (any kind of column; the text of
 * LMB_CELL_TEXT and LMB_CELL_DESC columns is not filled). */
void lmb_sum_cell_ex(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                     const struct lmb_sum_col *c, struct lmb_sum_cellx *x);

/* Whether table t is one of the Modern tables (dashes NULL). */
bool lmb_sum_dynamic(const struct lmb_sum_table *t);

/* Whether column c of table t repeats a column of an earlier table (fork in
 * the Modern processes table): its notes are said once, under the first. */
bool lmb_sum_repeated(const struct lmb_sum_table *t, int c);

/* The columns of table t the page shows for these files, as indexes into
 * t->cols in order: every column of a table of lmbench 3's; of a Modern table
 * the columns some file has a figure or a blank cell to explain for (a
 * repeated column: a figure, and only beside a column of its own). Returns
 * their count; 0 when a Modern table has nothing to show. */
int lmb_sum_shown_cols(const struct lmb_sum_opts *o, const struct lmb_rs_file *files,
                       int nfiles, const struct lmb_sum_table *t, int *idx);

/* The header lines (at most 3, each into head[i] of len) and the dash line of
 * a Modern table over the shown columns idx[0..n): each label's words wrapped
 * into its column's width. Returns the number of header lines. */
int lmb_sum_dynamic_head(const struct lmb_sum_table *t, const int *idx, int n, char head[3][512],
                         char *dashes, size_t len);

/* A matrix of a file (see --matrix, graph's heat maps): core-to-core round
 * trips CPU x CPU (lat_c2c, one per case), NUMA latency and bandwidth node x
 * node (lat_numa, bw_numa; row: the node the CPU ran on, column: the node the
 * memory was bound to). */
struct lmb_sum_matrix {
    char key[32];                /* "c2c_cas", "c2c_store", "numa_latency", "numa_bandwidth" */
    char title[160];             /* "Core-to-core round trip (lat_c2c cas)" */
    const char *unit;            /* "ns", "MB/s" */
    const char *axis;            /* "CPU", "node" */
    bool higher_better;
    int n;                       /* rows = columns */
    int *ids;                    /* the CPU or node number of each row */
    double *v;                   /* n*n, row-major; NAN: no figure */
    char *rel;                   /* n*n: 's' smt, 'c' core, 'S' socket, 'u' unknown, 0 none */
    const char **why;            /* n*n: the reason of an unmeasured cell, NULL otherwise */
    int measured, unmeasured;    /* cells (pairs) with a figure, records not ok */
};

/* The matrices of file f into *out (malloc'd; free with lmb_sum_matrices_free).
 * Returns their count (0: none, *out NULL), -1 on a lack of memory. */
int lmb_sum_matrices(const struct lmb_rs_file *f, struct lmb_sum_matrix **out);
void lmb_sum_matrices_free(struct lmb_sum_matrix *m, int n);

/* The relation's letter in a matrix ('s', 'c', 'S', 'u') from a record's
 * "relation" parameter; 0 for none. */
char lmb_sum_relation_letter(const char *relation);

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
