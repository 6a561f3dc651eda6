// SPDX-License-Identifier: MIT
/* stream: the STREAM kernels on arrays of doubles.
 *
 * One operation is one pass of a kernel over arrays of n doubles: copy
 * (c = a), scale (b = s c), add (c = a + b) and triad (a = b + s c) with -v 1;
 * fill (a = q), copy (a = b), daxpy (a = a + q b) and sum (s += a) with -v 2.
 * Bytes are counted as STREAM counts them, every array a kernel reads or
 * writes once per element (copy and scale 16 bytes, add, triad and daxpy 24,
 * fill and sum 8). The arrays are mapped, touched and initialised in each copy
 * before the timing. Each kernel prints a latency (nanoseconds per element, for
 * one copy) and a bandwidth (MB/s: with -P, all copies' bytes over the time
 * from the first copy's start to the last one's end). As lmbench 3, the figure
 * at -P 1 is the best repetition (the least time, the most MB/s); with -P more
 * the median. */
#include <stdio.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/memlat.h"
#include "lib/sizes.h"
#include "lib/text.h"

#define MIN_LEN (64 * 1024)
#define DEFAULT_MIN (16ULL << 20)
#define DEFAULT_MAX (128ULL << 20)

static const struct lmb_optdef options[] = {
    { 'v', "1|2", "kernel set: 1 copy, scale, add, triad (default); 2 fill, copy, daxpy, sum" },
    { 'M', "len", "size of each array (default 4 times the largest cache, 16m to 128m)" },
};

struct stream_state {
    size_t n;            /* elements per array */
    int arrays;          /* arrays the kernel set needs */
    char *map;
    size_t maplen;
    double *a, *b, *c;
    double s;
    double sink;
};

/* The kernels work on 16-byte vectors (SSE2 on x86-64, NEON on AArch64), four
 * per step: 64 bytes of each array. A compiler barrier per step keeps the
 * compiler from turning copy and fill into calls of memcpy and memset, which
 * would be another benchmark; with arrays far larger than the caches the
 * vector width does not matter, memory is the limit. The arrays are 64-byte
 * aligned and n is a multiple of 8. */
typedef double vd __attribute__((vector_size(16)));
#define VSTEP 4
#define KERNEL(name, body)                                                  \
    static void name(uint64_t iters, void *p)                              \
    {                                                                      \
        struct stream_state *st = p;                                       \
        vd *restrict a = (vd *)(void *)st->a, *restrict b = (vd *)(void *)st->b; \
        vd *restrict c = (vd *)(void *)st->c;                              \
        const vd s = { st->s, st->s };                                     \
        size_t nv = st->n / 2;                                             \
                                                                           \
        (void)a;                                                           \
        (void)b;                                                           \
        (void)c;                                                           \
        (void)s;                                                           \
        for (uint64_t it = 0; it < iters; it++) {                          \
            for (size_t i = 0; i < nv; i += VSTEP) {                       \
                body(i);                                                   \
                body(i + 1);                                               \
                body(i + 2);                                               \
                body(i + 3);                                               \
                lmb_compiler_barrier();                                    \
            }                                                              \
        }                                                                  \
    }

#define B_COPY(i) c[i] = a[i]
#define B_SCALE(i) b[i] = s * c[i]
#define B_ADD(i) c[i] = a[i] + b[i]
#define B_TRIAD(i) a[i] = b[i] + s * c[i]
#define B_FILL(i) a[i] = s
#define B_COPY2(i) a[i] = b[i]
#define B_DAXPY(i) a[i] = a[i] + s * b[i]
KERNEL(k_copy, B_COPY)
KERNEL(k_scale, B_SCALE)
KERNEL(k_add, B_ADD)
KERNEL(k_triad, B_TRIAD)
KERNEL(k_fill, B_FILL)
KERNEL(k_copy2, B_COPY2)
KERNEL(k_daxpy, B_DAXPY)

/* sum: four vector accumulators, eight partial sums, so that the additions
 * need not wait for each other. */
static void k_sum(uint64_t iters, void *p)
{
    struct stream_state *st = p;
    const vd *restrict a = (const vd *)(const void *)st->a;
    size_t nv = st->n / 2;
    vd s0 = { 0, 0 }, s1 = s0, s2 = s0, s3 = s0;

    for (uint64_t it = 0; it < iters; it++) {
        for (size_t i = 0; i < nv; i += VSTEP) {
            s0 += a[i];
            s1 += a[i + 1];
            s2 += a[i + 2];
            s3 += a[i + 3];
            lmb_compiler_barrier();
        }
    }
    s0 += s1 + s2 + s3;
    st->sink += s0[0] + s0[1];
}

/* name, kernel, bytes per element, arrays, version */
static const struct kernel {
    const char *name;
    lmb_run_fn run;
    int bytes;
    int version;
} kernels[] = {
    { "copy", k_copy, 16, 1 },
    { "scale", k_scale, 16, 1 },
    { "add", k_add, 24, 1 },
    { "triad", k_triad, 24, 1 },
    { "fill", k_fill, 8, 2 },
    { "copy", k_copy2, 16, 2 },
    { "daxpy", k_daxpy, 24, 2 },
    { "sum", k_sum, 8, 2 },
};

static int stream_init(void *p, char *err, size_t errlen)
{
    struct stream_state *st = p;
    size_t bytes = st->n * sizeof(double);

    st->maplen = bytes * (size_t)st->arrays + 4096;
    st->map = lmb_pages_alloc(st->maplen, 0, err, errlen);
    if (st->map == NULL)
        return -1;
    /* The arrays one after the other, the second and third moved by 1 KiB
     * and 2 KiB so that they do not start at the same cache sets. */
    st->a = (double *)(void *)st->map;
    st->b = (double *)(void *)(st->map + bytes + 1024);
    st->c = st->arrays > 2 ? (double *)(void *)(st->map + 2 * bytes + 2048) : NULL;
    for (size_t i = 0; i < st->n; i++) {
        st->a[i] = 1.0;
        st->b[i] = 2.0;
        if (st->c)
            st->c[i] = 0.5;
    }
    st->s = 3.0;
    return 0;
}

static void stream_cleanup(void *p)
{
    struct stream_state *st = p;

    lmb_pages_free(st->map, st->maplen);
    st->map = NULL;
}

static double to_latency(double bytes_per_s, double unused, void *arg)
{
    const double *x = arg;   /* bytes per element, copies */

    (void)unused;
    return 1e9 * x[0] * x[1] / bytes_per_s;
}

static int stream_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    int version = 1;
    uint64_t len;
    char err[256];

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments");
    if (lmb_opt_given(ctx, 'v')) {
        const char *v = lmb_opt_arg(ctx, 'v');
        if (strcmp(v, "1") == 0)
            version = 1;
        else if (strcmp(v, "2") == 0)
            version = 2;
        else {
            char q[LMB_QUOTE_BUF];
            return lmb_usage_error(ctx, "-v: 1 or 2, not '%s'", lmb_quote(v, q, sizeof q));
        }
    }
    if (lmb_opt_given(ctx, 'M')) {
        /* Any size that parses is taken here: one too large for this machine
         * (or this address space) fails below with exit 1, as everywhere. */
        int rc = lmb_memlat_size_opt(ctx, 'M', MIN_LEN, UINT64_MAX / 8, 1, &len);
        if (rc != 0)
            return rc;
    } else {
        /* STREAM's rule: each array at least 4 times the largest cache; a
         * machine that declares more than it has (a guest told the host's
         * whole L3) gets 128m, far past what it reaches. */
        len = 4 * (uint64_t)lmb_memlat_largest_cache(NULL);
        if (len < DEFAULT_MIN)
            len = DEFAULT_MIN;
        if (len > DEFAULT_MAX)
            len = DEFAULT_MAX;
    }
    len = len / 64 * 64;

    int arrays = version == 1 ? 3 : 2;
    if (len * (uint64_t)arrays > SIZE_MAX)
        snprintf(err, sizeof err, "%llu bytes cannot be mapped in this address space",
                 (unsigned long long)(len * (uint64_t)arrays));
    if (len * (uint64_t)arrays > SIZE_MAX ||
        lmb_memory_fits(len * (uint64_t)arrays, ctx->opt.parallel, err, sizeof err) != 0) {
        struct lmb_record rec;
        lmb_record_init(&rec, ctx->bench->name, version == 1 ? "copy" : "fill", LMB_UNIT_MBS);
        lmb_record_param_int(&rec, "version", version);
        lmb_record_param_str(&rec, "quantity", "bandwidth");
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }

    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        const struct kernel *kn = &kernels[k];
        struct stream_state st = { .n = (size_t)(len / sizeof(double)), .arrays = arrays };
        struct lmb_timed t = {
            .init = stream_init,
            .run = kn->run,
            .cleanup = stream_cleanup,
            .state = &st,
            .metric = LMB_METRIC_BANDWIDTH,
            .per_iter = (double)kn->bytes * (double)st.n,
        };
        struct lmb_record lat, bw;
        struct lmb_result r, rl;
        double x[2] = { kn->bytes, ctx->opt.parallel };

        if (kn->version != version)
            continue;
        lmb_measure(ctx, &t, &r);
        lmb_result_derive(&rl, &r, NULL, to_latency, x);

        lmb_record_init(&lat, ctx->bench->name, kn->name, LMB_UNIT_NS);
        lmb_record_param_int(&lat, "version", version);
        lmb_record_param_str(&lat, "quantity", "latency");
        lmb_record_param_int(&lat, "size_bytes", (long long)len);
        lat.classic = LMB_CLASSIC_LABEL_NS;
        if (ctx->opt.parallel == 1)
            lat.headline = LMB_HEAD_MIN;
        snprintf(lat.label, sizeof lat.label, "STREAM%s %s latency", version == 2 ? "2" : "",
                 kn->name);
        lmb_report_add(&ctx->report, &lat, &rl);

        lmb_record_init(&bw, ctx->bench->name, kn->name, LMB_UNIT_MBS);
        lmb_record_param_int(&bw, "version", version);
        lmb_record_param_str(&bw, "quantity", "bandwidth");
        lmb_record_param_int(&bw, "size_bytes", (long long)len);
        bw.classic = LMB_CLASSIC_LABEL_MBSEC;
        if (ctx->opt.parallel == 1)
            bw.headline = LMB_HEAD_MAX;
        snprintf(bw.label, sizeof bw.label, "STREAM%s %s bandwidth", version == 2 ? "2" : "",
                 kn->name);
        lmb_report_add(&ctx->report, &bw, &r);
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_stream = {
    .name = "stream",
    .summary = "STREAM kernels: copy, scale, add, triad (-v 2: fill, copy, daxpy, sum)",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_PWN,
    .args = "",
    .help = "Times passes of the STREAM kernels over arrays of doubles and prints, per\n"
            "kernel, nanoseconds per element and MB/s (10^6 bytes), bytes counted the STREAM\n"
            "way (each array read or written once per element). With -P the copies run\n"
            "their own arrays at once: all their bytes over the time they took together.\n"
            "At -P 1 the figure is the best of the -N repetitions, as lmbench 3; with\n"
            "more copies their median.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = stream_main,
};
