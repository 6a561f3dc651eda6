// SPDX-License-Identifier: MIT
/* lmbench config: lmbench 3's configuration questions, each with its default,
 * asked on stdin (a terminal or a script feeding answers), and the answers
 * written as a key=value file for `lmbench run -c`. --defaults asks nothing:
 * it answers every question with its default, as the end of stdin does, so
 * that both write the same file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/input.h"
#include "lib/mem.h"
#include "lib/outfile.h"
#include "lib/sysinfo.h"
#include "lib/text.h"
#include "runconf.h"
#include "suite.h"
#include "util.h"

static const char usage[] = "[--defaults] [-o FILE]";

static void help(void)
{
    printf("Usage: lmbench config %s\n"
           "Asks lmbench 3's configuration questions (how much to run, how many copies at\n"
           "once and where, how much memory, where to make files, which remote hosts,\n"
           "which groups of benchmarks, the timing interval), each with a default that\n"
           "Enter accepts, and writes the answers as a config file for 'lmbench run -c'.\n"
           "Answers may come from a script on stdin; at its end the rest are defaults.\n"
           "\nOptions:\n"
           "  --defaults   ask nothing: write every default\n"
           "  -o FILE      the config file to write (default: CONFIG.<hostname>)\n"
           "  -h, --help   show this help\n"
           "\nExit status: 0 written, 1 it could not be written, 2 bad usage.\n"
           "See lmbench-config(1).\n", usage);
}

struct asker {
    bool eof;          /* stdin ended: take the defaults */
    bool quiet;        /* --defaults: print no question */
    bool echo;         /* stdin is not a terminal: echo answers so a log reads well */
    FILE *q;           /* where the questions go: stdout, or stderr with -o - */
};

/* The longest answer, in bytes (the newline not counted). */
#define ANSWER_MAX 1023
/* Bytes of an overlong answer line dropped before stdin is taken as ended. */
#define ANSWER_DROP_MAX 65536

/* Reads one answer line from stdin into *line (NUL-terminated, without its line
 * end). 0; -1 at the end of input; 1 refused (too long, or not text: said on
 * a->q), the rest of an overlong line dropped. */
static int read_answer(struct asker *a, char **line, size_t *cap)
{
    char why[100];
    ssize_t n = lmb_input_line(stdin, line, cap, ANSWER_MAX + 1, why, sizeof why);
    int ch = 0;

    if (n == -1)
        return -1;
    if (n == -2) {
        for (size_t k = 0; k < ANSWER_DROP_MAX && (ch = getchar()) != EOF && ch != '\n'; k++)
            ;
        fprintf(a->q, "%s  an answer has at most %d bytes\n", a->echo ? "\n" : "", ANSWER_MAX);
        if (ch != '\n') {
            /* /dev/zero or a file of one endless line: not answers. */
            fprintf(a->q, "  standard input is not lines of answers: the rest take their "
                          "defaults\n");
            return -1;
        }
        return 1;
    }
    while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r'))
        (*line)[--n] = '\0';
    if (n > ANSWER_MAX) {   /* the last line, without a newline */
        fprintf(a->q, "%s  an answer has at most %d bytes\n", a->echo ? "\n" : "", ANSWER_MAX);
        return 1;
    }
    for (ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)(*line)[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fprintf(a->q, "%s  an answer is text: a control character (\\x%02x)\n",
                    a->echo ? "\n" : "", c);
            return 1;
        }
    }
    return 0;
}

/* Asks one question; the answer (or the default) goes into ans. */
static void ask(struct asker *a, const char *intro, const char *question, const char *def,
                char *ans, size_t len)
{
    char *line = NULL;
    size_t cap = 0;
    int rc = 1;

    if (a->quiet) {
        snprintf(ans, len, "%s", def);
        return;
    }
    if (intro)
        fprintf(a->q, "\n%s\n", intro);
    /* An answer refused as it was read is asked again, at most 5 times. */
    for (int tries = 0; tries < 5 && rc == 1; tries++) {
        fprintf(a->q, "%s [%s]: ", question, def);
        fflush(a->q);
        rc = a->eof ? -1 : read_answer(a, &line, &cap);
        if (rc < 0)
            a->eof = true;
    }
    if (rc != 0) {
        free(line);
        snprintf(ans, len, "%s", def);
        fprintf(a->q, "%s\n", def);
        return;
    }
    {
        char *p = line, *e;
        while (*p == ' ' || *p == '\t')
            p++;
        e = p + strlen(p);
        while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        snprintf(ans, len, "%s", *p ? p : def);
    }
    free(line);
    if (a->echo)
        fprintf(a->q, "%s\n", ans);
}

/* The largest MB whose copy benchmarks fit here: bw_mem's copies map the
 * source and the destination, twice MB, in each of SYNC_MAX copies, and a
 * benchmark takes at most three quarters of the available memory
 * (lmb_memory_fits). UINT64_MAX when nothing says how much is available. */
static uint64_t mb_room(const struct lmb_sconf *c)
{
    uint64_t avail = lmb_memory_available(NULL);

    if (avail == UINT64_MAX)
        return UINT64_MAX;
    return (uint64_t)(0.75 * (double)avail / (2.0 * (c->parallel ? c->parallel : 1))) >> 20;
}

/* Whether the run's MB fits (see mb_room); if not, why, in err. */
static int mb_fits(const struct lmb_sconf *c, char *err, size_t errlen)
{
    uint64_t mb = lmb_sconf_mb(c);
    char why[200];

    if (lmb_memory_fits(2 * (mb << 20), c->parallel, why, sizeof why) == 0)
        return 0;
    snprintf(err, errlen, "MB %llu is too large here: the copy benchmarks use twice it in each "
             "of %u cop%s, which %s; at most %llu fits",
             (unsigned long long)mb, c->parallel, c->parallel == 1 ? "y" : "ies", why,
             (unsigned long long)mb_room(c));
    return -1;
}

/* Asks until the answer is valid for KEY (at most 5 times, then the default). */
static void ask_key(struct asker *a, struct lmb_sconf *c, const char *key, const char *intro,
                    const char *question, const char *def)
{
    char ans[1024], err[700];

    for (int tries = 0; tries < 5; tries++) {
        ask(a, tries == 0 ? intro : NULL, question, def, ans, sizeof ans);
        if (strcmp(key, "BENCHMARK_HARDWARE") == 0 || strcmp(key, "BENCHMARK_OS") == 0 ||
            strcmp(key, "BENCHMARK_NETWORK") == 0 || strcmp(key, "REMOTE") == 0 ||
            strcmp(key, "MB") == 0 || strcmp(key, "ENOUGH") == 0) {
            if (strcasecmp(ans, "none") == 0 || strcmp(ans, "-") == 0)
                ans[0] = '\0';
        }
        struct lmb_sconf before = *c;
        if (lmb_sconf_set(c, key, ans, err, sizeof err) >= 0) {
            if (((strcmp(key, "LMBENCH_SCHED") == 0 || strcmp(key, "FSDIR") == 0) &&
                 lmb_sconf_check(c, err, sizeof err) != 0) ||
                (strcmp(key, "MB") == 0 && mb_fits(c, err, sizeof err) != 0)) {
                *c = before;
                if (!a->quiet)
                    fprintf(a->q, "  %s\n", err);
                if (a->eof)
                    break;
                continue;
            }
            return;
        }
        if (!a->quiet)
            fprintf(a->q, "  %s\n", err);
        if (a->eof)
            break;
    }
    lmb_sconf_set(c, key, def, ans, sizeof ans);
}

int lmb_suite_config(int argc, char **argv)
{
    struct lmb_sconf c;
    struct asker a = { false, false, !isatty(STDIN_FILENO), stdout };
    bool defaults = false;
    const char *out = NULL;
    char path[1100], def[64], host[256] = "localhost", comment[300], intro[600];
    char err[LMB_QUOTE_BUF + 128], q[LMB_QUOTE_BUF];
    struct lmb_outfile of;
    FILE *fp;
    uint64_t room;

    lmb_cleanup_init();   /* -o's temporary file goes on SIGINT */
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            help();
            return lmb_verb_check_output("config", stdout, "the help");
        }
        if (strcmp(s, "--defaults") == 0) {
            defaults = true;
        } else if (strcmp(s, "-o") == 0) {
            if (i + 1 >= argc)
                return lmb_verb_usage_error("config", usage, "-o needs a file name");
            out = argv[++i];
        } else if (s[0] == '-') {
            return lmb_verb_usage_error("config", usage, "unknown option '%s'", lmb_quote_arg(s));
        } else {
            return lmb_verb_usage_error("config", usage, "unexpected argument '%s'",
                                        lmb_quote_arg(s));
        }
    }
    gethostname(host, sizeof host - 1);
    if (out == NULL) {
        snprintf(path, sizeof path, "CONFIG.%s", host);
        out = path;
    }
    lmb_sconf_defaults(&c);
    if (strcmp(out, "-") == 0)
        a.q = stderr;

    if (defaults) {
        a.eof = a.quiet = true;
    } else {
        fputs("lmbench config: the questions lmbench 3 asked before a run. Press Enter to take\n"
              "the default in brackets.\n", a.q);
    }
    {
        ask_key(&a, &c, "PROFILE",
                "How much to run. quick: every table of the summary on small sizes, under a\n"
                "minute; default: the full set at moderate sizes, a few minutes; full: every\n"
                "size and stride lmbench 3 ran, with more repetitions (long).",
                "Profile (quick, default, full)", "default");
        snprintf(def, sizeof def, "1");
        ask_key(&a, &c, "SYNC_MAX",
                "lmbench can run several copies of each benchmark at once, to see how the\n"
                "system scales. 1 measures one copy.",
                "Copies of each benchmark run at once", def);
        ask_key(&a, &c, "LMBENCH_SCHED",
                "Where the processes run: DEFAULT leaves it to the kernel; SINGLE puts them\n"
                "all on one CPU; BALANCED spreads the copies; UNIQUE gives every process its\n"
                "own CPU; CUSTOM \"0 2 4\" uses these CPUs in turn.",
                "Placement", "DEFAULT");
        /* The profile's size, or less when that does not fit: a power of two,
         * so that the default does not follow every change of free memory. */
        room = mb_room(&c);
        if (lmb_sconf_mb(&c) <= room) {
            snprintf(def, sizeof def, "%llu", (unsigned long long)lmb_sconf_mb(&c));
        } else {
            uint64_t p2 = 1;
            while (p2 * 2 <= room)
                p2 *= 2;
            snprintf(def, sizeof def, "%llu", (unsigned long long)p2);
        }
        if (room == UINT64_MAX)
            snprintf(intro, sizeof intro, "%s",
                     "The largest memory working set, in megabytes, for the memory latency and\n"
                     "bandwidth sweeps. More than the last-level cache by far shows main memory.");
        else
            snprintf(intro, sizeof intro,
                     "The largest memory working set, in megabytes, for the memory latency and\n"
                     "bandwidth sweeps. More than the last-level cache by far shows main memory.\n"
                     "It must fit in the memory available now: the copy benchmarks use twice it\n"
                     "in each copy run at once, within three quarters of what is available\n"
                     "(MemAvailable, or a memory cgroup's or RLIMIT_AS's room when smaller):\n"
                     "at most %llu here.", (unsigned long long)room);
        ask_key(&a, &c, "MB", intro, "Memory size in MB", def);
        ask_key(&a, &c, "FSDIR",
                "A directory for the file system benchmarks' files, on the file system you\n"
                "want measured (not tmpfs, unless that is what you want).",
                "File system directory", c.fsdir);
        ask_key(&a, &c, "BENCHMARK_HARDWARE", NULL,
                "Run the hardware benchmarks (processor, caches, memory)? (yes, no)", "yes");
        ask_key(&a, &c, "BENCHMARK_OS", NULL,
                "Run the operating system benchmarks (system calls, processes, files)? (yes, no)",
                "yes");
        ask_key(&a, &c, "BENCHMARK_NETWORK", NULL,
                "Run the network benchmarks (TCP, UDP, RPC, connect)? (yes, no)", "yes");
        if (c.network)
            ask_key(&a, &c, "REMOTE",
                    "Network benchmarks run against this machine (localhost). They can also run\n"
                    "against other hosts reachable with ssh and with lmbench installed: their\n"
                    "servers are started there. Host names, separated by spaces, or none.",
                    "Remote hosts", "none");
        ask_key(&a, &c, "ENOUGH",
                "How long each timed interval lasts, in microseconds. Automatic picks 1000\n"
                "times the clock's error (at least 5000).",
                "ENOUGH (microseconds, or none for automatic)", "none");
    }

    /* lib/outfile.h: a device or FIFO written through, else a temporary file renamed. */
    if (strcmp(out, "-") == 0) {
        fp = stdout;
    } else {
        if (lmb_outfile_open(&of, out, 0, err, sizeof err) != 0) {
            fprintf(stderr, "lmbench config: %s\n", err);
            return 1;
        }
        fp = of.fp;
    }
    /* No date: the same answers write the same file (the file's time says when). */
    snprintf(comment, sizeof comment, "written by lmbench config on %s", host);
    if (lmb_sconf_write(&c, fp, comment) != 0) {
        if (fp != stdout) {
            lmb_outfile_fail(&of, err, sizeof err);
            fprintf(stderr, "lmbench config: %s\n", err);
        } else {
            fprintf(stderr, "lmbench config: cannot write stdout\n");
        }
        return 1;
    }
    if (fp != stdout) {
        if (lmb_outfile_commit(&of, err, sizeof err) != 0) {
            fprintf(stderr, "lmbench config: %s\n", err);
            return 1;
        }
        if (!defaults)
            fputc('\n', a.q);
        lmb_quote(out, q, sizeof q);
        fprintf(stdout, "lmbench config: wrote %s; run it with: lmbench run -c %s\n", q, q);
    }
    return lmb_verb_check_output("config", stdout, "the questions");
}
