// SPDX-License-Identifier: MIT
/* lmbench see: the summary page of doc/summary.md, one row per results
 * file (our JSON, JSONL, and lmbench 3 raw files side by side), as text in
 * lmbench 3's layout, or the same table as JSON or CSV. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "suite.h"
#include "summary.h"
#include "util.h"

#include "version.h"   /* generated: LMB_VERSION */

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

static const char usage[] = "[--percent] [--json|--csv] [--ends PLACEMENT] [FILE|DIR...]";

static void help(void)
{
    printf("Usage: lmbench see %s\n"
           "Prints lmbench's summary page: one row per results file, in tables of\n"
           "processor, process, arithmetic, context switch, communication, file system,\n"
           "bandwidth and memory latency figures. FILEs are our JSON (.json, .jsonl) or\n"
           "lmbench 3 raw results files; a DIR is searched for them (one file per run).\n"
           "Without arguments it reads ./results.\n"
           "\nOptions:\n"
           "  --percent          each cell as a percentage of the best row's\n"
           "  --json             the same tables as one JSON document\n"
           "  --csv              the same tables as CSV: file,host,os,table,column,unit,value\n"
           "  --ends PLACEMENT   for two-ended benchmarks, prefer results whose ends ran\n"
           "                     same_cpu (default), two_cpus or unpinned\n"
           "  -h, --help         show this help\n"
           "\nExit status: 0 ok, 1 a file could not be read or output not written,\n"
           "2 bad usage, 3 nothing to show (every file skipped). See lmbench-see(1).\n", usage);
}

struct see {
    struct lmb_rs_file *files;
    int nfiles;
    struct lmb_sum_opts opts;
    bool percent;
};

/* cells[t][c][row] */
static double *cells_of(const struct see *S, const struct lmb_sum_table *t, int c)
{
    double *v = malloc((size_t)(S->nfiles ? S->nfiles : 1) * sizeof *v);
    double best = NAN;

    if (v == NULL)
        return NULL;
    for (int r = 0; r < S->nfiles; r++)
        v[r] = lmb_sum_cell(&S->opts, &S->files[r], &t->cols[c], NULL, 0);
    if (!S->percent || !t->percent || t->cols[c].kind != LMB_CELL_NUM)
        return v;
    for (int r = 0; r < S->nfiles; r++)
        if (v[r] > 0 && (isnan(best) || (t->higher_better ? v[r] > best : v[r] < best)))
            best = v[r];
    for (int r = 0; r < S->nfiles; r++)
        v[r] = v[r] > 0 && best > 0 ? 100.0 * v[r] / best : NAN;
    return v;
}

/* Whether a table has any figure to show (Mhz alone does not count). */
static bool table_has_data(const struct see *S, const struct lmb_sum_table *t)
{
    if (strcmp(t->key, "basic") == 0)
        return true;
    for (int c = 0; c < t->ncols; c++) {
        if (t->cols[c].kind != LMB_CELL_NUM)
            continue;
        for (int r = 0; r < S->nfiles; r++)
            if (!isnan(lmb_sum_cell(&S->opts, &S->files[r], &t->cols[c], NULL, 0)))
                return true;
    }
    return false;
}

/* The Host cell of row r: the host name, or, when another row has the same host
 * name, the file's name without its directory and .json/.jsonl ("vm.0", "vm.1"),
 * so that two runs of one machine can be told apart. */
static void host_cell(const struct see *S, int r, char *buf, size_t len)
{
    const struct lmb_rs_file *f = &S->files[r];
    const char *b = strrchr(f->path, '/');
    size_t n;

    snprintf(buf, len, "%s", f->hostname);
    for (int i = 0; i < S->nfiles; i++) {
        if (i == r || strcmp(S->files[i].hostname, f->hostname) != 0)
            continue;
        snprintf(buf, len, "%s", b ? b + 1 : f->path);
        n = strlen(buf);
        if (n > 6 && strcmp(buf + n - 6, ".jsonl") == 0)
            buf[n - 6] = '\0';
        else if (n > 5 && strcmp(buf + n - 5, ".json") == 0)
            buf[n - 5] = '\0';
        return;
    }
}

static void print_text(const struct see *S, FILE *out)
{
    fputs("\n                 L M B E N C H  3 . 0   S U M M A R Y\n"
          "                 ------------------------------------\n", out);
    fprintf(out, "\t\t (lmbench %s%s)\n", LMB_VERSION, S->percent ? ", percent of the best" : "");
    for (size_t ti = 0; ti < lmb_sum_ntables; ti++) {
        const struct lmb_sum_table *t = &lmb_sum_tables[ti];
        double *v[LMB_SUM_MAX_COLS] = { 0 };

        if (!table_has_data(S, t))
            continue;
        fputc('\n', out);
        fprintf(out, "%s\n", t->title);
        if (t->title2)
            fprintf(out, "%s\n", t->title2);
        for (int i = 0; i < t->rule; i++)
            fputc('-', out);
        fputc('\n', out);
        for (int i = 0; i < 3 && t->head[i]; i++)
            fprintf(out, "%s\n", t->head[i]);
        fprintf(out, "%s\n", t->dashes);
        for (int c = 0; c < t->ncols; c++)
            v[c] = cells_of(S, t, c);
        for (int r = 0; r < S->nfiles; r++) {
            const struct lmb_rs_file *f = &S->files[r];
            char line[1024], os[160], cell[96], text[200], host[300];
            size_t o;
            lmb_sum_os(f, os, sizeof os);
            host_cell(S, r, host, sizeof host);
            o = (size_t)snprintf(line, sizeof line, "%-9.9s %-13.13s", host, os);
            for (int c = 0; c < t->ncols && o < sizeof line; c++) {
                const struct lmb_sum_col *col = &t->cols[c];
                switch (col->kind) {
                case LMB_CELL_DESC:
                    lmb_sum_cell(&S->opts, f, col, text, sizeof text);
                    o += (size_t)snprintf(line + o, sizeof line - o, " %*.*s", col->width,
                                          col->width, text);
                    break;
                case LMB_CELL_TEXT:
                    lmb_sum_cell(&S->opts, f, col, text, sizeof text);
                    o += (size_t)snprintf(line + o, sizeof line - o, "  %s", text);
                    break;
                case LMB_CELL_INT:
                    if (v[c] && !isnan(v[c][r]))
                        snprintf(cell, sizeof cell, "%.0f", v[c][r]);
                    else
                        cell[0] = '\0';
                    o += (size_t)snprintf(line + o, sizeof line - o, " %*s", col->width, cell);
                    break;
                case LMB_CELL_NUM:
                    if (S->percent && t->percent && v[c] && v[c][r] >= 10 && v[c][r] < 1e5)
                        snprintf(cell, sizeof cell, "%.0f", v[c][r]);   /* whole percents */
                    else
                        lmb_sum_format(v[c] ? v[c][r] : NAN,
                                       col->digits ? col->digits : col->width, cell, sizeof cell);
                    o += (size_t)snprintf(line + o, sizeof line - o, " %*s", col->width, cell);
                    break;
                }
            }
            if (o >= sizeof line)
                o = sizeof line - 1;
            while (o > 0 && line[o - 1] == ' ')
                line[--o] = '\0';
            fprintf(out, "%s\n", line);
        }
        for (int c = 0; c < t->ncols; c++)
            free(v[c]);
    }
}

static void csv_field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void print_csv(const struct see *S, FILE *out)
{
    fputs("file,host,os,table,column,unit,value\n", out);
    for (size_t ti = 0; ti < lmb_sum_ntables; ti++) {
        const struct lmb_sum_table *t = &lmb_sum_tables[ti];
        for (int c = 0; c < t->ncols; c++) {
            const struct lmb_sum_col *col = &t->cols[c];
            double *v = cells_of(S, t, c);
            for (int r = 0; r < S->nfiles; r++) {
                const struct lmb_rs_file *f = &S->files[r];
                char os[160], text[200];
                const char *unit = col->kind == LMB_CELL_NUM
                                       ? (S->percent && t->percent ? "%" : t->unit) : "";
                lmb_sum_os(f, os, sizeof os);
                csv_field(out, f->path);
                fputc(',', out);
                csv_field(out, f->hostname);
                fputc(',', out);
                csv_field(out, os);
                fprintf(out, ",%s,%s,%s,", t->key, col->key, unit);
                if (col->kind == LMB_CELL_TEXT || col->kind == LMB_CELL_DESC) {
                    lmb_sum_cell(&S->opts, f, col, text, sizeof text);
                    csv_field(out, text);
                } else if (v && !isnan(v[r])) {
                    fprintf(out, "%.10g", v[r]);
                }
                fputc('\n', out);
            }
            free(v);
        }
    }
}

#ifdef LMB_HAVE_JANSSON
static const char *format_name(enum lmb_rs_format f)
{
    switch (f) {
    case LMB_RS_JSON: return "json";
    case LMB_RS_JSONL: return "jsonl";
    case LMB_RS_RAW3: return "lmbench3-raw";
    }
    return "?";
}

static int print_json(const struct see *S, FILE *out)
{
    json_t *doc = json_object(), *files = json_array(), *tables = json_array();
    int rc;

    json_object_set_new(doc, "schema", json_string("lmbench-summary"));
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "percent", json_boolean(S->percent));
    for (int r = 0; r < S->nfiles; r++) {
        const struct lmb_rs_file *f = &S->files[r];
        char os[160], plat[160];
        lmb_sum_os(f, os, sizeof os);
        lmb_sum_platform(f, plat, sizeof plat);
        json_array_append_new(files, json_pack("{sssssssssoss}", "path", f->path, "host",
                                               f->hostname, "os", os, "platform", plat,
                                               "run_id",
                                               f->run_id ? json_string(f->run_id) : json_null(),
                                               "format", format_name(f->format)));
    }
    json_object_set_new(doc, "files", files);
    for (size_t ti = 0; ti < lmb_sum_ntables; ti++) {
        const struct lmb_sum_table *t = &lmb_sum_tables[ti];
        json_t *jt = json_object(), *cols = json_array(), *rows = json_array();
        double *v[LMB_SUM_MAX_COLS] = { 0 };
        json_object_set_new(jt, "key", json_string(t->key));
        json_object_set_new(jt, "title", json_string(t->title));
        json_object_set_new(jt, "unit", json_string(S->percent && t->percent ? "%" : t->unit));
        json_object_set_new(jt, "better", t->unit[0] ? json_string(t->higher_better ? "higher"
                                                                                     : "lower")
                                                     : json_null());
        for (int c = 0; c < t->ncols; c++) {
            json_array_append_new(cols, json_pack("{ssss}", "key", t->cols[c].key, "label",
                                                  t->cols[c].label));
            v[c] = cells_of(S, t, c);
        }
        for (int r = 0; r < S->nfiles; r++) {
            json_t *row = json_object(), *cells = json_object();
            json_object_set_new(row, "file", json_integer(r));
            for (int c = 0; c < t->ncols; c++) {
                const struct lmb_sum_col *col = &t->cols[c];
                char text[200];
                if (col->kind == LMB_CELL_TEXT || col->kind == LMB_CELL_DESC) {
                    lmb_sum_cell(&S->opts, &S->files[r], col, text, sizeof text);
                    json_object_set_new(cells, col->key, json_string(text));
                } else {
                    json_object_set_new(cells, col->key,
                                        v[c] && !isnan(v[c][r]) ? json_real(v[c][r])
                                                                : json_null());
                }
            }
            json_object_set_new(row, "cells", cells);
            json_array_append_new(rows, row);
        }
        for (int c = 0; c < t->ncols; c++)
            free(v[c]);
        json_object_set_new(jt, "columns", cols);
        json_object_set_new(jt, "rows", rows);
        json_array_append_new(tables, jt);
    }
    json_object_set_new(doc, "tables", tables);
    rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    fputc('\n', out);
    json_decref(doc);
    return rc;
}
#endif

int lmb_suite_see(int argc, char **argv)
{
    struct see S = { .opts = { .ends = "same_cpu" } };
    bool json = false, csv = false;
    char **args;
    int nargs = 0, rc = 0, skipped = 0, r;
    const char *v;

    args = calloc((size_t)argc + 1, sizeof *args);
    if (args == NULL)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            free(args);
            help();
            return lmb_verb_check_output("see", stdout, "the help");
        }
        if (strcmp(a, "--percent") == 0) {
            S.percent = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--csv") == 0) {
            csv = true;
        } else if ((r = lmb_long_opt(argc, argv, &i, "--ends", &v)) != 0) {
            if (r < 0 || (strcmp(v, "same_cpu") != 0 && strcmp(v, "two_cpus") != 0 &&
                          strcmp(v, "unpinned") != 0)) {
                free(args);
                return lmb_verb_usage_error("see", usage,
                                            "--ends takes same_cpu, two_cpus or unpinned%s%s",
                                            r < 0 ? "" : ", not ", r < 0 ? "" : lmb_quote_arg(v));
            }
            S.opts.ends = v;
        } else if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                args[nargs++] = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            free(args);
            return lmb_verb_usage_error("see", usage, "unknown option '%s'", lmb_quote_arg(a));
        } else {
            args[nargs++] = argv[i];
        }
    }
    if (json && csv) {
        free(args);
        return lmb_verb_usage_error("see", usage, "--json and --csv exclude each other");
    }
#ifndef LMB_HAVE_JANSSON
    if (json) {
        free(args);
        fprintf(stderr, "lmbench see: --json: skipped: built without jansson\n");
        return 3;
    }
#endif
    rc = lmb_rs_load_args("see", nargs, args, &S.files, &S.nfiles);
    free(args);
    skipped = rc == 3;
    if (rc == 3)
        rc = 0;
    if (S.nfiles > 0) {
        if (json) {
#ifdef LMB_HAVE_JANSSON
            if (print_json(&S, stdout) != 0)
                rc = 1;
#endif
        } else if (csv) {
            print_csv(&S, stdout);
        } else {
            print_text(&S, stdout);
        }
        if (lmb_verb_check_output("see", stdout, "the summary") != 0)
            rc = 1;
    } else if (rc == 0) {
        rc = skipped ? 3 : 1;
        if (!skipped)
            fprintf(stderr, "lmbench see: no results to show\n");
    }
    for (int i = 0; i < S.nfiles; i++)
        lmb_rs_free(&S.files[i]);
    free(S.files);
    return rc;
}
