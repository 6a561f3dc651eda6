// SPDX-License-Identifier: MIT
/* par_ops: how many basic arithmetic operations a core overlaps.
 *
 * For each operation: the time of one operation in a dependent chain (its
 * latency) divided by the time per operation of 12 (integer bit, add, mul),
 * 10 (floating-point) or 8 (div, mod) independent chains interleaved (its
 * throughput; the counts are in the JSON as params.chains), each from
 * chains of two lengths so that the loop's own cost cancels (src/lib/ops.c).
 * 1 means the operations do not overlap at all; a core with two pipelined
 * multipliers of latency 3 gives 6. Nothing but the loops is timed.
 *
 * The command goes three times through all the operations, so that a busy
 * spell of the machine (or of the other hardware thread of the core) falls
 * on one round of an operation, not on all of it. Each round's figure is the
 * ratio of the two loops' best repetitions (a disturbance only ever adds
 * time, so the best is the undisturbed time), and the headline is the median
 * of the three. A figure is refused (failed, "too noisy: ...") when it is
 * outside what the chains allow (below 1, above the chain count;
 * src/lib/judge.c) or when the three rounds' figures disagree by more than
 * 1.25 times: a ratio that moves that much between rounds is not the core's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/judge.h"
#include "lib/ops.h"

/* Rounds through all the operations. */
#define ROUNDS 3
#define MAX_OPS 32

/* One operation over the rounds: each round's figure (the ratio of its best
 * dependent and best independent times), the best times of all rounds, and
 * the first result that was not ok. */
struct rounds {
    double ratio[ROUNDS];
    unsigned n;
    double dep_ns, indep_ns;
    struct lmb_result bad;
    double elapsed_s;
};

/* Adds one round's results of an operation to r (and frees them). */
static void add_round(struct rounds *r, struct lmb_result *dep, struct lmb_result *indep)
{
    r->elapsed_s += dep->elapsed_s + indep->elapsed_s;
    if (dep->status != LMB_OK || indep->status != LMB_OK) {
        if (r->bad.status == LMB_OK)
            lmb_result_move(&r->bad, dep->status != LMB_OK ? dep : indep);
    } else {
        /* A disturbance only ever adds time: each loop's best repetition is
         * its undisturbed time. */
        double d = lmb_result_min(dep), x = lmb_result_min(indep);
        r->ratio[r->n++] = d / x;
        if (d < r->dep_ns)
            r->dep_ns = d;
        if (x < r->indep_ns)
            r->indep_ns = x;
    }
    lmb_result_free(dep);
    lmb_result_free(indep);
}

/* The figure of op from its rounds, judged, into res. */
static void judge(const struct lmb_op *op, struct rounds *r, struct lmb_record *rec,
                  struct lmb_result *res)
{
    char why[LMB_REASON_LEN];

    memset(res, 0, sizeof *res);
    if (r->bad.status != LMB_OK) {
        lmb_result_move(res, &r->bad);
        return;
    }
    lmb_result_values(res, r->ratio, r->n, NULL);
    res->elapsed_s = r->elapsed_s;
    lmb_record_param_double(rec, "latency_ns", r->dep_ns);
    lmb_record_param_double(rec, "per_op_ns", r->indep_ns);
    double med = lmb_result_sort_median(res);
    if (!lmb_judge_parallelism(med, op->chains, why, sizeof why) ||
        !lmb_judge_rounds(r->ratio, r->n, why, sizeof why))
        lmb_result_set_status(res, LMB_FAILED, "%s", why);
}

static int par_ops_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct rounds r[MAX_OPS];

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    if (lmb_nops > MAX_OPS)
        return LMB_EXIT_FAILED;
    memset(r, 0, sizeof r);
    lmb_ops_default_interval(ctx);
    for (size_t i = 0; i < lmb_nops; i++)
        r[i].dep_ns = r[i].indep_ns = INFINITY;

    for (int round = 0; round < ROUNDS; round++)
        for (size_t i = 0; i < lmb_nops; i++) {
            struct lmb_result dep, indep;
            if (lmb_ops[i].chains == 0 || r[i].bad.status != LMB_OK)
                continue;   /* bogomflops (a mix, no chain to compare with), or failed */
            lmb_ops_measure(ctx, &lmb_ops[i], false, 1, &dep);
            lmb_ops_measure(ctx, &lmb_ops[i], true, 1, &indep);
            add_round(&r[i], &dep, &indep);
        }

    for (size_t i = 0; i < lmb_nops; i++) {
        const struct lmb_op *op = &lmb_ops[i];
        struct lmb_record rec;
        struct lmb_result res;

        if (op->chains == 0)
            continue;
        lmb_record_init(&rec, ctx->bench->name, op->name, LMB_UNIT_RATIO);
        lmb_record_param_str(&rec, "type", op->type);
        lmb_record_param_int(&rec, "chains", op->chains);
        rec.classic = LMB_CLASSIC_LABEL_VALUE;
        snprintf(rec.label, sizeof rec.label, "%s %s parallelism", op->type, op->name);
        judge(op, &r[i], &rec, &res);
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
            "the time per operation of 8 to 12 independent chains interleaved, each the best\n"
            "of -N repetitions: the median of three rounds' ratios. Each time comes from\n"
            "chains of 64 and of 16 steps per iteration, so that the loop's cost cancels. A\n"
            "ratio below 1, above the chain count, or whose rounds disagree by over 1.25\n"
            "times fails as too noisy.\n",
    .main = par_ops_main,
};
