// SPDX-License-Identifier: MIT
/* Round trips and one-way streams between a copy and its partner over a pair
 * of descriptors (lat_pipe, lat_unix, bw_pipe, bw_unix). */
#include "lib/exchange.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/files.h"
#include "lib/mem.h"
#include "lib/partner.h"
#include "lib/sizes.h"
#include "lib/transfer.h"

#define MAX_MSG (64ULL << 20)

/* Closes *a, and *b unless it is the same descriptor. */
static void close_pair(int *a, int *b)
{
    if (*a >= 0)
        close(*a);
    if (*b >= 0 && *b != *a)
        close(*b);
    *a = *b = -1;
}

static int x_init(void *s, char *err, size_t errlen)
{
    struct lmb_exchange *x = s;

    x->d = (struct lmb_duplex){ -1, -1, -1, -1 };
    x->threads = false;
    x->buf = calloc(1, x->msg);
    if (x->buf == NULL) {
        snprintf(err, errlen, "out of memory for a message of %zu bytes", x->msg);
        return -1;
    }
    return x->open(&x->d, err, errlen);
}

/* In the copy once the partner runs: a process has its own copies of the
 * partner's ends, so the copy's go (the partner then sees end of file when the
 * copy closes its own); a thread shares them and closes them itself. */
static void x_after_partners(void *s, bool threads)
{
    struct lmb_exchange *x = s;

    x->threads = threads;
    if (!threads)
        close_pair(&x->d.pr, &x->d.pw);
}

static void x_cleanup(void *s)
{
    struct lmb_exchange *x = s;

    close_pair(&x->d.cr, &x->d.cw);   /* the partner sees end of file or EPIPE */
    if (!x->threads)
        close_pair(&x->d.pr, &x->d.pw);
    free(x->buf);
    x->buf = NULL;
}

/* The start and end of a partner: drop the copy's ends (a process), and close
 * its own (a thread, so that nothing is left open in the copy). */
static void partner_begin(struct lmb_exchange *x, const struct lmb_partner_ctx *pc)
{
    if (!pc->thread)
        close_pair(&x->d.cr, &x->d.cw);
    lmb_ignore_sigpipe();
}

static int partner_end(struct lmb_exchange *x, const struct lmb_partner_ctx *pc, int rc, char *buf)
{
    if (rc < 0)
        snprintf(pc->err, pc->errlen, "%s: %s", x->what, strerror(errno));
    if (pc->thread)
        close_pair(&x->d.pr, &x->d.pw);
    free(buf);
    return rc < 0 ? -1 : 0;
}

/* --- round trips ------------------------------------------------------------ */

static void run_roundtrip(uint64_t n, void *s)
{
    struct lmb_exchange *x = s;

    for (uint64_t i = 0; i < n; i++) {
        if (lmb_write_all(x->d.cw, x->buf, x->msg) != 0)
            lmb_partner_gone(x->what);
        if (lmb_read_all(x->d.cr, x->buf, x->msg) != 0)
            lmb_partner_gone(x->what);
    }
}

static int echo_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct lmb_exchange *x = s;
    char *buf = malloc(x->msg);
    int rc;

    if (buf == NULL) {
        snprintf(pc->err, pc->errlen, "out of memory");
        return -1;
    }
    partner_begin(x, pc);
    while ((rc = lmb_read_all(x->d.pr, buf, x->msg)) == 0)
        if (lmb_write_all(x->d.pw, buf, x->msg) != 0) {
            rc = errno == EPIPE || errno == ECONNRESET ? 1 : -1;
            break;
        }
    return partner_end(x, pc, rc, buf);
}

void lmb_exchange_roundtrip(struct lmb_timed *t, struct lmb_exchange *x)
{
    *t = (struct lmb_timed){
        .init = x_init,
        .run = run_roundtrip,
        .cleanup = x_cleanup,
        .state = x,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = echo_partner,
        .after_partners = x_after_partners,
    };
}

/* --- streams ------------------------------------------------------------------ */

static void run_stream(uint64_t n, void *s)
{
    struct lmb_exchange *x = s;

    for (uint64_t i = 0; i < n; i++) {
        uint64_t left = x->total;
        while (left > 0) {
            size_t want = left < x->msg ? (size_t)left : x->msg;
            ssize_t r = read(x->d.cr, x->buf, want);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                lmb_abort_copy("read from the %s: %s", x->what, strerror(errno));
            if (r == 0)
                lmb_partner_gone(x->what);
            left -= (uint64_t)r;
        }
    }
}

static int writer_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct lmb_exchange *x = s;
    char *buf = calloc(1, x->msg);
    int rc;

    if (buf == NULL) {
        snprintf(pc->err, pc->errlen, "out of memory");
        return -1;
    }
    partner_begin(x, pc);
    while (lmb_write_all(x->d.pw, buf, x->msg) == 0)
        ;
    rc = errno == EPIPE || errno == ECONNRESET ? 0 : -1;
    return partner_end(x, pc, rc, buf);
}

void lmb_exchange_stream(struct lmb_timed *t, struct lmb_exchange *x)
{
    *t = (struct lmb_timed){
        .init = x_init,
        .run = run_stream,
        .cleanup = x_cleanup,
        .state = x,
        .metric = LMB_METRIC_BANDWIDTH,
        .per_iter = (double)x->total,
        .partners = 1,
        .partner = writer_partner,
        .after_partners = x_after_partners,
    };
}

int lmb_exchange_bw_main(struct lmb_ctx *ctx, int argc, char **argv,
                         int (*open)(struct lmb_duplex *d, char *err, size_t errlen),
                         const char *what, const char *label)
{
    struct lmb_exchange x = { .open = open, .what = what };
    uint64_t m = 64 * 1024, total = 10 * 1024 * 1024;
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    char err[320];

    (void)argv;
    if (lmb_opt_given(ctx, 'm')) {
        if (lmb_parse_size(lmb_opt_arg(ctx, 'm'), &m, err, sizeof err) != 0)
            return lmb_usage_error(ctx, "-m: %s", err);
        if (m == 0 || m > MAX_MSG)
            return lmb_usage_error(ctx, "-m: from 1 byte to 64m");
    }
    if (lmb_opt_given(ctx, 'M')) {
        if (lmb_parse_size(lmb_opt_arg(ctx, 'M'), &total, err, sizeof err) != 0)
            return lmb_usage_error(ctx, "-M: %s", err);
        if (total == 0)
            return lmb_usage_error(ctx, "-M: at least 1 byte");
    }
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    if (lmb_transfer_check(ctx, 'M', lmb_opt_given(ctx, 'M') ? lmb_opt_arg(ctx, 'M') : "10m",
                           total, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "%s", err);
    x.msg = (size_t)m;
    x.total = total;
    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_MBS);
    lmb_record_param_int(&rec, "msg_bytes", (long long)m);
    lmb_record_param_int(&rec, "total_bytes", (long long)total);
    rec.classic = LMB_CLASSIC_LABEL_MBSEC;
    snprintf(rec.label, sizeof rec.label, "%s", label);
    /* The copy's buffer and its writer's, each a message. */
    if (lmb_memory_fits(2 * m, ctx->opt.parallel, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    lmb_exchange_stream(&t, &x);
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}
