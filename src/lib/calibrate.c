// SPDX-License-Identifier: MIT
/* Choosing the iteration count of one timed interval, and warm-up. */
#include "lib/calibrate.h"

#include <math.h>
#include <stdio.h>

#include "lib/sizes.h"

uint64_t lmb_default_interval_ns(const struct lmb_clock *c)
{
    double want = 1000.0 * lmb_clock_error_ns(c);

    if (!(want > (double)LMB_MIN_DEFAULT_INTERVAL_NS))
        return LMB_MIN_DEFAULT_INTERVAL_NS;
    if (want > 1e10)
        return 10000000000ULL;
    return (uint64_t)want;
}

int lmb_interval_ns(const struct lmb_clock *c, double min_time_s, const char *enough,
                    uint64_t *out, char *err, size_t errlen)
{
    if (min_time_s > 0.0) {
        *out = min_time_s >= 3600.0 ? 3600000000000ULL : (uint64_t)(min_time_s * 1e9);
        if (*out == 0)
            *out = 1;
        return 0;
    }
    if (enough != NULL && *enough != '\0') {
        uint64_t us;
        char why[128];
        if (lmb_parse_uint(enough, 1, 3600ULL * 1000000ULL, &us, why, sizeof why) != 0) {
            snprintf(err, errlen, "ENOUGH must be microseconds per interval: %s", why);
            return -1;
        }
        *out = us * 1000ULL;
        return 0;
    }
    *out = lmb_default_interval_ns(c);
    return 0;
}

void lmb_calibrate(const struct lmb_clock *c, lmb_run_fn run, void *state,
                   uint64_t target_ns, uint64_t budget_ns, struct lmb_calibration *out)
{
    uint64_t n = 1, start = lmb_now(c);
    /* Below this an interval says little about the rate: grow fast instead. */
    double trust_ns = 100.0 * lmb_clock_error_ns(c);

    out->reached = false;
    out->hit_max_iters = false;
    for (;;) {
        uint64_t t0 = lmb_now(c);
        run(n, state);
        uint64_t t1 = lmb_now(c);
        uint64_t e = t1 - t0;

        out->iters = n;
        out->elapsed_ns = e;
        out->spent_ns = t1 - start;
        if (e >= target_ns) {
            out->reached = true;
            return;
        }
        if (n >= LMB_MAX_ITERS) {
            out->hit_max_iters = true;
            return;
        }
        if (out->spent_ns >= budget_ns)
            return;

        double factor;
        if ((double)e < trust_ns || e == 0)
            factor = 10.0;
        else
            factor = 1.1 * (double)target_ns / (double)e;
        if (factor > 100.0)
            factor = 100.0;
        double next = ceil((double)n * factor);
        if (next <= (double)n)
            next = (double)n + 1.0;
        if (next > (double)LMB_MAX_ITERS)
            next = (double)LMB_MAX_ITERS;
        n = (uint64_t)next;
    }
}

void lmb_warmup(const struct lmb_clock *c, lmb_run_fn run, void *state, uint64_t warm_ns)
{
    uint64_t start, n = 1;

    if (warm_ns == 0)
        return;
    start = lmb_now(c);
    while (lmb_now(c) - start < warm_ns) {
        run(n, state);
        if (n < (1ULL << 30))
            n *= 2;
    }
}
