// SPDX-License-Identifier: MIT
/* lmbench: one binary, many names. Called as a benchmark's name (a link), it is
 * that benchmark; called as `lmbench`, its first argument names a benchmark or a
 * suite verb. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/command.h"
#include "registry.h"
#include "suite/suite.h"

#include "version.h"   /* generated: LMB_VERSION, LMB_CFLAGS_STR */

static int verb_list(int argc, char **argv);
static int verb_help(int argc, char **argv);
static int verb_version(int argc, char **argv);

struct verb {
    const char *name;
    const char *summary;
    int (*fn)(int argc, char **argv);
};

static const struct verb verbs[] = {
    { "list", "list the benchmark commands with their category and summary", verb_list },
    { "help", "show the usage of lmbench or of a command: lmbench help CMD", verb_help },
    { "run", "run the whole suite and write its results files (lmbench 3's make results)", lmb_suite_runner },
    { "see", "print the summary page of results files (ours and lmbench 3's)", lmb_suite_see },
    { "compare", "compare results files: each measurement, ratio, beyond the spread or not", lmb_suite_compare },
    { "graph", "write one self-contained HTML page of plots of results files", lmb_suite_graph },
    { "config", "ask lmbench 3's configuration questions, write a config file for run -c", lmb_suite_config },
    { "import", "write a results file (lmbench 3 raw, JSON, JSONL) as one JSON document", lmb_suite_import },
    { "version", "print the version", verb_version },
};

static void usage(FILE *f)
{
    fputs("Usage: lmbench COMMAND [ARGS...]\n"
          "       lmbench BENCHMARK [OPTIONS] ARGS...   (the same as calling BENCHMARK)\n"
          "\nCommands:\n", f);
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(f, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
    fputs("\nBenchmarks: see 'lmbench list'; 'lmbench help BENCHMARK' for one.\n"
          "Exit status: 0 ok, 1 failed or timed out, 2 bad usage, 3 skipped.\n"
          "See lmbench(1).\n", f);
}

static int verb_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "lmbench: list takes no arguments\n");
        return LMB_EXIT_USAGE;
    }
    for (size_t i = 0; lmb_benches[i] != NULL; i++)
        printf("%-16s %-12s %s\n", lmb_benches[i]->name,
               lmb_category_name(lmb_benches[i]->category), lmb_benches[i]->summary);
    return LMB_EXIT_OK;
}

static int verb_help(int argc, char **argv)
{
    const struct lmb_bench *b;

    if (argc < 2) {
        usage(stdout);
        return LMB_EXIT_OK;
    }
    if (argc > 2) {
        fprintf(stderr, "lmbench: help takes one command name\n");
        return LMB_EXIT_USAGE;
    }
    b = lmb_find_bench(argv[1]);
    if (b != NULL) {
        lmb_print_help(stdout, b, b->name);
        return LMB_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strcmp(verbs[i].name, argv[1]) == 0) {
            printf("lmbench %s: %s\n", verbs[i].name, verbs[i].summary);
            return LMB_EXIT_OK;
        }
    char q[LMB_QUOTE_BUF];
    fprintf(stderr, "lmbench: no command named '%s' (see 'lmbench list')\n",
            lmb_quote(argv[1], q, sizeof q));
    return LMB_EXIT_USAGE;
}

static int verb_version(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "lmbench: version takes no arguments\n");
        return LMB_EXIT_USAGE;
    }
    printf("lmbench %s\n", LMB_VERSION);
    return LMB_EXIT_OK;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int dispatch(int argc, char **argv, const char **prog)
{
    const char *name = argc > 0 ? base_name(argv[0]) : "lmbench";
    const struct lmb_bench *b = lmb_find_bench(name);
    char q[LMB_QUOTE_BUF];

    *prog = "lmbench";
    if (b != NULL) {
        *prog = name;
        return lmb_command_main(b, name, argc, argv);
    }

    if (argc < 2) {
        fprintf(stderr, "lmbench: missing command\n");
        usage(stderr);
        return LMB_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return LMB_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0)
        return verb_version(argc - 1, argv + 1);
    b = lmb_find_bench(argv[1]);
    if (b != NULL) {
        *prog = b->name;
        return lmb_command_main(b, b->name, argc - 1, argv + 1);
    }
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strcmp(verbs[i].name, argv[1]) == 0)
            return verbs[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "lmbench: unknown command '%s' (see 'lmbench list')\n",
            lmb_quote(argv[1], q, sizeof q));
    usage(stderr);
    return LMB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    const char *prog;
    int rc;

    lmb_guard_std_fds();
    rc = dispatch(argc, argv, &prog);
    /* Whatever ran, what it wrote must have arrived. */
    return lmb_finish_std_streams(prog, rc);
}
