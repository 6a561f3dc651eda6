// SPDX-License-Identifier: MIT
/* Differences of two measurements: a low estimate of the part taken away, and
 * the samples minus it with a status when nothing positive is left. */
#include "lib/difference.h"

#include <math.h>

#include "lib/stats.h"

double lmb_baseline_low(const struct lmb_result *base)
{
    double low = INFINITY;

    if (base->status != LMB_OK || base->n == 0 || base->samples == NULL)
        return -1;
    for (size_t i = 0; i < base->n; i++)
        if (base->samples[i] < low)
            low = base->samples[i];
    return isfinite(low) ? low : -1;
}

void lmb_result_subtract(struct lmb_result *r, double base_ns, const char *what,
                         const char *base_what, const char *tail)
{
    struct lmb_stats s;
    double median, shortest = INFINITY;

    if (r->status != LMB_OK || r->n == 0)
        return;
    median = lmb_stats_compute(r->samples, r->n, &s) == 0 ? s.median : NAN;
    for (size_t i = 0; i < r->n; i++) {
        if (r->samples[i] < shortest)
            shortest = r->samples[i];
        r->samples[i] -= base_ns;
    }
    if (!(shortest - base_ns > 0))
        lmb_result_set_status(r, LMB_BELOW_RESOLUTION,
                              "%s took %.3f us (median; %.3f us the shortest sample) and %s "
                              "%.3f us: %s",
                              what, median / 1e3, shortest / 1e3, base_what, base_ns / 1e3, tail);
}
