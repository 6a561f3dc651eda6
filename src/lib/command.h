// SPDX-License-Identifier: MIT
/* Running a benchmark command: its options (one table of common options plus
 * the descriptor's own), usage and help generated from them, the set-up of
 * clock, placement and report, and the exit status. */
#ifndef LMB_COMMAND_H
#define LMB_COMMAND_H

#include <stdio.h>

#include "lib/bench.h"

/* Runs benchmark b as `prog argv[1..]` (argv[0] is the name it was called by),
 * writing to the given streams. Returns the exit status; a stream that could
 * not be written makes it 1. */
int lmb_command_run(const struct lmb_bench *b, const char *prog, int argc, char **argv,
                    const struct lmb_streams *io);

/* The same on the command line's streams: classic lines on stderr (stdout for
 * commands that print there), the JSON document of --json on stdout, messages
 * on stderr. */
int lmb_command_main(const struct lmb_bench *b, const char *prog, int argc, char **argv);

/* The environment every command reads (ENOUGH, LMBENCH_SCHED), checked once:
 * 0, or -1 with a message naming the variable. */
int lmb_env_check(char *err, size_t errlen);

void lmb_print_usage(FILE *f, const struct lmb_bench *b, const char *prog);
void lmb_print_help(FILE *f, const struct lmb_bench *b, const char *prog);
void lmb_print_variants(FILE *f, const struct lmb_bench *b);

/* The width that help text keeps within. */
#define LMB_HELP_WIDTH 80
/* Prints text and a newline, the cursor at column col (what the line already
 * holds), breaking between words so that no line passes LMB_HELP_WIDTH
 * (a word longer than a line stays whole); each further line starts with
 * indent spaces. A newline in text starts a new line, indented the same. */
void lmb_print_wrapped(FILE *f, size_t col, size_t indent, const char *text);

/* Makes file descriptors 0, 1 and 2 safe to rely on: one that is closed is
 * reopened read-only on /dev/null, so that nothing the program opens later
 * takes its place, and a write to a closed stdout or stderr fails (EBADF) and is
 * reported instead of landing in a file or vanishing. Call first in main. */
void lmb_guard_std_fds(void);

/* Flushes stdout and stderr at the end of main, for the exit status rc so far:
 * rc when everything written arrived (or rc already says failure), else a
 * message (when stderr still works) and 1. */
int lmb_finish_std_streams(const char *prog, int rc);

#endif
