// SPDX-License-Identifier: MIT
/* lat_futex: the latency of a wake/wait round trip through a futex.
 *
 * One operation: one round trip over one 32-bit futex word. The copy stores 1
 * in the word and calls FUTEX_WAKE (always: one system call), then, while the
 * word still holds 1, FUTEX_WAIT on it. Its partner waits (FUTEX_WAIT while
 * the word holds 0), stores 0 and calls FUTEX_WAKE; the copy wakes and the
 * round trip is over. A wait is skipped when the other end has already
 * answered (on two CPUs, or on one when the scheduler runs the woken end at
 * once), as any futex hand-off does. The futex calls go straight to syscall(2): SYS_futex, or
 * SYS_futex_time64 where a 32-bit libc has only that one (no timeout is ever
 * passed, so the size of time_t does not matter).
 *
 * thread: the partner is a thread of the copy and the operations are
 * FUTEX_*_PRIVATE. process: the partner is another process, the word lies in a
 * MAP_SHARED mapping made before it is forked, and the operations are the
 * shared (non-private) ones, which key the futex on the page, not the address
 * space.
 *
 * Kept out of the timing: the mapping, starting and placing the partner, and
 * stopping it (a flag in the mapping, read after each wake-up, then one last
 * wake). A partner that never answers leaves the copy waiting until the
 * harness's deadline kills it; a partner process dies with its copy. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/futex.h>)
#include <linux/futex.h>
#endif
#endif

#include "lib/bench.h"
#include "lib/cases.h"

#ifndef FUTEX_WAIT
#define FUTEX_WAIT 0
#endif
#ifndef FUTEX_WAKE
#define FUTEX_WAKE 1
#endif
#ifndef FUTEX_PRIVATE_FLAG
#define FUTEX_PRIVATE_FLAG 128
#endif

#if defined(SYS_futex)
#define LMB_SYS_FUTEX SYS_futex
#elif defined(SYS_futex_time64)
#define LMB_SYS_FUTEX SYS_futex_time64
#endif

struct futex_shared {
    atomic_uint word;      /* 1: the copy's turn is over, the partner's to answer; 0: answered */
    atomic_int stop;       /* set by the copy before its last wake */
};

struct futex_state {
    struct futex_shared *sh;
    int flag;              /* FUTEX_PRIVATE_FLAG (thread) or 0 (process) */
    bool threads;
};

#ifdef LMB_SYS_FUTEX
static long futex_call(atomic_uint *w, int op, unsigned val)
{
    return syscall(LMB_SYS_FUTEX, (void *)w, op, val, NULL, NULL, 0);
}
#else
static long futex_call(atomic_uint *w, int op, unsigned val)
{
    (void)w;
    (void)op;
    (void)val;
    errno = ENOSYS;
    return -1;
}
#endif

/* Waits while *w holds val: 0, or -1 with errno (a changed word, EAGAIN, and
 * a signal, EINTR, are no errors: the caller reads the word again). */
static int wait_while(atomic_uint *w, unsigned val, int flag)
{
    while (atomic_load_explicit(w, memory_order_acquire) == val)
        if (futex_call(w, FUTEX_WAIT | flag, val) != 0 && errno != EAGAIN && errno != EINTR)
            return -1;
    return 0;
}

static void run_futex(uint64_t n, void *s)
{
    struct futex_state *st = s;
    atomic_uint *w = &st->sh->word;

    for (uint64_t i = 0; i < n; i++) {
        atomic_store_explicit(w, 1, memory_order_release);
        if (futex_call(w, FUTEX_WAKE | st->flag, 1) < 0)
            lmb_abort_copy("futex(FUTEX_WAKE): %s", strerror(errno));
        if (wait_while(w, 1, st->flag) != 0)
            lmb_abort_copy("futex(FUTEX_WAIT): %s", strerror(errno));
    }
}

static int futex_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct futex_state *st = s;
    atomic_uint *w = &st->sh->word;

    for (;;) {
        if (wait_while(w, 0, st->flag) != 0) {
            snprintf(pc->err, pc->errlen, "futex(FUTEX_WAIT): %s", strerror(errno));
            return -1;
        }
        if (atomic_load(&st->sh->stop))
            return 0;
        atomic_store_explicit(w, 0, memory_order_release);
        if (futex_call(w, FUTEX_WAKE | st->flag, 1) < 0) {
            snprintf(pc->err, pc->errlen, "futex(FUTEX_WAKE): %s", strerror(errno));
            return -1;
        }
    }
}

static int futex_init(void *s, char *err, size_t errlen)
{
    struct futex_state *st = s;

    st->sh = mmap(NULL, sizeof *st->sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (st->sh == MAP_FAILED) {
        st->sh = NULL;
        snprintf(err, errlen, "mmap: %s", strerror(errno));
        return -1;
    }
    atomic_init(&st->sh->word, 0);
    atomic_init(&st->sh->stop, 0);
    /* A futex call that the kernel (or a seccomp filter) refuses fails here,
     * not in the middle of the timing: a wake with no waiter returns 0. */
    if (futex_call(&st->sh->word, FUTEX_WAKE | st->flag, 1) < 0) {
        snprintf(err, errlen, "futex(FUTEX_WAKE): %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void futex_after_partners(void *s, bool threads)
{
    struct futex_state *st = s;

    st->threads = threads;
}

static void futex_cleanup(void *s)
{
    struct futex_state *st = s;

    if (st->sh == NULL)
        return;
    atomic_store(&st->sh->stop, 1);
    atomic_store_explicit(&st->sh->word, 1, memory_order_release);
    (void)futex_call(&st->sh->word, FUTEX_WAKE | st->flag, 1);
    /* A partner thread may still read the word as it leaves: the mapping
     * goes with the copy's process then. */
    if (!st->threads) {
        munmap(st->sh, sizeof *st->sh);
        st->sh = NULL;
    }
}

enum { THREAD = 1 };

static const struct lmb_variant variants[] = {
    { "thread", "the partner is a thread; private futex operations", run_futex,
      "Futex latency (threads)", THREAD },
    { "process", "the partner is a process; shared futex operations on a MAP_SHARED word",
      run_futex, "Futex latency (processes)", 0 },
};

#define NVARIANTS (sizeof variants / sizeof variants[0])

static void measure_case(struct lmb_ctx *ctx, const struct lmb_variant *v)
{
    struct futex_state st = { .flag = (v->flags & THREAD) ? FUTEX_PRIVATE_FLAG : 0 };
    struct lmb_timed t = {
        .init = futex_init,
        .run = v->run,
        .cleanup = futex_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = futex_partner,
        .after_partners = futex_after_partners,
    };
    struct lmb_record rec;
    struct lmb_result res;

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    rec.compat = "new: lmbench 3 has no futex benchmark";
    snprintf(rec.label, sizeof rec.label, "%s", v->label);
    /* The case says what the partner is (--threads elsewhere). */
    lmb_measure_partner_kind(ctx, &t, (v->flags & THREAD) != 0, &res);
    lmb_report_add(&ctx->report, &rec, &res);
}

static int lat_futex_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    return lmb_each_case(ctx, argc, argv, "thread or process", measure_case);
}

static const char *futex_supported(void)
{
#ifdef LMB_SYS_FUTEX
    return NULL;
#else
    return "this libc defines neither SYS_futex nor SYS_futex_time64";
#endif
}

const struct lmb_bench lmb_bench_lat_futex = {
    .name = "lat_futex",
    .summary = "Latency of a futex wake/wait round trip",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "[{variants}]",
    .help = "Wakes a partner waiting on a futex word and waits on the same word for its\n"
            "answer, and prints the microseconds of one round trip: with a partner\n"
            "thread (thread, private futexes) and a partner process (process, the word\n"
            "in shared memory); without an operand both. Where the two ends run follows\n"
            "LMBENCH_SCHED and --cpus.\n",
    .variants = variants,
    .nvariants = NVARIANTS,
    .supported = futex_supported,
    .main = lat_futex_main,
};
