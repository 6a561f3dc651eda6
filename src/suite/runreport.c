// SPDX-License-Identifier: MIT
/* lmbench run, report: what people see on stderr while the run goes (progress
 * with an ETA, a step's own messages, "lmbench run: ..." lines) and at its end,
 * and the run's warnings in host.warnings of the .json. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void lmb_run_progress(struct run *r, size_t i, const struct lmb_step *s)
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

#ifdef LMB_HAVE_JANSSON
/* Warnings about the run as a whole, after the host's own: results that varied
 * much between repetitions, and a machine that got busy while it ran. */
void lmb_run_warnings(const struct run *r, json_t *warn)
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

#endif

void lmb_run_report_end(struct run *r)
{
    lmb_run_msg(r, "%s after %.0f s: %u ok, %u skipped, %u failed, %u timed out; results in %s.*",
                lmb_run_stop ? "stopped" : "done", lmb_run_now() - r->t0, r->ok, r->skipped,
                r->failed, r->timeouts, r->base);
}
