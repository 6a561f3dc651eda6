// SPDX-License-Identifier: MIT
/* mhz: the processor's clock, from the time of dependent single-cycle
 * operations.
 *
 * An int64 add (x += y) that needs the previous add's result takes one clock
 * cycle on every current processor, so the time of one step of such a chain
 * is the clock period. It comes from chains of two lengths (src/lib/ops.c), so
 * the loop's own cost cancels. A second chain of single-cycle operations
 * (int64 xor) is timed the same way as a check: when the two disagree, or the
 * samples scatter, the system is too busy to tell and the command says so
 * instead of printing a number. Nothing but the chains is timed. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/ops.h"
#include "lib/stats.h"

/* How far the two estimates, and the middle half of the samples, may spread
 * before the figure is not to be trusted. */
#define MAX_SPREAD 0.03
/* Measurements tried before giving up: a busy moment may pass. */
#define ATTEMPTS 3
/* Samples per attempt, each the best of this many intervals (lmb_ops_measure). */
#define SAMPLES 11
#define BEST_OF 7

static const struct lmb_optdef options[] = {
    { 'c', NULL, "print the clock period in nanoseconds only" },
};

/* One attempt: res gets the MHz samples, with status failed when the two
 * chains disagree or the samples scatter. Returns whether it is good. */
/* One sample of each chain, measured one after the other: ns per step, the
 * best of BEST_OF intervals (lmb_ops_measure with one repetition). */
static int one_round(struct lmb_ctx *ctx, struct lmb_result *ra, struct lmb_result *rb)
{
    unsigned n = ctx->opt.repetitions;

    ctx->opt.repetitions = 1;
    lmb_ops_measure(ctx, lmb_ops_find("int64", "add"), false, BEST_OF, ra);
    lmb_ops_measure(ctx, lmb_ops_find("int64", "bit"), false, BEST_OF, rb);
    ctx->opt.repetitions = n;
    return ra->status == LMB_OK && rb->status == LMB_OK && ra->n == 1 && rb->n == 1 ? 0 : -1;
}

/* One attempt: SAMPLES rounds, the add and xor chains interleaved so that a
 * busy spell of the machine falls on both alike. res gets the MHz samples (in
 * Hz) of the add chain, with status failed when the two chains disagree or the
 * samples scatter. Returns whether it is good. */
static bool attempt(struct lmb_ctx *ctx, struct lmb_result *res)
{
    double add_ns[SAMPLES], bit_ns[SAMPLES], hz[SAMPLES];
    struct lmb_result ra = { 0 }, rb = { 0 }, first = { 0 };
    struct lmb_stats sa, sb;
    bool good = false;

    memset(res, 0, sizeof *res);
    for (int i = 0; i < SAMPLES; i++) {
        int rc = one_round(ctx, &ra, &rb);
        if (rc != 0) {
            lmb_result_free(&first);
            if (ra.status != LMB_OK) {
                *res = ra;
                lmb_result_free(&rb);
            } else {
                *res = rb;
                lmb_result_free(&ra);
                if (res->status == LMB_OK)
                    lmb_result_set_status(res, LMB_FAILED, "a round gave no sample");
            }
            return false;
        }
        add_ns[i] = ra.samples[0];
        bit_ns[i] = rb.samples[0];
        hz[i] = 1e9 / add_ns[i];
        if (i == 0) {
            first = ra;
            memset(&ra, 0, sizeof ra);
        }
        lmb_result_free(&ra);
        lmb_result_free(&rb);
    }
    lmb_result_values(res, hz, SAMPLES, &first);
    lmb_result_free(&first);
    if (lmb_stats_compute(add_ns, SAMPLES, &sa) == 0 && lmb_stats_compute(bit_ns, SAMPLES, &sb) == 0) {
        double apart = fabs(sa.median - sb.median) / fmin(sa.median, sb.median);
        double spread = (sa.p75 - sa.p25) / sa.median;
        if (apart > MAX_SPREAD)
            lmb_result_set_status(res, LMB_FAILED,
                                  "too noisy to tell: two chains of single-cycle operations "
                                  "give %.0f and %.0f MHz (%.1f%% apart; the system is busy or "
                                  "the clock changed while measuring)",
                                  1000.0 / sa.median, 1000.0 / sb.median, 100.0 * apart);
        else if (spread > MAX_SPREAD)
            lmb_result_set_status(res, LMB_FAILED,
                                  "too noisy to tell: the middle half of the samples spans "
                                  "%.1f%% (the system is busy or the clock changes)",
                                  100.0 * spread);
        else
            good = true;
    }
    return good;
}

static int mhz_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_result res;
    struct lmb_record rec;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");

    lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_MHZ);
    rec.classic = lmb_opt_given(ctx, 'c') ? LMB_CLASSIC_PERIOD : LMB_CLASSIC_MHZ;
    for (int i = 1;; i++) {
        bool good = attempt(ctx, &res);
        if (good || i == ATTEMPTS || res.status == LMB_TIMEOUT)
            break;
        lmb_result_free(&res);
    }
    if (res.status == LMB_FAILED && strncmp(res.reason, "too noisy", 9) == 0) {
        char why[sizeof res.reason];
        snprintf(why, sizeof why, "%s", res.reason);
        lmb_result_set_status(&res, LMB_FAILED, "%.200s; %d attempts", why, ATTEMPTS);
    }
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_mhz = {
    .name = "mhz",
    .summary = "Processor clock rate, from the time of single-cycle operations",
    .category = LMB_CAT_CALIBRATION,
    .common = 0,
    .args = "",
    .help = "Times a dependent chain of 64-bit adds, one clock cycle each on current\n"
            "processors, as the difference of a 64-step and a 16-step chain, and prints\n"
            "the clock rate and period: the median of 11 samples, each the best of seven\n"
            "intervals. A chain of xors is timed the same way, in turn with the adds; when\n"
            "the two disagree by more than 3%, or the middle half\n"
            "of the samples spreads more than 3%, the command measures again, and after\n"
            "three such attempts prints no number and says the system is too noisy to\n"
            "tell (exit status 1).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = mhz_main,
    .classic_on_stdout = true,
};
