// SPDX-License-Identifier: MIT
/* cache: the data cache levels, each with its size, latency, line size and
 * parallelism, and memory's latency and parallelism.
 *
 * One operation is one load of a pointer chain (src/lib/memlat.c). The
 * latency curve comes from chains in random order (no prefetcher can follow
 * them) over working sets growing by quarter octaves, until memory is clearly
 * reached or the time budget is spent; src/lib/curve.c reads the levels off it
 * and compares them with what the system declares. Then, per level, the line
 * size (as `line` measures it, in a working set that misses this level) and
 * the parallelism (one random chain against several through the same working
 * set); memory's latency comes from a random chain (one cycle through every
 * line in random order, as the sweep's) in the largest working set: a load no
 * prefetcher can bring early. (A chain in page order, random lines inside each
 * page, read a few nanoseconds on processors whose prefetchers fetch the rest
 * of a page after a few misses in it.) Mapping, touching and laying each chain
 * are kept out of the timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/chase.h"
#include "lib/mem.h"
#include "lib/curve.h"
#include "lib/memlat.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

#define MIN_SIZE 1024
#define MAX_POINTS 128
/* Wall-time budget of the latency sweep, and the default largest working set. */
#define SWEEP_BUDGET_S 30.0
#define DEFAULT_MAX (1ULL << 30)
static const struct lmb_optdef options[] = {
    { 'L', "line", "distance between the elements of the latency chains (default: the line size)" },
    { 'M', "len", "largest working set (default 1g, less if memory is reached sooner)" },
};

struct point {
    double size;
    double ns;       /* best sample */
};

static double now_s(const struct lmb_ctx *ctx)
{
    return (double)lmb_now(&ctx->clock) / 1e9;
}

/* --- records ---------------------------------------------------------------------- */

static void level_record(struct lmb_record *rec, const struct lmb_ctx *ctx, const char *case_name,
                         int level, const char *quantity, enum lmb_unit unit)
{
    lmb_record_init(rec, ctx->bench->name, case_name, unit);
    if (level > 0)
        lmb_record_param_int(rec, "level", level);
    lmb_record_param_str(rec, "quantity", quantity);
}

/* Reports a computed value (or the failure in *failed when not NULL). */
static void report_value(struct lmb_ctx *ctx, struct lmb_record *rec, const double *v, size_t n,
                         struct lmb_result *failed)
{
    struct lmb_result res;

    if (failed != NULL && failed->status != LMB_OK) {
        lmb_report_add(&ctx->report, rec, failed);
        return;
    }
    lmb_result_values(&res, v, n, NULL);
    lmb_report_add(&ctx->report, rec, &res);
}

/* --- the command ------------------------------------------------------------------ */

static int cache_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_cache_info declared[LMB_MAX_CACHES];
    const char *where;
    int ndeclared = lmb_memlat_declared(declared, LMB_MAX_CACHES, &where);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), stride = (size_t)lmb_cache_line_size();
    uint64_t maxlen = DEFAULT_MAX;
    struct point pts[MAX_POINTS];
    double sizes[MAX_POINTS], ns[MAX_POINTS];
    size_t npts = 0;
    struct lmb_curve curve;
    char err[256];
    double start = now_s(ctx);
    bool budget_spent = false;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    uint64_t line_opt = stride;
    int rc;
    if ((rc = lmb_memlat_size_opt(ctx, 'L', sizeof(void *), page, sizeof(void *),
                                  &line_opt)) != 0 ||
        (rc = lmb_memlat_size_opt(ctx, 'M', 16 * 1024, SIZE_MAX / 4, 1, &maxlen)) != 0)
        return rc;
    stride = (size_t)line_opt;
    /* Never more than a quarter of the machine's memory by default. */
    if (!lmb_opt_given(ctx, 'M')) {
        uint64_t phys = lmb_physical_memory();
        while (phys > 0 && maxlen > phys / 4)
            maxlen /= 2;
    }
    /* The buffer and the chain's visit order (4 bytes an element). */
    if (lmb_memory_fits(maxlen + maxlen / stride * 4, 1, err, sizeof err) != 0) {
        struct lmb_record rec;
        level_record(&rec, ctx, "memory", 0, "latency", LMB_UNIT_NS);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }

    /* The latency curve, by quarter octaves, in page order. */
    for (double s = MIN_SIZE; s <= (double)maxlen && npts < MAX_POINTS; s *= 1.189207115) {
        size_t size = (size_t)s / stride * stride;
        if (size < 4 * stride || (npts > 0 && (double)size <= pts[npts - 1].size))
            continue;
        struct lmb_memlat m = { .size = size, .stride = stride, .order = LMB_CHASE_RANDOM,
                                .chains = 1 };
        struct lmb_result r;
        lmb_memlat_measure(ctx, &m, &r);
        if (r.status != LMB_OK) {
            struct lmb_record rec;
            level_record(&rec, ctx, "memory", 0, "latency", LMB_UNIT_NS);
            lmb_record_param_int(&rec, "size_bytes", (long long)size);
            lmb_report_add(&ctx->report, &rec, &r);
            return LMB_EXIT_OK;
        }
        pts[npts].size = (double)size;
        pts[npts].ns = lmb_result_min(&r);
        lmb_result_free(&r);
        npts++;
        /* Stop once memory is plainly reached: a memory region 4 times past
         * the last level, at least a doubling long. */
        if (npts >= 8 && size >= (1u << 20)) {
            for (size_t i = 0; i < npts; i++) {
                sizes[i] = pts[i].size;
                ns[i] = pts[i].ns;
            }
            if (lmb_curve_analyze(sizes, ns, npts, &curve) == 0 && curve.memory.found &&
                curve.nlevels > 0 && curve.memory.past_cache >= 4.0 &&
                curve.memory.to_bytes >= 2 * curve.memory.from_bytes)
                break;
        }
        if (now_s(ctx) - start > SWEEP_BUDGET_S) {
            budget_spent = true;
            break;
        }
    }
    for (size_t i = 0; i < npts; i++) {
        sizes[i] = pts[i].size;
        ns[i] = pts[i].ns;
    }
    if (lmb_curve_analyze(sizes, ns, npts, &curve) != 0) {
        struct lmb_record rec;
        level_record(&rec, ctx, "memory", 0, "latency", LMB_UNIT_NS);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "the latency curve: %s",
                                     curve.notes[0]);
    }
    lmb_curve_compare(&curve, declared, ndeclared);
    if (budget_spent) {
        char a[32];
        lmb_curve_format_size(pts[npts - 1].size, a, sizeof a);
        lmb_report_warn(&ctx->report, "the sweep stopped at %s after %.0f s", a, SWEEP_BUDGET_S);
    }
    for (size_t i = 0; i < curve.nnotes; i++)
        lmb_report_warn(&ctx->report, "%s", curve.notes[i]);

    /* Each level: latency, line, parallelism, then the size with the line. */
    for (size_t k = 0; k < curve.nlevels; k++) {
        const struct lmb_curve_level *lv = &curve.levels[k];
        int level = (int)k + 1;
        struct lmb_record rec;
        struct lmb_result r;
        double v[MAX_POINTS], sec[LMB_MEMLAT_LINE_NDIST], lat, par = NAN, line = NAN;
        size_t nv = 0;
        unsigned kbest;

        for (size_t i = lv->first; i <= lv->last; i++)
            v[nv++] = pts[i].ns;
        lat = lv->latency_ns;
        level_record(&rec, ctx, "level", level, "latency", LMB_UNIT_NS);
        report_value(ctx, &rec, v, nv, NULL);

        /* The line: with one line per 512-byte block the chain touches an
         * eighth of its working set, so 16 times this level overflows it
         * twice over (and lands, as far as the sweep showed, in the next). */
        double ws = 16.0 * lv->size_bytes;
        if (ws > (double)maxlen)
            ws = (double)maxlen;
        level_record(&rec, ctx, "level", level, "line", LMB_UNIT_BYTES);
        lmb_record_param_int(&rec, "size_bytes", (long long)ws);
        /* At least 8 times: the lines the chain touches fill the level. */
        int ln = ws < 8.0 * lv->size_bytes ? -2 : lmb_memlat_line(ctx, (size_t)ws, &r, sec);
        if (ln == -2) {
            lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED,
                                  "a working set that misses this level is beyond -M");
        } else if (ln < 0) {
            report_value(ctx, &rec, NULL, 0, &r);
        } else if (ln == 0) {
            /* Beyond the first level, prefetchers that bring the neighbours of
             * a missed line hide the step: the size cannot be told here. */
            lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED,
                                  "no clear step in the latency of a second load in the same "
                                  "block (prefetchers bring neighbouring lines?): the line size "
                                  "cannot be told at this level");
        } else {
            line = ln;
            for (size_t d = 0; d < curve.ndeclared; d++)
                if (curve.declared[d].measured == (int)k && curve.declared[d].line > 0 &&
                    curve.declared[d].line != ln)
                    lmb_report_warn(&ctx->report,
                                    "L%d: the line measured is %d bytes, the system declares %d%s",
                                    level, ln, curve.declared[d].line,
                                    ln > curve.declared[d].line
                                        ? " (prefetchers that fetch neighbouring lines make it "
                                          "look larger)"
                                        : "");
            report_value(ctx, &rec, &line, 1, NULL);
        }

        /* Parallelism: in the middle of the plateau. */
        size_t mid = (size_t)sqrt(lv->plateau_from * lv->plateau_to);
        mid = mid / page * page > 0 ? mid / page * page : mid / stride * stride;
        level_record(&rec, ctx, "level", level, "parallelism", LMB_UNIT_RATIO);
        lmb_record_param_int(&rec, "size_bytes", (long long)mid);
        lmb_memlat_parallelism(ctx, mid, stride, &r, &kbest);
        lmb_record_param_int(&rec, "chains", kbest);
        if (r.status == LMB_OK)
            par = lmb_result_sort_median(&r);
        lmb_report_add(&ctx->report, &rec, &r);

        double size = lv->size_bytes;
        level_record(&rec, ctx, "level", level, "size", LMB_UNIT_BYTES);
        for (size_t d = 0; d < curve.ndeclared; d++)
            if (curve.declared[d].measured == (int)k)
                lmb_record_param_int(&rec, "declared_bytes",
                                     (long long)curve.declared[d].size_bytes);
        /* The classic line shows 0 for a line size that could not be told
         * (its record says why). */
        if (isfinite(lat) && isfinite(par)) {
            rec.classic = LMB_CLASSIC_CACHE;
            rec.classic_x = level;
            rec.classic_extra[0] = lat;
            rec.classic_extra[1] = isfinite(line) ? line : 0;
            rec.classic_extra[2] = par;
        }
        if (lv->open_ended) {
            /* The sweep ended on this level: its size is only a lower bound. */
            char a[32];
            lmb_curve_format_size(size, a, sizeof a);
            lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED,
                                  "the sweep ends on this level: it holds at least %s (raise -M)",
                                  a);
            continue;
        }
        report_value(ctx, &rec, &size, 1, NULL);
    }

    /* Memory: parallelism of random chains, then the latency of one random
     * chain, both in the largest working set of the sweep. */
    if (curve.memory.found) {
        struct lmb_record rec;
        struct lmb_result r;
        double par = NAN;
        unsigned kbest;
        size_t ws = (size_t)pts[npts - 1].size;

        level_record(&rec, ctx, "memory", 0, "parallelism", LMB_UNIT_RATIO);
        lmb_record_param_int(&rec, "size_bytes", (long long)ws);
        lmb_memlat_parallelism(ctx, ws, stride, &r, &kbest);
        lmb_record_param_int(&rec, "chains", kbest);
        if (r.status == LMB_OK)
            par = lmb_result_sort_median(&r);
        lmb_report_add(&ctx->report, &rec, &r);

        struct lmb_memlat m = { .size = ws, .stride = stride, .order = LMB_CHASE_RANDOM,
                                .chains = 1 };
        level_record(&rec, ctx, "memory", 0, "latency", LMB_UNIT_NS);
        lmb_record_param_int(&rec, "size_bytes", (long long)ws);
        lmb_record_param_str(&rec, "order", "random");
        rec.headline = LMB_HEAD_MIN;
        lmb_memlat_measure(ctx, &m, &r);
        if (isfinite(par)) {
            rec.classic = LMB_CLASSIC_CACHE_MEM;
            rec.classic_extra[0] = par;
        }
        lmb_report_add(&ctx->report, &rec, &r);
    } else {
        struct lmb_record rec;
        level_record(&rec, ctx, "memory", 0, "latency", LMB_UNIT_NS);
        lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED,
                              "the sweep did not reach memory (raise -M)");
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_cache = {
    .name = "cache",
    .summary = "Data cache levels: size, latency, line size and parallelism; memory latency",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "",
    .help = "Measures load latency over working sets growing by quarter octaves, in random\n"
            "order, until memory is plainly reached, -M, or 30 s; reads the cache levels off\n"
            "the curve and compares them with what the system declares (warnings on\n"
            "stderr). Then, per level, the line size in a working set that misses it, and\n"
            "the parallelism: one chain against 2 to 16 chains in the middle of its\n"
            "plateau. Memory's latency comes from one random chain through the largest\n"
            "working set: a load no prefetcher brings early (with its TLB miss).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = cache_main,
};
