// SPDX-License-Identifier: MIT
/* lat_pipe: the latency of a round trip through two pipes.
 *
 * One operation: one round trip. The copy writes a 4-byte token into one pipe;
 * its partner (another process, or a thread with --threads) reads it and
 * writes it back into a second pipe; the copy reads it. Each round trip wakes
 * the partner and then the copy again, so it holds two wake-ups and, on one
 * CPU, two context switches. Kept out of the timing: making the pipes,
 * starting and placing the partner, and stopping it (it leaves when the copy
 * closes its end). The exchange itself is src/lib/exchange.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/exchange.h"

static int open_pipes(struct lmb_duplex *d, char *err, size_t errlen)
{
    int to_partner[2], to_copy[2];

    if (pipe2(to_partner, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(to_copy, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close(to_partner[0]);
        close(to_partner[1]);
        return -1;
    }
    *d = (struct lmb_duplex){ .cr = to_copy[0], .cw = to_partner[1],
                              .pr = to_partner[0], .pw = to_copy[1] };
    return 0;
}

static int lat_pipe_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_exchange x = { .open = open_pipes, .what = "pipe", .msg = 4 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    lmb_exchange_roundtrip(&t, &x);
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
