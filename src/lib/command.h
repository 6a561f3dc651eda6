// SPDX-License-Identifier: MIT
/* Running a benchmark command, and the help generated from its descriptor. */
#ifndef LMB_COMMAND_H
#define LMB_COMMAND_H

#include <stdio.h>

#include "lib/bench.h"

/* Runs benchmark b as `prog argv[1..]` (argv[0] is the name it was called by).
 * Returns the exit status. */
int lmb_command_main(const struct lmb_bench *b, const char *prog, int argc, char **argv);

void lmb_print_usage(FILE *f, const struct lmb_bench *b, const char *prog);
void lmb_print_help(FILE *f, const struct lmb_bench *b, const char *prog);
void lmb_print_variants(FILE *f, const struct lmb_bench *b);

#endif
