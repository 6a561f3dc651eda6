// SPDX-License-Identifier: MIT
/* lat_mprotect: what changing the protection of pages, and giving pages back
 * with madvise, costs per page.
 *
 * The range: `pages` pages of anonymous private memory (default 256, base
 * pages: MADV_NOHUGEPAGE keeps transparent huge pages out), each written once
 * before timing so that it is present, in a mapping of its own between two
 * PROT_NONE guard pages (so that no change below ever splits or merges it with
 * a neighbour).
 *
 * One operation, reported per page of the range:
 *   mprotect  mprotect(range, PROT_READ), then mprotect(range, PROT_READ |
 *             PROT_WRITE): a change and back, two calls; nothing touches the
 *             pages in between, so no fault is timed.
 *   madvise   madvise(range, MADV_DONTNEED), which frees every page, then a
 *             one-byte write to each page, which faults it back in (a new
 *             zeroed page): the cost of giving a page back cannot be timed
 *             alone, because the pages must be present again for the next
 *             call, so the refault is in the figure, all of it.
 * Kept out of the timing: the mapping, the first writes, unmapping. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/sizes.h"

#define DEFAULT_PAGES 256u
#define MAX_PAGES (1u << 20)

struct mprot_state {
    size_t npages, page;
    char *map;           /* guard, the range, guard */
    volatile char *range;
};

static void run_mprotect(uint64_t n, void *s)
{
    struct mprot_state *st = s;
    void *p = (void *)st->range;
    size_t len = st->npages * st->page;

    for (uint64_t i = 0; i < n; i++) {
        if (mprotect(p, len, PROT_READ) != 0)
            lmb_abort_copy("mprotect PROT_READ: %s", strerror(errno));
        if (mprotect(p, len, PROT_READ | PROT_WRITE) != 0)
            lmb_abort_copy("mprotect PROT_READ|PROT_WRITE: %s", strerror(errno));
    }
}

static void run_madvise(uint64_t n, void *s)
{
    struct mprot_state *st = s;
    size_t len = st->npages * st->page;

    for (uint64_t i = 0; i < n; i++) {
        if (madvise((void *)st->range, len, MADV_DONTNEED) != 0)
            lmb_abort_copy("madvise MADV_DONTNEED: %s", strerror(errno));
        for (size_t k = 0; k < len; k += st->page)
            st->range[k] = 1;
    }
}

static const struct lmb_variant variants[] = {
    { "mprotect", "mprotect() of the range to read-only and back", run_mprotect,
      "mprotect+back", 0 },
    { "madvise", "madvise(MADV_DONTNEED) of the range, then refaulting each page",
      run_madvise, "madvise DONTNEED+refault", 0 },
};

static int mprot_init(void *s, char *err, size_t errlen)
{
    struct mprot_state *st = s;
    size_t len = st->npages * st->page;

    st->map = mmap(NULL, len + 2 * st->page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (st->map == MAP_FAILED) {
        st->map = NULL;
        snprintf(err, errlen, "mmap of %zu pages: %s", st->npages + 2, strerror(errno));
        return -1;
    }
    st->range = st->map + st->page;
    if (mprotect(st->map, st->page, PROT_NONE) != 0 ||
        mprotect(st->map + st->page + len, st->page, PROT_NONE) != 0) {
        snprintf(err, errlen, "mprotect of the guard pages: %s", strerror(errno));
        munmap(st->map, len + 2 * st->page);
        st->map = NULL;
        return -1;
    }
#ifdef MADV_NOHUGEPAGE
    /* Best effort: a kernel without transparent huge pages refuses it (EINVAL),
     * and then every page is a base page anyway. */
    (void)madvise((void *)st->range, len, MADV_NOHUGEPAGE);
#endif
    for (size_t k = 0; k < len; k += st->page)
        st->range[k] = 1;
    return 0;
}

static void mprot_cleanup(void *s)
{
    struct mprot_state *st = s;

    if (st->map != NULL)
        munmap(st->map, st->npages * st->page + 2 * st->page);
    st->map = NULL;
}

static int lat_mprotect_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v;
    struct mprot_state st = { .npages = DEFAULT_PAGES };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    long ps = sysconf(_SC_PAGESIZE);
    uint64_t pages = DEFAULT_PAGES;
    char err[200], q[LMB_QUOTE_BUF];

    if (argc < 1)
        return lmb_usage_error(ctx, "which operation?");
    if (argc > 2)
        return lmb_usage_error(ctx, "too many arguments");
    v = lmb_find_variant(ctx->bench, argv[0]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown operation '%s'", lmb_quote(argv[0], q, sizeof q));
    if (argc == 2 && lmb_parse_uint(argv[1], 1, MAX_PAGES, &pages, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "pages: %s", err);
    st.npages = (size_t)pages;

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    rec.compat = "new: lmbench 3 has no mprotect or madvise benchmark";
    snprintf(rec.label, sizeof rec.label, "%s per page (%zu pages)", v->label, st.npages);
    lmb_record_param_int(&rec, "pages", (long long)st.npages);
    if (ps <= 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "sysconf(_SC_PAGESIZE): %s",
                                     strerror(errno));
    st.page = (size_t)ps;
    lmb_record_param_int(&rec, "page_bytes", ps);

    t = (struct lmb_timed){
        .init = mprot_init,
        .run = v->run,
        .cleanup = mprot_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = (double)st.npages,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_mprotect = {
    .name = "lat_mprotect",
    .summary = "Cost per page of mprotect() and of madvise(MADV_DONTNEED)",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "{variants} [pages]",
    .help = "Works on a range of pages (default 256) of anonymous memory, present before\n"
            "timing, and prints microseconds per page of one operation: mprotect turns\n"
            "the range read-only and back (two calls); madvise gives the range back with\n"
            "MADV_DONTNEED and writes a byte to each page, so the refault of every page\n"
            "is in the figure.\n",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_mprotect_main,
};
