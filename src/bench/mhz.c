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

#include "../lib/bench.h"
#include "../lib/ops.h"
#include "../lib/stats.h"

/* How far the two estimates, and the middle half of the samples, may spread
 * before the figure is not to be trusted. */
#define MAX_SPREAD 0.03
/* Measurements tried before giving up: a busy moment may pass. */
#define ATTEMPTS 3
/* Each sample is the best of this many intervals (lmb_ops_measure). */
#define BEST_OF 3

static const struct lmb_optdef options[] = {
    { 'c', NULL, "print the clock period in nanoseconds only" },
};

/* One sample per repetition of the add chain (see lmb_ops_measure), in Hz
 * (the unit's base; the record shows MHz). */
static double to_hz(double ns, double unused, void *arg)
{
    (void)unused;
    (void)arg;
    return 1e9 / ns;
}

/* One attempt: res gets the MHz samples, with status failed when the two
 * chains disagree or the samples scatter. Returns whether it is good. */
static bool attempt(struct lmb_ctx *ctx, struct lmb_result *res)
{
    const struct lmb_op *add = lmb_ops_find("int64", "add");
    const struct lmb_op *bit = lmb_ops_find("int64", "bit");
    struct lmb_result ra, rb;
    struct lmb_stats sa, sb;
    bool good = false;

    lmb_ops_measure(ctx, add, false, BEST_OF, &ra);
    lmb_ops_measure(ctx, bit, false, BEST_OF, &rb);
    lmb_result_derive(res, &ra, NULL, to_hz, NULL);
    if (res->status == LMB_OK && rb.status != LMB_OK)
        lmb_result_set_status(res, rb.status, "the check (xor) chain: %s", rb.reason);
    if (res->status == LMB_OK && lmb_stats_compute(ra.samples, ra.n, &sa) == 0 &&
        lmb_stats_compute(rb.samples, rb.n, &sb) == 0) {
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
    lmb_result_free(&ra);
    lmb_result_free(&rb);
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
            "the clock rate and period: the median of 11 samples, each the best of three\n"
            "intervals. A chain of xors is\n"
            "timed the same way; when the two disagree by more than 3%, or the middle half\n"
            "of the samples spreads more than 3%, the command measures again, and after\n"
            "three such attempts prints no number and says the system is too noisy to\n"
            "tell (exit status 1).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = mhz_main,
    .classic_on_stdout = true,
};
