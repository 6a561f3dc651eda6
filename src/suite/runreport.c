// SPDX-License-Identifier: MIT
/* lmbench run, report: what people see on stderr while the run goes (progress
 * with an ETA, a step's own messages, "lmbench run: ..." lines) and at its end,
 * and the run's warnings in host.warnings of the .json. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/text.h"
#include "progress.h"
#include "run.h"

void lmb_run_msg(struct run *r, const char *fmt, ...)
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

static void progress_line(struct run *r, size_t i, const char *name);

void lmb_run_progress(struct run *r, size_t i, const struct lmb_step *s)
{
    progress_line(r, i, s->name);
}

void lmb_run_progress_launch(struct run *r, size_t i, const struct lmb_step *s, unsigned j)
{
    char name[600];

    snprintf(name, sizeof name, "launch %u of %u: %s", j, s->launches, s->name);
    progress_line(r, i, name);
}

/* The terminal's width (stderr's), else COLUMNS, else 80. */
static size_t term_width(void)
{
    struct winsize ws;
    const char *c = getenv("COLUMNS");
    char *end;
    long v;

    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    if (c != NULL && *c) {
        v = strtol(c, &end, 10);
        if (*end == '\0' && v > 0 && v < 10000)
            return (size_t)v;
    }
    return 80;
}

/* "[i/n] ETA 2m27s name": the ETA from the plan's estimates (before anything
 * ran, the plan's own), corrected by the steps done so far (progress.c). On a
 * terminal, one line rewritten in place, the name cut at a word boundary to
 * fit the width; else one line a step, whole. */
static void progress_line(struct run *r, size_t i, const char *name)
{
    char eta[48] = "", t[32], head[96], fit[sizeof r->plan.v[0].name + 32];
    double left = lmb_eta_left(r->weight_total, r->weight_done, r->time_done);

    if (r->weight_total > 0)
        snprintf(eta, sizeof eta, " ETA %s", lmb_eta_format(left, t, sizeof t));
    if (r->tty) {
        size_t w = term_width(), used;
        snprintf(head, sizeof head, "lmbench run: [%zu/%zu]%s ", i + 1, r->plan.n, eta);
        used = strlen(head);
        /* The last column stays free: a line that fills it wraps on some
         * terminals. Where the name would keep less than a dozen columns,
         * "lmbench run: " goes first (the least useful part there). */
        if (w < used + 13 && used > 13) {
            memmove(head, head + 13, used - 13 + 1);
            used -= 13;
        }
        lmb_fit_words(name, w > used + 5 ? w - used - 1 : 4, fit, sizeof fit);
        fprintf(stderr, "\r\033[K%s%s", head, fit);
        r->progress_shown = true;
    } else {
        fprintf(stderr, "lmbench run: [%zu/%zu] %s%s\n", i + 1, r->plan.n, name, eta);
    }
    fflush(stderr);
}

void lmb_run_pass_messages(struct run *r, const struct lmb_buf *m)
{
    if (m->n == 0)
        return;
    if (r->tty && r->progress_shown) {
        fputs("\r\033[K", stderr);
        r->progress_shown = false;
    }
    fwrite(m->p, 1, m->n, stderr);
    if (m->p[m->n - 1] != '\n')
        fputc('\n', stderr);
}

/* What people should know of a run's figures, gathered once for the .json's
 * warnings and for the last lines on stderr. */
struct findings {
    double load_start[3], load_end[3];
    bool load_end_known;
    size_t results, noisy, below;        /* ok results; with CV > 5%; below resolution */
    char noisy_ex[3][160];               /* the worst few, worst first */
    double noisy_cv[3];
    char below_ex[3][160];
    size_t disturbed, retried, better, still;  /* steps disturbed at first; retried; the
                                                  retry kept; still disturbed (kept) */
    size_t over_budget;                  /* disturbed, not retried for lack of time */
    char dist_ex[3][160];
    size_t broken;                       /* steps failed or timed out */
    char broken_ex[3][300];
};

#ifdef LMB_HAVE_JANSSON
/* "bw_mem frd (size_bytes=67108864, step 40)" */
static void record_name(json_t *rec, char *out, size_t len)
{
    const char *b = json_string_value(json_object_get(rec, "benchmark"));
    const char *c = json_string_value(json_object_get(rec, "case"));
    json_t *params = json_object_get(rec, "params"), *v;
    const char *key;
    size_t o, np = 0;

    o = (size_t)snprintf(out, len, "%s%s%s (", b ? b : "?", c ? " " : "", c ? c : "");
    json_object_foreach(params, key, v) {
        if (np == 2 || o >= len)
            break;
        if (json_is_integer(v))
            o += (size_t)snprintf(out + o, len - o, "%s=%lld, ", key,
                                  (long long)json_integer_value(v));
        else if (json_is_string(v))
            o += (size_t)snprintf(out + o, len - o, "%s=%s, ", key, json_string_value(v));
        else
            continue;
        np++;
    }
    if (o < len)
        snprintf(out + o, len - o, "step %lld)",
                 (long long)json_integer_value(json_object_get(rec, "step")));
}

static void records_findings(const struct run *r, struct findings *f)
{
    size_t k;
    json_t *rec;

    json_array_foreach(r->records, k, rec) {
        json_t *cv = json_object_get(json_object_get(rec, "stats"), "cv");
        const char *st = json_string_value(json_object_get(rec, "status"));
        if (st != NULL && strcmp(st, "below_resolution") == 0) {
            if (f->below < 3)
                record_name(rec, f->below_ex[f->below], sizeof f->below_ex[0]);
            f->below++;
        }
        if (st == NULL || strcmp(st, "ok") != 0 || !json_is_number(cv))
            continue;
        f->results++;
        if (json_number_value(cv) > 0.05) {
            double x = json_number_value(cv);
            size_t n = f->noisy < 3 ? f->noisy : 3, at = n;
            /* Keep the worst three, worst first. */
            while (at > 0 && f->noisy_cv[at - 1] < x)
                at--;
            if (at < 3) {
                for (size_t j = (n < 3 ? n : 2); j > at; j--) {
                    f->noisy_cv[j] = f->noisy_cv[j - 1];
                    memcpy(f->noisy_ex[j], f->noisy_ex[j - 1], sizeof f->noisy_ex[0]);
                }
                f->noisy_cv[at] = x;
                record_name(rec, f->noisy_ex[at], sizeof f->noisy_ex[0] - 16);
                snprintf(f->noisy_ex[at] + strlen(f->noisy_ex[at]), 16, " CV %.0f%%", 100 * x);
            }
            f->noisy++;
        }
    }
}

/* Step i's status and reason from its line. */
static void step_status(const struct run *r, size_t i, const char **st, const char **why)
{
    json_t *o;
    size_t k;

    *st = *why = NULL;
    json_array_foreach(r->steps, k, o)
        if (json_integer_value(json_object_get(o, "step")) == (json_int_t)i + 1) {
            *st = json_string_value(json_object_get(o, "status"));
            *why = json_string_value(json_object_get(o, "reason"));
        }
}
#endif

static void gather(const struct run *r, struct findings *f)
{
    memset(f, 0, sizeof *f);
    memcpy(f->load_start, r->host.loadavg, sizeof f->load_start);
    f->load_end_known = getloadavg(f->load_end, 3) == 3;
#ifdef LMB_HAVE_JANSSON
    if (r->json)
        records_findings(r, f);
#endif
    for (size_t i = 0; r->state != NULL && i < r->plan.n; i++) {
        const struct lmb_step_state *st = &r->state[i];
        if (st->attempts == 0)
            continue;
        if (st->attempts == 2 || st->disturbed) {
            if (f->disturbed < 3) {
                if (st->disturbance >= 0)
                    snprintf(f->dist_ex[f->disturbed], sizeof f->dist_ex[0],
                             "%.120s (%.0f%% in the attempt kept)", r->plan.v[i].name,
                             100 * st->disturbance);
                else
                    snprintf(f->dist_ex[f->disturbed], sizeof f->dist_ex[0], "%.140s",
                             r->plan.v[i].name);
            }
            f->disturbed++;
        }
        f->retried += st->attempts == 2;
        f->over_budget += st->over_budget;
        f->better += st->retried_better;
        f->still += st->disturbed;
#ifdef LMB_HAVE_JANSSON
        {
            const char *status, *why;
            step_status(r, i, &status, &why);
            if (status != NULL && strcmp(status, "ok") != 0 && strcmp(status, "skipped") != 0) {
                /* The reason's start: the full one is in run.steps. */
                if (f->broken < 3)
                    snprintf(f->broken_ex[f->broken], sizeof f->broken_ex[0], "%.60s (%s: %.50s%s)",
                             r->plan.v[i].name, status, why ? why : "no reason given",
                             why && strlen(why) > 50 ? "..." : "");
                f->broken++;
            }
        }
#endif
    }
}

/* "a; b; c" of the first n of ex (at most 3), into out. */
static void list3(char ex[][160], size_t n, char *out, size_t len)
{
    size_t o = 0;

    out[0] = '\0';
    for (size_t i = 0; i < n && i < 3 && o < len; i++)
        o += (size_t)snprintf(out + o, len - o, "%s%s", i ? "; " : "", ex[i]);
}

#ifdef LMB_HAVE_JANSSON
/* Warnings about the run as a whole, after the host's own: results that varied
 * much between repetitions, results below the clock's resolution, steps that
 * shared their CPUs with other work, and a machine that got busy while it ran. */
void lmb_run_warnings(const struct run *r, json_t *warn)
{
    struct findings f;
    char buf[900], l[600];

    gather(r, &f);
    if (f.noisy > 0) {
        list3(f.noisy_ex, f.noisy, l, sizeof l);
        snprintf(buf, sizeof buf, "%zu of %zu results varied by more than 5%% between repetitions "
                                  "(CV); the worst: %s", f.noisy, f.results, l);
        json_array_append_new(warn, json_string(buf));
    }
    if (f.below > 0) {
        list3(f.below_ex, f.below, l, sizeof l);
        snprintf(buf, sizeof buf, "%zu result%s below the clock's resolution (no figure): %s%s",
                 f.below, f.below == 1 ? "" : "s", l, f.below > 3 ? " ..." : "");
        json_array_append_new(warn, json_string(buf));
    }
    for (size_t i = 0; r->state != NULL && i < r->plan.n; i++) {
        const struct lmb_step_state *st = &r->state[i];
        if (st->attempts == 0 || (st->attempts == 1 && !st->disturbed))
            continue;
        snprintf(buf, sizeof buf, "step %zu (%.200s): other work shared the CPUs while it ran%s%s",
                 i + 1, r->plan.v[i].name,
                 st->attempts == 2 ? (st->retried_better ? "; run again, the second attempt is kept"
                                                         : "; run again, the first attempt is kept")
                 : st->over_budget ? "; not run again (the retries had used their share of the "
                                     "run's time)"
                                   : "",
                 st->disturbed ? "; its records say \"disturbed\": true" : "");
        json_array_append_new(warn, json_string(buf));
    }
    if (f.load_end_known && r->host.cpus_online > 0 &&
        f.load_end[0] > 0.5 * (double)r->host.cpus_online + 1) {
        snprintf(buf, sizeof buf, "load average %.2f at the end of the run on %ld CPUs: other work "
                                  "competed with the benchmarks", f.load_end[0], r->host.cpus_online);
        json_array_append_new(warn, json_string(buf));
    }
}
#endif

/* s as one word of a shell command line, to copy: as it is when it has only
 * characters no shell treats specially, else in single quotes (control bytes
 * escaped: such a name cannot be typed anyway). */
static const char *shell_word(const char *s, char *buf, size_t len)
{
    size_t o = 0;

    if (s[0] != '\0' && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                  "0123456789/._-+,:=@%") == strlen(s))
        return s;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return lmb_quote(s, buf, len);
    if (len < 8)
        return "''";
    buf[o++] = '\'';
    for (const char *p = s; *p && o + 6 < len; p++) {
        if (*p == '\'') {
            memcpy(buf + o, "'\\''", 4);
            o += 4;
        } else {
            buf[o++] = *p;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

/* The one message of a run whose results could not all be written. */
static void report_write_failure(struct run *r)
{
    char q[LMB_QUOTE_BUF], w[4 * sizeof r->outdir + 8];

#ifndef LMB_HAVE_JANSSON
    lmb_run_msg(r, "cannot write %s: %s; the run stopped there, the raw file whole up to the last "
                   "step kept (built without jansson, this lmbench cannot --resume it)",
                lmb_quote(r->write_path, q, sizeof q), strerror(r->write_errno));
    (void)w;
    (void)shell_word;
    return;
#endif
    lmb_run_msg(r, "cannot write %s: %s; the run stopped there, its files whole up to the last "
                   "step kept%s; when there is space, continue it with: lmbench run --resume -o %s",
                lmb_quote(r->write_path, q, sizeof q), strerror(r->write_errno),
                r->json_failed && strcmp(r->write_path + strlen(r->base), ".json") != 0
                    ? " (no .json)" : "",
                shell_word(r->outdir, w, sizeof w));
}

/* The last line of a run stopped by a signal (SIGINT, SIGTERM, SIGHUP): how
 * to continue it. */
static void report_interrupted(struct run *r)
{
    char w[4 * sizeof r->outdir + 8];

#ifndef LMB_HAVE_JANSSON
    lmb_run_msg(r, "interrupted (%s); built without jansson, this lmbench cannot --resume it: "
                   "run it again", strsignal((int)lmb_run_stop));
    (void)w;
    return;
#endif
    lmb_run_msg(r, "interrupted (%s); continue it with: lmbench run --resume -o %s",
                strsignal((int)lmb_run_stop), shell_word(r->outdir, w, sizeof w));
}

void lmb_run_report_end(struct run *r)
{
    struct findings f;
    char l[600];

    lmb_run_msg(r, "%s after %.0f s: %u ok, %u skipped, %u failed, %u timed out; results in %s.*",
                lmb_run_stop || r->write_failed ? "stopped" : "done", lmb_run_now() - r->t0, r->ok,
                r->skipped, r->failed, r->timeouts, r->base);
    gather(r, &f);
    if (f.load_end_known)
        lmb_run_msg(r, "load average %.2f at the start, %.2f at the end, on %ld CPUs",
                    f.load_start[0], f.load_end[0], r->host.cpus_online);
    if (r->plan.launches <= 1)
        lmb_run_msg(r, "one launch per step (profile %s): the spread between fresh processes "
                       "is not measured; --launches 3 measures it", r->conf.profile);
    else
        lmb_run_msg(r, "%u launches for each step that feeds a summary cell", r->plan.launches);
    if (f.disturbed > 0) {
        list3(f.dist_ex, f.disturbed, l, sizeof l);
        lmb_run_msg(r, "disturbed: %zu steps shared their CPUs with other work (over %g%%): %s%s",
                    f.disturbed, r->opts.disturbed_pct, l, f.disturbed > 3 ? " ..." : "");
        char ob[160] = "";
        if (f.over_budget > 0)
            snprintf(ob, sizeof ob, "; the others not retried: the retries had used their %.1f%% "
                                    "of the run's time", 100 * LMB_RUN_RETRY_SHARE);
        if (f.retried > 0 || f.over_budget > 0)
            lmb_run_msg(r, "retried %zu of them: %zu less disturbed the second time; %zu still "
                           "disturbed (their records say so)%s", f.retried, f.better, f.still,
                        ob);
    }
    if (f.noisy > 0) {
        list3(f.noisy_ex, f.noisy, l, sizeof l);
        lmb_run_msg(r, "spread: %zu of %zu results have a CV over 5%%; the worst: %s", f.noisy,
                    f.results, l);
    }
    if (f.below > 0) {
        list3(f.below_ex, f.below, l, sizeof l);
        lmb_run_msg(r, "below the clock's resolution: %zu result%s: %s%s", f.below,
                    f.below == 1 ? "" : "s", l, f.below > 3 ? " ..." : "");
    }
    if (f.broken > 0) {
        char ex[3][160];
        for (size_t i = 0; i < 3; i++)
            snprintf(ex[i], sizeof ex[i], "%.159s", f.broken_ex[i]);
        list3(ex, f.broken, l, sizeof l);
        lmb_run_msg(r, "failed or timed out: %zu step%s: %s%s", f.broken,
                    f.broken == 1 ? "" : "s", l, f.broken > 3 ? " ..." : "");
    }
    if (f.noisy + f.below + f.disturbed + f.broken > 0 && r->json && !r->json_failed)
        lmb_run_msg(r, "every warning is in host.warnings of %s.json", r->base);
    /* Last, where it is seen: what could not be written, or how to go on
     * after an interruption. */
    if (r->write_failed)
        report_write_failure(r);
    else if (lmb_run_stop)
        report_interrupted(r);
}
