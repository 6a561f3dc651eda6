// SPDX-License-Identifier: MIT
/* lat_pthread: the cost of POSIX threads' primitives.
 *
 * create: one operation is pthread_create() of a thread (default attributes)
 * whose function returns at once, then pthread_join() of it, in the copy. No
 * partner.
 *
 * mutex: one operation is one round trip of a hand-off through a ring of three
 * default mutexes shared by the copy and a partner thread. The copy starts
 * holding mutexes 0 and 1, the partner mutex 2. At its step k the copy
 * unlocks mutex k mod 3 and locks mutex (k+2) mod 3; at its step k the partner
 * locks mutex k mod 3 and unlocks mutex (k+2) mod 3. Each lock waits for the
 * other thread's unlock, so the two threads strictly alternate, each mutex is
 * only ever unlocked by the thread that locked it, and one step of the copy
 * (unlock, the partner's lock and unlock, the copy's lock) is a round trip:
 * the turn passes to the partner and comes back. A lock that finds its mutex
 * taken sleeps in the kernel (a futex) until the unlock wakes it.
 *
 * cond: one operation is one round trip of a condition-variable ping-pong: one
 * mutex, two condition variables and a turn variable. The copy, holding the
 * mutex, sets the turn to the partner, signals the partner's condition and
 * waits on its own until the turn is back; the partner, woken, sets the turn
 * to the copy, signals the copy's condition and waits on its own.
 *
 * mutex and cond always run with a partner thread (a mutex of one process's
 * threads: no process case). Kept out of the timing: making the mutexes,
 * starting and placing the partner and waiting until it holds its mutex, and
 * stopping it (a flag read after each wake-up, then one last hand-off). A
 * partner that never answers leaves the copy waiting until the harness's
 * deadline kills the copy, its threads with it. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/bench.h"
#include "lib/cases.h"

/* How long the copy waits for the partner thread to take its mutex. */
#define READY_WAIT_NS (10ULL * 1000000000ULL)

struct pthread_state {
    /* mutex */
    pthread_mutex_t ring[3];
    unsigned step;              /* the copy's next step */
    atomic_int ready;           /* the partner holds mutex 2 */
    /* cond */
    pthread_mutex_t mu;
    pthread_cond_t to_partner, to_copy;
    int turn;                   /* 1: the partner's, 0: the copy's (under mu) */
    /* both */
    atomic_int stop;
    bool initialised;
};

/* --- create ---------------------------------------------------------------------- */

static void *return_at_once(void *arg)
{
    return arg;
}

static void run_create(uint64_t n, void *s)
{
    (void)s;
    for (uint64_t i = 0; i < n; i++) {
        pthread_t th;
        int rc = pthread_create(&th, NULL, return_at_once, NULL);
        if (rc != 0)
            lmb_abort_copy("pthread_create: %s", strerror(rc));
        rc = pthread_join(th, NULL);
        if (rc != 0)
            lmb_abort_copy("pthread_join: %s", strerror(rc));
    }
}

/* --- mutex ----------------------------------------------------------------------- */

static void lock_or_abort(pthread_mutex_t *m)
{
    int rc = pthread_mutex_lock(m);
    if (rc != 0)
        lmb_abort_copy("pthread_mutex_lock: %s", strerror(rc));
}

static void unlock_or_abort(pthread_mutex_t *m)
{
    int rc = pthread_mutex_unlock(m);
    if (rc != 0)
        lmb_abort_copy("pthread_mutex_unlock: %s", strerror(rc));
}

static void run_mutex(uint64_t n, void *s)
{
    struct pthread_state *st = s;
    unsigned k = st->step;

    for (uint64_t i = 0; i < n; i++) {
        unlock_or_abort(&st->ring[k]);
        lock_or_abort(&st->ring[(k + 2) % 3]);
        k = (k + 1) % 3;
    }
    st->step = k;
}

static int mutex_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct pthread_state *st = s;
    unsigned k = 0;
    int rc;

    if ((rc = pthread_mutex_lock(&st->ring[2])) != 0)
        goto fail;
    atomic_store(&st->ready, 1);
    for (;;) {
        /* Holding (k+2) mod 3; waits for the copy to give up k mod 3. */
        if ((rc = pthread_mutex_lock(&st->ring[k])) != 0)
            goto fail;
        if (atomic_load(&st->stop)) {
            pthread_mutex_unlock(&st->ring[k]);
            pthread_mutex_unlock(&st->ring[(k + 2) % 3]);
            return 0;
        }
        if ((rc = pthread_mutex_unlock(&st->ring[(k + 2) % 3])) != 0)
            goto fail;
        k = (k + 1) % 3;
    }
fail:
    snprintf(pc->err, pc->errlen, "pthread_mutex_lock/unlock: %s", strerror(rc));
    return -1;
}

static int mutex_init(void *s, char *err, size_t errlen)
{
    struct pthread_state *st = s;
    int rc = 0;
    unsigned made = 0;

    st->step = 0;
    atomic_init(&st->ready, 0);
    atomic_init(&st->stop, 0);
    for (; made < 3; made++)
        if ((rc = pthread_mutex_init(&st->ring[made], NULL)) != 0)
            break;
    if (rc == 0 && (rc = pthread_mutex_lock(&st->ring[0])) == 0 &&
        (rc = pthread_mutex_lock(&st->ring[1])) != 0)
        pthread_mutex_unlock(&st->ring[0]);
    if (rc != 0) {
        snprintf(err, errlen, "pthread_mutex_init/lock: %s", strerror(rc));
        return -1;
    }
    st->initialised = true;
    return 0;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* In the copy once the partner thread is started: the hand-off begins only
 * when the partner holds its mutex. */
static void mutex_after_partners(void *s, bool threads)
{
    struct pthread_state *st = s;
    const struct timespec nap = { 0, 100000 };
    uint64_t until = mono_ns() + READY_WAIT_NS;

    (void)threads;
    while (!atomic_load(&st->ready)) {
        if (mono_ns() > until)
            lmb_abort_copy("the partner thread did not take its mutex within %llu s",
                           (unsigned long long)(READY_WAIT_NS / 1000000000ULL));
        nanosleep(&nap, NULL);
    }
}

static void mutex_cleanup(void *s)
{
    struct pthread_state *st = s;

    if (!st->initialised)
        return;
    /* The next unlock lets the partner see the flag; it then unlocks what it
     * holds and leaves. The mutexes are not destroyed: the partner may still
     * be using them as it leaves (they go with the copy's process). */
    atomic_store(&st->stop, 1);
    pthread_mutex_unlock(&st->ring[st->step]);
    pthread_mutex_unlock(&st->ring[(st->step + 1) % 3]);
}

/* --- cond ------------------------------------------------------------------------ */

static void wait_or_abort(pthread_cond_t *c, pthread_mutex_t *m)
{
    int rc = pthread_cond_wait(c, m);
    if (rc != 0)
        lmb_abort_copy("pthread_cond_wait: %s", strerror(rc));
}

static void run_cond(uint64_t n, void *s)
{
    struct pthread_state *st = s;
    int rc;

    lock_or_abort(&st->mu);
    for (uint64_t i = 0; i < n; i++) {
        st->turn = 1;
        if ((rc = pthread_cond_signal(&st->to_partner)) != 0)
            lmb_abort_copy("pthread_cond_signal: %s", strerror(rc));
        while (st->turn != 0)
            wait_or_abort(&st->to_copy, &st->mu);
    }
    unlock_or_abort(&st->mu);
}

static int cond_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct pthread_state *st = s;
    int rc;

    if ((rc = pthread_mutex_lock(&st->mu)) != 0)
        goto fail;
    for (;;) {
        while (st->turn != 1)
            if ((rc = pthread_cond_wait(&st->to_partner, &st->mu)) != 0)
                goto fail;
        if (atomic_load(&st->stop))
            break;
        st->turn = 0;
        if ((rc = pthread_cond_signal(&st->to_copy)) != 0)
            goto fail;
    }
    pthread_mutex_unlock(&st->mu);
    return 0;
fail:
    snprintf(pc->err, pc->errlen, "pthread_cond/mutex: %s", strerror(rc));
    return -1;
}

static int cond_init(void *s, char *err, size_t errlen)
{
    struct pthread_state *st = s;
    int rc;

    atomic_init(&st->stop, 0);
    st->turn = 0;
    if ((rc = pthread_mutex_init(&st->mu, NULL)) != 0 ||
        (rc = pthread_cond_init(&st->to_partner, NULL)) != 0 ||
        (rc = pthread_cond_init(&st->to_copy, NULL)) != 0) {
        snprintf(err, errlen, "pthread_mutex_init/cond_init: %s", strerror(rc));
        return -1;
    }
    st->initialised = true;
    return 0;
}

static void cond_cleanup(void *s)
{
    struct pthread_state *st = s;

    if (!st->initialised)
        return;
    pthread_mutex_lock(&st->mu);
    atomic_store(&st->stop, 1);
    st->turn = 1;
    pthread_cond_signal(&st->to_partner);
    pthread_mutex_unlock(&st->mu);
}

/* --- the command ----------------------------------------------------------------- */

static const struct lmb_variant variants[] = {
    { "create", "pthread_create() of a thread that returns at once, then pthread_join()",
      run_create, "pthread_create+join", 0 },
    { "mutex", "a hand-off round trip between two threads through a ring of three mutexes",
      run_mutex, "Mutex hand-off latency", 1 },
    { "cond", "a condition-variable ping-pong round trip between two threads", run_cond,
      "Condition variable hand-off latency", 1 },
};

#define NVARIANTS (sizeof variants / sizeof variants[0])

static void measure_case(struct lmb_ctx *ctx, const struct lmb_variant *v)
{
    struct pthread_state st = { .initialised = false };
    struct lmb_timed t = {
        .run = v->run,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    struct lmb_record rec;
    struct lmb_result res;

    if (v->run == run_mutex) {
        t.init = mutex_init;
        t.cleanup = mutex_cleanup;
        t.partners = 1;
        t.partner = mutex_partner;
        t.after_partners = mutex_after_partners;
    } else if (v->run == run_cond) {
        t.init = cond_init;
        t.cleanup = cond_cleanup;
        t.partners = 1;
        t.partner = cond_partner;
    }
    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    rec.compat = "new: lmbench 3 has no pthread benchmark";
    snprintf(rec.label, sizeof rec.label, "%s", v->label);
    lmb_measure_partner_kind(ctx, &t, t.partners > 0, &res);
    lmb_report_add(&ctx->report, &rec, &res);
}

static int lat_pthread_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    return lmb_each_case(ctx, argc, argv, "create, mutex or cond", measure_case);
}

const struct lmb_bench lmb_bench_lat_pthread = {
    .name = "lat_pthread",
    .summary = "Latency of thread creation and of mutex and condition-variable hand-offs",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "[{variants}]",
    .help = "create: pthread_create() and pthread_join() of a thread that returns at\n"
            "once. mutex: a round trip of a hand-off between the copy and a partner\n"
            "thread through a ring of three mutexes. cond: a round trip of a\n"
            "condition-variable ping-pong with a partner thread. Prints microseconds\n"
            "per operation; without an operand all three. Where the two threads of\n"
            "mutex and cond run follows LMBENCH_SCHED and --cpus.\n",
    .variants = variants,
    .nvariants = NVARIANTS,
    .main = lat_pthread_main,
};
