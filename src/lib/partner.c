// SPDX-License-Identifier: MIT
/* Two-ended benchmarks until the harness starts partners itself (see
 * partner.h): partners forked by each copy after its init, placed, and reaped
 * after its cleanup. */
#include "partner.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

struct partner_slot {
    int failed;
    char reason[200];
};

struct shared {
    unsigned next_copy;
    struct partner_slot slot[];   /* one per copy */
};

/* The measurement in progress: set in the command before the copies fork, so
 * every copy has it; the pids are the copy's own. Bookkeeping, not results. */
static struct {
    struct lmb_ctx *ctx;
    const struct lmb_timed *t;
    const struct lmb_twoended *two;
    struct shared *sh;
    size_t shlen;
    unsigned copy;
    pid_t *pids;
    unsigned npids;
} cur;

static volatile sig_atomic_t child_exited;

static void on_sigchld(int sig)
{
    (void)sig;
    child_exited = 1;
}

bool lmb_partner_exited(void)
{
    return child_exited != 0;
}

void lmb_ignore_sigpipe(void)
{
    signal(SIGPIPE, SIG_IGN);
}

static void reap_partners(bool kill_now)
{
    const struct timespec ms = { 0, 1000000 };

    /* Partners leave when they see the copy's ends closed: give them a second. */
    for (unsigned waited = 0; !kill_now && waited < 1000; waited++) {
        bool left = false;
        for (unsigned i = 0; i < cur.npids; i++) {
            if (cur.pids[i] <= 0)
                continue;
            if (waitpid(cur.pids[i], NULL, WNOHANG) == cur.pids[i])
                cur.pids[i] = 0;
            else
                left = true;
        }
        if (!left)
            break;
        nanosleep(&ms, NULL);
    }
    for (unsigned i = 0; i < cur.npids; i++)
        if (cur.pids[i] > 0) {
            kill(cur.pids[i], SIGKILL);
            while (waitpid(cur.pids[i], NULL, 0) < 0 && errno == EINTR)
                ;
            cur.pids[i] = 0;
        }
    free(cur.pids);
    cur.pids = NULL;
    cur.npids = 0;
}

void lmb_partner_gone(const char *what)
{
    struct partner_slot *s = cur.sh != NULL ? &cur.sh->slot[cur.copy] : NULL;
    const struct timespec ms = { 0, 1000000 };

    /* A partner that failed says why before it exits; give it a moment. */
    for (int i = 0; s != NULL && i < 100 && !__atomic_load_n(&s->failed, __ATOMIC_ACQUIRE); i++)
        nanosleep(&ms, NULL);
    if (s != NULL && __atomic_load_n(&s->failed, __ATOMIC_ACQUIRE))
        lmb_abort_copy("%s: the partner failed: %s", what, s->reason);
    for (unsigned i = 0; i < cur.npids; i++) {
        int ws;
        if (cur.pids[i] > 0 && waitpid(cur.pids[i], &ws, WNOHANG) == cur.pids[i]) {
            cur.pids[i] = 0;
            if (WIFSIGNALED(ws))
                lmb_abort_copy("%s: partner %u was killed by signal %d (%s)", what, i + 1,
                               WTERMSIG(ws), strsignal(WTERMSIG(ws)));
        }
    }
    lmb_abort_copy("%s: the partner went away", what);
}

static void partner_fail(struct partner_slot *s, const char *fmt, const char *arg)
{
    snprintf(s->reason, sizeof s->reason, fmt, arg);
    __atomic_store_n(&s->failed, 1, __ATOMIC_RELEASE);
}

static int shim_init(void *state, char *err, size_t errlen)
{
    const struct lmb_twoended *two = cur.two;
    pid_t self = getpid();
    int rc = cur.t->init != NULL ? cur.t->init(state, err, errlen) : 0;

    if (rc != 0)
        return rc;
    cur.copy = __atomic_fetch_add(&cur.sh->next_copy, 1, __ATOMIC_SEQ_CST);
    {
        /* No SA_RESTART: a partner's death interrupts the copy's waits. */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigchld;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGCHLD, &sa, NULL);
        child_exited = 0;
    }
    cur.pids = calloc(two->partners, sizeof *cur.pids);
    if (cur.pids == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cur.npids = two->partners;
    for (unsigned k = 0; k < two->partners; k++) {
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, errlen, "fork of partner %u: %s", k + 1, strerror(errno));
            reap_partners(true);
            return -1;
        }
        if (pid == 0) {
            struct partner_slot *s = &cur.sh->slot[cur.copy];
            char why[200] = "";
            struct lmb_partner_ctx pc = { .index = k, .thread = false, .err = why,
                                          .errlen = sizeof why };
            int cpu = lmb_sched_cpu_for(&cur.ctx->sched, cur.copy, 1 + k, 1 + two->partners);
            free(cur.pids);
            cur.pids = NULL;
            cur.npids = 0;
            signal(SIGCHLD, SIG_DFL);
            if (lmb_cleanup_child(self) != 0)
                _exit(1);
            if (lmb_sched_apply(&cur.ctx->sched, cpu) != 0) {
                partner_fail(s, "cannot place the partner: %s", strerror(errno));
                _exit(1);
            }
            if (two->partner(state, &pc) != 0) {
                partner_fail(s, "%s", why[0] ? why : "it failed");
                _exit(1);
            }
            _exit(0);
        }
        cur.pids[k] = pid;
    }
    if (two->after_partners != NULL)
        two->after_partners(state, false);
    return 0;
}

static void shim_cleanup(void *state)
{
    if (cur.t->cleanup != NULL)
        cur.t->cleanup(state);
    reap_partners(false);
    signal(SIGCHLD, SIG_DFL);
}

/* Where the placement puts copy 0 and its partners. */
static const char *ends_of(const struct lmb_sched *s, unsigned partners)
{
    int first = lmb_sched_cpu_for(s, 0, 0, 1);
    bool same = true;

    if (first < 0)
        return s->restricted && s->ncpus == 1 ? "same_cpu" : "unpinned";
    for (unsigned k = 0; k < partners; k++) {
        int c = lmb_sched_cpu_for(s, 0, 1 + k, 1 + partners);
        if (c < 0)
            return "unpinned";
        if (c != first)
            same = false;
    }
    return same ? "same_cpu" : "two_cpus";
}

void lmb_measure_twoended(struct lmb_ctx *ctx, const struct lmb_timed *t,
                          const struct lmb_twoended *two, struct lmb_result *res,
                          const char **ends)
{
    struct lmb_timed wrapped = *t;
    unsigned copies = ctx->opt.parallel ? ctx->opt.parallel : 1;

    *ends = ends_of(&ctx->sched, two->partners);
    cur.ctx = ctx;
    cur.t = t;
    cur.two = two;
    cur.shlen = sizeof *cur.sh + copies * sizeof cur.sh->slot[0];
    cur.sh = mmap(NULL, cur.shlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (cur.sh == MAP_FAILED) {
        cur.sh = NULL;
        memset(res, 0, sizeof *res);
        lmb_result_set_status(res, LMB_FAILED, "mmap: %s", strerror(errno));
        return;
    }
    memset(cur.sh, 0, cur.shlen);
    wrapped.init = shim_init;
    wrapped.cleanup = shim_cleanup;
    lmb_measure(ctx, &wrapped, res);
    munmap(cur.sh, cur.shlen);
    cur.sh = NULL;
}
