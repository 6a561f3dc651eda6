// SPDX-License-Identifier: MIT
/* Reading a latency-versus-working-set curve: where the cache levels are, how
 * big and how fast each is, where memory starts, and how that compares with the
 * caches the system declares.
 *
 * The analysis knows nothing of how the points were measured: it takes two
 * arrays, the working-set sizes in bytes (strictly increasing) and the latency
 * in nanoseconds at each. lat_mem_rd's curves, the `cache` command's sweep and a
 * results file read back by `lmbench see` all go through it.
 *
 *     struct lmb_curve c;
 *     if (lmb_curve_analyze(sizes, ns, n, &c) == 0) {
 *         lmb_curve_compare(&c, host.caches, host.ncaches);   // optional
 *         for (size_t i = 0; i < c.nlevels; i++)
 *             printf("L%zu %.0f bytes %.2f ns\n", i + 1, c.levels[i].size_bytes,
 *                    c.levels[i].latency_ns);
 *         if (c.memory.found)
 *             printf("memory %.2f ns\n", c.memory.latency_ns);
 *         for (size_t i = 0; i < c.nnotes; i++)
 *             puts(c.notes[i]);
 *     }
 *
 * How it reads the curve (latency on a log scale, size in octaves):
 *  - The noise is the median step between neighbouring points; each point is
 *    then replaced by the median of itself and its two neighbours, so that one
 *    disturbed point neither breaks a plateau nor makes one.
 *  - At each point the local slope is fitted over +-3/8 of an octave. A point
 *    lies on a plateau when that slope is under 0.35 per octave (latency rising
 *    by less than 42% per doubling), plus what the noise alone could cause.
 *  - A plateau is a run of such points, at least LMB_CURVE_MIN_POINTS long and
 *    spanning at least LMB_CURVE_MIN_SPAN in size; its latency is the median of
 *    its points. Neighbouring plateaus less than LMB_CURVE_MERGE_RATIO apart in
 *    latency are one level (a slow drift, such as TLB misses adding up, is not
 *    a new cache).
 *  - Memory is the first plateau at least LMB_CURVE_MEMORY_NS slow (or, when no
 *    plateau is, the first point after the last cache that slow); everything
 *    after it is memory too. Its latency is the median of the points at least 4
 *    times past the last cache level (of all its points when the curve does not
 *    go that far: a note says so).
 *  - A cache level's size is the largest working set whose latency is still
 *    below the geometric mean of its own latency and the next level's: the
 *    largest working set this level still serves for the most part. Except
 *    on a shoulder: when latency climbs past 3 times the level's own over
 *    more than a doubling of sizes before that mean, a level the curve does
 *    not show as a plateau lies there; the size ends where the climb starts,
 *    and a note says so.
 * Whatever does not fit this picture (a curve that ends while rising, latency
 * that falls, a noisy curve, no memory plateau) is said in a note.
 */
#ifndef LMB_CURVE_H
#define LMB_CURVE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/sysinfo.h"

#define LMB_CURVE_MAX_LEVELS 8
#define LMB_CURVE_MAX_NOTES 12
#define LMB_CURVE_NOTE_LEN 240

/* Points a plateau needs, and how much its sizes must span (last / first). */
#define LMB_CURVE_MIN_POINTS 3
#define LMB_CURVE_MIN_SPAN 1.5
/* Plateaus closer than this in latency (ratio) are one level. */
#define LMB_CURVE_MERGE_RATIO 1.3
/* Past this times a level's own latency, a climb of more than a doubling in
 * size before the geometric mean with the next level is a hidden level (a
 * shoulder), not this one. */
#define LMB_CURVE_SIZE_RISE 3.0
/* The slowest a cache is taken to be: a plateau this slow or slower is memory. */
#define LMB_CURVE_MEMORY_NS 40.0

/* One cache level, as measured. */
struct lmb_curve_level {
    double size_bytes;     /* capacity estimate (a size of the curve; see above) */
    double latency_ns;     /* median latency over the plateau */
    double plateau_from;   /* first and last working-set size of the plateau */
    double plateau_to;
    size_t first, last;    /* indices of those points */
    bool open_ended;       /* the curve ends on this plateau (no slower level after
                              it, and not slow enough to be memory): size_bytes is
                              only a lower bound */
};

struct lmb_curve_memory {
    bool found;            /* a memory region was seen */
    double latency_ns;     /* its latency (see above); 0 when not found */
    double from_bytes;     /* first working-set size of the memory region */
    double to_bytes;       /* largest working-set size of the curve */
    double past_cache;     /* to_bytes / the last cache level's size (0 if no level) */
    bool rising;           /* latency keeps rising through the memory region by more
                              than the tolerance (TLB misses, typically) */
};

/* How one cache the system declares compares with the measured levels. */
enum lmb_curve_verdict {
    LMB_CURVE_AGREES,        /* a measured level within a factor of 2 in size */
    LMB_CURVE_DIFFERS,       /* matched to a measured level, sizes more than 2x apart */
    LMB_CURVE_UNREACHABLE,   /* memory latency begins well below the declared size */
    LMB_CURVE_BEYOND_SWEEP,  /* the curve stops before it could show this cache */
    LMB_CURVE_NOT_SEEN,      /* no measured level matches it (same latency as a
                                neighbour, or hidden by noise) */
};

struct lmb_curve_declared {
    int level;               /* as declared */
    double size_bytes;       /* as declared */
    int line;                /* as declared; 0 unknown */
    int measured;            /* index into levels[], or -1 */
    double ratio;            /* measured size / declared size; 0 when not matched */
    enum lmb_curve_verdict verdict;
};

struct lmb_curve {
    size_t npoints;
    double min_bytes, max_bytes;   /* the smallest and largest working set */
    double noise;            /* estimated relative noise of one point */
    double tolerance;        /* log-scale rise through the memory region taken as
                                "rising": 4 times the noise, 0.06 to 0.25 */
    size_t nlevels;
    struct lmb_curve_level levels[LMB_CURVE_MAX_LEVELS];
    struct lmb_curve_memory memory;
    size_t ndeclared;        /* filled by lmb_curve_compare */
    struct lmb_curve_declared declared[LMB_CURVE_MAX_LEVELS];
    size_t nnotes;
    char notes[LMB_CURVE_MAX_NOTES][LMB_CURVE_NOTE_LEN];
};

/* Analyses the curve of n points: size_bytes[] strictly increasing and positive,
 * ns[] finite and positive. Returns 0, or -1 when the input breaks those rules
 * (or n is 0, or memory is short) with out->nnotes = 1 and the reason in
 * out->notes[0]. */
int lmb_curve_analyze(const double *size_bytes, const double *ns, size_t n,
                      struct lmb_curve *out);

/* Compares the analysed curve with the caches the system declares (sysfs, as
 * lmb_host_probe reads them; instruction caches are ignored), fills
 * c->declared[] and adds a note for every declared cache that does not agree. */
void lmb_curve_compare(struct lmb_curve *c, const struct lmb_cache_info *caches, int ncaches);

/* "agrees", "differs", "unreachable", "beyond the sweep", "not seen". */
const char *lmb_curve_verdict_name(enum lmb_curve_verdict v);

/* Formats a byte count for notes and reports: "48 KiB", "1 MiB", "1.5 MiB",
 * "512 B". */
void lmb_curve_format_size(double bytes, char *buf, size_t len);

#endif
