// SPDX-License-Identifier: MIT
/* par_mem: memory-level parallelism over working-set sizes.
 *
 * One operation is one load of a pointer chain in random order through a
 * working set; k chains start at evenly spaced places of the same cycle and
 * move in step, so k independent loads can be in flight. For each size the
 * parallelism is the time per load of one chain divided by that of k chains,
 * for the k (2 to 16) that overlaps most (src/lib/memlat.c). Mapping,
 * touching and laying the chain (once per size, in the parent) are kept out
 * of the timing. */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/memlat.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

#define MIN_SIZE 1024
#define DEFAULT_MAX (256ULL << 20)

static const struct lmb_optdef options[] = {
    { 'L', "line", "distance between the elements of a chain (default: the cache line size)" },
    { 'M', "len", "largest working set (default 256m)" },
};

static int par_mem_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    size_t stride = (size_t)lmb_cache_line_size();
    uint64_t maxlen = DEFAULT_MAX;
    char err[256];

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    uint64_t v = stride;
    int rc;
    if ((rc = lmb_memlat_size_opt(ctx, 'L', sizeof(void *), MIN_SIZE / 2, sizeof(void *),
                                  &v)) != 0 ||
        (rc = lmb_memlat_size_opt(ctx, 'M', MIN_SIZE, SIZE_MAX / 4, 1, &maxlen)) != 0)
        return rc;
    stride = (size_t)v;
    if (lmb_memory_fits(maxlen, 1, err, sizeof err) != 0) {
        struct lmb_record rec;
        lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_RATIO);
        lmb_record_param_int(&rec, "size_bytes", (long long)maxlen);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }

    for (uint64_t size = MIN_SIZE; size <= maxlen; size *= 2) {
        struct lmb_record rec;
        struct lmb_result r;
        unsigned k;

        lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_RATIO);
        lmb_record_param_int(&rec, "size_bytes", (long long)size);
        lmb_memlat_parallelism(ctx, (size_t)size, stride, &r, &k);
        lmb_record_param_int(&rec, "chains", k);
        rec.classic = LMB_CLASSIC_SIZE_VALUE;
        rec.classic_x = (double)size;
        lmb_report_add(&ctx->report, &rec, &r);
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_par_mem = {
    .name = "par_mem",
    .summary = "Memory-level parallelism over working-set sizes",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "",
    .help = "For working sets from 1k to len, doubling: the time per load of one chain of\n"
            "dependent loads (random order) divided by that of 2 to 16 chains through the\n"
            "same working set at once, for the count that overlaps most; rows of size (MB\n"
            "of 10^6 bytes) and that parallelism (the median of the rank-paired ratios).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = par_mem_main,
};
