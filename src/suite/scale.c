// SPDX-License-Identifier: MIT
/* lmbench scale: runs one benchmark command at -P 1, 2, 4 ... up to the usable
 * CPUs (or the counts of --copies), each point a child process of this binary
 * with --json, and reports the scaling curve: per point the throughput of all
 * copies (summed bandwidth, or operations per second), the per-copy figure,
 * the efficiency against linear, and where the curve stops scaling (the rule
 * is lmb_scale_stop's in scalecurve.c, stated in scale.h and doc/lmbench-scale.1). Output: a
 * table, and with --json or -o FILE one results document holding every
 * point's records (each with its "copies") and run.scale. */
#include "scale.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/launch.h"
#include "lib/outfile.h"
#include "lib/sched.h"
#include "lib/sizes.h"
#include "lib/text.h"
#include "progress.h"
#include "registry.h"
#include "util.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

/* --- the command line --------------------------------------------------------- */

static const char usage[] = "[-N REPS] [-W USEC] [--cpus LIST] [--copies LIST] [--timeout SEC] "
                            "[--min-efficiency E] [--json] [-o FILE] CMD [ARGS...]";

struct scale_opts {
    const char *reps, *warmup, *cpus, *copies_arg, *out;
    double timeout_s;              /* per point; 0: none */
    double min_eff;
    bool json;
    const struct lmb_bench *bench;
    char **args;                   /* the benchmark's own arguments */
    int nargs;
    unsigned copies[LMB_SCALE_MAX_POINTS];
    int ncopies;
    int ncpus;                     /* usable CPUs */
    const char *sched;             /* LMBENCH_SCHED the points run with */
    char **argv;                   /* scale's own, for run.argv */
    int argc;
};

static void help(void)
{
    printf("Usage: lmbench scale %s\n"
           "Runs the benchmark command CMD ARGS with -P 1, 2, 4 ... up to the usable CPUs\n"
           "(and their count, when it is not a power of two), or with the counts of\n"
           "--copies, each point a fresh process of lmbench with --json, and prints the\n"
           "scaling curve of each of its measurements: per point the throughput of all\n"
           "copies together (a bandwidth summed over the copies; for a latency, copies /\n"
           "latency operations per second) with the interval its spread gives, the\n"
           "per-copy figure (bandwidth per copy, latency per operation), the efficiency\n"
           "throughput(P) / (P * throughput(1)), and where it stops scaling: the first\n"
           "point whose throughput interval is not above the previous point's, or whose\n"
           "efficiency is under --min-efficiency. Every point's copies are placed one per\n"
           "CPU (LMBENCH_SCHED=BALANCED) unless LMBENCH_SCHED is set.\n"
           "CMD is a benchmark that takes -P (see lmbench-scale(1) for the list).\n"
           "\nOptions:\n"
           "  -N REPS             timed repetitions of each point (passed on)\n"
           "  -W USEC             warm-up of each point (passed on)\n"
           "  --cpus LIST         run on these CPUs only (passed on; the default counts\n"
           "                      go up to their number)\n"
           "  --copies LIST       the -P counts to run, e.g. 1,2,3,8\n"
           "  --timeout SEC       the most one point may take (default 300; 0: no limit)\n"
           "  --min-efficiency E  the efficiency under which a point stops the curve\n"
           "                      (default %.2f)\n"
           "  --json              the results document on stdout, the table on stderr\n"
           "  -o FILE             write the results document to FILE as well\n"
           "  -h, --help          show this help\n"
           "\nExit status: 0 every point measured, 1 a point failed or timed out, or an\n"
           "output could not be written, 2 bad usage, 3 skipped (CMD cannot run here, or\n"
           "built without jansson). See lmbench-scale(1).\n",
           usage, LMB_SCALE_MIN_EFFICIENCY);
}

/* The benchmarks that take -P, for the message that refuses another. */
static void list_parallel(char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; lmb_benches[i] != NULL; i++) {
        if (!(lmb_benches[i]->common & LMB_USE_P))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? " " : "", lmb_benches[i]->name);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}

/* Parses scale's options (up to CMD). Returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct scale_opts *o)
{
    char err[300], why[128];
    int i;

    memset(o, 0, sizeof *o);
    o->timeout_s = LMB_DEFAULT_TIMEOUT_S;
    o->min_eff = LMB_SCALE_MIN_EFFICIENCY;
    o->argv = argv;
    o->argc = argc;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int m;

        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            help();
            return lmb_verb_check_output("scale", stdout, "the help");
        }
        if (strcmp(a, "-N") == 0 || strcmp(a, "-W") == 0 || strcmp(a, "-o") == 0 ||
            strcmp(a, "-P") == 0) {
            if (i + 1 >= argc)
                return lmb_verb_usage_error("scale", usage, "%s needs a value", a);
            v = argv[++i];
            uint64_t x;
            if (a[1] == 'P')
                return lmb_verb_usage_error("scale", usage,
                                            "-P is what scale varies; give the counts with "
                                            "--copies LIST (e.g. --copies %s)",
                                            lmb_quote_arg(v));
            if (a[1] == 'o') {
                if (*v == '\0')
                    return lmb_verb_usage_error("scale", usage, "-o needs a file name");
                o->out = v;
            } else if (lmb_parse_uint(v, a[1] == 'N' ? 1 : 0,
                                      a[1] == 'N' ? LMB_MAX_REPETITIONS : 3600ULL * 1000000ULL,
                                      &x, why, sizeof why) != 0) {
                return lmb_verb_usage_error("scale", usage, "bad %s '%s': %s", a,
                                            lmb_quote_arg(v), why);
            } else if (a[1] == 'N') {
                o->reps = v;
            } else {
                o->warmup = v;
            }
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            o->json = true;
            continue;
        }
        if ((m = lmb_long_opt(argc, argv, &i, "--cpus", &v)) != 0) {
            if (m < 0 || *v == '\0')
                return lmb_verb_usage_error("scale", usage, "--cpus needs a CPU list");
            o->cpus = v;
            continue;
        }
        if ((m = lmb_long_opt(argc, argv, &i, "--copies", &v)) != 0) {
            if (m < 0)
                return lmb_verb_usage_error("scale", usage, "--copies needs a list of counts");
            o->copies_arg = v;
            continue;
        }
        if ((m = lmb_long_opt(argc, argv, &i, "--timeout", &v)) != 0) {
            if (m < 0)
                return lmb_verb_usage_error("scale", usage, "--timeout needs seconds");
            if (lmb_parse_nonneg_double(v, &o->timeout_s, why, sizeof why) != 0)
                return lmb_verb_usage_error("scale", usage, "bad --timeout '%s': %s",
                                            lmb_quote_arg(v), why);
            continue;
        }
        if ((m = lmb_long_opt(argc, argv, &i, "--min-efficiency", &v)) != 0) {
            if (m < 0)
                return lmb_verb_usage_error("scale", usage, "--min-efficiency needs a number");
            if (lmb_parse_nonneg_double(v, &o->min_eff, why, sizeof why) != 0 || o->min_eff > 1)
                return lmb_verb_usage_error("scale", usage,
                                            "bad --min-efficiency '%s': want a number from 0 to 1",
                                            lmb_quote_arg(v));
            continue;
        }
        return lmb_verb_usage_error("scale", usage, "unknown option '%s'", lmb_quote_arg(a));
    }
    if (i >= argc)
        return lmb_verb_usage_error("scale", usage, "needs a benchmark command, e.g. "
                                    "'lmbench scale lat_syscall null'");
    o->bench = lmb_find_bench(argv[i]);
    if (o->bench == NULL)
        return lmb_verb_usage_error("scale", usage, "'%s' is no benchmark command (see "
                                    "'lmbench list')", lmb_quote_arg(argv[i]));
    if (!(o->bench->common & LMB_USE_P)) {
        char names[2048];
        list_parallel(names, sizeof names);
        fprintf(stderr, "lmbench scale: %s takes no -P, so it has no scaling curve; the "
                "commands that take -P: %s\n", o->bench->name, names);
        fprintf(stderr, "Usage: lmbench scale %s\n", usage);
        return LMB_EXIT_USAGE;
    }
    if (o->reps && !(o->bench->common & LMB_USE_N))
        return lmb_verb_usage_error("scale", usage, "%s takes no -N", o->bench->name);
    if (o->warmup && !(o->bench->common & LMB_USE_W))
        return lmb_verb_usage_error("scale", usage, "%s takes no -W", o->bench->name);
    o->args = argv + i + 1;
    o->nargs = argc - i - 1;
    for (int k = 0; k < o->nargs; k++) {
        const char *a = o->args[k];
        if (strcmp(a, "-P") == 0 || strncmp(a, "-P", 2) == 0)
            return lmb_verb_usage_error("scale", usage, "-P in %s's arguments: scale sets it "
                                        "itself (choose the counts with --copies)",
                                        o->bench->name);
        if (strcmp(a, "--json") == 0)
            return lmb_verb_usage_error("scale", usage, "--json in %s's arguments: scale "
                                        "asks each point for it; give it before %s",
                                        o->bench->name, o->bench->name);
    }

    /* The usable CPUs: --cpus, or the affinity scale started with. */
    {
        struct lmb_sched *s = malloc(sizeof *s);
        if (s == NULL) {
            fprintf(stderr, "lmbench scale: out of memory\n");
            return LMB_EXIT_FAILED;
        }
        if (lmb_sched_setup(s, "DEFAULT", o->cpus, err, sizeof err) != 0) {
            free(s);
            return lmb_verb_usage_error("scale", usage, "%s", err);
        }
        o->ncpus = s->ncpus > 0 ? s->ncpus : 1;
        free(s);
    }
    if (o->copies_arg) {
        o->ncopies = lmb_scale_parse_copies(o->copies_arg, LMB_MAX_PARALLEL, o->copies, err,
                                            sizeof err);
        if (o->ncopies < 0)
            return lmb_verb_usage_error("scale", usage, "%s", err);
    } else {
        o->ncopies = lmb_scale_default_copies((unsigned)o->ncpus, o->copies);
    }
    o->sched = getenv("LMBENCH_SCHED");
    if (o->sched == NULL || *o->sched == '\0')
        o->sched = "BALANCED";
    return -1;
}

#ifdef LMB_HAVE_JANSSON

/* --- running one point ---------------------------------------------------------- */

static volatile sig_atomic_t scale_stop;

static void on_stop(int sig)
{
    scale_stop = sig;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct buf {
    char *p;
    size_t n, cap;
    bool short_of_memory;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 8192;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (q == NULL) {
            b->short_of_memory = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

struct outcome {
    struct buf out, err;
    int status;          /* exit status, -1 when none */
    int signal;
    bool timed_out, interrupted;
    double elapsed;
};

/* The child: its own process group, default signals, dead with scale, and
 * `lmbench CMD -P n --json [-N] [-W] [--cpus] [--timeout] ARGS`. */
static void exec_point(const struct scale_opts *o, unsigned copies, int out_fd, int err_fd,
                       pid_t parent)
{
    char pbuf[16], tbuf[32];
    char **argv = calloc((size_t)o->nargs + 16, sizeof *argv);
    const char *self = getenv(LMB_SELF_ENV);
    int n = 0;

    if (!lmb_child_setup(parent) || argv == NULL)
        _exit(127);
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) {
        dup2(nul, STDIN_FILENO);
        close(nul);
    }
    if (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0)
        _exit(127);
    setenv("LMBENCH_SCHED", o->sched, 1);
    snprintf(pbuf, sizeof pbuf, "%u", copies);
    argv[n++] = "lmbench";
    argv[n++] = (char *)o->bench->name;
    argv[n++] = "-P";
    argv[n++] = pbuf;
    argv[n++] = "--json";
    if (o->reps) {
        argv[n++] = "-N";
        argv[n++] = (char *)o->reps;
    }
    if (o->warmup) {
        argv[n++] = "-W";
        argv[n++] = (char *)o->warmup;
    }
    if (o->cpus) {
        argv[n++] = "--cpus";
        argv[n++] = (char *)o->cpus;
    }
    if (o->timeout_s > 0) {
        snprintf(tbuf, sizeof tbuf, "%g", o->timeout_s);
        argv[n++] = "--timeout";
        argv[n++] = tbuf;
    }
    for (int k = 0; k < o->nargs; k++)
        argv[n++] = o->args[k];
    argv[n] = NULL;
    execv(self && *self ? self : "/proc/self/exe", argv);
    fprintf(stderr, "cannot run %s: %s\n", self && *self ? self : "/proc/self/exe",
            strerror(errno));
    _exit(127);
}

/* The command is given its own --timeout; after that and this grace it is
 * killed. */
#define KILL_GRACE_S 10.0

static void run_point(const struct scale_opts *o, unsigned copies, struct outcome *r)
{
    int fds[2][2] = { { -1, -1 }, { -1, -1 } };
    int wst = 0, open_fds = 0;
    bool exited = false, killed = false;
    double t0 = now_s(), kill_at = 0;
    double deadline = o->timeout_s > 0 ? t0 + o->timeout_s + KILL_GRACE_S : 0;
    pid_t pid, parent = getpid();

    memset(r, 0, sizeof *r);
    r->status = -1;
    for (int i = 0; i < 2; i++)
        if (pipe2(fds[i], O_CLOEXEC) != 0) {
            buf_add(&r->err, "cannot make a pipe\n", 19);
            goto fail;
        }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        buf_add(&r->err, "cannot fork\n", 12);
        goto fail;
    }
    if (pid == 0)
        exec_point(o, copies, fds[0][1], fds[1][1], parent);
    setpgid(pid, pid);
    for (int i = 0; i < 2; i++) {
        close(fds[i][1]);
        fds[i][1] = -1;
        fcntl(fds[i][0], F_SETFL, O_NONBLOCK);
        open_fds++;
    }
    while (open_fds > 0 || !exited) {
        struct pollfd pfd[2];
        int n = 0, idx[2];
        for (int i = 0; i < 2; i++)
            if (fds[i][0] >= 0) {
                pfd[n].fd = fds[i][0];
                pfd[n].events = POLLIN;
                idx[n++] = i;
            }
        if (n > 0)
            poll(pfd, (nfds_t)n, 100);
        else
            usleep(20000);
        for (int k = 0; k < n; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[8192];
            ssize_t got = read(pfd[k].fd, chunk, sizeof chunk);
            if (got > 0) {
                buf_add(idx[k] == 0 ? &r->out : &r->err, chunk, (size_t)got);
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(fds[idx[k]][0]);
                fds[idx[k]][0] = -1;
                open_fds--;
            }
        }
        if (!exited && waitpid(pid, &wst, WNOHANG) == pid)
            exited = true;
        if (exited && open_fds > 0 && kill_at == 0)
            kill_at = now_s() + 2;   /* what its own children still hold open */
        if (!killed && scale_stop) {
            r->interrupted = true;
            killpg(pid, SIGTERM);   /* a benchmark removes its temporary files on SIGTERM */
            kill_at = now_s() + 1;
            killed = true;
        } else if (!killed && deadline > 0 && now_s() > deadline) {
            r->timed_out = true;
            killpg(pid, SIGTERM);
            kill_at = now_s() + 1;
            killed = true;
        }
        if (kill_at > 0 && now_s() > kill_at) {
            killpg(pid, SIGKILL);
            if (!exited && waitpid(pid, &wst, 0) == pid)
                exited = true;
            for (int i = 0; i < 2; i++)
                if (fds[i][0] >= 0) {
                    close(fds[i][0]);
                    fds[i][0] = -1;
                }
            open_fds = 0;
            kill_at = 0;
        }
    }
    killpg(pid, SIGKILL);   /* nothing of the point outlives it */
    if (WIFEXITED(wst))
        r->status = WEXITSTATUS(wst);
    else if (WIFSIGNALED(wst))
        r->signal = WTERMSIG(wst);
    r->elapsed = now_s() - t0;
    return;
fail:
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            if (fds[i][k] >= 0)
                close(fds[i][k]);
    r->elapsed = now_s() - t0;
}

static void outcome_free(struct outcome *r)
{
    free(r->out.p);
    free(r->err.p);
}

/* The last non-empty line of text, into out. */
static void last_line(const char *text, size_t n, char *out, size_t len)
{
    const char *end = text + n, *start;

    out[0] = '\0';
    if (text == NULL || n == 0)
        return;
    while (end > text && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* The lines a point wrote on stderr, passed on once: a line that an earlier
 * point wrote already is not repeated. */
struct seen {
    char **line;
    size_t n, cap;
};

static void pass_messages(struct seen *s, unsigned copies, const struct buf *b)
{
    const char *p = b->p, *end = b->p ? b->p + b->n : NULL;

    while (p != NULL && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        bool known = l == 0;
        for (size_t i = 0; !known && i < s->n; i++)
            known = strlen(s->line[i]) == l && memcmp(s->line[i], p, l) == 0;
        if (!known) {
            fprintf(stderr, "lmbench scale: -P %u: %.*s\n", copies, (int)l, p);
            if (s->n == s->cap) {
                size_t cap = s->cap ? 2 * s->cap : 16;
                char **q = realloc(s->line, cap * sizeof *q);
                if (q != NULL) {
                    s->line = q;
                    s->cap = cap;
                }
            }
            if (s->n < s->cap && (s->line[s->n] = strndup(p, l)) != NULL)
                s->n++;
        }
        p = nl ? nl + 1 : end;
    }
}

static void seen_free(struct seen *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->line[i]);
    free(s->line);
}

/* --- the curves of a run --------------------------------------------------------- */

/* One measurement (benchmark, case, parameters) over the points. */
struct series {
    char *key;                       /* benchmark, case and the parameters as JSON */
    json_t *rec;                     /* the first record seen (identity, unit) */
    const char *unit, *metric;
    bool latency;
    struct lmb_scale_point pt[LMB_SCALE_MAX_POINTS];
    double per_copy[LMB_SCALE_MAX_POINTS];
    char status[LMB_SCALE_MAX_POINTS][16];   /* "" when the point has no such record */
    char reason[LMB_SCALE_MAX_POINTS][160];
    int stop;
    char why[200];
};

struct curves {
    struct series *s;
    size_t n, cap;
    char point_why[LMB_SCALE_MAX_POINTS][200];   /* a point that gave no document: why */
};

static char *record_key(json_t *rec)
{
    json_t *b = json_object_get(rec, "benchmark"), *c = json_object_get(rec, "case");
    char *params = json_dumps(json_object_get(rec, "params"), JSON_COMPACT | JSON_SORT_KEYS);
    char *key = NULL;
    size_t len = 64 + (params ? strlen(params) : 0) + (json_is_string(b) ? strlen(json_string_value(b)) : 0) +
                 (json_is_string(c) ? strlen(json_string_value(c)) : 0);

    key = malloc(len);
    if (key != NULL)
        snprintf(key, len, "%s\x1f%s\x1f%s", json_is_string(b) ? json_string_value(b) : "",
                 json_is_string(c) ? json_string_value(c) : "", params ? params : "null");
    free(params);
    return key;
}

static struct series *series_for(struct curves *cv, json_t *rec, const struct scale_opts *o)
{
    char *key = record_key(rec);

    if (key == NULL)
        return NULL;
    for (size_t i = 0; i < cv->n; i++)
        if (strcmp(cv->s[i].key, key) == 0) {
            free(key);
            return &cv->s[i];
        }
    if (cv->n == cv->cap) {
        size_t cap = cv->cap ? 2 * cv->cap : 4;
        struct series *q = realloc(cv->s, cap * sizeof *q);
        if (q == NULL) {
            free(key);
            return NULL;
        }
        cv->s = q;
        cv->cap = cap;
    }
    struct series *s = &cv->s[cv->n++];
    memset(s, 0, sizeof *s);
    s->key = key;
    s->rec = json_incref(rec);
    s->unit = json_string_value(json_object_get(rec, "unit"));
    s->metric = json_string_value(json_object_get(rec, "metric"));
    s->latency = s->metric != NULL && strcmp(s->metric, "latency") == 0;
    s->stop = -1;
    for (int k = 0; k < o->ncopies; k++) {
        s->pt[k].copies = o->copies[k];
        s->pt[k].efficiency = NAN;
        s->per_copy[k] = NAN;
    }
    return s;
}

static double num(json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Adds the records of point k's document to the curves. */
static void add_point(struct curves *cv, const struct scale_opts *o, int k, json_t *results)
{
    size_t i;
    json_t *rec;

    json_array_foreach(results, i, rec) {
        struct series *s = series_for(cv, rec, o);
        if (s == NULL)
            continue;
        const char *st = json_string_value(json_object_get(rec, "status"));
        const char *reason = json_string_value(json_object_get(rec, "reason"));
        json_t *stats = json_object_get(rec, "stats"), *ci = json_object_get(stats, "ci95");
        double v = num(json_object_get(rec, "value")), lo, hi;
        snprintf(s->status[k], sizeof s->status[k], "%s", st ? st : "unknown");
        snprintf(s->reason[k], sizeof s->reason[k], "%s", reason ? reason : "");
        if (json_is_array(ci) && json_array_size(ci) == 2) {
            lo = num(json_array_get(ci, 0));
            hi = num(json_array_get(ci, 1));
        } else {
            lo = num(json_object_get(stats, "p25"));
            hi = num(json_object_get(stats, "p75"));
        }
        if (st == NULL || strcmp(st, "ok") != 0)
            continue;
        if (lmb_scale_throughput(s->metric, s->unit, o->copies[k], v, lo, hi, &s->pt[k]) != 0) {
            snprintf(s->reason[k], sizeof s->reason[k], "not a bandwidth in MB/s nor a latency");
            continue;
        }
        s->per_copy[k] = s->latency ? v : v / o->copies[k];
    }
}

static void curves_free(struct curves *cv)
{
    for (size_t i = 0; i < cv->n; i++) {
        free(cv->s[i].key);
        json_decref(cv->s[i].rec);
    }
    free(cv->s);
}

/* --- the table ------------------------------------------------------------------- */

/* A throughput for people: "5.06M" operations per second, or MB/s as "61824". */
static const char *thr_text(double v, bool latency, char *buf, size_t len)
{
    static const char *sfx[] = { "", "k", "M", "G", "T" };
    int i = 0;

    if (!latency) {
        snprintf(buf, len, "%.0f", v);
        return buf;
    }
    while (v >= 1000 && i < 4) {
        v /= 1000;
        i++;
    }
    snprintf(buf, len, "%.3g%s", v, sfx[i]);
    return buf;
}

/* A figure in the table: whole above 1000, else 4 significant digits. */
static const char *fig_text(double v, char *buf, size_t len)
{
    snprintf(buf, len, fabs(v) >= 1000 ? "%.0f" : "%.4g", v);
    return buf;
}

/* The parameters as "key=value key=value" (strings bare, numbers as JSON). */
static void params_text(json_t *params, char *buf, size_t len)
{
    const char *key;
    json_t *v;
    size_t used = 0;

    buf[0] = '\0';
    json_object_foreach(params, key, v) {
        char *t = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        int w = snprintf(buf + used, len - used, " %s=%s", key,
                         json_is_string(v) ? json_string_value(v) : t ? t : "?");
        free(t);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}

static void print_series(FILE *f, const struct scale_opts *o, const struct curves *cv,
                         const struct series *s)
{
    const char *b = json_string_value(json_object_get(s->rec, "benchmark"));
    const char *c = json_string_value(json_object_get(s->rec, "case"));
    const char *tu = s->latency ? "op/s" : s->unit ? s->unit : "?";
    char params[512];

    params_text(json_object_get(s->rec, "params"), params, sizeof params);
    fprintf(f, "%s%s%s%s\n", b ? b : "?", c && *c ? " " : "", c ? c : "", params);
    fprintf(f, "%6s  %14s  %12s  %-23s  %10s\n", "copies", s->latency ? "latency/op" : "per copy",
            "throughput", "interval", "efficiency");
    for (int k = 0; k < o->ncopies; k++) {
        char a[32], lo[32], hi[32], pc[40], iv[64];
        if (!s->pt[k].ok) {
            const char *why = s->status[k][0] ? s->reason[k] : cv->point_why[k];
            fprintf(f, "%6u  %s%s%s\n", o->copies[k], s->status[k][0] ? s->status[k] : "no record",
                    why[0] ? ": " : "", why);
            continue;
        }
        snprintf(pc, sizeof pc, "%s %s", fig_text(s->per_copy[k], a, sizeof a),
                 s->unit ? s->unit : "");
        snprintf(iv, sizeof iv, "%s-%s %s", thr_text(s->pt[k].thr_lo, s->latency, lo, sizeof lo),
                 thr_text(s->pt[k].thr_hi, s->latency, hi, sizeof hi), tu);
        fprintf(f, "%6u  %14s  %7s %-4s  %-23s  %10.2f%s\n", o->copies[k], pc,
                thr_text(s->pt[k].thr, s->latency, a, sizeof a), tu, iv, s->pt[k].efficiency,
                (int)k == s->stop ? "  <- stops" : "");
    }
    if (s->stop >= 0)
        fprintf(f, "stops scaling at -P %u: %s\n\n", s->pt[s->stop].copies, s->why);
    else
        fprintf(f, "does not stop scaling: %s\n\n", s->why);
}

/* --- the document ---------------------------------------------------------------- */

static json_t *scale_object(const struct scale_opts *o, const struct curves *cv, int stops_at)
{
    json_t *sc = json_object(), *args = json_array(), *copies = json_array(), *series = json_array();

    for (int k = 0; k < o->nargs; k++)
        json_array_append_new(args, json_string(o->args[k]));
    for (int k = 0; k < o->ncopies; k++)
        json_array_append_new(copies, json_integer(o->copies[k]));
    json_object_set_new(sc, "command", json_string(o->bench->name));
    json_object_set_new(sc, "argv", args);
    json_object_set_new(sc, "copies", copies);
    json_object_set_new(sc, "stops_at", stops_at > 0 ? json_integer(stops_at) : json_null());
    json_object_set_new(sc, "min_efficiency", json_real(o->min_eff));
    json_object_set_new(sc, "sched", json_string(o->sched));
    json_object_set_new(sc, "cpus_usable", json_integer(o->ncpus));
    for (size_t i = 0; i < cv->n; i++) {
        const struct series *s = &cv->s[i];
        json_t *e = json_object(), *pts = json_array();
        json_object_set(e, "benchmark", json_object_get(s->rec, "benchmark"));
        json_object_set(e, "case", json_object_get(s->rec, "case"));
        json_object_set(e, "params", json_object_get(s->rec, "params"));
        json_object_set(e, "unit", json_object_get(s->rec, "unit"));
        json_object_set_new(e, "throughput_unit", json_string(s->latency ? "op/s" : "MB/s"));
        json_object_set_new(e, "stops_at", s->stop >= 0 ? json_integer(s->pt[s->stop].copies)
                                                        : json_null());
        json_object_set_new(e, "reason", json_string(s->why));
        for (int k = 0; k < o->ncopies; k++) {
            json_t *p = json_object();
            json_object_set_new(p, "copies", json_integer(o->copies[k]));
            json_object_set_new(p, "status", json_string(s->status[k][0] ? s->status[k]
                                                                          : "missing"));
            if (s->pt[k].ok) {
                json_object_set_new(p, "throughput", json_real(s->pt[k].thr));
                json_object_set_new(p, "throughput_lo", json_real(s->pt[k].thr_lo));
                json_object_set_new(p, "throughput_hi", json_real(s->pt[k].thr_hi));
                json_object_set_new(p, "per_copy", json_real(s->per_copy[k]));
                json_object_set_new(p, "efficiency", json_real(s->pt[k].efficiency));
            }
            json_array_append_new(pts, p);
        }
        json_object_set_new(e, "points", pts);
        json_array_append_new(series, e);
    }
    json_object_set_new(sc, "series", series);
    return sc;
}

/* The document: the first point's header (tool, host), run from scale, and
 * every point's records. */
static json_t *document(const struct scale_opts *o, json_t *first, const char *end,
                        json_t *records, const char *status, json_t *scale)
{
    json_t *doc = json_deep_copy(first), *run = json_object_get(first, "run"), *nrun = json_object();
    json_t *argv = json_array(), *cfg = json_deep_copy(json_object_get(run, "config"));

    json_array_append_new(argv, json_string("lmbench"));
    for (int k = 0; k < o->argc; k++)
        json_array_append_new(argv, json_string(o->argv[k]));
    json_object_set(nrun, "id", json_object_get(run, "id"));
    json_object_set_new(nrun, "argv", argv);
    json_object_set(nrun, "start", json_object_get(run, "start"));
    json_object_set_new(nrun, "end", end ? json_string(end) : json_null());
    if (json_is_object(cfg)) {
        json_object_set_new(cfg, "parallel", json_null());   /* one per point: run.scale.copies */
        json_object_set_new(nrun, "config", cfg);
    } else {
        json_decref(cfg);
    }
    json_object_set_new(nrun, "status", json_string(status));
    json_object_set_new(nrun, "scale", scale);
    json_object_set_new(doc, "run", nrun);
    json_object_set(doc, "results", records);
    return doc;
}

static int write_doc(FILE *f, json_t *doc)
{
    if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) != 0)
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

static int write_outputs(const struct scale_opts *o, json_t *doc)
{
    int rc = 0;
    char err[400];

    if (o->json) {
        if (write_doc(stdout, doc) != 0 && !ferror(stdout)) {
            fprintf(stderr, "lmbench scale: cannot write the results document\n");
            rc = 1;
        }
        rc |= lmb_verb_check_output("scale", stdout, "the results document");
    }
    if (o->out) {
        struct lmb_outfile of;
        if (lmb_outfile_open(&of, o->out, 0, err, sizeof err) != 0) {
            fprintf(stderr, "lmbench scale: %s\n", err);
            return 1;
        }
        if (write_doc(of.fp, doc) != 0) {
            lmb_outfile_fail(&of, err, sizeof err);
            fprintf(stderr, "lmbench scale: %s\n", err);
            return 1;
        }
        if (lmb_outfile_commit(&of, err, sizeof err) != 0) {
            fprintf(stderr, "lmbench scale: %s\n", err);
            return 1;
        }
    }
    return rc;
}

/* --- the verb ---------------------------------------------------------------------- */

static void catch_signals(struct sigaction old[3])
{
    struct sigaction sa;
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    signal(SIGPIPE, SIG_IGN);
}

static void restore_signals(const struct sigaction old[3])
{
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };

    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
}

static void progress(const struct scale_opts *o, int k, double spent)
{
    char eta[32];

    if (k == 0) {
        fprintf(stderr, "lmbench scale: %s at -P %u (point 1 of %d)\n", o->bench->name,
                o->copies[0], o->ncopies);
        return;
    }
    /* Each copy calibrates to the same interval at every point, so points
     * take about as long as each other: the mean so far, for those left. */
    double left = spent / k * (o->ncopies - k);
    fprintf(stderr, "lmbench scale: %s at -P %u (point %d of %d, about %s left)\n",
            o->bench->name, o->copies[k], k + 1, o->ncopies, lmb_eta_format(left, eta, sizeof eta));
}

/* What the points gave, as they run. */
struct scale_run {
    struct curves cv;
    struct seen seen;
    json_t *first;                   /* the first point's document */
    json_t *records;                 /* every point's records, in order */
    char *end;                       /* the last point's run.end */
    bool failed, interrupted, any;   /* any: a point exited 0 */
    int done;                        /* points run to their end */
    double spent;                    /* their seconds */
};

/* Takes point k's outcome into sr. Returns -1 to go on, or the exit status
 * that ends the run (the command refused its arguments, or it is skipped). */
static int take_point(const struct scale_opts *o, int k, struct outcome *r, struct scale_run *sr)
{
    json_error_t jerr;
    json_t *doc = NULL, *res, *end;
    char last[300];
    int rc = -1;

    if (r->status == LMB_EXIT_USAGE) {
        /* The command refused its arguments: its message is the answer. */
        if (r->err.n)
            fwrite(r->err.p, 1, r->err.n, stderr);
        return LMB_EXIT_USAGE;
    }
    if (r->out.n > 0)
        doc = json_loadb(r->out.p, r->out.n, 0, &jerr);
    res = json_object_get(doc, "results");
    last_line(r->err.p, r->err.n, last, sizeof last);
    sr->done++;
    if (!json_is_array(res)) {
        char *why = sr->cv.point_why[k];
        snprintf(why, sizeof sr->cv.point_why[k], "%s",
                 r->timed_out ? "no result within the --timeout; its processes were killed"
                 : r->signal ? strsignal(r->signal)
                 : last[0] ? last : "no results document");
        fprintf(stderr, "lmbench scale: -P %u: %s\n", o->copies[k], why);
        sr->failed = true;
        json_decref(doc);
        return -1;
    }
    pass_messages(&sr->seen, o->copies[k], &r->err);
    if (r->status != 0 && r->status != LMB_EXIT_SKIPPED)
        sr->failed = true;
    if (r->status == 0)
        sr->any = true;
    if (sr->first == NULL)
        sr->first = json_incref(doc);
    end = json_object_get(json_object_get(doc, "run"), "end");
    free(sr->end);
    sr->end = json_is_string(end) ? strdup(json_string_value(end)) : NULL;
    json_array_extend(sr->records, res);
    add_point(&sr->cv, o, k, res);
    if (k == 0 && r->status == LMB_EXIT_SKIPPED) {
        fprintf(stderr, "lmbench scale: %s is skipped at -P %u%s%s; not run further\n",
                o->bench->name, o->copies[0], last[0] ? ": " : "", last);
        rc = LMB_EXIT_SKIPPED;
    }
    json_decref(doc);
    return rc;
}

/* Runs the points in order until they are done, one ends the run, or a
 * signal stops it. Returns -1, or the exit status that ends the run. */
static int run_points(const struct scale_opts *o, struct scale_run *sr)
{
    for (int k = 0; k < o->ncopies; k++)
        if (o->copies[k] > (unsigned)o->ncpus) {
            fprintf(stderr, "lmbench scale: -P %u is more than the %d usable CPUs: its copies "
                    "share CPUs\n", o->copies[k], o->ncpus);
            break;
        }
    for (int k = 0; k < o->ncopies && !scale_stop; k++) {
        struct outcome r;
        int rc;

        progress(o, k, sr->spent);
        run_point(o, o->copies[k], &r);
        sr->spent += r.elapsed;
        if (r.interrupted || scale_stop) {
            outcome_free(&r);
            break;
        }
        rc = take_point(o, k, &r, sr);
        outcome_free(&r);
        if (rc >= 0)
            return rc;
    }
    if (scale_stop)
        sr->interrupted = true;
    return -1;
}

/* The curves' stops, the table, the document. Returns the exit status of
 * the outputs: 0, or 1 when one could not be written. */
static int report(const struct scale_opts *o, struct scale_run *sr)
{
    struct scale_opts shown = *o;   /* the points that ran */
    FILE *tf = o->json ? stderr : stdout;
    int stops_at = 0, rc = 0;

    shown.ncopies = sr->done;
    for (size_t i = 0; i < sr->cv.n; i++) {
        struct series *s = &sr->cv.s[i];
        s->stop = lmb_scale_stop(s->pt, (size_t)sr->done, o->min_eff, s->why, sizeof s->why);
        if (s->stop >= 0 && (stops_at == 0 || s->pt[s->stop].copies < (unsigned)stops_at))
            stops_at = (int)s->pt[s->stop].copies;
    }
    for (size_t i = 0; i < sr->cv.n; i++)
        print_series(tf, &shown, &sr->cv, &sr->cv.s[i]);
    if (sr->interrupted)
        fprintf(tf, "interrupted after %d of %d points\n", sr->done, o->ncopies);
    if (tf == stdout && lmb_verb_check_output("scale", stdout, "the table") != 0)
        rc = LMB_EXIT_FAILED;
    if (sr->first != NULL && (o->json || o->out)) {
        json_t *doc = document(o, sr->first, sr->end, sr->records,
                               sr->interrupted ? "interrupted" : sr->failed ? "failed" : "ok",
                               scale_object(&shown, &sr->cv, stops_at));
        if (write_outputs(o, doc) != 0)
            rc = LMB_EXIT_FAILED;
        json_decref(doc);
    }
    return rc;
}

static int run_scale(const struct scale_opts *o)
{
    struct scale_run sr = { .records = json_array() };
    struct sigaction old[3];
    int rc;

    catch_signals(old);
    rc = run_points(o, &sr);
    if (rc != LMB_EXIT_USAGE) {
        int out = report(o, &sr);
        if (rc < 0)
            rc = sr.failed || out ? LMB_EXIT_FAILED
                 : sr.any ? LMB_EXIT_OK
                 : sr.first == NULL ? LMB_EXIT_FAILED : LMB_EXIT_SKIPPED;
        else if (out)
            rc = LMB_EXIT_FAILED;
        if (sr.interrupted)
            rc = 128 + (int)scale_stop;
    }
    restore_signals(old);
    curves_free(&sr.cv);
    seen_free(&sr.seen);
    json_decref(sr.first);
    json_decref(sr.records);
    free(sr.end);
    return rc;
}

#endif /* LMB_HAVE_JANSSON */

int lmb_suite_scale(int argc, char **argv)
{
    struct scale_opts o;
    int rc = parse(argc, argv, &o);

    if (rc >= 0)
        return rc;
#ifdef LMB_HAVE_JANSSON
    return run_scale(&o);
#else
    fprintf(stderr, "lmbench scale: skipped: built without jansson (it reads each point's "
            "results document)\n");
    return LMB_EXIT_SKIPPED;
#endif
}
