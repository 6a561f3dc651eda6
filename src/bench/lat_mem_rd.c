// SPDX-License-Identifier: MIT
/* lat_mem_rd: memory load latency over working-set sizes, by pointer chasing.
 * One operation is one load of a chain in which each load reads the address
 * of the next (src/lib/chase.c); mapping and touching the buffer and laying
 * the chain happen before the timing, in each copy. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/chase.h"
#include "lib/memlat.h"
#include "lib/mem.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

#define MIN_SIZE 512

/* How the chain runs through the working set. */
enum mode {
    MODE_STRIDE,   /* lmbench 3's: one stride backwards at a time */
    MODE_RANDOM,   /* -t: one random cycle */
    MODE_PAGE,     /* -p: random inside each page, pages in random order */
    MODE_HUGE,     /* -H: one random cycle over transparent huge pages */
};

static const char *const mode_case[] = {
    [MODE_STRIDE] = "stride",
    [MODE_RANDOM] = "random",
    [MODE_PAGE] = "page",
    [MODE_HUGE] = "huge",
};

static const enum lmb_chase_order mode_order[] = {
    [MODE_STRIDE] = LMB_CHASE_BACKWARD,
    [MODE_RANDOM] = LMB_CHASE_RANDOM,
    [MODE_PAGE] = LMB_CHASE_WINDOW,
    [MODE_HUGE] = LMB_CHASE_RANDOM,
};

/* The working-set sizes, as lmbench 3 steps them: 512, 1k, 2k, 3k, 4k, 6k, 8k,
 * then 2k steps to 32k, then eight steps per doubling. */
static uint64_t next_size(uint64_t s)
{
    uint64_t octave = 1;

    if (s < 2048)
        return s * 2;
    while (octave * 2 <= s)
        octave *= 2;
    if (s < 8192)
        return s + octave / 2;
    if (s < 32768)
        return s + 2048;
    return s + octave / 8;
}

/* The sizes a coarse sweep (-c) keeps above its size, besides the sweep's last:
 * the powers of two and three times a power of two, two per doubling. Both are
 * points of the full sweep, measured the same way. */
static bool coarse_point(uint64_t s)
{
    if (s % 3 == 0)
        s /= 3;
    return s > 0 && (s & (s - 1)) == 0;
}

static const struct lmb_optdef options[] = {
    { 't', NULL, "random order: one random cycle through the elements (defeats prefetchers)" },
    { 'p', NULL, "page order: random inside each page, pages in random order (few TLB misses)" },
    { 'H', NULL, "huge pages: -t on transparent huge pages (--pages thp), all of them or fail" },
    { 'S', NULL, "only the largest size: one row per stride, no sweep" },
    { 'c', "size", "coarse sweep from this size on: two sizes per doubling (2^k, 3*2^(k-1))" },
};

/* len: a plain number is megabytes (2^20 bytes), as lmbench 3; or a size
 * with a suffix. */
static int parse_len(const char *a, uint64_t *len, char *err, size_t errlen)
{
    uint64_t v;
    size_t n = strlen(a);

    if (n > 0 && a[n - 1] >= '0' && a[n - 1] <= '9') {
        if (lmb_parse_uint(a, 0, UINT64_MAX >> 20, &v, err, errlen) != 0)
            return -1;
        *len = v << 20;
        return 0;
    }
    return lmb_parse_size(a, len, err, errlen);
}

/* len_in_MB given as a fraction (0.5): a usage error that says the unit and
 * what to type (the size in KiB, the rest of the arguments kept), or one that
 * gives the minimum; 0 when a is no decimal fraction. */
static int fraction_hint(const struct lmb_ctx *ctx, int argc, char **argv)
{
    const char *a = argv[0];
    size_t ndig = strspn(a, "0123456789"), nfrac;
    char rest[512] = "", q[LMB_QUOTE_BUF];
    size_t used = 0;
    double mb, kib;

    if (a[ndig] != '.' || (nfrac = strspn(a + ndig + 1, "0123456789")) == 0 ||
        a[ndig + 1 + nfrac] != '\0' || ndig > 12)
        return 0;
    mb = strtod(a, NULL);   /* digits and a point: the same in every locale we run in */
    if (mb * (1 << 20) < MIN_SIZE)
        return lmb_usage_error(ctx, "len_in_MB '%s' is %.0f bytes, below the minimum of %d "
                               "bytes (a plain number counts MB, 2^20 bytes; a size with a "
                               "suffix, such as 1k, counts bytes)", a, mb * (1 << 20), MIN_SIZE);
    for (int i = 1; i < argc && used < sizeof rest; i++) {
        int n = snprintf(rest + used, sizeof rest - used, " %s", lmb_quote(argv[i], q, sizeof q));
        if (n < 0)
            break;
        used += (size_t)n;
    }
    kib = mb * 1024.0;
    return lmb_usage_error(ctx, "len_in_MB '%s' is a fraction: a plain number counts MB (2^20 "
                           "bytes); for %s MB type '%s %.0fk%s'%s", a, a, ctx->prog,
                           floor(kib + 0.5), rest,
                           kib == floor(kib) ? "" : " (the nearest KiB)");
}

/* The record of one point of a curve. */
static void point_record(struct lmb_record *rec, const struct lmb_ctx *ctx, enum mode mode,
                         uint64_t size, uint64_t stride)
{
    lmb_record_init(rec, ctx->bench->name, mode_case[mode], LMB_UNIT_NS);
    lmb_record_param_int(rec, "size_bytes", (long long)size);
    lmb_record_param_int(rec, "stride_bytes", (long long)stride);
    lmb_record_param_str(rec, "pages", lmb_pages_name((enum lmb_pages)ctx->opt.pages));
    rec->headline = LMB_HEAD_MIN;
    rec->classic = LMB_CLASSIC_MEMLAT;
    rec->classic_x = (double)size;
}

static int lat_mem_rd_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    uint64_t len, coarse = UINT64_MAX, strides[64];
    size_t nstrides = 0;
    enum mode mode = MODE_STRIDE;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char err[256], q[LMB_QUOTE_BUF];

    if (lmb_opt_given(ctx, 'p') && lmb_opt_given(ctx, 'H'))
        return lmb_usage_error(ctx, "-p and -H are different orders: give one");
    if (lmb_opt_given(ctx, 'p') && lmb_opt_given(ctx, 't'))
        return lmb_usage_error(ctx, "-p and -t are different orders: give one");
    if (lmb_opt_given(ctx, 'c') &&
        lmb_parse_size(lmb_opt_arg(ctx, 'c'), &coarse, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-c: %s", err);
    if (lmb_opt_given(ctx, 't'))
        mode = MODE_RANDOM;
    if (lmb_opt_given(ctx, 'p'))
        mode = MODE_PAGE;
    if (lmb_opt_given(ctx, 'H')) {
        mode = MODE_HUGE;
        if (lmb_pages_imply(ctx, LMB_PAGES_THP) != 0)
            return lmb_usage_error(ctx, "-H puts the chain on transparent huge pages (--pages "
                                   "thp): not with --pages %s",
                                   lmb_pages_name((enum lmb_pages)ctx->opt.pages));
    }

    if (argc < 1)
        return lmb_usage_error(ctx, "needs the largest size in MB");
    if (parse_len(argv[0], &len, err, sizeof err) != 0)
        return fraction_hint(ctx, argc, argv) ? LMB_EXIT_USAGE : lmb_usage_error(ctx, "%s", err);
    if (len < MIN_SIZE)
        return lmb_usage_error(ctx, "size '%s' is below the minimum of %d bytes",
                               lmb_quote(argv[0], q, sizeof q), MIN_SIZE);
    if (argc - 1 > (int)(sizeof strides / sizeof strides[0]))
        return lmb_usage_error(ctx, "too many strides");
    for (int i = 1; i < argc; i++) {
        uint64_t s;
        if (lmb_parse_size(argv[i], &s, err, sizeof err) != 0)
            return lmb_usage_error(ctx, "stride: %s", err);
        if (s < sizeof(void *) || s % sizeof(void *) != 0)
            return lmb_usage_error(ctx, "stride %s must be a multiple of %zu bytes", argv[i],
                                   sizeof(void *));
        if (s > len)
            return lmb_usage_error(ctx, "stride %s is larger than the size", argv[i]);
        strides[nstrides++] = s;
    }
    if (nstrides == 0)
        strides[nstrides++] = (uint64_t)lmb_cache_line_size();
    /* A size the process cannot address is a failure like any size that does
     * not fit, not bad usage (on a 32-bit machine, 2g may already be one). */
    if (len > SIZE_MAX / 2) {
        struct lmb_record rec;
        point_record(&rec, ctx, mode, len, strides[0]);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "%" PRIu64 " bytes do not fit in this machine's %zu-bit "
                                     "address space",
                                     len, sizeof(size_t) * 8);
    }
    /* The pages asked for, enough of them for the largest buffer of each copy. */
    if (lmb_pages_missing((enum lmb_pages)ctx->opt.pages, len, ctx->opt.parallel, err,
                          sizeof err) != NULL) {
        struct lmb_record rec;
        point_record(&rec, ctx, mode, len, strides[0]);
        return lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "%s", err);
    }
    /* The buffer and the chain's visit order (4 bytes an element of the
     * smallest stride); hugetlbfs pages are reserved memory, not counted
     * in what is available. */
    uint64_t least = strides[0];
    bool reserved = ctx->opt.pages == LMB_PAGES_2M || ctx->opt.pages == LMB_PAGES_1G;
    for (size_t k = 1; k < nstrides; k++)
        least = strides[k] < least ? strides[k] : least;
    if (lmb_memory_fits((reserved ? 0 : len) + len / least * 4, ctx->opt.parallel, err,
                        sizeof err) != 0) {
        struct lmb_record rec;
        point_record(&rec, ctx, mode, len, strides[0]);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }

    for (size_t k = 0; k < nstrides; k++) {
        lmb_report_marker(&ctx->report, "\"stride=%" PRIu64, strides[k]);
        uint64_t first = MIN_SIZE;
        if (lmb_opt_given(ctx, 'S'))
            first = len;
        for (uint64_t size = first; size <= len; size = next_size(size)) {
            if (size > coarse && size != first && next_size(size) <= len && !coarse_point(size))
                continue;
            /* One point: 256 dependent loads per iteration of the timed loop
             * (src/lib/memlat.c); the loop's own branch overlaps with the
             * chain and is not subtracted. The default order's loop is one
             * load instruction (lmb_chase_walk), so that a stride prefetcher
             * that tracks each instruction sees the stride; the others are
             * unrolled, one branch per 256 loads. The page order's
             * window is a page, or the stride when that is larger (then the
             * order is random). */
            struct lmb_memlat m = {
                .size = (size_t)size,
                .stride = (size_t)strides[k],
                .order = mode_order[mode],
                .window = strides[k] >= page ? (size_t)strides[k]
                                             : page / (size_t)strides[k] * (size_t)strides[k],
                .chains = 1,
                .huge = mode == MODE_HUGE,
            };
            struct lmb_record rec;
            struct lmb_result res;

            if (size < strides[k])
                continue;
            lmb_memlat_measure(ctx, &m, &res);
            lmb_pages_check(&res, (enum lmb_pages)ctx->opt.pages);
            point_record(&rec, ctx, mode, size, strides[k]);
            lmb_report_add(&ctx->report, &rec, &res);
        }
        lmb_report_marker(&ctx->report, "%s", "");
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_mem_rd = {
    .name = "lat_mem_rd",
    .summary = "Memory load latency over working-set sizes",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_PWN | LMB_USE_PAGES,
    .args = "len_in_MB [stride...]",
    .help = "Chases a ring of pointers, one every stride bytes, through working sets from\n"
            "512 bytes up to len, and prints for each stride a line \"stride=N then rows of\n"
            "size (MB of 2^20 bytes) and nanoseconds per load, the minimum over the\n"
            "repetitions. The default chain points one stride backwards, which prefetchers\n"
            "on current CPUs follow; -t visits the elements in one random cycle instead,\n"
            "which they cannot. -p visits each page's elements in random order, the pages\n"
            "in random order too: one TLB miss per page instead of one per load. -H is -t\n"
            "with --pages thp, failing a size not wholly on huge pages. --pages puts the\n"
            "chain on other pages (4k, base pages, unless given). The default stride is\n"
            "the cache line size. -S\n"
            "measures the largest size only. -c SIZE keeps, above SIZE, only two sizes per\n"
            "doubling (2^k and 3*2^(k-1)) of the sweep; each is measured as in the full one.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_mem_rd_main,
};
