// SPDX-License-Identifier: MIT
/* lat_eventfd: the latency of a round trip through two eventfds.
 *
 * One operation: one round trip. The copy write()s the 8-byte count 1 to the
 * first eventfd and read()s the second; its partner, blocked in read() of the
 * first, wakes, write()s 1 to the second and reads the first again. Both
 * eventfds are blocking counters (no EFD_SEMAPHORE): a read takes the whole
 * count and leaves it 0. Four system calls per round trip, and two wake-ups
 * (on one CPU, two context switches).
 *
 * thread: the partner is a thread of the copy (the descriptors shared);
 * process: another process, forked with its own copies of them.
 *
 * Kept out of the timing: making the eventfds, starting and placing the
 * partner, and stopping it (a flag in shared memory read after each wake-up,
 * then one last write). A partner that never answers leaves the copy blocked
 * in read() until the harness's deadline kills it; a partner process dies with
 * its copy. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cases.h"

struct efd_state {
    int to_partner, to_copy;   /* the eventfds */
    atomic_int *stop;          /* in a MAP_SHARED page: set before the last write */
    bool threads;
};

/* One 8-byte write of 1, or one 8-byte read: 0, or -1 with errno (EINTR retried). */
static int efd_post(int fd)
{
    uint64_t one = 1;
    ssize_t r;

    while ((r = write(fd, &one, sizeof one)) < 0 && errno == EINTR)
        ;
    if (r >= 0 && r != (ssize_t)sizeof one)
        errno = EIO;
    return r == (ssize_t)sizeof one ? 0 : -1;
}

static int efd_take(int fd)
{
    uint64_t v;
    ssize_t r;

    while ((r = read(fd, &v, sizeof v)) < 0 && errno == EINTR)
        ;
    if (r >= 0 && r != (ssize_t)sizeof v)
        errno = EIO;
    return r == (ssize_t)sizeof v ? 0 : -1;
}

static void run_eventfd(uint64_t n, void *s)
{
    struct efd_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        if (efd_post(st->to_partner) != 0)
            lmb_abort_copy("write to the eventfd: %s", strerror(errno));
        if (efd_take(st->to_copy) != 0)
            lmb_abort_copy("read from the eventfd: %s", strerror(errno));
    }
}

static void close_fds(struct efd_state *st)
{
    if (st->to_partner >= 0)
        close(st->to_partner);
    if (st->to_copy >= 0)
        close(st->to_copy);
    st->to_partner = st->to_copy = -1;
}

static int efd_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct efd_state *st = s;
    int rc = 0;

    for (;;) {
        if (efd_take(st->to_partner) != 0) {
            snprintf(pc->err, pc->errlen, "read from the eventfd: %s", strerror(errno));
            rc = -1;
            break;
        }
        if (atomic_load(st->stop))
            break;
        if (efd_post(st->to_copy) != 0) {
            snprintf(pc->err, pc->errlen, "write to the eventfd: %s", strerror(errno));
            rc = -1;
            break;
        }
    }
    /* A thread shares the copy's descriptors: it closes them itself once it
     * no longer reads them (the copy leaves them open for it). */
    if (pc->thread)
        close_fds(st);
    return rc;
}

static int efd_init(void *s, char *err, size_t errlen)
{
    struct efd_state *st = s;

    st->to_partner = st->to_copy = -1;
    st->stop = mmap(NULL, sizeof *st->stop, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                    -1, 0);
    if (st->stop == MAP_FAILED) {
        st->stop = NULL;
        snprintf(err, errlen, "mmap: %s", strerror(errno));
        return -1;
    }
    atomic_init(st->stop, 0);
    st->to_partner = eventfd(0, EFD_CLOEXEC);
    st->to_copy = st->to_partner >= 0 ? eventfd(0, EFD_CLOEXEC) : -1;
    if (st->to_copy < 0) {
        snprintf(err, errlen, "eventfd: %s", strerror(errno));
        close_fds(st);
        return -1;
    }
    return 0;
}

static void efd_after_partners(void *s, bool threads)
{
    struct efd_state *st = s;

    st->threads = threads;
}

static void efd_cleanup(void *s)
{
    struct efd_state *st = s;

    if (st->stop == NULL)
        return;
    atomic_store(st->stop, 1);
    (void)efd_post(st->to_partner);
    if (!st->threads) {
        close_fds(st);
        munmap(st->stop, sizeof *st->stop);
        st->stop = NULL;
    }
}

enum { THREAD = 1 };

static const struct lmb_variant variants[] = {
    { "thread", "the partner is a thread sharing the eventfds", run_eventfd,
      "Eventfd latency (threads)", THREAD },
    { "process", "the partner is a process", run_eventfd, "Eventfd latency (processes)", 0 },
};

#define NVARIANTS (sizeof variants / sizeof variants[0])

static void measure_case(struct lmb_ctx *ctx, const struct lmb_variant *v)
{
    struct efd_state st = { .to_partner = -1, .to_copy = -1 };
    struct lmb_timed t = {
        .init = efd_init,
        .run = v->run,
        .cleanup = efd_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = efd_partner,
        .after_partners = efd_after_partners,
    };
    struct lmb_record rec;
    struct lmb_result res;

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    rec.compat = "new: lmbench 3 has no eventfd benchmark";
    snprintf(rec.label, sizeof rec.label, "%s", v->label);
    lmb_measure_partner_kind(ctx, &t, (v->flags & THREAD) != 0, &res);
    lmb_report_add(&ctx->report, &rec, &res);
}

static int lat_eventfd_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    return lmb_each_case(ctx, argc, argv, "thread or process", measure_case);
}

const struct lmb_bench lmb_bench_lat_eventfd = {
    .name = "lat_eventfd",
    .summary = "Latency of a round trip through two eventfds",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "[{variants}]",
    .help = "Writes 1 to an eventfd that a partner reads, reads its answer from a second\n"
            "eventfd, and prints the microseconds of one round trip: with a partner\n"
            "thread (thread) and a partner process (process); without an operand both.\n"
            "Where the two ends run follows LMBENCH_SCHED and --cpus.\n",
    .variants = variants,
    .nvariants = NVARIANTS,
    .main = lat_eventfd_main,
};
