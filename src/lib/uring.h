// SPDX-License-Identifier: MIT
/* uring: a minimal io_uring of our own for lat_io_uring, through the raw system
 * calls (io_uring_setup, io_uring_enter) and mmap of the rings; no liburing.
 * One request at a time: fill one submission entry, enter the kernel to submit
 * it and wait for its completion, reap the completion entry.
 *
 * Where the build host had no usable <linux/io_uring.h> (or no system call
 * numbers for it) the functions are stubs: lmb_uring_built() is false. Where
 * the kernel refuses io_uring (no such call, seccomp, the sysctl
 * kernel.io_uring_disabled) lmb_uring_open says why. This header needs none of
 * the kernel's headers. */
#ifndef LMB_URING_H
#define LMB_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The reason lat_io_uring gives in a build without the headers. */
#define LMB_URING_NOT_BUILT "built without io_uring headers"

struct lmb_uring {
    int fd;                      /* the ring's descriptor, -1 when closed */
    void *sq_map, *cq_map;       /* the ring mappings (one, twice, with a single mmap) */
    size_t sq_map_len, cq_map_len;
    void *sqes;                  /* the submission entries */
    size_t sqes_len;
    unsigned *sq_tail, *sq_mask, *sq_array;
    unsigned *cq_head, *cq_tail, *cq_mask;
    void *cqes;
};

/* Whether this build has io_uring at all. */
bool lmb_uring_built(void);

/* Sets up a ring of `entries` (a power of two) and maps it. Returns 0, or -1
 * with *why_errno the errno of the call that failed (ENOSYS, EPERM ...) and a
 * reason for people in err ("io_uring_setup: Operation not permitted
 * (kernel.io_uring_disabled = 2: io_uring is disabled for everyone)"). */
int lmb_uring_open(struct lmb_uring *u, unsigned entries, int *why_errno, char *err,
                   size_t errlen);

/* Unmaps the rings and closes the descriptor (also of a ring half set up). */
void lmb_uring_close(struct lmb_uring *u);

/* One request, submission to completion: an IORING_OP_NOP, or an
 * IORING_OP_READ of len bytes at offset off of fd into buf. Returns the
 * completion's result (>= 0; for a read the bytes read), or -errno: of
 * io_uring_enter, or of the request itself as the completion gave it. */
int lmb_uring_nop(struct lmb_uring *u);
int lmb_uring_read(struct lmb_uring *u, int fd, void *buf, unsigned len, uint64_t off);

#endif
