// SPDX-License-Identifier: MIT
/* lat_pagefault: the cost of faulting in the pages of a file mapping.
 *
 * One operation: one page of a shared read-only mapping of the file, whose
 * page is in the page cache but not mapped, read for the first time. A timed
 * pass reads one byte of every page of the file, then drops the mapping's page
 * table entries with madvise(MADV_DONTNEED), whose cost is included (it undoes
 * what the faults did); the time of a pass is divided by the pages in it. On a
 * read fault Linux maps the cached neighbours of the page too ("fault-around",
 * and whole large folios), so not every page read traps: the figure is what a
 * program pays per page when it reads a mapped file, as lmbench 3's was.
 *
 * Kept out of the timing: checking the file, -C's copies, reading the file into
 * the page cache and mapping it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/files.h"

struct fault_state {
    struct lmb_input *in;
    size_t size;          /* bytes mapped: the whole file */
    size_t pagesize;
    char pathbuf[4200];
    const char *path;
    int fd;
    char *map;
    unsigned sink;
};

/* One pass: a read in every page, then the page table entries dropped. */
static unsigned fault_pass(char *map, size_t size, size_t pagesize)
{
    unsigned sum = 0;

    for (size_t off = 0; off < size; off += pagesize)
        sum += (unsigned char)((volatile char *)map)[off];
    if (madvise(map, size, MADV_DONTNEED) != 0)
        lmb_abort_copy("madvise(MADV_DONTNEED): %s", strerror(errno));
    return sum;
}

static void run_faults(uint64_t n, void *s)
{
    struct fault_state *st = s;

    for (uint64_t i = 0; i < n; i++)
        st->sink += fault_pass(st->map, st->size, st->pagesize);
}

/* Reads the whole file so that its pages are in the page cache. */
static int read_through(int fd, const char *path, char *err, size_t errlen)
{
    char buf[64 * 1024];
    off_t off = 0;
    ssize_t r;

    while ((r = pread(fd, buf, sizeof buf, off)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, errlen, "read %s: %s", path, strerror(errno));
            return -1;
        }
        off += r;
    }
    return 0;
}

static int map_file(struct fault_state *st, const char *path, char *err, size_t errlen)
{
    st->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (st->fd < 0) {
        snprintf(err, errlen, "open %s: %s", path, strerror(errno));
        return -1;
    }
    if (read_through(st->fd, path, err, errlen) != 0)
        return -1;
    st->map = mmap(NULL, st->size, PROT_READ, MAP_SHARED, st->fd, 0);
    if (st->map == MAP_FAILED) {
        st->map = NULL;
        snprintf(err, errlen, "mmap %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void unmap_file(struct fault_state *st)
{
    if (st->map != NULL)
        munmap(st->map, st->size);
    if (st->fd >= 0)
        close(st->fd);
    st->map = NULL;
    st->fd = -1;
}

static int fault_init(void *s, char *err, size_t errlen)
{
    struct fault_state *st = s;

    st->fd = -1;
    st->map = NULL;
    st->path = lmb_input_take(st->in, st->pathbuf, sizeof st->pathbuf);
    return map_file(st, st->path, err, errlen);
}

static void fault_cleanup(void *s)
{
    unmap_file(s);
}

static const struct lmb_optdef options[] = {
    { 'C', NULL, "each copy (-P) maps its own copy of the file, made beside it" },
};

static int lat_pagefault_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_input in;
    struct fault_state st = { .in = &in, .fd = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    uint64_t size, pages;
    char err[600];

    if (argc < 1)
        return lmb_usage_error(ctx, "needs a file");
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");

    lmb_record_init(&rec, ctx->bench->name, "null", LMB_UNIT_US);
    lmb_record_param_str(&rec, "file", argv[0]);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "Pagefaults on %s", argv[0]);

    if (lmb_check_input(argv[0], 1, false, &size, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    if (size > SIZE_MAX / 2)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "%llu bytes cannot be mapped in this address space",
                                     (unsigned long long)size);
    if (lmb_input_prepare(&in, argv[0], 1, lmb_opt_given(ctx, 'C'), size, ctx->opt.parallel,
                          &size, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    st.size = (size_t)size;
    st.pagesize = (size_t)sysconf(_SC_PAGESIZE);
    pages = (size + st.pagesize - 1) / st.pagesize;
    t = (struct lmb_timed){
        .init = fault_init,
        .run = run_faults,
        .cleanup = fault_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = (double)pages,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    lmb_input_release(&in);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_pagefault = {
    .name = "lat_pagefault",
    .summary = "Latency of faulting in a page of a mapped file",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "file",
    .help = "Maps file (shared, read-only; its pages in the page cache), reads one byte\n"
            "of every page, drops the pages from the mapping, and prints the microseconds\n"
            "per page. Fault-around maps several pages per fault, so this is the cost\n"
            "per page of reading a mapped file, not of one trap.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_pagefault_main,
};
