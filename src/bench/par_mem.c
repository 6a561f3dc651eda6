// SPDX-License-Identifier: MIT
/* par_mem: memory-level parallelism over working-set sizes.
 *
 * One operation is one load of a pointer chain in random order through a
 * working set; k chains start at evenly spaced places of the same cycle and
 * move in step, so k independent loads can be in flight. For each size the
 * parallelism is the time per load of one chain divided by that of k chains,
 * for the k (2 to 16) that overlaps most (src/lib/memlat.c). Mapping,
 * touching and laying the chain (once per size, in the parent) are kept out
 * of the timing.
 *
 * Every row is measured before any is shown, then judged (src/lib/judge.c):
 * a ratio below 1 is refused (k chains cannot make a load slower; memlat.c
 * already refuses one above k), and a row inconsistent with its neighbours
 * (a single dip or spike between the nearest rows on each side that agree)
 * is measured again, up to two more times, and refused as too noisy if it
 * stays so. */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/judge.h"
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

/* Rows: 1k to 2^(MAX_ROWS - 1) k. */
#define MAX_ROWS 48
/* Measurements of a row inconsistent with its neighbours, in all. */
#define ROW_ATTEMPTS 3

/* One row: the parallelism of a working set, judged against what its chain
 * count allows. */
static void measure_row(struct lmb_ctx *ctx, size_t size, size_t stride, struct lmb_result *r,
                        unsigned *k)
{
    char why[LMB_REASON_LEN];

    lmb_memlat_parallelism(ctx, size, stride, r, k);
    if (r->status == LMB_OK) {
        double v = lmb_result_sort_median(r);
        if (!lmb_judge_parallelism(v, *k, why, sizeof why))
            lmb_result_set_status(r, LMB_FAILED, "%s", why);
    }
}

/* Rows inconsistent with their neighbours measured again, then refused if
 * they still are. */
static void judge_rows(struct lmb_ctx *ctx, size_t stride, struct lmb_result *rows,
                       unsigned *chains, size_t n)
{
    double v[MAX_ROWS];
    bool known[MAX_ROWS], odd[MAX_ROWS];
    char why[LMB_REASON_LEN];

    for (int attempt = 1;; attempt++) {
        for (size_t i = 0; i < n; i++) {
            known[i] = rows[i].status == LMB_OK;
            v[i] = known[i] ? lmb_result_sort_median(&rows[i]) : 0;
        }
        if (lmb_judge_rows(v, known, n, odd) == 0)
            return;
        for (size_t i = 0; i < n; i++) {
            if (!odd[i])
                continue;
            if (attempt == ROW_ATTEMPTS) {
                lmb_judge_row_reason(v, known, n, i, why, sizeof why);
                lmb_result_set_status(&rows[i], LMB_FAILED, "%s", why);
                continue;
            }
            lmb_result_free(&rows[i]);
            measure_row(ctx, (size_t)MIN_SIZE << i, stride, &rows[i], &chains[i]);
        }
        if (attempt == ROW_ATTEMPTS)
            return;
    }
}

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
    enum lmb_pages pages = (enum lmb_pages)ctx->opt.pages;
    bool reserved = pages == LMB_PAGES_2M || pages == LMB_PAGES_1G;
    enum lmb_status why_not = LMB_OK;
    /* The pages asked for, enough of them for the largest row; the buffer and
     * the chain's visit order (4 bytes an element; hugetlbfs pages are
     * reserved memory, not counted in what is available). */
    if (lmb_pages_missing(pages, maxlen, 1, err, sizeof err) != NULL)
        why_not = LMB_SKIPPED;
    else if (lmb_memory_fits((reserved ? 0 : maxlen) + maxlen / stride * 4, 1, err,
                             sizeof err) != 0)
        why_not = LMB_FAILED;
    if (why_not != LMB_OK) {
        struct lmb_record rec;
        lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_RATIO);
        lmb_record_param_int(&rec, "size_bytes", (long long)maxlen);
        lmb_record_param_str(&rec, "pages", lmb_pages_name(pages));
        return lmb_report_unmeasured(ctx, &rec, why_not, "%s", err);
    }

    struct lmb_result rows[MAX_ROWS];
    unsigned chains[MAX_ROWS];
    size_t n = 0;
    for (uint64_t size = MIN_SIZE; size <= maxlen && n < MAX_ROWS; size *= 2, n++)
        measure_row(ctx, (size_t)size, stride, &rows[n], &chains[n]);
    judge_rows(ctx, stride, rows, chains, n);

    for (size_t i = 0; i < n; i++) {
        struct lmb_record rec;
        uint64_t size = (uint64_t)MIN_SIZE << i;

        lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_RATIO);
        lmb_record_param_int(&rec, "size_bytes", (long long)size);
        lmb_record_param_int(&rec, "chains", chains[i]);
        lmb_record_param_str(&rec, "pages", lmb_pages_name(pages));
        lmb_pages_check(&rows[i], pages);
        rec.classic = LMB_CLASSIC_SIZE_VALUE;
        rec.classic_x = (double)size;
        lmb_report_add(&ctx->report, &rec, &rows[i]);
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_par_mem = {
    .name = "par_mem",
    .summary = "Memory-level parallelism over working-set sizes",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N | LMB_USE_PAGES,
    .args = "",
    .help = "For working sets from 1k to len, doubling: the time per load of one chain of\n"
            "dependent loads (random order) divided by that of 2 to 16 chains through the\n"
            "same working set at once, for the count that overlaps most; rows of size (MB\n"
            "of 10^6 bytes) and that parallelism (the median of the rank-paired ratios).\n"
            "A ratio below 1, or a row that dips or jumps 2 times from two neighbours that\n"
            "agree (after two more tries), fails as too noisy. --pages chooses the pages of\n"
            "the working set (4k, base pages, unless given).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = par_mem_main,
};
