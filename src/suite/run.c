// SPDX-License-Identifier: MIT
/* lmbench run: the suite's default profile.
 *
 * For now this runs the foundation benchmarks (lat_syscall, bw_mem, lat_mem_rd)
 * in lmbench 3's order with its section lines, and prints their classic lines on
 * stdout. Results files, configuration and the rest of the suite come later. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/sysinfo.h"
#include "registry.h"
#include "suite/suite.h"

struct step {
    const char *section;   /* printed before the step, or NULL */
    const char *argv[8];   /* command and arguments, NULL-terminated */
};

static FILE *progress;

static int run_one(const char *const *args, unsigned idx, unsigned total)
{
    char *argv[16];
    int argc = 0;
    const struct lmb_bench *b = lmb_find_bench(args[0]);

    if (b == NULL)
        return LMB_EXIT_FAILED;
    for (; args[argc] != NULL && argc < 15; argc++)
        argv[argc] = (char *)args[argc];
    argv[argc] = NULL;
    if (progress != NULL) {
        fprintf(progress, "lmbench run: [%u/%u]", idx, total);
        for (int i = 0; i < argc; i++)
            fprintf(progress, " %s", argv[i]);
        fputc('\n', progress);
        fflush(progress);
    }
    return lmb_command_main(b, b->name, argc, argv);
}

static void section(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

int lmb_suite_run(int argc, char **argv)
{
    static const char *const syscalls[] = { "null", "read", "write", "stat", "fstat", "open" };
    static const char *const sizes[] = { "4k", "16k", "64k", "256k", "1m", "4m", "16m", "64m",
                                         "256m" };
    static const struct { const char *title, *op, *conflict; } bw[] = {
        { "\"libc bcopy unaligned", "bcopy", NULL },
        { "\"libc bcopy aligned", "bcopy", "conflict" },
        { "Memory bzero bandwidth", "bzero", NULL },
        { "\"unrolled bcopy unaligned", "fcp", NULL },
        { "\"unrolled partial bcopy unaligned", "cp", NULL },
        { "Memory read bandwidth", "frd", NULL },
        { "Memory partial read bandwidth", "rd", NULL },
        { "Memory write bandwidth", "fwr", NULL },
        { "Memory partial write bandwidth", "wr", NULL },
        { "Memory partial read/write bandwidth", "rdwr", NULL },
    };
    unsigned total = 6 + 10 * 9 + 2, idx = 0, failures = 0;
    struct lmb_host h;
    int saved_err;
    time_t now = time(NULL);

    if (argc > 1) {
        if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
            puts("Usage: lmbench run\nRuns the default profile and prints the classic results on stdout.");
            return LMB_EXIT_OK;
        }
        fprintf(stderr, "lmbench: run: unexpected argument '%s'\n", argv[1]);
        return LMB_EXIT_USAGE;
    }

    /* Results (the benchmarks' stderr lines) to stdout; progress to the terminal. */
    fflush(NULL);
    saved_err = dup(STDERR_FILENO);
    progress = saved_err >= 0 ? fdopen(saved_err, "w") : NULL;
    if (dup2(STDOUT_FILENO, STDERR_FILENO) < 0) {
        perror("lmbench: run: dup2");
        return LMB_EXIT_FAILED;
    }

    lmb_host_probe(&h);
    section("[lmbench results for %s %s %s %s]", h.uts.sysname, h.hostname, h.uts.release,
            h.uts.machine);
    section("[HOSTNAME: %s]", h.hostname);
    section("[PROCESSORS: %ld]", h.cpus_online);
    section("[%s]", strtok(ctime(&now), "\n"));

    for (size_t i = 0; i < sizeof syscalls / sizeof syscalls[0]; i++) {
        const char *a[] = { "lat_syscall", syscalls[i], NULL };
        if (run_one(a, ++idx, total) != LMB_EXIT_OK)
            failures++;
    }
    for (size_t k = 0; k < sizeof bw / sizeof bw[0]; k++) {
        section("%s", bw[k].title);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            const char *a[] = { "bw_mem", sizes[i], bw[k].op, bw[k].conflict, NULL };
            if (run_one(a, ++idx, total) != LMB_EXIT_OK)
                failures++;
        }
        section("%s", "");
    }
    section("Memory load latency");
    {
        const char *a[] = { "lat_mem_rd", "256", "64", "128", NULL };
        if (run_one(a, ++idx, total) != LMB_EXIT_OK)
            failures++;
    }
    section("Random load latency");
    {
        const char *a[] = { "lat_mem_rd", "-t", "256", "64", NULL };
        if (run_one(a, ++idx, total) != LMB_EXIT_OK)
            failures++;
    }
    if (progress != NULL) {
        fprintf(progress, "lmbench run: done, %u of %u steps failed\n", failures, total);
        fclose(progress);
        progress = NULL;
    }
    return failures ? LMB_EXIT_FAILED : LMB_EXIT_OK;
}
