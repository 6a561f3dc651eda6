// SPDX-License-Identifier: MIT
/* Memory loaders: pinned threads streaming over their own buffers, flat out or
 * paced, each logging what it delivered and when (see loader.h). */
#include "lib/loader.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "lib/mem.h"

/* The most bytes one chunk holds: between two looks at the clock and the stop
 * flag. A paced loader takes chunks of CHUNK_US microseconds at its rate (at
 * least CHUNK_MIN), so that its bytes come smoothly, not in bursts. */
#define CHUNK_MAX (64u * 1024u)
#define CHUNK_MIN 4096u
#define CHUNK_US 20.0
#define STEP 128u           /* a kernel's step: chunks and buffers are multiples of it */
#define LOG_CAP (1u << 16)  /* entries of a log; when full, every other one is dropped */

struct mark {
    uint64_t t;       /* clock, ns */
    uint64_t bytes;   /* moved since the start */
};

struct lmb_loader {
    struct lmb_loaders *set;
    pthread_t th;
    bool joinable;
    int cpu;
    bool write;
    double rate_bps;          /* bytes per second; 0 = flat out */
    size_t chunk;
    char *buf;                /* size bytes, mapped by the thread, kept */
    struct mark *log;         /* LOG_CAP entries, mapped by the thread, kept */
    size_t n;                 /* entries in the log */
    uint64_t spacing;         /* least time between two entries (doubles when the log fills) */
    atomic_int state;         /* 0 starting, 1 running, -1 failed */
    atomic_bool stop;
    char err[192];
    uint32_t sink;
};

/* --- the passes: lmbench's rd and wr, one 4-byte word in every 16 bytes ----- */

#define WORD(p, off) (*(uint32_t *)(void *)((p) + (off)))

static uint32_t read_chunk(const char *p, size_t len)
{
    uint32_t a = 0, b = 0, c = 0, d = 0;

    for (size_t i = 0; i < len; i += STEP) {
        a += WORD(p, i);
        b += WORD(p, i + 16);
        c += WORD(p, i + 32);
        d += WORD(p, i + 48);
        a += WORD(p, i + 64);
        b += WORD(p, i + 80);
        c += WORD(p, i + 96);
        d += WORD(p, i + 112);
        lmb_compiler_barrier();
    }
    return a + b + c + d;
}

static void write_chunk(char *p, size_t len, uint32_t v)
{
    for (size_t i = 0; i < len; i += STEP) {
        WORD(p, i) = v;
        WORD(p, i + 16) = v;
        WORD(p, i + 32) = v;
        WORD(p, i + 48) = v;
        WORD(p, i + 64) = v;
        WORD(p, i + 80) = v;
        WORD(p, i + 96) = v;
        WORD(p, i + 112) = v;
        lmb_compiler_barrier();
    }
}

/* --- the log ---------------------------------------------------------------- */

static void log_put(struct lmb_loader *l, uint64_t t, uint64_t bytes, bool force)
{
    if (!force && l->n > 0 && t - l->log[l->n - 1].t < l->spacing)
        return;
    if (l->n == LOG_CAP) {
        /* Full: keep the first entry and every other one after it. */
        for (size_t i = 1; i < LOG_CAP / 2; i++)
            l->log[i] = l->log[2 * i];
        l->n = LOG_CAP / 2;
        l->spacing *= 2;
    }
    l->log[l->n].t = t;
    l->log[l->n].bytes = bytes;
    l->n++;
}

/* The bytes the log says were moved by time t; -1 outside it. */
static double log_at(const struct lmb_loader *l, uint64_t t)
{
    size_t lo = 0, hi;

    if (l->n == 0 || t < l->log[0].t || t > l->log[l->n - 1].t)
        return -1;
    hi = l->n - 1;
    while (lo < hi) {   /* the last entry at or before t */
        size_t mid = lo + (hi - lo + 1) / 2;
        if (l->log[mid].t <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (lo == l->n - 1 || l->log[lo + 1].t == l->log[lo].t)
        return (double)l->log[lo].bytes;
    double f = (double)(t - l->log[lo].t) / (double)(l->log[lo + 1].t - l->log[lo].t);
    return (double)l->log[lo].bytes +
           f * (double)(l->log[lo + 1].bytes - l->log[lo].bytes);
}

/* --- the thread --------------------------------------------------------------- */

static void *map_private(size_t len, char *err, size_t errlen, const char *what)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED) {
        snprintf(err, errlen, "mmap of the %s (%zu bytes): %s", what, len, strerror(errno));
        return NULL;
    }
    return p;
}

/* Maps what the loader keeps, on its own CPU (so the pages come from its
 * node), not inherited by forks. */
static int loader_setup(struct lmb_loader *l)
{
    const struct lmb_loaders *ls = l->set;
    char why[160];

    if (l->log == NULL) {
        l->log = map_private(LOG_CAP * sizeof *l->log, l->err, sizeof l->err, "loader's log");
        if (l->log == NULL)
            return -1;
        if (madvise(l->log, LOG_CAP * sizeof *l->log, MADV_DONTFORK) != 0) {
            snprintf(l->err, sizeof l->err, "madvise(MADV_DONTFORK) of the log: %s",
                     strerror(errno));
            return -1;
        }
    }
    if (l->buf == NULL) {
        l->buf = lmb_pages_alloc(ls->size, 1, why, sizeof why);
        if (l->buf == NULL) {
            snprintf(l->err, sizeof l->err, "its buffer: %s", why);
            return -1;
        }
        if (madvise(l->buf, ls->size, MADV_DONTFORK) != 0) {
            snprintf(l->err, sizeof l->err, "madvise(MADV_DONTFORK) of its buffer: %s",
                     strerror(errno));
            return -1;
        }
    }
    return 0;
}

static void *loader_main(void *arg)
{
    struct lmb_loader *l = arg;
    const struct lmb_loaders *ls = l->set;
    const struct lmb_clock *clk = ls->clock;
    size_t size = ls->size / STEP * STEP, pos = 0;
    uint64_t bytes = 0, base_bytes = 0, base_t, now;
    uint32_t round = 1;

    if (lmb_sched_apply(ls->sched, l->cpu) != 0) {
        snprintf(l->err, sizeof l->err, "cannot place it on CPU %d: %s", l->cpu,
                 strerror(errno));
        atomic_store(&l->state, -1);
        return NULL;
    }
    if (loader_setup(l) != 0) {
        atomic_store(&l->state, -1);
        return NULL;
    }
    base_t = lmb_now(clk);
    log_put(l, base_t, 0, true);
    while (!atomic_load_explicit(&l->stop, memory_order_relaxed)) {
        size_t len = size - pos < l->chunk ? size - pos : l->chunk;

        if (l->write)
            write_chunk(l->buf + pos, len, round);
        else
            l->sink += read_chunk(l->buf + pos, len);
        bytes += len;
        pos += len;
        if (pos >= size) {
            pos = 0;
            round++;
        }
        now = lmb_now(clk);
        if (l->rate_bps > 0) {
            uint64_t due = base_t + (uint64_t)((double)(bytes - base_bytes) * 1e9 / l->rate_bps);
            if (now > due + LMB_LOADER_MAX_LAG_NS) {
                base_t = now;   /* behind: no catching up in a burst */
                base_bytes = bytes;
            }
            while (now < due && !atomic_load_explicit(&l->stop, memory_order_relaxed))
                now = lmb_now(clk);
        }
        log_put(l, now, bytes, false);
        if (atomic_load_explicit(&l->state, memory_order_relaxed) == 0)
            atomic_store(&l->state, 1);
    }
    log_put(l, lmb_now(clk), bytes, true);
    return NULL;
}

/* --- the set ------------------------------------------------------------------ */

int lmb_loaders_init(struct lmb_loaders *ls, unsigned max, size_t size,
                     const struct lmb_clock *clock, const struct lmb_sched *sched, char *err,
                     size_t errlen)
{
    memset(ls, 0, sizeof *ls);
    if (size < CHUNK_MIN) {
        snprintf(err, errlen, "a loader's buffer must hold at least %u bytes", CHUNK_MIN);
        return -1;
    }
    ls->clock = clock;
    ls->sched = sched;
    ls->size = size;
    ls->max = max;
    if (max == 0)
        return 0;
    ls->l = calloc(max, sizeof *ls->l);
    if (ls->l == NULL) {
        snprintf(err, errlen, "out of memory for %u loaders", max);
        return -1;
    }
    for (unsigned i = 0; i < max; i++)
        ls->l[i].set = ls;
    return 0;
}

static bool all_started(const struct lmb_loaders *ls, unsigned n, int *failed)
{
    bool all = true;

    for (unsigned i = 0; i < n; i++) {
        int st = atomic_load(&ls->l[i].state);
        if (st < 0) {
            *failed = (int)i;
            return true;
        }
        if (st == 0)
            all = false;
    }
    return all;
}

int lmb_loaders_start(struct lmb_loaders *ls, unsigned n, const int *cpus, bool write,
                      double rate_mbs, uint64_t spacing_ns, double wait_s, char *err,
                      size_t errlen)
{
    sigset_t all, old;
    size_t chunk = CHUNK_MAX;
    int failed = -1, rc;
    uint64_t t0;

    lmb_loaders_stop(ls);
    ls->running = 0;
    if (n > ls->max) {
        snprintf(err, errlen, "%u loaders asked, room for %u", n, ls->max);
        return -1;
    }
    if (rate_mbs > 0) {
        double c = rate_mbs * 1e6 * CHUNK_US * 1e-6;
        chunk = c < CHUNK_MIN ? CHUNK_MIN : c > CHUNK_MAX ? CHUNK_MAX : (size_t)c / STEP * STEP;
    }
    if (chunk > ls->size / STEP * STEP)
        chunk = ls->size / STEP * STEP;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (unsigned i = 0; i < n; i++) {
        struct lmb_loader *l = &ls->l[i];
        l->cpu = cpus[i];
        l->write = write;
        l->rate_bps = rate_mbs * 1e6;
        l->chunk = chunk;
        l->n = 0;
        l->spacing = spacing_ns > 0 ? spacing_ns : 1;
        l->err[0] = '\0';
        atomic_store(&l->state, 0);
        atomic_store(&l->stop, false);
        rc = pthread_create(&l->th, NULL, loader_main, l);
        if (rc != 0) {
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            snprintf(err, errlen, "pthread_create of loader %u: %s", i + 1, strerror(rc));
            lmb_loaders_stop(ls);
            return -1;
        }
        l->joinable = true;
        ls->running = i + 1;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    t0 = lmb_now(ls->clock);
    while (!all_started(ls, n, &failed)) {
        struct timespec ts = { 0, 1000000 };
        if ((double)(lmb_now(ls->clock) - t0) * 1e-9 > wait_s) {
            snprintf(err, errlen, "the loaders had not started within %.1f s", wait_s);
            lmb_loaders_stop(ls);
            return -1;
        }
        nanosleep(&ts, NULL);
    }
    if (failed >= 0) {
        snprintf(err, errlen, "loader %d (CPU %d): %s", failed + 1, ls->l[failed].cpu,
                 ls->l[failed].err);
        lmb_loaders_stop(ls);
        return -1;
    }
    return 0;
}

void lmb_loaders_stop(struct lmb_loaders *ls)
{
    for (unsigned i = 0; i < ls->running; i++)
        atomic_store(&ls->l[i].stop, true);
    for (unsigned i = 0; i < ls->running; i++) {
        if (ls->l[i].joinable) {
            pthread_join(ls->l[i].th, NULL);
            ls->l[i].joinable = false;
        }
    }
}

double lmb_loaders_bytes(const struct lmb_loaders *ls, uint64_t t0, uint64_t t1)
{
    double sum = 0;

    for (unsigned i = 0; i < ls->running; i++) {
        double a = log_at(&ls->l[i], t0), b = log_at(&ls->l[i], t1);
        if (a < 0 || b < 0)
            return -1;
        sum += b - a;
    }
    return sum;
}

void lmb_loaders_free(struct lmb_loaders *ls)
{
    lmb_loaders_stop(ls);
    for (unsigned i = 0; i < ls->max; i++) {
        if (ls->l[i].buf != NULL)
            lmb_pages_free(ls->l[i].buf, ls->size);
        if (ls->l[i].log != NULL)
            munmap(ls->l[i].log, LOG_CAP * sizeof *ls->l[i].log);
    }
    free(ls->l);
    memset(ls, 0, sizeof *ls);
}
