// SPDX-License-Identifier: MIT
/* Totals a stream benchmark is asked to move (bw_pipe -M, bw_unix -M, bw_tcp
 * -M): refused at once when they cannot be moved within the timeout even at a
 * rate no pipe or socket reaches, or when the bytes a measurement moves do not
 * fit in 63 bits, instead of running until the timeout. */
#ifndef LMB_TRANSFER_H
#define LMB_TRANSFER_H

#include <stddef.h>
#include <stdint.h>

#include "lib/bench.h"

/* The rate assumed for the refusal, in bytes per second per copy: well above
 * what one pipe, Unix-domain socket or loopback TCP stream moves (each byte is
 * copied twice, into the kernel and out; such streams move a few GB/s), so no
 * transfer that could finish is refused. */
#define LMB_TRANSFER_RATE_MAX 40e9

/* A measurement times each iteration at least this many times: one
 * calibration round, one untimed interval and the -N samples. */
unsigned lmb_transfer_min_rounds(const struct lmb_ctx *ctx);

/* Whether `bytes` moved per iteration by each of -P copies (as the user wrote
 * it after -`flag`: `arg`) can be measured: 0, or -1 with the reason in err,
 * e.g. "-M 1t: 1 TiB moved at least 13 times (one calibration round, one
 * untimed interval, 11 samples) at up to 40 GB/s takes at least 357 s, beyond
 * --timeout 300 s" (with a --timeout over LMB_DEFAULT_TIMEOUT_S, that bound of
 * one measurement is the one that counts). The caller refuses it as a usage
 * error (exit 2). */
int lmb_transfer_check(const struct lmb_ctx *ctx, char flag, const char *arg, uint64_t bytes,
                       char *err, size_t errlen);

#endif
