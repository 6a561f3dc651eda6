// SPDX-License-Identifier: MIT
/* par_ops: how many basic arithmetic operations a core overlaps.
 *
 * For each operation: the time of one operation in a dependent chain (its
 * latency) divided by the time per operation of 12 (integer bit, add, mul),
 * 10 (floating-point) or 8 (div, mod) independent chains interleaved (its
 * throughput; the counts are in the JSON as params.chains), each from
 * chains of two lengths so that the loop's own cost cancels (src/lib/ops.c).
 * 1 means the operations do not overlap at all; a core with two pipelined
 * multipliers of latency 3 gives 6. Nothing but the loops is timed. */
#include <stdio.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/ops.h"

/* Each sample of the two times is the best of this many repetitions. */
#define BEST_OF 3

static double ratio(double dep, double indep, void *arg)
{
    (void)arg;
    return dep / indep;
}

static int par_ops_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");

    for (size_t i = 0; i < lmb_nops; i++) {
        const struct lmb_op *op = &lmb_ops[i];
        struct lmb_record rec;
        struct lmb_result dep, indep, res;

        if (op->chains == 0)
            continue;   /* bogomflops: a mix, no chain to compare with */
        lmb_record_init(&rec, ctx->bench->name, op->name, LMB_UNIT_RATIO);
        lmb_record_param_str(&rec, "type", op->type);
        lmb_record_param_int(&rec, "chains", op->chains);
        rec.classic = LMB_CLASSIC_LABEL_VALUE;
        snprintf(rec.label, sizeof rec.label, "%s %s parallelism", op->type, op->name);

        lmb_ops_measure(ctx, op, false, BEST_OF, &dep);
        lmb_ops_measure(ctx, op, true, BEST_OF, &indep);
        /* Paired by rank, the fastest dependent repetition with the fastest
         * independent one and so on: the median of the ratios is the ratio
         * of the medians, and a disturbed repetition of one is not set
         * against a clean one of the other. */
        lmb_result_sort(&dep);
        lmb_result_sort(&indep);
        lmb_result_derive(&res, &dep, &indep, ratio, NULL);
        lmb_result_free(&dep);
        lmb_result_free(&indep);
        lmb_report_add(&ctx->report, &rec, &res);
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_par_ops = {
    .name = "par_ops",
    .summary = "Instruction-level parallelism of basic arithmetic operations",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "",
    .help = "For integer (32-bit) and int64 bit, add, mul, div and mod, and float and double\n"
            "add, mul and div: the latency of one operation in a dependent chain divided by\n"
            "the time per operation of 8 to 12 independent chains interleaved: the median\n"
            "over the repetitions, the two sorted and paired by rank. Each time comes from\n"
            "chains of 64 and of 16 steps per iteration, so that the loop's cost cancels,\n"
            "each sample the best of three intervals.\n",
    .main = par_ops_main,
};
