// SPDX-License-Identifier: MIT
/* lmb_measure: copies forked, released together, timed, gathered, always reaped. */
#include "lib/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/cleanup.h"

/* What a copy hands back, in memory shared with the parent. */
struct copy_report {
    int32_t status;            /* enum lmb_status */
    int32_t cpu;               /* where it ran last, -1 unknown */
    uint64_t iters;
    uint32_t n;
    uint32_t reached;
    char reason[200];
    uint64_t ns[LMB_MAX_REPETITIONS];
};

enum { READY_OK = 'R', READY_FAILED = 'F' };

/* In a copy: its report slot, for lmb_abort_copy. */
static struct copy_report *this_copy;

void lmb_abort_copy(const char *fmt, ...)
{
    va_list ap;

    if (this_copy != NULL) {
        this_copy->status = LMB_FAILED;
        va_start(ap, fmt);
        vsnprintf(this_copy->reason, sizeof this_copy->reason, fmt, ap);
        va_end(ap);
    }
    _exit(1);
}

static void write_byte(int fd, char c)
{
    ssize_t w;

    do {
        w = write(fd, &c, 1);
    } while (w < 0 && errno == EINTR);
}

static double now_s(const struct lmb_clock *c)
{
    return (double)lmb_now(c) / 1e9;
}

/* The life of one copy, in the child. Never returns. */
static void run_copy(const struct lmb_ctx *ctx, const struct lmb_timed *t, pid_t parent,
                     int cpu, struct copy_report *rep, int ready_w, int go_r, int done_w)
{
    const struct lmb_clock *clk = &ctx->clock;
    struct lmb_calibration cal;
    char c;

    this_copy = rep;
    rep->status = LMB_OK;
    rep->cpu = -1;
    if (lmb_cleanup_child(parent) != 0)
        _exit(1);
    if (lmb_sched_apply(&ctx->sched, cpu) != 0) {
        rep->status = LMB_FAILED;
        snprintf(rep->reason, sizeof rep->reason, "cannot place the copy on CPU %d: %s", cpu,
                 strerror(errno));
        write_byte(ready_w, READY_FAILED);
        _exit(0);
    }
    if (t->init != NULL && t->init(t->state, rep->reason, sizeof rep->reason) != 0) {
        rep->status = LMB_FAILED;
        if (rep->reason[0] == '\0')
            snprintf(rep->reason, sizeof rep->reason, "set-up failed");
        write_byte(ready_w, READY_FAILED);
        _exit(0);
    }
    write_byte(ready_w, READY_OK);
    close(ready_w);

    /* The start barrier: the parent closes the other end to release everyone. */
    while (read(go_r, &c, 1) < 0 && errno == EINTR)
        ;

    lmb_warmup(clk, t->run, t->state, ctx->opt.warmup_us * 1000ULL);
    {
        uint64_t budget = 20 * ctx->interval_ns;
        if (budget < 2000000000ULL)
            budget = 2000000000ULL;
        lmb_calibrate(clk, t->run, t->state, ctx->interval_ns, budget, &cal);
    }
    rep->iters = cal.iters;
    rep->reached = cal.reached;
    if (cal.hit_max_iters) {
        rep->status = LMB_BELOW_RESOLUTION;
        snprintf(rep->reason, sizeof rep->reason,
                 "%llu iterations took only %llu ns: the operation is too fast to time",
                 (unsigned long long)cal.iters, (unsigned long long)cal.elapsed_ns);
    } else {
        for (unsigned r = 0; r < ctx->opt.repetitions; r++) {
            uint64_t t0 = lmb_now(clk);
            t->run(cal.iters, t->state);
            uint64_t t1 = lmb_now(clk);
            rep->ns[r] = t1 - t0;
            rep->n = r + 1;
        }
    }
    if (t->cleanup != NULL)
        t->cleanup(t->state);
    rep->cpu = sched_getcpu();
    write_byte(done_w, 'D');
    _exit(0);
}

/* Reads up to `want` bytes from fd before the deadline (seconds on clk; <= 0 means
 * none). Returns bytes read; stops early at EOF. */
static size_t read_until(int fd, char *buf, size_t want, const struct lmb_clock *clk,
                         double deadline, bool *timed_out)
{
    size_t got = 0;

    *timed_out = false;
    while (got < want) {
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - now_s(clk);
            if (left <= 0) {
                *timed_out = true;
                break;
            }
            ms = left > 1e6 ? 1000000000 : (int)ceil(left * 1000.0);
        }
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int rc = poll(&p, 1, ms);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (rc == 0)
            continue;
        ssize_t r = read(fd, buf + got, want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    return got;
}

static void kill_and_reap(pid_t *pids, unsigned n, int *wstatus, bool kill_first)
{
    for (unsigned i = 0; i < n; i++)
        if (pids[i] > 0 && kill_first)
            kill(pids[i], SIGKILL);
    for (unsigned i = 0; i < n; i++) {
        if (pids[i] <= 0)
            continue;
        while (waitpid(pids[i], &wstatus[i], 0) < 0 && errno == EINTR)
            ;
        lmb_child_untrack(pids[i]);
        pids[i] = 0;
    }
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

void lmb_measure(struct lmb_ctx *ctx, const struct lmb_timed *t, struct lmb_result *res)
{
    const struct lmb_clock *clk = &ctx->clock;
    unsigned P = ctx->opt.parallel ? ctx->opt.parallel : 1;
    unsigned N = ctx->opt.repetitions ? ctx->opt.repetitions : 1;
    struct copy_report *reps = MAP_FAILED;
    pid_t *pids = NULL;
    int *wst = NULL;
    int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, done[2] = { -1, -1 };
    double start = now_s(clk), deadline = 0;
    size_t shm_len = (size_t)P * sizeof *reps;
    bool timed_out = false;
    char *buf = NULL;
    unsigned nready_ok = 0;

    memset(res, 0, sizeof *res);
    res->copies = P;
    res->policy = lmb_sched_policy_name(ctx->sched.policy);
    res->cpu_assigned = malloc(P * sizeof *res->cpu_assigned);
    res->cpu_ran = malloc(P * sizeof *res->cpu_ran);
    pids = calloc(P, sizeof *pids);
    wst = calloc(P, sizeof *wst);
    buf = malloc(P);
    if (!res->cpu_assigned || !res->cpu_ran || !pids || !wst || !buf) {
        lmb_result_set_status(res, LMB_FAILED, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < P; i++) {
        res->cpu_assigned[i] = lmb_sched_cpu_for(&ctx->sched, i, 0, 1);
        res->cpu_ran[i] = -1;
    }
    reps = mmap(NULL, shm_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (reps == MAP_FAILED) {
        lmb_result_set_status(res, LMB_FAILED, "mmap of %zu bytes: %s", shm_len, strerror(errno));
        goto out;
    }
    if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0 || pipe2(done, O_CLOEXEC) != 0) {
        lmb_result_set_status(res, LMB_FAILED, "pipe: %s", strerror(errno));
        goto out;
    }
    /* The timeout bounds the measurement; a warmup asked for comes on top. */
    if (ctx->opt.timeout_s > 0)
        deadline = start + ctx->opt.timeout_s + (double)ctx->opt.warmup_us / 1e6;

    fflush(NULL);
    for (unsigned i = 0; i < P; i++) {
        pid_t parent = getpid();
        pid_t pid = fork();
        if (pid < 0) {
            lmb_result_set_status(res, LMB_FAILED, "fork: %s", strerror(errno));
            kill_and_reap(pids, P, wst, true);
            goto out;
        }
        if (pid == 0) {
            close(ready[0]);
            close(go[1]);
            close(done[0]);
            run_copy(ctx, t, parent, res->cpu_assigned[i], &reps[i], ready[1], go[0], done[1]);
        }
        pids[i] = pid;
        lmb_child_track(pid);
    }
    close_fd(&ready[1]);
    close_fd(&go[0]);
    close_fd(&done[1]);

    /* Every copy set up (or failed to): then release them all at once. */
    size_t got = read_until(ready[0], buf, P, clk, deadline, &timed_out);
    for (size_t i = 0; i < got; i++)
        if (buf[i] == READY_OK)
            nready_ok++;
    close_fd(&go[1]);
    if (!timed_out && nready_ok == P)
        got = read_until(done[0], buf, P, clk, deadline, &timed_out);

    kill_and_reap(pids, P, wst, timed_out || nready_ok != P || got != P);
    res->elapsed_s = now_s(clk) - start;

    if (timed_out) {
        lmb_result_set_status(res, LMB_TIMEOUT, "no result within --timeout %g s; copies killed",
                              ctx->opt.timeout_s);
        goto out;
    }
    for (unsigned i = 0; i < P; i++) {
        if (reps[i].status != LMB_OK) {
            if (P > 1)
                lmb_result_set_status(res, (enum lmb_status)reps[i].status, "%s (copy %u of %u)",
                                      reps[i].reason, i + 1, P);
            else
                lmb_result_set_status(res, (enum lmb_status)reps[i].status, "%s", reps[i].reason);
            goto out;
        }
        if (WIFSIGNALED(wst[i])) {
            lmb_result_set_status(res, LMB_FAILED, "copy %u killed by signal %d (%s)", i,
                                  WTERMSIG(wst[i]), strsignal(WTERMSIG(wst[i])));
            goto out;
        }
        if (reps[i].n != N) {
            lmb_result_set_status(res, LMB_FAILED, "copy %u ended without its results", i);
            goto out;
        }
    }

    res->samples = calloc(N, sizeof *res->samples);
    if (res->samples == NULL) {
        lmb_result_set_status(res, LMB_FAILED, "out of memory");
        goto out;
    }
    res->n = N;
    res->iters = reps[0].iters;
    double shortest = -1;
    for (unsigned i = 0; i < P; i++) {
        res->cpu_ran[i] = reps[i].cpu;
        for (unsigned r = 0; r < N; r++) {
            double ns = (double)reps[i].ns[r];
            double work = (double)reps[i].iters * t->per_iter;
            if (shortest < 0 || ns < shortest)
                shortest = ns;
            if (t->metric == LMB_METRIC_LATENCY)
                res->samples[r] += ns / work / P;
            else
                res->samples[r] += ns > 0 ? work / (ns * 1e-9) : INFINITY;
        }
    }
    if (shortest < 100.0 * lmb_clock_error_ns(clk)) {
        lmb_result_set_status(res, LMB_BELOW_RESOLUTION,
                              "a timed interval lasted %.0f ns, under 100 times the clock's "
                              "error (%.0f ns); raise ENOUGH or --min-time",
                              shortest, lmb_clock_error_ns(clk));
    } else {
        res->status = LMB_OK;
    }

out:
    if (pids != NULL && wst != NULL)
        kill_and_reap(pids, P, wst, true);
    close_fd(&ready[0]);
    close_fd(&ready[1]);
    close_fd(&go[0]);
    close_fd(&go[1]);
    close_fd(&done[0]);
    close_fd(&done[1]);
    if (reps != MAP_FAILED)
        munmap(reps, shm_len);
    free(pids);
    free(wst);
    free(buf);
}
