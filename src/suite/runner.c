// SPDX-License-Identifier: MIT
/* lmbench run: the whole suite, non-interactively, as lmbench 3's `make results`.
 *
 * Settings come from the profile, a config file (-c, lmbench 3's keys), the
 * environment (ENOUGH, LMBENCH_SCHED) and the options, checked once before
 * anything runs. The plan (steps.c) is run step by step, each step in its own
 * process group with a timeout; a failure, skip or timeout is recorded with its
 * reason and the run goes on. Three files are left in the results directory
 * (doc/results-schema.md): <host>.<n>.jsonl appended step by step (a header
 * line, one line per record, one line per finished step), <host>.<n> the
 * classic raw results text with lmbench 3's header and section lines, and at
 * the end <host>.<n>.json, the whole document, written atomically. SIGINT and
 * SIGTERM stop the run cleanly: the step's processes are killed, the scratch
 * file removed, and what was measured is kept (.jsonl and .json); --resume
 * continues an interrupted run from its .jsonl. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/sched.h"
#include "lib/sysinfo.h"
#include "registry.h"
#include "runconf.h"
#include "stepexec.h"
#include "steps.h"
#include "suite.h"
#include "util.h"

#include "version.h"   /* generated: LMB_VERSION, LMB_CFLAGS_STR */

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

#if defined(__clang__)
#define COMPILER __VERSION__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "unknown"
#endif

static const char usage[] =
    "[--profile quick|default|full] [-c FILE] [-o DIR] [-P N] [--sched POLICY]\n"
    "       [--cpus LIST] [--mb MB] [--fsdir DIR] [--remote HOST]... [--groups LIST]\n"
    "       [--enough US] [-N N] [--timeout SEC] [--resume] [--list]";

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
           "  --remote HOST    also run the network benchmarks against HOST, their servers\n"
           "                   started there over ssh (repeatable) [REMOTE]\n"
           "  --groups LIST    which groups: hardware,os,network (default all)\n"
           "                   [BENCHMARK_HARDWARE, BENCHMARK_OS, BENCHMARK_NETWORK]\n"
           "  --enough US      microseconds per timed interval [ENOUGH]\n"
           "  -N N             repetitions of each measurement [REPETITIONS]\n"
           "  --timeout SEC    seconds one step may take before it is stopped [TIMEOUT]\n"
           "  --resume         continue the interrupted run in DIR\n"
           "  --list           print the steps and exit\n"
           "  -h, --help       show this help\n"
           "\nEnvironment: ENOUGH and LMBENCH_SCHED as lmbench 3 (the options win).\n"
           "Exit status: 0 every step ok or skipped, 1 a step failed or timed out (or the\n"
           "results could not be written), 2 bad usage, 130/143 stopped by SIGINT/SIGTERM.\n"
           "See lmbench-run(1).\n", usage);
}

/* --- signals ----------------------------------------------------------------- */

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

static void catch_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* --- small helpers ----------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;

    if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, len, "unknown");
}

static void date_line(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;

    if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%a %b %d %H:%M:%S UTC %Y", &tm) == 0)
        snprintf(buf, len, "unknown");
}

static void make_run_id(char *buf, size_t len)
{
    unsigned char r[16];

    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        /* No entropy: time and pid still make it unique enough here. */
        uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        memcpy(r, &t, 8);
        memcpy(r + 8, &t, 8);
    }
    r[6] = (unsigned char)((r[6] & 0x0f) | 0x40);   /* UUID version 4 */
    r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
    snprintf(buf, len,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", r[0], r[1],
             r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14],
             r[15]);
}

/* A growing buffer for what a step writes. */
struct buf {
    char *p;
    size_t n, cap;
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *q;
        while (cap < b->n + n + 1)
            cap *= 2;
        q = realloc(b->p, cap);
        if (q == NULL)
            return -1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
    return 0;
}

static void buf_free(struct buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static int mkdir_p(const char *dir)
{
    char tmp[4096];
    size_t n = strlen(dir);

    if (n == 0 || n >= sizeof tmp)
        return -1;
    memcpy(tmp, dir, n + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* --- the run's state ------------------------------------------------------- */

struct run {
    struct lmb_sconf conf;
    struct lmb_plan plan;
    struct lmb_host host;
    char outdir[2048];
    char base[2300];              /* <dir>/<host>.<n> */
    char id[64];
    char start[32];
    char file[1200];              /* the scratch file */
    bool file_made;
    FILE *raw, *jsonl;
    bool tty;
    bool progress_shown;
    size_t first;                 /* first step to run (after a resume) */
    bool header_written;
    char header_vals[2][200];     /* MHZ, LINE_SIZE */
    unsigned failed, skipped, ok, timeouts;
    double t0;
    double weight_done, weight_total, time_done;
    char **argv;
    int argc;
    bool json;                    /* JSON output (built with jansson) */
#ifdef LMB_HAVE_JANSSON
    json_t *records;              /* every record, for the .json */
    json_t *steps;                /* every step's outcome */
    json_t *tool;                 /* from the first step's document */
    json_t *timer;
#endif
};

static void msg(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void msg(struct run *r, const char *fmt, ...)
{
    va_list ap;

    if (r->tty && r->progress_shown) {
        fputs("\r\033[K", stderr);
        r->progress_shown = false;
    }
    fputs("lmbench run: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

static void progress(struct run *r, size_t i, const struct lmb_step *s)
{
    char eta[32] = "";
    double left;

    if (r->weight_done > 0 && r->time_done > 0) {
        left = r->time_done / r->weight_done * (r->weight_total - r->weight_done);
        if (left >= 60)
            snprintf(eta, sizeof eta, " ETA %dm%02ds", (int)(left / 60), (int)fmod(left, 60));
        else
            snprintf(eta, sizeof eta, " ETA %ds", (int)left);
    }
    if (r->tty) {
        fprintf(stderr, "\r\033[Klmbench run: [%zu/%zu]%s %.*s", i + 1, r->plan.n, eta, 50,
                s->name);
        r->progress_shown = true;
    } else {
        fprintf(stderr, "lmbench run: [%zu/%zu] %s%s\n", i + 1, r->plan.n, s->name, eta);
    }
    fflush(stderr);
}

/* --- the raw results file ----------------------------------------------------- */

static void raw_header(struct run *r)
{
    const struct lmb_host *h = &r->host;
    FILE *f = r->raw;
    char date[64], sizes[1024] = "";
    size_t o = 0;
    const char *user = getenv("USER");

    for (unsigned long long b = 512; b <= r->plan.mb << 20 && o < sizeof sizes - 16; b *= 2) {
        if (b < 1024)
            o += (size_t)snprintf(sizes + o, sizeof sizes - o, "%s%llu", o ? " " : "", b);
        else if (b < 1 << 20)
            o += (size_t)snprintf(sizes + o, sizeof sizes - o, "%s%lluk", o ? " " : "", b >> 10);
        else
            o += (size_t)snprintf(sizes + o, sizeof sizes - o, "%s%llum", o ? " " : "", b >> 20);
    }
    fprintf(f, "[lmbench3.0 results for %s %s %s %s %s%s]\n", h->uts.sysname, h->uts.nodename,
            h->uts.release, h->uts.version, h->uts.machine,
            strcmp(h->uts.sysname, "Linux") == 0 ? " GNU/Linux" : "");
    fprintf(f, "[LMBENCH_VER: %s]\n", LMB_VERSION);
    fprintf(f, "[BENCHMARK_HARDWARE: %s]\n", r->conf.hardware ? "YES" : "NO");
    fprintf(f, "[BENCHMARK_OS: %s]\n", r->conf.os ? "YES" : "NO");
    fprintf(f, "[BENCHMARK_NETWORK: %s]\n", r->conf.network ? "YES" : "NO");
    fprintf(f, "[ALL: %s]\n", sizes);
    fprintf(f, "[DISKS: ]\n[DISK_DESC: ]\n");
    fprintf(f, "[ENOUGH: %s]\n", r->plan.enough);
    fprintf(f, "[FAST: ]\n[FASTMEM: NO]\n");
    fprintf(f, "[FILE: %s]\n", r->file);
    fprintf(f, "[FSDIR: %s]\n", r->conf.fsdir);
    fprintf(f, "[INFO: ]\n");
    fprintf(f, "[LINE_SIZE: %s]\n", r->header_vals[1]);
    fprintf(f, "[MB: %llu]\n", r->plan.mb);
    fprintf(f, "[MHZ: %s]\n", r->header_vals[0]);
    fprintf(f, "[MOTHERBOARD: ]\n[NETWORKS: ]\n");
    fprintf(f, "[PROCESSORS: %ld]\n", h->cpus_online);
    fprintf(f, "[REMOTE: %s]\n", r->conf.remote);
    fprintf(f, "[SLOWFS: NO]\n");
    {
        char plat[300];
        size_t n;
        snprintf(plat, sizeof plat, "%s-%s%s", h->uts.machine, h->uts.sysname,
                 strcmp(h->uts.sysname, "Linux") == 0 ? "-gnu" : "");
        for (n = 0; plat[n]; n++)
            if (plat[n] >= 'A' && plat[n] <= 'Z')
                plat[n] = (char)(plat[n] - 'A' + 'a');
        fprintf(f, "[OS: %s]\n", plat);
    }
    fprintf(f, "[SYNC_MAX: %u]\n", r->conf.parallel);
    fprintf(f, "[LMBENCH_SCHED: %s]\n", r->conf.sched);
    fprintf(f, "[LMBENCH VERSION: lmbench %s]\n", LMB_VERSION);
    fprintf(f, "[USER: %s]\n", user ? user : "");
    fprintf(f, "[HOSTNAME: %s]\n", h->hostname);
    fprintf(f, "[NODENAME: %s]\n", h->uts.nodename);
    fprintf(f, "[SYSNAME: %s]\n", h->uts.sysname);
    fprintf(f, "[PROCESSOR: unknown]\n");
    fprintf(f, "[MACHINE: %s]\n", h->uts.machine);
    fprintf(f, "[RELEASE: %s]\n", h->uts.release);
    fprintf(f, "[VERSION: %s]\n", h->uts.version);
    fprintf(f, "[RUN_ID: %s]\n", r->id);
    date_line(date, sizeof date);
    fprintf(f, "[%s]\n", date);
    fprintf(f, "[ load average: %.2f, %.2f, %.2f]\n", h->loadavg[0], h->loadavg[1], h->loadavg[2]);
    fflush(f);
    r->header_written = true;
}

/* --- JSON -------------------------------------------------------------------- */

#ifdef LMB_HAVE_JANSSON

static json_t *conf_json(const struct run *r)
{
    const struct lmb_sconf *c = &r->conf;
    json_t *o = json_object();

    json_object_set_new(o, "profile", json_string(c->profile));
    json_object_set_new(o, "parallel", json_integer(c->parallel));
    json_object_set_new(o, "sched", json_string(c->sched));
    json_object_set_new(o, "cpus", c->cpus[0] ? json_string(c->cpus) : json_null());
    json_object_set_new(o, "mb", json_integer((json_int_t)r->plan.mb));
    json_object_set_new(o, "mb_asked", c->mb ? json_integer((json_int_t)c->mb) : json_null());
    json_object_set_new(o, "fsdir", json_string(c->fsdir));
    json_object_set_new(o, "remote", json_string(c->remote));
    json_object_set_new(o, "hardware", json_boolean(c->hardware));
    json_object_set_new(o, "os", json_boolean(c->os));
    json_object_set_new(o, "network", json_boolean(c->network));
    json_object_set_new(o, "enough", json_string(r->plan.enough));
    json_object_set_new(o, "enough_asked", json_string(c->enough));
    json_object_set_new(o, "repetitions", json_integer(r->plan.repetitions));
    json_object_set_new(o, "repetitions_asked", c->repetitions ? json_integer(c->repetitions)
                                                               : json_null());
    json_object_set_new(o, "timeout_s", json_real(r->plan.timeout_s));
    json_object_set_new(o, "timeout_asked", c->timeout_s > 0 ? json_real(c->timeout_s)
                                                             : json_null());
    json_object_set_new(o, "steps", json_integer((json_int_t)r->plan.n));
    return o;
}

static json_t *host_json(const struct run *r)
{
    const struct lmb_host *h = &r->host;
    json_t *o = json_object(), *caches = json_array(), *warn = json_array();
    char plat[300];

    snprintf(plat, sizeof plat, "%s-%s%s", h->uts.machine, h->uts.sysname,
             strcmp(h->uts.sysname, "Linux") == 0 ? "-gnu" : "");
    for (size_t n = 0; plat[n]; n++)
        if (plat[n] >= 'A' && plat[n] <= 'Z')
            plat[n] = (char)(plat[n] - 'A' + 'a');
    json_object_set_new(o, "hostname", json_string(h->hostname));
    json_object_set_new(o, "uname", json_pack("{ssssssss}", "sysname", h->uts.sysname, "release",
                                              h->uts.release, "version", h->uts.version,
                                              "machine", h->uts.machine));
    json_object_set_new(o, "platform", json_string(plat));
    json_object_set_new(o, "cpu", json_pack("{sssIso}", "model", h->cpu_model, "online",
                                            (json_int_t)h->cpus_online, "mhz",
                                            h->cpu_mhz > 0 ? json_real(h->cpu_mhz) : json_null()));
    for (int i = 0; i < h->ncaches; i++)
        json_array_append_new(caches, json_pack("{sisssIsi}", "level", h->caches[i].level, "type",
                                                h->caches[i].type, "size",
                                                (json_int_t)h->caches[i].size, "line",
                                                h->caches[i].line));
    json_object_set_new(o, "caches", caches);
    json_object_set_new(o, "memory_bytes", json_integer((json_int_t)h->memory_bytes));
    json_object_set_new(o, "load_avg", json_pack("[fff]", h->loadavg[0], h->loadavg[1],
                                                 h->loadavg[2]));
    json_object_set_new(o, "timer", r->timer ? json_incref(r->timer) : json_null());
    for (int i = 0; i < h->nwarnings; i++)
        json_array_append_new(warn, json_string(h->warnings[i]));
    json_object_set_new(o, "warnings", warn);
    return o;
}

static json_t *tool_json(const struct run *r)
{
    if (r->tool)
        return json_incref(r->tool);
    return json_pack("{ssssssss}", "name", "lmbench", "version", LMB_VERSION, "compiler",
                     COMPILER, "cflags", LMB_CFLAGS_STR);
}

static json_t *run_json(const struct run *r, const char *status)
{
    json_t *o = json_object(), *argv = json_array();
    char end[32];

    for (int i = 0; i < r->argc; i++)
        json_array_append_new(argv, json_string(r->argv[i]));
    json_object_set_new(o, "id", json_string(r->id));
    json_object_set_new(o, "argv", argv);
    json_object_set_new(o, "start", json_string(r->start));
    if (status) {
        iso_now(end, sizeof end);
        json_object_set_new(o, "end", json_string(end));
    } else {
        json_object_set_new(o, "end", json_null());
    }
    json_object_set_new(o, "config", conf_json(r));
    json_object_set_new(o, "status", status ? json_string(status) : json_null());
    return o;
}

/* One compact line to the .jsonl file, flushed (so a crash keeps it). */
static int jsonl_line(struct run *r, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
    int rc = 0;

    if (s == NULL)
        return -1;
    if (fputs(s, r->jsonl) == EOF || fputc('\n', r->jsonl) == EOF || fflush(r->jsonl) != 0)
        rc = -1;
    free(s);
    return rc;
}

/* Warnings about the run as a whole, after the host's own: results that varied
 * much between repetitions, and a machine that got busy while it ran. */
static void run_warnings(const struct run *r, json_t *warn)
{
    size_t k, n = 0, noisy = 0;
    json_t *rec;
    char ex[3][160], buf[600];
    double la[3];

    json_array_foreach(r->records, k, rec) {
        json_t *cv = json_object_get(json_object_get(rec, "stats"), "cv");
        const char *st = json_string_value(json_object_get(rec, "status"));
        if (st == NULL || strcmp(st, "ok") != 0 || !json_is_number(cv))
            continue;
        n++;
        if (json_number_value(cv) > 0.05) {
            if (noisy < 3) {
                const char *b = json_string_value(json_object_get(rec, "benchmark"));
                const char *c = json_string_value(json_object_get(rec, "case"));
                snprintf(ex[noisy], sizeof ex[0], "%s%s%s (step %lld, CV %.0f%%)", b ? b : "?",
                         c ? " " : "", c ? c : "",
                         (long long)json_integer_value(json_object_get(rec, "step")),
                         100 * json_number_value(cv));
            }
            noisy++;
        }
    }
    if (noisy > 0) {
        snprintf(buf, sizeof buf, "%zu of %zu results varied by more than 5%% between repetitions "
                                  "(CV), e.g. %s%s%s%s%s", noisy, n, ex[0],
                 noisy > 1 ? "; " : "", noisy > 1 ? ex[1] : "", noisy > 2 ? "; " : "",
                 noisy > 2 ? ex[2] : "");
        json_array_append_new(warn, json_string(buf));
    }
    if (getloadavg(la, 3) == 3 && r->host.cpus_online > 0 &&
        la[0] > 0.5 * (double)r->host.cpus_online + 1) {
        snprintf(buf, sizeof buf, "load average %.2f at the end of the run on %ld CPUs: other work "
                                  "competed with the benchmarks", la[0], r->host.cpus_online);
        json_array_append_new(warn, json_string(buf));
    }
}

static int write_final_json(struct run *r, const char *status)
{
    json_t *doc = json_object(), *run = run_json(r, status);
    char path[2400], tmp[2500];
    FILE *f;
    int rc = 0;

    json_t *host = host_json(r);

    json_object_set_new(run, "steps", json_incref(r->steps));
    json_object_set_new(doc, "schema", json_string("lmbench-results"));
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "tool", tool_json(r));
    json_object_set_new(doc, "run", run);
    run_warnings(r, json_object_get(host, "warnings"));
    json_object_set_new(doc, "host", host);
    json_object_set_new(doc, "results", json_incref(r->records));
    snprintf(path, sizeof path, "%s.json", r->base);
    snprintf(tmp, sizeof tmp, "%s.json.tmp", r->base);
    f = fopen(tmp, "w");
    if (f == NULL) {
        json_decref(doc);
        return -1;
    }
    if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0 || fputc('\n', f) == EOF ||
        fflush(f) != 0 || fsync(fileno(f)) != 0)
        rc = -1;
    if (fclose(f) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0)
        unlink(tmp);
    json_decref(doc);
    return rc;
}
#endif

/* --- running one step ---------------------------------------------------------- */

struct outcome {
    int status;            /* exit status, or -1 */
    int signal;            /* killed by, 0 none */
    bool timed_out;
    bool interrupted;
    struct buf classic, json, messages;
    double elapsed;
    pid_t group;           /* the process group it ran in */
};

/* Runs argv in a child process of its own group: the benchmark in-process
 * (lmb_step_exec), or an external program (ssh) when ext is set. */
static pid_t spawn(struct run *r, const struct lmb_step *s, char **argv, int argc, bool ext,
                   int fds[3][2], bool with_json)
{
    pid_t parent = getpid(), pid;

    fflush(NULL);
    pid = fork();
    if (pid != 0)
        return pid;
    /* Child: its own process group, default signals, dies with the runner. */
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
    for (int i = 0; i < 3; i++)
        if (fds[i][0] >= 0)
            close(fds[i][0]);
    {
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) {
            dup2(nul, STDIN_FILENO);
            close(nul);
        }
    }
    if (r->plan.enough[0])
        setenv("ENOUGH", r->plan.enough, 1);
    else
        unsetenv("ENOUGH");
    setenv("LMBENCH_SCHED", s->sched ? s->sched : r->conf.sched, 1);
    setenv("TMPDIR", r->conf.fsdir, 1);
    if (ext) {
        dup2(fds[0][1], STDOUT_FILENO);
        dup2(fds[2][1], STDERR_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    {
        const struct lmb_bench *b = lmb_find_bench(s->bench);
        int rc = b ? lmb_step_exec(b, argc, argv, fds[0][1], with_json ? fds[1][1] : -1, fds[2][1])
                   : 1;
        fflush(NULL);
        _exit(rc);
    }
}

/* Runs one command of a step and collects its outputs until it ends, the step's
 * deadline passes or the run is stopped (unless finish is set: the command that
 * stops a server must run even then). Its process group is killed at the end,
 * unless leave is set (a server it started goes on running in it: the caller
 * kills o->group when the server is done). */
static void run_command(struct run *r, const struct lmb_step *s, char **argv, int argc, bool ext,
                        double deadline, bool leave, bool finish, struct outcome *o)
{
    int fds[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
    bool with_json = r->json && !ext;
    struct pollfd pfd[3];
    pid_t pid;
    int wst = 0, open_fds = 0;
    bool exited = false, killed = false;
    double t0 = now_s(), kill_at = 0;

    memset(o, 0, sizeof *o);
    o->status = -1;
    for (int i = 0; i < 3; i++) {
        if (i == 1 && !with_json)
            continue;
        if (pipe2(fds[i], O_CLOEXEC) != 0) {
            buf_add(&o->messages, "cannot make a pipe", 18);
            goto fail;
        }
    }
    pid = spawn(r, s, argv, argc, ext, fds, with_json);
    if (pid < 0) {
        buf_add(&o->messages, "cannot fork", 11);
        goto fail;
    }
    setpgid(pid, pid);   /* also here, so that killpg works at once */
    o->group = pid;
    for (int i = 0; i < 3; i++) {
        if (fds[i][1] >= 0)
            close(fds[i][1]);
        fds[i][1] = -1;
        if (fds[i][0] >= 0) {
            fcntl(fds[i][0], F_SETFL, O_NONBLOCK);
            open_fds++;
        }
    }
    while (open_fds > 0 || !exited) {
        int n = 0, idx[3];
        for (int i = 0; i < 3; i++)
            if (fds[i][0] >= 0) {
                pfd[n].fd = fds[i][0];
                pfd[n].events = POLLIN;
                idx[n++] = i;
            }
        poll(pfd, (nfds_t)n, 100);
        for (int k = 0; k < n; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[8192];
            ssize_t got = read(pfd[k].fd, chunk, sizeof chunk);
            struct buf *b = idx[k] == 0 ? &o->classic : idx[k] == 1 ? &o->json : &o->messages;
            if (got > 0) {
                buf_add(b, chunk, (size_t)got);
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(fds[idx[k]][0]);
                fds[idx[k]][0] = -1;
                open_fds--;
            }
        }
        if (!exited && waitpid(pid, &wst, WNOHANG) == pid)
            exited = true;
        if (exited && open_fds > 0 && kill_at == 0) {
            /* The step is gone; what its own children still hold open is not waited
             * for long (a server keeps running by design). */
            kill_at = now_s() + (leave ? 0.2 : 2);
        }
        if (stop_signal && !finish && !killed) {
            /* SIGTERM first: a benchmark removes its temporary files (in FSDIR,
             * its TMPDIR) on SIGTERM; what is still there after a second is
             * killed. */
            o->interrupted = true;
            killpg(pid, SIGTERM);
            kill_at = now_s() + 1;
            killed = true;
        } else if (!killed && deadline > 0 && now_s() > deadline) {
            o->timed_out = true;
            killpg(pid, SIGTERM);
            kill_at = now_s() + 1;
            killed = true;
        }
        if (kill_at > 0 && now_s() > kill_at) {
            if (!leave || !exited)
                killpg(pid, SIGKILL);
            for (int i = 0; i < 3; i++)
                if (fds[i][0] >= 0) {
                    close(fds[i][0]);
                    fds[i][0] = -1;
                }
            open_fds = 0;
            kill_at = 0;
        }
    }
    /* Nothing of the step outlives it (but a server asked for). */
    if (!leave || killed)
        killpg(pid, SIGKILL);
    if (WIFEXITED(wst))
        o->status = WEXITSTATUS(wst);
    else if (WIFSIGNALED(wst))
        o->signal = WTERMSIG(wst);
    o->elapsed = now_s() - t0;
    return;
fail:
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++)
            if (fds[i][k] >= 0)
                close(fds[i][k]);
    o->elapsed = now_s() - t0;
}

static void free_outcome(struct outcome *o)
{
    buf_free(&o->classic);
    buf_free(&o->json);
    buf_free(&o->messages);
}

/* The last non-empty line of the messages, for a reason. */
static void last_message(const struct buf *m, char *out, size_t len)
{
    const char *end, *start;

    out[0] = '\0';
    if (m->n == 0)
        return;
    end = m->p + m->n;
    while (end > m->p && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    start = end;
    while (start > m->p && start[-1] != '\n')
        start--;
    snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* Starts or stops a step's server: `bench -s` here, or over ssh on a remote
 * host; `bench -S host` from here. Returns 0 when it worked. A started server's
 * process group goes into *group, to be killed once it has been asked to stop. */
static int server(struct run *r, const struct lmb_step *s, bool start, pid_t *group, char *why,
                  size_t len)
{
    char *argv[12];
    int argc = 0;
    struct outcome o;
    bool ext = false;

    if (start && s->remote) {
        argv[argc++] = "ssh";
        argv[argc++] = "-o";
        argv[argc++] = "BatchMode=yes";
        argv[argc++] = (char *)s->host;
        argv[argc++] = "lmbench";
        argv[argc++] = (char *)s->bench;
        argv[argc++] = "-s";
        ext = true;
    } else {
        argv[argc++] = (char *)s->bench;
        argv[argc++] = start ? "-s" : "-S";
        if (!start)
            argv[argc++] = (char *)s->host;
    }
    argv[argc] = NULL;
    /* Stopping a server is done even when the run is being stopped (a server
     * detaches from the step's process group: only -S reaches it), within a
     * shorter time then. */
    run_command(r, s, argv, argc, ext, now_s() + (stop_signal ? 5 : 30), start, !start, &o);
    if (start)
        *group = o.group;
    if (o.status != 0) {
        char last[200];
        last_message(&o.messages, last, sizeof last);
        snprintf(why, len, "%s its server%s%s: %s", start ? "could not start" : "could not stop",
                 s->remote ? " on " : "", s->remote ? s->host : "",
                 last[0] ? last : o.timed_out ? "no answer in 30 s" : "it failed");
        free_outcome(&o);
        return -1;
    }
    free_outcome(&o);
    return 0;
}

#ifdef LMB_HAVE_JANSSON
static void add_record(struct run *r, json_t *rec, size_t step)
{
    json_object_set_new(rec, "step", json_integer((json_int_t)step + 1));
    json_array_append(r->records, rec);
    if (jsonl_line(r, rec) != 0)
        msg(r, "cannot append to %s.jsonl: %s", r->base, strerror(errno));
}

/* A record for a step that produced none of its own (skipped, crashed). */
static json_t *step_record(const struct lmb_step *s, const char *status, const char *reason)
{
    json_t *o = json_object();

    json_object_set_new(o, "benchmark", json_string(s->bench));
    json_object_set_new(o, "case", json_null());
    json_object_set_new(o, "params", json_object());
    json_object_set_new(o, "metric", json_string("latency"));
    json_object_set_new(o, "unit", json_string("us"));
    json_object_set_new(o, "better", json_string("lower"));
    json_object_set_new(o, "status", json_string(status));
    json_object_set_new(o, "reason", json_string(reason));
    json_object_set_new(o, "headline", json_string("median"));
    json_object_set_new(o, "value", json_null());
    json_object_set_new(o, "samples", json_array());
    json_object_set_new(o, "stats", json_null());
    json_object_set_new(o, "elapsed_s", json_real(0));
    return o;
}
#endif

/* Runs step i and records it. Returns false when the run must stop. */
static bool do_step(struct run *r, size_t i)
{
    struct lmb_step *s = &r->plan.v[i];
    struct outcome o;
    char reason[400] = "";
    const char *status = "ok";
    double deadline = now_s() + r->plan.timeout_s;
    bool server_up = false;
    pid_t server_group = 0;

    progress(r, i, s);
    memset(&o, 0, sizeof o);
    if (s->skip[0]) {
        status = "skipped";
        snprintf(reason, sizeof reason, "%s", s->skip);
        o.status = 3;
    } else if (s->server && server(r, s, true, &server_group, reason, sizeof reason) != 0) {
        status = "failed";
        o.status = 1;
        if (stop_signal) {
            /* Interrupted while it started: it may be serving already. */
            char why[300];
            (void)server(r, s, false, NULL, why, sizeof why);
        }
        if (server_group > 0)
            killpg(server_group, SIGKILL);
    } else {
        server_up = s->server;
        run_command(r, s, s->argv, s->argc, false, deadline, false, false, &o);
        if (server_up) {
            char why[300];
            if (server(r, s, false, NULL, why, sizeof why) != 0 && !stop_signal)
                msg(r, "%s: %s", s->name, why);
            /* Whatever of the server is still in its group goes now. */
            if (server_group > 0)
                killpg(server_group, SIGKILL);
        }
        if (o.interrupted) {
            free_outcome(&o);
            return false;
        }
        if (o.timed_out) {
            status = "timeout";
            snprintf(reason, sizeof reason, "no result within %g s; the step's processes were killed",
                     r->plan.timeout_s);
        } else if (o.signal) {
            status = "failed";
            snprintf(reason, sizeof reason, "killed by signal %d (%s)", o.signal,
                     strsignal(o.signal));
        } else if (o.status == 3) {
            status = "skipped";
        } else if (o.status != 0) {
            status = "failed";
            last_message(&o.messages, reason, sizeof reason);
            if (o.status == 2 && reason[0] == '\0')
                snprintf(reason, sizeof reason, "the command rejected its arguments");
        }
        /* Messages (warnings, statuses) go on to the user. */
        if (o.messages.n > 0) {
            if (r->tty && r->progress_shown) {
                fputs("\r\033[K", stderr);
                r->progress_shown = false;
            }
            fwrite(o.messages.p, 1, o.messages.n, stderr);
            if (o.messages.p[o.messages.n - 1] != '\n')
                fputc('\n', stderr);
        }
    }
    if (!strcmp(status, "ok") || !strcmp(status, "skipped"))
        !strcmp(status, "ok") ? r->ok++ : r->skipped++;
    else if (!strcmp(status, "timeout"))
        r->timeouts++;
    else
        r->failed++;
    if (strcmp(status, "ok") != 0 && strcmp(status, "skipped") != 0)
        msg(r, "%s: %s: %s", s->name, status, reason[0] ? reason : "(no reason given)");

    /* The raw file: a header step's line goes to the header; others' lines in
     * their sections. */
    if (s->header_key) {
        const char *line = o.classic.p ? o.classic.p : "";
        int k = strcmp(s->header_key, "MHZ") == 0 ? 0 : 1;
        snprintf(r->header_vals[k], sizeof r->header_vals[k], "%.*s", (int)strcspn(line, "\n"),
                 line);
    } else if (s->json_only) {
        /* The second placement of a two-ended benchmark: its record is in the
         * JSON, and the raw file keeps lmbench 3's one line per benchmark. */
    } else if (strcmp(status, "skipped") != 0 || o.classic.n > 0) {
        /* A skipped step leaves no section lines behind. */
        if (!r->header_written)
            raw_header(r);
        if (s->before)
            fprintf(r->raw, "%s\n", s->before);
        if (o.classic.n)
            fwrite(o.classic.p, 1, o.classic.n, r->raw);
        if (s->blank_after)
            fputc('\n', r->raw);
        fflush(r->raw);
    }

#ifdef LMB_HAVE_JANSSON
    if (r->json) {
        json_t *doc = NULL, *res;
        size_t k;
        json_t *rec;
        if (o.json.n > 0)
            doc = json_loads(o.json.p, 0, NULL);
        res = json_object_get(doc, "results");
        if (doc && !r->tool && json_object_get(doc, "tool"))
            r->tool = json_incref(json_object_get(doc, "tool"));
        if (doc && !r->timer && json_is_object(json_object_get(json_object_get(doc, "host"), "timer")))
            r->timer = json_incref(json_object_get(json_object_get(doc, "host"), "timer"));
        if (json_is_array(res) && json_array_size(res) > 0) {
            json_array_foreach(res, k, rec)
                add_record(r, rec, i);
        } else {
            rec = step_record(s, strcmp(status, "ok") == 0 ? "failed" : status,
                              strcmp(status, "ok") == 0 ? "the command wrote no result"
                                                        : reason[0] ? reason : status);
            add_record(r, rec, i);
            json_decref(rec);
        }
        json_decref(doc);
        {
            json_t *line = json_pack("{sIsssosssosisfsI}", "step", (json_int_t)i + 1, "name",
                                     s->name, "argv", json_array(), "status", status, "reason",
                                     reason[0] ? json_string(reason) : json_null(), "exit",
                                     o.status, "elapsed_s", o.elapsed, "raw_bytes",
                                     (json_int_t)ftell(r->raw));
            json_t *av = json_object_get(line, "argv");
            for (int a = 0; a < s->argc; a++)
                json_array_append_new(av, json_string(s->argv[a]));
            json_array_append(r->steps, line);
            if (jsonl_line(r, line) != 0)
                msg(r, "cannot append to %s.jsonl: %s", r->base, strerror(errno));
            json_decref(line);
        }
    }
#endif
    r->weight_done += s->weight;
    r->time_done += o.elapsed;
    free_outcome(&o);
    return stop_signal == 0;
}

/* --- files --------------------------------------------------------------------- */

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* <dir>/<host>.<n> with the first n that none of the three files uses. */
static void choose_base(struct run *r)
{
    for (unsigned n = 0;; n++) {
        char a[2400], b[2400];
        snprintf(r->base, sizeof r->base, "%s/%s.%u", r->outdir, r->host.hostname, n);
        snprintf(a, sizeof a, "%s.json", r->base);
        snprintf(b, sizeof b, "%s.jsonl", r->base);
        if (!exists(r->base) && !exists(a) && !exists(b))
            return;
    }
}

static void remove_scratch(struct run *r)
{
    if (r->file_made) {
        unlink(r->file);
        r->file_made = false;
    }
}

/* --- resume -------------------------------------------------------------------- */

#ifdef LMB_HAVE_JANSSON
/* Whether a run's .json says it was interrupted. */
static bool interrupted_doc(const char *path)
{
    json_t *d = json_load_file(path, 0, NULL);
    const char *st = json_string_value(json_object_get(json_object_get(d, "run"), "status"));
    bool yes = st != NULL && strcmp(st, "interrupted") == 0;

    json_decref(d);
    return yes;
}

/* Finds the newest interrupted run of this host in outdir (a .jsonl whose .json
 * is missing or says "interrupted") and loads it: settings, records and steps
 * done. */
static int resume_load(struct run *r, char *err, size_t errlen)
{
    long best = -1;
    FILE *f;
    char *line = NULL, path[2400];
    size_t cap = 0, lineno = 0;
    ssize_t len;
    long keep = 0, raw_keep = 0;
    size_t done = 0;

    for (unsigned n = 0; n < 100000; n++) {
        char a[2400], b[2400];
        snprintf(a, sizeof a, "%s/%s.%u.jsonl", r->outdir, r->host.hostname, n);
        snprintf(b, sizeof b, "%s/%s.%u.json", r->outdir, r->host.hostname, n);
        if (exists(a) && (!exists(b) || interrupted_doc(b)))
            best = n;
        snprintf(b, sizeof b, "%s/%s.%u", r->outdir, r->host.hostname, n);
        if (!exists(a) && !exists(b) && n > (unsigned)(best + 16))
            break;
    }
    if (best < 0) {
        snprintf(err, errlen, "no interrupted run of %s in %s (a .jsonl without a finished .json)",
                 r->host.hostname, r->outdir);
        return -1;
    }
    snprintf(r->base, sizeof r->base, "%s/%s.%ld", r->outdir, r->host.hostname, best);
    snprintf(path, sizeof path, "%s.jsonl", r->base);
    f = fopen(path, "r+");
    if (f == NULL) {
        snprintf(err, errlen, "%.300s: %s", path, strerror(errno));
        return -1;
    }
    while ((len = getline(&line, &cap, f)) >= 0) {
        json_t *o;
        lineno++;
        if (len == 0 || line[len - 1] != '\n')
            break;   /* a line cut short: dropped */
        o = json_loads(line, 0, NULL);
        if (o == NULL)
            break;
        if (lineno == 1) {
            json_t *run = json_object_get(o, "run"), *c = json_object_get(run, "config");
            const char *id = json_string_value(json_object_get(run, "id"));
            char why[300];
            if (id == NULL || c == NULL) {
                snprintf(err, errlen, "%.300s: no run header on its first line", path);
                json_decref(o);
                goto bad;
            }
            snprintf(r->id, sizeof r->id, "%s", id);
            snprintf(r->start, sizeof r->start, "%s",
                     json_string_value(json_object_get(run, "start")) ?: "");
            lmb_sconf_defaults(&r->conf);
#define S(key, name)                                                                  \
    if (json_is_string(json_object_get(c, name)))                                     \
        lmb_sconf_set(&r->conf, key, json_string_value(json_object_get(c, name)), why, \
                      sizeof why);
            S("PROFILE", "profile");
            S("LMBENCH_SCHED", "sched");
            S("CPUS", "cpus");
            S("FSDIR", "fsdir");
            S("REMOTE", "remote");
            S("ENOUGH", "enough_asked");
#undef S
            r->conf.parallel = (unsigned)json_integer_value(json_object_get(c, "parallel"));
            if (r->conf.parallel < 1)
                r->conf.parallel = 1;
            r->conf.mb = (uint64_t)json_integer_value(json_object_get(c, "mb_asked"));
            r->conf.hardware = json_is_true(json_object_get(c, "hardware"));
            r->conf.os = json_is_true(json_object_get(c, "os"));
            r->conf.network = json_is_true(json_object_get(c, "network"));
            r->conf.repetitions = (unsigned)json_integer_value(json_object_get(c, "repetitions_asked"));
            r->conf.timeout_s = json_number_value(json_object_get(c, "timeout_asked"));
            keep = ftell(f);
        } else if (json_object_get(o, "benchmark") == NULL && json_object_get(o, "step") != NULL) {
            /* A finished step: everything up to here is kept. */
            json_array_append(r->steps, o);
            done = (size_t)json_integer_value(json_object_get(o, "step"));
            raw_keep = (long)json_integer_value(json_object_get(o, "raw_bytes"));
            keep = ftell(f);
        } else {
            json_array_append(r->records, o);
        }
        json_decref(o);
    }
    free(line);
    line = NULL;
    /* Records after the last finished step belong to the step that was cut off. */
    {
        size_t n = json_array_size(r->records);
        while (n > 0) {
            json_int_t st = json_integer_value(json_object_get(json_array_get(r->records, n - 1),
                                                               "step"));
            if (st <= (json_int_t)done)
                break;
            json_array_remove(r->records, --n);
        }
    }
    if (keep == 0) {
        snprintf(err, errlen, "%.300s: no run header on its first line", path);
        goto bad;
    }
    if (ftruncate(fileno(f), keep) != 0 || fseek(f, 0, SEEK_END) != 0) {
        snprintf(err, errlen, "%.300s: %s", path, strerror(errno));
        goto bad;
    }
    r->jsonl = f;
    r->first = done;
    snprintf(path, sizeof path, "%s", r->base);
    r->raw = fopen(path, "r+");
    if (r->raw == NULL)
        r->raw = fopen(path, "w");
    if (r->raw == NULL || ftruncate(fileno(r->raw), raw_keep) != 0 ||
        fseek(r->raw, 0, SEEK_END) != 0) {
        snprintf(err, errlen, "%.300s: %s", path, strerror(errno));
        return -1;
    }
    r->header_written = raw_keep > 0;
    return 0;
bad:
    free(line);
    fclose(f);
    return -1;
}
#endif

/* --- options --------------------------------------------------------------- */

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

int lmb_suite_runner(int argc, char **argv)
{
    struct run *r = calloc(1, sizeof *r);
    const char *cfile = NULL, *v, *env;
    bool resume = false, list = false;
    char err[800];
    int rc = 0, x;
    /* Options are applied after the config file, whatever their order. */
    const char *opt_keys[32], *opt_vals[32];
    int nopt = 0;
    x = 0;
    char remotes[512] = "";

    if (r == NULL)
        return 1;
    r->argc = argc;
    r->argv = argv;
    snprintf(r->outdir, sizeof r->outdir, "results");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *key = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            if (i + 1 < argc) {
                free(r);
                return bad("--help takes no arguments");
            }
            free(r);
            help();
            return lmb_verb_check_output("run", stdout, "the help");
        }
        if (strcmp(a, "-c") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "-P") == 0 ||
            strcmp(a, "-N") == 0) {
            if (i + 1 >= argc) {
                free(r);
                return bad("option %s needs a value", a);
            }
            v = argv[++i];
            if (a[1] == 'c')
                cfile = v;
            else if (a[1] == 'o')
                snprintf(r->outdir, sizeof r->outdir, "%s", v);
            else
                key = a[1] == 'P' ? "SYNC_MAX" : "REPETITIONS";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--profile", &v)) != 0) {
            key = "PROFILE";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--sched", &v)) != 0) {
            key = "LMBENCH_SCHED";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--cpus", &v)) != 0) {
            key = "CPUS";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--mb", &v)) != 0) {
            key = "MB";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--fsdir", &v)) != 0) {
            key = "FSDIR";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--enough", &v)) != 0) {
            key = "ENOUGH";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--timeout", &v)) != 0) {
            key = "TIMEOUT";
        } else if ((x = lmb_long_opt(argc, argv, &i, "--remote", &v)) != 0) {
            if (x > 0) {
                if (strlen(remotes) + strlen(v) + 2 >= sizeof remotes) {
                    free(r);
                    return bad("--remote: too many hosts");
                }
                strcat(remotes, remotes[0] ? " " : "");
                strcat(remotes, v);
                key = "REMOTE";
                v = remotes;
            }
        } else if ((x = lmb_long_opt(argc, argv, &i, "--groups", &v)) != 0) {
            if (x > 0) {
                char g[128], *t, *save = NULL;
                bool hw = false, os = false, net = false;
                snprintf(g, sizeof g, "%s", v);
                for (t = strtok_r(g, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                    if (strcmp(t, "hardware") == 0)
                        hw = true;
                    else if (strcmp(t, "os") == 0)
                        os = true;
                    else if (strcmp(t, "network") == 0)
                        net = true;
                    else {
                        free(r);
                        return bad("--groups: '%s' is not hardware, os or network",
                                   lmb_quote_arg(t));
                    }
                }
                opt_keys[nopt] = "BENCHMARK_HARDWARE";
                opt_vals[nopt++] = hw ? "YES" : "NO";
                opt_keys[nopt] = "BENCHMARK_OS";
                opt_vals[nopt++] = os ? "YES" : "NO";
                opt_keys[nopt] = "BENCHMARK_NETWORK";
                opt_vals[nopt++] = net ? "YES" : "NO";
            }
        } else if (strcmp(a, "--resume") == 0) {
            resume = true;
        } else if (strcmp(a, "--list") == 0) {
            list = true;
        } else {
            free(r);
            if (a[0] == '-')
                return bad("unknown option '%s'", lmb_quote_arg(a));
            return bad("unexpected argument '%s'", lmb_quote_arg(a));
        }
        if (x < 0) {
            free(r);
            return bad("option %s needs a value", a);
        }
        x = 0;
        if (key != NULL) {
            if (nopt >= 28) {
                free(r);
                return bad("too many options");
            }
            opt_keys[nopt] = key;
            opt_vals[nopt++] = v;
        }
    }
    if (resume && (cfile || nopt > 0 || list)) {
        free(r);
        return bad("--resume continues a run with its own settings: only -o may go with it");
    }

    /* The settings, checked once, before anything runs: the environment with the
     * harness's own rules first. */
    if (lmb_env_check(err, sizeof err) != 0) {
        /* Not a command line mistake: one line, no usage. */
        fprintf(stderr, "lmbench run: %s\n", err);
        free(r);
        return 2;
    }
    lmb_sconf_defaults(&r->conf);
    if (cfile && lmb_sconf_read(&r->conf, cfile, err, sizeof err) != 0) {
        free(r);
        return bad("%s", err);
    }
    if (((env = getenv("ENOUGH")) != NULL &&
         lmb_sconf_set(&r->conf, "ENOUGH", env, err, sizeof err) < 0) ||
        ((env = getenv("LMBENCH_SCHED")) != NULL && *env &&
         lmb_sconf_set(&r->conf, "LMBENCH_SCHED", env, err, sizeof err) < 0)) {
        fprintf(stderr, "lmbench run: %s\n", err);
        free(r);
        return 2;
    }
    for (int i = 0; i < nopt; i++)
        if (lmb_sconf_set(&r->conf, opt_keys[i], opt_vals[i], err, sizeof err) < 0) {
            free(r);
            return bad("%s", err);
        }
    if (!resume && lmb_sconf_check(&r->conf, err, sizeof err) != 0) {
        free(r);
        return bad("%s", err);
    }

    lmb_host_probe(&r->host);   /* before anything runs: the load is not ours */

#ifdef LMB_HAVE_JANSSON
    r->json = true;
    r->records = json_array();
    r->steps = json_array();
#endif
    if (list) {
        snprintf(r->file, sizeof r->file, "%s/lmbench.XXXXXX", r->conf.fsdir);
        lmb_plan_build(&r->plan, &r->conf, r->file);
        lmb_plan_print(&r->plan, stdout);
        printf("%zu steps; profile %s, -N %u, ENOUGH %s, MB %llu, step timeout %g s\n", r->plan.n,
               r->conf.profile, r->plan.repetitions, r->plan.enough[0] ? r->plan.enough : "automatic",
               r->plan.mb, r->plan.timeout_s);
        rc = lmb_verb_check_output("run", stdout, "the plan");
        goto out;
    }
    if (mkdir_p(r->outdir) != 0 || access(r->outdir, W_OK) != 0) {
        msg(r, "cannot use the results directory %s: %s", r->outdir, strerror(errno));
        rc = 1;
        goto out;
    }
    r->tty = isatty(STDERR_FILENO);
    catch_signals();

    if (resume) {
#ifdef LMB_HAVE_JANSSON
        if (resume_load(r, err, sizeof err) != 0) {
            msg(r, "--resume: %s", err);
            rc = 1;
            goto out;
        }
        if (lmb_sconf_check(&r->conf, err, sizeof err) != 0) {
            msg(r, "--resume: %s", err);
            rc = 1;
            goto out;
        }
#else
        msg(r, "--resume: skipped: built without jansson");
        rc = 3;
        goto out;
#endif
    } else {
        make_run_id(r->id, sizeof r->id);
        iso_now(r->start, sizeof r->start);
        choose_base(r);
    }

    /* The scratch file the file benchmarks use, made now so that its name is known. */
    {
        int fd;
        snprintf(r->file, sizeof r->file, "%s/lmbench.%s.XXXXXX", r->conf.fsdir, r->id);
        r->file[sizeof r->file - 1] = '\0';
        fd = mkstemp(r->file);
        if (fd < 0) {
            msg(r, "cannot make a file in %s: %s", r->conf.fsdir, strerror(errno));
            rc = 1;
            goto out;
        }
        close(fd);
        r->file_made = true;
    }
    lmb_plan_build(&r->plan, &r->conf, r->file);
    if (resume) {
#ifdef LMB_HAVE_JANSSON
        size_t k;
        json_t *st;
        json_array_foreach(r->steps, k, st) {
            const char *nm = json_string_value(json_object_get(st, "name"));
            size_t idx = (size_t)json_integer_value(json_object_get(st, "step"));
            if (idx < 1 || idx > r->plan.n || nm == NULL || strcmp(nm, r->plan.v[idx - 1].name) != 0) {
                msg(r, "--resume: step %zu of %s.jsonl is not step %zu of this lmbench's plan "
                       "(was lmbench changed since?): cannot continue it", idx, r->base, idx);
                rc = 1;
                goto out;
            }
            /* The steps done before the interruption count in the run's outcome. */
            const char *sst = json_string_value(json_object_get(st, "status"));
            if (sst == NULL || strcmp(sst, "ok") == 0)
                r->ok++;
            else if (strcmp(sst, "skipped") == 0)
                r->skipped++;
            else if (strcmp(sst, "timeout") == 0)
                r->timeouts++;
            else
                r->failed++;
        }
        msg(r, "resuming %s at step %zu of %zu", r->base, r->first + 1, r->plan.n);
#endif
    } else {
        char path[2400];
        snprintf(path, sizeof path, "%s", r->base);
        r->raw = fopen(path, "w");
        snprintf(path, sizeof path, "%s.jsonl", r->base);
        if (r->json)
            r->jsonl = fopen(path, "w");
        if (r->raw == NULL || (r->json && r->jsonl == NULL)) {
            msg(r, "cannot write %s: %s", path, strerror(errno));
            rc = 1;
            goto out;
        }
#ifdef LMB_HAVE_JANSSON
        {
            json_t *h = json_object();
            json_object_set_new(h, "schema", json_string("lmbench-results"));
            json_object_set_new(h, "schema_version", json_integer(1));
            json_object_set_new(h, "tool", tool_json(r));
            json_object_set_new(h, "run", run_json(r, NULL));
            json_object_set_new(h, "host", host_json(r));
            if (jsonl_line(r, h) != 0) {
                msg(r, "cannot write %s.jsonl: %s", r->base, strerror(errno));
                json_decref(h);
                rc = 1;
                goto out;
            }
            json_decref(h);
        }
#else
        msg(r, "built without jansson: writing the raw results file only");
#endif
    }
    if (!lmb_step_exec_both)
        msg(r, "note: the raw file %s gets the header and section lines only", r->base);
    msg(r, "%s: profile %s, %zu steps, results in %s.*", r->id, r->conf.profile, r->plan.n,
        r->base);

    r->t0 = now_s();
    for (size_t i = 0; i < r->plan.n; i++)
        r->weight_total += r->plan.v[i].weight;
    for (size_t i = 0; i < r->first; i++)
        r->weight_done += r->plan.v[i].weight;
    /* A run resumed after its header steps has its header already. */
    {
        bool stopped = false;
        for (size_t i = r->first; i < r->plan.n && !stopped; i++)
            stopped = !do_step(r, i);
        if (!r->header_written)
            raw_header(r);
    }
    {
        char date[64];
        date_line(date, sizeof date);
        fprintf(r->raw, "[%s]\n", date);
        if (fflush(r->raw) != 0 || ferror(r->raw)) {
            msg(r, "cannot write %s: %s", r->base, strerror(errno));
            rc = 1;
        }
    }
    if (r->tty && r->progress_shown)
        fputs("\r\033[K", stderr);
    remove_scratch(r);
#ifdef LMB_HAVE_JANSSON
    if (write_final_json(r, stop_signal ? "interrupted"
                            : r->failed || r->timeouts ? "failed" : "ok") != 0) {
        msg(r, "cannot write %s.json: %s", r->base, strerror(errno));
        rc = 1;
    }
#endif
    msg(r, "%s after %.0f s: %u ok, %u skipped, %u failed, %u timed out; results in %s.*",
        stop_signal ? "stopped" : "done", now_s() - r->t0, r->ok, r->skipped, r->failed,
        r->timeouts, r->base);
    if (stop_signal)
        rc = 128 + stop_signal;
    else if (rc == 0 && (r->failed || r->timeouts))
        rc = 1;
out:
    remove_scratch(r);
    if (r->raw)
        fclose(r->raw);
    if (r->jsonl)
        fclose(r->jsonl);
    lmb_plan_free(&r->plan);
#ifdef LMB_HAVE_JANSSON
    json_decref(r->records);
    json_decref(r->steps);
    json_decref(r->tool);
    json_decref(r->timer);
#endif
    free(r);
    return rc;
}
