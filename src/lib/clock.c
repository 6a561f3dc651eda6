// SPDX-License-Identifier: MIT
/* The monotonic clock, with its cost and granularity measured at start-up. */
#include "lib/clock.h"

#include <time.h>

static uint64_t monotonic_now(void *cookie)
{
    struct timespec ts;

    (void)cookie;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void lmb_clock_measure(struct lmb_clock *c)
{
    enum { READS = 1000, ROUNDS = 5 };
    double best = -1.0;
    uint64_t gran = 0;

    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = lmb_now(c), t1;
        for (int i = 0; i < READS; i++)
            (void)lmb_now(c);
        t1 = lmb_now(c);
        double per = (double)(t1 - t0) / (READS + 1);
        if (best < 0 || per < best)
            best = per;
    }
    /* Bounded: a clock that never moves gives up after `left` reads, and a coarse
     * one is watched for 0.1 s at most once it has been seen to step. */
    uint64_t first = lmb_now(c);
    long left = 10000000;
    for (int r = 0; r < ROUNDS * READS && left > 0; r++) {
        uint64_t a = lmb_now(c), b;
        do {
            b = lmb_now(c);
        } while (b == a && --left > 0);
        if (b > a && (gran == 0 || b - a < gran))
            gran = b - a;
        if (gran != 0 && b - first > 100000000)
            break;
    }
    c->overhead_ns = best;
    c->granularity_ns = (double)gran;
}

void lmb_clock_system(struct lmb_clock *c)
{
    c->now = monotonic_now;
    c->cookie = NULL;
    c->name = "CLOCK_MONOTONIC";
    lmb_clock_measure(c);
}

double lmb_clock_error_ns(const struct lmb_clock *c)
{
    return c->overhead_ns + c->granularity_ns;
}
