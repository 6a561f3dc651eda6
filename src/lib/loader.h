// SPDX-License-Identifier: MIT
/* Memory loaders: threads that stream reads or writes over buffers of their
 * own, each pinned to one CPU, flat out or paced to a rate, while something
 * else is measured (lat_loaded's chase). What they delivered is measured, not
 * assumed: each loader keeps a log of (time, bytes so far) as it goes, and
 * lmb_loaders_bytes() reads from the logs how many bytes all of them moved
 * between two instants of the harness's clock.
 *
 * A loader's pass over its buffer is lmbench's rd or wr (bw_mem's): one 4-byte
 * word in every 16 bytes read (summed) or written, which touches every cache
 * line; the bytes counted are the whole chunk passed over, as bw_mem counts
 * them. Pacing: after each chunk the loader busy-waits on the clock until the
 * bytes it has moved are no more than the rate allows since it started; a
 * loader that falls more than LMB_LOADER_MAX_LAG_NS (0.2 ms) behind does not catch up
 * in a burst (it starts counting afresh).
 *
 * The threads block every signal (process-directed signals, SIGCHLD, SIGINT
 * and the harness's SIGALRM, go to the thread that started them), and their
 * buffers and logs are not inherited by processes forked while they run
 * (MADV_DONTFORK): a fork does not make their pages copy-on-write. */
#ifndef LMB_LOADER_H
#define LMB_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/clock.h"
#include "lib/sched.h"

#define LMB_LOADER_MAX_LAG_NS 200000ULL

struct lmb_loader;   /* one thread's state (loader.c) */

struct lmb_loaders {
    const struct lmb_clock *clock;
    const struct lmb_sched *sched;
    size_t size;           /* each loader's buffer */
    unsigned max;          /* loaders there are slots (and, once made, buffers) for */
    unsigned running;      /* loaders started by the last lmb_loaders_start */
    struct lmb_loader *l;  /* max entries */
};

/* Slots for up to max loaders over buffers of size bytes (at least 4 KiB).
 * Nothing is mapped yet: a loader maps and touches its buffer on its own CPU
 * the first time it runs, and keeps it for later starts. Returns 0, or -1 with
 * a message. */
int lmb_loaders_init(struct lmb_loaders *ls, unsigned max, size_t size,
                     const struct lmb_clock *clock, const struct lmb_sched *sched, char *err,
                     size_t errlen);

/* Starts n loaders (n <= max), loader i pinned to cpus[i], writing when
 * `write`, each at rate_mbs MB/s (10^6 bytes; 0 = flat out), their logs
 * holding an entry at least every spacing_ns. Returns once every one has
 * mapped its buffer and passed over its first chunk, within wait_s seconds:
 * 0, or -1 with a message (a loader that could not be placed or could not
 * map its buffer; none started in time), the loaders already stopped then. */
int lmb_loaders_start(struct lmb_loaders *ls, unsigned n, const int *cpus, bool write,
                      double rate_mbs, uint64_t spacing_ns, double wait_s, char *err,
                      size_t errlen);

/* Stops the running loaders and joins them. Their logs stay readable until the
 * next start. Does nothing when none runs. */
void lmb_loaders_stop(struct lmb_loaders *ls);

/* Bytes all loaders of the last start moved between t0 and t1 (ns of the
 * clock), read from their logs (linear between entries); -1 when a log does
 * not cover [t0, t1]. Call after lmb_loaders_stop. */
double lmb_loaders_bytes(const struct lmb_loaders *ls, uint64_t t0, uint64_t t1);

/* Stops them if they run, and frees the buffers and logs. */
void lmb_loaders_free(struct lmb_loaders *ls);

#endif
