// SPDX-License-Identifier: MIT
/* lat_unix: the latency of a round trip over a Unix-domain stream socket.
 *
 * One operation: one round trip of an m-byte message (default 1) over a
 * connected AF_UNIX SOCK_STREAM socket pair: the copy writes the message, its
 * partner (another process, or a thread with --threads) reads all of it and
 * writes it back, the copy reads all of it. Kept out of the timing: making the
 * socket pair and the buffers, starting, placing and stopping the partner. The
 * exchange itself is src/lib/exchange.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "lib/bench.h"
#include "lib/exchange.h"
#include "lib/mem.h"
#include "lib/sizes.h"

#define MAX_MSG (64ULL << 20)

static int open_socketpair(struct lmb_duplex *d, char *err, size_t errlen)
{
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    *d = (struct lmb_duplex){ .cr = sv[0], .cw = sv[0], .pr = sv[1], .pw = sv[1] };
    return 0;
}

static const struct lmb_optdef options[] = {
    { 'm', "bytes", "message size (default 1)" },
};

static int lat_unix_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_exchange x = { .open = open_socketpair, .what = "socket", .msg = 1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    uint64_t m = 1;
    char err[200];

    (void)argv;
    if (lmb_opt_given(ctx, 'm')) {
        if (lmb_parse_size(lmb_opt_arg(ctx, 'm'), &m, err, sizeof err) != 0)
            return lmb_usage_error(ctx, "-m: %s", err);
        if (m == 0 || m > MAX_MSG)
            return lmb_usage_error(ctx, "-m: from 1 byte to 64m");
    }
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    x.msg = (size_t)m;
    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_US);
    lmb_record_param_int(&rec, "msg_bytes", (long long)m);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "AF_UNIX sock stream latency");
    /* The copy's message and its partner's, each m bytes. */
    if (lmb_memory_fits(2 * m, ctx->opt.parallel, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    lmb_exchange_roundtrip(&t, &x);
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_unix = {
    .name = "lat_unix",
    .summary = "Latency of a round trip over a Unix-domain stream socket",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Sends an m-byte message to a partner process (a thread with --threads) over\n"
            "an AF_UNIX stream socket pair and back, and prints the microseconds of one\n"
            "round trip.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_unix_main,
};
