// SPDX-License-Identifier: MIT
/* lat_pipe: the latency of a round trip through two pipes.
 *
 * One operation: one round trip. The copy writes a 4-byte token into one pipe;
 * its partner (another process, or a thread with --threads) reads it and writes it back into a second
 * pipe; the copy reads it. Each round trip wakes the partner and then the copy
 * again, so it holds two wake-ups and, on one CPU, two context switches.
 * Kept out of the timing: making the pipes, starting and placing the partner,
 * and stopping it (it leaves when the copy closes its end). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/files.h"
#include "../lib/partner.h"

struct pipe_state {
    int to_partner[2];    /* copy writes [1], partner reads [0] */
    int to_copy[2];       /* partner writes [1], copy reads [0] */
    int token;
    bool threads;         /* the partner is a thread: it closes its own ends */
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void run_pipe(uint64_t n, void *s)
{
    struct pipe_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        if (lmb_write_all(st->to_partner[1], &st->token, sizeof st->token) != 0)
            lmb_partner_gone("write to the partner's pipe");
        if (lmb_read_all(st->to_copy[0], &st->token, sizeof st->token) != 0)
            lmb_partner_gone("read from the partner's pipe");
        st->token++;
    }
}

/* The partner: echo tokens until the copy closes its end. */
static int pipe_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct pipe_state *st = s;
    int token, rc;

    if (!pc->thread) {
        close_fd(&st->to_partner[1]);
        close_fd(&st->to_copy[0]);
    }
    lmb_ignore_sigpipe();
    while ((rc = lmb_read_all(st->to_partner[0], &token, sizeof token)) == 0)
        if (lmb_write_all(st->to_copy[1], &token, sizeof token) != 0) {
            rc = errno == EPIPE ? 1 : -1;
            break;
        }
    if (rc < 0)
        snprintf(pc->err, pc->errlen, "pipe: %s", strerror(errno));
    /* A thread shares the copy's descriptors: it closes its own ends. */
    if (pc->thread) {
        close_fd(&st->to_partner[0]);
        close_fd(&st->to_copy[1]);
    }
    return rc < 0 ? -1 : 0;
}

static void pipe_after_partners(void *s, bool threads)
{
    struct pipe_state *st = s;

    st->threads = threads;
    if (!threads) {
        close_fd(&st->to_partner[0]);
        close_fd(&st->to_copy[1]);
    }
}

static int pipe_init(void *s, char *err, size_t errlen)
{
    struct pipe_state *st = s;

    st->to_partner[0] = st->to_partner[1] = st->to_copy[0] = st->to_copy[1] = -1;
    if (pipe2(st->to_partner, O_CLOEXEC) != 0 || pipe2(st->to_copy, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void pipe_cleanup(void *s)
{
    struct pipe_state *st = s;

    /* The partner sees end of file and leaves. */
    close_fd(&st->to_partner[1]);
    close_fd(&st->to_copy[0]);
    if (!st->threads) {
        close_fd(&st->to_partner[0]);
        close_fd(&st->to_copy[1]);
    }
}

static int lat_pipe_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct pipe_state st = { .token = 1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t = {
        .init = pipe_init,
        .run = run_pipe,
        .cleanup = pipe_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = pipe_partner,
        .after_partners = pipe_after_partners,
    };

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    lmb_measure(ctx, &t, &res);
    lmb_record_init(&rec, ctx->bench->name, "null", LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "Pipe latency");
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_pipe = {
    .name = "lat_pipe",
    .summary = "Latency of a round trip through two pipes",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Passes a token to a partner process (a thread with --threads) through one\n"
            "pipe and back through another, and prints the microseconds of one round\n"
            "trip. Where the two ends run follows LMBENCH_SCHED and --cpus: --cpus 0\n"
            "puts both on CPU 0, LMBENCH_SCHED=UNIQUE each on its own CPU.\n",
    .main = lat_pipe_main,
};
