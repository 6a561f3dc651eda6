// SPDX-License-Identifier: MIT
/* lat_ops: the latency of basic arithmetic operations.
 *
 * One operation is one step of a dependent chain (x += y, x = K / x ...),
 * each step needing the previous one's result (src/lib/ops.c). The loop's own
 * cost is kept out by timing chains of two lengths (16 and 64 steps per
 * iteration) and dividing the difference of their times by the difference of
 * their lengths; the headline is the minimum, the undisturbed figure, over
 * three rounds through all the operations. mod's
 * chain adds H after each remainder (so that the divisor never reaches 0):
 * the add's latency, measured the same way, is subtracted.
 * bogomflops is lmbench 3's quantity instead: the time of one element's
 * update in a set of 12 independent elements, each updated by one expression
 * of four floating-point operations (an add, a subtract, a multiply and a
 * divide), so that the updates of different elements overlap and the loop
 * runs at the operations' throughput. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/ops.h"

/* Rounds through all the operations. */
#define ROUNDS 3

/* The best add latency of each type, for mod. */
struct kept {
    const char *type;
    double add_ns;
};

static double minus(double a, double unused, void *arg)
{
    (void)unused;
    return a - *(const double *)arg;
}

static int lat_ops_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_result shrt[64], lng[64], res[64];
    struct kept kept[4];
    size_t nkept = 0;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    if (lmb_nops > sizeof res / sizeof res[0])
        return LMB_EXIT_FAILED;
    lmb_ops_default_interval(ctx);

    /* ROUNDS rounds through every operation, the loops' samples gathered: a
     * busy spell of the machine then falls on some rounds of an operation,
     * not on all of it, and the best short loop of all the rounds is the one
     * taken off. */
    for (int round = 0; round < ROUNDS; round++)
        for (size_t i = 0; i < lmb_nops; i++) {
            struct lmb_result s, l;
            if (round == 0) {
                lmb_ops_measure_loops(ctx, &lmb_ops[i], false, 1, &shrt[i], &lng[i]);
                continue;
            }
            if (shrt[i].status != LMB_OK || lng[i].status != LMB_OK)
                continue;
            lmb_ops_measure_loops(ctx, &lmb_ops[i], false, 1, &s, &l);
            if (s.status != LMB_OK || l.status != LMB_OK) {
                lmb_result_move(&shrt[i], &s);
                lmb_result_move(&lng[i], &l);
                continue;
            }
            if (lmb_ops_append(&shrt[i], &s) != 0 || lmb_ops_append(&lng[i], &l) != 0)
                lmb_result_set_status(&lng[i], LMB_FAILED, "out of memory");
            lmb_result_free(&s);
            lmb_result_free(&l);
        }
    for (size_t i = 0; i < lmb_nops; i++) {
        lmb_ops_combine(&lmb_ops[i], false, &shrt[i], &lng[i], &res[i]);
        lmb_result_free(&shrt[i]);
        lmb_result_free(&lng[i]);
    }

    for (size_t i = 0; i < lmb_nops; i++) {
        const struct lmb_op *op = &lmb_ops[i];
        struct lmb_record rec;

        lmb_record_init(&rec, ctx->bench->name, op->name, LMB_UNIT_NS);
        lmb_record_param_str(&rec, "type", op->type);
        rec.classic = LMB_CLASSIC_LABEL_NS;
        rec.headline = LMB_HEAD_MIN;
        snprintf(rec.label, sizeof rec.label, "%s %s", op->type, op->name);
        if (op->chains == 0) {
            /* bogomflops: what one figure counts, and how many element
             * updates one timed interval of the long loop holds. */
            lmb_record_param_int(&rec, "elements", LMB_OPS_BOGO_ELEMS);
            lmb_record_param_int(&rec, "flops_per_element", LMB_OPS_BOGO_FLOPS);
            lmb_record_param_int(&rec, "elements_per_interval",
                                 (long long)res[i].iters * LMB_OPS_LONG * LMB_OPS_BOGO_ELEMS);
        }

        if (op->minus != NULL)
            rec.compat = "differs: the remainder's latency alone, the add its chain holds "
                         "subtracted; lmbench 3's mod line included other work";
        if (op->minus != NULL && res[i].status == LMB_OK) {
            const double *add = NULL;
            for (size_t k = 0; k < nkept; k++)
                if (strcmp(kept[k].type, op->type) == 0)
                    add = &kept[k].add_ns;
            if (add == NULL) {
                lmb_result_free(&res[i]);
                lmb_result_set_status(&res[i], LMB_FAILED,
                                      "needs the latency of %s %s, which was not measured",
                                      op->type, op->minus);
            } else {
                struct lmb_result net;
                lmb_result_derive(&net, &res[i], NULL, minus, (void *)add);
                lmb_result_free(&res[i]);
                res[i] = net;
                if (res[i].status == LMB_OK && !(lmb_result_min(&res[i]) > 0))
                    lmb_result_set_status(&res[i], LMB_BELOW_RESOLUTION,
                                          "the step was never slower than the %s it holds: "
                                          "lost in the noise", op->minus);
            }
        }
        if (strcmp(op->name, "add") == 0 && res[i].status == LMB_OK &&
            nkept < sizeof kept / sizeof kept[0]) {
            kept[nkept].type = op->type;
            kept[nkept].add_ns = lmb_result_min(&res[i]);
            nkept++;
        }
        lmb_report_add(&ctx->report, &rec, &res[i]);
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_ops = {
    .name = "lat_ops",
    .summary = "Latency of basic arithmetic operations",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_PWN,
    .args = "",
    .help = "Times dependent chains of one operation (each step needs the previous result)\n"
            "for integer (32-bit) and int64 bit, add, mul, div and mod, and float and double\n"
            "add, mul and div, and prints nanoseconds per operation: a 64-step chain less\n"
            "the best time of a 16-step one, divided by 48, so that the loop's own cost\n"
            "cancels; the minimum over three rounds of -N repetitions. mod's step holds an\n"
            "add, whose latency is subtracted. bogomflops, as lmbench 3's, is the time per\n"
            "element of 12 independent elements each updated by v = (v + a - b) * c / d\n"
            "(four floating-point operations), free to overlap: a throughput.\n",
    .main = lat_ops_main,
};
