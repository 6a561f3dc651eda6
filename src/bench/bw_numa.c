// SPDX-License-Identifier: MIT
/* bw_numa: the read bandwidth from each NUMA node's CPUs to each node's
 * memory, as a matrix.
 *
 * One iteration: one pass reading every byte of the buffer (vector loads of
 * the widest set the CPU runs, xor'd into eight independent accumulators),
 * counted as the buffer's size; the set is the record's parameter "vector". For a pair (cpu_node, mem_node) each copy runs on a
 * CPU of cpu_node with its own buffer bound to mem_node with mbind before any
 * page is touched; the copy checks where the pages went and on which node the
 * kernel says it runs before it measures (src/lib/numa.h). With -P the copies
 * read together and their bytes are summed. Kept out of the timing: mapping,
 * binding and writing the buffer, locating its pages. */
#include <stdint.h>
#include <stdio.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/memlat.h"
#include "lib/numa.h"

#define DEFAULT_SIZE (256ULL << 20)
#define MIN_SIZE (64ULL << 10)
#define STEP 512   /* 8 vectors of the widest kernel */

struct bw_state {
    size_t size;
    int cpu_node, mem_node;
    char *buf;
    const struct read_kernel *kernel;
    uint64_t sink;
};

/* Reads every byte of buf[0..len) (len a multiple of 8 vectors, buf page
 * aligned) `passes` times, with vectors of vb bytes xor'd into eight
 * accumulators; the accumulators live across passes, the barrier at the end
 * of each makes the next one load again. One per instruction set, the widest
 * the CPU runs chosen at run time (at one CPU's DRAM bandwidth, 16-byte loads
 * read some 8% less than 32-byte ones on the x86 VM here). */
#define READ_KERNEL(isa, attr, vb)                                                 \
    typedef uint64_t vec_##isa __attribute__((vector_size(vb), may_alias));       \
    attr static uint64_t read_##isa(const char *buf, size_t len, uint64_t passes)  \
    {                                                                              \
        vec_##isa a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };                 \
        vec_##isa a4 = { 0 }, a5 = { 0 }, a6 = { 0 }, a7 = { 0 };                 \
        const char *end = buf + len;                                               \
        uint64_t r = 0;                                                            \
                                                                                   \
        for (uint64_t pass = 0; pass < passes; pass++) {                           \
            for (const char *q = buf; q < end; q += 8 * (vb)) {                    \
                const vec_##isa *p = (const vec_##isa *)(const void *)q;           \
                a0 ^= p[0];                                                        \
                a1 ^= p[1];                                                        \
                a2 ^= p[2];                                                        \
                a3 ^= p[3];                                                        \
                a4 ^= p[4];                                                        \
                a5 ^= p[5];                                                        \
                a6 ^= p[6];                                                        \
                a7 ^= p[7];                                                        \
            }                                                                      \
            lmb_compiler_barrier();                                                \
        }                                                                          \
        a0 ^= a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;                                    \
        for (size_t k = 0; k < (vb) / 8; k++)                                      \
            r ^= a0[k];                                                            \
        return r;                                                                  \
    }

struct read_kernel {
    const char *isa;
    uint64_t (*read)(const char *buf, size_t len, uint64_t passes);
};

#if LMB_X86_TARGETS
READ_KERNEL(avx512f, __attribute__((target("avx512f"))), 64)
READ_KERNEL(avx2, __attribute__((target("avx2"))), 32)
READ_KERNEL(sse2, , 16)
static const struct read_kernel kernels[] = {
    { "avx512f", read_avx512f }, { "avx2", read_avx2 }, { "sse2", read_sse2 },
};
#else
READ_KERNEL(simd128, , 16)
static const struct read_kernel kernels[] = { { "simd128", read_simd128 } };
#endif

/* The widest set this CPU runs (the last one always runs). */
static const struct read_kernel *pick_kernel(void)
{
    size_t n = sizeof kernels / sizeof kernels[0];

    for (size_t i = 0; i + 1 < n; i++)
        if (lmb_cpu_has_isa(kernels[i].isa))
            return &kernels[i];
    return &kernels[n - 1];
}

static int bw_init(void *s, char *err, size_t errlen)
{
    struct bw_state *st = s;
    struct lmb_numa_where w;

    st->buf = lmb_numa_alloc(st->size, st->mem_node, 1, &w, err, errlen);
    if (st->buf == NULL)
        return -1;
    if (lmb_numa_check_copy(st->cpu_node, st->mem_node, &w, err, errlen) != 0)
        return -1;
    lmb_pages_note(st->buf, st->size);
    return 0;
}

static void bw_run(uint64_t n, void *s)
{
    struct bw_state *st = s;

    st->sink += st->kernel->read(st->buf, st->size, n);
}

static void bw_cleanup(void *s)
{
    struct bw_state *st = s;

    lmb_numa_free(st->buf, st->size);
    st->buf = NULL;
}

static void bw_pair(struct lmb_ctx *ctx, int cpu_node, int mem_node, void *arg,
                    struct lmb_result *res)
{
    struct bw_state *st = arg;
    struct lmb_timed t = {
        .init = bw_init,
        .run = bw_run,
        .cleanup = bw_cleanup,
        .state = st,
        .metric = LMB_METRIC_BANDWIDTH,
        .per_iter = (double)st->size,
    };

    st->cpu_node = cpu_node;
    st->mem_node = mem_node;
    lmb_measure(ctx, &t, res);
}

static const struct lmb_optdef options[] = {
    { 's', "size", "bytes of the buffer read per copy (default 256m)" },
};

static int bw_numa_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    uint64_t size = DEFAULT_SIZE;
    uint64_t max = SIZE_MAX / 2 < (64ULL << 30) ? SIZE_MAX / 2 + 1 : (64ULL << 30);
    struct bw_state st = { 0 };
    struct lmb_numa_matrix m;
    int rc;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no operands (the size is -s SIZE)");
    if ((rc = lmb_memlat_size_opt(ctx, 's', MIN_SIZE, max, STEP, &size)) != 0)
        return rc;
    st.size = (size_t)size;
    st.kernel = pick_kernel();
    m = (struct lmb_numa_matrix){
        .case_name = "rd",
        .param_key = "vector",
        .param_val = st.kernel->isa,
        .unit = LMB_UNIT_MBS,
        .classic = LMB_CLASSIC_LABEL_MBSEC,
        .size = size,
        .measure = bw_pair,
        .arg = &st,
    };
    return lmb_numa_matrix_run(ctx, &m);
}

const struct lmb_bench lmb_bench_bw_numa = {
    .name = "bw_numa",
    .summary = "Memory read bandwidth from each NUMA node's CPUs to each node's memory",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_PWN,
    .args = "",
    .help = "For every pair of online nodes (C, M), C a node with CPUs, reads every byte\n"
            "of a buffer bound to node M (mbind) on a CPU of node C, and prints\n"
            "'node C -> node M: X MB/sec' (MB = 10^6 bytes). Each copy checks that its\n"
            "pages are on node M (move_pages) and that it runs on node C before it\n"
            "measures; a pair that cannot be measured here is a failed record with the\n"
            "reason. With -P the copies run on node C's CPUs in turn (--cpus narrows\n"
            "them), each with its own buffer, and their bandwidths are summed;\n"
            "LMBENCH_SCHED is not used.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .supported = lmb_numa_supported,
    .main = bw_numa_main,
};
