// SPDX-License-Identifier: MIT
/* lat_dram_page: what a load that opens a new DRAM page (row) costs more than
 * one that finds its page open.
 *
 * One operation is one load of a pointer chain through a working set far
 * larger than the caches, on transparent huge pages so that TLB misses play
 * no part. In the first chain every load goes to a random line of the whole
 * working set: nearly every load opens a DRAM page. In the second the loads
 * visit the lines of one 4 KiB window in random order before moving to the
 * next window: most of them find their DRAM page open (a 4 KiB window lies in
 * one DRAM page on common memory controllers). The result is the difference
 * of the two latencies. A third chain, random on small pages, checks that the
 * huge pages really keep TLB misses out; where they do not (a virtual machine
 * whose host uses small pages), the result is skipped with the figures.
 * A difference that is not positive, or within the noise (smaller than the
 * two latencies' interquartile ranges, or under 1% of the latency), is
 * refused with a reason (src/lib/judge.c), never printed; so is a run of
 * fewer than three repetitions, which has no spread to judge against.
 * Mapping, touching and laying the chains are kept out of the timing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/judge.h"
#include "lib/mem.h"
#include "lib/memlat.h"
#include "lib/sysinfo.h"

#define WINDOW 4096
#define MIN_WS (64ULL << 20)
#define MAX_WS (256ULL << 20)
/* Random loads on huge pages must take less than this share of their time on
 * small pages for the huge pages to count as keeping TLB misses out. */
#define TLB_FREE 0.9
/* Fewer repetitions give no interquartile range to judge the difference
 * against: one sample of each chain is a difference of two noises. */
#define MIN_REPETITIONS 3

static double minus(double a, double b, void *arg)
{
    (void)arg;
    return a - b;
}

/* Half the width of the interquartile range of sorted samples. */
static double half_iqr(const struct lmb_result *r)
{
    if (r->n == 0)
        return 0;
    return (lmb_quantile_sorted(r->samples, r->n, 0.75) -
            lmb_quantile_sorted(r->samples, r->n, 0.25)) / 2;
}

/* Whether the kernel offers transparent huge pages to madvise(). */
static const char *thp_missing(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char buf[128] = "";

    if (f == NULL)
        return "needs transparent huge pages (this kernel has none)";
    if (fgets(buf, sizeof buf, f) == NULL)
        buf[0] = '\0';
    fclose(f);
    if (strstr(buf, "[never]") != NULL)
        return "needs transparent huge pages (disabled: /sys/kernel/mm/transparent_hugepage/"
               "enabled is never)";
    return NULL;
}

static int lat_dram_page_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    size_t stride = (size_t)lmb_cache_line_size();
    uint64_t ws = 4 * (uint64_t)lmb_memlat_largest_cache(NULL);
    struct lmb_record rec;
    struct lmb_result rand, win, small, res;
    const char *why;
    char err[256];

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    if (ws < MIN_WS)
        ws = MIN_WS;
    if (ws > MAX_WS)
        ws = MAX_WS;
    lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_NS);
    lmb_record_param_int(&rec, "size_bytes", (long long)ws);
    rec.classic = LMB_CLASSIC_FLOAT;
    if (ctx->opt.repetitions < MIN_REPETITIONS)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "-N %u cannot be judged: the difference is checked against "
                                     "the spread of each chain's repetitions, which needs -N %d "
                                     "or more", ctx->opt.repetitions, MIN_REPETITIONS);
    if ((why = thp_missing()) != NULL)
        return lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "%s", why);
    if (lmb_memory_fits(ws, 1, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);

    struct lmb_memlat m = { .size = (size_t)ws, .stride = stride, .order = LMB_CHASE_RANDOM,
                            .chains = 1, .huge = true };
    lmb_memlat_measure(ctx, &m, &rand);
    m.order = LMB_CHASE_WINDOW;
    m.window = WINDOW / stride * stride;
    lmb_memlat_measure(ctx, &m, &win);
    /* The check: random loads on small pages, with a TLB miss nearly every
     * time. If huge pages do not make random loads clearly faster, they do not
     * keep TLB misses out (a virtual machine whose host maps its memory with
     * small pages), and the difference would be TLB misses, not DRAM pages. */
    m.order = LMB_CHASE_RANDOM;
    m.huge = false;
    lmb_memlat_measure(ctx, &m, &small);
    /* Rank-paired: the median of the differences is the difference of the
     * medians, and a disturbed repetition of one is not set against a clean
     * one of the other. */
    lmb_result_sort(&rand);
    lmb_result_sort(&win);
    lmb_result_derive(&res, &rand, &win, minus, NULL);
    if (res.status == LMB_OK && small.status == LMB_OK) {
        double h = lmb_result_min(&rand), n = lmb_result_min(&small);
        if (h > TLB_FREE * n)
            lmb_result_set_status(&res, LMB_SKIPPED,
                                  "huge pages do not keep TLB misses out here: random loads take "
                                  "%.1f ns on huge pages and %.1f ns on small ones (a virtual "
                                  "machine whose host maps its memory with small pages?)", h, n);
    }
    if (res.status == LMB_OK) {
        char why[LMB_REASON_LEN];
        double d = lmb_result_sort_median(&res);
        double spread = half_iqr(&rand) + half_iqr(&win);
        double base = lmb_result_sort_median(&win);
        if (!lmb_judge_difference(d, spread, base, why, sizeof why))
            lmb_result_set_status(&res, LMB_FAILED, "%s", why);
    }
    lmb_result_free(&rand);
    lmb_result_free(&win);
    lmb_result_free(&small);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_dram_page = {
    .name = "lat_dram_page",
    .summary = "Extra latency of a load that opens a DRAM page over one that finds it open",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "",
    .help = "On transparent huge pages, in a working set of 4 times the largest cache (64m\n"
            "to 256m): the latency of a chain of loads to random lines less that of a chain\n"
            "that visits each 4 KiB window's lines in random order before the next window,\n"
            "in nanoseconds (the median of the rank-paired differences). Skipped when huge\n"
            "pages do not make random loads clearly faster than small pages do (then TLB\n"
            "misses, not DRAM pages, would make the difference); failed when the difference\n"
            "is not positive or within the noise, and when -N is under 3 (no spread).\n",
    .main = lat_dram_page_main,
};
