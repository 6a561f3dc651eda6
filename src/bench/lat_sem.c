// SPDX-License-Identifier: MIT
/* lat_sem: the latency of a round trip between two processes through
 * semaphores.
 *
 * One operation: one round trip. The copy posts a semaphore its partner (another
 * process, or a thread with --threads) waits on, then waits on a second semaphore that the partner posts
 * once it has woken. POSIX semaphores (sem_post, sem_wait) in memory shared by
 * the two, which needs no clean-up however the processes end (System V
 * semaphores, which lmbench 3 used, outlive them). Kept out of the timing: the
 * shared memory, starting, placing and stopping the partner. */
#include <errno.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/partner.h"

struct sem_shared {
    sem_t to_partner, to_copy;
    volatile int stop;     /* set by the copy before its last post */
};

struct sem_state {
    struct sem_shared *sh;
    bool threads;          /* the partner is a thread sharing the mapping */
};

/* sem_wait; a partner's death ends the copy from the harness's SIGCHLD handler,
 * which interrupts the wait. */
static void wait_partner(sem_t *s)
{
    while (sem_wait(s) != 0)
        if (errno != EINTR)
            lmb_abort_copy("sem_wait: %s", strerror(errno));
}

static void run_sem(uint64_t n, void *s)
{
    struct sem_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        if (sem_post(&st->sh->to_partner) != 0)
            lmb_abort_copy("sem_post: %s", strerror(errno));
        wait_partner(&st->sh->to_copy);
    }
}

static int sem_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct sem_state *st = s;

    for (;;) {
        if (sem_wait(&st->sh->to_partner) != 0) {
            if (errno == EINTR)
                continue;
            snprintf(pc->err, pc->errlen, "sem_wait: %s", strerror(errno));
            return -1;
        }
        if (st->sh->stop)
            return 0;
        if (sem_post(&st->sh->to_copy) != 0) {
            snprintf(pc->err, pc->errlen, "sem_post: %s", strerror(errno));
            return -1;
        }
    }
}

static int sem_init_state(void *s, char *err, size_t errlen)
{
    struct sem_state *st = s;

    st->sh = mmap(NULL, sizeof *st->sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (st->sh == MAP_FAILED) {
        st->sh = NULL;
        snprintf(err, errlen, "mmap: %s", strerror(errno));
        return -1;
    }
    st->sh->stop = 0;
    if (sem_init(&st->sh->to_partner, 1, 0) != 0 || sem_init(&st->sh->to_copy, 1, 0) != 0) {
        snprintf(err, errlen, "sem_init: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void sem_cleanup(void *s)
{
    struct sem_state *st = s;

    if (st->sh == NULL)
        return;
    /* Tell the partner to leave. */
    st->sh->stop = 1;
    sem_post(&st->sh->to_partner);
    /* A partner thread still reads the mapping as it leaves: it goes with the
     * copy then. A partner process has its own. */
    if (!st->threads) {
        munmap(st->sh, sizeof *st->sh);
        st->sh = NULL;
    }
}

static void sem_after_partners(void *s, bool threads)
{
    struct sem_state *st = s;

    st->threads = threads;
}

static int lat_sem_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct sem_state st = { 0 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t = {
        .init = sem_init_state,
        .run = run_sem,
        .cleanup = sem_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = sem_partner,
        .after_partners = sem_after_partners,
    };

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    lmb_measure(ctx, &t, &res);
    lmb_record_init(&rec, ctx->bench->name, "null", LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "Semaphore latency");
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_sem = {
    .name = "lat_sem",
    .summary = "Latency of a round trip through semaphores",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Posts a semaphore a partner process waits on and waits for its answer on\n"
            "another, and prints the microseconds of one round trip. The semaphores are\n"
            "POSIX ones in shared memory.\n",
    .main = lat_sem_main,
};
