// SPDX-License-Identifier: MIT
/* lat_ops: the latency of basic arithmetic operations.
 *
 * One operation is one step of a dependent chain (x += y, x = K / x ...),
 * each step needing the previous one's result (src/lib/ops.c). The loop's own
 * cost is kept out by timing chains of two lengths (16 and 64 steps per
 * iteration) and dividing the difference of their times by the difference of
 * their lengths; the headline is the minimum, the undisturbed figure. mod's
 * chain adds H after each remainder (so that the divisor never reaches 0):
 * the add's latency, measured the same way, is subtracted.
 * bogomflops times a mix of independent floating-point work instead. */
#include <stdio.h>
#include <string.h>

#include "../lib/bench.h"
#include "../lib/ops.h"

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
    struct kept kept[4];
    size_t nkept = 0;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");

    for (size_t i = 0; i < lmb_nops; i++) {
        const struct lmb_op *op = &lmb_ops[i];
        struct lmb_record rec;
        struct lmb_result res;

        lmb_record_init(&rec, ctx->bench->name, op->name, LMB_UNIT_NS);
        lmb_record_param_str(&rec, "type", op->type);
        rec.classic = LMB_CLASSIC_LABEL_NS;
        rec.headline = LMB_HEAD_MIN;
        snprintf(rec.label, sizeof rec.label, "%s %s", op->type, op->name);

        lmb_ops_measure(ctx, op, false, 1, &res);
        if (op->minus != NULL && res.status == LMB_OK) {
            const double *add = NULL;
            for (size_t k = 0; k < nkept; k++)
                if (strcmp(kept[k].type, op->type) == 0)
                    add = &kept[k].add_ns;
            if (add == NULL) {
                lmb_result_free(&res);
                lmb_result_set_status(&res, LMB_FAILED,
                                      "needs the latency of %s %s, which was not measured",
                                      op->type, op->minus);
            } else {
                struct lmb_result net;
                lmb_result_derive(&net, &res, NULL, minus, (void *)add);
                lmb_result_free(&res);
                res = net;
                if (res.status == LMB_OK && !(lmb_result_min(&res) > 0))
                    lmb_result_set_status(&res, LMB_BELOW_RESOLUTION,
                                          "the step was never slower than the %s it holds: "
                                          "lost in the noise", op->minus);
            }
        }
        if (strcmp(op->name, "add") == 0 && res.status == LMB_OK &&
            nkept < sizeof kept / sizeof kept[0]) {
            kept[nkept].type = op->type;
            kept[nkept].add_ns = lmb_result_min(&res);
            nkept++;
        }
        lmb_report_add(&ctx->report, &rec, &res);
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
            "cancels; the minimum over the repetitions. mod's step holds an add, whose\n"
            "latency is subtracted. bogomflops is the time per operation of eight\n"
            "independent updates v = (v + 1) * 3 / 6, a mix of latency and throughput.\n",
    .main = lat_ops_main,
};
