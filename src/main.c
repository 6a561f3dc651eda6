// SPDX-License-Identifier: MIT
/* lmbench: one binary, many names. Called as a benchmark's name (a link), it is
 * that benchmark; called as `lmbench`, its first argument names a benchmark or a
 * suite verb. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/command.h"
#include "registry.h"
#include "suite/scale.h"
#include "suite/suite.h"

#include "version.h"   /* generated: LMB_VERSION, LMB_CFLAGS_STR */

static int verb_list(int argc, char **argv);
static int verb_help(int argc, char **argv);
static int verb_version(int argc, char **argv);
static void unknown_command(const char *what, const char *name, bool with_verbs);

struct verb {
    const char *name;
    const char *summary;
    int (*fn)(int argc, char **argv);
};

static const struct verb verbs[] = {
    { "list", "list the benchmark commands with their category and summary", verb_list },
    { "help", "show the usage of lmbench or of a command: lmbench help CMD", verb_help },
    { "run", "run the suite, write its results files (lmbench 3's make results)", lmb_suite_runner },
    { "see", "print the summary page of results files (ours and lmbench 3's)", lmb_suite_see },
    { "compare", "compare results files: each measurement's ratio and its verdict", lmb_suite_compare },
    { "graph", "write one self-contained HTML page of plots of results files", lmb_suite_graph },
    { "scale", "run a benchmark at -P 1, 2, 4 ...: its scaling curve, where it stops", lmb_suite_scale },
    { "config", "ask lmbench 3's configuration questions, write a file for run -c", lmb_suite_config },
    { "import", "a results file (lmbench 3 raw, JSON, JSONL) as one JSON document", lmb_suite_import },
    { "version", "print the version", verb_version },
};

static void usage(FILE *f)
{
    fputs("Usage: lmbench COMMAND [ARGS...]\n"
          "       lmbench BENCHMARK [OPTIONS] ARGS...   (the same as calling BENCHMARK)\n"
          "\nCommands:\n", f);
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        int n = fprintf(f, "  %-10s ", verbs[i].name);
        lmb_print_wrapped(f, n > 0 ? (size_t)n : 0, 13, verbs[i].summary);
    }
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
    unknown_command("no command named", argv[1], true);
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

/* --- the nearest name, for an unknown one -------------------------------------- */

#define NAME_MAX_LEN 32

/* Optimal string alignment distance, case-insensitive, in half edits: an
 * insert, delete or replace costs 2, a swap of two neighbours 1 (the commonest
 * typo: lat_tpc is nearer lat_tcp than lat_rpc). Names longer than
 * NAME_MAX_LEN are far. */
static size_t name_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];

    if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
        return (size_t)-1;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = 2 * i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = 2 * j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + (ca != cb ? 2 : 0);
            if (d[i - 1][j] + 2 < best)
                best = d[i - 1][j] + 2;
            if (d[i][j - 1] + 2 < best)
                best = d[i][j - 1] + 2;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The names nearest to name (benchmarks, and the suite verbs when verbs):
 * "'lat_tcp'" or "'a' or 'b'", or "" when none is close (within a third of
 * the name's length, at most 2 edits). */
static const char *nearest_names(const char *name, bool with_verbs, char *buf, size_t len)
{
    const char *cand[64];
    size_t nc = 0, best = (size_t)-1, limit = strlen(name) / 3, used = 0;
    const char *pick[3];
    size_t np = 0;

    if (limit > 2)
        limit = 2;
    if (limit < 1)
        limit = 1;
    limit *= 2;   /* in half edits */
    for (size_t i = 0; lmb_benches[i] != NULL && nc < 64; i++)
        cand[nc++] = lmb_benches[i]->name;
    for (size_t i = 0; with_verbs && i < sizeof verbs / sizeof verbs[0] && nc < 64; i++)
        cand[nc++] = verbs[i].name;
    for (size_t i = 0; i < nc; i++) {
        size_t d = name_distance(name, cand[i]);
        if (d > limit || d > best)
            continue;
        if (d < best) {
            best = d;
            np = 0;
        }
        if (np < 3)
            pick[np++] = cand[i];
    }
    buf[0] = '\0';
    for (size_t i = 0; i < np && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s'%s'", i == 0 ? "" : " or ", pick[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* "lmbench: unknown command 'x'; did you mean 'y'? (see 'lmbench list')" */
static void unknown_command(const char *what, const char *name, bool with_verbs)
{
    char q[LMB_QUOTE_BUF], near[128];

    nearest_names(name, with_verbs, near, sizeof near);
    fprintf(stderr, "lmbench: %s '%s'%s%s%s (see 'lmbench list')\n", what,
            lmb_quote(name, q, sizeof q), near[0] ? "; did you mean " : "", near,
            near[0] ? "?" : "");
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
    /* A link whose name is close to a benchmark's: a typo, not lmbench. */
    char near[128];
    if (strcmp(name, "lmbench") != 0 && *nearest_names(name, false, near, sizeof near)) {
        fprintf(stderr, "lmbench: called as '%s', which is no command; did you mean %s? (a "
                "link runs the command it is named after; see 'lmbench list')\n",
                lmb_quote(name, q, sizeof q), near);
        return LMB_EXIT_USAGE;
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
    unknown_command("unknown command", argv[1], true);
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
