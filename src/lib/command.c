// SPDX-License-Identifier: MIT
/* Running one benchmark command: common options, usage and help generated from
 * the descriptor, set-up of the clock, placement and report, exit status. */
#include "lib/command.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cleanup.h"
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

void lmb_print_usage(FILE *f, const struct lmb_bench *b, const char *prog)
{
    fprintf(f, "Usage: %s", prog);
    if (b->common & LMB_USE_P)
        fputs(" [-P <parallelism>]", f);
    if (b->common & LMB_USE_W)
        fputs(" [-W <warmup>]", f);
    if (b->common & LMB_USE_N)
        fputs(" [-N <repetitions>]", f);
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

void lmb_print_variants(FILE *f, const struct lmb_bench *b)
{
    for (size_t i = 0; i < b->nvariants; i++)
        fprintf(f, "  %-10s %s\n", b->variants[i].name, b->variants[i].description);
}

void lmb_print_help(FILE *f, const struct lmb_bench *b, const char *prog)
{
    lmb_print_usage(f, b, prog);
    fprintf(f, "%s.\n", b->summary);
    if (b->help)
        fprintf(f, "\n%s", b->help);
    if (b->nvariants) {
        fputs("\nVariants:\n", f);
        lmb_print_variants(f, b);
    }
    fputs("\nOptions:\n", f);
    if (b->common & LMB_USE_P)
        fputs("  -P <parallelism>   run that many copies at once (default 1)\n", f);
    if (b->common & LMB_USE_W)
        fputs("  -W <warmup>        run the loop this many microseconds before timing (default 0)\n", f);
    if (b->common & LMB_USE_N)
        fprintf(f, "  -N <repetitions>   timed repetitions (default %d)\n", LMB_DEFAULT_REPETITIONS);
    for (size_t i = 0; i < b->noptions; i++) {
        char left[40];
        if (b->options[i].arg)
            snprintf(left, sizeof left, "-%c <%s>", b->options[i].flag, b->options[i].arg);
        else
            snprintf(left, sizeof left, "-%c", b->options[i].flag);
        fprintf(f, "  %-18s %s\n", left, b->options[i].help);
    }
    fputs("  --json             print one JSON document on stdout instead of the classic lines\n"
          "  --cpus LIST        run on these CPUs only (e.g. 0,2-3)\n", f);
    fprintf(f, "  --timeout SEC      give up on a measurement after SEC seconds (default %g; 0: never)\n",
            LMB_DEFAULT_TIMEOUT_S);
    fputs("  --min-time SEC     make each timed interval last at least SEC seconds (overrides ENOUGH)\n"
          "  --list             list the variants\n"
          "  -h, --help         show this help\n"
          "\nEnvironment: ENOUGH (microseconds per timed interval), LMBENCH_SCHED\n"
          "(DEFAULT, SINGLE, BALANCED, UNIQUE or CUSTOM \"list\").\n", f);
    fprintf(f, "Exit status: 0 ok, 1 failed or timed out, 2 bad usage, 3 skipped.\n"
               "See %s(1).\n", b->name);
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

int lmb_usage_error(const struct lmb_ctx *ctx, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", ctx->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    lmb_print_usage(stderr, ctx->bench, ctx->prog);
    return LMB_EXIT_USAGE;
}

struct parsed {
    const char *cpus;
    bool help, list;
    int npos;
    char **pos;
};

/* A long option's value: "--name=value" or the next argument. */
static const char *long_value(const char *arg, const char *name, int argc, char **argv, int *i)
{
    size_t n = strlen(name);

    if (arg[n] == '=')
        return arg + n + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static int set_common(struct lmb_ctx *ctx, char flag, const char *v, char *err, size_t errlen)
{
    uint64_t x;
    char why[160];
    unsigned need = flag == 'P' ? LMB_USE_P : flag == 'W' ? LMB_USE_W : LMB_USE_N;

    if (!(ctx->bench->common & need)) {
        snprintf(err, errlen, "option -%c does not apply to %s", flag, ctx->bench->name);
        return -1;
    }
    switch (flag) {
    case 'P':
        if (lmb_parse_uint(v, 1, LMB_MAX_PARALLEL, &x, why, sizeof why) != 0)
            goto bad;
        ctx->opt.parallel = (unsigned)x;
        break;
    case 'W':
        if (lmb_parse_uint(v, 0, 3600ULL * 1000000ULL, &x, why, sizeof why) != 0)
            goto bad;
        ctx->opt.warmup_us = x;
        break;
    case 'N':
        if (lmb_parse_uint(v, 1, LMB_MAX_REPETITIONS, &x, why, sizeof why) != 0)
            goto bad;
        ctx->opt.repetitions = (unsigned)x;
        break;
    }
    return 0;
bad:
    snprintf(err, errlen, "-%c: %s", flag, why);
    return -1;
}

static int parse_args(struct lmb_ctx *ctx, int argc, char **argv, struct parsed *p,
                      char *err, size_t errlen)
{
    const struct lmb_bench *b = ctx->bench;
    bool only_pos = false;
    char why[160];

    p->pos = calloc((size_t)argc + 1, sizeof *p->pos);
    if (p->pos == NULL) {
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
            const char *v;
            if (strcmp(a, "--json") == 0) {
                ctx->opt.json = true;
            } else if (strcmp(a, "--help") == 0) {
                p->help = true;
            } else if (strcmp(a, "--list") == 0) {
                p->list = true;
            } else if (strncmp(a, "--cpus", 6) == 0 && (a[6] == '\0' || a[6] == '=')) {
                if ((v = long_value(a, "--cpus", argc, argv, &i)) == NULL)
                    goto missing;
                p->cpus = v;
            } else if (strncmp(a, "--timeout", 9) == 0 && (a[9] == '\0' || a[9] == '=')) {
                if ((v = long_value(a, "--timeout", argc, argv, &i)) == NULL)
                    goto missing;
                if (lmb_parse_nonneg_double(v, &ctx->opt.timeout_s, why, sizeof why) != 0) {
                    snprintf(err, errlen, "--timeout: %s", why);
                    return -1;
                }
            } else if (strncmp(a, "--min-time", 10) == 0 && (a[10] == '\0' || a[10] == '=')) {
                if ((v = long_value(a, "--min-time", argc, argv, &i)) == NULL)
                    goto missing;
                if (lmb_parse_nonneg_double(v, &ctx->opt.min_time_s, why, sizeof why) != 0 ||
                    ctx->opt.min_time_s > 3600.0) {
                    snprintf(err, errlen, "--min-time: expected seconds from 0 to 3600, got '%s'", v);
                    return -1;
                }
            } else {
                snprintf(err, errlen, "unknown option '%s'", a);
                return -1;
            }
            continue;
        }
        /* A cluster of short options: -t, -P4, -P 4, -tP 4. */
        for (const char *c = a + 1; *c; c++) {
            const char *v = NULL;
            int oi;
            if (*c == 'h') {
                p->help = true;
                continue;
            }
            if (*c == 'P' || *c == 'W' || *c == 'N') {
                v = c[1] ? c + 1 : (i + 1 < argc ? argv[++i] : NULL);
                if (v == NULL) {
                    snprintf(err, errlen, "option -%c needs a value", *c);
                    return -1;
                }
                if (set_common(ctx, *c, v, err, errlen) != 0)
                    return -1;
                break;
            }
            oi = opt_index(b, *c);
            if (oi < 0) {
                snprintf(err, errlen, "unknown option '-%c'", *c);
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
missing:
    snprintf(err, errlen, "option '%s' needs a value", argv[argc - 1]);
    return -1;
}

int lmb_command_main(const struct lmb_bench *b, const char *prog, int argc, char **argv)
{
    struct lmb_ctx *ctx;
    struct parsed p = { 0 };
    char err[512];
    const char *why_not, *enough;
    int rc;

    ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return LMB_EXIT_FAILED;
    }
    lmb_cleanup_init();
    ctx->bench = b;
    ctx->prog = prog;
    ctx->opt.parallel = 1;
    ctx->opt.repetitions = LMB_DEFAULT_REPETITIONS;
    ctx->opt.timeout_s = LMB_DEFAULT_TIMEOUT_S;

    if (parse_args(ctx, argc, argv, &p, err, sizeof err) != 0) {
        rc = lmb_usage_error(ctx, "%s", err);
        goto done;
    }
    if (p.help) {
        lmb_print_help(stdout, b, prog);
        rc = LMB_EXIT_OK;
        goto done;
    }
    if (p.list) {
        lmb_print_variants(stdout, b);
        rc = LMB_EXIT_OK;
        goto done;
    }
    if (ctx->opt.json && !lmb_have_json()) {
        fprintf(stderr, "%s: --json: this lmbench was built without jansson\n", prog);
        rc = LMB_EXIT_SKIPPED;
        goto done;
    }
    if (lmb_sched_setup(&ctx->sched, getenv("LMBENCH_SCHED"), p.cpus, err, sizeof err) != 0) {
        rc = lmb_usage_error(ctx, "%s", err);
        goto done;
    }
    lmb_clock_system(&ctx->clock);
    enough = getenv("ENOUGH");
    if (lmb_interval_ns(&ctx->clock, ctx->opt.min_time_s, enough, &ctx->interval_ns, err,
                        sizeof err) != 0) {
        rc = lmb_usage_error(ctx, "%s", err);
        goto done;
    }

    lmb_report_open(&ctx->report, prog, ctx->opt.json);
    if (b->classic_on_stdout)
        ctx->report.classic = stdout;
    ctx->report.clock = &ctx->clock;
    ctx->report.config = (struct lmb_run_config){
        .parallel = ctx->opt.parallel,
        .warmup_us = ctx->opt.warmup_us,
        .repetitions = ctx->opt.repetitions,
        .timeout_s = ctx->opt.timeout_s,
        .interval_ns = ctx->interval_ns,
        .interval_source = ctx->opt.min_time_s > 0 ? "--min-time"
                           : (enough && *enough) ? "ENOUGH" : "default",
        .sched = lmb_sched_policy_name(ctx->sched.policy),
        .cpus = p.cpus,
    };

    why_not = b->supported ? b->supported() : NULL;
    if (why_not != NULL) {
        struct lmb_record r;
        struct lmb_result res = { 0 };
        lmb_record_init(&r, b->name, "", LMB_UNIT_US);
        lmb_result_set_status(&res, LMB_SKIPPED, "%s", why_not);
        lmb_report_add(&ctx->report, &r, &res);
        rc = LMB_EXIT_OK;
    } else {
        rc = b->main(ctx, p.npos, p.pos);
    }
    if (rc == LMB_EXIT_OK) {
        if (ctx->opt.json &&
            lmb_report_print_json(&ctx->report, stdout, prog, argc - 1, argv + 1) != 0) {
            fprintf(stderr, "%s: could not write the JSON document\n", prog);
            rc = LMB_EXIT_FAILED;
        } else {
            rc = lmb_report_exit_status(&ctx->report);
        }
    }
    lmb_report_close(&ctx->report);
done:
    free(p.pos);
    free(ctx);
    return rc;
}
