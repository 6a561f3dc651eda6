// SPDX-License-Identifier: MIT
/* The clock every measurement reads, with its measured cost and granularity.
 * Benchmarks never read time themselves: they hand a loop to the harness. */
#ifndef LMB_CLOCK_H
#define LMB_CLOCK_H

#include <stdint.h>

struct lmb_clock {
    uint64_t (*now)(void *cookie);   /* nanoseconds, monotonic */
    void *cookie;
    const char *name;                /* e.g. "CLOCK_MONOTONIC" */
    double overhead_ns;              /* cost of one now() call */
    double granularity_ns;           /* smallest positive step seen between reads */
};

static inline uint64_t lmb_now(const struct lmb_clock *c)
{
    return c->now(c->cookie);
}

/* The system clock (CLOCK_MONOTONIC), its overhead and granularity measured now. */
void lmb_clock_system(struct lmb_clock *c);

/* Measures overhead_ns and granularity_ns of c (used by lmb_clock_system; public so
 * that tests can run it on a fake clock). */
void lmb_clock_measure(struct lmb_clock *c);

/* Worst-case error one timed interval carries: a read's cost plus one step. */
double lmb_clock_error_ns(const struct lmb_clock *c);

#endif
