// SPDX-License-Identifier: MIT
/* lat_mmap: the cost of mapping a file, touching it and unmapping it.
 *
 * One operation, lmbench 3's: mmap() of the first `size` bytes of the file
 * (shared, read and write), a write of one byte every 16 KiB over the first
 * tenth of the mapping (with -r every 160 KiB over all of it; the offsets from
 * lmb_mmap_touches in lib/files.c), and munmap(). Each byte written is the
 * byte the file already holds there (read before timing), so the file keeps
 * its contents; each write takes the write fault of a shared file mapping.
 *
 * -p, ours: the mapping read-only, one byte read in every page (in address
 * order, or in a random order with -p -r), then munmap(): the faults that fill
 * the whole mapping for reading.
 *
 * The file stays open; kept out of the timing: checking it, -C's copies,
 * opening it, reading the bytes to write back and, with -p -r, shuffling the
 * page order.
 *
 * Memory: the file's pages in a mapping are page cache the kernel can reclaim,
 * but each copy's own arrays (the bytes written back, -p -r's page order) and
 * the page tables of the pages it touches are not; they must fit in the
 * memory the process may use (lmb_memory_fits, times -P), or the command is
 * refused. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/files.h"
#include "lib/mem.h"
#include "lib/sizes.h"

struct mmap_state {
    struct lmb_input *in;
    size_t size;
    size_t pagesize;
    bool pages;         /* -p: read every page, read-only */
    bool random;        /* -r */
    char pathbuf[4200];
    const char *path;
    char qpath[LMB_QUOTE_BUF];   /* path, quoted for messages */
    int fd;
    /* lmbench 3's pattern: */
    size_t ntouch, step;
    unsigned char *bytes;   /* the file's byte at each touch, written back */
    /* -p: */
    size_t npages;
    size_t *order;      /* -p -r: page offsets in random order */
    unsigned sink;
};

/* lmbench 3's operation: map read-write, write a byte at each touch, unmap. */
static void run_touch(uint64_t n, void *s)
{
    struct mmap_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        volatile unsigned char *p =
            mmap(NULL, st->size, PROT_READ | PROT_WRITE, MAP_SHARED, st->fd, 0);
        if (p == MAP_FAILED)
            lmb_abort_copy("mmap '%s': %s", st->qpath, strerror(errno));
        for (size_t k = 0; k < st->ntouch; k++)
            p[k * st->step] = st->bytes[k];
        if (munmap((void *)p, st->size) != 0)
            lmb_abort_copy("munmap: %s", strerror(errno));
    }
}

/* -p: map read-only, read a byte of every page, unmap. */
static void run_pages(uint64_t n, void *s)
{
    struct mmap_state *st = s;
    unsigned sum = 0;

    for (uint64_t i = 0; i < n; i++) {
        volatile char *p = mmap(NULL, st->size, PROT_READ, MAP_SHARED, st->fd, 0);
        if (p == MAP_FAILED)
            lmb_abort_copy("mmap '%s': %s", st->qpath, strerror(errno));
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

/* -p -r: every page offset, shuffled. */
static int shuffle_pages(struct mmap_state *st, char *err, size_t errlen)
{
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
    return 0;
}

/* The file's bytes at the touches, to write back unchanged. */
static int read_touched(struct mmap_state *st, char *err, size_t errlen)
{
    st->bytes = malloc(st->ntouch);
    if (st->bytes == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < st->ntouch; k++) {
        ssize_t r;
        do {
            r = pread(st->fd, &st->bytes[k], 1, (off_t)(k * st->step));
        } while (r < 0 && errno == EINTR);
        if (r != 1) {
            snprintf(err, errlen, "read '%s': %s", st->qpath, r < 0 ? strerror(errno) : "short");
            return -1;
        }
    }
    return 0;
}

static int mmap_init(void *s, char *err, size_t errlen)
{
    struct mmap_state *st = s;

    st->order = NULL;
    st->bytes = NULL;
    st->path = lmb_input_take(st->in, st->pathbuf, sizeof st->pathbuf);
    lmb_quote(st->path, st->qpath, sizeof st->qpath);
    st->fd = open(st->path, (st->pages ? O_RDONLY : O_RDWR) | O_CLOEXEC);
    if (st->fd < 0) {
        if (!st->pages && (errno == EACCES || errno == EROFS || errno == EPERM))
            snprintf(err, errlen, "open '%s' for writing: %s (lat_mmap writes to its mapping, "
                     "as lmbench 3's; -p only reads)", st->qpath, strerror(errno));
        else
            snprintf(err, errlen, "open '%s': %s", st->qpath, strerror(errno));
        return -1;
    }
    if (st->pages) {
        st->npages = (st->size + st->pagesize - 1) / st->pagesize;
        return st->random ? shuffle_pages(st, err, errlen) : 0;
    }
    return read_touched(st, err, errlen);
}

static void mmap_cleanup(void *s)
{
    struct mmap_state *st = s;

    if (st->fd >= 0)
        close(st->fd);
    st->fd = -1;
    free(st->order);
    st->order = NULL;
    free(st->bytes);
    st->bytes = NULL;
}

static const struct lmb_optdef options[] = {
    { 'r', NULL, "touch every 160 KiB over the whole mapping (with -p: every page in a random "
                 "order)" },
    { 'p', NULL, "ours: map read-only and read a byte of every page (case pages)" },
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

    st.pages = lmb_opt_given(ctx, 'p');
    st.random = lmb_opt_given(ctx, 'r');
    lmb_record_init(&rec, ctx->bench->name, st.pages ? "pages" : "", LMB_UNIT_US);
    lmb_record_param_int(&rec, "size_bytes", (long long)size);
    lmb_record_param_str(&rec, "file", argv[1]);
    if (st.random)
        lmb_record_param_bool(&rec, "random", true);
    if (st.pages) {
        rec.compat = "new: read-only mapping, a byte read in every page";
    } else {
        /* Not parameters: lmbench 3's records (imported) have size and file
         * alone, and the touches follow from them (tested in test_os.c). */
        st.ntouch = lmb_mmap_touches(size, st.random, &st.step);
    }
    rec.classic = LMB_CLASSIC_MB_US;
    rec.classic_x = (double)size;

    if (size > SIZE_MAX / 2)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "%llu bytes cannot be mapped in this address space",
                                     (unsigned long long)size);
    st.pagesize = (size_t)sysconf(_SC_PAGESIZE);
    /* What each copy holds that the kernel cannot reclaim: its arrays and the
     * page tables of what it touches (8 bytes a page, in tables of 2 MiB):
     * every page with -p; lmbench 3's pattern writes every 16 KiB over a tenth
     * (with -r every 160 KiB over all of it, so every table is made). */
    uint64_t pages = (size + st.pagesize - 1) / st.pagesize, need;
    if (st.pages)
        need = pages * 8 + (st.random ? pages * sizeof(size_t) : 0);
    else
        need = (uint64_t)st.ntouch + (st.random ? pages : pages / 10 + 512) * 8;
    if (lmb_check_input(argv[1], size, false, NULL, err, sizeof err) != 0 ||
        lmb_memory_fits(need, ctx->opt.parallel, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    if (lmb_input_prepare(&in, argv[1], size, lmb_opt_given(ctx, 'C'), size, ctx->opt.parallel,
                          NULL, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    st.size = (size_t)size;
    t = (struct lmb_timed){
        .init = mmap_init,
        .run = st.pages ? run_pages : run_touch,
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
    .summary = "Latency of mapping a file, touching it and unmapping it",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "size file",
    .help = "Maps the first size bytes of file (shared, read-write), writes one byte\n"
            "every 16 KiB over the first tenth of the mapping (-r: every 160 KiB over\n"
            "all of it), unmaps it, and prints the size in MB and the microseconds the\n"
            "three steps took, as lmbench 3. Each byte written is the one already there,\n"
            "so the file is unchanged, but it must be writable. -p maps read-only and\n"
            "reads a byte of every page instead. The file must hold at least size bytes.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_mmap_main,
};
