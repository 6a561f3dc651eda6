// SPDX-License-Identifier: MIT
/* lat_mem_rd: memory load latency over working-set sizes, by pointer chasing. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

/* Dependent loads per iteration of the timed loop: the loop's own branch is one
 * instruction in LOADS and overlaps with the chain, so it costs nothing
 * measurable and is not subtracted. */
#define LOADS 256
#define MIN_SIZE 512

struct chase_state {
    size_t size;
    size_t stride;
    bool random;
    char *map;
    size_t maplen;
    void **cur;
};

#define CHASE1 p = (void **)*p;
#define CHASE4 CHASE1 CHASE1 CHASE1 CHASE1
#define CHASE16 CHASE4 CHASE4 CHASE4 CHASE4
#define CHASE64 CHASE16 CHASE16 CHASE16 CHASE16
#define CHASE256 CHASE64 CHASE64 CHASE64 CHASE64

static void run_chase(uint64_t n, void *s)
{
    struct chase_state *st = s;
    void **p = st->cur;

    for (uint64_t i = 0; i < n; i++) {
        CHASE256
    }
    st->cur = p;
}

/* splitmix64: a fixed seed, so that a chain is the same from run to run. */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Links the elements (one pointer every `stride` bytes) into one ring. Classic:
 * each element points one stride back, as lmbench 3's chain. Random: a single
 * cycle in random order (Sattolo's shuffle, done in place on the elements), so
 * that no prefetcher can guess the next address. */
static int chase_init(void *s, char *err, size_t errlen)
{
    struct chase_state *st = s;
    size_t count = st->size / st->stride;
    char *base;

    st->maplen = st->size;
    st->map = lmb_pages_alloc(st->maplen, 0, err, errlen);
    if (st->map == NULL)
        return -1;
    lmb_pages_note(st->map, st->maplen);
    base = st->map;
#define SLOT(i) (*(uintptr_t *)(void *)(base + (i) * st->stride))
    if (!st->random) {
        for (size_t i = 0; i < count; i++)
            SLOT(i) = (uintptr_t)(base + (i == 0 ? count - 1 : i - 1) * st->stride);
    } else {
        uint64_t seed = 0x6c6d62656e6368ULL;
        for (size_t i = 0; i < count; i++)
            SLOT(i) = i;
        for (size_t i = count - 1; i > 0; i--) {
            size_t j = (size_t)(next_random(&seed) % i);
            uintptr_t t = SLOT(i);
            SLOT(i) = SLOT(j);
            SLOT(j) = t;
        }
        for (size_t i = 0; i < count; i++)
            SLOT(i) = (uintptr_t)(base + SLOT(i) * st->stride);
    }
#undef SLOT
    st->cur = (void **)(void *)base;
    return 0;
}

static void chase_cleanup(void *s)
{
    struct chase_state *st = s;

    lmb_pages_free(st->map, st->maplen);
    st->map = NULL;
}

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

static const struct lmb_optdef options[] = {
    { 't', NULL, "random order: one random cycle through the elements (defeats prefetchers)" },
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

/* The record of one point of a curve. */
static void point_record(struct lmb_record *rec, const struct lmb_ctx *ctx, bool random,
                         uint64_t size, uint64_t stride)
{
    lmb_record_init(rec, ctx->bench->name, random ? "random" : "stride", LMB_UNIT_NS);
    lmb_record_param_int(rec, "size_bytes", (long long)size);
    lmb_record_param_int(rec, "stride_bytes", (long long)stride);
    rec->headline = LMB_HEAD_MIN;
    rec->classic = LMB_CLASSIC_MEMLAT;
    rec->classic_x = (double)size;
}

static int lat_mem_rd_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    uint64_t len, strides[64];
    size_t nstrides = 0;
    bool random = lmb_opt_given(ctx, 't');
    char err[256];

    if (argc < 1)
        return lmb_usage_error(ctx, "needs the largest size in MB");
    if (parse_len(argv[0], &len, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "%s", err);
    if (len < MIN_SIZE)
        return lmb_usage_error(ctx, "size %s is below the minimum of %d bytes", argv[0], MIN_SIZE);
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
        point_record(&rec, ctx, random, len, strides[0]);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "%" PRIu64 " bytes do not fit in this machine's %zu-bit address space",
                                     len, sizeof(size_t) * 8);
    }
    if (lmb_memory_fits(len, ctx->opt.parallel, err, sizeof err) != 0) {
        struct lmb_record rec;
        point_record(&rec, ctx, random, len, strides[0]);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }

    for (size_t k = 0; k < nstrides; k++) {
        lmb_report_marker(&ctx->report, "\"stride=%" PRIu64, strides[k]);
        for (uint64_t size = MIN_SIZE; size <= len; size = next_size(size)) {
            struct chase_state st = { .size = (size_t)size, .stride = (size_t)strides[k],
                                      .random = random };
            struct lmb_timed t = {
                .init = chase_init,
                .run = run_chase,
                .cleanup = chase_cleanup,
                .state = &st,
                .metric = LMB_METRIC_LATENCY,
                .per_iter = LOADS,
            };
            struct lmb_record rec;
            struct lmb_result res;

            if (size < strides[k])
                continue;
            lmb_measure(ctx, &t, &res);
            point_record(&rec, ctx, random, size, strides[k]);
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
    .common = LMB_USE_PWN,
    .args = "len_in_MB [stride...]",
    .help = "Chases a ring of pointers, one every stride bytes, through working sets from\n"
            "512 bytes up to len, and prints for each stride a line \"stride=N then rows of\n"
            "size (MB of 2^20 bytes) and nanoseconds per load, the minimum over the\n"
            "repetitions. The default chain points one stride backwards, which prefetchers\n"
            "on current CPUs follow; -t visits the elements in one random cycle instead,\n"
            "which they cannot. The default stride is the cache line size.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_mem_rd_main,
};
