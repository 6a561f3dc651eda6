// SPDX-License-Identifier: MIT
/* lmbench run, options: the usage and help, the command line read into the
 * run's settings (options win over a config file, whatever their order), and
 * the settings from the profile, the config file (-c, lmbench 3's keys), the
 * environment (ENOUGH, LMBENCH_SCHED) and the options, checked once before
 * anything runs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/command.h"
#include "lib/sched.h"
#include "lib/sizes.h"
#include "run.h"
#include "util.h"

static const char usage[] =
    "[--profile quick|default|full] [-c FILE] [-o DIR] [-P N] [--sched POLICY]\n"
    "       [--cpus LIST] [--mb MB] [--fsdir DIR] [--remote HOST]... [--ssh CMD]\n"
    "       [--remote-lmbench PATH] [--groups LIST] [--enough US] [-N N]\n"
    "       [--timeout SEC] [--launches K] [--disturbed PCT] [--no-retry] [--resume]\n"
    "       [--list]";

static void help(void)
{
    printf("Usage: lmbench run %s\n"
           "Runs the lmbench suite (lmbench 3's `make results`) without questions and leaves\n"
           "its results in DIR (default ./results): <host>.<n>.json (the whole run, written\n"
           "at the end), <host>.<n>.jsonl (appended step by step) and <host>.<n> (lmbench 3's\n"
           "raw results text). 'lmbench see' prints the summary page of them.\n"
           "\nOptions (a config file's keys in brackets):\n"
           "  --profile P      quick (every table, under a minute), default (a few minutes)\n"
           "                   or full (every size and stride lmbench 3 ran) [PROFILE]\n"
           "  -c FILE          read settings from FILE (lmbench config writes one)\n"
           "  -o DIR           the results directory (default ./results)\n"
           "  -P N             copies of each benchmark at once [SYNC_MAX]\n"
           "  --sched POLICY   placement: DEFAULT, SINGLE, BALANCED, UNIQUE, 'CUSTOM list'\n"
           "                   [LMBENCH_SCHED]\n"
           "  --cpus LIST      run every step on these CPUs [CPUS]\n"
           "  --mb MB          the largest memory working set in MiB [MB]\n"
           "  --fsdir DIR      where the file system benchmarks make files [FSDIR]\n"
           "  --remote HOST    also run the network benchmarks against HOST ([USER@]HOST,\n"
           "                   or an ssh config alias), their servers started there over\n"
           "                   ssh (repeatable) [REMOTE]\n"
           "  --ssh CMD        the ssh command and its options, split on blanks (default\n"
           "                   ssh; -o BatchMode=yes is added) [SSH]\n"
           "  --remote-lmbench PATH\n"
           "                   lmbench on the remote hosts (default: lmbench on their\n"
           "                   PATH) [REMOTE_LMBENCH]\n"
           "  --groups LIST    which groups: hardware,os,network (default all)\n"
           "                   [BENCHMARK_HARDWARE, BENCHMARK_OS, BENCHMARK_NETWORK]\n"
           "  --enough US      microseconds per timed interval [ENOUGH]\n"
           "  -N N             repetitions of each measurement [REPETITIONS]\n"
           "  --timeout SEC    seconds one step may take before it is stopped [TIMEOUT]\n"
           "  --launches K     measure the steps that feed a summary cell in K fresh\n"
           "                   processes each (1-100; default: the profile's, 3 in\n"
           "                   default and full, 1 in quick)\n"
           "  --disturbed PCT  a step during which other processes used more than PCT%%\n"
           "                   of the CPUs (or steal did) is disturbed (default %g;\n"
           "                   0: every step)\n"
           "  --no-retry       do not run a disturbed step again at the end of the run\n"
           "  --resume         continue the interrupted run in DIR\n"
           "  --list           print the steps and exit\n"
           "  -h, --help       show this help\n"
           "\nEnvironment: ENOUGH and LMBENCH_SCHED as lmbench 3 (the options win).\n"
           "Exit status: 0 every step ok or skipped, 1 a step failed or timed out (or the\n"
           "results could not be written), 2 bad usage, 130/143 stopped by SIGINT/SIGTERM.\n"
           "See lmbench-run(1).\n", usage, LMB_DISTURBED_SHARE * 100);
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
    va_list ap;
    char m[600];

    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return lmb_verb_usage_error("run", usage, "%s", m);
}

/* --groups LIST into the three BENCHMARK_* settings. 0 or a usage error. */
static int groups(struct lmb_run_args *a, const char *v)
{
    char g[128], *t, *save = NULL;
    bool hw = false, os = false, net = false;

    if (*v == '\0')
        return bad("--groups: empty list (expected hardware, os or network, ','-separated)");
    if (strlen(v) >= sizeof g)
        return bad("--groups: the list is too long (%zu bytes)", strlen(v));
    if (v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,") != NULL)
        return bad("--groups: an empty name in '%s'", lmb_quote_arg(v));
    snprintf(g, sizeof g, "%s", v);
    for (t = strtok_r(g, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "hardware") == 0)
            hw = true;
        else if (strcmp(t, "os") == 0)
            os = true;
        else if (strcmp(t, "network") == 0)
            net = true;
        else
            return bad("--groups: '%s' is not hardware, os or network", lmb_quote_arg(t));
    }
    a->keys[a->n] = "BENCHMARK_HARDWARE";
    a->vals[a->n++] = hw ? "YES" : "NO";
    a->keys[a->n] = "BENCHMARK_OS";
    a->vals[a->n++] = os ? "YES" : "NO";
    a->keys[a->n] = "BENCHMARK_NETWORK";
    a->vals[a->n++] = net ? "YES" : "NO";
    return 0;
}

/* The options that are a setting of lmb_sconf: its key, else NULL. */
static const struct {
    const char *opt, *key;
} setting_opts[] = {
    { "--profile", "PROFILE" }, { "--sched", "LMBENCH_SCHED" }, { "--cpus", "CPUS" },
    { "--mb", "MB" },           { "--fsdir", "FSDIR" },         { "--enough", "ENOUGH" },
    { "--timeout", "TIMEOUT" }, { "--ssh", "SSH" },             { "--remote-lmbench", "REMOTE_LMBENCH" },
};

/* An option's value checked as the setting KEY would take it, so that a mistake
 * is named by the option (not the config key) and an empty value, which a
 * config file reads as "the default", is refused as the benchmarks refuse it.
 * 0 or a usage error. */
static int check_setting(const char *opt, const char *key, const char *v)
{
    struct lmb_sconf scratch;
    char why[400];
    const char *m = why;
    size_t k = strlen(key);

    if (*v == '\0') {
        if (strcmp(key, "CPUS") == 0)
            return bad("%s: empty CPU list", opt);
        if (strcmp(key, "SYNC_MAX") == 0 || strcmp(key, "REPETITIONS") == 0 ||
            strcmp(key, "MB") == 0 || strcmp(key, "ENOUGH") == 0 || strcmp(key, "TIMEOUT") == 0)
            return bad("%s: empty number", opt);
        return bad("%s: empty value", opt);
    }
    if (strcmp(key, "CPUS") == 0) {
        /* The benchmarks' parser and message. */
        int cpus[LMB_MAX_CPUS], n;
        if (lmb_parse_cpulist(v, cpus, LMB_MAX_CPUS, &n, why, sizeof why) != 0)
            return bad("%s: %s", opt, why);
    }
    lmb_sconf_defaults(&scratch);
    if (lmb_sconf_set(&scratch, key, v, why, sizeof why) < 0) {
        if (strncmp(why, key, k) == 0 && why[k] == ':' && why[k + 1] == ' ')
            m = why + k + 2;
        else if (strncmp(why, key, k) == 0 && why[k] == '=')
            m = why + k + 1;
        return bad("%s: %s", opt, m);
    }
    return 0;
}

int lmb_run_parse(struct run *r, struct lmb_run_args *a, int argc, char **argv)
{
    const char *v;
    int x = 0;

    memset(a, 0, sizeof *a);
    r->opts.disturbed_pct = LMB_DISTURBED_SHARE * 100;
    r->opts.retry = true;
    r->argc = argc;
    r->argv = argv;
    snprintf(r->outdir, sizeof r->outdir, "results");
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *key = NULL;
        bool matched = false;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            if (i + 1 < argc)
                return bad("--help takes no arguments");
            help();
            return lmb_verb_check_output("run", stdout, "the help");
        }
        if (strcmp(arg, "-c") == 0 || strcmp(arg, "-o") == 0 || strcmp(arg, "-P") == 0 ||
            strcmp(arg, "-N") == 0) {
            if (i + 1 >= argc)
                return bad("option %s needs a value", arg);
            v = argv[++i];
            if (arg[1] == 'c') {
                if (*v == '\0')
                    return bad("-c: empty file name");
                a->cfile = v;
            } else if (arg[1] == 'o') {
                if (*v == '\0')
                    return bad("-o: empty directory name");
                if (strlen(v) >= sizeof r->outdir)
                    return bad("-o: the path is too long (%zu bytes; at most %zu)", strlen(v),
                               sizeof r->outdir - 1);
                snprintf(r->outdir, sizeof r->outdir, "%s", v);
            } else {
                key = arg[1] == 'P' ? "SYNC_MAX" : "REPETITIONS";
                if (check_setting(arg, key, v) != 0)
                    return 2;
            }
            matched = true;
        }
        for (size_t k = 0; !matched && k < sizeof setting_opts / sizeof setting_opts[0]; k++)
            if ((x = lmb_long_opt(argc, argv, &i, setting_opts[k].opt, &v)) != 0) {
                key = setting_opts[k].key;
                matched = true;
                if (x > 0 && check_setting(setting_opts[k].opt, key, v) != 0)
                    return 2;
            }
        if (matched) {
            /* done */
        } else if ((x = lmb_long_opt(argc, argv, &i, "--remote", &v)) != 0) {
            if (x > 0) {
                if (*v == '\0')
                    return bad("--remote: empty host name");
                if (strpbrk(v, " \t") != NULL)
                    return bad("--remote: '%s' is not one host name (give --remote once per host)",
                               lmb_quote_arg(v));
                if (check_setting("--remote", "REMOTE", v) != 0)
                    return 2;
                if (strlen(a->remotes) + strlen(v) + 2 >= sizeof a->remotes)
                    return bad("--remote: too many hosts");
                strcat(a->remotes, a->remotes[0] ? " " : "");
                strcat(a->remotes, v);
                key = "REMOTE";
                v = a->remotes;
            }
        } else if ((x = lmb_long_opt(argc, argv, &i, "--groups", &v)) != 0) {
            if (x > 0 && groups(a, v) != 0)
                return 2;
        } else if ((x = lmb_long_opt(argc, argv, &i, "--launches", &v)) != 0) {
            uint64_t k;
            char why[200];
            if (x > 0) {
                /* The benchmarks' parser: digits only, 1 to 100. */
                if (lmb_parse_uint(v, 1, 100, &k, why, sizeof why) != 0)
                    return bad("--launches: %s", why);
                r->opts.launches = (unsigned)k;
                a->suite_opts = true;
            }
        } else if ((x = lmb_long_opt(argc, argv, &i, "--disturbed", &v)) != 0) {
            double pct;
            char why[200];
            if (x > 0) {
                if (lmb_parse_nonneg_double(v, &pct, why, sizeof why) != 0)
                    return bad("--disturbed: %s", why);
                if (pct > 100)
                    return bad("--disturbed: '%s' is not a percentage from 0 to 100",
                               lmb_quote_arg(v));
                r->opts.disturbed_pct = pct;
                a->suite_opts = true;
            }
        } else if (strcmp(arg, "--no-retry") == 0) {
            r->opts.retry = false;
            a->suite_opts = true;
        } else if (strcmp(arg, "--resume") == 0) {
            a->resume = true;
        } else if (strcmp(arg, "--list") == 0) {
            a->list = true;
        } else {
            if (arg[0] == '-')
                return bad("unknown option '%s'", lmb_quote_arg(arg));
            return bad("unexpected argument '%s'", lmb_quote_arg(arg));
        }
        if (x < 0)
            return bad("option %s needs a value", arg);
        x = 0;
        if (key != NULL) {
            if (a->n >= 28)
                return bad("too many options");
            a->keys[a->n] = key;
            a->vals[a->n++] = v;
        }
    }
    if (a->resume && (a->cfile || a->n > 0 || a->list || a->suite_opts))
        return bad("--resume continues a run with its own settings: only -o may go with it");
    return -1;
}

int lmb_run_settings(struct run *r, const struct lmb_run_args *a)
{
    const char *env;
    char err[800];

    /* The environment with the harness's own rules first. */
    if (lmb_env_check(err, sizeof err) != 0) {
        /* Not a command line mistake: one line, no usage. */
        fprintf(stderr, "lmbench run: %s\n", err);
        return 2;
    }
    lmb_sconf_defaults(&r->conf);
    if (a->cfile && lmb_sconf_read(&r->conf, a->cfile, err, sizeof err) != 0)
        return bad("%s", err);
    if (((env = getenv("ENOUGH")) != NULL &&
         lmb_sconf_set(&r->conf, "ENOUGH", env, err, sizeof err) < 0) ||
        ((env = getenv("LMBENCH_SCHED")) != NULL && *env &&
         lmb_sconf_set(&r->conf, "LMBENCH_SCHED", env, err, sizeof err) < 0)) {
        fprintf(stderr, "lmbench run: %s\n", err);
        return 2;
    }
    for (int i = 0; i < a->n; i++)
        if (lmb_sconf_set(&r->conf, a->keys[i], a->vals[i], err, sizeof err) < 0)
            return bad("%s", err);
    if (!a->resume && lmb_sconf_check(&r->conf, err, sizeof err) != 0)
        return bad("%s", err);
    lmb_sconf_report(&r->conf, "lmbench run", stderr);   /* -c's keys without an equivalent */
    return -1;
}
