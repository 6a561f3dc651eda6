// SPDX-License-Identifier: MIT
/* bw_unix: the bandwidth of moving data over a Unix-domain stream socket.
 *
 * One operation: the copy reads `total` bytes (-M, default 10m) from one end of
 * an AF_UNIX SOCK_STREAM socket pair, in read() calls of at most `msg` bytes
 * (-m, default 64k), exactly that many in all, while its partner (another
 * process, or a thread with --threads) writes msg-byte messages into the other
 * end without pause. The bandwidth is the bytes read over the time. Kept out of
 * the timing: the socket pair, the buffers, starting, placing and stopping the
 * writer (which leaves when the copy closes its end). The exchange itself is
 * src/lib/exchange.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "lib/bench.h"
#include "lib/exchange.h"

static int open_socketpair(struct lmb_duplex *d, char *err, size_t errlen)
{
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    d->cr = sv[0];
    d->pw = sv[1];
    return 0;
}

static int bw_unix_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    return lmb_exchange_bw_main(ctx, argc, argv, open_socketpair, "socket",
                                "AF_UNIX sock stream bandwidth");
}

static const struct lmb_optdef options[] = {
    { 'm', "msg", "bytes per message (default 64k)" },
    { 'M', "total", "bytes per timed transfer (default 10m)" },
};

const struct lmb_bench lmb_bench_bw_unix = {
    .name = "bw_unix",
    .summary = "Bandwidth of moving data over a Unix-domain stream socket",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Reads -M bytes at a time from an AF_UNIX stream socket that a partner process\n"
            "fills with -m byte messages, and prints the bandwidth in MB/s (10^6 bytes).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = bw_unix_main,
};
