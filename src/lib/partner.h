// SPDX-License-Identifier: MIT
/* Small helpers for the two-ended benchmarks (the harness starts, places and
 * stops the partners; see struct lmb_timed in bench.h). */
#ifndef LMB_PARTNER_H
#define LMB_PARTNER_H

/* From a copy's timed loop when its partner's end is gone (end of file,
 * EPIPE): gives the harness a moment to report why (a partner that died is
 * noticed by its SIGCHLD, with the signal), then ends the measurement as
 * failed. Does not return. */
void lmb_partner_gone(const char *what) __attribute__((noreturn));

/* Ignore SIGPIPE in this process: a partner writing to a copy that has left
 * sees EPIPE instead of dying. */
void lmb_ignore_sigpipe(void);

#endif
