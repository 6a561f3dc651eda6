// SPDX-License-Identifier: MIT
/* lat_unix: the latency of a round trip over a Unix-domain stream socket.
 *
 * One operation: one round trip of an m-byte message (default 1) over a
 * connected AF_UNIX SOCK_STREAM socket pair: the copy writes the message, its
 * partner (another process, or a thread with --threads) reads all of it and writes it back, the copy reads
 * all of it. Kept out of the timing: making the socket pair and the buffers,
 * starting, placing and stopping the partner. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/files.h"
#include "../lib/partner.h"
#include "../lib/sizes.h"

#define MAX_MSG (64ULL << 20)

struct unix_state {
    int sv[2];          /* copy uses [0], partner [1] */
    size_t msg;
    char *buf;
    bool threads;       /* the partner is a thread: it closes its own end */
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void run_unix(uint64_t n, void *s)
{
    struct unix_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        if (lmb_write_all(st->sv[0], st->buf, st->msg) != 0)
            lmb_partner_gone("write to the socket");
        if (lmb_read_all(st->sv[0], st->buf, st->msg) != 0)
            lmb_partner_gone("read from the socket");
    }
}

static int unix_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct unix_state *st = s;
    char *buf = malloc(st->msg);
    int rc;

    if (buf == NULL) {
        snprintf(pc->err, pc->errlen, "out of memory");
        return -1;
    }
    if (!pc->thread)
        close_fd(&st->sv[0]);
    lmb_ignore_sigpipe();
    while ((rc = lmb_read_all(st->sv[1], buf, st->msg)) == 0)
        if (lmb_write_all(st->sv[1], buf, st->msg) != 0) {
            rc = errno == EPIPE || errno == ECONNRESET ? 1 : -1;
            break;
        }
    if (rc < 0)
        snprintf(pc->err, pc->errlen, "socket: %s", strerror(errno));
    if (pc->thread)
        close_fd(&st->sv[1]);
    free(buf);
    return rc < 0 ? -1 : 0;
}

static void unix_after_partners(void *s, bool threads)
{
    struct unix_state *st = s;

    st->threads = threads;
    if (!threads)
        close_fd(&st->sv[1]);
}

static int unix_init(void *s, char *err, size_t errlen)
{
    struct unix_state *st = s;

    st->sv[0] = st->sv[1] = -1;
    st->buf = calloc(1, st->msg);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a message of %zu bytes", st->msg);
        return -1;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, st->sv) != 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void unix_cleanup(void *s)
{
    struct unix_state *st = s;

    close_fd(&st->sv[0]);   /* the partner sees end of file and leaves */
    if (!st->threads)
        close_fd(&st->sv[1]);
    free(st->buf);
    st->buf = NULL;
}

static const struct lmb_optdef options[] = {
    { 'm', "bytes", "message size (default 1)" },
};

static int lat_unix_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct unix_state st = { .msg = 1 };
    struct lmb_record rec;
    struct lmb_result res;
    uint64_t m = 1;
    char err[200];
    struct lmb_timed t = {
        .init = unix_init,
        .run = run_unix,
        .cleanup = unix_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = unix_partner,
        .after_partners = unix_after_partners,
    };

    (void)argv;
    if (lmb_opt_given(ctx, 'm')) {
        if (lmb_parse_size(lmb_opt_arg(ctx, 'm'), &m, err, sizeof err) != 0)
            return lmb_usage_error(ctx, "-m: %s", err);
        if (m == 0 || m > MAX_MSG)
            return lmb_usage_error(ctx, "-m: from 1 byte to 64m");
    }
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    st.msg = (size_t)m;
    lmb_measure(ctx, &t, &res);
    lmb_record_init(&rec, ctx->bench->name, "null", LMB_UNIT_US);
    lmb_record_param_int(&rec, "msg_bytes", (long long)m);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "AF_UNIX sock stream latency");
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_unix = {
    .name = "lat_unix",
    .summary = "Latency of a round trip over a Unix-domain stream socket",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Sends an m-byte message to a partner process over an AF_UNIX stream socket\n"
            "pair and back, and prints the microseconds of one round trip.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_unix_main,
};
