// SPDX-License-Identifier: MIT
/* The case operand of lat_futex, lat_eventfd and lat_pthread, and their
 * choice of partner kind by case (see cases.h). */
#include "lib/cases.h"

#include "lib/text.h"

int lmb_each_case(struct lmb_ctx *ctx, int argc, char **argv, const char *choices,
                  void (*measure)(struct lmb_ctx *ctx, const struct lmb_variant *v))
{
    const struct lmb_bench *b = ctx->bench;
    const struct lmb_variant *v = NULL;
    char q[LMB_QUOTE_BUF];

    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if (argc == 1 && (v = lmb_find_variant(b, argv[0])) == NULL)
        return lmb_usage_error(ctx, "unknown case '%s' (%s)", lmb_quote(argv[0], q, sizeof q),
                               choices);
    for (size_t i = 0; i < b->nvariants; i++)
        if (v == NULL || v == &b->variants[i])
            measure(ctx, &b->variants[i]);
    return LMB_EXIT_OK;
}

void lmb_measure_partner_kind(struct lmb_ctx *ctx, const struct lmb_timed *t, bool threads,
                              struct lmb_result *res)
{
    bool given = ctx->opt.threads;

    /* The harness starts partners as threads exactly when opt.threads is set
     * (--threads); the case decides it here, for this measurement only. */
    ctx->opt.threads = threads;
    lmb_measure(ctx, t, res);
    ctx->opt.threads = given;
}
