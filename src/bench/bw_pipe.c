// SPDX-License-Identifier: MIT
/* bw_pipe: the bandwidth of moving data through a pipe between two processes.
 *
 * One operation: the copy reads `total` bytes (-M, default 10m) from a pipe,
 * in read() calls of at most `msg` bytes (-m, default 64k), exactly that many
 * in all, while its partner (another process, or a thread with --threads)
 * writes msg-byte messages into the pipe without pause. The bandwidth is the
 * bytes read over the time. Kept out of the timing: the pipe, the buffers,
 * starting, placing and stopping the writer (which leaves when the copy closes
 * its end). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/files.h"
#include "../lib/partner.h"
#include "../lib/sizes.h"

#define MAX_MSG (64ULL << 20)

struct bwp_state {
    int fds[2];            /* copy reads [0], partner writes [1] */
    size_t msg;
    uint64_t total;
    char *buf;
    bool threads;          /* the writer is a thread: it closes its own end */
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void run_read(uint64_t n, void *s)
{
    struct bwp_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        uint64_t left = st->total;
        while (left > 0) {
            size_t want = left < st->msg ? (size_t)left : st->msg;
            ssize_t r = read(st->fds[0], st->buf, want);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                lmb_abort_copy("read: %s", strerror(errno));
            if (r == 0)
                lmb_partner_gone("read from the pipe");
            left -= (uint64_t)r;
        }
    }
}

static int bwp_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct bwp_state *st = s;
    char *buf = calloc(1, st->msg);

    if (buf == NULL) {
        snprintf(pc->err, pc->errlen, "out of memory");
        return -1;
    }
    if (!pc->thread)
        close_fd(&st->fds[0]);
    lmb_ignore_sigpipe();
    while (lmb_write_all(st->fds[1], buf, st->msg) == 0)
        ;
    free(buf);
    if (pc->thread) {
        int e = errno;
        close_fd(&st->fds[1]);
        errno = e;
    }
    if (errno == EPIPE)
        return 0;
    snprintf(pc->err, pc->errlen, "write: %s", strerror(errno));
    return -1;
}

static void bwp_after_partners(void *s, bool threads)
{
    struct bwp_state *st = s;

    st->threads = threads;
    if (!threads)
        close_fd(&st->fds[1]);
}

static int bwp_init(void *s, char *err, size_t errlen)
{
    struct bwp_state *st = s;

    st->fds[0] = st->fds[1] = -1;
    st->buf = malloc(st->msg);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a message of %zu bytes", st->msg);
        return -1;
    }
    if (pipe2(st->fds, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void bwp_cleanup(void *s)
{
    struct bwp_state *st = s;

    close_fd(&st->fds[0]);   /* the writer sees EPIPE and leaves */
    if (!st->threads)
        close_fd(&st->fds[1]);
    free(st->buf);
    st->buf = NULL;
}

static const struct lmb_optdef options[] = {
    { 'm', "msg", "bytes per message (default 64k)" },
    { 'M', "total", "bytes per timed transfer (default 10m)" },
};

static int bw_pipe_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct bwp_state st = { .fds = { -1, -1 } };
    struct lmb_record rec;
    struct lmb_result res;
    uint64_t m = 64 * 1024, total = 10 * 1024 * 1024;
    char err[200];
    struct lmb_timed t = {
        .init = bwp_init,
        .run = run_read,
        .cleanup = bwp_cleanup,
        .state = &st,
        .metric = LMB_METRIC_BANDWIDTH,
        .partners = 1,
        .partner = bwp_partner,
        .after_partners = bwp_after_partners,
    };

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
    st.msg = (size_t)m;
    st.total = total;
    t.per_iter = (double)total;
    lmb_measure(ctx, &t, &res);
    lmb_record_init(&rec, ctx->bench->name, "null", LMB_UNIT_MBS);
    lmb_record_param_int(&rec, "msg_bytes", (long long)m);
    lmb_record_param_int(&rec, "total_bytes", (long long)total);
    rec.classic = LMB_CLASSIC_LABEL_MBS;
    snprintf(rec.label, sizeof rec.label, "Pipe bandwidth");
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_bw_pipe = {
    .name = "bw_pipe",
    .summary = "Bandwidth of moving data through a pipe between two processes",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Reads -M bytes at a time from a pipe that a partner process fills with -m\n"
            "byte messages, and prints the bandwidth in MB/s (10^6 bytes).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = bw_pipe_main,
};
