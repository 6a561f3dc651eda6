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
        char why[160];
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

uint64_t lmb_cal_budget_ns(uint64_t target_ns)
{
    uint64_t b = target_ns > UINT64_MAX / 20 ? UINT64_MAX : 20 * target_ns;

    return b < 2000000000ULL ? 2000000000ULL : b;
}

uint64_t lmb_cal_rescale(uint64_t iters, uint64_t elapsed_ns, uint64_t target_ns)
{
    double next;

    if (elapsed_ns == 0)
        next = (double)iters * 100.0;
    else
        next = ceil((double)iters * 1.1 * (double)target_ns / (double)elapsed_ns);
    if (elapsed_ns < target_ns && next <= (double)iters)
        next = (double)iters + 1.0;
    if (next < 1.0)
        next = 1.0;
    if (next > (double)LMB_MAX_ITERS)
        next = (double)LMB_MAX_ITERS;
    return (uint64_t)next;
}

void lmb_cal_start(struct lmb_cal *c, uint64_t target_ns, uint64_t budget_ns, double trust_ns)
{
    *c = (struct lmb_cal){
        .target_ns = target_ns ? target_ns : 1,
        .budget_ns = budget_ns,
        .trust_ns = trust_ns,
        .iters = 1,
    };
}

static bool agree(uint64_t a, uint64_t b)
{
    uint64_t lo = a < b ? a : b, hi = a < b ? b : a;

    return (double)lo >= LMB_CAL_AGREE * (double)hi;
}

bool lmb_cal_feed(struct lmb_cal *c, uint64_t e, uint64_t spent_ns)
{
    c->rounds++;
    c->spent_ns = spent_ns;
    if (c->done)
        return true;

    if (e >= c->target_ns) {
        /* Long enough. Accept when the interval before, with the same count,
         * agrees on the rate; otherwise run the same count once more. */
        if (c->prev_ns != 0 && agree(c->prev_ns, e)) {
            c->last_ns = e;
            c->reached = true;
            c->done = true;
            return true;
        }
        c->prev_ns = e;
        c->last_ns = e;
        if (e > c->budget_ns / 2) {
            /* One iteration outlasts what a confirmation may take (an
             * operation of seconds): take it as it is. */
            c->reached = true;
            c->done = true;
            return true;
        }
    } else {
        if (c->iters >= LMB_MAX_ITERS) {
            c->last_ns = e;
            c->hit_max_iters = true;
            c->done = true;
            return true;
        }
        /* Too short: grow fast while the interval is too short to say much
         * about the rate, else aim just past the target. */
        uint64_t next;
        if ((double)e < c->trust_ns || e == 0) {
            next = c->iters > LMB_MAX_ITERS / 10 ? LMB_MAX_ITERS : c->iters * 10;
        } else {
            next = lmb_cal_rescale(c->iters, e, c->target_ns);
            if (next > c->iters * 100 && c->iters <= LMB_MAX_ITERS / 100)
                next = c->iters * 100;
        }
        c->prev_ns = 0;
        c->last_ns = e;
        if (spent_ns >= c->budget_ns) {
            /* Out of time: keep the largest count tried. */
            c->gave_up = true;
            c->done = true;
            return true;
        }
        c->iters = next;
        return false;
    }
    if (spent_ns >= c->budget_ns) {
        c->gave_up = true;
        c->done = true;
        return true;
    }
    return false;
}

void lmb_calibrate(const struct lmb_clock *c, lmb_run_fn run, void *state,
                   uint64_t target_ns, uint64_t budget_ns, struct lmb_cal *out)
{
    uint64_t start = lmb_now(c);

    lmb_cal_start(out, target_ns, budget_ns, 100.0 * lmb_clock_error_ns(c));
    for (;;) {
        uint64_t t0 = lmb_now(c);
        run(out->iters, state);
        uint64_t t1 = lmb_now(c);
        if (lmb_cal_feed(out, t1 - t0, t1 - start))
            return;
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
