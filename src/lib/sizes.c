// SPDX-License-Identifier: MIT
/* Strict parsers for sizes, counts, seconds and CPU lists. */
#include "lib/sizes.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/text.h"

/* Reads an unsigned decimal number at *p without strtoul's leniency (no sign, no
 * leading space, no hex). Advances *p. Returns -1 on overflow or when no digit. */
static int read_digits(const char **p, uint64_t *v)
{
    const char *s = *p;
    uint64_t acc = 0;

    if (!isdigit((unsigned char)*s))
        return -1;
    while (isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s - '0');
        if (acc > (UINT64_MAX - d) / 10)
            return -2;
        acc = acc * 10 + d;
        s++;
    }
    *p = s;
    *v = acc;
    return 0;
}

int lmb_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
    const char *p = s;
    uint64_t v, mult = 1;
    char q[LMB_QUOTE_BUF];
    int rc;

    if (s == NULL || *s == '\0') {
        snprintf(err, errlen, "empty size");
        return -1;
    }
    rc = read_digits(&p, &v);
    if (rc == -2) {
        snprintf(err, errlen, "size '%s' is too large", lmb_quote(s, q, sizeof q));
        return -1;
    }
    if (rc < 0) {
        snprintf(err, errlen, "bad size '%s' (expected e.g. 512, 64k, 8m, 1g)",
                 lmb_quote(s, q, sizeof q));
        return -1;
    }
    switch (*p) {
    case '\0': break;
    case 'k': case 'K': mult = 1ULL << 10; p++; break;
    case 'm': case 'M': mult = 1ULL << 20; p++; break;
    case 'g': case 'G': mult = 1ULL << 30; p++; break;
    case 't': case 'T': mult = 1ULL << 40; p++; break;
    default:
        snprintf(err, errlen, "bad size '%s' (expected e.g. 512, 64k, 8m, 1g)",
                 lmb_quote(s, q, sizeof q));
        return -1;
    }
    if (*p != '\0') {
        snprintf(err, errlen, "bad size '%s' (expected e.g. 512, 64k, 8m, 1g)",
                 lmb_quote(s, q, sizeof q));
        return -1;
    }
    if (v > UINT64_MAX / mult) {
        snprintf(err, errlen, "size '%s' is too large", lmb_quote(s, q, sizeof q));
        return -1;
    }
    *out = v * mult;
    return 0;
}

int lmb_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                   char *err, size_t errlen)
{
    const char *p = s;
    uint64_t v;
    char q[LMB_QUOTE_BUF];

    if (s == NULL || *s == '\0') {
        snprintf(err, errlen, "empty number");
        return -1;
    }
    if (read_digits(&p, &v) != 0 || *p != '\0') {
        snprintf(err, errlen, "'%s' is not a whole number", lmb_quote(s, q, sizeof q));
        return -1;
    }
    if (v < min || v > max) {
        snprintf(err, errlen, "%s is out of range (%llu to %llu)", lmb_quote(s, q, sizeof q),
                 (unsigned long long)min, (unsigned long long)max);
        return -1;
    }
    *out = v;
    return 0;
}

int lmb_parse_nonneg_double(const char *s, double *out, char *err, size_t errlen)
{
    const char *p = s;
    int digits = 0;
    char *end, q[LMB_QUOTE_BUF];
    double v;

    if (s == NULL || *s == '\0') {
        snprintf(err, errlen, "empty number");
        return -1;
    }
    /* Only [0-9]+(.[0-9]*)? or .[0-9]+ : no sign, exponent, hex, inf or nan. */
    while (isdigit((unsigned char)*p)) { p++; digits++; }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) { p++; digits++; }
    }
    if (*p != '\0' || digits == 0) {
        snprintf(err, errlen, "'%s' is not a non-negative number", lmb_quote(s, q, sizeof q));
        return -1;
    }
    errno = 0;
    v = strtod(s, &end);     /* the program never changes LC_NUMERIC from "C" */
    if (errno != 0 || *end != '\0' || !isfinite(v)) {
        snprintf(err, errlen, "'%s' is not a usable number", lmb_quote(s, q, sizeof q));
        return -1;
    }
    *out = v;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int lmb_parse_cpulist(const char *s, int *cpus, int max, int *n, char *err, size_t errlen)
{
    const char *p = s;
    int count = 0;
    bool want_element = true;     /* at the start, and after a comma */
    uint64_t seen[65536 / 64];    /* CPUs already listed: max bounds distinct CPUs */
    char q[LMB_QUOTE_BUF];

    memset(seen, 0, sizeof seen);
    if (s == NULL) {
        snprintf(err, errlen, "empty CPU list");
        return -1;
    }
    /* Elements are separated by commas or spaces; a comma with nothing on one
     * side ("0,,1", ",1", "1,") is a mistake, not an empty element to skip. */
    for (;;) {
        uint64_t lo, hi;
        while (*p == ' ')
            p++;
        if (*p == '\0') {
            if (want_element && count > 0) {
                snprintf(err, errlen, "CPU list '%s' ends with a comma", lmb_quote(s, q, sizeof q));
                return -1;
            }
            break;
        }
        if (*p == ',') {
            snprintf(err, errlen, "empty element in CPU list '%s'", lmb_quote(s, q, sizeof q));
            return -1;
        }
        if (read_digits(&p, &lo) != 0 || lo > 65535) {
            snprintf(err, errlen, "bad CPU list '%s' (expected e.g. 0,2-3)",
                     lmb_quote(s, q, sizeof q));
            return -1;
        }
        hi = lo;
        if (*p == '-') {
            p++;
            if (read_digits(&p, &hi) != 0 || hi > 65535 || hi < lo) {
                snprintf(err, errlen, "bad CPU range in '%s'", lmb_quote(s, q, sizeof q));
                return -1;
            }
        }
        while (*p == ' ')
            p++;
        want_element = false;
        if (*p == ',') {
            p++;
            want_element = true;
        } else if (*p != '\0' && !isdigit((unsigned char)*p)) {
            snprintf(err, errlen, "bad CPU list '%s' (expected e.g. 0,2-3)",
                     lmb_quote(s, q, sizeof q));
            return -1;
        }
        for (uint64_t c = lo; c <= hi; c++) {
            if (seen[c / 64] & (1ULL << (c % 64)))
                continue;
            seen[c / 64] |= 1ULL << (c % 64);
            if (count >= max) {
                snprintf(err, errlen, "CPU list '%s' is too long", lmb_quote(s, q, sizeof q));
                return -1;
            }
            cpus[count++] = (int)c;
        }
    }
    if (count == 0) {
        snprintf(err, errlen, "empty CPU list");
        return -1;
    }
    qsort(cpus, (size_t)count, sizeof cpus[0], cmp_int);
    *n = count;
    return 0;
}
