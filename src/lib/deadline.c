// SPDX-License-Identifier: MIT
/* The command's --timeout: the monotonic clock in seconds, the deadline passed
 * to earlier launches, and the two-stage SIGALRM backstop (deadline.h). */
#include "lib/deadline.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lib/bench.h"

double lmb_mono_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double lmb_deadline_inherited(void)
{
    const char *v = getenv(LMB_DEADLINE_ENV);
    char *end;
    unsigned long long ns;

    if (v == NULL || *v < '0' || *v > '9')
        return 0;
    errno = 0;
    ns = strtoull(v, &end, 10);
    if (errno != 0 || *end != '\0' || ns == 0)
        return 0;
    return (double)ns / 1e9;
}

int lmb_deadline_export(double deadline_s)
{
    char num[32];

    if (deadline_s <= 0)
        return unsetenv(LMB_DEADLINE_ENV);
    snprintf(num, sizeof num, "%llu", (unsigned long long)(deadline_s * 1e9));
    return setenv(LMB_DEADLINE_ENV, num, 1);
}

/* The backstop's state, reached from the SIGALRM handler: process-wide by
 * necessity; bookkeeping only. */
enum { ST_OFF, ST_JUMP, ST_EXIT };
static volatile sig_atomic_t stage = ST_OFF;
static sigjmp_buf *volatile jump_to;
static const char *volatile exit_message;
static double armed_deadline;

static void set_timer(double s)
{
    struct itimerval it;

    memset(&it, 0, sizeof it);
    if (s < 0.001)
        s = 0.001;
    it.it_value.tv_sec = (time_t)s;
    it.it_value.tv_usec = (suseconds_t)((s - (double)(time_t)s) * 1e6);
    setitimer(ITIMER_REAL, &it, NULL);
}

/* The last stage: what SIGTERM would do (the handler cleanup.c installed
 * kills the tracked children and removes the temporary files; SIGTERM is
 * blocked first, so that its re-raising the signal cannot end the process
 * with it), then exit 1. Async-signal-safe. */
static void hard_exit(void)
{
    const char *m = exit_message;
    struct sigaction term;
    sigset_t block;

    if (m != NULL && write(STDERR_FILENO, m, strlen(m)) < 0)
        m = NULL;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, NULL);
    if (sigaction(SIGTERM, NULL, &term) == 0 && !(term.sa_flags & SA_SIGINFO) &&
        term.sa_handler != SIG_DFL && term.sa_handler != SIG_IGN)
        term.sa_handler(SIGTERM);
    _exit(1);
}

static void on_alarm(int sig)
{
    (void)sig;
    if (stage == ST_JUMP && jump_to != NULL) {
        sigjmp_buf *jb = jump_to;
        struct itimerval it;
        jump_to = NULL;
        stage = ST_EXIT;
        memset(&it, 0, sizeof it);
        it.it_value.tv_sec = (time_t)LMB_BACKSTOP_GRACE_S;
        it.it_value.tv_usec =
            (suseconds_t)((LMB_BACKSTOP_GRACE_S - (double)(time_t)LMB_BACKSTOP_GRACE_S) * 1e6);
        setitimer(ITIMER_REAL, &it, NULL);
        siglongjmp(*jb, 1);
    }
    if (stage != ST_OFF)
        hard_exit();
}

void lmb_backstop_arm(sigjmp_buf *jb, double deadline_s, const char *message)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;   /* the second stage may come while the first runs */
    exit_message = message;
    armed_deadline = deadline_s;
    jump_to = jb;
    stage = ST_JUMP;
    sigaction(SIGALRM, &sa, NULL);
    {
        sigset_t alrm;
        sigemptyset(&alrm);
        sigaddset(&alrm, SIGALRM);
        sigprocmask(SIG_UNBLOCK, &alrm, NULL);
    }
    set_timer(deadline_s + LMB_BACKSTOP_GRACE_S - lmb_mono_s());
}

void lmb_backstop_leave(void)
{
    if (stage != ST_JUMP)
        return;
    /* Not fired: what is left (printing the report) may take until the
     * second stage would have come. */
    jump_to = NULL;
    stage = ST_EXIT;
    set_timer(armed_deadline + 2 * LMB_BACKSTOP_GRACE_S - lmb_mono_s());
}

void lmb_backstop_disarm(void)
{
    struct itimerval it;

    if (stage == ST_OFF)
        return;
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_REAL, &it, NULL);
    stage = ST_OFF;
    jump_to = NULL;
    signal(SIGALRM, SIG_DFL);
}

/* --- what benchmarks ask (bench.h) -------------------------------------------- */

double lmb_time_left(const struct lmb_ctx *ctx)
{
    double left;

    if (ctx->opt.deadline_s <= 0)
        return INFINITY;
    left = ctx->opt.deadline_s - (double)lmb_now(&ctx->clock) / 1e9;
    return left > 0 ? left : 0;
}

bool lmb_out_of_time(const struct lmb_ctx *ctx, struct lmb_result *res)
{
    if (ctx->opt.deadline_s <= 0 || lmb_time_left(ctx) > 0)
        return false;
    if (res != NULL) {
        memset(res, 0, sizeof *res);
        lmb_result_set_status(res, LMB_TIMEOUT,
                              "not measured: the command's --timeout of %g s had run out",
                              ctx->opt.timeout_s);
    }
    return true;
}
