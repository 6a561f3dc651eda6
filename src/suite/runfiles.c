// SPDX-License-Identifier: MIT
/* lmbench run, record: the three files of a run (doc/results-schema.md, "The
 * files of lmbench run"): the classic raw file with lmbench 3's header and
 * section lines, the .jsonl appended step by step (a crash keeps it; each
 * piece appended whole or not at all, so a full disk keeps whole steps), the
 * .json written atomically at the end; the results directory, the scratch
 * file, and resuming an interrupted run from its .jsonl. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/input.h"
#include "lib/outfile.h"
#include "lib/text.h"
#include "run.h"

#include "version.h"   /* generated: LMB_VERSION, LMB_CFLAGS_STR */

#if defined(__clang__)
#define COMPILER __VERSION__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "unknown"
#endif

/* --- names, times, directories -------------------------------------------------- */

void lmb_run_iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;

    if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, len, "unknown");
}

void lmb_run_date_line(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;

    if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%a %b %d %H:%M:%S UTC %Y", &tm) == 0)
        snprintf(buf, len, "unknown");
}

void lmb_run_make_id(char *buf, size_t len)
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

int lmb_run_mkdir_p(const char *dir)
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

/* --- writing the files whole -------------------------------------------------- */

/* Appends n bytes at the end of f's file in one piece, past stdio's buffer
 * (which holds nothing unwritten: every write goes through here): 0, or -1
 * with errno set and the file cut back to what it held before, so that a
 * failed write (a full disk) leaves no part of a line or a step behind. */
static int append_whole(FILE *f, const char *p, size_t n)
{
    int fd = fileno(f);
    off_t end;
    size_t done = 0;

    if (fflush(f) != 0 || (end = lseek(fd, 0, SEEK_END)) < 0)
        return -1;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            int t = ftruncate(fd, end);
            (void)t;   /* what it can: the error to say is the write's */
            (void)fseek(f, 0, SEEK_END);
            errno = e;
            return -1;
        }
        done += (size_t)w;
    }
    return fseek(f, 0, SEEK_END);
}

void lmb_run_write_failed(struct run *r, const char *path)
{
    if (r->write_failed)
        return;
    r->write_failed = true;
    r->write_errno = errno ? errno : EIO;
    snprintf(r->write_path, sizeof r->write_path, "%s", path);
}

int lmb_run_raw_put(struct run *r, const char *p, size_t n)
{
    /* After a failed write the run stops: nothing more is appended. */
    if (r->write_failed)
        return -1;
    if (r->raw == NULL || append_whole(r->raw, p, n) != 0) {
        if (r->raw == NULL)
            errno = EBADF;
        lmb_run_write_failed(r, r->base);
        return -1;
    }
    return 0;
}

/* --- the raw results file ----------------------------------------------------- */

void lmb_run_raw_header(struct run *r)
{
    const struct lmb_host *h = &r->host;
    char *text = NULL;
    size_t textlen = 0;
    /* Put together in memory, then written in one piece. */
    FILE *f = open_memstream(&text, &textlen);
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
    if (f == NULL) {
        lmb_run_write_failed(r, r->base);
        return;
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
    /* The context (context.h) as header keys lmbench 3's readers skip. */
    lmb_context_raw_lines(&h->context, f);
    lmb_run_date_line(date, sizeof date);
    fprintf(f, "[%s]\n", date);
    fprintf(f, "[ load average: %.2f, %.2f, %.2f]\n", h->loadavg[0], h->loadavg[1], h->loadavg[2]);
    if (fclose(f) != 0 || text == NULL) {
        free(text);
        lmb_run_write_failed(r, r->base);
        return;
    }
    if (lmb_run_raw_put(r, text, textlen) == 0)
        r->header_written = true;
    free(text);
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
    lmb_sconf_json_put(c, o);   /* FILE, the switches that are NO, what -c's file gave */
    json_object_set_new(o, "steps", json_integer((json_int_t)r->plan.n));
    json_object_set_new(o, "launches", json_integer(r->plan.launches));
    json_object_set_new(o, "launches_asked", r->opts.launches ? json_integer(r->opts.launches)
                                                              : json_null());
    json_object_set_new(o, "disturbed_pct", json_real(r->opts.disturbed_pct));
    json_object_set_new(o, "retry", json_boolean(r->opts.retry));
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
    {
        json_t *ctx = lmb_context_json(&h->context);
        json_object_set_new(o, "context", ctx ? ctx : json_null());
    }
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
        lmb_run_iso_now(end, sizeof end);
        json_object_set_new(o, "end", json_string(end));
    } else {
        json_object_set_new(o, "end", json_null());
    }
    json_object_set_new(o, "config", conf_json(r));
    json_object_set_new(o, "status", status ? json_string(status) : json_null());
    return o;
}

/* Adds o to b as one compact line. 0, or -1 (errno ENOMEM). */
static int buf_line(struct lmb_buf *b, json_t *o)
{
    char *t = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
    int rc = t == NULL || lmb_buf_add(b, t, strlen(t)) != 0 || lmb_buf_add(b, "\n", 1) != 0;

    free(t);
    if (rc)
        errno = ENOMEM;
    return rc ? -1 : 0;
}

/* Whole lines to the .jsonl in one piece, so that a crash or a full disk
 * leaves it ending at a whole line. 0, or -1 (errno; the file as it was). */
static int jsonl_put(struct run *r, const struct lmb_buf *b)
{
    if (r->jsonl == NULL) {
        errno = EBADF;
        return -1;
    }
    return append_whole(r->jsonl, b->p, b->n);
}

/* One compact line to the .jsonl file, written at once (a crash keeps it). */
static int jsonl_line(struct run *r, json_t *o)
{
    struct lmb_buf b = { 0 };
    int rc = buf_line(&b, o) != 0 || jsonl_put(r, &b) != 0 ? -1 : 0;
    int e = errno;

    lmb_buf_free(&b);
    errno = e;
    return rc;
}

int lmb_run_write_final_json(struct run *r, const char *status)
{
    json_t *doc = json_object(), *run = run_json(r, status);
    char path[2400], err[LMB_QUOTE_BUF + 128];
    struct lmb_outfile of;   /* lib/outfile.h: a temporary file renamed over it */
    int rc = 0;

    json_t *host = host_json(r);

    json_object_set_new(run, "steps", json_incref(r->steps));
    json_object_set_new(doc, "schema", json_string("lmbench-results"));
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "tool", tool_json(r));
    json_object_set_new(doc, "run", run);
    lmb_run_warnings(r, json_object_get(host, "warnings"));
    json_object_set_new(doc, "host", host);
    json_object_set_new(doc, "results", json_incref(r->records));
    snprintf(path, sizeof path, "%s.json", r->base);
    if (lmb_outfile_open(&of, path, 0, err, sizeof err) != 0) {
        json_decref(doc);
        return -1;
    }
    if (json_dumpf(doc, of.fp, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0 ||
        fputc('\n', of.fp) == EOF) {
        lmb_outfile_abort(&of);
        rc = -1;
    } else if (lmb_outfile_commit(&of, err, sizeof err) != 0) {
        rc = -1;
    }
    json_decref(doc);
    return rc;
}
#endif

#ifdef LMB_HAVE_JANSSON
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

/* run.steps[].interference (interfere.c), JSON null when unknown. */
static json_t *interference_json(const struct lmb_interference *x)
{
    json_t *o = lmb_interference_json(x);
    return o ? o : json_null();
}

json_t *lmb_run_step_records(struct run *r, size_t i, const struct lmb_outcome *o)
{
    const struct lmb_step *s = &r->plan.v[i];
    const char *status = o->verdict, *reason = o->reason;
    json_t *doc = NULL, *res, *rec, *out = json_array();
    size_t k;

    if (o->json.n > 0)
        doc = json_loads(o->json.p, 0, NULL);
    res = json_object_get(doc, "results");
    if (doc && !r->tool && json_object_get(doc, "tool"))
        r->tool = json_incref(json_object_get(doc, "tool"));
    if (doc && !r->timer && json_is_object(json_object_get(json_object_get(doc, "host"), "timer")))
        r->timer = json_incref(json_object_get(json_object_get(doc, "host"), "timer"));
    if (json_is_array(res) && json_array_size(res) > 0) {
        json_array_extend(out, res);
    } else {
        rec = step_record(s, strcmp(status, "ok") == 0 ? "failed" : status,
                          strcmp(status, "ok") == 0 ? "the command wrote no result"
                                                    : reason[0] ? reason : status);
        json_array_append_new(out, rec);
    }
    json_decref(doc);
    json_array_foreach(out, k, rec) {
        json_object_set_new(rec, "step", json_integer((json_int_t)i + 1));
        /* A record measured while other work shared the CPUs says so. */
        if (o->interference.disturbed)
            json_object_set_new(rec, "disturbed", json_true());
    }
    return out;
}

json_t *lmb_run_step_line(const struct run *r, size_t i, const struct lmb_outcome *o,
                          int attempts)
{
    const struct lmb_step *s = &r->plan.v[i];
    const struct lmb_step_state *st = &r->state[i];
    json_t *line, *av;

    line = json_pack("{sIsssosssosisfsIsIsisbso}", "step", (json_int_t)i + 1, "name", s->name,
                     "argv", json_array(), "status", o->verdict, "reason",
                     o->reason[0] ? json_string(o->reason) : json_null(), "exit", o->status,
                     "elapsed_s", o->elapsed, "raw_start", (json_int_t)st->raw_start,
                     "raw_bytes", (json_int_t)st->raw_end, "attempts", attempts, "disturbed",
                     o->interference.disturbed, "interference",
                     interference_json(&o->interference));
    av = json_object_get(line, "argv");
    for (int a = 0; a < s->argc; a++)
        json_array_append_new(av, json_string(s->argv[a]));
    return line;
}

void lmb_run_record_json(struct run *r, size_t i, const struct lmb_outcome *o)
{
    json_t *recs, *rec, *line;
    struct lmb_buf b = { 0 };
    size_t k;
    int rc = 0;

    if (!r->json || r->write_failed)
        return;
    recs = lmb_run_step_records(r, i, o);
    line = lmb_run_step_line(r, i, o, 1);
    /* The step's records and its line, appended in one piece. */
    json_array_foreach(recs, k, rec)
        rc |= buf_line(&b, rec);
    rc |= buf_line(&b, line);
    if (rc == 0 && jsonl_put(r, &b) == 0) {
        json_array_extend(r->records, recs);
        json_array_append(r->steps, line);
    } else {
        char path[2400];
        int e = errno;
        /* The step is not kept: its raw lines go too (the files end at the
         * step before, as --resume reads them). */
        if (r->raw != NULL && r->state[i].raw_start >= 0) {
            int t = ftruncate(fileno(r->raw), r->state[i].raw_start);
            (void)t;
            (void)fseek(r->raw, 0, SEEK_END);
        }
        snprintf(path, sizeof path, "%s.jsonl", r->base);
        errno = e;
        lmb_run_write_failed(r, path);
    }
    lmb_buf_free(&b);
    json_decref(recs);
    json_decref(line);
}

/* Writes one compact line to f. 0 or -1. */
static int line_to(FILE *f, json_t *o)
{
    char *t = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
    int rc = 0;

    if (t == NULL)
        return -1;
    if (fputs(t, f) == EOF || fputc('\n', f) == EOF)
        rc = -1;
    free(t);
    return rc;
}

int lmb_run_jsonl_rewrite(struct run *r)
{
    char path[2400], err[LMB_QUOTE_BUF + 128];
    json_t *h = json_object(), *st, *rec;
    size_t k, j;
    struct lmb_outfile of;   /* lib/outfile.h: a temporary file renamed over it */
    FILE *f;
    int rc = 0;

    snprintf(path, sizeof path, "%s.jsonl", r->base);
    if (lmb_outfile_open(&of, path, 0, err, sizeof err) != 0) {
        json_decref(h);
        return -1;
    }
    f = of.fp;
    json_object_set_new(h, "schema", json_string("lmbench-results"));
    json_object_set_new(h, "schema_version", json_integer(1));
    json_object_set_new(h, "tool", tool_json(r));
    json_object_set_new(h, "run", run_json(r, NULL));
    json_object_set_new(h, "host", host_json(r));
    rc |= line_to(f, h);
    json_decref(h);
    /* Each step's records, then its line, as they were appended. */
    json_array_foreach(r->steps, k, st) {
        json_int_t n = json_integer_value(json_object_get(st, "step"));
        json_array_foreach(r->records, j, rec)
            if (json_integer_value(json_object_get(rec, "step")) == n)
                rc |= line_to(f, rec);
        rc |= line_to(f, st);
    }
    if (rc != 0) {
        lmb_outfile_abort(&of);
        return -1;
    }
    if (lmb_outfile_commit(&of, err, sizeof err) != 0)
        return -1;
    if (r->jsonl != NULL)
        fclose(r->jsonl);
    r->jsonl = NULL;
    return 0;
}

int lmb_run_jsonl_rewrite_in_place(struct run *r)
{
    json_t *h = json_object(), *st, *rec;
    struct lmb_buf b = { 0 };
    size_t k, j;
    int rc;

    json_object_set_new(h, "schema", json_string("lmbench-results"));
    json_object_set_new(h, "schema_version", json_integer(1));
    json_object_set_new(h, "tool", tool_json(r));
    json_object_set_new(h, "run", run_json(r, NULL));
    json_object_set_new(h, "host", host_json(r));
    rc = buf_line(&b, h);
    json_decref(h);
    if (rc != 0 || r->jsonl == NULL || fflush(r->jsonl) != 0 ||
        ftruncate(fileno(r->jsonl), 0) != 0 || jsonl_put(r, &b) != 0)
        goto fail;
    /* Each step in one piece: a failure leaves the steps before it whole. */
    json_array_foreach(r->steps, k, st) {
        json_int_t n = json_integer_value(json_object_get(st, "step"));
        b.n = 0;
        json_array_foreach(r->records, j, rec)
            if (json_integer_value(json_object_get(rec, "step")) == n && buf_line(&b, rec) != 0)
                goto fail;
        if (buf_line(&b, st) != 0 || jsonl_put(r, &b) != 0)
            goto fail;
    }
    lmb_buf_free(&b);
    return 0;
fail:
    {
        char path[2400];
        int e = errno;
        lmb_buf_free(&b);
        snprintf(path, sizeof path, "%s.jsonl", r->base);
        errno = e;
        lmb_run_write_failed(r, path);
    }
    return -1;
}
#endif

/* --- the raw file's part of a step ------------------------------------------------ */

/* Whether step s writes lines of its own to the raw file. */
static bool writes_lines(const struct lmb_step *s, const struct lmb_outcome *o)
{
    /* A header step's line goes to the header; the second placement of a
     * two-ended benchmark has its record in the JSON only (the raw file keeps
     * lmbench 3's one line per benchmark); a skipped step leaves no section
     * lines behind. */
    return !s->header_key && !s->json_only &&
           (strcmp(o->verdict, "skipped") != 0 || o->classic.n > 0);
}

void lmb_run_raw_chunk(const struct run *r, size_t i, const struct lmb_outcome *o,
                       struct lmb_buf *b)
{
    const struct lmb_step *s = &r->plan.v[i];

    if (!writes_lines(s, o))
        return;
    if (s->before) {
        lmb_buf_add(b, s->before, strlen(s->before));
        lmb_buf_add(b, "\n", 1);
    }
    if (o->classic.n)
        lmb_buf_add(b, o->classic.p, o->classic.n);
    if (s->blank_after)
        lmb_buf_add(b, "\n", 1);
}

void lmb_run_raw_header_value(struct run *r, size_t i, const struct lmb_outcome *o)
{
    const struct lmb_step *s = &r->plan.v[i];
    const char *line = o->classic.p ? o->classic.p : "";
    int k = strcmp(s->header_key, "MHZ") == 0 ? 0 : 1;

    snprintf(r->header_vals[k], sizeof r->header_vals[k], "%.*s", (int)strcspn(line, "\n"),
             line);
}

void lmb_run_record_raw(struct run *r, size_t i, const struct lmb_outcome *o)
{
    const struct lmb_step *s = &r->plan.v[i];
    struct lmb_buf b = { 0 };

    if (s->header_key)
        lmb_run_raw_header_value(r, i, o);
    if (writes_lines(s, o) && !r->header_written)
        lmb_run_raw_header(r);
    if (r->write_failed)
        return;
    r->state[i].raw_start = ftell(r->raw);
    lmb_run_raw_chunk(r, i, o, &b);
    if (b.n > 0 && lmb_run_raw_put(r, b.p, b.n) != 0) {
        /* Not written: the step has no bytes in the file. */
        r->state[i].raw_start = r->state[i].raw_end = -1;
        lmb_buf_free(&b);
        return;
    }
    lmb_buf_free(&b);
    r->state[i].raw_end = ftell(r->raw);
}

/* Copies the header h (n bytes) to f, the [MHZ: ] and [LINE_SIZE: ] lines
 * written anew where replace says (their step's retry was kept). */
static void header_copy(FILE *f, const char *h, size_t n, const struct run *r,
                        const bool *replace)
{
    static const char *const keys[2] = { "[MHZ: ", "[LINE_SIZE: " };
    size_t o = 0;

    while (o < n) {
        const char *nl = memchr(h + o, '\n', n - o);
        size_t len = nl ? (size_t)(nl - (h + o)) + 1 : n - o;
        bool done = false;
        for (int k = 0; k < 2 && !done; k++)
            if (replace[k] && len > strlen(keys[k]) &&
                strncmp(h + o, keys[k], strlen(keys[k])) == 0) {
                fprintf(f, "%s%s]\n", keys[k], r->header_vals[k]);
                done = true;
            }
        if (!done)
            fwrite(h + o, 1, len, f);
        o += len;
    }
}

int lmb_run_raw_rebuild(struct run *r, struct lmb_buf *const *chunks)
{
    char path[2400], err[LMB_QUOTE_BUF + 128];
    struct lmb_outfile of;   /* lib/outfile.h: a temporary file renamed over it */
    char *old = NULL;
    long size, header_end;
    bool replace[2] = { false, false };
    FILE *f;

    if (fflush(r->raw) != 0 || (size = ftell(r->raw)) < 0)
        return -1;
    old = malloc((size_t)size + 1);
    if (old == NULL || fseek(r->raw, 0, SEEK_SET) != 0 ||
        fread(old, 1, (size_t)size, r->raw) != (size_t)size) {
        free(old);
        return -1;
    }
    /* The header ends where the first step's lines begin. */
    header_end = size;
    for (size_t i = 0; i < r->plan.n; i++) {
        const struct lmb_step *s = &r->plan.v[i];
        if (s->header_key && chunks[i] != NULL)
            replace[strcmp(s->header_key, "MHZ") == 0 ? 0 : 1] = true;
        if (r->state[i].raw_start >= 0 && r->state[i].raw_end > r->state[i].raw_start &&
            r->state[i].raw_start < header_end)
            header_end = r->state[i].raw_start;
    }
    snprintf(path, sizeof path, "%s", r->base);
    if (lmb_outfile_open(&of, path, LMB_OUTFILE_READ, err, sizeof err) != 0) {
        free(old);
        return -1;
    }
    f = of.fp;
    header_copy(f, old, (size_t)header_end, r, replace);
    for (size_t i = 0; i < r->plan.n; i++) {
        struct lmb_step_state *st = &r->state[i];
        long start = ftell(f);
        if (chunks[i] != NULL) {
            if (chunks[i]->n > 0)
                fwrite(chunks[i]->p, 1, chunks[i]->n, f);
        } else if (st->raw_start >= header_end && st->raw_end > st->raw_start &&
                   st->raw_end <= size) {
            fwrite(old + st->raw_start, 1, (size_t)(st->raw_end - st->raw_start), f);
        }
        if (st->raw_start >= 0) {
            st->raw_start = start;
            st->raw_end = ftell(f);
        }
    }
    free(old);
    if (lmb_outfile_publish(&of, err, sizeof err) != 0)
        return -1;
    /* Go on writing (the date line) into the new file. */
    fclose(r->raw);
    r->raw = f;
    return fseek(r->raw, 0, SEEK_END);
}

/* --- files --------------------------------------------------------------------- */

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* <dir>/<host>.<n> with the first n that none of the three files uses. */
void lmb_run_choose_base(struct run *r)
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

void lmb_run_remove_scratch(struct run *r)
{
    if (r->file_made) {
        unlink(r->file);
        r->file_made = false;
    }
}

/* The scratch file the file benchmarks use, made now so that its name is known. */
int lmb_run_make_scratch(struct run *r)
{
    int fd;

    if (r->conf.file[0])   /* FILE (lmbench 3's): that path, with a unique suffix */
        snprintf(r->file, sizeof r->file, "%s.%s.XXXXXX", r->conf.file, r->id);
    else
        snprintf(r->file, sizeof r->file, "%s/lmbench.%s.XXXXXX", r->conf.fsdir, r->id);
    r->file[sizeof r->file - 1] = '\0';
    fd = mkstemp(r->file);
    if (fd < 0) {
        lmb_run_msg(r, "cannot make a file in %s: %s", r->conf.fsdir, strerror(errno));
        return -1;
    }
    close(fd);
    r->file_made = true;
    return 0;
}

/* A run that could not start its files leaves none of them behind (nothing
 * was measured); says which and why. -1. */
static int open_failed(struct run *r, const char *path)
{
    char q[LMB_QUOTE_BUF], jl[2400];
    int e = errno;

    lmb_run_msg(r, "cannot write %s: %s; nothing was run", lmb_quote(path, q, sizeof q),
                strerror(e));
    snprintf(jl, sizeof jl, "%s.jsonl", r->base);
    if (r->raw != NULL) {
        fclose(r->raw);
        unlink(r->base);
    }
    if (r->jsonl != NULL) {
        fclose(r->jsonl);
        unlink(jl);
    }
    r->raw = r->jsonl = NULL;
    return -1;
}

int lmb_run_open_files(struct run *r)
{
    char path[2400];

    /* "x": never another run's file (choose_base found the names free). */
    r->raw = fopen(r->base, "w+x");
    if (r->raw == NULL)
        return open_failed(r, r->base);
    snprintf(path, sizeof path, "%s.jsonl", r->base);
    if (r->json && (r->jsonl = fopen(path, "wx")) == NULL)
        return open_failed(r, path);
#ifdef LMB_HAVE_JANSSON
    {
        json_t *h = json_object();
        json_object_set_new(h, "schema", json_string("lmbench-results"));
        json_object_set_new(h, "schema_version", json_integer(1));
        json_object_set_new(h, "tool", tool_json(r));
        json_object_set_new(h, "run", run_json(r, NULL));
        json_object_set_new(h, "host", host_json(r));
        if (jsonl_line(r, h) != 0) {
            int e = errno;
            json_decref(h);
            errno = e;
            return open_failed(r, path);
        }
        json_decref(h);
    }
#else
    lmb_run_msg(r, "built without jansson: writing the raw results file only");
#endif
    return 0;
}

/* --- resume -------------------------------------------------------------------- */

#ifdef LMB_HAVE_JANSSON
/* Whether a run's .json says it was interrupted. */
static bool interrupted_doc(const char *path)
{
    struct stat sb;
    json_t *d;
    const char *st;

    /* Only a regular file of a sane size is read (a FIFO would block). */
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
        (uint64_t)sb.st_size > LMB_INPUT_RESULTS_MAX)
        return false;
    d = json_load_file(path, 0, NULL);
    st = json_string_value(json_object_get(json_object_get(d, "run"), "status"));
    bool yes = st != NULL && strcmp(st, "interrupted") == 0;

    json_decref(d);
    return yes;
}

/* Finds the newest interrupted run of this host in outdir (a .jsonl whose .json
 * is missing or says "interrupted") and loads it: settings, records and steps
 * done. */
int lmb_run_resume_load(struct run *r, char *err, size_t errlen)
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
    snprintf(r->base, sizeof r->base, "%s/%s.%u", r->outdir, r->host.hostname, (unsigned)best);
    snprintf(path, sizeof path, "%s.jsonl", r->base);
    f = fopen(path, "r+");
    if (f == NULL) {
        snprintf(err, errlen, "%.300s: %s", path, strerror(errno));
        return -1;
    }
    {
        /* The run's own file, but read as outside data: a regular file of
         * bounded size, lines of bounded length. */
        struct stat sb;
        if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode) ||
            (uint64_t)sb.st_size > LMB_INPUT_RESULTS_MAX) {
            snprintf(err, errlen, "%.300s: not a regular file of at most %llu MiB", path,
                     (unsigned long long)(LMB_INPUT_RESULTS_MAX >> 20));
            fclose(f);
            return -1;
        }
    }
    while ((len = lmb_input_line(f, &line, &cap, LMB_INPUT_LINE_MAX, err, errlen)) >= 0) {
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
            /* The suite's own settings (absent in files of an older lmbench: the
             * defaults). */
            if (json_is_number(json_object_get(c, "disturbed_pct")))
                r->opts.disturbed_pct = json_number_value(json_object_get(c, "disturbed_pct"));
            if (json_is_boolean(json_object_get(c, "retry")))
                r->opts.retry = json_is_true(json_object_get(c, "retry"));
            r->opts.launches = (unsigned)json_integer_value(json_object_get(c, "launches_asked"));
            lmb_sconf_json_get(&r->conf, c);
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
        r->raw = fopen(path, "w+");
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

