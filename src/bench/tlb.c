// SPDX-License-Identifier: MIT
/* tlb: how many pages the data TLBs map, and what missing them costs.
 *
 * One operation is one load of a pointer chain through n lines in random
 * order. In the spread chain each line is in its own page (line i at offset
 * i * line modulo the page, so the lines fill the cache sets as evenly as
 * packed lines do); in the packed chain the same number of lines sit side by
 * side, n / (page / line) pages. Both have the same cache footprint; only the
 * spread one needs n TLB entries, so their ratio steps up each time n passes
 * a TLB level. src/lib/curve.c reads the steps off the ratio curve. Mapping,
 * touching and laying each chain are kept out of the timing. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/chase.h"
#include "lib/curve.h"
#include "lib/mem.h"
#include "lib/memlat.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

#define MIN_PAGES 4
#define MAX_POINTS 96
#define DEFAULT_MAX_PAGES 16384
/* On huge pages: 2 GiB of 2 MiB pages, 16 GiB of 1 GiB pages. */
#define DEFAULT_MAX_2M 1024
#define DEFAULT_MAX_1G 16
#define SEED 0x746c62ULL

static const struct lmb_optdef options[] = {
    { 'c', NULL, "also print the cost of a miss of that TLB, in nanoseconds" },
    { 'L', "line", "distance between the lines of a page (default: the cache line size)" },
    { 'M', "len", "largest span of the spread chain (default: 16384 pages)" },
};

struct layout {
    size_t pages;    /* lines in the chain */
    size_t page;
    size_t line;
    bool spread;
};

static int tlb_layout(char *base, size_t size, const void *arg, struct lmb_chase *c, char *err,
                      size_t errlen)
{
    const struct layout *l = arg;
    size_t n = l->pages, per = l->page / l->line, *off;
    uint64_t seed = SEED;

    (void)size;
    off = malloc(n * sizeof *off);
    if (off == NULL) {
        snprintf(err, errlen, "no memory for a chain of %zu lines", n);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        off[i] = l->spread ? i * l->page + (i % per) * l->line : i * l->line;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(lmb_chase_random(&seed) % i), t = off[i - 1];
        off[i - 1] = off[j];
        off[j] = t;
    }
    lmb_chase_link(c, base, off, n);
    free(off);
    return 0;
}

/* The TLB size the kernel reports ("TLB size: 3072 4K pages" in /proc/cpuinfo,
 * on AMD processors: the second-level TLB), 0 when it reports none. */
static long declared_pages(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    long n = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "TLB size", 8) == 0) {
            const char *c = strchr(line, ':');
            if (c != NULL && sscanf(c + 1, "%ld", &n) != 1)
                n = 0;
            break;
        }
    fclose(f);
    return n > 0 ? n : 0;
}

struct point {
    double pages;
    double spread, packed;   /* best ns per load */
};

/* The first level's entries are the command's figure (case null, the classic
 * line); every other figure is a record of case "level". */
static void tlb_record(struct lmb_record *rec, const struct lmb_ctx *ctx, int level,
                       const char *quantity, enum lmb_unit unit)
{
    bool figure = level == 1 && strcmp(quantity, "entries") == 0;

    lmb_record_init(rec, ctx->bench->name, figure ? NULL : "level", unit);
    if (!figure)
        rec->compat = "new: lmbench 3 reported the first level's entries only";
    lmb_record_param_int(rec, "level", level);
    lmb_record_param_str(rec, "quantity", quantity);
    lmb_record_param_str(rec, "pages", lmb_pages_name((enum lmb_pages)ctx->opt.pages));
}

/* The pages the spread chains got: the chain with the fewest on huge pages
 * (the figures are only as good as it). */
struct backing {
    long long least;        /* huge_percent, -1 until known */
    long long page_bytes;   /* of that chain */
    bool warned;
};

static void note_backing(struct lmb_ctx *ctx, struct backing *b, struct lmb_result *r,
                         enum lmb_pages kind, size_t n)
{
    long long pct = -1, pb = 0;
    unsigned before = r->nwarnings;

    for (unsigned i = 0; i < r->nfacts; i++) {
        if (strcmp(r->facts[i].key, "huge_percent") == 0)
            pct = r->facts[i].ival;
        else if (strcmp(r->facts[i].key, "page_bytes") == 0)
            pb = r->facts[i].ival;
    }
    if (pct >= 0 && (b->least < 0 || pct < b->least)) {
        b->least = pct;
        b->page_bytes = pb;
    }
    /* The points' results are not reported: their warning is the command's. */
    lmb_pages_check(r, kind);
    if (!b->warned && r->nwarnings > before) {
        lmb_report_warn(&ctx->report, "%s (a chain over %zu pages)", r->warnings[before], n);
        b->warned = true;
    }
}

static void got_params(struct lmb_record *rec, const struct backing *b)
{
    if (b->least < 0)
        return;
    lmb_record_param_int(rec, "page_bytes", b->page_bytes);
    lmb_record_param_int(rec, "huge_percent", b->least);
}

/* A record of the curve (its params got_params'd): on its result the warning
 * when the backing its chains got is not what --pages asked (the report's
 * warning alone leaves a JSON reader of one result unaware). */
static void tlb_add(struct lmb_ctx *ctx, struct lmb_record *rec, struct lmb_result *r,
                    const struct backing *b)
{
    for (unsigned i = 0; i < r->nwarnings; i++)
        if (strncmp(r->warnings[i], "asked for --pages ", 18) == 0)
            b = NULL;   /* this chain's own result, warned already */
    if (b != NULL)
        lmb_pages_warn_backing(r, (enum lmb_pages)ctx->opt.pages, b->least, b->page_bytes);
    lmb_report_add(&ctx->report, rec, r);
}

static int tlb_failed(struct lmb_ctx *ctx, struct lmb_record *rec, const struct backing *b,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int tlb_failed(struct lmb_ctx *ctx, struct lmb_record *rec, const struct backing *b,
                      const char *fmt, ...)
{
    struct lmb_result r;
    va_list ap;

    memset(&r, 0, sizeof r);
    r.status = LMB_FAILED;
    va_start(ap, fmt);
    vsnprintf(r.reason, sizeof r.reason, fmt, ap);
    va_end(ap);
    tlb_add(ctx, rec, &r, b);
    return LMB_EXIT_OK;
}

static int tlb_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    enum lmb_pages kind = (enum lmb_pages)ctx->opt.pages;
    uint64_t huge = lmb_pages_huge_bytes(kind);
    /* On huge pages the chain's pages are huge pages: the TLB of those is
     * what it finds. */
    size_t page = huge ? (size_t)huge : (size_t)sysconf(_SC_PAGESIZE);
    size_t line = (size_t)lmb_cache_line_size();
    uint64_t max_pages = huge == 0 ? DEFAULT_MAX_PAGES
                                   : huge >= (1ULL << 30) ? DEFAULT_MAX_1G : DEFAULT_MAX_2M;
    struct point pts[MAX_POINTS];
    double sizes[MAX_POINTS], ratio[MAX_POINTS];
    size_t npts = 0;
    struct lmb_curve curve;
    char err[512];
    bool reserved = kind == LMB_PAGES_2M || kind == LMB_PAGES_1G;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    uint64_t v = line, span = max_pages * page;
    int rc;
    if ((rc = lmb_memlat_size_opt(ctx, 'L', sizeof(void *), page, sizeof(void *), &v)) != 0 ||
        (rc = lmb_memlat_size_opt(ctx, 'M', 4 * MIN_PAGES * page, SIZE_MAX / 4, 1, &span)) != 0)
        return rc;
    if (page % v != 0)
        return lmb_usage_error(ctx, "-L: a divisor of the page size (%zu)", page);
    line = (size_t)v;
    max_pages = span / page;
    /* The pages asked for, enough for the largest chain; the pages and the
     * layout's offsets (one a page; hugetlbfs pages are reserved memory, not
     * counted in what is available). */
    struct backing got = { .least = -1 };
    enum lmb_status why_not = LMB_OK;
    if (lmb_pages_missing(kind, max_pages * page, 1, err, sizeof err) != NULL)
        why_not = LMB_SKIPPED;
    else if (lmb_memory_fits(max_pages * ((reserved ? 0 : page) + sizeof(size_t)), 1, err,
                             sizeof err) != 0)
        why_not = LMB_FAILED;
    if (why_not != LMB_OK) {
        struct lmb_record rec;
        tlb_record(&rec, ctx, 1, "entries", LMB_UNIT_PAGES);
        return lmb_report_unmeasured(ctx, &rec, why_not, "%s", err);
    }

    for (double p = MIN_PAGES; p <= (double)max_pages && npts < MAX_POINTS; p *= 1.189207115) {
        size_t n = (size_t)p;
        if (npts > 0 && (double)n <= pts[npts - 1].pages)
            continue;
        for (int sp = 0; sp < 2; sp++) {
            struct layout l = { .pages = n, .page = page, .line = line, .spread = sp == 1 };
            struct lmb_memlat m = { .size = sp ? n * page : (n * line + page - 1) / page * page,
                                    .layout = tlb_layout, .layout_arg = &l };
            struct lmb_result r;
            lmb_memlat_measure(ctx, &m, &r);
            if (sp == 1)
                note_backing(ctx, &got, &r, kind, n);
            if (r.status != LMB_OK) {
                struct lmb_record rec;
                tlb_record(&rec, ctx, 1, "entries", LMB_UNIT_PAGES);
                lmb_record_param_int(&rec, "chain_pages", (long long)n);
                got_params(&rec, &got);
                tlb_add(ctx, &rec, &r, &got);
                return LMB_EXIT_OK;
            }
            if (sp)
                pts[npts].spread = lmb_result_min(&r);
            else
                pts[npts].packed = lmb_result_min(&r);
            lmb_result_free(&r);
        }
        pts[npts].pages = (double)n;
        npts++;
    }
    for (size_t i = 0; i < npts; i++) {
        sizes[i] = pts[i].pages * (double)page;
        ratio[i] = pts[i].spread / pts[i].packed;
    }
    if (lmb_curve_analyze(sizes, ratio, npts, &curve) != 0 || curve.nlevels == 0) {
        struct lmb_record rec;
        tlb_record(&rec, ctx, 1, "entries", LMB_UNIT_PAGES);
        got_params(&rec, &got);
        return tlb_failed(ctx, &rec, &got,
                          "no plateau in the ratio of spread to packed loads: the "
                          "TLB size cannot be told here%s%s",
                          curve.nnotes ? ": " : "", curve.nnotes ? curve.notes[0] : "");
    }
    for (size_t i = 0; i < curve.nnotes; i++)
        if (strstr(curve.notes[i], "noisy") != NULL)
            lmb_report_warn(&ctx->report, "%s", curve.notes[i]);

    /* Level by level: the entries, then the cost of a miss (the extra time of
     * a spread load on the next plateau, or the last points when the curve
     * ends rising). The first level's entries carry the classic line. */
    size_t nlev = curve.nlevels;
    long declared = declared_pages();
    bool matched = false;
    for (size_t k = 0; k < nlev; k++) {
        const struct lmb_curve_level *lv = &curve.levels[k];
        double entries = round(lv->size_bytes / (double)page), miss[MAX_POINTS];
        size_t nm = 0, from, to;
        struct lmb_record rec;
        struct lmb_result r;

        if (lv->open_ended) {
            /* The curve ends on this plateau: the size is a lower bound. */
            if (k == 0) {
                tlb_record(&rec, ctx, 1, "entries", LMB_UNIT_PAGES);
                got_params(&rec, &got);
                tlb_failed(ctx, &rec, &got,
                           "no step up to %.0f pages: the first TLB holds at least as "
                           "many (raise -M)", pts[npts - 1].pages);
            }
            break;
        }
        if (k + 1 < nlev) {
            from = curve.levels[k + 1].first;
            to = curve.levels[k + 1].last;
        } else {
            from = lv->last + 1;
            to = npts - 1;
        }
        for (size_t i = from; i <= to && i < npts; i++)
            miss[nm++] = pts[i].spread - pts[i].packed;

        tlb_record(&rec, ctx, (int)k + 1, "miss", LMB_UNIT_NS);
        got_params(&rec, &got);
        lmb_result_values(&r, miss, nm, NULL);
        double miss_ns = nm ? lmb_result_sort_median(&r) : NAN;
        tlb_add(ctx, &rec, &r, &got);

        tlb_record(&rec, ctx, (int)k + 1, "entries", LMB_UNIT_PAGES);
        got_params(&rec, &got);
        lmb_record_param_int(&rec, "declared_pages", declared);
        if (declared > 0 && entries >= (double)declared / 2.0 && entries <= (double)declared * 2.0)
            matched = true;
        if (k == 0) {
            snprintf(rec.label, sizeof rec.label, "tlb");
            rec.classic = LMB_CLASSIC_LABEL_INT;
            if (lmb_opt_given(ctx, 'c') && isfinite(miss_ns)) {
                rec.classic = LMB_CLASSIC_TLB_NS;
                rec.classic_extra[0] = miss_ns;
            }
        }
        lmb_result_values(&r, &entries, 1, NULL);
        tlb_add(ctx, &rec, &r, &got);
    }
    if (declared > 0 && !matched)
        lmb_report_warn(&ctx->report, "the kernel reports a TLB of %ld pages (/proc/cpuinfo \"TLB "
                        "size\"); no level measured is within a factor of 2 of it", declared);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_tlb = {
    .name = "tlb",
    .summary = "Data TLB entries, and the cost of missing them",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N | LMB_USE_PAGES,
    .args = "",
    .help = "Times a chain of loads through n lines each in its own page against the same\n"
            "number of lines side by side, for n from 4 to 16384 pages by quarter\n"
            "octaves, and reads the TLB levels off the ratio: \"tlb: N pages\" is the\n"
            "first level's entries, -c adds the cost of missing it. Every level found\n"
            "is in the JSON records. --pages thp, 2m or 1g puts the chains on huge pages\n"
            "and counts huge pages (default -M: 1024 of 2 MiB, 16 of 1 GiB).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = tlb_main,
};
