// SPDX-License-Identifier: MIT
/* lmb_measure: copies forked, run in lockstep, timed, gathered, always reaped.
 *
 * Each of the -P copies is a process. It sets itself up (init), starts its
 * partners if the benchmark has any (the other end of a pipe, the rest of a
 * ring), then takes part in rounds with the other copies:
 *
 *   run the count the plan says, timed;
 *   if last to finish: decide the next round (the plan) and start it; else
 *   keep running the loop untimed, in small chunks, until the last copy has
 *   finished and decided, then start the next round at once.
 *
 * So every copy's timed interval runs while all the others are busy too, and a
 * summed bandwidth is one the copies achieved together. The plan (warm-up,
 * calibration, one untimed interval, the samples) lives in shared memory and is
 * only written by the last copy to finish a round, while the others wait; every
 * decision is made from the slowest copy's interval, so all copies use one
 * iteration count.
 *
 * The parent only watches: it waits for SIGCHLD or the deadline, notices the
 * first copy to die on its own at once, kills the rest, and reaps everyone. */
#include "lib/bench.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cleanup.h"

#define MAX_PARTNERS 128   /* lat_ctx rings of up to 129 processes (lmbench 3 ran 96) */
#define PARTNER_GRACE_NS 1000000000ULL   /* a partner's time to leave after cleanup */

enum phase {
    PH_WARMUP,        /* -W: untimed rounds until the warm-up time is spent */
    PH_CALIBRATE,     /* rounds fed to the calibration state machine */
    PH_WARM,          /* one untimed interval at the final count */
    PH_SAMPLE,        /* the timed repetitions */
    PH_DONE,
};

/* A partner's report, in the copy's slot. */
struct partner_slot {
    int32_t cpu_start, cpu_end;
    char reason[LMB_REASON_LEN];
};

/* The atomics below live in memory shared between processes: keep them
 * int-sized. A 64-bit atomic on 32-bit ARM without LDREXD (armel, ARMv5) is a
 * call into libatomic, which does not link statically by default and guards it
 * with process-local locks; int-sized ones are kernel-helper or native
 * instructions everywhere. */
/* What one copy hands back, in memory shared with the parent. Followed in the
 * mapping by n sample lengths and n spans. */
struct copy_slot {
    atomic_int status;            /* enum lmb_status */
    atomic_int done;              /* finished every round; results complete */
    int32_t cpu;                  /* where it ran last, -1 unknown */
    uint64_t last_ns;             /* its interval of the round just run */
    char reason[LMB_REASON_LEN];
    struct lmb_fact facts[LMB_MAX_FACTS];
    unsigned nfacts;
    struct partner_slot partner[MAX_PARTNERS];
};

/* The plan and the start barrier, shared by all copies. */
struct shared {
    pthread_barrier_t barrier;    /* once, when every copy is set up */
    atomic_uint finished;         /* copies done with the current round's timed run */
    atomic_uint round_done;       /* the last round every copy has finished */
    /* Written by the last finisher of a round only: */
    int phase;
    uint64_t iters;
    unsigned sample;              /* index of the next sample */
    uint64_t warm_spent_ns;       /* -W time spent so far (slowest copy per round) */
    uint64_t cal_spent_ns;
    struct lmb_cal cal;
    unsigned recalibrations;
    bool still_short;             /* samples short of half the target after recalibrating */
    bool hit_max;                 /* the loop is too fast to fill an interval */
    uint64_t warm_ns;             /* warm-up (-W and the untimed intervals), slowest copy */
};

struct layout {
    unsigned P, N;
    size_t slot_size;
    size_t len;
    struct shared *sh;
    char *slots;
};

static struct copy_slot *slot_of(const struct layout *l, unsigned i)
{
    return (struct copy_slot *)(void *)(l->slots + (size_t)i * l->slot_size);
}

static uint64_t *ns_of(const struct layout *l, unsigned i)
{
    return (uint64_t *)(void *)((char *)slot_of(l, i) + sizeof(struct copy_slot));
}

static struct lmb_span *spans_of(const struct layout *l, unsigned i)
{
    return (struct lmb_span *)(void *)(ns_of(l, i) + l->N);
}

/* --- in a copy ------------------------------------------------------------ */

/* The copy's own slot and partners, for lmb_abort_copy, lmb_copy_fact_* and
 * the SIGCHLD handler. Process-wide by necessity (a signal handler and a call
 * from deep inside a timed loop must reach them); they hold bookkeeping, never
 * results, and are set only in a copy. */
static struct copy_slot *this_copy;
static unsigned this_copy_index, this_copy_count;
static volatile pid_t partner_pids[MAX_PARTNERS];
static unsigned npartner_pids;
static volatile sig_atomic_t tearing_down;

/* Appends text to buf[*len] within cap, async-signal-safe. */
static void put_text(char *buf, size_t *len, size_t cap, const char *s)
{
    while (*s && *len + 1 < cap)
        buf[(*len)++] = *s++;
    buf[*len] = '\0';
}

static void put_uint(char *buf, size_t *len, size_t cap, unsigned long v)
{
    char tmp[24];
    int i = 0;

    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && i < (int)sizeof tmp);
    while (i > 0 && *len + 1 < cap)
        buf[(*len)++] = tmp[--i];
    buf[*len] = '\0';
}

/* Marks the copy failed because partner k ended early (wait status st, or -1
 * for a thread), and leaves at once. Async-signal-safe. */
static void partner_failed(unsigned k, int st)
{
    struct copy_slot *s = this_copy;
    size_t n = 0;

    if (s == NULL)
        _exit(1);
    s->reason[0] = '\0';
    put_text(s->reason, &n, sizeof s->reason, "partner ");
    put_uint(s->reason, &n, sizeof s->reason, k + 1);
    if (st >= 0 && WIFSIGNALED(st)) {
        put_text(s->reason, &n, sizeof s->reason, " killed by signal ");
        put_uint(s->reason, &n, sizeof s->reason, (unsigned long)WTERMSIG(st));
    } else if (s->partner[k].reason[0] != '\0') {
        put_text(s->reason, &n, sizeof s->reason, " failed: ");
        put_text(s->reason, &n, sizeof s->reason, s->partner[k].reason);
    } else {
        put_text(s->reason, &n, sizeof s->reason, " ended before the measurement did");
    }
    atomic_store(&s->status, LMB_FAILED);
    _exit(1);
}

static void on_partner_exit(int sig)
{
    int saved = errno;

    (void)sig;
    for (unsigned k = 0; k < npartner_pids; k++) {
        pid_t p = partner_pids[k];
        int st;
        if (p > 0 && waitpid(p, &st, WNOHANG) == p) {
            partner_pids[k] = 0;
            if (!tearing_down)
                partner_failed(k, st);
        }
    }
    errno = saved;
}

void lmb_abort_copy(const char *fmt, ...)
{
    va_list ap;

    if (this_copy != NULL) {
        va_start(ap, fmt);
        vsnprintf(this_copy->reason, sizeof this_copy->reason, fmt, ap);
        va_end(ap);
        atomic_store(&this_copy->status, LMB_FAILED);
    }
    _exit(1);
}

static struct lmb_fact *copy_fact(const char *key)
{
    struct copy_slot *s = this_copy;

    if (s == NULL)
        return NULL;
    for (unsigned i = 0; i < s->nfacts; i++)
        if (strcmp(s->facts[i].key, key) == 0)
            return &s->facts[i];
    if (s->nfacts >= LMB_MAX_FACTS)
        return NULL;
    memset(&s->facts[s->nfacts], 0, sizeof s->facts[0]);
    snprintf(s->facts[s->nfacts].key, sizeof s->facts[0].key, "%s", key);
    return &s->facts[s->nfacts++];
}

void lmb_copy_fact_int(const char *key, long long v)
{
    struct lmb_fact *f = copy_fact(key);

    if (f != NULL) {
        f->is_int = true;
        f->ival = v;
    }
}

void lmb_copy_fact_str(const char *key, const char *v)
{
    struct lmb_fact *f = copy_fact(key);

    if (f != NULL) {
        f->is_int = false;
        snprintf(f->sval, sizeof f->sval, "%s", v);
    }
}

unsigned lmb_copy_index(void)
{
    return this_copy_index;
}

unsigned lmb_copy_count(void)
{
    return this_copy_count;
}

/* The slowest copy's interval of the round just run. */
static uint64_t slowest(const struct layout *l)
{
    uint64_t m = 0;

    for (unsigned i = 0; i < l->P; i++)
        if (slot_of(l, i)->last_ns > m)
            m = slot_of(l, i)->last_ns;
    return m;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The median over the samples of the slowest copy's interval. */
static uint64_t median_slowest_sample(const struct layout *l)
{
    uint64_t *v = calloc(l->N, sizeof *v), m;

    if (v == NULL)
        return UINT64_MAX;
    for (unsigned r = 0; r < l->N; r++)
        for (unsigned i = 0; i < l->P; i++)
            if (ns_of(l, i)[r] > v[r])
                v[r] = ns_of(l, i)[r];
    qsort(v, l->N, sizeof *v, cmp_u64);
    m = v[l->N / 2];
    free(v);
    return m;
}

/* The plan for the next round, from the round just run: by the last copy to
 * finish it, while every other copy waits. */
static void decide(struct shared *sh, const struct layout *l, uint64_t interval_ns,
                   uint64_t warmup_ns)
{
    uint64_t e = slowest(l);

    switch (sh->phase) {
    case PH_WARMUP:
        sh->warm_spent_ns += e;
        sh->warm_ns += e;
        if (sh->warm_spent_ns >= warmup_ns) {
            sh->phase = PH_CALIBRATE;
            sh->iters = sh->cal.iters;
        } else if (sh->iters < (1ULL << 40)) {
            sh->iters *= 2;
        }
        return;
    case PH_CALIBRATE:
        sh->cal_spent_ns += e;
        if (!lmb_cal_feed(&sh->cal, e, sh->cal_spent_ns)) {
            sh->iters = sh->cal.iters;
            return;
        }
        if (sh->cal.hit_max_iters) {
            sh->hit_max = true;
            sh->phase = PH_DONE;
            return;
        }
        sh->iters = sh->cal.iters;
        sh->phase = PH_WARM;
        return;
    case PH_WARM:
        sh->warm_ns += e;
        sh->phase = PH_SAMPLE;
        sh->sample = 0;
        return;
    case PH_SAMPLE:
        if (++sh->sample < l->N)
            return;
        {
            uint64_t m = median_slowest_sample(l);
            if (m < interval_ns / 2) {
                if (sh->recalibrations == 0) {
                    /* Calibration was fooled (an interruption made an interval
                     * look long): aim again from what the samples say, warm, and
                     * take the samples anew. */
                    sh->recalibrations++;
                    sh->iters = lmb_cal_rescale(sh->iters, m, interval_ns);
                    sh->phase = PH_WARM;
                    return;
                }
                sh->still_short = true;
            }
        }
        sh->phase = PH_DONE;
        return;
    case PH_DONE:
        return;
    }
}

struct copy_args {
    const struct lmb_ctx *ctx;
    const struct lmb_timed *t;
    const struct layout *l;
    unsigned index;
    int cpu;
    const int *partner_cpus;      /* t->partners entries */
    uint64_t origin;              /* the clock at the start, for spans (the clock is
                                     the system's, one for all processes) */
};

struct thread_args {
    const struct lmb_timed *t;
    const struct lmb_sched *sched;
    unsigned k;
    int cpu;
};

/* The body of a partner, process or thread. Returns only on success. */
static void partner_body(const struct lmb_timed *t, const struct lmb_sched *sched, unsigned k,
                         int cpu, bool thread)
{
    struct partner_slot *ps = &this_copy->partner[k];
    struct lmb_partner_ctx pc = { .index = k, .thread = thread, .err = ps->reason,
                                  .errlen = sizeof ps->reason };

    if (lmb_sched_apply(sched, cpu) != 0) {
        snprintf(ps->reason, sizeof ps->reason, "cannot place it on CPU %d: %s", cpu,
                 strerror(errno));
        if (thread)
            partner_failed(k, -1);
        _exit(1);
    }
    ps->cpu_start = sched_getcpu();
    if (t->partner(t->state, &pc) != 0) {
        if (ps->reason[0] == '\0')
            snprintf(ps->reason, sizeof ps->reason, "it reported an error");
        if (thread && !tearing_down)
            partner_failed(k, -1);
        if (!thread)
            _exit(1);
        return;
    }
    ps->cpu_end = sched_getcpu();
    if (thread && !tearing_down)
        partner_failed(k, -1);   /* it left while the copy still needed it */
}

static void *partner_thread(void *arg)
{
    const struct thread_args *a = arg;

    partner_body(a->t, a->sched, a->k, a->cpu, true);
    return NULL;
}

/* Starts the copy's partners. Returns 0, or -1 with the reason in the slot. */
static int start_partners(const struct copy_args *a, pthread_t *threads,
                          struct thread_args *targs)
{
    const struct lmb_timed *t = a->t;
    struct copy_slot *s = this_copy;
    bool use_threads = a->ctx->opt.threads;

    if (!use_threads) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_partner_exit;
        sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGCHLD, &sa, NULL);
    }
    for (unsigned k = 0; k < t->partners; k++) {
        s->partner[k].cpu_start = s->partner[k].cpu_end = -1;
        if (use_threads) {
            targs[k] = (struct thread_args){ t, &a->ctx->sched, k, a->partner_cpus[k] };
            int rc = pthread_create(&threads[k], NULL, partner_thread, &targs[k]);
            if (rc != 0) {
                snprintf(s->reason, sizeof s->reason, "cannot start partner thread %u: %s",
                         k + 1, strerror(rc));
                return -1;
            }
            continue;
        }
        pid_t me = getpid(), pid = fork();
        if (pid < 0) {
            snprintf(s->reason, sizeof s->reason, "cannot fork partner %u: %s", k + 1,
                     strerror(errno));
            return -1;
        }
        if (pid == 0) {
            signal(SIGCHLD, SIG_DFL);
            npartner_pids = 0;
            if (lmb_cleanup_child(me) != 0)
                _exit(1);
            partner_body(t, &a->ctx->sched, k, a->partner_cpus[k], false);
            _exit(0);
        }
        partner_pids[k] = pid;
        npartner_pids = k + 1;
    }
    if (t->after_partners != NULL)
        t->after_partners(t->state, use_threads);
    return 0;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* After cleanup: partners leave on their own within a grace period, or are
 * killed. Threads that do not leave end with the copy's process. */
static void stop_partners(const struct lmb_timed *t, bool threads, pthread_t *th)
{
    uint64_t until = mono_ns() + PARTNER_GRACE_NS;

    if (threads) {
        for (unsigned k = 0; k < t->partners; k++) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_sec += 1;
            if (pthread_timedjoin_np(th[k], NULL, &ts) != 0)
                return;
        }
        return;
    }
    for (;;) {
        bool left = false;
        for (unsigned k = 0; k < npartner_pids; k++) {
            pid_t p = partner_pids[k];
            if (p > 0 && waitpid(p, NULL, WNOHANG) == 0)
                left = true;
            else
                partner_pids[k] = 0;
        }
        if (!left || mono_ns() >= until)
            break;
        struct timespec nap = { 0, 2000000 };
        nanosleep(&nap, NULL);
    }
    for (unsigned k = 0; k < npartner_pids; k++)
        if (partner_pids[k] > 0) {
            kill(partner_pids[k], SIGKILL);
            while (waitpid(partner_pids[k], NULL, 0) < 0 && errno == EINTR)
                ;
            partner_pids[k] = 0;
        }
}

/* The life of one copy, in the child. Never returns. */
static void run_copy(const struct copy_args *a, pid_t parent, const sigset_t *mask)
{
    const struct lmb_ctx *ctx = a->ctx;
    const struct lmb_timed *t = a->t;
    const struct layout *l = a->l;
    const struct lmb_clock *clk = &ctx->clock;
    struct shared *sh = l->sh;
    struct copy_slot *s = slot_of(l, a->index);
    pthread_t threads[MAX_PARTNERS];
    struct thread_args targs[MAX_PARTNERS];

    this_copy = s;
    this_copy_index = a->index;
    this_copy_count = l->P;
    s->cpu = -1;
    if (lmb_cleanup_child(parent) != 0)
        _exit(1);
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (lmb_sched_apply(&ctx->sched, a->cpu) != 0)
        lmb_abort_copy("cannot place the copy on CPU %d: %s", a->cpu, strerror(errno));
    if (t->init != NULL && t->init(t->state, s->reason, sizeof s->reason) != 0) {
        if (s->reason[0] == '\0')
            snprintf(s->reason, sizeof s->reason, "set-up failed");
        atomic_store(&s->status, LMB_FAILED);
        _exit(1);
    }
    if (t->partners > 0 && start_partners(a, threads, targs) != 0) {
        atomic_store(&s->status, LMB_FAILED);
        _exit(1);
    }

    /* Everyone set up: start together. From then on a round starts when the
     * previous one's last copy has decided the next (round_done); the others
     * notice it within one small chunk of their loading. */
    int brc = pthread_barrier_wait(&sh->barrier);
    if (brc != 0 && brc != PTHREAD_BARRIER_SERIAL_THREAD)
        lmb_abort_copy("barrier: %s", strerror(brc));
    for (unsigned round = 1;; round++) {
        int phase = sh->phase;
        uint64_t iters = sh->iters;
        unsigned sample = sh->sample;
        if (phase == PH_DONE)
            break;

        uint64_t t0 = lmb_now(clk);
        t->run(iters, t->state);
        uint64_t t1 = lmb_now(clk);
        s->last_ns = t1 - t0;
        if (phase == PH_SAMPLE) {
            ns_of(l, a->index)[sample] = t1 - t0;
            spans_of(l, a->index)[sample].start = t0 - a->origin;
            spans_of(l, a->index)[sample].end = t1 - a->origin;
        }
        if (atomic_fetch_add(&sh->finished, 1) + 1 == l->P) {
            atomic_store(&sh->finished, 0);
            decide(sh, l, ctx->interval_ns, ctx->opt.warmup_us * 1000ULL);
            atomic_store(&sh->round_done, round);
        } else {
            /* Keep the machine as busy as it was while the others finish, in
             * chunks small enough (1/256 of an interval) that the next round
             * starts at nearly the same moment for everyone. */
            uint64_t chunk = iters / 256 ? iters / 256 : 1;
            while (atomic_load(&sh->round_done) != round)
                t->run(chunk, t->state);
        }
        if (phase == PH_SAMPLE)
            spans_of(l, a->index)[sample].release = lmb_now(clk) - a->origin;
    }

    s->cpu = sched_getcpu();
    tearing_down = 1;
    if (t->cleanup != NULL)
        t->cleanup(t->state);
    if (t->partners > 0)
        stop_partners(t, ctx->opt.threads, threads);
    atomic_store(&s->done, 1);
    _exit(0);
}

/* --- in the parent -------------------------------------------------------- */

static double now_s(const struct lmb_clock *c)
{
    return (double)lmb_now(c) / 1e9;
}

static void kill_all(pid_t *pids, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (pids[i] > 0)
            kill(pids[i], SIGKILL);
}

/* Waits for every copy. The first to end without its results is the one to
 * blame; the others are then killed and reaped without blame. Returns the index
 * of the culprit, or -1; *timed_out when the deadline passed first. */
static int watch_copies(pid_t *pids, int *wst, unsigned P, const struct layout *l,
                        const struct lmb_clock *clk, double deadline, bool *timed_out)
{
    sigset_t chld;
    unsigned alive = P;
    int culprit = -1;
    bool killing = false;

    *timed_out = false;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    while (alive > 0) {
        for (unsigned i = 0; i < P; i++) {
            int st = 0;
            pid_t r;
            if (pids[i] <= 0)
                continue;
            r = waitpid(pids[i], &st, WNOHANG);
            if (r == 0 || (r < 0 && errno == EINTR))
                continue;
            if (r < 0)
                st = -1;   /* ECHILD: reaped elsewhere; its slot tells */
            lmb_child_untrack(pids[i]);
            pids[i] = 0;
            wst[i] = st;
            alive--;
            bool fine = !killing && atomic_load(&slot_of(l, i)->done) &&
                        (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 0));
            if (!fine && !killing) {
                culprit = (int)i;
                killing = true;
                kill_all(pids, P);
            }
        }
        if (alive == 0)
            break;
        double wait = 1.0;
        if (deadline > 0 && !killing) {
            double left = deadline - now_s(clk);
            if (left <= 0) {
                *timed_out = true;
                killing = true;
                kill_all(pids, P);
                continue;
            }
            if (left < wait)
                wait = left;
        }
        struct timespec ts = { (time_t)wait, (long)((wait - floor(wait)) * 1e9) };
        if (ts.tv_sec == 0 && ts.tv_nsec < 1000000)
            ts.tv_nsec = 1000000;
        sigtimedwait(&chld, NULL, &ts);
    }
    return culprit;
}

/* The reason a copy gave, or how it ended: "copy 2 of 4 killed by signal 11
 * (Segmentation fault)", "read: Bad file descriptor (copy 2 of 4)". Copies are
 * numbered from 1 in every message. */
static void blame(struct lmb_result *res, const struct copy_slot *s, int st, unsigned i,
                  unsigned P)
{
    char who[40] = "", tail[40] = "";
    int v = atomic_load(&s->status);

    if (P > 1) {
        snprintf(who, sizeof who, "copy %u of %u ", i + 1, P);
        snprintf(tail, sizeof tail, " (copy %u of %u)", i + 1, P);
    }
    if (st != -1 && WIFSIGNALED(st))
        lmb_result_set_status(res, LMB_FAILED, "%skilled by signal %d (%s)", who, WTERMSIG(st),
                              strsignal(WTERMSIG(st)));
    else if (s->reason[0] != '\0')
        lmb_result_set_status(res, v > LMB_OK && v < LMB_NSTATUS ? (enum lmb_status)v : LMB_FAILED,
                              "%s%s", s->reason, tail);
    else if (st != -1 && WIFEXITED(st))
        lmb_result_set_status(res, LMB_FAILED, "%sended (exit status %d) without its results",
                              who, WEXITSTATUS(st));
    else
        lmb_result_set_status(res, LMB_FAILED, "%sended without its results", who);
}

/* Whether the copies' CPUs are fewer than the copies. */
static void note_crowding(struct lmb_result *res, const struct lmb_sched *sched, unsigned P)
{
    int distinct = 0;
    bool pinned = true;

    for (unsigned i = 0; i < P && pinned; i++)
        if (res->cpu_assigned[i] < 0)
            pinned = false;
    if (pinned) {
        for (unsigned i = 0; i < P; i++) {
            bool seen = false;
            for (unsigned j = 0; j < i && !seen; j++)
                seen = res->cpu_assigned[j] == res->cpu_assigned[i];
            if (!seen)
                distinct++;
        }
    } else {
        distinct = sched->ncpus;
    }
    if (distinct > 0 && P > (unsigned)distinct)
        lmb_result_warn(res, "%u copies share %d CPU%s: they take turns, so the figure is what "
                        "the CPU%s did together, not %u copies at full speed",
                        P, distinct, distinct == 1 ? "" : "s", distinct == 1 ? "" : "s", P);
}

/* "same_cpu", "two_cpus" or "unpinned", from where copy 0 and its partners were
 * put (--cpus with a single CPU confines every end to it: same_cpu too). */
static const char *ends_of(const struct lmb_result *res, const struct lmb_sched *sched)
{
    int first = res->cpu_assigned[0];
    bool same = true;

    if (sched->ncpus == 1)
        return "same_cpu";
    if (first < 0)
        return "unpinned";
    for (unsigned k = 0; k < res->partners; k++) {
        int c = res->partner_assigned[k];
        if (c < 0)
            return "unpinned";
        if (c != first)
            same = false;
    }
    return same ? "same_cpu" : "two_cpus";
}

static int init_barrier(struct shared *sh, unsigned P)
{
    pthread_barrierattr_t ba;
    int rc;

    if ((rc = pthread_barrierattr_init(&ba)) != 0)
        return rc;
    rc = pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
    if (rc == 0)
        rc = pthread_barrier_init(&sh->barrier, &ba, P);
    pthread_barrierattr_destroy(&ba);
    return rc;
}

void lmb_measure(struct lmb_ctx *ctx, const struct lmb_timed *t, struct lmb_result *res)
{
    const struct lmb_clock *clk = &ctx->clock;
    unsigned P = ctx->opt.parallel ? ctx->opt.parallel : 1;
    unsigned N = ctx->opt.repetitions ? ctx->opt.repetitions : 1;
    unsigned K = t->partners;
    struct layout l = { .P = P, .N = N };
    pid_t *pids = NULL;
    int *wst = NULL;
    int partner_cpus[MAX_PARTNERS];
    double start = now_s(clk), deadline = 0;
    uint64_t origin = lmb_now(clk);
    sigset_t chld, old;
    bool timed_out = false, by_command = false;
    int culprit;

    memset(res, 0, sizeof *res);
    res->copies = P;
    res->partners = K;
    res->partner_threads = ctx->opt.threads;
    res->policy = lmb_sched_policy_name(ctx->sched.policy);
    if (K > MAX_PARTNERS) {
        lmb_result_set_status(res, LMB_FAILED, "%u partners asked; at most %d", K, MAX_PARTNERS);
        return;
    }
    /* The command's --timeout has run out: not started. */
    if (ctx->opt.deadline_s > 0 && start >= ctx->opt.deadline_s) {
        lmb_result_set_status(res, LMB_TIMEOUT,
                              "not measured: the command's --timeout of %g s had run out",
                              ctx->opt.timeout_s);
        return;
    }
    res->cpu_assigned = malloc(P * sizeof *res->cpu_assigned);
    res->cpu_ran = malloc(P * sizeof *res->cpu_ran);
    res->partner_assigned = malloc((K ? K : 1) * (size_t)P * sizeof(int));
    res->partner_ran = malloc((K ? K : 1) * (size_t)P * sizeof(int));
    pids = calloc(P, sizeof *pids);
    wst = calloc(P, sizeof *wst);
    if (!res->cpu_assigned || !res->cpu_ran || !res->partner_assigned || !res->partner_ran ||
        !pids || !wst) {
        lmb_result_set_status(res, LMB_FAILED, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < P; i++) {
        res->cpu_assigned[i] = lmb_sched_cpu_for(&ctx->sched, i, 0, 1 + K);
        res->cpu_ran[i] = -1;
        for (unsigned k = 0; k < K; k++) {
            res->partner_assigned[i * K + k] = lmb_sched_cpu_for(&ctx->sched, i, 1 + k, 1 + K);
            res->partner_ran[i * K + k] = -1;
        }
    }

    l.slot_size = sizeof(struct copy_slot) + (size_t)N * (sizeof(uint64_t) + sizeof(struct lmb_span));
    l.slot_size = (l.slot_size + 63) / 64 * 64;
    l.len = sizeof(struct shared) + 64 + (size_t)P * l.slot_size;
    l.sh = mmap(NULL, l.len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (l.sh == MAP_FAILED) {
        l.sh = NULL;
        lmb_result_set_status(res, LMB_FAILED, "mmap of %zu bytes: %s", l.len, strerror(errno));
        goto out;
    }
    l.slots = (char *)l.sh + (sizeof(struct shared) + 63) / 64 * 64;
    {
        int rc = init_barrier(l.sh, P);
        if (rc != 0) {
            lmb_result_set_status(res, LMB_FAILED, "barrier: %s", strerror(rc));
            goto out;
        }
    }
    lmb_cal_start(&l.sh->cal, ctx->interval_ns, lmb_cal_budget_ns(ctx->interval_ns),
                  100.0 * lmb_clock_error_ns(clk));
    l.sh->phase = ctx->opt.warmup_us > 0 ? PH_WARMUP : PH_CALIBRATE;
    l.sh->iters = 1;

    /* The timeout bounds everything, warm-up included: the command's
     * --timeout when it was given, else the internal bound of one
     * measurement (timeout_s, LMB_DEFAULT_TIMEOUT_S). */
    if (ctx->opt.deadline_s > 0) {
        deadline = ctx->opt.deadline_s;
        by_command = true;
    } else if (ctx->opt.timeout_s > 0) {
        deadline = start + ctx->opt.timeout_s;
    }

    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    fflush(NULL);
    for (unsigned i = 0; i < P; i++) {
        pid_t parent = getpid();
        pid_t pid = lmb_fork_tracked();   /* the child restores its mask in run_copy */
        if (pid < 0) {
            lmb_result_set_status(res, LMB_FAILED, "fork: %s", strerror(errno));
            kill_all(pids, P);
            for (unsigned j = 0; j < i; j++) {
                while (waitpid(pids[j], NULL, 0) < 0 && errno == EINTR)
                    ;
                lmb_child_untrack(pids[j]);
                pids[j] = 0;
            }
            sigprocmask(SIG_SETMASK, &old, NULL);
            goto out;
        }
        if (pid == 0) {
            for (unsigned k = 0; k < K; k++)
                partner_cpus[k] = res->partner_assigned[i * K + k];
            struct copy_args a = { ctx, t, &l, i, res->cpu_assigned[i], partner_cpus, origin };
            run_copy(&a, parent, &old);
        }
        pids[i] = pid;
    }

    culprit = watch_copies(pids, wst, P, &l, clk, deadline, &timed_out);
    sigprocmask(SIG_SETMASK, &old, NULL);
    res->elapsed_s = now_s(clk) - start;

    for (unsigned i = 0; i < P; i++) {
        const struct copy_slot *s = slot_of(&l, i);
        res->cpu_ran[i] = s->cpu;
        for (unsigned k = 0; k < K; k++)
            res->partner_ran[i * K + k] = s->partner[k].cpu_end >= 0 ? s->partner[k].cpu_end
                                                                     : s->partner[k].cpu_start;
    }
    if (K > 0)
        lmb_result_fact_str(res, "ends", ends_of(res, &ctx->sched));
    note_crowding(res, &ctx->sched, P);

    if (timed_out) {
        if (by_command)
            lmb_result_set_status(res, LMB_TIMEOUT, "the command's --timeout of %g s ran out "
                                  "before the result; copies killed", ctx->opt.timeout_s);
        else
            lmb_result_set_status(res, LMB_TIMEOUT, "no result within %g s (the bound of one "
                                  "measurement without --timeout); copies killed",
                                  ctx->opt.timeout_s);
        goto out;
    }
    if (culprit >= 0) {
        blame(res, slot_of(&l, (unsigned)culprit), wst[culprit], (unsigned)culprit, P);
        goto out;
    }
    for (unsigned f = 0; f < slot_of(&l, 0)->nfacts; f++) {
        const struct lmb_fact *fa = &slot_of(&l, 0)->facts[f];
        if (fa->is_int)
            lmb_result_fact_int(res, fa->key, fa->ival);
        else
            lmb_result_fact_str(res, fa->key, fa->sval);
    }
    res->iters = l.sh->iters;
    res->warmup_s = (double)l.sh->warm_ns / 1e9;
    if (l.sh->hit_max) {
        lmb_result_set_status(res, LMB_BELOW_RESOLUTION,
                              "%llu iterations took only %llu ns: the operation is too fast to time",
                              (unsigned long long)l.sh->cal.iters,
                              (unsigned long long)l.sh->cal.last_ns);
        goto out;
    }
    if (l.sh->cal.gave_up)
        lmb_result_warn(res, "calibration did not settle within %.1f s (intervals of one count "
                        "disagreed by more than %.0f%%): the machine is noisy",
                        (double)l.sh->cal.budget_ns / 1e9, 100.0 * (1.0 - LMB_CAL_AGREE));
    if (l.sh->still_short)
        lmb_result_warn(res, "timed intervals came out shorter than half the %.3f ms target even "
                        "after recalibrating: the machine is noisy",
                        (double)ctx->interval_ns / 1e6);

    res->samples = calloc(N, sizeof *res->samples);
    res->spans = calloc((size_t)N * P, sizeof *res->spans);
    if (res->samples == NULL || res->spans == NULL) {
        lmb_result_set_status(res, LMB_FAILED, "out of memory");
        goto out;
    }
    res->n = N;
    double shortest = -1;
    double work = (double)res->iters * t->per_iter;
    for (unsigned i = 0; i < P; i++) {
        memcpy(res->spans + (size_t)i * N, spans_of(&l, i), N * sizeof *res->spans);
        for (unsigned r = 0; r < N; r++) {
            double ns = (double)ns_of(&l, i)[r];
            if (shortest < 0 || ns < shortest)
                shortest = ns;
            if (t->metric == LMB_METRIC_LATENCY)
                res->samples[r] += ns / work / P;
        }
    }
    /* A bandwidth is the copies' bytes over the time the group took, from the
     * first copy's start to the last one's end: copies that ran one after
     * another (more copies than CPUs, each interval shorter than a time slice)
     * add up to what the CPUs did, not to P times one copy. */
    if (t->metric == LMB_METRIC_BANDWIDTH)
        for (unsigned r = 0; r < N; r++) {
            uint64_t lo = UINT64_MAX, hi = 0;
            for (unsigned i = 0; i < P; i++) {
                const struct lmb_span *sp = &res->spans[(size_t)i * N + r];
                if (sp->start < lo)
                    lo = sp->start;
                if (sp->end > hi)
                    hi = sp->end;
            }
            res->samples[r] = hi > lo ? work * P / ((double)(hi - lo) * 1e-9) : INFINITY;
        }
    if (shortest < 100.0 * lmb_clock_error_ns(clk))
        lmb_result_set_status(res, LMB_BELOW_RESOLUTION,
                              "a timed interval lasted %.0f ns, under 100 times the clock's "
                              "error (%.0f ns); raise ENOUGH or --min-time",
                              shortest, lmb_clock_error_ns(clk));
    else
        res->status = LMB_OK;

out:
    /* No pthread_barrier_destroy: it waits for waiters, and a copy killed while
     * waiting never leaves. Unmapping is all the barrier needs. */
    if (l.sh != NULL)
        munmap(l.sh, l.len);
    free(pids);
    free(wst);
}
