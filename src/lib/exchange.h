// SPDX-License-Identifier: MIT
/* Two-ended exchanges over a pair of descriptors, shared by lat_pipe, lat_unix,
 * bw_pipe and bw_unix: a round trip of a message, or a one-way stream. The
 * benchmark file says how to make the descriptors and what to call the result;
 * this fills in the copy's and the partner's sides of its struct lmb_timed. */
#ifndef LMB_EXCHANGE_H
#define LMB_EXCHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/bench.h"

/* The copy writes to cw and reads from cr; the partner reads from pr and writes
 * to pw. A socket is one descriptor for both directions (cr == cw); a stream
 * uses only cr and pw; an unused end is -1. */
struct lmb_duplex {
    int cr, cw, pr, pw;
};

struct lmb_exchange {
    /* Makes the descriptors, in the copy's set-up. 0, or -1 with a message. */
    int (*open)(struct lmb_duplex *d, char *err, size_t errlen);
    const char *what;          /* "pipe", "socket": for messages */
    size_t msg;                /* bytes per message */
    uint64_t total;            /* stream: bytes the copy reads per iteration */
    /* Set by the exchange: */
    struct lmb_duplex d;
    char *buf;
    bool threads;
};

/* One iteration is one round trip: the copy writes msg bytes, the partner
 * reads all of them and writes them back, the copy reads all of them. Sets t's
 * loop, set-up, partner and state (metric latency, one per iteration). */
void lmb_exchange_roundtrip(struct lmb_timed *t, struct lmb_exchange *x);

/* One iteration is `total` bytes read by the copy, in reads of at most msg
 * bytes, while the partner writes msg-byte messages without pause (metric
 * bandwidth, total bytes per iteration). */
void lmb_exchange_stream(struct lmb_timed *t, struct lmb_exchange *x);

/* The whole of bw_pipe and bw_unix: -m msg (default 64k), -M total (default
 * 10m), the stream measured, the record "<label>: %.2f MB/sec". */
int lmb_exchange_bw_main(struct lmb_ctx *ctx, int argc, char **argv,
                         int (*open)(struct lmb_duplex *d, char *err, size_t errlen),
                         const char *what, const char *label);

#endif
