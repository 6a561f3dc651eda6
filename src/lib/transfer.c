// SPDX-License-Identifier: MIT
/* Refusing stream totals that cannot be measured within the timeout, or whose
 * byte counts overflow (see transfer.h). */
#include "lib/transfer.h"

#include <stdio.h>

#include "lib/text.h"

unsigned lmb_transfer_min_rounds(const struct lmb_ctx *ctx)
{
    return (ctx->opt.repetitions ? ctx->opt.repetitions : 1) + 2;
}

/* Bytes in binary units, as sizes are written on the command line: "1 TiB",
 * "1.5 GiB", "512 bytes". */
static void bytes_text(uint64_t b, char *out, size_t len)
{
    static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = -1;

    if (b < 1024) {
        snprintf(out, len, "%llu byte%s", (unsigned long long)b, b == 1 ? "" : "s");
        return;
    }
    while (u < 5 && b >> (10 * (u + 2)) > 0)
        u++;
    if (b % (1ULL << (10 * (u + 1))) == 0)
        snprintf(out, len, "%llu %s", (unsigned long long)(b >> (10 * (u + 1))), unit[u]);
    else
        snprintf(out, len, "%.1f %s", (double)b / (double)(1ULL << (10 * (u + 1))), unit[u]);
}

int lmb_transfer_check(const struct lmb_ctx *ctx, char flag, const char *arg, uint64_t bytes,
                       char *err, size_t errlen)
{
    unsigned rounds = lmb_transfer_min_rounds(ctx);
    unsigned copies = ctx->opt.parallel ? ctx->opt.parallel : 1;
    unsigned samples = rounds - 2;
    double timeout = ctx->opt.timeout_s;
    double least_s = (double)ctx->opt.warmup_us / 1e6 + (double)rounds * (double)bytes /
                     LMB_TRANSFER_RATE_MAX;
    char q[80], b[40], why[80];

    lmb_quote(arg, q, sizeof q);
    bytes_text(bytes, b, sizeof b);
    snprintf(why, sizeof why, "one calibration round, one untimed interval, %u sample%s",
             samples, samples == 1 ? "" : "s");
    /* The bytes the copies move together, at the least, must fit in the
     * signed 64-bit counts of the records and the wire. */
    if (bytes > (uint64_t)INT64_MAX / rounds / copies) {
        char by[40] = "";
        if (copies > 1)
            snprintf(by, sizeof by, " by each of %u copies", copies);
        snprintf(err, errlen, "-%c %s: %s moved at least %u times (%s)%s is more bytes than "
                 "64-bit counts hold", flag, q, b, rounds, why, by);
        return -1;
    }
    /* With --timeout given, the command has that long and one measurement
     * at most LMB_DEFAULT_TIMEOUT_S of it. */
    if (timeout > 0 && ctx->opt.deadline_s > 0 && timeout > LMB_DEFAULT_TIMEOUT_S &&
        least_s > LMB_DEFAULT_TIMEOUT_S) {
        snprintf(err, errlen, "-%c %s: %s moved at least %u times (%s) at up to %.0f GB/s "
                 "takes at least %.3g s, beyond the %g s one measurement may take", flag, q, b,
                 rounds, why, LMB_TRANSFER_RATE_MAX / 1e9, least_s, LMB_DEFAULT_TIMEOUT_S);
        return -1;
    }
    if (timeout > 0 && least_s > timeout) {
        snprintf(err, errlen, "-%c %s: %s moved at least %u times (%s) at up to %.0f GB/s "
                 "takes at least %.3g s, beyond --timeout %g s", flag, q, b, rounds, why,
                 LMB_TRANSFER_RATE_MAX / 1e9, least_s, timeout);
        return -1;
    }
    return 0;
}
