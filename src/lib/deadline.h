// SPDX-License-Identifier: MIT
/* The command's --timeout: one deadline for the whole command, and the
 * backstop that ends a command still running past it.
 *
 * `--timeout S` given on the command line bounds the command as a whole:
 * every measurement, calibration, sweep point and launch together. The
 * harness (command.c) sets ctx->opt.deadline_s = its start + S; lmb_measure
 * (benchmp.c) ends its copies at that deadline and starts no measurement once
 * it has passed (the record gets status timeout, "not measured: the
 * command's --timeout of S s had run out"). Without --timeout each
 * measurement alone is bounded, by LMB_DEFAULT_TIMEOUT_S. Earlier launches of --launches K get the same deadline
 * through LMB_DEADLINE_ENV (CLOCK_MONOTONIC is one clock for every process of
 * the machine), so the K launches share it.
 *
 * The backstop catches what still overruns (a wait outside lmb_measure): at
 * the deadline + LMB_BACKSTOP_GRACE_S, SIGALRM jumps back to the harness,
 * which reports a timeout record for what was not finished after the records
 * it has, prints the report and exits (children die with it: they have
 * PR_SET_PDEATHSIG, and the exit hook kills the tracked ones and removes the
 * temporary files). Should that itself not end within another
 * LMB_BACKSTOP_GRACE_S, the process cleans up as on SIGTERM and exits 1 at
 * once. A command given --timeout S therefore ends within S + 2 s at most,
 * and the removal of its temporary files (not cut short).
 */
#ifndef LMB_DEADLINE_H
#define LMB_DEADLINE_H

#include <setjmp.h>
#include <stdbool.h>

/* The deadline of the launching command, in CLOCK_MONOTONIC nanoseconds, for
 * its earlier launches. */
#define LMB_DEADLINE_ENV "LMBENCH_DEADLINE_NS"

#define LMB_BACKSTOP_GRACE_S 1.0

/* CLOCK_MONOTONIC now, in seconds (the clock of ctx->clock and of every
 * process of the machine). */
double lmb_mono_s(void);

/* The deadline LMB_DEADLINE_ENV holds, in seconds of lmb_mono_s; 0 when it is
 * unset or not a number. */
double lmb_deadline_inherited(void);

/* Sets LMB_DEADLINE_ENV to deadline_s (for the launches this process starts),
 * or unsets it when deadline_s is 0. 0, or -1 when the environment is full. */
int lmb_deadline_export(double deadline_s);

/* Arms the backstop: LMB_BACKSTOP_GRACE_S after deadline_s, SIGALRM jumps to
 * jb (sigsetjmp(jb, 1) returns 1 there); message (a static string) is what
 * the second stage writes on stderr before it exits 1. */
void lmb_backstop_arm(sigjmp_buf *jb, double deadline_s, const char *message);

/* Stops the first stage (the jump) from happening: call before the frame of
 * jb returns. The second stage stays armed when the first has fired. */
void lmb_backstop_leave(void);

/* Disarms the backstop altogether. */
void lmb_backstop_disarm(void);

#endif
