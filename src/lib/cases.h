// SPDX-License-Identifier: MIT
/* Commands whose optional operand picks one case of their variant table, and
 * whose case, not --threads, says whether the partner is a thread or a
 * process (lat_futex, lat_eventfd, lat_pthread). */
#ifndef LMB_CASES_H
#define LMB_CASES_H

#include <stdbool.h>

#include "lib/bench.h"

/* With no operand, calls measure(ctx, v) for every variant of the command, in
 * table order; with one, for the variant it names. A second operand or an
 * unknown name is a usage error ("unknown case 'x' (<choices>)"). Returns
 * LMB_EXIT_OK or the usage error's status. */
int lmb_each_case(struct lmb_ctx *ctx, int argc, char **argv, const char *choices,
                  void (*measure)(struct lmb_ctx *ctx, const struct lmb_variant *v));

/* lmb_measure with the partners as threads of the copy (threads) or as
 * processes, whatever --threads said; the record then tells which, as for
 * --threads (placement.partners.kind). */
void lmb_measure_partner_kind(struct lmb_ctx *ctx, const struct lmb_timed *t, bool threads,
                              struct lmb_result *res);

#endif
