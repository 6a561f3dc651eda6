// SPDX-License-Identifier: MIT
/* lmbench run's progress line, its parts that are plain computations (unit
 * tested in tests/unit/test_eta.c): the time a run has left, from the plan's
 * estimates corrected by what the steps done so far took; that time as people
 * read it; and a text cut to a width at a word boundary. */
#ifndef LMB_SUITE_PROGRESS_H
#define LMB_SUITE_PROGRESS_H

#include <stddef.h>

/* The share of the plan's estimate that counts as if it had taken as long as
 * estimated: the first steps' ratio of actual to estimated time moves the
 * ETA only partly (the first step of a run, mhz, is the noisiest); once a
 * tenth of the plan is done, the ratio measured weighs as much as the plan. */
#define LMB_ETA_PRIOR_SHARE 0.1

/* The seconds a run has left: the estimate of the steps not done yet
 * (est_total - est_done), times the ratio of the time the steps done so far
 * took (time_done) to their estimate (est_done), that ratio pulled towards 1
 * by LMB_ETA_PRIOR_SHARE of est_total (at least a second) taken as estimated
 * (nothing done yet: the plan's estimate itself). Never below 0; 0 when
 * nothing is left. */
double lmb_eta_left(double est_total, double est_done, double time_done);

/* s seconds as "45s", "2m27s" or "1h05m" into buf (rounded to the second). */
const char *lmb_eta_format(double s, char *buf, size_t len);

/* s into out, whole when it fits in width columns (one column a character:
 * UTF-8 continuation bytes take none); else cut at the last blank before the
 * width, with "..." after the words kept, so that no word is cut (a single
 * word longer than the width is cut, with "..."). Returns out. */
char *lmb_fit_words(const char *s, size_t width, char *out, size_t len);

#endif
