// SPDX-License-Identifier: MIT
/* lat_rand: the time of one call of the C library's random number generators.
 *
 * One operation is one call of drand48(), lrand48() or random(); the results
 * are summed so that no call can be left out, and each call depends on the
 * previous one through the generator's state. Seeding happens in each copy
 * before the timing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/text.h"

struct rand_state {
    double dsum;
    long lsum;
};

static void run_drand48(uint64_t n, void *s)
{
    struct rand_state *st = s;
    double x = 0;

    for (uint64_t i = 0; i < n; i++)
        x += drand48();
    st->dsum += x;
}

static void run_lrand48(uint64_t n, void *s)
{
    struct rand_state *st = s;
    long x = 0;

    for (uint64_t i = 0; i < n; i++)
        x ^= lrand48();
    st->lsum ^= x;
}

static void run_random(uint64_t n, void *s)
{
    struct rand_state *st = s;
    long x = 0;

    for (uint64_t i = 0; i < n; i++)
        x ^= random();
    st->lsum ^= x;
}

static const struct lmb_variant variants[] = {
    { "drand48", "drand48(): a double in [0, 1)", run_drand48, "drand48 latency", 0 },
    { "lrand48", "lrand48(): a long in [0, 2^31)", run_lrand48, "lrand48 latency", 0 },
    { "random", "random(): the BSD generator", run_random, "random latency", 0 },
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static int rand_init(void *s, char *err, size_t errlen)
{
    (void)s;
    (void)err;
    (void)errlen;
    srand48(12345);
    srandom(12345);
    return 0;
}

static int lat_rand_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *only = NULL;

    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if (argc == 1) {
        only = lmb_find_variant(ctx->bench, argv[0]);
        if (only == NULL)
        {
            char q[LMB_QUOTE_BUF];
            return lmb_usage_error(ctx, "unknown generator '%s'", lmb_quote(argv[0], q, sizeof q));
        }
    }
    for (size_t i = 0; i < NVARIANTS; i++) {
        const struct lmb_variant *v = &variants[i];
        struct rand_state st = { 0 };
        struct lmb_timed t = {
            .init = rand_init,
            .run = v->run,
            .state = &st,
            .metric = LMB_METRIC_LATENCY,
            .per_iter = 1.0,
        };
        struct lmb_record rec;
        struct lmb_result res;

        if (only != NULL && only != v)
            continue;
        lmb_measure(ctx, &t, &res);
        lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_NS);
        rec.classic = LMB_CLASSIC_LABEL_NS;
        snprintf(rec.label, sizeof rec.label, "%s", v->label);
        lmb_report_add(&ctx->report, &rec, &res);
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_rand = {
    .name = "lat_rand",
    .summary = "Time of one call of the C library's random number generators",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_PWN,
    .args = "[{variants}]",
    .help = "Times calls of drand48(), lrand48() and random() (all three, or the one named)\n"
            "and prints nanoseconds per call, the median over the repetitions.\n",
    .variants = variants,
    .nvariants = NVARIANTS,
    .main = lat_rand_main,
};
