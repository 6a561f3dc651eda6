// SPDX-License-Identifier: MIT
/* The "Memory latencies" row of a results file: the latency of each cache level
 * found on a lat_mem_rd stride curve (src/lib/curve), main memory well past the
 * last level, the random chase's memory latency, and what was a guess. */
#ifndef LMB_SUITE_MEMLAT_H
#define LMB_SUITE_MEMLAT_H

#include <stddef.h>

#include "results.h"

#define LMB_MEMLAT_LEVELS 4

struct lmb_memlat {
    size_t nlevels;
    double level_ns[LMB_MEMLAT_LEVELS];
    double level_bytes[LMB_MEMLAT_LEVELS];
    double main_ns;          /* NAN when unknown */
    double rand_ns;          /* NAN when unknown */
    long stride;             /* the stride curve used, 0 none */
    char guesses[160];       /* short notes for the Guesses column; "" when none */
};

void lmb_memlat_summarize(const struct lmb_rs_file *f, struct lmb_memlat *m);

/* The points of one lat_mem_rd curve of f (case "stride" or "random", with the
 * given stride; stride 0: the one closest to 128 bytes), sorted by size, ok
 * records only. Returns the count (0 when there is no such curve); *sizes and
 * *ns are malloc'd. *stride_used receives the stride. */
size_t lmb_memlat_curve(const struct lmb_rs_file *f, const char *kind, long stride,
                        double **sizes, double **ns, long *stride_used);

#endif
