// SPDX-License-Identifier: MIT
/* A ring of processes passing a token through pipes (lat_ctx), and the
 * arithmetic that turns its hop times into context switch times. */
#ifndef LMB_RING_H
#define LMB_RING_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/report.h"

/* n processes, numbered 0 (the copy) to n-1; pipe k leads into process k.
 * Process k reads from pipe k and writes into pipe (k+1) % n. */
struct lmb_ring {
    unsigned n;
    int (*pipes)[2];
};

/* Makes the n pipes. Returns 0, or -1 with a message. */
int lmb_ring_open(struct lmb_ring *r, unsigned n, char *err, size_t errlen);

/* In process k, when the ring's processes are separate: closes every end that
 * k does not use, so that each process sees end of file when the one before it
 * leaves. */
void lmb_ring_keep(struct lmb_ring *r, unsigned k);

/* Process k receives the token: 0, 1 at end of file (the ring is closing), -1
 * on an error (errno set). */
int lmb_ring_recv(const struct lmb_ring *r, unsigned k, int *token);

/* Process k passes the token on: 0, or -1 on an error (EPIPE: the next has gone). */
int lmb_ring_send(const struct lmb_ring *r, unsigned k, int token);

/* Closes the two ends process k uses (when the ring's members are threads
 * sharing one descriptor table, each closes its own as it leaves, so that the
 * next sees end of file). */
void lmb_ring_leave(struct lmb_ring *r, unsigned k);

/* Closes whatever ends this process still has, and frees the ring. */
void lmb_ring_close(struct lmb_ring *r);

/* Context switches from hop times. hop holds a ring measurement's samples, in
 * nanoseconds per hop (a hop: receive the token, touch the data, pass it on, and
 * the switch to the next process); ovr_ns is the time of the same work in one
 * process, without a switch (lat_ctx passes lmb_baseline_low of its overhead
 * samples, the least disturbed). Each sample becomes hop - ovr_ns, the time of
 * the switch alone. An ok result whose differences are not all positive
 * becomes below_resolution, with both figures in the reason: the switch is not
 * measurably longer than the work around it (lmb_result_subtract). */
void lmb_ring_subtract(struct lmb_result *hop, double ovr_ns);

/* The median of a result's samples (nanoseconds), or -1 when it has none or
 * is not ok. */
double lmb_result_median(const struct lmb_result *r);

#endif
