// SPDX-License-Identifier: MIT
/* bw_pipe: the bandwidth of moving data through a pipe between two processes.
 *
 * One operation: the copy reads `total` bytes (-M, default 10m) from a pipe,
 * in read() calls of at most `msg` bytes (-m, default 64k), exactly that many
 * in all, while its partner (another process, or a thread with --threads)
 * writes msg-byte messages into the pipe without pause. The bandwidth is the
 * bytes read over the time. Kept out of the timing: the pipe, the buffers,
 * starting, placing and stopping the writer (which leaves when the copy closes
 * its end). The exchange itself is src/lib/exchange.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/exchange.h"

static int open_pipe(struct lmb_duplex *d, char *err, size_t errlen)
{
    int p[2];

    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    d->cr = p[0];
    d->pw = p[1];
    return 0;
}

static int bw_pipe_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    return lmb_exchange_bw_main(ctx, argc, argv, open_pipe, "pipe", "Pipe bandwidth");
}

static const struct lmb_optdef options[] = {
    { 'm', "msg", "bytes per message (default 64k)" },
    { 'M', "total", "bytes per timed transfer (default 10m)" },
};

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
