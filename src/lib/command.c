// SPDX-License-Identifier: MIT
/* Running one benchmark command: the table of common options (parsing, usage,
 * help and run.config all come from it), set-up of clock, placement and report,
 * the checks of every output stream, and the exit status. */
#include "lib/command.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/deadline.h"
#include "lib/launch.h"
#include "lib/mem.h"
#include "lib/sizes.h"

const char *lmb_category_name(enum lmb_category c)
{
    switch (c) {
    case LMB_CAT_HARDWARE: return "hardware";
    case LMB_CAT_OS: return "os";
    case LMB_CAT_NETWORK: return "network";
    case LMB_CAT_CALIBRATION: return "calibration";
    }
    return "?";
}

const struct lmb_variant *lmb_find_variant(const struct lmb_bench *b, const char *name)
{
    for (size_t i = 0; i < b->nvariants; i++)
        if (strcmp(b->variants[i].name, name) == 0)
            return &b->variants[i];
    return NULL;
}

static int opt_index(const struct lmb_bench *b, char flag)
{
    for (size_t i = 0; i < b->noptions; i++)
        if (b->options[i].flag == flag)
            return (int)i;
    return -1;
}

bool lmb_opt_given(const struct lmb_ctx *ctx, char flag)
{
    int i = opt_index(ctx->bench, flag);
    return i >= 0 && ctx->optv[i].count > 0;
}

const char *lmb_opt_arg(const struct lmb_ctx *ctx, char flag)
{
    int i = opt_index(ctx->bench, flag);
    return i >= 0 ? ctx->optv[i].arg : NULL;
}

/* --- the common options ------------------------------------------------------ */

enum opt_id {
    O_P, O_W, O_N, O_JSON, O_THREADS, O_PAGES, O_CPUS, O_TIMEOUT, O_MINTIME, O_LAUNCHES, O_LIST, O_HELP
};

struct common_opt {
    enum opt_id id;
    char flag;              /* short form, or 0 */
    const char *name;       /* long form without "--", or NULL */
    const char *arg;        /* value name; NULL for a switch */
    unsigned need;          /* the LMB_USE_* bit a command must have, or 0 */
    const char *help;
};

static const struct common_opt common_opts[] = {
    { O_P, 'P', NULL, "parallelism", LMB_USE_P,
      "run that many copies at once, in lockstep (default 1)" },
    { O_W, 'W', NULL, "warmup", LMB_USE_W,
      "microseconds to run the loop before calibrating (default 0)" },
    { O_N, 'N', NULL, "repetitions", LMB_USE_N, "timed repetitions (default 11)" },
    { O_JSON, 0, "json", NULL, 0, "one JSON document on stdout instead of the classic lines" },
    { O_THREADS, 0, "threads", NULL, LMB_USE_THREADS,
      "run the partner ends as threads of each copy, not processes" },
    { O_PAGES, 0, "pages", "KIND", LMB_USE_PAGES,
      "the buffers' pages: default (what the kernel gives), 4k (base pages, asked for; the "
      "default), thp (transparent huge pages, asked for), 2m or 1g (hugetlbfs pages, from "
      "those reserved)" },
    { O_CPUS, 0, "cpus", "LIST", 0, "run on these CPUs only (e.g. 0,2-3)" },
    { O_TIMEOUT, 0, "timeout", "SEC",
      0, "end the whole command within SEC seconds (+2 s at most); what is not measured by "
         "then is reported as timed out (default: 300 s per measurement; 0: never)" },
    { O_MINTIME, 0, "min-time", "SEC", 0,
      "at least SEC seconds per timed interval (overrides ENOUGH)" },
    { O_LAUNCHES, 0, "launches", "K", 0,
      "measure in K fresh processes, one after another (default 1)" },
    { O_LIST, 0, "list", NULL, 0, "list the variants" },
    { O_HELP, 'h', "help", NULL, 0, "show this help" },
};
#define NCOMMON (sizeof common_opts / sizeof common_opts[0])

static bool applies(const struct lmb_bench *b, const struct common_opt *o)
{
    /* --launches applies to every measurement; a server or tool refuses it. */
    if (o->id == O_LAUNCHES && (b->common & LMB_NO_LAUNCHES))
        return false;
    return o->need == 0 || (b->common & o->need) != 0;
}

/* What parsing found besides the settings. */
struct parsed {
    bool help, list;
    bool timeout;           /* --timeout given */
    int npos;
    char **pos;
    bool *launches_arg;     /* per argv index: part of a --launches option */
};

static int set_common(struct lmb_ctx *ctx, struct parsed *p, const struct common_opt *o,
                      const char *v, char *err, size_t errlen)
{
    uint64_t x;
    char why[200];

    switch (o->id) {
    case O_P:
        if (lmb_parse_uint(v, 1, LMB_MAX_PARALLEL, &x, why, sizeof why) != 0)
            goto bad;
        ctx->opt.parallel = (unsigned)x;
        return 0;
    case O_W:
        if (lmb_parse_uint(v, 0, 3600ULL * 1000000ULL, &x, why, sizeof why) != 0)
            goto bad;
        ctx->opt.warmup_us = x;
        return 0;
    case O_N:
        if (lmb_parse_uint(v, 1, LMB_MAX_REPETITIONS, &x, why, sizeof why) != 0)
            goto bad;
        ctx->opt.repetitions = (unsigned)x;
        return 0;
    case O_JSON:
        ctx->opt.json = true;
        return 0;
    case O_THREADS:
        ctx->opt.threads = true;
        return 0;
    case O_PAGES: {
        enum lmb_pages k;
        if (lmb_pages_parse(v, &k, why, sizeof why) != 0)
            goto bad;
        ctx->opt.pages = (int)k;
        return 0;
    }
    case O_CPUS:
        ctx->opt.cpus = v;
        return 0;
    case O_TIMEOUT:
        if (lmb_parse_nonneg_double(v, &ctx->opt.timeout_s, why, sizeof why) != 0)
            goto bad;
        p->timeout = true;
        return 0;
    case O_MINTIME:
        if (lmb_parse_nonneg_double(v, &ctx->opt.min_time_s, why, sizeof why) != 0)
            goto bad;
        if (ctx->opt.min_time_s > 3600.0) {
            snprintf(why, sizeof why, "expected seconds from 0 to 3600");
            goto bad;
        }
        return 0;
    case O_LAUNCHES:
        if (lmb_parse_uint(v, 1, LMB_MAX_LAUNCHES, &x, why, sizeof why) != 0)
            goto bad;
        ctx->opt.launches = (unsigned)x;
        return 0;
    case O_LIST:
        p->list = true;
        return 0;
    case O_HELP:
        p->help = true;
        return 0;
    }
    return 0;
bad:
    if (o->flag)
        snprintf(err, errlen, "-%c: %s", o->flag, why);
    else
        snprintf(err, errlen, "--%s: %s", o->name, why);
    return -1;
}

/* The settings of run.config, from the options and the environment. */
static void record_settings(struct lmb_ctx *ctx, const char *interval_source)
{
    struct lmb_report *r = &ctx->report;
    const struct lmb_common *o = &ctx->opt;

    lmb_report_setting(r, (struct lmb_setting){ "parallel", LMB_SET_INT, o->parallel, 0, NULL });
    lmb_report_setting(r, (struct lmb_setting){ "warmup_us", LMB_SET_INT,
                                                (long long)o->warmup_us, 0, NULL });
    lmb_report_setting(r, (struct lmb_setting){ "repetitions", LMB_SET_INT, o->repetitions, 0,
                                                NULL });
    lmb_report_setting(r, (struct lmb_setting){ "timeout_s", LMB_SET_REAL, 0, o->timeout_s, NULL });
    if (!(ctx->bench->common & LMB_NO_LAUNCHES))
        lmb_report_setting(r, (struct lmb_setting){ "launches", LMB_SET_INT, o->launches, 0,
                                                    NULL });
    lmb_report_setting(r, (struct lmb_setting){ "interval_us", LMB_SET_REAL, 0,
                                                (double)ctx->interval_ns / 1e3, NULL });
    lmb_report_setting(r, (struct lmb_setting){ "interval_source", LMB_SET_STR, 0, 0,
                                                interval_source });
    lmb_report_setting(r, (struct lmb_setting){ "sched", LMB_SET_STR, 0, 0,
                                                lmb_sched_policy_name(ctx->sched.policy) });
    lmb_report_setting(r, (struct lmb_setting){ "cpus", o->cpus ? LMB_SET_STR : LMB_SET_NULL, 0,
                                                0, o->cpus });
    if (ctx->bench->common & LMB_USE_THREADS)
        lmb_report_setting(r, (struct lmb_setting){ "threads", LMB_SET_BOOL, o->threads, 0,
                                                    NULL });
    if (ctx->bench->common & LMB_USE_PAGES)
        lmb_report_setting(r, (struct lmb_setting){ "pages", LMB_SET_STR, 0, 0,
                                                    lmb_pages_name((enum lmb_pages)o->pages) });
}

/* --- usage and help ------------------------------------------------------------ */

/* The positional part of the usage with "{variants}" expanded. */
static void print_args(FILE *f, const struct lmb_bench *b)
{
    const char *a = b->args ? b->args : "", *v = strstr(a, "{variants}");

    if (v == NULL) {
        fputs(a, f);
        return;
    }
    fwrite(a, 1, (size_t)(v - a), f);
    for (size_t i = 0; i < b->nvariants; i++)
        fprintf(f, "%s%s", i ? "|" : "", b->variants[i].name);
    fputs(v + strlen("{variants}"), f);
}

/* The usage line shows the short common options that apply (-P, -W, -N; -h is
 * implied), --threads where the partner ends may be threads, --pages where the
 * buffers' pages may be chosen, and the command's own. */
void lmb_print_usage(FILE *f, const struct lmb_bench *b, const char *prog)
{
    fprintf(f, "Usage: %s", prog);
    for (size_t i = 0; i < NCOMMON; i++) {
        const struct common_opt *o = &common_opts[i];
        if (o->flag && o->arg && applies(b, o))
            fprintf(f, " [-%c <%s>]", o->flag, o->arg);
    }
    if (b->common & LMB_USE_THREADS)
        fputs(" [--threads]", f);
    if (b->common & LMB_USE_PAGES)
        fputs(" [--pages " LMB_PAGES_NAMES "]", f);
    for (size_t i = 0; i < b->noptions; i++) {
        if (b->options[i].arg)
            fprintf(f, " [-%c <%s>]", b->options[i].flag, b->options[i].arg);
        else
            fprintf(f, " [-%c]", b->options[i].flag);
    }
    if (b->args && *b->args) {
        fputc(' ', f);
        print_args(f, b);
    }
    fputc('\n', f);
}

void lmb_print_wrapped(FILE *f, size_t col, size_t indent, const char *text)
{
    const char *p = text;
    bool line_start = true;   /* nothing of text on this line yet */

    while (*p != '\0') {
        if (*p == '\n') {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
            line_start = true;
            p++;
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        size_t w = strcspn(p, " \n");
        if (!line_start && col + 1 + w > LMB_HELP_WIDTH) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
            line_start = true;
        }
        if (!line_start) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += w;
        p += w;
        line_start = false;
    }
    fputc('\n', f);
}

void lmb_print_variants(FILE *f, const struct lmb_bench *b)
{
    for (size_t i = 0; i < b->nvariants; i++) {
        int n = fprintf(f, "  %-10s ", b->variants[i].name);
        lmb_print_wrapped(f, n > 0 ? (size_t)n : 0, 13, b->variants[i].description);
    }
}

static void help_line(FILE *f, const char *left, const char *text)
{
    int n = fprintf(f, "  %-18s ", left);
    lmb_print_wrapped(f, n > 0 ? (size_t)n : 0, 21, text);
}

void lmb_print_help(FILE *f, const struct lmb_bench *b, const char *prog)
{
    char left[48];

    lmb_print_usage(f, b, prog);
    /* The usage stays one line (scripts and doc/commands.md read it so);
     * everything after it keeps within LMB_HELP_WIDTH. */
    fprintf(f, "%s.\n", b->summary);
    if (b->help)
        fprintf(f, "\n%s", b->help);
    if (b->nvariants) {
        fputs("\nVariants:\n", f);
        lmb_print_variants(f, b);
    }
    fputs("\nOptions:\n", f);
    /* Short common options first, then the command's own, then the long ones. */
    for (size_t i = 0; i < NCOMMON; i++) {
        const struct common_opt *o = &common_opts[i];
        if (!o->flag || o->name || !applies(b, o))
            continue;
        snprintf(left, sizeof left, "-%c <%s>", o->flag, o->arg);
        help_line(f, left, o->help);
    }
    for (size_t i = 0; i < b->noptions; i++) {
        if (b->options[i].arg)
            snprintf(left, sizeof left, "-%c <%s>", b->options[i].flag, b->options[i].arg);
        else
            snprintf(left, sizeof left, "-%c", b->options[i].flag);
        help_line(f, left, b->options[i].help);
    }
    for (size_t i = 0; i < NCOMMON; i++) {
        const struct common_opt *o = &common_opts[i];
        if (!o->name || !applies(b, o))
            continue;
        if (o->id == O_LIST && b->nvariants == 0)
            continue;
        if (o->flag)
            snprintf(left, sizeof left, "-%c, --%s", o->flag, o->name);
        else if (o->arg)
            snprintf(left, sizeof left, "--%s %s", o->name, o->arg);
        else
            snprintf(left, sizeof left, "--%s", o->name);
        help_line(f, left, o->help);
    }
    fputs("\nEnvironment: ENOUGH (microseconds per timed interval), LMBENCH_SCHED\n"
          "(DEFAULT, SINGLE, BALANCED, UNIQUE or CUSTOM \"list\").\n", f);
    fprintf(f, "Exit status: 0 ok, 1 failed or timed out, 2 bad usage, 3 skipped.\n"
               "See %s(1).\n", b->name);
}

int lmb_usage_error(const struct lmb_ctx *ctx, const char *fmt, ...)
{
    FILE *f = ctx->report.messages ? ctx->report.messages : stderr;
    va_list ap;

    fprintf(f, "%s: ", ctx->prog);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    lmb_print_usage(f, ctx->bench, ctx->prog);
    fflush(f);
    return LMB_EXIT_USAGE;
}

int lmb_swapped_size_error(const struct lmb_ctx *ctx, int argc, char **argv)
{
    char cmdline[512], q[LMB_QUOTE_BUF], err[128];
    uint64_t size;
    size_t used;

    if (argc < 2 || lmb_parse_size(argv[0], &size, err, sizeof err) == 0 ||
        lmb_find_variant(ctx->bench, argv[0]) == NULL ||
        lmb_parse_size(argv[1], &size, err, sizeof err) != 0)
        return 0;
    /* The command line in the right order: the size, the word, the rest. */
    used = (size_t)snprintf(cmdline, sizeof cmdline, "%s %s %s", ctx->prog,
                            lmb_quote(argv[1], q, sizeof q), argv[0]);
    for (int i = 2; i < argc && used < sizeof cmdline; i++) {
        int n = snprintf(cmdline + used, sizeof cmdline - used, " %s",
                         lmb_quote(argv[i], q, sizeof q));
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return lmb_usage_error(ctx, "bad size '%s': the size comes first; did you mean '%s'?",
                           argv[0], cmdline);
}

int lmb_report_unmeasured(struct lmb_ctx *ctx, struct lmb_record *rec, enum lmb_status s,
                          const char *fmt, ...)
{
    struct lmb_result res;
    va_list ap;

    memset(&res, 0, sizeof res);
    res.status = s;
    va_start(ap, fmt);
    vsnprintf(res.reason, sizeof res.reason, fmt, ap);
    va_end(ap);
    lmb_report_add(&ctx->report, rec, &res);
    return LMB_EXIT_OK;
}

/* --- parsing -------------------------------------------------------------------- */

static const struct common_opt *find_long(const char *arg, size_t *namelen)
{
    for (size_t i = 0; i < NCOMMON; i++) {
        const struct common_opt *o = &common_opts[i];
        size_t n;
        if (!o->name)
            continue;
        n = strlen(o->name);
        if (strncmp(arg, o->name, n) == 0 && (arg[n] == '\0' || (arg[n] == '=' && o->arg))) {
            *namelen = n;
            return o;
        }
    }
    return NULL;
}

static const struct common_opt *find_short(char flag)
{
    for (size_t i = 0; i < NCOMMON; i++)
        if (common_opts[i].flag == flag)
            return &common_opts[i];
    return NULL;
}

static int parse_args(struct lmb_ctx *ctx, int argc, char **argv, struct parsed *p,
                      char *err, size_t errlen)
{
    const struct lmb_bench *b = ctx->bench;
    bool only_pos = false;
    char q[LMB_QUOTE_BUF];

    p->pos = calloc((size_t)argc + 1, sizeof *p->pos);
    p->launches_arg = calloc((size_t)argc + 1, sizeof *p->launches_arg);
    if (p->pos == NULL || p->launches_arg == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (only_pos || a[0] != '-' || a[1] == '\0') {
            p->pos[p->npos++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_pos = true;
            continue;
        }
        if (a[1] == '-') {
            size_t n;
            const struct common_opt *o = find_long(a + 2, &n);
            const char *v = NULL;
            if (o == NULL || !applies(b, o)) {
                if (o != NULL)
                    snprintf(err, errlen, "option --%s does not apply to %s", o->name, b->name);
                else
                    snprintf(err, errlen, "unknown option '%s'", lmb_quote(a, q, sizeof q));
                return -1;
            }
            if (o->id == O_LAUNCHES)
                p->launches_arg[i] = true;
            if (o->arg) {
                if (a[2 + n] == '=')
                    v = a + 3 + n;
                else if (i + 1 < argc)
                    v = argv[++i];
                else {
                    snprintf(err, errlen, "option --%s needs a value", o->name);
                    return -1;
                }
            }
            if (o->id == O_LAUNCHES)
                p->launches_arg[i] = true;
            if (set_common(ctx, p, o, v, err, errlen) != 0)
                return -1;
            continue;
        }
        /* A cluster of short options: -t, -P4, -P 4, -tP 4. */
        for (const char *c = a + 1; *c; c++) {
            const struct common_opt *o = find_short(*c);
            const char *v = NULL;
            int oi;
            if (o != NULL) {
                if (!applies(b, o)) {
                    snprintf(err, errlen, "option -%c does not apply to %s", *c, b->name);
                    return -1;
                }
                if (o->arg) {
                    v = c[1] ? c + 1 : (i + 1 < argc ? argv[++i] : NULL);
                    if (v == NULL) {
                        snprintf(err, errlen, "option -%c needs a value", *c);
                        return -1;
                    }
                }
                if (set_common(ctx, p, o, v, err, errlen) != 0)
                    return -1;
                if (o->arg)
                    break;
                continue;
            }
            oi = opt_index(b, *c);
            if (oi < 0) {
                char one[2] = { *c, '\0' };
                snprintf(err, errlen, "unknown option '-%s'", lmb_quote(one, q, sizeof q));
                return -1;
            }
            ctx->optv[oi].count++;
            if (b->options[oi].arg) {
                v = c[1] ? c + 1 : (i + 1 < argc ? argv[++i] : NULL);
                if (v == NULL) {
                    snprintf(err, errlen, "option -%c needs a value", *c);
                    return -1;
                }
                ctx->optv[oi].arg = v;
                break;
            }
        }
    }
    return 0;
}

int lmb_env_check(char *err, size_t errlen)
{
    struct lmb_sched s;
    struct lmb_clock c = { .overhead_ns = 1, .granularity_ns = 1 };
    uint64_t ns;

    if (lmb_sched_setup(&s, getenv("LMBENCH_SCHED"), NULL, err, errlen) != 0)
        return -1;
    return lmb_interval_ns(&c, 0.0, getenv("ENOUGH"), &ns, err, errlen);
}

/* Checks every stream the command wrote; a failure is said on the messages
 * stream (when it works) and makes the exit status 1. */
static int check_streams(const struct lmb_ctx *ctx, const struct lmb_streams *io, int rc,
                         int first_errno)
{
    int e = first_errno;
    bool ok = true;

    ok &= lmb_stream_ok(io->out, &e);
    ok &= lmb_stream_ok(io->classic, &e);
    ok &= lmb_stream_ok(io->json, &e);
    if (ok && e == 0) {
        /* Messages that could not be written are results not reported too. */
        if (!lmb_stream_ok(io->messages, NULL) && (rc == LMB_EXIT_OK || rc == LMB_EXIT_SKIPPED))
            return LMB_EXIT_FAILED;
        return rc;
    }
    if (io->messages != NULL) {
        fprintf(io->messages, "%s: cannot write its output: %s\n", ctx->prog,
                strerror(e ? e : EIO));
        fflush(io->messages);
    }
    return rc == LMB_EXIT_USAGE ? rc : LMB_EXIT_FAILED;
}

/* This process's number when it is an earlier launch of another's
 * --launches (LMBENCH_LAUNCH=i), else 0. */
static unsigned launch_number(void)
{
    const char *v = getenv(LMB_LAUNCH_ENV);
    uint64_t x;
    char why[100];

    if (v == NULL || *v == '\0')
        return 0;
    if (lmb_parse_uint(v, 1, LMB_MAX_LAUNCHES, &x, why, sizeof why) != 0)
        return LMB_MAX_LAUNCHES;   /* set, whatever it holds: never launch again */
    return (unsigned)x;
}

/* --launches K with K > 1: the earlier launches' records, the stream that
 * keeps what the last one says, and the arguments they are given. */
struct launching {
    bool on;
    struct lmb_launch_pool pool;
    struct lmb_launcher L;
};

/* Runs launches 1 .. K-1 (the arguments without --launches) and points the
 * report at their pool and the messages at the tee. Returns 0 to go on and
 * measure, else the command's exit status. */
static int launches_start(struct lmb_ctx *ctx, struct launching *lw, const struct parsed *p,
                          int argc, char **argv, FILE *messages)
{
    char **args = calloc((size_t)argc + 1, sizeof *args);
    int nargs = 0, rc;
    FILE *tee;

    if (args == NULL || lmb_launch_pool_init(&lw->pool, ctx->opt.launches) != 0) {
        free(args);
        if (messages)
            fprintf(messages, "%s: out of memory\n", ctx->prog);
        return LMB_EXIT_FAILED;
    }
    lw->on = true;
    for (int i = 1; i < argc; i++)
        if (!p->launches_arg[i])
            args[nargs++] = argv[i];
    lmb_launcher_init(&lw->L, ctx->prog, ctx->opt.launches, messages);
    /* The launches share this command's deadline (they are given the same
     * --timeout too, which alone would give each its own). */
    if (lmb_deadline_export(ctx->opt.deadline_s) != 0 && messages)
        fprintf(messages, "%s: cannot pass the deadline to the launches: %s\n", ctx->prog,
                strerror(errno));
    rc = lmb_launcher_run(&lw->L, ctx->bench->name, args, nargs, &lw->pool);
    (void)lmb_deadline_export(0);
    free(args);
    if (rc != 0)
        return rc;
    ctx->report.pool = &lw->pool;
    /* A launch that gave nothing is a failure of the command, whatever the
     * others measured. */
    ctx->report.counts[LMB_FAILED] += lw->L.lost;
    tee = lmb_launcher_tee(&lw->L);
    if (tee != NULL)
        ctx->report.messages = tee;
    return 0;
}

/* After the last launch: says which records only earlier launches measured,
 * passes on the earlier launches' messages, frees. */
static void launches_end(struct lmb_ctx *ctx, struct launching *lw, FILE *messages)
{
    if (!lw->on)
        return;
    ctx->report.messages = messages;
    if (ctx->report.pool != NULL) {
        for (size_t i = 0; i < lw->pool.n; i++) {
            const struct lmb_pool_entry *e = &lw->pool.e[i];
            unsigned which[LMB_MAX_LAUNCHES], n = 0;
            char desc[512], list[256];
            if (e->taken)
                continue;
            for (unsigned j = 0; j + 1 < lw->pool.k; j++)
                if (e->present[j])
                    which[n++] = j + 1;
            lmb_launch_key_describe(e->key, desc, sizeof desc);
            lmb_launch_list_text(which, n, list, sizeof list);
            lmb_report_warn(&ctx->report, "%s: measured by launch%s %s of %u but not by the last; "
                                          "not reported", desc[0] ? desc : ctx->bench->name,
                            n > 1 ? "es" : "", list, lw->pool.k);
        }
        ctx->report.pool = NULL;
    }
    lmb_launcher_finish(&lw->L);
    lmb_launch_pool_free(&lw->pool);
    lw->on = false;
}

/* The deadline of --timeout SEC: this command's start + SEC, or the
 * launching command's when it comes first (an earlier launch of
 * --launches); 0 when there is none. */
static double command_deadline(const struct lmb_ctx *ctx, const struct parsed *p, double started)
{
    double d = 0, inherited = ctx->opt.launch > 0 ? lmb_deadline_inherited() : 0;

    if (p->timeout && ctx->opt.timeout_s > 0)
        d = started + ctx->opt.timeout_s;
    if (inherited > 0 && (d == 0 || inherited < d))
        d = inherited;
    return d;
}

/* After the backstop fired: one timeout record for what was not finished. */
static int stopped_by_backstop(struct lmb_ctx *ctx)
{
    struct lmb_record r;

    lmb_record_init(&r, ctx->bench->name, "", LMB_UNIT_US);
    return lmb_report_unmeasured(ctx, &r, LMB_TIMEOUT,
                                 "stopped: the command's --timeout of %g s ran out (and %g s "
                                 "more) while it measured; what it had not reported is lost",
                                 ctx->opt.timeout_s, LMB_BACKSTOP_GRACE_S);
}

/* The launches and the benchmark's main, within the backstop of --timeout
 * (deadline.h) when it was given. */
static int run_bounded(struct lmb_ctx *ctx, struct launching *lw, const struct parsed *p,
                       int argc, char **argv, FILE *messages)
{
    sigjmp_buf jb;
    int rc;

    if (ctx->opt.deadline_s > 0) {
        if (sigsetjmp(jb, 1) != 0)
            return stopped_by_backstop(ctx);
        lmb_backstop_arm(&jb, ctx->opt.deadline_s,
                         "lmbench: --timeout ran out and the command did not end; stopped\n");
    }
    rc = ctx->opt.launches > 1 ? launches_start(ctx, lw, p, argc, argv, messages) : LMB_EXIT_OK;
    if (rc == LMB_EXIT_OK)
        rc = ctx->bench->main(ctx, p->npos, p->pos);
    lmb_backstop_leave();
    return rc;
}

int lmb_command_run(const struct lmb_bench *b, const char *prog, int argc, char **argv,
                    const struct lmb_streams *io)
{
    double started = lmb_mono_s();
    struct launching lw = { .on = false };
    struct lmb_ctx *ctx;
    struct lmb_streams use = *io;
    struct parsed p = { 0 };
    char err[512];
    const char *why_not, *enough, *source;
    int rc;

    ctx = calloc(1, sizeof *ctx);
    if (ctx != NULL && b->noptions > 0)
        ctx->optv = calloc(b->noptions, sizeof *ctx->optv);
    if (ctx == NULL || (b->noptions > 0 && ctx->optv == NULL)) {
        if (io->messages)
            fprintf(io->messages, "%s: out of memory\n", prog);
        if (ctx)
            free(ctx->optv);
        free(ctx);
        return LMB_EXIT_FAILED;
    }
    lmb_cleanup_init();
    ctx->bench = b;
    ctx->prog = prog;
    ctx->opt.parallel = 1;
    ctx->opt.repetitions = LMB_DEFAULT_REPETITIONS;
    ctx->opt.timeout_s = LMB_DEFAULT_TIMEOUT_S;
    ctx->opt.launches = 1;
    ctx->opt.launch = launch_number();
    ctx->report.messages = io->messages;   /* for usage errors before the report opens */

    if (parse_args(ctx, argc, argv, &p, err, sizeof err) != 0) {
        rc = lmb_usage_error(ctx, "%s", err);
        goto done;
    }
    if (p.help) {
        lmb_print_help(io->out, b, prog);
        rc = LMB_EXIT_OK;
        goto done;
    }
    if (p.list) {
        lmb_print_variants(io->out, b);
        rc = LMB_EXIT_OK;
        goto done;
    }
    if (ctx->opt.json && use.json == NULL) {
        /* --json: the document replaces the classic lines on stdout. */
        use.json = io->out;
        use.classic = NULL;
    }
    if (use.json != NULL && !lmb_have_json()) {
        if (io->messages)
            fprintf(io->messages, "%s: --json: this lmbench was built without jansson\n", prog);
        rc = LMB_EXIT_SKIPPED;
        goto done;
    }
    /* An earlier launch of another's --launches never launches again. */
    if (ctx->opt.launch > 0)
        ctx->opt.launches = 1;
    if (ctx->opt.launches > 1 && !lmb_have_json()) {
        if (io->messages)
            fprintf(io->messages, "%s: --launches: this lmbench was built without jansson\n",
                    prog);
        rc = LMB_EXIT_SKIPPED;
        goto done;
    }
    if (lmb_sched_setup(&ctx->sched, getenv("LMBENCH_SCHED"), ctx->opt.cpus, err, sizeof err) != 0) {
        rc = lmb_usage_error(ctx, "%s", err);
        goto done;
    }
    /* Every buffer the command (and each copy it forks) maps on "its" pages. */
    if (b->common & LMB_USE_PAGES)
        lmb_pages_choose((enum lmb_pages)ctx->opt.pages);
    lmb_clock_system(&ctx->clock);
    ctx->opt.deadline_s = command_deadline(ctx, &p, started);
    enough = getenv("ENOUGH");
    if (lmb_interval_ns(&ctx->clock, ctx->opt.min_time_s, enough, &ctx->interval_ns, err,
                        sizeof err) != 0) {
        rc = lmb_usage_error(ctx, "%s", err);
        goto done;
    }
    source = ctx->opt.min_time_s > 0 ? "--min-time" : (enough && *enough) ? "ENOUGH" : "default";

    lmb_report_open(&ctx->report, prog, &use);
    ctx->report.clock = &ctx->clock;
    record_settings(ctx, source);

    why_not = b->supported ? b->supported() : NULL;
    if (why_not != NULL) {
        struct lmb_record r;
        lmb_record_init(&r, b->name, "", LMB_UNIT_US);
        rc = lmb_report_unmeasured(ctx, &r, LMB_SKIPPED, "%s", why_not);
    } else {
        rc = run_bounded(ctx, &lw, &p, argc, argv, io->messages);
        launches_end(ctx, &lw, io->messages);
    }
    if (rc == LMB_EXIT_OK) {
        if (use.json != NULL) {
            int jr = lmb_report_print_json(&ctx->report, prog, argc - 1, argv + 1);
            if (jr != 0 && ctx->report.write_errno == 0 && io->messages) {
                fprintf(io->messages, "%s: could not make the JSON document (out of memory)\n",
                        prog);
                rc = LMB_EXIT_FAILED;
            }
        }
        if (rc == LMB_EXIT_OK)
            rc = lmb_report_exit_status(&ctx->report);
    }
    rc = check_streams(ctx, &use, rc, ctx->report.write_errno);
    lmb_backstop_disarm();
    lmb_report_close(&ctx->report);
    free(p.pos);
    free(p.launches_arg);
    free(ctx->optv);
    free(ctx);
    return rc;
done:
    rc = check_streams(ctx, &use, rc, 0);
    free(p.pos);
    free(p.launches_arg);
    free(ctx->optv);
    free(ctx);
    return rc;
}

int lmb_command_main(const struct lmb_bench *b, const char *prog, int argc, char **argv)
{
    struct lmb_streams io = {
        .out = stdout,
        .classic = b->classic_on_stdout ? stdout : stderr,
        .messages = stderr,
        .json = NULL,
    };

    return lmb_command_run(b, prog, argc, argv, &io);
}

/* --- the standard streams ------------------------------------------------------- */

void lmb_guard_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int n = open("/dev/null", O_RDONLY);
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

int lmb_finish_std_streams(const char *prog, int rc)
{
    int e = 0;
    bool out_ok = lmb_stream_ok(stdout, &e);
    bool err_ok = lmb_stream_ok(stderr, &e);

    if (out_ok && err_ok)
        return rc;
    if (rc != LMB_EXIT_OK && rc != LMB_EXIT_SKIPPED)
        return rc;   /* already failed, and said why */
    if (err_ok) {
        fprintf(stderr, "%s: cannot write to standard output: %s\n", prog, strerror(e));
        fflush(stderr);
    }
    return LMB_EXIT_FAILED;
}
