// SPDX-License-Identifier: MIT
/* Memory-latency measurements built on pointer chains, and the caches the
 * system declares. */
#include "lib/memlat.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/sizes.h"

/* The chains' random orders come from this seed: the same chain every run. */
#define SEED 0x6c6d62656e6368ULL

char *lmb_memlat_map(size_t size, bool huge, char **map, size_t *maplen, char *err,
                     size_t errlen)
{
    struct lmb_page_info pi;
    char *p;

    *map = NULL;
    *maplen = 0;
    p = lmb_pages_alloc_kind(size, 0, huge ? LMB_PAGES_HUGE : LMB_PAGES_NORMAL, err, errlen);
    if (p == NULL)
        return NULL;
    *map = p;
    *maplen = size;
    if (huge) {
        /* A huge-page measurement on small pages would be another measurement:
         * fail rather than report it. */
        lmb_pages_backing(p, size, &pi);
        if (pi.known && pi.huge_percent < 100) {
            snprintf(err, errlen, "huge pages: the kernel backed %u%% of the %zu bytes with them "
                     "(see /sys/kernel/mm/transparent_hugepage/)", pi.huge_percent, size);
            return NULL;
        }
    }
    lmb_pages_note(p, size);
    return p;
}

/* One load in every page of the buffer, after the chain is built. Building it
 * frees the order array (an munmap), and a hypervisor that shadows the guest's
 * page tables drops its copy of them on such a change: until every page of
 * the buffer has been touched again each TLB miss is a trip to the hypervisor
 * (7 us a load instead of 0.2 at 256 MB, random order, on a Firecracker VM;
 * the same in a plain C chase that frees an array before it starts). The
 * chase in its steady state is what is measured, so the set-up's own change
 * is undone here, outside the timing. */
static void touch_pages(const char *base, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char sum = 0;

    for (size_t off = 0; off < size; off += page)
        sum += (unsigned char)((const volatile char *)base)[off];
    __asm__ volatile("" : : "r"(sum));
}

static int memlat_init(void *s, char *err, size_t errlen)
{
    struct lmb_memlat *m = s;
    char *base = lmb_memlat_map(m->size, m->huge, &m->map, &m->maplen, err, errlen);
    int rc;

    if (base == NULL)
        return -1;
    if (m->layout != NULL)
        rc = m->layout(base, m->size, m->layout_arg, &m->chase, err, errlen);
    else
        rc = lmb_chase_build(&m->chase, base, m->size, m->stride, m->order, m->window, SEED,
                             m->chains, err, errlen);
    if (rc == 0)
        touch_pages(base, m->size);
    return rc;
}

static void memlat_cleanup(void *s)
{
    struct lmb_memlat *m = s;

    if (m->map != NULL)
        lmb_pages_free(m->map, m->maplen);
    m->map = NULL;
}

static void memlat_run(uint64_t n, void *s)
{
    struct lmb_memlat *m = s;

    lmb_chase_loop(m->chase.nchains)(n, &m->chase);
}

/* The backward walk, through one load instruction (lmb_chase_walk): the
 * stride its prefetchers see is the chain's. */
static void memlat_walk(uint64_t n, void *s)
{
    struct lmb_memlat *m = s;

    lmb_chase_walk(n, &m->chase);
}

void lmb_memlat_measure(struct lmb_ctx *ctx, struct lmb_memlat *m, struct lmb_result *res)
{
    unsigned k = m->layout != NULL ? 1 : m->chains;
    bool walk = m->layout == NULL && m->order == LMB_CHASE_BACKWARD && k == 1;
    struct lmb_timed t = {
        .init = memlat_init,
        .run = walk ? memlat_walk : memlat_run,
        .cleanup = memlat_cleanup,
        .state = m,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = (double)k * lmb_chase_steps(k),
    };

    lmb_measure(ctx, &t, res);
}

int lmb_memlat_declared(struct lmb_cache_info *out, int max, const char **where)
{
    struct lmb_host h;
    int n = 0;

    lmb_host_probe(&h);
    for (int i = 0; i < h.ncaches && n < max; i++)
        if (strcmp(h.caches[i].type, "Instruction") != 0 && h.caches[i].size > 0)
            out[n++] = h.caches[i];
    if (n > 0) {
        if (where)
            *where = "sysfs";
        return n;
    }
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) && \
    defined(_SC_LEVEL3_CACHE_SIZE)
    {
        static const int names[][2] = {
            { _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE },
            { _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE },
            { _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE },
#ifdef _SC_LEVEL4_CACHE_SIZE
            { _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_LINESIZE },
#endif
        };
        for (size_t i = 0; i < sizeof names / sizeof names[0] && n < max; i++) {
            long sz = sysconf(names[i][0]), line = sysconf(names[i][1]);
            if (sz <= 0)
                continue;
            memset(&out[n], 0, sizeof out[n]);
            out[n].level = (int)i + 1;
            snprintf(out[n].type, sizeof out[n].type, "%s", i == 0 ? "Data" : "Unified");
            out[n].size = (uint64_t)sz;
            out[n].line = line > 0 ? (int)line : 0;
            n++;
        }
    }
#endif
    if (where)
        *where = n > 0 ? "sysconf" : "none";
    return n;
}

size_t lmb_memlat_largest_cache(const char **where)
{
    struct lmb_cache_info c[LMB_MAX_CACHES];
    int n = lmb_memlat_declared(c, LMB_MAX_CACHES, where);
    size_t best = 0;

    for (int i = 0; i < n; i++)
        if (c[i].size > best)
            best = (size_t)c[i].size;
    return best;
}

/* --- a chain shared by several measurements ----------------------------------------- */

int lmb_memlat_share(struct lmb_memlat_shared *s, size_t size, size_t stride, size_t window,
                     char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->stride = stride;
    s->base = lmb_memlat_map(size, false, &s->map, &s->maplen, err, errlen);
    if (s->base == NULL)
        return -1;
    if (lmb_chase_build_keep(&s->chase, s->base, size, stride,
                             window > 0 ? LMB_CHASE_WINDOW : LMB_CHASE_RANDOM, window, SEED, 1,
                             &s->order, err, errlen) != 0) {
        lmb_memlat_unshare(s);
        return -1;
    }
    s->chains = 1;
    return 0;
}

static int shared_init(void *p, char *err, size_t errlen)
{
    struct lmb_memlat_shared *s = p;

    (void)err;
    (void)errlen;
    lmb_chase_restart(&s->chase, s->base, s->stride, s->order, s->chains);
    lmb_pages_note(s->base, s->size);
    touch_pages(s->base, s->size);
    return 0;
}

static void shared_run(uint64_t n, void *p)
{
    struct lmb_memlat_shared *s = p;

    lmb_chase_loop(s->chase.nchains)(n, &s->chase);
}

void lmb_memlat_measure_shared(struct lmb_ctx *ctx, struct lmb_memlat_shared *s,
                               struct lmb_result *res)
{
    unsigned k = s->chains;
    struct lmb_timed t = {
        .init = shared_init,
        .run = shared_run,
        .state = s,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = (double)k * lmb_chase_steps(k),
    };

    lmb_measure(ctx, &t, res);
}

void lmb_memlat_unshare(struct lmb_memlat_shared *s)
{
    free(s->order);
    s->order = NULL;
    if (s->map != NULL)
        lmb_pages_free(s->map, s->maplen);
    s->map = s->base = NULL;
}

/* --- line size ------------------------------------------------------------------ */

#define LINE_BLOCK 512
#define LINE_SEED 0x6c696e6573ULL
/* Rounds of the line measurement: five in working sets up to 4 MiB, two in
 * larger ones (each chain there costs a mapping of the whole set). */
#define LINE_ROUNDS 5
#define LINE_ROUNDS_LARGE 2
#define LINE_LARGE (4u << 20)
const size_t LMB_MEMLAT_LINE_DIST[LMB_MEMLAT_LINE_NDIST] = { 8, 16, 32, 64, 128, 256 };

/* Blocks in random order, two elements each: at +d, then at +0 (one, at +0,
 * when d is 0). */
static int pair_layout(char *base, size_t size, const void *arg, struct lmb_chase *c, char *err,
                       size_t errlen)
{
    size_t d = *(const size_t *)arg, nb = size / LINE_BLOCK, *off, n = 0;
    uint32_t *order;
    uint64_t seed = LINE_SEED;

    off = malloc(2 * nb * sizeof *off);
    order = malloc(nb * sizeof *order);
    if (off == NULL || order == NULL) {
        free(off);
        free(order);
        snprintf(err, errlen, "no memory for a chain of %zu blocks", nb);
        return -1;
    }
    for (size_t i = 0; i < nb; i++)
        order[i] = (uint32_t)i;
    for (size_t i = nb; i > 1; i--) {
        size_t j = (size_t)(lmb_chase_random(&seed) % i);
        uint32_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < nb; i++) {
        if (d > 0)
            off[n++] = (size_t)order[i] * LINE_BLOCK + d;
        off[n++] = (size_t)order[i] * LINE_BLOCK;
    }
    lmb_chase_link(c, base, off, n);
    free(off);
    free(order);
    return 0;
}

int lmb_memlat_line(struct lmb_ctx *ctx, size_t ws, struct lmb_result *res,
                    double second_ns[LMB_MEMLAT_LINE_NDIST])
{
    static const size_t zero = 0;
    double best[LMB_MEMLAT_LINE_NDIST + 1];

    memset(res, 0, sizeof *res);
    ws = ws / LINE_BLOCK * LINE_BLOCK;
    if (ws < 2 * LINE_BLOCK)
        ws = 2 * LINE_BLOCK;
    /* Every chain, several times over, interleaved: each chain's best over
     * all its rounds, so that a busy spell of the machine lands on every
     * chain alike rather than on one distance. */
    for (int k = 0; k <= LMB_MEMLAT_LINE_NDIST; k++)
        best[k] = INFINITY;
    int rounds = ws <= LINE_LARGE ? LINE_ROUNDS : LINE_ROUNDS_LARGE;
    for (int round = 0; round < rounds; round++)
        for (int k = 0; k <= LMB_MEMLAT_LINE_NDIST; k++) {
            struct lmb_memlat m = { .size = ws, .layout = pair_layout,
                                    .layout_arg = k == 0 ? &zero : &LMB_MEMLAT_LINE_DIST[k - 1] };
            lmb_memlat_measure(ctx, &m, res);
            if (res->status != LMB_OK)
                return -1;
            if (lmb_result_min(res) < best[k])
                best[k] = lmb_result_min(res);
            lmb_result_free(res);
            memset(res, 0, sizeof *res);
        }
    for (int k = 0; k < LMB_MEMLAT_LINE_NDIST; k++)
        second_ns[k] = 2 * best[k + 1] - best[0];
    double lo = second_ns[0], hi = second_ns[0];
    for (int k = 1; k < LMB_MEMLAT_LINE_NDIST; k++)
        if (second_ns[k] > hi)
            hi = second_ns[k];
    if (!(lo > 0) || hi < 1.5 * lo)
        return 0;
    double mid = (lo + hi) / 2;
    for (int k = 1; k < LMB_MEMLAT_LINE_NDIST; k++)
        if (second_ns[k] >= mid) {
            for (int j = k; j < LMB_MEMLAT_LINE_NDIST; j++)
                if (second_ns[j] < mid)
                    return 0;
            return (int)LMB_MEMLAT_LINE_DIST[k];
        }
    return 0;
}

/* --- parallelism ------------------------------------------------------------------ */

int lmb_memlat_size_opt(struct lmb_ctx *ctx, char flag, uint64_t min, uint64_t max,
                        uint64_t multiple, uint64_t *out)
{
    char err[160], a[32], b[32];
    uint64_t v;

    if (!lmb_opt_given(ctx, flag))
        return 0;
    if (lmb_parse_size(lmb_opt_arg(ctx, flag), &v, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-%c: %s", flag, err);
    if (v < min || v > max || (multiple > 1 && v % multiple != 0)) {
        snprintf(a, sizeof a, "%llu", (unsigned long long)min);
        snprintf(b, sizeof b, "%llu", (unsigned long long)max);
        if (multiple > 1)
            return lmb_usage_error(ctx, "-%c: a multiple of %llu bytes from %s to %s", flag,
                                   (unsigned long long)multiple, a, b);
        return lmb_usage_error(ctx, "-%c: from %s to %s bytes", flag, a, b);
    }
    *out = v;
    return 0;
}

static double ratio(double a, double b, void *arg)
{
    (void)arg;
    return a / b;
}

static const unsigned par_chains[] = { 2, 4, 8, 12, 16 };

/* One attempt at a working set; returns true when every chain count came out
 * above what k chains can overlap (noise), res then FAILED saying so. */
static bool parallelism_once(struct lmb_ctx *ctx, size_t ws, size_t stride,
                             struct lmb_result *res, unsigned *chains)
{
    enum { NK = sizeof par_chains / sizeof par_chains[0] };
    struct lmb_memlat_shared sh;
    struct lmb_result one[2], many[NK];
    size_t nmany = 0;
    double best = -1;
    bool noisy = false;
    char err[LMB_REASON_LEN];

    memset(res, 0, sizeof *res);
    memset(one, 0, sizeof one);
    *chains = 1;
    /* Laying the chain of a large working set takes a while: not once the
     * command's --timeout has run out. */
    if (lmb_out_of_time(ctx, res))
        return false;
    /* The chain is laid once, here, and every measurement follows it. */
    if (lmb_memlat_share(&sh, ws, stride, 0, err, sizeof err) != 0) {
        lmb_result_set_status(res, LMB_FAILED, "%s", err);
        return false;
    }
    /* One chain before and after the others: the better of the two is set
     * against them, so that one disturbed measurement of the single chain
     * does not inflate every ratio. */
    lmb_memlat_measure_shared(ctx, &sh, &one[0]);
    for (size_t i = 0; one[0].status == LMB_OK && i < NK; i++) {
        sh.chains = par_chains[i];
        if (sh.chains > ws / stride)
            break;
        lmb_memlat_measure_shared(ctx, &sh, &many[nmany]);
        if (many[nmany].status != LMB_OK) {
            *res = many[nmany];
            break;
        }
        nmany++;
    }
    sh.chains = 1;
    if (one[0].status == LMB_OK && res->status == LMB_OK)
        lmb_memlat_measure_shared(ctx, &sh, &one[1]);
    lmb_memlat_unshare(&sh);
    if (one[0].status != LMB_OK || one[1].status != LMB_OK) {
        lmb_result_free(res);
        lmb_result_move(res, one[0].status != LMB_OK ? &one[0] : &one[1]);
    }
    if (res->status == LMB_OK) {
        struct lmb_result *o = lmb_result_sort_median(&one[1]) < lmb_result_sort_median(&one[0])
                                   ? &one[1]
                                   : &one[0];
        lmb_result_sort(o);
        for (size_t i = 0; i < nmany; i++) {
            struct lmb_result r;
            lmb_result_sort(&many[i]);
            lmb_result_derive(&r, o, &many[i], ratio, NULL);
            double med = lmb_result_sort_median(&r);
            /* k chains cannot overlap more than k loads: a ratio well above k
             * is noise (the single chain disturbed), not parallelism. */
            if (r.status == LMB_OK && med > 1.15 * par_chains[i]) {
                noisy = true;
                lmb_result_free(&r);
            } else if (r.status == LMB_OK && med > best) {
                best = med;
                *chains = par_chains[i];
                lmb_result_move(res, &r);
            } else {
                lmb_result_free(&r);
            }
        }
        if (best < 0)
            lmb_result_set_status(res, LMB_FAILED, "%s",
                                  noisy ? "too noisy: the chains overlapped more loads than "
                                          "there were chains" : "no measurement");
    }
    for (size_t i = 0; i < nmany; i++)
        lmb_result_free(&many[i]);
    lmb_result_free(&one[0]);
    lmb_result_free(&one[1]);
    return res->status == LMB_FAILED && noisy && best < 0;
}

/* The single chain's time can jump between repetitions on a shared machine (a
 * page walk, a neighbour's burst): a working set whose every ratio came out
 * above its chain count is measured again, up to three times in all, before it
 * is reported as too noisy. */
void lmb_memlat_parallelism(struct lmb_ctx *ctx, size_t ws, size_t stride,
                            struct lmb_result *res, unsigned *chains)
{
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt > 0)
            lmb_result_free(res);
        if (!parallelism_once(ctx, ws, stride, res, chains))
            return;
    }
}
