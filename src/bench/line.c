// SPDX-License-Identifier: MIT
/* line: the size of a cache line, from the latency of a second load near the
 * first.
 *
 * One operation is one load of a chain that runs through blocks of 512 bytes
 * in random order, two loads per block: first at offset d, then at offset 0.
 * When d is less than the line size the second load finds its line already
 * fetched by the first; from d = the line size on it misses too. The same
 * blocks with one load each give the first load's time alone, so the second
 * load's time is twice the pair's average less that. The working set misses
 * the first-level cache and fits the second, so the second load steps from a
 * hit to a miss; the line size is the smallest d past the step. Mapping,
 * touching and laying each chain are kept out of the timing. */
#include <stdio.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/memlat.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

static const struct lmb_optdef options[] = {
    { 'v', NULL, "print \"cache line size: N bytes\" instead of the number alone" },
    { 'M', "len", "largest working set (default: 16 times the first-level cache, at most 4m)" },
};

static int line_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_cache_info caches[LMB_MAX_CACHES];
    const char *where;
    int ncaches = lmb_memlat_declared(caches, LMB_MAX_CACHES, &where);
    size_t l1 = 32768, ws, maxlen = 0;
    int declared = 0;
    double sec[LMB_MEMLAT_LINE_NDIST];
    struct lmb_record rec;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    uint64_t len_opt = 0;
    int rc = lmb_memlat_size_opt(ctx, 'M', 64 * 1024, SIZE_MAX / 4, 1, &len_opt);
    if (rc != 0)
        return rc;
    maxlen = (size_t)len_opt;
    for (int i = 0; i < ncaches; i++)
        if (caches[i].level == 1) {
            l1 = (size_t)caches[i].size;
            declared = caches[i].line;
        }
    /* With d small a block is one line: 16 times the first-level cache in
     * 512-byte blocks is twice its size in lines, and four times with two
     * lines a block, well inside any second level. */
    ws = 16 * l1;
    if (ws > 4u << 20)
        ws = 4u << 20;
    if (ws < 64 * 1024)
        ws = 64 * 1024;
    if (maxlen > 0 && ws > maxlen)
        ws = maxlen;

    lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_BYTES);
    lmb_record_param_int(&rec, "size_bytes", (long long)ws);
    lmb_record_param_int(&rec, "declared_bytes", declared);
    if (lmb_opt_given(ctx, 'v')) {
        rec.classic = LMB_CLASSIC_LABEL_INT;
        snprintf(rec.label, sizeof rec.label, "cache line size");
    } else {
        rec.classic = LMB_CLASSIC_INT;
    }

    struct lmb_result res;
    int line = lmb_memlat_line(ctx, ws, &res, sec);
    if (line == 0) {
        char seen[160];
        int o = 0;
        for (size_t k = 0; k < LMB_MEMLAT_LINE_NDIST && o < (int)sizeof seen; k++)
            o += snprintf(seen + o, sizeof seen - (size_t)o, "%s%zu:%.2f", k ? " " : "",
                          LMB_MEMLAT_LINE_DIST[k], sec[k]);
        lmb_result_set_status(&res, LMB_FAILED,
                              "no clear step in the latency of the second load (distance:ns %s): "
                              "the line size cannot be told here", seen);
    } else if (line > 0) {
        double v = line;
        lmb_result_values(&res, &v, 1, NULL);
        if (declared > 0 && declared != line)
            lmb_report_warn(&ctx->report, "measured %d bytes, the system (%s) declares %d",
                            line, where, declared);
    }
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_line = {
    .name = "line",
    .summary = "Cache line size, from the latency of a second load near the first",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "",
    .help = "Follows chains through 512-byte blocks in random order, two loads a block (at\n"
            "offset d, then at 0), for d from 8 to 256 bytes, and one load a block, in a\n"
            "working set that misses the first-level cache and fits the second. The line\n"
            "size is the smallest d at which the second load misses too. Prints it on\n"
            "stdout, and warns when it differs from what the system declares.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = line_main,
    .classic_on_stdout = true,
};
