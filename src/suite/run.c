// SPDX-License-Identifier: MIT
/* lmbench run: the suite's default profile.
 *
 * For now this runs the foundation benchmarks (lat_syscall, bw_mem, lat_mem_rd)
 * in lmbench 3's order with its section lines, and prints their classic lines on
 * stdout. The steps are data: groups of one command over a list of arguments,
 * each group optionally opened by a section line and closed by a blank one;
 * the number of steps is counted from the table. Results files, configuration
 * and the rest of the suite come with the suite issue. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../lib/command.h"
#include "../lib/sysinfo.h"
#include "../registry.h"
#include "suite.h"

#define MAX_ARGS 8

/* One group of steps: `command args... X tail...` for each X of `each` (or once
 * when `each` is empty). */
struct group {
    const char *section;               /* a line before the group, or NULL */
    bool blank_after;                  /* a blank line after it */
    const char *command;
    const char *args[MAX_ARGS];        /* before X */
    const char *const *each;           /* NULL-terminated, or NULL */
    const char *tail[MAX_ARGS];        /* after X */
};

static const char *const syscalls[] = { "null", "read", "write", "stat", "fstat", "open", NULL };
static const char *const mem_sizes[] = { "4k", "16k", "64k", "256k", "1m", "4m", "16m", "64m",
                                         "256m", NULL };

static const struct group profile[] = {
    { NULL, false, "lat_syscall", { NULL }, syscalls, { NULL } },
    { "\"libc bcopy unaligned", true, "bw_mem", { NULL }, mem_sizes, { "bcopy" } },
    { "\"libc bcopy aligned", true, "bw_mem", { NULL }, mem_sizes, { "bcopy", "conflict" } },
    { "Memory bzero bandwidth", true, "bw_mem", { NULL }, mem_sizes, { "bzero" } },
    { "\"unrolled bcopy unaligned", true, "bw_mem", { NULL }, mem_sizes, { "fcp" } },
    { "\"unrolled partial bcopy unaligned", true, "bw_mem", { NULL }, mem_sizes, { "cp" } },
    { "Memory read bandwidth", true, "bw_mem", { NULL }, mem_sizes, { "frd" } },
    { "Memory partial read bandwidth", true, "bw_mem", { NULL }, mem_sizes, { "rd" } },
    { "Memory write bandwidth", true, "bw_mem", { NULL }, mem_sizes, { "fwr" } },
    { "Memory partial write bandwidth", true, "bw_mem", { NULL }, mem_sizes, { "wr" } },
    { "Memory partial read/write bandwidth", true, "bw_mem", { NULL }, mem_sizes, { "rdwr" } },
    { "Memory load latency", false, "lat_mem_rd", { "256", "64", "128" }, NULL, { NULL } },
    { "Random load latency", false, "lat_mem_rd", { "-t", "256", "64" }, NULL, { NULL } },
};
#define NGROUPS (sizeof profile / sizeof profile[0])

static unsigned group_steps(const struct group *g)
{
    unsigned n = 0;

    if (g->each == NULL)
        return 1;
    while (g->each[n] != NULL)
        n++;
    return n;
}

/* argv of step i of group g into argv[]; returns argc. */
static int step_argv(const struct group *g, unsigned i, char **argv, size_t max)
{
    size_t argc = 0;

    argv[argc++] = (char *)g->command;
    for (size_t k = 0; k < MAX_ARGS && g->args[k] && argc + 1 < max; k++)
        argv[argc++] = (char *)g->args[k];
    if (g->each != NULL && argc + 1 < max)
        argv[argc++] = (char *)g->each[i];
    for (size_t k = 0; k < MAX_ARGS && g->tail[k] && argc + 1 < max; k++)
        argv[argc++] = (char *)g->tail[k];
    argv[argc] = NULL;
    return (int)argc;
}

static void line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(FILE *f, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
}

int lmb_suite_run(int argc, char **argv)
{
    struct lmb_streams io = { .out = stdout, .classic = stdout, .messages = stderr };
    unsigned total = 0, idx = 0, failures = 0;
    struct lmb_host h;
    char err[512], when[64] = "";
    time_t now = time(NULL);
    struct tm tm;

    if (argc > 1) {
        char q[LMB_QUOTE_BUF];
        if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
            puts("Usage: lmbench run\n"
                 "Runs the default profile and prints the classic results on stdout;\n"
                 "progress and messages go to stderr. See lmbench(1).");
            return LMB_EXIT_OK;
        }
        fprintf(stderr, "lmbench: run: unexpected argument '%s'\nUsage: lmbench run\n",
                lmb_quote(argv[argc > 2 && argv[1][0] == '-' ? 2 : 1], q, sizeof q));
        return LMB_EXIT_USAGE;
    }
    /* The environment every step reads, checked once. */
    if (lmb_env_check(err, sizeof err) != 0) {
        fprintf(stderr, "lmbench: run: %s\n", err);
        return LMB_EXIT_USAGE;
    }
    for (size_t g = 0; g < NGROUPS; g++)
        total += group_steps(&profile[g]);

    lmb_host_probe(&h);
    if (localtime_r(&now, &tm) != NULL)
        strftime(when, sizeof when, "%a %b %e %H:%M:%S %Z %Y", &tm);
    line(stdout, "[lmbench results for %s %s %s %s]", h.uts.sysname, h.hostname, h.uts.release,
         h.uts.machine);
    line(stdout, "[HOSTNAME: %s]", h.hostname);
    line(stdout, "[PROCESSORS: %ld]", h.cpus_online);
    line(stdout, "[%s]", when);
    {
        int e = 0;
        if (!lmb_stream_ok(stdout, &e)) {
            fprintf(stderr, "lmbench: run: cannot write the results to standard output: %s\n",
                    strerror(e));
            return LMB_EXIT_FAILED;
        }
    }

    for (size_t g = 0; g < NGROUPS; g++) {
        const struct group *gr = &profile[g];
        const struct lmb_bench *b = lmb_find_bench(gr->command);
        if (gr->section)
            line(stdout, "%s", gr->section);
        for (unsigned i = 0; i < group_steps(gr); i++) {
            char *sargv[2 * MAX_ARGS + 2];
            int sargc = step_argv(gr, i, sargv, sizeof sargv / sizeof sargv[0]);
            fprintf(stderr, "lmbench run: [%u/%u]", ++idx, total);
            for (int k = 0; k < sargc; k++)
                fprintf(stderr, " %s", sargv[k]);
            fputc('\n', stderr);
            fflush(stderr);
            if (b == NULL || lmb_command_run(b, b->name, sargc, sargv, &io) != LMB_EXIT_OK)
                failures++;
        }
        if (gr->blank_after)
            line(stdout, "%s", "");
        if (ferror(stdout))
            break;   /* the results cannot be written: stop, main says why */
    }
    fprintf(stderr, "lmbench run: done, %u of %u steps failed\n", failures, total);
    return failures ? LMB_EXIT_FAILED : LMB_EXIT_OK;
}
