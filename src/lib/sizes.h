// SPDX-License-Identifier: MIT
/* Strict parsing of sizes, counts, durations and CPU lists given on the command line. */
#ifndef LMB_SIZES_H
#define LMB_SIZES_H

#include <stddef.h>
#include <stdint.h>

/* "512", "64k", "8m", "1g", "2t" (binary multiples; upper case accepted). Rejects
 * empty strings, signs, fractions, repeated or unknown suffixes, trailing junk and
 * values that do not fit in 64 bits. Returns 0, or -1 with a message in err. */
int lmb_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);

/* A plain unsigned decimal integer in [min, max]. */
int lmb_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                   char *err, size_t errlen);

/* A finite non-negative decimal number (e.g. seconds: "2", "0.5"). */
int lmb_parse_nonneg_double(const char *s, double *out, char *err, size_t errlen);

/* A CPU list "0,2-3,7" (also space separated). Fills cpus[] (sorted, unique) up to
 * max entries; *n receives the count. */
int lmb_parse_cpulist(const char *s, int *cpus, int max, int *n, char *err, size_t errlen);

#endif
