// SPDX-License-Identifier: MIT
/* The plain computations of lmbench scale (scale.h): a record's throughput at
 * a number of copies, the stopping rule, and the --copies lists. No I/O: the
 * verb (scale.c) and tests/unit/test_scale.c use them. */
#include "scale.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sizes.h"
#include "lib/text.h"

/* Seconds per unit of a latency, or 0 for a unit that is none. */
static double latency_unit_s(const char *unit)
{
    static const struct { const char *name; double s; } units[] = {
        { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 },
    };
    for (size_t i = 0; unit != NULL && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].name) == 0)
            return units[i].s;
    return 0;
}

int lmb_scale_throughput(const char *metric, const char *unit, unsigned copies, double value,
                         double lo, double hi, struct lmb_scale_point *p)
{
    double s;

    p->copies = copies;
    p->ok = false;
    p->efficiency = NAN;
    if (metric == NULL || unit == NULL || copies == 0 || !isfinite(value) || value <= 0)
        return -1;
    /* The interval always holds the headline (a "min" headline may lie
     * below the interval of the median). */
    if (!isfinite(lo) || lo <= 0 || lo > value)
        lo = value;
    if (!isfinite(hi) || hi < value)
        hi = value;
    if (strcmp(metric, "bandwidth") == 0 && strcmp(unit, "MB/s") == 0) {
        p->thr = value;
        p->thr_lo = lo;
        p->thr_hi = hi;
    } else if (strcmp(metric, "latency") == 0 && (s = latency_unit_s(unit)) > 0) {
        p->thr = copies / (value * s);
        p->thr_lo = copies / (hi * s);
        p->thr_hi = copies / (lo * s);
    } else {
        return -1;
    }
    p->ok = true;
    return 0;
}

int lmb_scale_stop(struct lmb_scale_point *p, size_t n, double min_eff, char *why, size_t len)
{
    size_t base = n, prev = n;
    int stop = -1;

    for (size_t i = 0; i < n; i++) {
        p[i].efficiency = NAN;
        if (p[i].ok && base == n)
            base = i;
    }
    if (base == n) {
        snprintf(why, len, "no point was measured");
        return -1;
    }
    double per_copy_base = p[base].thr / p[base].copies;
    size_t measured = 0;
    for (size_t i = base; i < n; i++) {
        if (!p[i].ok)
            continue;
        measured++;
        p[i].efficiency = (p[i].thr / p[i].copies) / per_copy_base;
        if (stop < 0 && prev != n) {
            if (p[i].thr_lo <= p[prev].thr_hi) {
                snprintf(why, len, "its throughput is not above -P %u's beyond their intervals",
                         p[prev].copies);
                stop = (int)i;
            } else if (p[i].efficiency < min_eff) {
                snprintf(why, len, "its efficiency %.2f is under %.2f", p[i].efficiency, min_eff);
                stop = (int)i;
            }
        }
        prev = i;
    }
    if (stop < 0 && measured < 2)
        snprintf(why, len, "one point measured: nothing to compare it with");
    else if (stop < 0)
        snprintf(why, len, "it scales to the last point, -P %u", p[prev].copies);
    return stop;
}

static int by_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

int lmb_scale_parse_copies(const char *s, unsigned max, unsigned *out, char *err, size_t errlen)
{
    int n = 0, k = 0;
    char q[LMB_QUOTE_BUF];

    if (s == NULL || *s == '\0') {
        snprintf(err, errlen, "--copies needs a list of counts, e.g. 1,2,4");
        return -1;
    }
    for (const char *p = s;;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        char item[32], why[128];
        uint64_t v;

        if (l == 0 || l >= sizeof item) {
            snprintf(err, errlen, "bad --copies '%s': %s", lmb_quote(s, q, sizeof q),
                     l == 0 ? "an empty entry" : "an entry too long");
            return -1;
        }
        memcpy(item, p, l);
        item[l] = '\0';
        if (lmb_parse_uint(item, 1, max, &v, why, sizeof why) != 0) {
            snprintf(err, errlen, "bad --copies '%s': %s", lmb_quote(s, q, sizeof q), why);
            return -1;
        }
        if (n == LMB_SCALE_MAX_POINTS) {
            snprintf(err, errlen, "bad --copies '%s': more than %d counts",
                     lmb_quote(s, q, sizeof q), LMB_SCALE_MAX_POINTS);
            return -1;
        }
        out[n++] = (unsigned)v;
        if (end == NULL)
            break;
        p = end + 1;
    }
    qsort(out, (size_t)n, sizeof *out, by_unsigned);
    for (int i = 0; i < n; i++)
        if (k == 0 || out[i] != out[k - 1])
            out[k++] = out[i];
    return k;
}

int lmb_scale_default_copies(unsigned ncpus, unsigned *out)
{
    int n = 0;

    if (ncpus < 1)
        ncpus = 1;
    for (unsigned c = 1; c <= ncpus && n < LMB_SCALE_MAX_POINTS - 1; c *= 2)
        out[n++] = c;
    if (out[n - 1] != ncpus)
        out[n++] = ncpus;
    return n;
}
