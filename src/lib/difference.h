// SPDX-License-Identifier: MIT
/* Figures that are differences of two measurements: lat_ctx's hop minus the
 * same work without a switch, lat_sig's kill() and handler minus kill() alone.
 * The part taken away is estimated low and robustly (noise only adds time, so
 * one disturbed sample of it must not shrink every difference), and a
 * difference that is not positive gets a status with both figures, never a
 * negative or missing value. */
#ifndef LMB_DIFFERENCE_H
#define LMB_DIFFERENCE_H

#include "lib/result.h"

/* The name of the estimate lmb_baseline_low makes, for records and man pages. */
#define LMB_BASELINE_ESTIMATE "min"

/* A robust low estimate of a baseline measurement, in its samples' unit (ns):
 * the smallest sample, the least disturbed one. -1 when the result is not ok
 * or has no samples. */
double lmb_baseline_low(const struct lmb_result *base);

/* Each sample of r becomes r - base_ns. When r is ok but its shortest sample is
 * not longer than base_ns, r becomes below_resolution with the reason
 * "<what> took M us (median; S us the shortest sample) and <base_what> B us:
 * <tail>". A result that is not ok is left as it is. */
void lmb_result_subtract(struct lmb_result *r, double base_ns, const char *what,
                         const char *base_what, const char *tail);

#endif
