// SPDX-License-Identifier: MIT
/* lat_numa: the latency of a dependent load from each NUMA node's CPUs to
 * each node's memory, as a matrix.
 *
 * One operation: one load of a random pointer chase (src/lib/chase.h): one
 * pointer every 64 bytes of a buffer larger than the caches, linked into one
 * random cycle, each load needing the previous one's result. For a pair
 * (cpu_node, mem_node) each copy runs on a CPU of cpu_node and its buffer is
 * bound to mem_node with mbind before any page is touched; the copy checks
 * where the pages went and on which node the kernel says it runs before it
 * measures (src/lib/numa.h). Kept out of the timing: mapping, binding and
 * writing the buffer, locating its pages, laying the chain, one read of every
 * page after it (as lib/memlat.c does: the set-up's unmapping makes a
 * shadowing hypervisor drop its page tables). */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/chase.h"
#include "lib/mem.h"
#include "lib/memlat.h"
#include "lib/numa.h"

#define DEFAULT_SIZE (256ULL << 20)
#define MIN_SIZE (64ULL << 10)
#define STRIDE 64
/* The chain's random order comes from this seed: the same chain every run. */
#define SEED 0x6e756d616c6174ULL

struct lat_state {
    size_t size;
    int cpu_node, mem_node;
    char *buf;
    struct lmb_chase chase;
};

static void read_pages(const char *base, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char sum = 0;

    for (size_t off = 0; off < size; off += page)
        sum += (unsigned char)((const volatile char *)base)[off];
    __asm__ volatile("" : : "r"(sum));
}

static int lat_init(void *s, char *err, size_t errlen)
{
    struct lat_state *st = s;
    struct lmb_numa_where w;

    st->buf = lmb_numa_alloc(st->size, st->mem_node, 1, &w, err, errlen);
    if (st->buf == NULL)
        return -1;
    if (lmb_numa_check_copy(st->cpu_node, st->mem_node, &w, err, errlen) != 0)
        return -1;
    lmb_pages_note(st->buf, st->size);
    if (lmb_chase_build(&st->chase, st->buf, st->size, STRIDE, LMB_CHASE_RANDOM, 0, SEED, 1,
                        err, errlen) != 0)
        return -1;
    read_pages(st->buf, st->size);
    return 0;
}

static void lat_run(uint64_t n, void *s)
{
    struct lat_state *st = s;

    lmb_chase_loop(1)(n, &st->chase);
}

static void lat_cleanup(void *s)
{
    struct lat_state *st = s;

    lmb_numa_free(st->buf, st->size);
    st->buf = NULL;
}

static void lat_pair(struct lmb_ctx *ctx, int cpu_node, int mem_node, void *arg,
                     struct lmb_result *res)
{
    struct lat_state *st = arg;
    struct lmb_timed t = {
        .init = lat_init,
        .run = lat_run,
        .cleanup = lat_cleanup,
        .state = st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = lmb_chase_steps(1),
    };

    st->cpu_node = cpu_node;
    st->mem_node = mem_node;
    lmb_measure(ctx, &t, res);
}

static const struct lmb_optdef options[] = {
    { 's', "size", "bytes of the chased buffer per copy (default 256m)" },
};

static int lat_numa_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    uint64_t size = DEFAULT_SIZE;
    uint64_t max = SIZE_MAX / 2 < (64ULL << 30) ? SIZE_MAX / 2 + 1 : (64ULL << 30);
    struct lat_state st = { 0 };
    struct lmb_numa_matrix m;
    int rc;

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "takes no operands (the size is -s SIZE)");
    if ((rc = lmb_memlat_size_opt(ctx, 's', MIN_SIZE, max, STRIDE, &size)) != 0)
        return rc;
    st.size = (size_t)size;
    m = (struct lmb_numa_matrix){
        .case_name = "",
        .unit = LMB_UNIT_NS,
        .classic = LMB_CLASSIC_LABEL_NS,
        .size = size,
        .measure = lat_pair,
        .arg = &st,
    };
    return lmb_numa_matrix_run(ctx, &m);
}

const struct lmb_bench lmb_bench_lat_numa = {
    .name = "lat_numa",
    .summary = "Memory latency from each NUMA node's CPUs to each node's memory",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_PWN,
    .args = "",
    .help = "For every pair of online nodes (C, M), C a node with CPUs, follows a random\n"
            "pointer chase on a CPU of node C through a buffer bound to node M (mbind),\n"
            "and prints 'node C -> node M: X nanoseconds' per dependent load. Each copy\n"
            "checks that its pages are on node M (move_pages) and that it runs on node C\n"
            "before it measures; a pair that cannot be measured here is a failed record\n"
            "with the reason. The copies of -P run on node C's CPUs in turn (--cpus\n"
            "narrows them); LMBENCH_SCHED is not used.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .supported = lmb_numa_supported,
    .main = lat_numa_main,
};
