// SPDX-License-Identifier: MIT
/* For the reader fuzz targets (read_*.c): a file read from hostile input is
 * then used as `lmbench see` uses it (every cell of the summary page with its
 * marks and notes, the number format, the memory-latency summary), so that
 * summary.c and memlat.c meet what the readers let through. */
#ifndef LMB_FUZZ_SUMMARIZE_H
#define LMB_FUZZ_SUMMARIZE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/memlat.h"
#include "suite/results.h"
#include "suite/summary.h"

/* The page's cells are found by scans of the records (quadratic in their
 * count): a larger file is read, not summarized, so that each run stays fast. */
#define FUZZ_SUMMARY_MAX_RECS 100

static inline void fuzz_summarize(const struct lmb_rs_file *f)
{
    struct lmb_sum_opts o = { 0 };
    struct lmb_memlat m;
    char text[512], num[64];
    bool only;

    if (f->nrecs > FUZZ_SUMMARY_MAX_RECS)
        return;
    (void)lmb_sum_placement(&o, f, &only);
    lmb_sum_os(f, text, sizeof text);
    lmb_sum_platform(f, text, sizeof text);
    if (lmb_rs_context(f, "mitigations") != NULL)
        lmb_sum_mitigations(lmb_rs_context(f, "mitigations"), text, sizeof text);
    for (size_t t = 0; t < lmb_sum_ntables; t++)
        for (int c = 0; c < lmb_sum_tables[t].ncols; c++) {
            const struct lmb_sum_col *col = &lmb_sum_tables[t].cols[c];
            struct lmb_sum_cellx x;
            double v = lmb_sum_cell(&o, f, col, text, sizeof text);

            lmb_sum_cell_ex(&o, f, col, &x);
            lmb_sum_format(v, col->digits ? col->digits : col->width, num, sizeof num);
            lmb_sum_format(x.value, col->width, num, sizeof num);
        }
    for (size_t i = 0; i < f->nrecs; i++) {
        size_t launches;
        char d[512];

        (void)lmb_sum_spread(&f->recs[i], &launches);
        lmb_rs_describe(&f->recs[i], d, sizeof d);
        lmb_sum_size_text(f->recs[i].value, d, sizeof d);
    }
    lmb_memlat_summarize(f, &m);
}

/* data (not empty: fmemopen refuses a size of 0) as a stream that reads as a
 * file of those bytes would: fmemopen of a copy, freed by the caller. */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size, char **copy)
{
    FILE *fp;

    *copy = malloc(size);
    if (*copy == NULL)
        abort();
    memcpy(*copy, data, size);
    fp = fmemopen(*copy, size, "r");
    if (fp == NULL)
        abort();
    return fp;
}

/* One fuzz input through a reader (read(fp, f, err, errlen) == 0 when it read
 * the file), then, if it read, the summary page, as lmb_rs_load() and see
 * would; everything freed. The body of each read_*.c target. */
static inline int fuzz_read_and_summarize(const uint8_t *data, size_t size,
                                          int (*read)(FILE *fp, struct lmb_rs_file *f,
                                                      char *err, size_t errlen))
{
    struct lmb_rs_file f;
    char err[512], *copy;
    FILE *fp;

    if (size == 0)
        return 0;
    fp = fuzz_stream(data, size, &copy);
    memset(&f, 0, sizeof f);
    f.cpus_online = -1;
    if (read(fp, &f, err, sizeof err) == 0) {
        /* As lmb_rs_load() leaves it. */
        f.path = lmb_rs_strdup("fuzz");
        if (f.hostname == NULL)
            f.hostname = lmb_rs_strdup("unknown");
        fuzz_summarize(&f);
    }
    lmb_rs_free(&f);
    fclose(fp);
    free(copy);
    return 0;
}

#endif
