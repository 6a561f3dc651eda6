// SPDX-License-Identifier: MIT
/* lat_mmap: the cost of mapping a file, touching it and unmapping it.
 *
 * One operation: mmap() of the first `size` bytes of the file (shared,
 * read-only), a read of one byte in every page of the mapping (in address
 * order, or in a random order with -r), and munmap(). The file stays open; kept
 * out of the timing: checking it, -C's copies, opening it and, with -r,
 * shuffling the page order. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/files.h"
#include "lib/sizes.h"

struct mmap_state {
    struct lmb_input *in;
    size_t size;
    size_t pagesize;
    bool random;
    char pathbuf[4200];
    const char *path;
    int fd;
    size_t npages;
    size_t *order;      /* -r: page offsets in random order */
    unsigned sink;
};

static void run_mmap(uint64_t n, void *s)
{
    struct mmap_state *st = s;
    unsigned sum = 0;

    for (uint64_t i = 0; i < n; i++) {
        volatile char *p = mmap(NULL, st->size, PROT_READ, MAP_SHARED, st->fd, 0);
        if (p == MAP_FAILED)
            lmb_abort_copy("mmap %s: %s", st->path, strerror(errno));
        if (st->order != NULL) {
            for (size_t k = 0; k < st->npages; k++)
                sum += (unsigned char)p[st->order[k]];
        } else {
            for (size_t off = 0; off < st->size; off += st->pagesize)
                sum += (unsigned char)p[off];
        }
        if (munmap((void *)p, st->size) != 0)
            lmb_abort_copy("munmap: %s", strerror(errno));
    }
    st->sink += sum;
}

/* splitmix64, fixed seed: the same order every run. */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int mmap_init(void *s, char *err, size_t errlen)
{
    struct mmap_state *st = s;

    st->order = NULL;
    st->path = lmb_input_take(st->in, st->pathbuf, sizeof st->pathbuf);
    st->fd = open(st->path, O_RDONLY | O_CLOEXEC);
    if (st->fd < 0) {
        snprintf(err, errlen, "open %s: %s", st->path, strerror(errno));
        return -1;
    }
    st->npages = (st->size + st->pagesize - 1) / st->pagesize;
    if (st->random) {
        uint64_t seed = 0x6c61745f6d6d6170ULL;
        st->order = malloc(st->npages * sizeof *st->order);
        if (st->order == NULL) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (size_t k = 0; k < st->npages; k++)
            st->order[k] = k * st->pagesize;
        for (size_t k = st->npages; k > 1; k--) {
            size_t j = (size_t)(next_random(&seed) % k), t = st->order[k - 1];
            st->order[k - 1] = st->order[j];
            st->order[j] = t;
        }
    }
    return 0;
}

static void mmap_cleanup(void *s)
{
    struct mmap_state *st = s;

    if (st->fd >= 0)
        close(st->fd);
    st->fd = -1;
    free(st->order);
    st->order = NULL;
}

static const struct lmb_optdef options[] = {
    { 'r', NULL, "touch the pages in a random order" },
    { 'C', NULL, "each copy (-P) maps its own copy of the file, made beside it" },
};

static int lat_mmap_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_input in;
    struct mmap_state st = { .in = &in, .fd = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    uint64_t size;
    char err[600];

    if (argc < 2)
        return lmb_usage_error(ctx, "needs a size and a file");
    if (argc > 2)
        return lmb_usage_error(ctx, "too many arguments");
    if (lmb_parse_size(argv[0], &size, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "%s", err);
    if (size == 0)
        return lmb_usage_error(ctx, "the size must be at least 1 byte");

    lmb_record_init(&rec, ctx->bench->name, "null", LMB_UNIT_US);
    lmb_record_param_int(&rec, "size_bytes", (long long)size);
    lmb_record_param_str(&rec, "file", argv[1]);
    if (lmb_opt_given(ctx, 'r'))
        lmb_record_param_bool(&rec, "random", true);
    rec.classic = LMB_CLASSIC_MB_US;
    rec.classic_x = (double)size;

    if (size > SIZE_MAX / 2)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "%llu bytes cannot be mapped in this address space",
                                     (unsigned long long)size);
    if (lmb_input_prepare(&in, argv[1], size, lmb_opt_given(ctx, 'C'), size, ctx->opt.parallel,
                          NULL, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    st.size = (size_t)size;
    st.pagesize = (size_t)sysconf(_SC_PAGESIZE);
    st.random = lmb_opt_given(ctx, 'r');
    t = (struct lmb_timed){
        .init = mmap_init,
        .run = run_mmap,
        .cleanup = mmap_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    lmb_input_release(&in);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_mmap = {
    .name = "lat_mmap",
    .summary = "Latency of mapping a file, touching every page and unmapping it",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "size file",
    .help = "Maps the first size bytes of file (shared, read-only), reads one byte of\n"
            "every page, unmaps it, and prints the size in MB and the microseconds the\n"
            "three steps took. The file must hold at least size bytes.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_mmap_main,
};
