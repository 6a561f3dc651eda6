// SPDX-License-Identifier: MIT
/* lat_fcntl: the latency of handing a file lock back and forth between two
 * processes.
 *
 * One operation: one round trip through fcntl(F_SETLKW) record locks on a
 * temporary file. Three one-byte locks L0, L1, L2 go round: before round r
 * the copy holds two of them and its partner (another process) the third.
 * In round r the copy releases L[r%3], which the partner is waiting for, and
 * waits for L[(r+2)%3]; the partner takes L[r%3] and releases L[(r+2)%3]. So
 * each round hands a lock to the partner and one back, and no process asks
 * again for a lock it released before the other has taken it (with only two
 * locks one could take back what it had just let go, and the rounds would
 * drift apart). Each copy (-P) has its own bytes of the file. A round is
 * fcntl() calls and the wake-ups between them, nothing else: the partner makes
 * no other system call in its loop. It is told to stop by SIGUSR1 (its pid came
 * over the ready pipe), which interrupts a wait or sets a flag it reads after
 * each lock it takes; the copy then lets go of every lock, so that a partner
 * about to wait finds its lock free and sees the flag. Kept out of the timing:
 * the file (removed at the end, also on signals), the first locks, starting,
 * placing and stopping the partner. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/files.h"
#include "lib/partner.h"

struct fcntl_state {
    const char *path;
    off_t base;            /* this copy's bytes: locks at base+0..2 */
    int fd;
    int ready[2];          /* the partner says it holds its first lock, and its pid */
    pid_t partner;         /* the partner process, told to stop with SIGUSR1 */
    uint64_t round;
};

/* Set in the partner process by SIGUSR1: the copy is stopping. Per process,
 * reached by the signal handler; never a result. */
static volatile sig_atomic_t stop_partner;

static void on_stop(int sig)
{
    (void)sig;
    stop_partner = 1;
}

/* Takes (F_WRLCK, waiting) or releases (F_UNLCK) lock k of the copy at base. */
static int lock(int fd, off_t base, int k, short type)
{
    struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = base + k, .l_len = 1 };

    return fcntl(fd, type == F_UNLCK ? F_SETLK : F_SETLKW, &fl);
}

static void run_fcntl(uint64_t n, void *s)
{
    struct fcntl_state *st = s;

    for (uint64_t i = 0; i < n; i++, st->round++) {
        int give = (int)(st->round % 3), take = (int)((st->round + 2) % 3);
        if (lock(st->fd, st->base, give, F_UNLCK) != 0)
            lmb_abort_copy("fcntl(F_UNLCK): %s", strerror(errno));
        /* A partner that dies releases its locks, but its SIGCHLD ends the
         * copy (the harness's handler) before a round can pass unanswered. */
        while (lock(st->fd, st->base, take, F_WRLCK) != 0)
            if (errno != EINTR)
                lmb_abort_copy("fcntl(F_SETLKW): %s", strerror(errno));
    }
}

static int fcntl_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct fcntl_state *st = s;
    struct sigaction sa;
    pid_t self = getpid();
    int fd;

    /* Record locks belong to the process: the partner needs its own open file
     * (a partner thread could not hold locks against its copy). */
    close(st->ready[0]);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;   /* no SA_RESTART: a wait ends with EINTR */
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0) {
        snprintf(pc->err, pc->errlen, "sigaction: %s", strerror(errno));
        return -1;
    }
    fd = open(st->path, O_RDWR | O_CLOEXEC);
    if (fd < 0 || lock(fd, st->base, 2, F_WRLCK) != 0) {
        snprintf(pc->err, pc->errlen, "lock 2 of %s: %s", st->path, strerror(errno));
        return -1;
    }
    if (write(st->ready[1], &self, sizeof self) != (ssize_t)sizeof self) {
        snprintf(pc->err, pc->errlen, "telling the copy: %s", strerror(errno));
        return -1;
    }
    close(st->ready[1]);
    for (uint64_t r = 0;; r++) {
        int take = (int)(r % 3), give = (int)((r + 2) % 3);
        int rc;
        /* A signal that is not the stop retries the same lock: the rotation
         * must not skip one. */
        while ((rc = lock(fd, st->base, take, F_WRLCK)) != 0 && errno == EINTR && !stop_partner)
            ;
        if (rc != 0) {
            if (errno == EINTR)
                return 0;
            snprintf(pc->err, pc->errlen, "fcntl(F_SETLKW): %s", strerror(errno));
            return -1;
        }
        if (stop_partner)
            return 0;
        if (lock(fd, st->base, give, F_UNLCK) != 0) {
            snprintf(pc->err, pc->errlen, "fcntl(F_UNLCK): %s", strerror(errno));
            return -1;
        }
    }
}

/* The copy waits (untimed) until the partner holds lock 2. */
static void fcntl_after_partners(void *s, bool threads)
{
    struct fcntl_state *st = s;
    pid_t pid = -1;
    ssize_t got;

    (void)threads;
    close(st->ready[1]);
    st->ready[1] = -1;
    while ((got = read(st->ready[0], &pid, sizeof pid)) < 0 && errno == EINTR)
        ;
    /* Nothing read: the partner failed before it was ready, and the harness
     * reports why. */
    st->partner = got == (ssize_t)sizeof pid ? pid : -1;
    close(st->ready[0]);
    st->ready[0] = -1;
}

static int fcntl_init(void *s, char *err, size_t errlen)
{
    struct fcntl_state *st = s;

    st->round = 0;
    st->partner = -1;
    st->base = (off_t)lmb_copy_index() * 8;
    st->ready[0] = st->ready[1] = -1;
    st->fd = open(st->path, O_RDWR | O_CLOEXEC);
    if (st->fd < 0 || pipe2(st->ready, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "open %s: %s", st->path, strerror(errno));
        return -1;
    }
    if (lock(st->fd, st->base, 0, F_WRLCK) != 0 || lock(st->fd, st->base, 1, F_WRLCK) != 0) {
        snprintf(err, errlen, "fcntl lock of %s: %s", st->path, strerror(errno));
        return -1;
    }
    return 0;
}

static void fcntl_cleanup(void *s)
{
    struct fcntl_state *st = s;

    if (st->fd < 0)
        return;
    /* The flag first, then every lock let go: whatever the partner waits for
     * next, it gets or is interrupted, and leaves. */
    if (st->partner > 0)
        kill(st->partner, SIGUSR1);
    for (int k = 0; k < 3; k++)
        lock(st->fd, st->base, k, F_UNLCK);
    close(st->fd);
    st->fd = -1;
}

static int lat_fcntl_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct fcntl_state st = { .fd = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    char path[4096];
    int fd;
    struct lmb_timed t = {
        .init = fcntl_init,
        .run = run_fcntl,
        .cleanup = fcntl_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = fcntl_partner,
        .after_partners = fcntl_after_partners,
    };

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "Fcntl lock latency");
    fd = lmb_tmpfile("lmbench-fcntl", path, sizeof path);
    if (fd < 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "cannot create a temporary file: %s",
                                     strerror(errno));
    close(fd);
    st.path = path;
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    lmb_tmpfile_remove(path);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_fcntl = {
    .name = "lat_fcntl",
    .summary = "Latency of handing fcntl() file locks between two processes",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "",
    .help = "Hands record locks on a temporary file back and forth with a partner\n"
            "process (each waiting in fcntl(F_SETLKW) for the lock the other releases),\n"
            "and prints the microseconds of one round trip.\n",
    .main = lat_fcntl_main,
};
