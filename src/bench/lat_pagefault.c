// SPDX-License-Identifier: MIT
/* lat_pagefault: the cost of a page fault on a page of a file in the page cache.
 *
 * One operation: one read of a page of a shared read-only mapping of the file
 * whose page is in the page cache but not mapped: one minor fault that maps
 * that page. On a read fault Linux also maps the cached neighbours of the page
 * that lie in the same mapping ("fault-around": 16 pages, or whole large
 * folios, per trap), so each page is mapped on its own, as a mapping of one
 * page placed in the reverse order of the file (neighbouring mappings never
 * merge): every page read takes its own trap, as in lmbench 3's time. A timed
 * pass reads one byte of each page, then drops the page table entries with one
 * madvise(MADV_DONTNEED) over all the mappings, whose cost is included (it
 * undoes what the faults did); the time of a pass is divided by the pages in
 * it. The faults taken in the passes are counted (getrusage) and reported:
 * faults, and faults_per_page, with a warning when that is far from 1.
 *
 * Files of more pages than MAX_PAGES (or than the kernel's limit on mappings
 * allows) have that many of their pages read, spread evenly over the file.
 *
 * Kept out of the timing: checking the file, -C's copies, reading the whole
 * file with read() so that its pages are in the page cache (in each copy's
 * set-up, every time) and making the mappings. */
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
#include "lib/mem.h"

/* The most pages a pass reads: the most one-page mappings made. */
#define MAX_PAGES 32768u
/* Mappings left to the rest of the process under the kernel's limit. */
#define MAP_RESERVE 1024u
/* What one one-page mapping costs the kernel, memory it cannot reclaim while
 * the mapping lives: its mapping record (about 200 bytes) and page-table
 * entry, rounded up. */
#define MAP_COST 256u

struct fault_state {
    struct lmb_input *in;
    size_t size;          /* bytes of the file */
    size_t pagesize;
    size_t npages;        /* pages read per pass: one mapping each */
    size_t filepages;     /* pages in the file */
    char pathbuf[4200];
    const char *path;
    char qpath[LMB_QUOTE_BUF];   /* path, quoted for messages */
    int fd;
    char *map;            /* npages pages; slot j maps file page page_of(j) */
    unsigned sink;
    /* What the passes of this copy took, for the facts: */
    long long faults, majors, passes;
};

/* The file page in slot j: slots hold the chosen pages in reverse order, so
 * that no two neighbouring slots map neighbouring file offsets. */
static size_t page_of(const struct fault_state *st, size_t j)
{
    size_t i = st->npages - 1 - j;
    return st->npages == st->filepages ? i : (size_t)((uint64_t)i * st->filepages / st->npages);
}

static void faults_now(long long *minor, long long *major)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0)
        lmb_abort_copy("getrusage: %s", strerror(errno));
    *minor = ru.ru_minflt;
    *major = ru.ru_majflt;
}

/* One pass: a read in every page, in file order, then the page table entries
 * dropped. */
static unsigned fault_pass(const struct fault_state *st)
{
    unsigned sum = 0;

    for (size_t j = st->npages; j-- > 0;)
        sum += (unsigned char)((volatile char *)st->map)[j * st->pagesize];
    if (madvise(st->map, st->npages * st->pagesize, MADV_DONTNEED) != 0)
        lmb_abort_copy("madvise(MADV_DONTNEED): %s", strerror(errno));
    return sum;
}

static void run_faults(uint64_t n, void *s)
{
    struct fault_state *st = s;
    long long min0, maj0, min1, maj1;

    faults_now(&min0, &maj0);
    for (uint64_t i = 0; i < n; i++)
        st->sink += fault_pass(st);
    faults_now(&min1, &maj1);
    st->faults += (min1 - min0) + (maj1 - maj0);
    st->majors += maj1 - maj0;
    st->passes += (long long)n;
    /* Per pass, rounded: the same figure every run when the kernel does the
     * same (a stray fault of the loop itself does not show). */
    lmb_copy_fact_int("faults", (st->faults + st->passes / 2) / st->passes);
    lmb_copy_fact_int("major_faults", (st->majors + st->passes / 2) / st->passes);
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
            snprintf(err, errlen, "read '%s': %s", path, strerror(errno));
            return -1;
        }
        off += r;
    }
    return 0;
}

/* The kernel's limit on mappings per process, or its usual default. */
static size_t map_limit(void)
{
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    unsigned long v = 0;

    if (f == NULL)
        return 65530;
    if (fscanf(f, "%lu", &v) != 1)
        v = 65530;
    fclose(f);
    return (size_t)v;
}

/* One mapping of one page per slot, inside a reserved range. */
static int map_pages(struct fault_state *st, char *err, size_t errlen)
{
    size_t len = st->npages * st->pagesize;

    st->map = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (st->map == MAP_FAILED) {
        st->map = NULL;
        snprintf(err, errlen, "mmap of %zu bytes: %s", len, strerror(errno));
        return -1;
    }
    for (size_t j = 0; j < st->npages; j++) {
        void *at = st->map + j * st->pagesize;
        if (mmap(at, st->pagesize, PROT_READ, MAP_SHARED | MAP_FIXED, st->fd,
                 (off_t)(page_of(st, j) * st->pagesize)) == MAP_FAILED) {
            snprintf(err, errlen, "mmap of page %zu of '%s': %s", page_of(st, j), st->qpath,
                     strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int fault_init(void *s, char *err, size_t errlen)
{
    struct fault_state *st = s;

    st->fd = -1;
    st->map = NULL;
    st->faults = st->majors = st->passes = 0;
    st->path = lmb_input_take(st->in, st->pathbuf, sizeof st->pathbuf);
    lmb_quote(st->path, st->qpath, sizeof st->qpath);
    st->fd = open(st->path, O_RDONLY | O_CLOEXEC);
    if (st->fd < 0) {
        snprintf(err, errlen, "open '%s': %s", st->qpath, strerror(errno));
        return -1;
    }
    if (read_through(st->fd, st->qpath, err, errlen) != 0)
        return -1;
    return map_pages(st, err, errlen);
}

static void fault_cleanup(void *s)
{
    struct fault_state *st = s;

    if (st->map != NULL)
        munmap(st->map, st->npages * st->pagesize);
    if (st->fd >= 0)
        close(st->fd);
    st->map = NULL;
    st->fd = -1;
}

static const struct lmb_optdef options[] = {
    { 'C', NULL, "each copy (-P) maps its own copy of the file, made beside it" },
};

/* faults_per_page from the copy's facts, and a warning when it is far from 1. */
static void note_faults(struct lmb_record *rec, struct lmb_result *res, size_t pages)
{
    for (unsigned i = 0; i < res->nfacts; i++) {
        if (strcmp(res->facts[i].key, "faults") != 0 || !res->facts[i].is_int)
            continue;
        double per = (double)res->facts[i].ival / (double)pages;
        lmb_record_param_double(rec, "faults_per_page", (double)(long long)(per * 100 + 0.5) / 100);
        if (res->status == LMB_OK && (per < 0.9 || per > 1.1))
            lmb_result_warn(res, "%.2f faults per page read (%lld faults for %zu pages a pass), "
                            "not one: the figure is not the cost of one fault", per,
                            res->facts[i].ival, pages);
    }
}

static int lat_pagefault_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct lmb_input in;
    struct fault_state st = { .in = &in, .fd = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    uint64_t size;
    size_t limit;
    char err[600], name[sizeof rec.label];

    if (argc < 1)
        return lmb_usage_error(ctx, "needs a file");
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");

    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_US);
    lmb_record_param_str(&rec, "file", argv[0]);
    rec.classic = LMB_CLASSIC_LABEL_US;
    /* The file's name whole, as lmbench 3 printed it, with control bytes
     * escaped so that none reaches the terminal. */
    snprintf(rec.label, sizeof rec.label, "Pagefaults on %s",
             lmb_escape(argv[0], name, sizeof name - 16));

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
    st.filepages = (st.size + st.pagesize - 1) / st.pagesize;
    limit = map_limit();
    limit = limit > 2 * MAP_RESERVE ? limit - MAP_RESERVE : limit / 2;
    if (limit > MAX_PAGES)
        limit = MAX_PAGES;
    st.npages = st.filepages < limit ? st.filepages : limit;
    lmb_record_param_int(&rec, "pages", (long long)st.npages);
    /* The file's pages are page cache, reclaimable; each copy's mappings are
     * not: the memory guard decides (times -P), not the OOM killer. */
    if (lmb_memory_fits((uint64_t)st.npages * MAP_COST, ctx->opt.parallel, err, sizeof err) != 0) {
        lmb_input_release(&in);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    t = (struct lmb_timed){
        .init = fault_init,
        .run = run_faults,
        .cleanup = fault_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = (double)st.npages,
    };
    lmb_measure(ctx, &t, &res);
    note_faults(&rec, &res, st.npages);
    lmb_report_add(&ctx->report, &rec, &res);
    lmb_input_release(&in);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_pagefault = {
    .name = "lat_pagefault",
    .summary = "Latency of a page fault on a page of a mapped file",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "file",
    .help = "Reads file into the page cache, maps each of its pages (up to 32768, spread\n"
            "over the file) on its own, shared and read-only, so that every page read\n"
            "takes one fault, reads one byte of each, drops the pages from the mappings\n"
            "with one madvise() (included), and prints the microseconds per page. The\n"
            "faults taken are counted and recorded (faults, faults_per_page).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_pagefault_main,
};
