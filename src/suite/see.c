// SPDX-License-Identifier: MIT
/* lmbench see: the summary page of doc/summary.md, one row per results
 * file (our JSON, JSONL, and lmbench 3 raw files side by side), as text in
 * lmbench 3's layout (coloured on a terminal), or the same tables as Markdown,
 * JSON or CSV: each file's context above the tables, what is known about the
 * cells (marks, notes) under each table, and the run's warnings at the end. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results.h"
#include "suite.h"
#include "summary.h"
#include "util.h"

#include "version.h"   /* generated: LMB_VERSION */

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

static const char usage[] =
    "[--percent] [--matrix] [--json|--csv|--markdown] [--ends PLACEMENT] [FILE|DIR...]";

static void help(void)
{
    printf("Usage: lmbench see %s\n"
           "Prints lmbench's summary page: one row per results file, in tables of\n"
           "processor, process, arithmetic, context switch, communication, file system,\n"
           "bandwidth and memory latency figures. FILEs are our JSON (.json, .jsonl) or\n"
           "lmbench 3 raw results files; a DIR is searched for them (one file per run).\n"
           "Without arguments it reads ./results (which lmbench run writes). Above the\n"
           "tables: each file's context; under them: marked cells (? implausible, * not\n"
           "exactly the column's figure), blank cells, spreads over 5%% and the run's\n"
           "warnings, named.\n"
           "\nOptions:\n"
           "  --percent          each cell as a percentage of the best row's\n"
           "  --matrix           after the tables, each file's core-to-core matrix (CPU x\n"
           "                     CPU) and NUMA matrices (node x node)\n"
           "  --json             the same tables as one JSON document\n"
           "  --csv              the same tables as CSV:\n"
           "                     file,host,os,table,column,unit,value,mark,note\n"
           "  --markdown         the same page as Markdown tables (for pull requests\n"
           "                     and mailing lists)\n"
           "  --ends PLACEMENT   two-ended benchmarks: show the results whose ends ran\n"
           "                     same_cpu, two_cpus or unpinned (default: same_cpu where\n"
           "                     the file has it, else the file's only placement)\n"
           "  -h, --help         show this help\n"
           "On a terminal the text page is coloured (never in a pipe, never with NO_COLOR).\n"
           "\nExit status: 0 ok, 1 a file could not be read or output not written,\n"
           "2 bad usage, 3 nothing to show (every file skipped). See lmbench-see(1).\n", usage);
}

#define LABEL_LEN 300

struct see {
    struct lmb_rs_file *files;
    int nfiles;
    struct lmb_sum_opts opts;
    bool percent;
    bool matrix;                 /* --matrix: each file's matrices after the tables */
    bool colour;                 /* the text page goes to a terminal that wants colour */
    char (*labels)[LABEL_LEN];   /* each row's Host cell (labels_make); NULL: the hosts */
};

/* The cells of one column of a table, one per file, with the values shown
 * (percentages under --percent). */
struct column {
    struct lmb_sum_cellx *x;
    double *shown;
};

static int column_of(const struct see *S, const struct lmb_sum_table *t, int c, struct column *k)
{
    size_t n = (size_t)(S->nfiles ? S->nfiles : 1);
    double best = NAN;

    k->x = calloc(n, sizeof *k->x);
    k->shown = calloc(n, sizeof *k->shown);
    if (k->x == NULL || k->shown == NULL) {
        free(k->x);
        free(k->shown);
        k->x = NULL;
        k->shown = NULL;
        return -1;
    }
    for (int r = 0; r < S->nfiles; r++) {
        lmb_sum_cell_ex(&S->opts, &S->files[r], &t->cols[c], &k->x[r]);
        k->shown[r] = k->x[r].value;
    }
    if (!S->percent || !t->percent || t->cols[c].kind != LMB_CELL_NUM)
        return 0;
    /* The best row is one shown plainly: a marked cell is no reference. */
    for (int r = 0; r < S->nfiles; r++) {
        double v = k->x[r].value;
        if (v > 0 && !k->x[r].mark && (isnan(best) || (t->higher_better ? v > best : v < best)))
            best = v;
    }
    for (int r = 0; r < S->nfiles; r++)
        k->shown[r] = k->x[r].value > 0 && best > 0 ? 100.0 * k->x[r].value / best : NAN;
    return 0;
}

static void column_free(struct column *k)
{
    free(k->x);
    free(k->shown);
}

/* Whether column c of table t repeats a column of an earlier table (2p/0K in
 * the communication latencies): its notes are said once, under the first. */
static bool repeated(const struct lmb_sum_table *t, int c)
{
    return lmb_sum_repeated(t, c);
}

/* Whether a table has any figure to show, or a blank cell to explain (Mhz
 * alone does not count). */
static bool table_has_data(const struct see *S, const struct lmb_sum_table *t)
{
    if (strcmp(t->key, "basic") == 0)
        return true;
    if (lmb_sum_dynamic(t)) {
        int idx[LMB_SUM_MAX_COLS];
        return lmb_sum_shown_cols(&S->opts, S->files, S->nfiles, t, idx) > 0;
    }
    for (int c = 0; c < t->ncols; c++) {
        if (t->cols[c].kind != LMB_CELL_NUM)
            continue;
        for (int r = 0; r < S->nfiles; r++) {
            struct lmb_sum_cellx x;
            lmb_sum_cell_ex(&S->opts, &S->files[r], &t->cols[c], &x);
            if (!isnan(x.value) || (x.blank[0] && !repeated(t, c)))
                return true;
        }
    }
    return false;
}

/* The label of row r when another row has the same host name: the file's name
 * without its directory and .json/.jsonl when it starts with the host name
 * ("vm.0", "vm.1.json" -> "vm.1", as lmbench run and lmbench 3 name them); else
 * the host and the file's run number when the name ends in one (an lmbench 3
 * file kept as "lmbench3-x86_64-linux-vm.0" -> "vm.0"); else the file's name
 * ("before.json" -> "before"). */
static void file_label(const struct lmb_rs_file *f, char *buf, size_t len)
{
    const char *b = strrchr(f->path, '/');
    size_t n, hn = strlen(f->hostname), d;

    snprintf(buf, len, "%s", b ? b + 1 : f->path);
    n = strlen(buf);
    if (n > 6 && strcmp(buf + n - 6, ".jsonl") == 0)
        buf[n -= 6] = '\0';
    else if (n > 5 && strcmp(buf + n - 5, ".json") == 0)
        buf[n -= 5] = '\0';
    if (strncmp(buf, f->hostname, hn) == 0)
        return;
    for (d = n; d > 0 && buf[d - 1] >= '0' && buf[d - 1] <= '9'; d--)
        ;
    if (d < n && d > 0 && buf[d - 1] == '.') {
        char num[LABEL_LEN];
        snprintf(num, sizeof num, "%s", buf + d - 1);
        snprintf(buf, len, "%s%s", f->hostname, num);
    }
}

/* Each row's Host cell: the host name; when another row has the same host,
 * file_label; when two rows are still alike, "#" and the row's number after
 * each ("vm.0#1", "vm.0#2"). On a lack of memory the host names are used. */
static void labels_make(struct see *S)
{
    bool *alike;

    S->labels = calloc(S->nfiles > 0 ? (size_t)S->nfiles : 1, sizeof *S->labels);
    if (S->labels == NULL)
        return;
    for (int r = 0; r < S->nfiles; r++) {
        const struct lmb_rs_file *f = &S->files[r];
        snprintf(S->labels[r], LABEL_LEN, "%s", f->hostname);
        for (int i = 0; i < S->nfiles; i++)
            if (i != r && strcmp(S->files[i].hostname, f->hostname) == 0) {
                file_label(f, S->labels[r], LABEL_LEN);
                break;
            }
    }
    alike = calloc(S->nfiles > 0 ? (size_t)S->nfiles : 1, sizeof *alike);
    if (alike == NULL)
        return;
    for (int r = 0; r < S->nfiles; r++)
        for (int i = 0; i < S->nfiles && !alike[r]; i++)
            alike[r] = i != r && strcmp(S->labels[i], S->labels[r]) == 0;
    for (int r = 0; r < S->nfiles; r++)
        if (alike[r]) {
            size_t n = strlen(S->labels[r]);
            snprintf(S->labels[r] + n, LABEL_LEN - n, "#%d", r + 1);
        }
    free(alike);
}

/* The Host cell of row r (labels_make). */
static void host_cell(const struct see *S, int r, char *buf, size_t len)
{
    snprintf(buf, len, "%s", S->labels ? S->labels[r] : S->files[r].hostname);
}

/* --- notes ------------------------------------------------------------------------ */

/* A growing text. */
struct text {
    char *s;
    size_t len, cap;
    bool oom;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || t->oom)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->len + (size_t)n + 1) * 2;
        char *s = realloc(t->s, cap);
        if (s == NULL) {
            t->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* What is said of the cells of one row of a table: a line per implausible or
 * substituted cell, blank cells grouped by their reason, then the disturbed
 * cells and the cells whose spread is over LMB_SUM_SPREAD_NOTE, each on one
 * line. Counts go into counts[4]: doubtful, substituted, blank, spread. */
static void row_notes(const struct see *S, const struct lmb_sum_table *t, struct column *cols,
                      int r, struct text *out, int counts[4])
{
    char host[300];
    struct text items = { 0 };
    bool done[LMB_SUM_MAX_COLS] = { false };

    host_cell(S, r, host, sizeof host);
    for (int c = 0; c < t->ncols; c++) {
        const struct lmb_sum_cellx *x = &cols[c].x[r];
        if (repeated(t, c))
            continue;
        if (x->doubt[0]) {
            add(out, "  %s: %s%c: %s\n", host, t->cols[c].label, LMB_SUM_MARK_DOUBT, x->doubt);
            counts[0]++;
        }
        if (x->subst[0]) {
            add(out, "  %s: %s%c: %s\n", host, t->cols[c].label, x->mark, x->subst);
            counts[1]++;
        }
        if (x->info[0] && !isnan(x->value))
            add(out, "  %s: %s: %s\n", host, t->cols[c].label, x->info);
    }
    /* Too noisy to trust: one line. */
    for (int c = 0; c < t->ncols; c++) {
        const struct lmb_sum_cellx *x = &cols[c].x[r];
        if (repeated(t, c) || isnan(x->value) || !x->noisy)
            continue;
        if (!x->doubt[0])
            counts[0]++;
        add(&items, "%s%s", items.len ? ", " : "", t->cols[c].label);
        if (x->spread_launches)
            add(&items, " %.0f%% (%zu launches)", x->spread, x->spread_launches);
        else
            add(&items, " %.0f%%", x->spread);
    }
    if (items.len)
        add(out, "  %s: spread over %.0f%%, too noisy to trust (%c): %s\n", host,
            LMB_SUM_SPREAD_DOUBT, LMB_SUM_MARK_DOUBT, items.s);
    items.len = 0;
    /* Blank cells, grouped by reason. */
    for (int c = 0; c < t->ncols; c++) {
        const struct lmb_sum_cellx *x = &cols[c].x[r];
        if (done[c] || repeated(t, c) || !isnan(x->value) || !x->blank[0])
            continue;
        add(out, "  %s: %s", host, t->cols[c].label);
        counts[2]++;
        for (int d = c + 1; d < t->ncols; d++) {
            const struct lmb_sum_cellx *y = &cols[d].x[r];
            if (!done[d] && !repeated(t, d) && isnan(y->value) && strcmp(y->blank, x->blank) == 0) {
                add(out, ", %s", t->cols[d].label);
                done[d] = true;
                counts[2]++;
            }
        }
        add(out, ": blank: %s\n", x->blank);
    }
    for (int c = 0; c < t->ncols; c++)
        if (!repeated(t, c) && !isnan(cols[c].x[r].value) && cols[c].x[r].disturbed)
            add(&items, "%s%s", items.len ? ", " : "", t->cols[c].label);
    if (items.len)
        add(out, "  %s: measured in a disturbed step (other work shared the CPUs): %s\n", host,
            items.s);
    items.len = 0;
    for (int c = 0; c < t->ncols; c++) {
        const struct lmb_sum_cellx *x = &cols[c].x[r];
        if (repeated(t, c) || isnan(x->value) || !(x->spread > LMB_SUM_SPREAD_NOTE) ||
            x->spread > LMB_SUM_SPREAD_DOUBT)
            continue;
        counts[3]++;
        if (x->spread_launches)
            add(&items, "%s%s %.0f%% (%zu launches)", items.len ? ", " : "", t->cols[c].label,
                x->spread, x->spread_launches);
        else
            add(&items, "%s%s %.0f%%", items.len ? ", " : "", t->cols[c].label, x->spread);
    }
    if (items.len)
        add(out, "  %s: spread over %.0f%%: %s\n", host, LMB_SUM_SPREAD_NOTE, items.s);
    free(items.s);
}

/* When the rows' two-ended cells are of different placements (one file's
 * same_cpu beside an lmbench 3 file's unpinned), one line says which. */
static void placement_note(const struct see *S, const struct lmb_sum_table *t,
                           struct column *cols, struct text *out)
{
    struct text who = { 0 };
    const char *first = NULL;
    bool differ = false;

    for (int r = 0; r < S->nfiles; r++) {
        const char *e = NULL;
        char host[300];
        for (int c = 0; c < t->ncols && e == NULL; c++)
            if (cols[c].x[r].rec != NULL)
                e = lmb_rs_pstr(cols[c].x[r].rec, "ends");
        if (e == NULL)
            continue;
        if (first != NULL && strcmp(first, e) != 0)
            differ = true;
        if (first == NULL)
            first = e;
        host_cell(S, r, host, sizeof host);
        add(&who, "%s%s %s", who.len ? ", " : "", host, e);
    }
    if (differ)
        add(out, "  rows of different placements: %s\n", who.s);
    free(who.s);
}

/* When the rows of a column hold figures of different sizes (the largest each
 * file measured), one line per such column says which. */
static void size_notes(const struct see *S, const struct lmb_sum_table *t, struct column *cols,
                       struct text *out)
{
    static const char *const keys[] = { "size_bytes", "msg_bytes" };

    for (int c = 0; c < t->ncols; c++) {
        struct text who = { 0 };
        double first = NAN;
        bool differ = false;
        if (repeated(t, c) || t->cols[c].kind != LMB_CELL_NUM)
            continue;
        for (int r = 0; r < S->nfiles; r++) {
            const struct lmb_rs_record *rec = cols[c].x[r].rec;
            double size = NAN;
            char host[300], b[32];
            for (size_t k = 0; k < 2 && rec != NULL && isnan(size); k++)
                size = lmb_rs_pnum(rec, keys[k]);
            if (isnan(size))
                continue;
            if (!isnan(first) && size != first)
                differ = true;
            if (isnan(first))
                first = size;
            host_cell(S, r, host, sizeof host);
            lmb_sum_size_text(size, b, sizeof b);
            add(&who, "%s%s %s", who.len ? ", " : "", host, b);
        }
        if (differ)
            add(out, "  %s: rows of different sizes: %s\n", t->cols[c].label, who.s);
        free(who.s);
    }
}

/* The run's own warnings for file f, one line each, into out (with prefix). */
static void run_warnings(const struct lmb_rs_file *f, const char *prefix, struct text *out,
                         const int counts[4])
{
    size_t notes = 0, ndist = 0, shown = 0;
    const char *up = lmb_rs_header(f, "uptime");
    struct text names = { 0 };

    for (size_t i = 0; i < f->nwarnings; i++) {
        unsigned line;
        int at = 0;
        /* Lines of an lmbench 3 file that the import did not understand. */
        if (sscanf(f->warnings[i], "line %u: %n", &line, &at) == 1 && at > 0) {
            notes++;
            continue;
        }
        add(out, "%s%s\n", prefix, f->warnings[i]);
    }
    if (up != NULL && strstr(up, "load average:") != NULL && f->cpus_online > 0) {
        double l = atof(strstr(up, "load average:") + 13);
        if (l > 0.5 * f->cpus_online)
            add(out, "%sload average %.2f on %d CPUs when the run started: other work competed "
                "with the benchmarks\n", prefix, l, f->cpus_online);
    }
    for (size_t i = 0; i < f->nsteps; i++) {
        const struct lmb_rs_step *s = &f->steps[i];
        if (!s->disturbed)
            continue;
        if (++ndist > 4)
            continue;
        add(&names, "%s%s", names.len ? ", " : "", s->name ? s->name : "?");
        if (!isnan(s->other_share) && s->other_share > 0)
            add(&names, " (others %.0f%%%s)", 100 * s->other_share,
                s->attempts > 1 ? ", retried" : "");
        else if (s->attempts > 1)
            add(&names, " (retried)");
        shown++;
    }
    if (ndist > 0)
        add(out, "%s%zu of %zu steps disturbed (other work shared their CPUs): %s%s\n", prefix,
            ndist, f->nsteps, names.s ? names.s : "", ndist > shown ? ", ..." : "");
    free(names.s);
    if (counts != NULL && (counts[0] || counts[1] || counts[2] || counts[3])) {
        add(out, "%scells said under their tables:", prefix);
        if (counts[0])
            add(out, " %d implausible (%c),", counts[0], LMB_SUM_MARK_DOUBT);
        if (counts[1])
            add(out, " %d not exactly the column's figure (%c),", counts[1], LMB_SUM_MARK_SUBST);
        if (counts[2])
            add(out, " %d blank,", counts[2]);
        if (counts[3])
            add(out, " %d with a spread over %.0f%%,", counts[3], LMB_SUM_SPREAD_NOTE);
        if (out->s != NULL && out->len > 0)
            out->s[--out->len] = '\0';
        add(out, "\n");
    }
    if (notes > 0)
        add(out, "%s%zu line%s of the file not understood (lmbench import lists them)\n", prefix,
            notes, notes > 1 ? "s" : "");
}

/* --- context ---------------------------------------------------------------------- */

/* An escape sequence when the page is coloured, else "". */
static const char *sgr(const struct see *S, const char *seq)
{
    return S->colour ? seq : "";
}


static const char *ctx_or(const struct lmb_rs_file *f, const char *key, const char *dflt)
{
    const char *v = lmb_rs_context(f, key);
    return v && *v ? v : dflt;
}

/* The context of f in a few lines, each starting with the prefix (the first
 * with first). */
static void context_lines(const struct see *S, const struct lmb_rs_file *f, const char *first,
                          const char *prefix, struct text *out)
{
    const char *pf = first;
    char mit[200], mem[64] = "?";
    bool only = false;
    const char *place = lmb_sum_placement(&S->opts, f, &only);
    const char *v;

    if (f->ncontext == 0) {
        add(out, "%scontext unknown%s", pf, f->format == LMB_RS_RAW3 ? " (an lmbench 3 file)" : "");
    } else {
        add(out, "%sCPU %s, microcode %s\n", pf, ctx_or(f, "cpu_model", "?"),
            ctx_or(f, "microcode", "?"));
        pf = prefix;
        add(out, "%s%s socket(s), %s cores, %s threads, SMT %s; governor %s, boost %s\n", pf,
            ctx_or(f, "sockets", "?"), ctx_or(f, "cores", "?"), ctx_or(f, "threads", "?"),
            ctx_or(f, "smt", "?"), ctx_or(f, "governor", "?"), ctx_or(f, "boost", "?"));
        if ((v = lmb_rs_context(f, "memory_bytes")) != NULL)
            snprintf(mem, sizeof mem, "%.1f GiB", atof(v) / (1024.0 * 1024 * 1024));
        add(out, "%sTHP %s (defrag %s); NUMA nodes %s; memory %s; virtualization %s\n", pf,
            ctx_or(f, "thp", "?"), ctx_or(f, "thp_defrag", "?"), ctx_or(f, "numa_nodes", "?"),
            mem, ctx_or(f, "virtualization", "?"));
        v = ctx_or(f, "cmdline", "?");
        add(out, "%skernel %.60s%s; cmdline %.60s%s\n", pf, ctx_or(f, "kernel", "?"),
            strlen(ctx_or(f, "kernel", "?")) > 60 ? "..." : "", v, strlen(v) > 60 ? "..." : "");
        lmb_sum_mitigations(lmb_rs_context(f, "mitigations"), mit, sizeof mit);
        add(out, "%smitigations: %s", pf, mit);
    }
    if (place != NULL)
        add(out, "%s%stwo-ended cells: %s%s", f->ncontext ? "\n" : "; ", f->ncontext ? prefix : "",
            place, S->opts.ends ? " (--ends)" : only ? " (the file's only placement)" : "");
    add(out, "\n");
}

static void print_context(const struct see *S, FILE *out)
{
    size_t w = 0;

    for (int r = 0; r < S->nfiles; r++) {
        char host[300];
        host_cell(S, r, host, sizeof host);
        if (strlen(host) > w)
            w = strlen(host);
    }
    if (w > 20)
        w = 20;
    fprintf(out, "\n%sContext%s\n-------\n", sgr(S, LMB_SGR_BOLD), sgr(S, LMB_SGR_OFF));
    for (int r = 0; r < S->nfiles; r++) {
        char host[300], named[310], first[320], prefix[32];
        struct text t = { 0 };
        host_cell(S, r, host, sizeof host);
        snprintf(named, sizeof named, "%s:", host);
        snprintf(first, sizeof first, "%-*s ", (int)w + 1, named);
        snprintf(prefix, sizeof prefix, "%*s", (int)w + 2, "");
        context_lines(S, &S->files[r], first, prefix, &t);
        if (t.s)
            fputs(t.s, out);
        free(t.s);
    }
}

/* --- the page ---------------------------------------------------------------------- */

/* The colour of a numeric cell: yellow when implausible (?), faint when not
 * exactly the column's figure (*) or measured in a disturbed step; NULL for a
 * plain cell. */
static const char *cell_colour(const struct see *S, const struct lmb_sum_cellx *x, double shown)
{
    if (!S->colour || isnan(shown))
        return NULL;
    if (x->mark == LMB_SUM_MARK_DOUBT)
        return LMB_SGR_WARN;
    if (x->mark == LMB_SUM_MARK_SUBST || x->disturbed)
        return LMB_SGR_DIM;
    return NULL;
}

/* Appends " " and cell, right-aligned in width, to line at o; coloured with
 * seq when not NULL (the padding stays outside the colour). Returns the new
 * length. */
static size_t put_cell(char *line, size_t o, size_t len, int width, const char *cell,
                       const char *seq)
{
    int pad = width - (int)strlen(cell);

    if (o >= len)
        return o;
    if (seq == NULL || cell[0] == '\0')
        return o + (size_t)snprintf(line + o, len - o, " %*s", width, cell);
    return o + (size_t)snprintf(line + o, len - o, " %*s%s%s%s", pad > 0 ? pad : 0, "", seq, cell,
                                LMB_SGR_OFF);
}

/* A number in a cell of the column's width, with its mark inside the width;
 * a blank one shows word when there is one ("one node"). */
static void num_cell(const struct see *S, const struct lmb_sum_table *t,
                     const struct lmb_sum_col *col, double v, char mark, const char *word,
                     char *cell, size_t len)
{
    int d = col->digits ? col->digits : col->width;
    size_t n;

    if (mark && d + 1 > col->width)
        d = col->width - 1;
    if (isnan(v) && word != NULL && word[0]) {
        snprintf(cell, len, "%.*s", col->width, word);
        return;
    }
    if (S->percent && t->percent && v >= 10 && v < 1e5)
        snprintf(cell, len, "%.0f", v);   /* whole percents */
    else
        lmb_sum_format(v, d, cell, len);
    n = strlen(cell);
    if (mark && n > 0 && n + 1 < len) {
        cell[n] = mark;
        cell[n + 1] = '\0';
    }
}

/* What the text and Markdown pages share. A table with data: its columns
 * (ok false when one could not be made: the rows are then left out), the
 * indexes of those shown (idx, nidx: all of them but in a Modern table) and
 * its title; false when the table has nothing to show. */
static bool table_begin(const struct see *S, const struct lmb_sum_table *t,
                        struct column *cols, bool *ok, char *title, size_t len, int *idx,
                        int *nidx)
{
    if (!table_has_data(S, t))
        return false;
    *nidx = lmb_sum_shown_cols(&S->opts, S->files, S->nfiles, t, idx);
    *ok = true;
    for (int c = 0; c < t->ncols; c++)
        if (column_of(S, t, c, &cols[c]) != 0)
            *ok = false;
    lmb_sum_title(t, S->percent, title, len);
    return true;
}

/* The notes under a table, after those of its rows. */
static void table_notes(const struct see *S, const struct lmb_sum_table *t,
                        struct column *cols, struct text *notes)
{
    placement_note(S, t, cols, notes);
    size_notes(S, t, cols, notes);
}

/* The page's warnings: each file's (counts: the notes its rows had), and what
 * the marks mean when a table used one. */
static void page_warnings(const struct see *S, int (*counts)[4], bool marks, struct text *warn)
{
    for (int r = 0; r < S->nfiles; r++) {
        char host[300], prefix[320];
        host_cell(S, r, host, sizeof host);
        snprintf(prefix, sizeof prefix, "%s: ", host);
        run_warnings(&S->files[r], prefix, warn, counts[r]);
    }
    if (marks)
        add(warn, "Marks: %c implausible, %c not exactly the column's figure (another size, "
            "case or copy); each is said under its table\n", LMB_SUM_MARK_DOUBT, LMB_SUM_MARK_SUBST);
}

static void print_matrices(const struct see *S, FILE *out, bool md);
static void md_text(FILE *out, const char *s);
static void md_items(FILE *out, const char *text, bool cont);

static void print_text(const struct see *S, FILE *out)
{
    int counts[S->nfiles > 0 ? S->nfiles : 1][4];
    struct text warn = { 0 };
    bool marks = false;

    memset(counts, 0, sizeof counts);
    fputs("\n                 L M B E N C H  3 . 0   S U M M A R Y\n"
          "                 ------------------------------------\n", out);
    fprintf(out, "\t\t (lmbench %s%s)\n", LMB_VERSION, S->percent ? ", percent of the best" : "");
    print_context(S, out);
    for (size_t ti = 0; ti < lmb_sum_ntables; ti++) {
        const struct lmb_sum_table *t = &lmb_sum_tables[ti];
        struct column cols[LMB_SUM_MAX_COLS];
        struct text notes = { 0 };
        char title[200], head[3][512], dashes[512];
        int idx[LMB_SUM_MAX_COLS], nidx, nhead = 0, rule = t->rule;
        bool ok;

        if (!table_begin(S, t, cols, &ok, title, sizeof title, idx, &nidx))
            continue;
        if (lmb_sum_dynamic(t)) {
            nhead = lmb_sum_dynamic_head(t, idx, nidx, head, dashes, sizeof dashes);
            rule = (int)strlen(dashes);
        }
        fputc('\n', out);
        fprintf(out, "%s%s%s\n", sgr(S, LMB_SGR_BOLD), title, sgr(S, LMB_SGR_OFF));
        if (t->title2)
            fprintf(out, "%s\n", t->title2);
        for (int i = 0; i < rule; i++)
            fputc('-', out);
        fputc('\n', out);
        if (lmb_sum_dynamic(t)) {
            for (int i = 0; i < nhead; i++)
                fprintf(out, "%s\n", head[i]);
            fprintf(out, "%s\n", dashes);
        } else {
            for (int i = 0; i < 3 && t->head[i]; i++)
                fprintf(out, "%s\n", t->head[i]);
            fprintf(out, "%s\n", t->dashes);
        }
        for (int r = 0; r < S->nfiles && ok; r++) {
            const struct lmb_rs_file *f = &S->files[r];
            char line[1024], os[160], cell[96], text[200], host[300];
            size_t o;
            lmb_sum_os(f, os, sizeof os);
            host_cell(S, r, host, sizeof host);
            o = (size_t)snprintf(line, sizeof line, "%-9.9s %-13.13s", host, os);
            for (int k = 0; k < nidx && o < sizeof line; k++) {
                int c = idx[k];
                const struct lmb_sum_col *col = &t->cols[c];
                const struct lmb_sum_cellx *x = &cols[c].x[r];
                switch (col->kind) {
                case LMB_CELL_DESC:
                    lmb_sum_cell(&S->opts, f, col, text, sizeof text);
                    o += (size_t)snprintf(line + o, sizeof line - o, " %*.*s", col->width,
                                          col->width, text);
                    break;
                case LMB_CELL_TEXT:
                    lmb_sum_cell(&S->opts, f, col, text, sizeof text);
                    if (S->colour && text[0])
                        o += (size_t)snprintf(line + o, sizeof line - o, "  %s%s%s", LMB_SGR_DIM,
                                              text, LMB_SGR_OFF);
                    else
                        o += (size_t)snprintf(line + o, sizeof line - o, "  %s", text);
                    break;
                case LMB_CELL_INT:
                    if (!isnan(cols[c].shown[r]))
                        snprintf(cell, sizeof cell, "%.0f", cols[c].shown[r]);
                    else
                        cell[0] = '\0';
                    o += (size_t)snprintf(line + o, sizeof line - o, " %*s", col->width, cell);
                    break;
                case LMB_CELL_NUM:
                    num_cell(S, t, col, cols[c].shown[r], isnan(cols[c].shown[r]) ? 0 : x->mark,
                             x->word, cell, sizeof cell);
                    if (x->mark && !isnan(cols[c].shown[r]) && !repeated(t, c))
                        marks = true;
                    o = put_cell(line, o, sizeof line, col->width, cell,
                                 cell_colour(S, x, cols[c].shown[r]));
                    break;
                }
            }
            if (o >= sizeof line)
                o = sizeof line - 1;
            while (o > 0 && line[o - 1] == ' ')
                line[--o] = '\0';
            fprintf(out, "%s\n", line);
            row_notes(S, t, cols, r, &notes, counts[r]);
        }
        if (ok)
            table_notes(S, t, cols, &notes);
        /* Under the table, after a blank line: a reader of lmbench 3's page
         * stops at the blank line, and finds the table as it was. */
        if (notes.len)
            fprintf(out, "\n%s", notes.s);
        free(notes.s);
        for (int c = 0; c < t->ncols; c++)
            column_free(&cols[c]);
    }
    if (S->matrix)
        print_matrices(S, out, false);
    page_warnings(S, counts, marks, &warn);
    if (warn.len)
        fprintf(out, "\n%sWarnings%s\n--------\n%s", sgr(S, LMB_SGR_BOLD), sgr(S, LMB_SGR_OFF),
                warn.s);
    free(warn.s);
}

/* --- matrices (--matrix) ------------------------------------------------------------ */

#define MATRIX_CELL 7

/* A matrix cell: the figure (5 wide) and the relation's letter; "-" on the
 * diagonal of a core-to-core matrix, "x" unmeasured, "" none. */
static void matrix_cell(const struct lmb_sum_matrix *m, int i, int j, char *cell, size_t len)
{
    size_t at = (size_t)i * (size_t)m->n + (size_t)j;
    char num[16];

    if (i == j && m->axis[0] == 'C') {
        snprintf(cell, len, "-");
    } else if (!isnan(m->v[at])) {
        lmb_sum_format(m->v[at], MATRIX_CELL - 2, num, sizeof num);
        snprintf(cell, len, "%s%c", num, m->rel[at] ? m->rel[at] : ' ');
    } else if (m->why[at] != NULL) {
        snprintf(cell, len, "x%s", m->rel[at] ? " " : "");
    } else {
        cell[0] = '\0';
    }
}

/* The lines under a matrix: what its letters mean, and its unmeasured
 * cells grouped by reason (at most 8 named per reason). */
static void matrix_legend(const struct lmb_sum_matrix *m, struct text *out)
{
    bool rel = false, *done;
    size_t nn = (size_t)m->n * (size_t)m->n;

    for (size_t i = 0; i < nn; i++)
        rel |= m->rel[i] != 0;
    if (rel)
        add(out, "  s: SMT siblings, c: cores of one socket, S: two sockets, u: relation unknown\n");
    if (m->unmeasured == 0)
        return;
    done = calloc(nn ? nn : 1, sizeof *done);
    if (done == NULL)
        return;
    for (size_t a = 0; a < nn; a++) {
        int named = 0, more = 0;
        if (done[a] || m->why[a] == NULL)
            continue;
        add(out, "  x unmeasured:");
        for (size_t b = a; b < nn; b++) {
            int i = (int)(b / (size_t)m->n), j = (int)(b % (size_t)m->n);
            if (done[b] || m->why[b] == NULL || strcmp(m->why[b], m->why[a]) != 0)
                continue;
            done[b] = true;
            if (m->axis[0] == 'C' && i > j)
                continue;   /* a pair once */
            if (named++ < 8)
                add(out, "%s %d-%d", named > 1 ? "," : "", m->ids[i], m->ids[j]);
            else
                more++;
        }
        if (more)
            add(out, " and %d more", more);
        add(out, ": %s\n", m->why[a]);
    }
    free(done);
}

/* Each file's matrices as text (or, with md, as Markdown tables). */
static void print_matrices(const struct see *S, FILE *out, bool md)
{
    for (int r = 0; r < S->nfiles; r++) {
        struct lmb_sum_matrix *m;
        char host[300];
        int nm = lmb_sum_matrices(&S->files[r], &m);
        host_cell(S, r, host, sizeof host);
        for (int k = 0; k < nm; k++) {
            char title[800], cell[48];
            struct text legend = { 0 };
            snprintf(title, sizeof title, "%s in %s - %s is better: %s", m[k].title, m[k].unit,
                     m[k].higher_better ? "bigger" : "smaller", host);
            matrix_legend(&m[k], &legend);
            if (md) {
                fputs("\n## ", out);
                md_text(out, title);
                fprintf(out, "\n\n| %s |", m[k].axis);
                for (int j = 0; j < m[k].n; j++)
                    fprintf(out, " %d |", m[k].ids[j]);
                fputs("\n|---:|", out);
                for (int j = 0; j < m[k].n; j++)
                    fputs("---:|", out);
                fputc('\n', out);
                for (int i = 0; i < m[k].n; i++) {
                    fprintf(out, "| %d |", m[k].ids[i]);
                    for (int j = 0; j < m[k].n; j++) {
                        size_t n;
                        matrix_cell(&m[k], i, j, cell, sizeof cell);
                        for (n = strlen(cell); n > 0 && cell[n - 1] == ' '; n--)
                            cell[n - 1] = '\0';
                        fprintf(out, " %s |", cell);
                    }
                    fputc('\n', out);
                }
                if (legend.len) {
                    fputc('\n', out);
                    md_items(out, legend.s, false);
                }
            } else {
                size_t tl = strlen(title);
                fprintf(out, "\n%s%s%s\n", sgr(S, LMB_SGR_BOLD), title, sgr(S, LMB_SGR_OFF));
                for (size_t i = 0; i < tl; i++)
                    fputc('-', out);
                fprintf(out, "\n%5s", m[k].axis);
                for (int j = 0; j < m[k].n; j++)
                    fprintf(out, " %*d", MATRIX_CELL - 1, m[k].ids[j]);
                fputc('\n', out);
                for (int i = 0; i < m[k].n; i++) {
                    char line[8192];
                    size_t o = (size_t)snprintf(line, sizeof line, "%5d", m[k].ids[i]);
                    for (int j = 0; j < m[k].n && o < sizeof line; j++) {
                        matrix_cell(&m[k], i, j, cell, sizeof cell);
                        /* The letter after the number, numbers aligned. */
                        o += (size_t)snprintf(line + o, sizeof line - o, " %*s", MATRIX_CELL,
                                              cell);
                    }
                    if (o >= sizeof line)
                        o = sizeof line - 1;
                    while (o > 0 && line[o - 1] == ' ')
                        line[--o] = '\0';
                    fprintf(out, "%s\n", line);
                }
                if (legend.len)
                    fprintf(out, "\n%s", legend.s);
            }
            free(legend.s);
        }
        lmb_sum_matrices_free(m, nm > 0 ? nm : 0);
    }
}

/* --- Markdown ------------------------------------------------------------------------ */

/* n bytes of s as the text of a heading or a list item, with what Markdown
 * would read as markup escaped (emphasis, code, links, HTML, '|'), leading
 * blanks left out. */
static void md_textn(FILE *out, const char *s, size_t n)
{
    const char *e = s + n;

    while (s < e && *s == ' ')
        s++;
    for (; s < e && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (strchr("\\*`[]<>|", c) != NULL)
            fputc('\\', out);
        fputc(c < 0x20 || c == 0x7f ? ' ' : (int)c, out);
    }
}

static void md_text(FILE *out, const char *s)
{
    md_textn(out, s, strlen(s));
}

/* Each line of text as a list item ("- " and the line, its indent left out);
 * with cont, as lines that continue the item above ("  " and the line). */
static void md_items(FILE *out, const char *text, bool cont)
{
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        fputs(cont ? "  " : "- ", out);
        md_textn(out, line, n);
        fputc('\n', out);
        line = nl ? nl + 1 : NULL;
    }
}

/* A number of a Markdown cell, not held to lmbench 3's widths: 4 significant
 * digits, whole numbers from 10000 on; its mark after it; "" for none. */
static void md_num(double v, char mark, char *cell, size_t len)
{
    size_t n;

    if (isnan(v)) {
        snprintf(cell, len, "%s", "");
        return;
    }
    snprintf(cell, len, fabs(v) >= 1e4 ? "%.0f" : "%.4g", v);
    n = strlen(cell);
    if (mark && n + 1 < len) {
        cell[n] = mark;
        cell[n + 1] = '\0';
    }
}

/* The page as Markdown (GitHub, CommonMark tables): a heading, the context as
 * a list, then each table of the text page under its title's heading: a header
 * row of the column labels, the alignment row (text left, numbers right), one
 * row per file (numbers by md_num, marks kept; every cell through
 * lmb_md_cell), and the notes under it as a list; the warnings last. */
static void print_markdown(const struct see *S, FILE *out)
{
    int counts[S->nfiles > 0 ? S->nfiles : 1][4];
    struct text warn = { 0 };
    bool marks = false;

    memset(counts, 0, sizeof counts);
    fprintf(out, "# lmbench summary (lmbench %s%s)\n\n## Context\n\n", LMB_VERSION,
            S->percent ? ", percent of the best" : "");
    for (int r = 0; r < S->nfiles; r++) {
        char host[300];
        struct text t = { 0 };
        host_cell(S, r, host, sizeof host);
        context_lines(S, &S->files[r], "", "", &t);
        fputs("- ", out);
        md_text(out, host);
        fputs(": ", out);
        /* The first line after the host, the others continuing its item. */
        if (t.s != NULL) {
            size_t n = strcspn(t.s, "\n");
            md_textn(out, t.s, n);
            fputc('\n', out);
            if (t.s[n] == '\n' && t.s[n + 1] != '\0')
                md_items(out, t.s + n + 1, true);
        } else {
            fputc('\n', out);
        }
        free(t.s);
    }
    for (size_t ti = 0; ti < lmb_sum_ntables; ti++) {
        const struct lmb_sum_table *t = &lmb_sum_tables[ti];
        struct column cols[LMB_SUM_MAX_COLS];
        struct text notes = { 0 };
        char title[200];
        int idx[LMB_SUM_MAX_COLS], nidx;
        bool ok;

        if (!table_begin(S, t, cols, &ok, title, sizeof title, idx, &nidx))
            continue;
        fputs("\n## ", out);
        md_text(out, title);
        fputs("\n\n", out);
        if (t->title2) {
            md_text(out, t->title2);
            fputs("\n\n", out);
        }
        fputs("| Host | OS |", out);
        for (int k = 0; k < nidx; k++) {
            fputc(' ', out);
            lmb_md_cell(out, t->cols[idx[k]].label);
            fputs(" |", out);
        }
        fputs("\n|---|---|", out);
        for (int k = 0; k < nidx; k++)
            fputs(t->cols[idx[k]].kind == LMB_CELL_NUM || t->cols[idx[k]].kind == LMB_CELL_INT
                      ? "---:|" : "---|",
                  out);
        fputc('\n', out);
        for (int r = 0; r < S->nfiles && ok; r++) {
            const struct lmb_rs_file *f = &S->files[r];
            char os[160], cell[200], host[300];
            lmb_sum_os(f, os, sizeof os);
            host_cell(S, r, host, sizeof host);
            fputs("| ", out);
            lmb_md_cell(out, host);
            fputs(" | ", out);
            lmb_md_cell(out, os);
            fputs(" |", out);
            for (int k = 0; k < nidx; k++) {
                int c = idx[k];
                const struct lmb_sum_col *col = &t->cols[c];
                const struct lmb_sum_cellx *x = &cols[c].x[r];
                cell[0] = '\0';
                switch (col->kind) {
                case LMB_CELL_DESC:
                case LMB_CELL_TEXT:
                    lmb_sum_cell(&S->opts, f, col, cell, sizeof cell);
                    break;
                case LMB_CELL_INT:
                    if (!isnan(cols[c].shown[r]))
                        snprintf(cell, sizeof cell, "%.0f", cols[c].shown[r]);
                    break;
                case LMB_CELL_NUM:
                    md_num(cols[c].shown[r], isnan(cols[c].shown[r]) ? 0 : x->mark, cell,
                           sizeof cell);
                    if (isnan(cols[c].shown[r]) && x->word[0])
                        snprintf(cell, sizeof cell, "%s", x->word);
                    if (x->mark && !isnan(cols[c].shown[r]) && !repeated(t, c))
                        marks = true;
                    break;
                }
                fputc(' ', out);
                lmb_md_cell(out, cell);
                fputs(cell[0] ? " |" : "|", out);
            }
            fputc('\n', out);
            row_notes(S, t, cols, r, &notes, counts[r]);
        }
        if (ok)
            table_notes(S, t, cols, &notes);
        if (notes.len) {
            fputc('\n', out);
            md_items(out, notes.s, false);
        }
        free(notes.s);
        for (int c = 0; c < t->ncols; c++)
            column_free(&cols[c]);
    }
    if (S->matrix)
        print_matrices(S, out, true);
    page_warnings(S, counts, marks, &warn);
    if (warn.len) {
        fputs("\n## Warnings\n\n", out);
        md_items(out, warn.s, false);
    }
    free(warn.s);
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

/* What is said of a cell, in one text ("" when nothing). */
static void cell_note(const struct lmb_sum_cellx *x, char *buf, size_t len)
{
    size_t o = 0;
    const char *part[3] = { x->doubt, x->subst, isnan(x->value) ? x->blank : "" };
    char spread[64] = "";

    buf[0] = '\0';
    if (!isnan(x->value) && x->spread > LMB_SUM_SPREAD_NOTE)
        snprintf(spread, sizeof spread, "spread %.0f%%%s%s", x->spread,
                 x->spread_launches ? " between launches" : "",
                 x->noisy ? ", too noisy to trust" : "");
    for (int i = 0; i < 4; i++) {
        const char *p = i < 3 ? part[i] : spread;
        if (*p && o < len)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "; " : "", p);
    }
    if (x->disturbed && !isnan(x->value) && o < len)
        o += (size_t)snprintf(buf + o, len - o, "%sdisturbed step", o ? "; " : "");
    if (x->info[0] && !isnan(x->value) && o < len)
        snprintf(buf + o, len - o, "%s%s", o ? "; " : "", x->info);
}

static void csv_row(FILE *out, const struct lmb_rs_file *f, const char *table, const char *col,
                    const char *unit)
{
    char os[160];

    lmb_sum_os(f, os, sizeof os);
    csv_field(out, f->path);
    fputc(',', out);
    csv_field(out, f->hostname);
    fputc(',', out);
    csv_field(out, os);
    fprintf(out, ",%s,%s,%s,", table, col, unit);
}

static const char *const context_keys[] = {
    "cpu_model", "microcode", "sockets", "cores", "threads", "smt", "governor", "boost",
    "thp", "thp_defrag", "kernel", "cmdline", "mitigations", "virtualization",
    "numa_nodes", "memory_bytes",
};
#define NCONTEXT_KEYS (sizeof context_keys / sizeof context_keys[0])

/* The run's warnings of file r as separate lines (no prefix). */
static void warnings_of(const struct see *S, int r, struct text *t)
{
    run_warnings(&S->files[r], "", t, NULL);
}

/* The relation of a matrix cell by its letter (summary.h), NULL for none. */
static const char *relation_of(char c)
{
    return c == 's' ? "smt" : c == 'c' ? "core" : c == 'S' ? "socket" : c == 'u' ? "unknown" : NULL;
}

/* --matrix in CSV: one line per cell that has a figure or a reason, table
 * "matrix:KEY", column "ROW->COLUMN" (CPU or node numbers), the unit, the
 * value (empty when unmeasured), no mark, the note: the pair's relation
 * (core-to-core, each pair once, lower CPU first) or the reason it was not
 * measured. */
static void csv_matrices(const struct see *S, FILE *out)
{
    for (int r = 0; r < S->nfiles; r++) {
        struct lmb_sum_matrix *m;
        int nm = lmb_sum_matrices(&S->files[r], &m);
        for (int k = 0; k < nm; k++) {
            char table[48];
            /* A core-to-core matrix holds each pair twice: once here. */
            bool sym = strcmp(m[k].axis, "CPU") == 0;
            snprintf(table, sizeof table, "matrix:%s", m[k].key);
            for (int i = 0; i < m[k].n; i++)
                for (int j = 0; j < m[k].n; j++) {
                    size_t at = (size_t)i * (size_t)m[k].n + (size_t)j;
                    const char *rel = relation_of(m[k].rel[at]);
                    char col[32];
                    if ((isnan(m[k].v[at]) && m[k].why[at] == NULL) || (sym && j < i))
                        continue;
                    snprintf(col, sizeof col, "%d->%d", m[k].ids[i], m[k].ids[j]);
                    csv_row(out, &S->files[r], table, col, m[k].unit);
                    if (!isnan(m[k].v[at]))
                        fprintf(out, "%.10g", m[k].v[at]);
                    fputs(",,", out);
                    csv_field(out, m[k].why[at] != NULL ? m[k].why[at] : rel ? rel : "");
                    fputc('\n', out);
                }
        }
        lmb_sum_matrices_free(m, nm > 0 ? nm : 0);
    }
}

static void print_csv(const struct see *S, FILE *out)
{
    fputs("file,host,os,table,column,unit,value,mark,note\n", out);
    for (int r = 0; r < S->nfiles; r++) {
        const struct lmb_rs_file *f = &S->files[r];
        bool only;
        const char *place = lmb_sum_placement(&S->opts, f, &only);
        for (size_t k = 0; k < NCONTEXT_KEYS; k++) {
            const char *v = lmb_rs_context(f, context_keys[k]);
            if (v == NULL)
                continue;
            csv_row(out, f, "context", context_keys[k], "");
            csv_field(out, v);
            fputs(",,\n", out);
        }
        if (place != NULL) {
            csv_row(out, f, "context", "placement", "");
            csv_field(out, place);
            fputs(",,\n", out);
        }
    }
    for (size_t ti = 0; ti < lmb_sum_ntables; ti++) {
        const struct lmb_sum_table *t = &lmb_sum_tables[ti];
        int idx[LMB_SUM_MAX_COLS], nidx = lmb_sum_shown_cols(&S->opts, S->files, S->nfiles, t,
                                                             idx);
        for (int ci = 0; ci < nidx; ci++) {
            int c = idx[ci];
            const struct lmb_sum_col *col = &t->cols[c];
            struct column k;
            if (column_of(S, t, c, &k) != 0)
                continue;
            for (int r = 0; r < S->nfiles; r++) {
                const struct lmb_rs_file *f = &S->files[r];
                char text[200], note[800];
                const char *unit = col->kind == LMB_CELL_NUM
                                       ? (S->percent && t->percent ? "%" : t->unit) : "";
                csv_row(out, f, t->key, col->key, unit);
                if (col->kind == LMB_CELL_TEXT || col->kind == LMB_CELL_DESC) {
                    lmb_sum_cell(&S->opts, f, col, text, sizeof text);
                    csv_field(out, text);
                } else if (!isnan(k.shown[r])) {
                    fprintf(out, "%.10g", k.shown[r]);
                }
                fputc(',', out);
                if (k.x[r].mark && !isnan(k.shown[r]))
                    fputc(k.x[r].mark, out);
                fputc(',', out);
                cell_note(&k.x[r], note, sizeof note);
                csv_field(out, note);
                fputc('\n', out);
            }
            column_free(&k);
        }
    }
    if (S->matrix)
        csv_matrices(S, out);
    for (int r = 0; r < S->nfiles; r++) {
        struct text w = { 0 };
        warnings_of(S, r, &w);
        for (char *line = w.s, *nl; line && *line; line = nl + 1) {
            nl = strchr(line, '\n');
            if (nl == NULL)
                break;
            *nl = '\0';
            csv_row(out, &S->files[r], "warnings", "run", "");
            csv_field(out, line);
            fputs(",,\n", out);
        }
        free(w.s);
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

static json_t *json_context(const struct lmb_rs_file *f)
{
    json_t *o;

    if (f->ncontext == 0)
        return json_null();
    o = json_object();
    for (size_t k = 0; k < NCONTEXT_KEYS; k++) {
        const char *v = lmb_rs_context(f, context_keys[k]);
        json_object_set_new(o, context_keys[k], v ? json_string(v) : json_null());
    }
    return o;
}

static json_t *json_warnings(const struct see *S, int r)
{
    json_t *a = json_array();
    struct text w = { 0 };

    warnings_of(S, r, &w);
    for (char *line = w.s, *nl; line && *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (nl == NULL)
            break;
        *nl = '\0';
        json_array_append_new(a, json_string(line));
    }
    free(w.s);
    return a;
}

static void json_note(json_t *notes, const char *col, const char *kind, const char *text)
{
    json_array_append_new(notes, json_pack("{ssssss}", "column", col, "kind", kind, "text", text));
}

/* --matrix: [{file, key, title, unit, better, axis, ids, values (rows of
 * numbers or null), relations (rows of "smt"... or null), unmeasured ({row,
 * column, reason})}]. */
static json_t *json_matrices(const struct see *S)
{
    json_t *all = json_array();

    for (int r = 0; r < S->nfiles; r++) {
        struct lmb_sum_matrix *m;
        int nm = lmb_sum_matrices(&S->files[r], &m);
        for (int k = 0; k < nm; k++) {
            json_t *ids = json_array(), *vals = json_array(), *rels = json_array(),
                   *un = json_array();
            for (int i = 0; i < m[k].n; i++) {
                json_t *vr = json_array(), *rr = json_array();
                json_array_append_new(ids, json_integer(m[k].ids[i]));
                for (int j = 0; j < m[k].n; j++) {
                    size_t at = (size_t)i * (size_t)m[k].n + (size_t)j;
                    char c = m[k].rel[at];
                    json_array_append_new(vr, isnan(m[k].v[at]) ? json_null()
                                                                : json_real(m[k].v[at]));
                    json_array_append_new(rr, relation_of(c) ? json_string(relation_of(c))
                                                             : json_null());
                    if (m[k].why[at] != NULL)
                        json_array_append_new(un, json_pack("{sisiss}", "row", m[k].ids[i],
                                                            "column", m[k].ids[j], "reason",
                                                            m[k].why[at]));
                }
                json_array_append_new(vals, vr);
                json_array_append_new(rels, rr);
            }
            json_array_append_new(all, json_pack("{sisssssssssssosososo}", "file", r, "key",
                                                 m[k].key, "title", m[k].title, "unit", m[k].unit,
                                                 "better", m[k].higher_better ? "higher" : "lower",
                                                 "axis", m[k].axis, "ids", ids, "values", vals,
                                                 "relations", rels, "unmeasured", un));
        }
        lmb_sum_matrices_free(m, nm > 0 ? nm : 0);
    }
    return all;
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
        const char *place = lmb_sum_placement(&S->opts, f, NULL);
        char os[160], plat[160];
        lmb_sum_os(f, os, sizeof os);
        lmb_sum_platform(f, plat, sizeof plat);
        json_array_append_new(files, json_pack("{sssssssssosssososo}", "path", f->path, "host",
                                               f->hostname, "os", os, "platform", plat,
                                               "run_id",
                                               f->run_id ? json_string(f->run_id) : json_null(),
                                               "format", format_name(f->format),
                                               "context", json_context(f),
                                               "placement",
                                               place ? json_string(place) : json_null(),
                                               "warnings", json_warnings(S, r)));
    }
    json_object_set_new(doc, "files", files);
    for (size_t ti = 0; ti < lmb_sum_ntables; ti++) {
        const struct lmb_sum_table *t = &lmb_sum_tables[ti];
        json_t *jt, *cols, *rows;
        struct column k[LMB_SUM_MAX_COLS];
        char title[200];
        bool ok = true;
        int idx[LMB_SUM_MAX_COLS], nidx = lmb_sum_shown_cols(&S->opts, S->files, S->nfiles, t,
                                                             idx);
        /* A Modern table with nothing to show is left out. */
        if (nidx == 0)
            continue;
        jt = json_object();
        cols = json_array();
        rows = json_array();
        json_object_set_new(jt, "key", json_string(t->key));
        lmb_sum_title(t, S->percent, title, sizeof title);
        json_object_set_new(jt, "title", json_string(title));
        json_object_set_new(jt, "unit", json_string(S->percent && t->percent ? "%" : t->unit));
        json_object_set_new(jt, "better", t->unit[0] ? json_string(t->higher_better ? "higher"
                                                                                     : "lower")
                                                     : json_null());
        memset(k, 0, sizeof k);
        for (int ci = 0; ci < nidx; ci++) {
            int c = idx[ci];
            json_array_append_new(cols, json_pack("{ssss}", "key", t->cols[c].key, "label",
                                                  t->cols[c].label));
            if (column_of(S, t, c, &k[c]) != 0)
                ok = false;
        }
        for (int r = 0; r < S->nfiles && ok; r++) {
            json_t *row = json_object(), *cells = json_object(), *marks = json_object(),
                   *notes = json_array(), *spread = json_object();
            json_object_set_new(row, "file", json_integer(r));
            for (int ci = 0; ci < nidx; ci++) {
                int c = idx[ci];
                const struct lmb_sum_col *col = &t->cols[c];
                const struct lmb_sum_cellx *x = &k[c].x[r];
                char text[200];
                if (col->kind == LMB_CELL_TEXT || col->kind == LMB_CELL_DESC) {
                    lmb_sum_cell(&S->opts, &S->files[r], col, text, sizeof text);
                    json_object_set_new(cells, col->key, json_string(text));
                    continue;
                }
                json_object_set_new(cells, col->key, !isnan(k[c].shown[r])
                                                         ? json_real(k[c].shown[r]) : json_null());
                if (x->mark && !isnan(k[c].shown[r])) {
                    char m[2] = { x->mark, '\0' };
                    json_object_set_new(marks, col->key, json_string(m));
                }
                if (!isnan(x->spread))
                    json_object_set_new(spread, col->key, json_real(x->spread));
                if (x->doubt[0])
                    json_note(notes, col->key, "implausible", x->doubt);
                if (x->subst[0])
                    json_note(notes, col->key, "substituted", x->subst);
                if (isnan(x->value) && x->blank[0])
                    json_note(notes, col->key, "blank", x->blank);
                if (!isnan(x->value) && x->disturbed)
                    json_note(notes, col->key, "disturbed", "measured in a disturbed step");
                if (!isnan(x->value) && x->info[0])
                    json_note(notes, col->key, "info", x->info);
                if (!isnan(x->value) && x->spread > LMB_SUM_SPREAD_NOTE) {
                    char sp[96];
                    snprintf(sp, sizeof sp, "spread %.0f%%%s%s", x->spread,
                             x->spread_launches ? " between launches" : "",
                             x->noisy ? ", too noisy to trust" : "");
                    json_note(notes, col->key, x->noisy ? "implausible" : "spread", sp);
                }
            }
            json_object_set_new(row, "cells", cells);
            json_object_set_new(row, "marks", marks);
            json_object_set_new(row, "spread_percent", spread);
            json_object_set_new(row, "notes", notes);
            json_array_append_new(rows, row);
        }
        for (int ci = 0; ci < nidx; ci++)
            column_free(&k[idx[ci]]);
        json_object_set_new(jt, "columns", cols);
        json_object_set_new(jt, "rows", rows);
        json_array_append_new(tables, jt);
    }
    json_object_set_new(doc, "tables", tables);
    if (S->matrix)
        json_object_set_new(doc, "matrices", json_matrices(S));
    rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    fputc('\n', out);
    json_decref(doc);
    return rc;
}
#endif

int lmb_suite_see(int argc, char **argv)
{
    struct see S = { .opts = { .ends = NULL } };
    bool json = false, csv = false, markdown = false;
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
        } else if (strcmp(a, "--matrix") == 0) {
            S.matrix = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--csv") == 0) {
            csv = true;
        } else if (strcmp(a, "--markdown") == 0) {
            markdown = true;
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
    if (json + csv + markdown > 1) {
        free(args);
        return lmb_verb_usage_error("see", usage, "%s and %s exclude each other",
                                    json ? "--json" : "--csv", markdown ? "--markdown" : "--csv");
    }
#ifndef LMB_HAVE_JANSSON
    if (json) {
        free(args);
        fprintf(stderr, "lmbench see: --json: skipped: built without jansson\n");
        return 3;
    }
#endif
    if (nargs == 0) {
        struct stat st;
        if (stat("results", &st) != 0 && errno == ENOENT) {
            free(args);
            fprintf(stderr, "lmbench see: no ./results directory here: `lmbench run` measures "
                    "this machine and writes its results there (then run `lmbench see` "
                    "again), or name the results files or directories to show\n");
            return 1;
        }
    }
    rc = lmb_rs_load_args("see", nargs, args, &S.files, &S.nfiles);
    free(args);
    if (nargs == 0 && S.nfiles == 0 && rc == 1)
        fprintf(stderr, "lmbench see: `lmbench run` writes its results files into ./results\n");
    labels_make(&S);
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
        } else if (markdown) {
            print_markdown(&S, stdout);
        } else {
            S.colour = lmb_want_colour(stdout);
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
    free(S.labels);
    return rc;
}
