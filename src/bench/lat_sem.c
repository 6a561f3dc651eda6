// SPDX-License-Identifier: MIT
/* lat_sem: the latency of a round trip between two processes through
 * semaphores.
 *
 * One operation: one round trip. The copy raises a semaphore its partner
 * (another process, or a thread with --threads) waits on, then waits on a
 * second semaphore that the partner raises once it has woken.
 *
 * sysv (the default, lmbench 3's quantity): System V semaphores, semop() of +1
 * and -1 on two semaphores of one set. The command makes one set for all
 * copies (two semaphores per copy) before measuring and removes it (IPC_RMID)
 * afterwards, and on exit and on signals through the cleanup registry, since a
 * set outlives the processes that used it.
 * posix: POSIX semaphores (sem_post, sem_wait) in memory shared by the two
 * ends, which needs no clean-up however the processes end.
 *
 * Kept out of the timing: the set or the shared memory, starting, placing and
 * stopping the partner. The partner is told to leave by a flag in shared
 * memory (read after each wake-up: a load, not a system call). */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sem.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/partner.h"
#include "lib/text.h"

struct sem_shared {
    sem_t to_partner, to_copy;   /* posix */
    volatile int stop;           /* set by the copy before its last post */
};

struct sem_state {
    struct sem_shared *sh;
    int semid;                   /* sysv: the set */
    unsigned short base;         /* sysv: this copy's two semaphores, base and base+1 */
    bool threads;                /* the partner is a thread sharing the mapping */
};

/* --- System V --------------------------------------------------------------- */

/* semop of one semaphore: 0, or -1 with errno (EINTR retried). */
static int sysv_op(int id, unsigned short num, short op)
{
    struct sembuf b = { .sem_num = num, .sem_op = op, .sem_flg = 0 };

    while (semop(id, &b, 1) != 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

static void run_sysv(uint64_t n, void *s)
{
    struct sem_state *st = s;

    /* A partner's death ends the copy from the harness's SIGCHLD handler. */
    for (uint64_t i = 0; i < n; i++)
        if (sysv_op(st->semid, st->base, 1) != 0 || sysv_op(st->semid, st->base + 1, -1) != 0)
            lmb_abort_copy("semop: %s", strerror(errno));
}

static int sysv_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct sem_state *st = s;

    for (;;) {
        if (sysv_op(st->semid, st->base, -1) != 0) {
            snprintf(pc->err, pc->errlen, "semop: %s", strerror(errno));
            return -1;
        }
        if (st->sh->stop)
            return 0;
        if (sysv_op(st->semid, st->base + 1, 1) != 0) {
            snprintf(pc->err, pc->errlen, "semop: %s", strerror(errno));
            return -1;
        }
    }
}

/* --- POSIX ------------------------------------------------------------------ */

static void wait_partner(sem_t *s)
{
    while (sem_wait(s) != 0)
        if (errno != EINTR)
            lmb_abort_copy("sem_wait: %s", strerror(errno));
}

static void run_posix(uint64_t n, void *s)
{
    struct sem_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        if (sem_post(&st->sh->to_partner) != 0)
            lmb_abort_copy("sem_post: %s", strerror(errno));
        wait_partner(&st->sh->to_copy);
    }
}

static int posix_partner(void *s, const struct lmb_partner_ctx *pc)
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

/* --- set-up ----------------------------------------------------------------- */

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
    if (st->semid >= 0) {
        st->base = (unsigned short)(2 * lmb_copy_index());
        return 0;
    }
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
    /* Tell the partner to leave, and wake it. */
    st->sh->stop = 1;
    if (st->semid >= 0)
        (void)sysv_op(st->semid, st->base, 1);
    else
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

/* The set of 2 * copies semaphores, all 0, registered for removal; its id, or
 * -1 with a message. The signals that remove it are held until it is
 * registered. */
static int make_set(unsigned copies, char *err, size_t errlen)
{
    unsigned nsems = 2 * copies;
    unsigned short *zero = calloc(nsems, sizeof *zero);
    sigset_t hold, old;
    int id, e;

    if (zero == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigaddset(&hold, SIGHUP);
    sigprocmask(SIG_BLOCK, &hold, &old);
    id = semget(IPC_PRIVATE, (int)nsems, IPC_CREAT | IPC_EXCL | 0600);
    e = errno;
    if (id >= 0 && lmb_semset_track(id) != 0) {
        /* Not removable on a signal: not made at all. */
        semctl(id, 0, IPC_RMID);
        id = -1;
        e = ENOSPC;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (id < 0) {
        snprintf(err, errlen, "semget of %u semaphores: %s", nsems, strerror(e));
    } else if (semctl(id, 0, SETALL, zero) != 0) {
        snprintf(err, errlen, "semctl(SETALL): %s", strerror(errno));
        lmb_semset_remove(id);
        id = -1;
    }
    free(zero);
    return id;
}

static const struct lmb_variant variants[] = {
    { "sysv", "System V semaphores: semop() on two semaphores of one set (the default)", run_sysv,
      "Semaphore latency", 0 },
    { "posix", "POSIX semaphores: sem_post() and sem_wait() in shared memory", run_posix,
      "POSIX semaphore latency", 0 },
};

static int lat_sem_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v = &variants[0];
    struct sem_state st = { .semid = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    char q[300], err[300];
    struct lmb_timed t = {
        .init = sem_init_state,
        .cleanup = sem_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .after_partners = sem_after_partners,
    };

    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if (argc == 1 && (v = lmb_find_variant(ctx->bench, argv[0])) == NULL)
        return lmb_usage_error(ctx, "unknown kind of semaphore '%s'",
                               lmb_quote(argv[0], q, sizeof q));
    t.run = v->run;
    t.partner = v->run == run_sysv ? sysv_partner : posix_partner;
    /* The default is lmbench 3's line: its record has no case. */
    lmb_record_init(&rec, ctx->bench->name, v->run == run_sysv ? "" : v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "%s", v->label);
    if (v->run == run_posix)
        rec.compat = "new: POSIX semaphores (sem_post, sem_wait in shared memory); lmbench 3's "
                     "line is System V semaphores";
    if (v->run == run_sysv) {
        st.semid = make_set(ctx->opt.parallel, err, sizeof err);
        if (st.semid < 0)
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    lmb_measure(ctx, &t, &res);
    if (st.semid >= 0)
        lmb_semset_remove(st.semid);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_sem = {
    .name = "lat_sem",
    .summary = "Latency of a round trip through semaphores",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "[{variants}]",
    .help = "Raises a semaphore a partner process waits on and waits for its answer on\n"
            "another, and prints the microseconds of one round trip. sysv (the default,\n"
            "lmbench 3's line) uses System V semaphores, removed at the end; posix uses\n"
            "POSIX semaphores in shared memory.\n",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_sem_main,
};
