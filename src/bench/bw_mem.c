// SPDX-License-Identifier: MIT
/* bw_mem: memory bandwidth of reads, writes and copies over a buffer.
 *
 * One iteration is one pass of the operation over the whole buffer (a copy:
 * size bytes read and size bytes written, counted as size). Kept out of the
 * timing: mapping the buffers and writing every page of them (no page fault is
 * timed), done once per copy in init. The full kernels take the pass count, so
 * the timed loop makes no call per pass.
 *
 * A buffer of BIG_BUFFER or more is past the caches: a pass takes
 * milliseconds, and the harness's default 5 ms interval held only two to four
 * of them, each interval a coin toss between a share of the CPU lost to other
 * tasks or not. Unless ENOUGH or --min-time set the interval, such a buffer is
 * measured in intervals of BIG_INTERVAL_NS, which span several scheduler
 * slices and about ten passes: on a busy 2-CPU VM the median of a 64m frd
 * varied from launch to launch 0.86-2.3 times as much as an independent
 * reference's (scripts/bench-mem-ref.c, 20 ms intervals) with 5 ms, and
 * 0.55-0.95 times as much with 20 ms. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/sizes.h"

enum {
    COPIES = 1,      /* uses a second buffer */
    WIDE = 2,        /* touches every byte with the widest vectors */
};

#define MIN_SIZE 64
/* Where a copy's destination starts relative to its source: far enough that the
 * two never overlap, and either at the same offset modulo 2 MiB ("conflict": the
 * same cache sets at every level) or 33 cache lines past it. */
#define CONFLICT_ALIGN (2u << 20)
#define SPREAD_OFFSET (33u * 64u)

struct bw_state {
    size_t size;
    bool conflict;
    unsigned flags;
    char *map;
    size_t maplen;
    char *src, *dst;
    enum lmb_pages pages;
    const struct full_kernels *full;
    uint64_t sink;
};

typedef uint32_t word;

/* --- full: every byte with the widest vectors, 256 bytes per step ----------
 *
 * One set of kernels per instruction set, each with vectors of its native width
 * (a wider generic vector would be split through memory), stamped out from one
 * definition; bw_mem picks the widest set the CPU runs.
 *
 * The read kernel xors the vectors of a step into `nacc` independent
 * accumulators: one per vector with x86 (4 x 64, 8 x 32 or 16 x 16 bytes make
 * the step), so that each load is a single xor from memory into its own
 * register and no load of a step waits for another. Fewer accumulators than
 * vectors made GCC pair the loads (load, xor from memory, xor into the
 * accumulator): half again as many instructions per step, and an L1-resident
 * read (16k frd) 7% (AVX2) to 11% (SSE2) below the independent loop with one
 * accumulator per load of scripts/bench-mem-ref.c. Other targets keep 8, a
 * middle ground for register files not measured here.
 *
 * The kernels and their loops start on 64-byte boundaries. Left to the default
 * 16, where a loop lands depends on all the code linked before it, and the
 * same 16k frd read 5-15% slower in a build whose loop straddled two 64-byte
 * blocks than in one where it did not: the figure moved with unrelated edits.
 * (Clang has no per-function loop alignment; there only the function is
 * aligned, which at least makes the loop's place the same from build to build.) */

#if defined(__GNUC__) && !defined(__clang__)
#define KERNEL_ALIGN __attribute__((aligned(64), optimize("align-loops=64")))
#else
#define KERNEL_ALIGN __attribute__((aligned(64)))
#endif

/* Whole steps run on aligned vectors (so that SSE2 can xor straight from
 * memory); the buffer's first and last bytes, where it does not start or end on
 * a vector boundary, are covered by one unaligned vector each, which may
 * overlap the body: every byte is touched, some twice, and never by a byte
 * loop. Lengths are at least one vector (MIN_SIZE). */
#define FULL_KERNELS(isa, attr, vbytes, nacc)                                       \
    typedef uint64_t vec_##isa __attribute__((vector_size(vbytes), may_alias));    \
    typedef uint64_t uvec_##isa                                                    \
        __attribute__((vector_size(vbytes), aligned(1), may_alias));               \
    enum { STEP_##isa = 256 / (vbytes), ACC_##isa = (nacc) };                      \
    _Static_assert(STEP_##isa % ACC_##isa == 0 && ACC_##isa % 4 == 0 &&            \
                       ACC_##isa <= 16, "accumulators must divide the step");      \
                                                                                   \
    attr KERNEL_ALIGN static uint64_t full_read_##isa(const char *buf, size_t len,  \
                                                      uint64_t passes)              \
    {                                                                              \
        vec_##isa a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };                 \
        vec_##isa a4 = { 0 }, a5 = { 0 }, a6 = { 0 }, a7 = { 0 };                 \
        vec_##isa a8 = { 0 }, a9 = { 0 }, a10 = { 0 }, a11 = { 0 };               \
        vec_##isa a12 = { 0 }, a13 = { 0 }, a14 = { 0 }, a15 = { 0 };             \
        const char *end = buf + len;                                               \
        const char *body = (const char *)(((uintptr_t)buf + (vbytes) - 1) &        \
                                          ~(uintptr_t)((vbytes) - 1));             \
        uint64_t r = 0;                                                            \
                                                                                   \
        for (uint64_t pass = 0; pass < passes; pass++) {                           \
            const char *q = body;                                                  \
            if (body != buf)                                                       \
                a1 ^= *(const uvec_##isa *)(const void *)buf;                      \
            for (; q + 256 <= end; q += 256) {                                     \
                const vec_##isa *p = (const vec_##isa *)(const void *)q;           \
                _Pragma("GCC unroll 16")                                           \
                for (int k = 0; k < STEP_##isa; k += ACC_##isa) {                  \
                    a0 ^= p[k];                                                    \
                    a1 ^= p[k + 1];                                                \
                    a2 ^= p[k + 2];                                                \
                    a3 ^= p[k + 3];                                                \
                    if (ACC_##isa > 4) {                                           \
                        a4 ^= p[k + 4];                                            \
                        a5 ^= p[k + 5];                                            \
                        a6 ^= p[k + 6];                                            \
                        a7 ^= p[k + 7];                                            \
                    }                                                              \
                    if (ACC_##isa > 8) {                                           \
                        a8 ^= p[k + 8];                                            \
                        a9 ^= p[k + 9];                                            \
                        a10 ^= p[k + 10];                                          \
                        a11 ^= p[k + 11];                                          \
                        a12 ^= p[k + 12];                                          \
                        a13 ^= p[k + 13];                                          \
                        a14 ^= p[k + 14];                                          \
                        a15 ^= p[k + 15];                                          \
                    }                                                              \
                }                                                                  \
                lmb_compiler_barrier();                                            \
            }                                                                      \
            for (; q + (vbytes) <= end; q += (vbytes))                             \
                a2 ^= *(const vec_##isa *)(const void *)q;                         \
            if (q < end)                                                           \
                a3 ^= *(const uvec_##isa *)(const void *)(end - (vbytes));         \
            lmb_compiler_barrier();                                                \
        }                                                                          \
        a0 ^= a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;                                    \
        a0 ^= a8 ^ a9 ^ a10 ^ a11 ^ a12 ^ a13 ^ a14 ^ a15;                         \
        for (size_t k = 0; k < (vbytes) / 8; k++)                                  \
            r ^= a0[k];                                                            \
        return r;                                                                  \
    }                                                                              \
                                                                                   \
    attr KERNEL_ALIGN static void full_write_##isa(char *buf, size_t len,           \
                                                   uint64_t passes)                 \
    {                                                                              \
        char *end = buf + len;                                                     \
        char *body = (char *)(((uintptr_t)buf + (vbytes) - 1) &                    \
                              ~(uintptr_t)((vbytes) - 1));                         \
                                                                                   \
        for (uint64_t pass = 0; pass < passes; pass++) {                           \
            char *q = body;                                                        \
            /* a different non-zero value each pass (zero fills can be faster) */ \
            vec_##isa v = (vec_##isa){ 0 } + (pass + 1);                           \
            if (body != buf)                                                       \
                *(uvec_##isa *)(void *)buf = v;                                    \
            for (; q + 256 <= end; q += 256) {                                     \
                vec_##isa *p = (vec_##isa *)(void *)q;                             \
                _Pragma("GCC unroll 16")                                           \
                for (int k = 0; k < STEP_##isa; k++)                               \
                    p[k] = v;                                                      \
                lmb_compiler_barrier();                                            \
            }                                                                      \
            for (; q + (vbytes) <= end; q += (vbytes))                             \
                *(vec_##isa *)(void *)q = v;                                       \
            if (q < end)                                                           \
                *(uvec_##isa *)(void *)(end - (vbytes)) = v;                       \
            lmb_compiler_barrier();                                                \
        }                                                                          \
    }                                                                              \
                                                                                   \
    /* Aligned on the destination (stores); loads are unaligned-tolerant. */       \
    attr KERNEL_ALIGN static void full_copy_##isa(char *dst, const char *src,       \
                                                  size_t len, uint64_t passes)      \
    {                                                                              \
        char *dend = dst + len;                                                    \
        size_t head = (size_t)((((uintptr_t)dst + (vbytes) - 1) &                  \
                                ~(uintptr_t)((vbytes) - 1)) - (uintptr_t)dst);     \
                                                                                   \
        for (uint64_t pass = 0; pass < passes; pass++) {                           \
            char *d = dst + head;                                                  \
            const char *s = src + head;                                            \
            if (head != 0)                                                         \
                *(uvec_##isa *)(void *)dst = *(const uvec_##isa *)(const void *)src; \
            for (; d + 256 <= dend; d += 256, s += 256) {                          \
                vec_##isa *dv = (vec_##isa *)(void *)d;                            \
                const uvec_##isa *sv = (const uvec_##isa *)(const void *)s;        \
                _Pragma("GCC unroll 16")                                           \
                for (int k = 0; k < STEP_##isa; k++)                               \
                    dv[k] = sv[k];                                                 \
                lmb_compiler_barrier();                                            \
            }                                                                      \
            for (; d + (vbytes) <= dend; d += (vbytes), s += (vbytes))             \
                *(vec_##isa *)(void *)d = *(const uvec_##isa *)(const void *)s;    \
            if (d < dend)                                                          \
                *(uvec_##isa *)(void *)(dend - (vbytes)) =                         \
                    *(const uvec_##isa *)(const void *)(src + len - (vbytes));     \
            lmb_compiler_barrier();                                                \
        }                                                                          \
    }

struct full_kernels {
    const char *isa;
    uint64_t (*read)(const char *buf, size_t len, uint64_t passes);
    void (*write)(char *buf, size_t len, uint64_t passes);
    void (*copy)(char *dst, const char *src, size_t len, uint64_t passes);
};

#define KERNEL_SET(isa) { #isa, full_read_##isa, full_write_##isa, full_copy_##isa }

/* "scalar": one 64-bit word at a time, the portable fallback and a baseline;
 * kept out of the auto-vectoriser so that it stays what its name says. */
#if defined(__GNUC__) && !defined(__clang__)
#define SCALAR_ATTR __attribute__((optimize("no-tree-vectorize")))
#else
#define SCALAR_ATTR
#endif

#if LMB_X86_TARGETS
FULL_KERNELS(avx512f, __attribute__((target("avx512f"))), 64, 4)
FULL_KERNELS(avx2, __attribute__((target("avx2"))), 32, 8)
FULL_KERNELS(sse2, , 16, 16)
FULL_KERNELS(scalar, SCALAR_ATTR, 8, 8)
static const struct full_kernels kernel_sets[] = {
    KERNEL_SET(avx512f), KERNEL_SET(avx2), KERNEL_SET(sse2), KERNEL_SET(scalar),
};
#else
FULL_KERNELS(simd128, , 16, 8)
FULL_KERNELS(scalar, SCALAR_ATTR, 8, 8)
static const struct full_kernels kernel_sets[] = { KERNEL_SET(simd128), KERNEL_SET(scalar) };
#endif
#define NSETS (sizeof kernel_sets / sizeof kernel_sets[0])

/* The set named by LMBENCH_VECTOR, or the widest one this CPU runs. *why is
 * set when the name is unknown (usage) or the CPU lacks it (skipped). */
static const struct full_kernels *pick_kernels(const char *forced, char *why, size_t len,
                                               bool *cpu_lacks)
{
    const char *isa = forced && *forced ? forced : lmb_widest_isa();

    *cpu_lacks = false;
    for (size_t i = 0; i < NSETS; i++) {
        if (strcmp(kernel_sets[i].isa, isa) != 0)
            continue;
        if (!lmb_cpu_has_isa(isa)) {
            *cpu_lacks = true;
            snprintf(why, len, "LMBENCH_VECTOR=%s: this CPU does not run %s code", isa, isa);
            return NULL;
        }
        return &kernel_sets[i];
    }
    size_t o = (size_t)snprintf(why, len, "LMBENCH_VECTOR: unknown kernel set (known:");
    for (size_t i = 0; i < NSETS && o < len; i++)
        o += (size_t)snprintf(why + o, len - o, " %s", kernel_sets[i].isa);
    if (o < len)
        snprintf(why + o, len - o, ")");
    return NULL;
}

/* --- partial: one 4-byte word in every 16 bytes, 128 bytes per step --------- */

#define W(buf, off) (*(word *)(void *)((buf) + (off)))

static uint64_t part_read(const char *buf, size_t len)
{
    word s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i;

    for (i = 0; i + 128 <= len; i += 128) {
        s0 += W(buf, i);
        s1 += W(buf, i + 16);
        s2 += W(buf, i + 32);
        s3 += W(buf, i + 48);
        s0 += W(buf, i + 64);
        s1 += W(buf, i + 80);
        s2 += W(buf, i + 96);
        s3 += W(buf, i + 112);
        lmb_compiler_barrier();
    }
    for (; i + sizeof(word) <= len; i += 16)
        s0 += W(buf, i);
    return (uint64_t)s0 + s1 + s2 + s3;
}

static void part_write(char *buf, size_t len, word v)
{
    size_t i;

    for (i = 0; i + 128 <= len; i += 128) {
        W(buf, i) = v;
        W(buf, i + 16) = v;
        W(buf, i + 32) = v;
        W(buf, i + 48) = v;
        W(buf, i + 64) = v;
        W(buf, i + 80) = v;
        W(buf, i + 96) = v;
        W(buf, i + 112) = v;
        lmb_compiler_barrier();
    }
    for (; i + sizeof(word) <= len; i += 16) {
        W(buf, i) = v;
        lmb_compiler_barrier();
    }
}

static void part_rdwr(char *buf, size_t len)
{
    size_t i;

    for (i = 0; i + 128 <= len; i += 128) {
        W(buf, i) += 1;
        W(buf, i + 16) += 1;
        W(buf, i + 32) += 1;
        W(buf, i + 48) += 1;
        W(buf, i + 64) += 1;
        W(buf, i + 80) += 1;
        W(buf, i + 96) += 1;
        W(buf, i + 112) += 1;
        lmb_compiler_barrier();
    }
    for (; i + sizeof(word) <= len; i += 16) {
        W(buf, i) += 1;
        lmb_compiler_barrier();
    }
}

static void part_copy(char *dst, const char *src, size_t len)
{
    size_t i;

    for (i = 0; i + 128 <= len; i += 128) {
        W(dst, i) = W(src, i);
        W(dst, i + 16) = W(src, i + 16);
        W(dst, i + 32) = W(src, i + 32);
        W(dst, i + 48) = W(src, i + 48);
        W(dst, i + 64) = W(src, i + 64);
        W(dst, i + 80) = W(src, i + 80);
        W(dst, i + 96) = W(src, i + 96);
        W(dst, i + 112) = W(src, i + 112);
        lmb_compiler_barrier();
    }
    for (; i + sizeof(word) <= len; i += 16) {
        W(dst, i) = W(src, i);
        lmb_compiler_barrier();
    }
}

/* --- the timed loops ------------------------------------------------------ */

static void run_rd(uint64_t n, void *s)
{
    struct bw_state *st = s;
    for (uint64_t i = 0; i < n; i++)
        st->sink += part_read(st->src, st->size);
}

static void run_wr(uint64_t n, void *s)
{
    struct bw_state *st = s;
    for (uint64_t i = 0; i < n; i++)
        part_write(st->src, st->size, (word)i);
}

static void run_rdwr(uint64_t n, void *s)
{
    struct bw_state *st = s;
    for (uint64_t i = 0; i < n; i++)
        part_rdwr(st->src, st->size);
}

static void run_cp(uint64_t n, void *s)
{
    struct bw_state *st = s;
    for (uint64_t i = 0; i < n; i++)
        part_copy(st->dst, st->src, st->size);
}

/* The full kernels take the pass count: no indirect call per pass. */
static void run_frd(uint64_t n, void *s)
{
    struct bw_state *st = s;
    st->sink += st->full->read(st->src, st->size, n);
}

static void run_fwr(uint64_t n, void *s)
{
    struct bw_state *st = s;
    st->full->write(st->src, st->size, n);
}

static void run_fcp(uint64_t n, void *s)
{
    struct bw_state *st = s;
    st->full->copy(st->dst, st->src, st->size, n);
}

static void run_bzero(uint64_t n, void *s)
{
    struct bw_state *st = s;
    for (uint64_t i = 0; i < n; i++) {
        memset(st->src, 0, st->size);
        lmb_compiler_barrier();
    }
}

static void run_bcopy(uint64_t n, void *s)
{
    struct bw_state *st = s;
    for (uint64_t i = 0; i < n; i++) {
        memmove(st->dst, st->src, st->size);
        lmb_compiler_barrier();
    }
}

static const struct lmb_variant variants[] = {
    { "rd", "read one 4-byte word in every 16 bytes (partial read)", run_rd, NULL, 0 },
    { "wr", "write one 4-byte word in every 16 bytes (partial write)", run_wr, NULL, 0 },
    { "rdwr", "read and write back one word in every 16 bytes (partial)", run_rdwr, NULL, 0 },
    { "cp", "copy one word in every 16 bytes to a second buffer (partial)", run_cp, NULL, COPIES },
    { "frd", "read every byte with the widest vector loads", run_frd, NULL, WIDE },
    { "fwr", "write every byte with the widest vector stores", run_fwr, NULL, WIDE },
    { "fcp", "copy every byte with the widest vector loads and stores", run_fcp, NULL,
      WIDE | COPIES },
    { "bzero", "libc memset() of the buffer to zero", run_bzero, NULL, 0 },
    { "bcopy", "libc memmove() of the buffer to a second buffer", run_bcopy, NULL, COPIES },
};

static size_t round_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

/* The mapping a copy needs, or 0 when it does not fit in a size_t. */
static size_t bw_maplen(const struct bw_state *st)
{
    if (!(st->flags & COPIES))
        return st->size;
    if (st->size > (SIZE_MAX - CONFLICT_ALIGN - SPREAD_OFFSET) / 2)
        return 0;
    return round_up(st->size, CONFLICT_ALIGN) + SPREAD_OFFSET + st->size;
}

static int bw_init(void *s, char *err, size_t errlen)
{
    struct bw_state *st = s;

    st->maplen = bw_maplen(st);
    /* A mapping is page aligned, hence 2 MiB congruence between source and
     * destination is a matter of their offsets within it. */
    st->map = lmb_pages_alloc_kind(st->maplen, 1, st->pages, err, errlen);
    if (st->map == NULL)
        return -1;
    lmb_pages_note(st->map, st->maplen);
    st->src = st->map;
    st->dst = NULL;
    if (st->flags & COPIES)
        st->dst = st->map + round_up(st->size, CONFLICT_ALIGN) +
                  (st->conflict ? 0 : SPREAD_OFFSET);
    return 0;
}

static void bw_cleanup(void *s)
{
    struct bw_state *st = s;

    lmb_pages_free(st->map, st->maplen);
    st->map = NULL;
}

static const struct lmb_optdef options[] = {
    { 'H', NULL, "put the buffers on transparent huge pages, 2 MiB aligned (--pages thp)" },
};

#define BIG_BUFFER (8ULL << 20)
#define BIG_INTERVAL_NS 20000000ULL

/* The default interval for a buffer past the caches (see the top). */
static void big_buffer_interval(struct lmb_ctx *ctx, uint64_t size)
{
    const char *enough = getenv("ENOUGH");
    struct lmb_report *rep = &ctx->report;

    if (size < BIG_BUFFER || ctx->opt.min_time_s > 0 || (enough != NULL && *enough != '\0') ||
        ctx->interval_ns >= BIG_INTERVAL_NS)
        return;
    ctx->interval_ns = BIG_INTERVAL_NS;
    for (size_t i = 0; i < rep->nsettings; i++) {
        if (strcmp(rep->settings[i].key, "interval_us") == 0)
            rep->settings[i].dval = (double)BIG_INTERVAL_NS / 1e3;
        else if (strcmp(rep->settings[i].key, "interval_source") == 0)
            rep->settings[i].sval = "default (20 ms for buffers of 8 MiB or more)";
    }
}

static int bw_mem_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v;
    struct bw_state st = { 0 };
    struct lmb_timed t;
    struct lmb_record rec;
    struct lmb_result res;
    uint64_t size;
    char err[256], q[LMB_QUOTE_BUF];
    bool cpu_lacks = false;

    if (argc < 2)
        return lmb_usage_error(ctx, "needs a size and an operation");
    if (argc > 3)
        return lmb_usage_error(ctx, "too many arguments");
    if (lmb_swapped_size_error(ctx, argc, argv) != 0)
        return LMB_EXIT_USAGE;
    if (lmb_parse_size(argv[0], &size, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "%s", err);
    if (size < MIN_SIZE)
        return lmb_usage_error(ctx, "size %s is below the minimum of %d bytes",
                               lmb_quote(argv[0], q, sizeof q), MIN_SIZE);
    v = lmb_find_variant(ctx->bench, argv[1]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown operation '%s'", lmb_quote(argv[1], q, sizeof q));
    if (argc == 3) {
        if (strcmp(argv[2], "conflict") != 0)
            return lmb_usage_error(ctx, "third argument must be 'conflict', not '%s'",
                                   lmb_quote(argv[2], q, sizeof q));
        if (!(v->flags & COPIES))
            lmb_report_warn(&ctx->report, "'conflict' only places a copy's destination; %s is "
                            "not a copy", v->name);
        else
            st.conflict = true;
    }
    st.size = size > SIZE_MAX ? SIZE_MAX : (size_t)size;
    st.flags = v->flags;
    if (lmb_opt_given(ctx, 'H') && lmb_pages_imply(ctx, LMB_PAGES_THP) != 0)
        return lmb_usage_error(ctx, "-H is --pages thp: not with --pages %s",
                               lmb_pages_name((enum lmb_pages)ctx->opt.pages));
    st.pages = lmb_pages_resolve((enum lmb_pages)ctx->opt.pages);
    if (v->flags & WIDE) {
        st.full = pick_kernels(getenv("LMBENCH_VECTOR"), err, sizeof err, &cpu_lacks);
        if (st.full == NULL && !cpu_lacks)
            return lmb_usage_error(ctx, "%s", err);
    }

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_MBS);
    lmb_record_param_int(&rec, "size_bytes", (long long)size);
    if (v->flags & COPIES)
        lmb_record_param_bool(&rec, "conflict", st.conflict);
    if (v->flags & WIDE)
        lmb_record_param_str(&rec, "vector", st.full ? st.full->isa : getenv("LMBENCH_VECTOR"));
    lmb_record_param_str(&rec, "pages", lmb_pages_name(st.pages));
    rec.classic = LMB_CLASSIC_SIZE_MBS;
    rec.classic_x = (double)size;

    if (cpu_lacks)
        return lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "%s", err);
    /* Pages asked for and not to be had here: skipped, with how to get them. */
    if (size <= SIZE_MAX / 4 && bw_maplen(&st) != 0 &&
        lmb_pages_missing(st.pages, bw_maplen(&st), ctx->opt.parallel, err, sizeof err) != NULL)
        return lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "%s", err);
    /* A size that cannot fit is a failure to run here (exit 1), however it
     * cannot fit: past the address space or past the memory available
     * (hugetlbfs pages are reserved memory, not counted in what is). */
    if (size > SIZE_MAX / 4 || bw_maplen(&st) == 0 ||
        (st.pages != LMB_PAGES_2M && st.pages != LMB_PAGES_1G &&
         lmb_memory_fits(bw_maplen(&st), ctx->opt.parallel, err, sizeof err) != 0)) {
        if (size > SIZE_MAX / 4 || bw_maplen(&st) == 0)
            snprintf(err, sizeof err, "%s bytes do not fit in this machine's address space",
                     lmb_quote(argv[0], q, sizeof q));
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    big_buffer_interval(ctx, size);
    t = (struct lmb_timed){
        .init = bw_init,
        .run = v->run,
        .cleanup = bw_cleanup,
        .state = &st,
        .metric = LMB_METRIC_BANDWIDTH,
        .per_iter = (double)size,
    };
    lmb_measure(ctx, &t, &res);
    lmb_pages_check(&res, st.pages);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_bw_mem = {
    .name = "bw_mem",
    .summary = "Memory bandwidth of reads, writes and copies",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_PWN | LMB_USE_PAGES,
    .args = "size {variants} [conflict]",
    .help = "Prints the size in MB and the bandwidth in MB/s (MB = 10^6 bytes). A copy counts\n"
            "the bytes copied once. 'conflict' places a copy's destination at the same offset\n"
            "as its source modulo 2 MiB, so that both compete for the same cache sets.\n"
            "With -P the copies run in lockstep and their bytes are summed over the time\n"
            "they took together. The buffers are on base pages unless --pages (or -H, the\n"
            "same as --pages thp) asks for others; LMBENCH_VECTOR (avx512f, avx2, sse2,\n"
            "simd128, scalar) forces the kernel set of frd, fwr and fcp.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = bw_mem_main,
};
