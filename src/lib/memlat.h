// SPDX-License-Identifier: MIT
/* One memory-latency measurement, as line, tlb, cache, par_mem and
 * lat_dram_page take many of them: a buffer mapped in each copy, a pointer
 * chain laid through it (src/lib/chase.h), the chain followed in the timed
 * loop. The result is nanoseconds per load. */
#ifndef LMB_MEMLAT_H
#define LMB_MEMLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/chase.h"
#include "lib/sysinfo.h"

struct lmb_ctx;
struct lmb_result;

struct lmb_memlat {
    size_t size;                   /* bytes the chain runs through */
    size_t stride;                 /* distance between elements */
    enum lmb_chase_order order;
    size_t window;                 /* LMB_CHASE_WINDOW: the window */
    unsigned chains;               /* chains followed at once (1 to LMB_CHASE_MAX_CHAINS) */
    bool huge;                     /* map the buffer on transparent huge pages, or fail */
    /* A chain of another shape: called in each copy instead of the order above,
     * it links elements of base[0..size) with lmb_chase_link. One chain. */
    int (*layout)(char *base, size_t size, const void *arg, struct lmb_chase *c, char *err,
                  size_t errlen);
    const void *layout_arg;
    /* In the copy. */
    char *map;
    size_t maplen;
    struct lmb_chase chase;
};

/* Maps size bytes, touched (lmb_pages_alloc_kind): on normal pages, or on huge
 * pages, failing unless the kernel backed all of it with them. Notes the
 * backing as the record's parameters (lmb_pages_note). Returns the start of
 * the buffer; *map and *maplen are what to give lmb_pages_free. NULL with a
 * message in err on failure. */
char *lmb_memlat_map(size_t size, bool huge, char **map, size_t *maplen, char *err,
                     size_t errlen);

/* Measures: each copy maps m->size bytes (touched, so that no page fault is
 * timed), lays the chain, and the harness times the chain loop (for one chain
 * in LMB_CHASE_BACKWARD order, lmb_chase_walk: one load instruction). The samples
 * are nanoseconds per load: with k chains, the time of one step of all k
 * divided by k. */
void lmb_memlat_measure(struct lmb_ctx *ctx, struct lmb_memlat *m, struct lmb_result *res);

/* A chain laid once in this process and followed by several measurements
 * (different numbers of chains on the same cycle): each copy inherits it, the
 * pages shared and only read, so it is not laid again for each measurement. */
struct lmb_memlat_shared {
    size_t size, stride;
    char *base, *map;
    size_t maplen;
    uint32_t *order;          /* the visit order, for lmb_chase_restart */
    struct lmb_chase chase;   /* in the copy: where its chains start and are */
    unsigned chains;          /* chains of the next measurement */
};

/* Maps and lays the chain (page order when window > 0, else random). Returns 0,
 * or -1 with a message. */
int lmb_memlat_share(struct lmb_memlat_shared *s, size_t size, size_t stride, size_t window,
                     char *err, size_t errlen);
/* One measurement of s->chains chains through it; samples in ns per load. */
void lmb_memlat_measure_shared(struct lmb_ctx *ctx, struct lmb_memlat_shared *s,
                               struct lmb_result *res);
void lmb_memlat_unshare(struct lmb_memlat_shared *s);

/* The line size, measured in a working set of ws bytes: chains through
 * 512-byte blocks in random order, two loads a block (at offset d, then at 0)
 * for d = 8 ... 256, and one load a block, all of them five times over (twice
 * in working sets over 4 MiB),
 * interleaved, each chain's time the best of its rounds. The second load's
 * time (twice the pair's average less the single load) steps from a hit to a
 * miss at d = the line size. Returns it, 0 when there is no clear step (a step of at least 1.5
 * times, staying up), or -1 when a measurement did not succeed (*res then
 * holds that result; else *res is empty). second_ns[i] gets the second load's
 * time at LMB_MEMLAT_LINE_DIST[i]. */
#define LMB_MEMLAT_LINE_NDIST 6
extern const size_t LMB_MEMLAT_LINE_DIST[LMB_MEMLAT_LINE_NDIST];
int lmb_memlat_line(struct lmb_ctx *ctx, size_t ws, struct lmb_result *res,
                    double second_ns[LMB_MEMLAT_LINE_NDIST]);

/* Memory-level parallelism in a working set of ws bytes, random chains
 * (elements `stride` apart; in page order prefetchers inside the page would
 * speed up the single chain and hide the overlap): one chain against 2, 4, 8,
 * 12 and 16 chains at once. *res gets, for the chain count whose median is highest (*chains),
 * the ratios of the time per load, the samples of both sorted and paired by
 * rank; or the failure. A median above 1.15 times the chain count is noise
 * (k chains cannot overlap more than k loads) and is not taken; when every
 * count is, the result is failed. */
void lmb_memlat_parallelism(struct lmb_ctx *ctx, size_t ws, size_t stride,
                            struct lmb_result *res, unsigned *chains);

/* Reads the size option -flag (-L, -M ...) when it was given: a size such as
 * 64k, at least min, at most max, a multiple of `multiple`. Returns 0 (*out
 * set, or untouched without the option), or the exit status of the usage
 * error it printed: `if ((rc = lmb_memlat_size_opt(...)) != 0) return rc;` */
int lmb_memlat_size_opt(struct lmb_ctx *ctx, char flag, uint64_t min, uint64_t max,
                        uint64_t multiple, uint64_t *out);

/* The largest data or unified cache the system declares, in bytes (0 when it
 * declares none): sysfs, else what the C library reads from the processor
 * (sysconf). `where` (may be NULL) gets "sysfs", "sysconf" or "none". */
size_t lmb_memlat_largest_cache(const char **where);

/* The caches the system declares: sysfs as lmb_host_probe reads it, else the
 * C library's sysconf values (from CPUID on x86), instruction caches left out.
 * Returns how many (at most max) and sets *where as above. */
int lmb_memlat_declared(struct lmb_cache_info *out, int max, const char **where);

#endif
