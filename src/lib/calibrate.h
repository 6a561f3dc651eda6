// SPDX-License-Identifier: MIT
/* Choosing how many iterations make one timed interval. */
#ifndef LMB_CALIBRATE_H
#define LMB_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/clock.h"

/* The timed loop of a benchmark: perform the operation `iters` times. */
typedef void (*lmb_run_fn)(uint64_t iters, void *state);

/* Shortest interval we ever time by default, whatever the clock: long enough
 * to ride over the scheduler's and the hypervisor's hiccups. */
#define LMB_MIN_DEFAULT_INTERVAL_NS 5000000ULL
/* Most iterations one interval may hold; a loop that needs more is not
 * measurably doing work. */
#define LMB_MAX_ITERS (1ULL << 40)

struct lmb_calibration {
    uint64_t iters;        /* iterations per timed interval */
    uint64_t elapsed_ns;   /* the last calibration interval, for iters */
    uint64_t spent_ns;     /* time calibration took */
    bool reached;          /* elapsed_ns >= target */
    bool hit_max_iters;    /* gave up: LMB_MAX_ITERS did not reach the target */
};

/* Default interval: 1000 times the clock's error (0.1%), at least
 * LMB_MIN_DEFAULT_INTERVAL_NS. */
uint64_t lmb_default_interval_ns(const struct lmb_clock *c);

/* The interval to use: min_time_s if > 0 (--min-time), else the ENOUGH value
 * (microseconds, string from the environment) if set, else the default.
 * Returns -1 with a message when ENOUGH is not a positive whole number. */
int lmb_interval_ns(const struct lmb_clock *c, double min_time_s, const char *enough,
                    uint64_t *out, char *err, size_t errlen);

/* Grows the iteration count until one interval lasts at least target_ns, spending
 * at most about budget_ns (then it keeps the largest count tried). */
void lmb_calibrate(const struct lmb_clock *c, lmb_run_fn run, void *state,
                   uint64_t target_ns, uint64_t budget_ns, struct lmb_calibration *out);

/* Runs the loop, untimed in effect, until at least warm_ns have passed. */
void lmb_warmup(const struct lmb_clock *c, lmb_run_fn run, void *state, uint64_t warm_ns);

#endif
