// SPDX-License-Identifier: MIT
/* Choosing how many iterations make one timed interval.
 *
 * The choice is a small state machine fed with the length of each interval it
 * asked for, so that the same logic serves one process (lmb_calibrate) and a
 * group of copies in lockstep (benchmp.c feeds it the slowest copy's interval).
 * It grows the count until an interval reaches the target, then accepts the
 * count only when a second interval with the same count agrees on the rate: one
 * interruption (a preemption, a page-cache flush) inflates one interval, and a
 * count accepted from it alone would make every sample too short. */
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
/* Two intervals of the same count agree when the shorter is at least this
 * fraction of the longer. */
#define LMB_CAL_AGREE 0.75

struct lmb_cal {
    /* settings */
    uint64_t target_ns;
    uint64_t budget_ns;      /* calibration gives up (keeping its count) past this */
    double trust_ns;         /* intervals shorter than this say little about the rate */
    /* the count to run next, and when done, the count to use */
    uint64_t iters;
    /* what was seen */
    uint64_t last_ns;        /* the last interval */
    uint64_t prev_ns;        /* the interval before it, if it had the same count; else 0 */
    uint64_t spent_ns;       /* time calibration has taken */
    unsigned rounds;         /* intervals fed */
    /* how it ended */
    bool done;
    bool reached;            /* accepted: two agreeing intervals at or past the target */
    bool gave_up;            /* the budget ran out first; iters is the last count tried */
    bool hit_max_iters;      /* LMB_MAX_ITERS did not reach the target */
};

/* Starts a calibration at one iteration. */
void lmb_cal_start(struct lmb_cal *c, uint64_t target_ns, uint64_t budget_ns, double trust_ns);

/* Feeds the length of the interval just run with c->iters iterations and the
 * time calibration has taken so far. Returns true when calibration is over
 * (c->done): then c->iters is the count to use. Otherwise c->iters is the next
 * count to run. */
bool lmb_cal_feed(struct lmb_cal *c, uint64_t elapsed_ns, uint64_t spent_ns);

/* The budget for a target: twenty intervals, at least two seconds. */
uint64_t lmb_cal_budget_ns(uint64_t target_ns);

/* The count that would make an interval of target_ns from one of elapsed_ns
 * with iters iterations (10% margin, at least one more than iters when the
 * interval was too short, capped at LMB_MAX_ITERS). */
uint64_t lmb_cal_rescale(uint64_t iters, uint64_t elapsed_ns, uint64_t target_ns);

/* Default interval: 1000 times the clock's error (0.1%), at least
 * LMB_MIN_DEFAULT_INTERVAL_NS. */
uint64_t lmb_default_interval_ns(const struct lmb_clock *c);

/* The interval to use: min_time_s if > 0 (--min-time), else the ENOUGH value
 * (microseconds, string from the environment) if set, else the default.
 * Returns -1 with a message when ENOUGH is not a positive whole number. */
int lmb_interval_ns(const struct lmb_clock *c, double min_time_s, const char *enough,
                    uint64_t *out, char *err, size_t errlen);

/* One process: runs the state machine on run(), timing with c. out->spent_ns
 * covers every interval run. */
void lmb_calibrate(const struct lmb_clock *c, lmb_run_fn run, void *state,
                   uint64_t target_ns, uint64_t budget_ns, struct lmb_cal *out);

/* Runs the loop, untimed in effect, until at least warm_ns have passed. */
void lmb_warmup(const struct lmb_clock *c, lmb_run_fn run, void *state, uint64_t warm_ns);

#endif
