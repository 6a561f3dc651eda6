// SPDX-License-Identifier: MIT
/* Pointer chains through a buffer, and the loops that follow them. */
#include "lib/chase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t lmb_chase_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform integer below n (n > 0); the bias of the modulo is below 2^-32 for
 * every n this code sees. */
static size_t below(uint64_t *seed, size_t n)
{
    return (size_t)(lmb_chase_random(seed) % n);
}

static void shuffle(uint32_t *v, size_t n, uint64_t *seed)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = below(seed, i);
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

#define SLOT(base, off) (*(void **)(void *)((base) + (off)))

int lmb_chase_build_keep(struct lmb_chase *c, char *base, size_t size, size_t stride,
                         enum lmb_chase_order order, size_t window, uint64_t seed,
                         unsigned nchains, uint32_t **kept, char *err, size_t errlen)
{
    size_t count;
    uint32_t *visit;

    memset(c, 0, sizeof *c);
    if (kept != NULL)
        *kept = NULL;
    if (stride < sizeof(void *) || stride % sizeof(void *) != 0 || size < stride) {
        snprintf(err, errlen, "chain: bad stride %zu for %zu bytes", stride, size);
        return -1;
    }
    count = size / stride;
    if (count > UINT32_MAX) {
        snprintf(err, errlen, "chain: %zu elements are more than this code handles", count);
        return -1;
    }
    if (nchains < 1 || nchains > LMB_CHASE_MAX_CHAINS || nchains > count) {
        snprintf(err, errlen, "chain: %u chains for %zu elements", nchains, count);
        return -1;
    }
    if (order == LMB_CHASE_WINDOW && (window < stride || window % stride != 0)) {
        snprintf(err, errlen, "chain: window %zu is not a multiple of the stride %zu", window,
                 stride);
        return -1;
    }
    visit = malloc(count * sizeof *visit);
    if (visit == NULL) {
        snprintf(err, errlen, "chain: no memory for the order of %zu elements", count);
        return -1;
    }

    switch (order) {
    case LMB_CHASE_BACKWARD:
        visit[0] = 0;
        for (size_t i = 1; i < count; i++)
            visit[i] = (uint32_t)(count - i);
        break;
    case LMB_CHASE_RANDOM:
        for (size_t i = 0; i < count; i++)
            visit[i] = (uint32_t)i;
        shuffle(visit, count, &seed);
        break;
    case LMB_CHASE_WINDOW: {
        size_t per = window / stride, nwin = (count + per - 1) / per, o = 0;
        uint32_t *win = malloc(nwin * sizeof *win);
        if (win == NULL) {
            free(visit);
            snprintf(err, errlen, "chain: no memory for the order of %zu windows", nwin);
            return -1;
        }
        for (size_t w = 0; w < nwin; w++)
            win[w] = (uint32_t)w;
        shuffle(win, nwin, &seed);
        for (size_t w = 0; w < nwin; w++) {
            size_t first = (size_t)win[w] * per, n = count - first < per ? count - first : per;
            for (size_t i = 0; i < n; i++)
                visit[o + i] = (uint32_t)(first + i);
            shuffle(visit + o, n, &seed);
            o += n;
        }
        free(win);
        break;
    }
    default:
        free(visit);
        snprintf(err, errlen, "chain: unknown order %d", (int)order);
        return -1;
    }

    for (size_t i = 0; i < count; i++) {
        size_t next = i + 1 < count ? visit[i + 1] : visit[0];
        SLOT(base, (size_t)visit[i] * stride) = base + next * stride;
    }
    c->count = count;
    lmb_chase_restart(c, base, stride, visit, nchains);
    if (kept != NULL)
        *kept = visit;
    else
        free(visit);
    return 0;
}

int lmb_chase_build(struct lmb_chase *c, char *base, size_t size, size_t stride,
                    enum lmb_chase_order order, size_t window, uint64_t seed, unsigned nchains,
                    char *err, size_t errlen)
{
    return lmb_chase_build_keep(c, base, size, stride, order, window, seed, nchains, NULL, err,
                                errlen);
}

void lmb_chase_restart(struct lmb_chase *c, char *base, size_t stride, const uint32_t *order,
                       unsigned nchains)
{
    if (nchains < 1)
        nchains = 1;
    if (nchains > LMB_CHASE_MAX_CHAINS)
        nchains = LMB_CHASE_MAX_CHAINS;
    if (nchains > c->count)
        nchains = (unsigned)c->count;
    c->nchains = nchains;
    for (unsigned k = 0; k < nchains; k++) {
        size_t pos = (size_t)((double)k * (double)c->count / nchains);
        c->start[k] = c->cur[k] = (void **)(void *)(base + (size_t)order[pos] * stride);
    }
}

void lmb_chase_link(struct lmb_chase *c, char *base, const size_t *off, size_t n)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < n; i++)
        SLOT(base, off[i]) = base + off[i + 1 < n ? i + 1 : 0];
    c->count = n;
    c->nchains = 1;
    c->start[0] = c->cur[0] = (void **)(void *)(base + off[0]);
}

/* --- the loops ----------------------------------------------------------------
 *
 * One chain: 256 dependent loads per iteration; the loop's own increment and
 * branch run beside the chain and cost nothing measurable next to 256 loads
 * that each wait for the one before. k chains: 64 steps of each per iteration,
 * the k loads of a step independent of each other. The pointers live in
 * registers (up to 14 of them with x86-64's 16) and the compiler may not merge
 * or reorder the loads of one chain, since each address is the previous load's
 * result. */

#define C1 p = (void **)*p;
#define C4 C1 C1 C1 C1
#define C16 C4 C4 C4 C4
#define C64 C16 C16 C16 C16

static void chase1(uint64_t n, void *s)
{
    struct lmb_chase *c = s;
    void **p = c->cur[0];

    for (uint64_t i = 0; i < n; i++) {
        C64 C64 C64 C64
    }
    c->cur[0] = p;
}

#define MULTI_STEPS 64
/* Loads per iteration of one chain (lmb_chase_walk and the unrolled loop). */
#define ONE_CHAIN_STEPS 256

#define CHASE_K(K)                                                          \
    static void chase##K(uint64_t n, void *s)                               \
    {                                                                       \
        struct lmb_chase *c = s;                                            \
        void **p[K];                                                        \
                                                                            \
        for (unsigned j = 0; j < (K); j++)                                  \
            p[j] = c->cur[j];                                               \
        for (uint64_t i = 0; i < n; i++) {                                  \
            _Pragma("GCC unroll 8")                                         \
            for (unsigned r = 0; r < MULTI_STEPS; r++) {                    \
                _Pragma("GCC unroll 16")                                    \
                for (unsigned j = 0; j < (K); j++)                          \
                    p[j] = (void **)*p[j];                                  \
            }                                                               \
        }                                                                   \
        for (unsigned j = 0; j < (K); j++)                                  \
            c->cur[j] = p[j];                                               \
    }

CHASE_K(2)
CHASE_K(3)
CHASE_K(4)
CHASE_K(5)
CHASE_K(6)
CHASE_K(7)
CHASE_K(8)
CHASE_K(9)
CHASE_K(10)
CHASE_K(11)
CHASE_K(12)
CHASE_K(13)
CHASE_K(14)
CHASE_K(15)
CHASE_K(16)

static const lmb_chase_fn loops[LMB_CHASE_MAX_CHAINS + 1] = {
    NULL, chase1, chase2, chase3, chase4, chase5, chase6, chase7, chase8,
    chase9, chase10, chase11, chase12, chase13, chase14, chase15, chase16,
};

/* One load instruction for the whole walk: the inner loop is kept rolled so
 * that every load of the chain comes from the same instruction. Its increment
 * and branch run beside the chain, which waits for each load. */
void lmb_chase_walk(uint64_t n, void *s)
{
    struct lmb_chase *c = s;
    void **p = c->cur[0];

    for (uint64_t i = 0; i < n; i++) {
        _Pragma("GCC unroll 1")
        for (unsigned j = 0; j < ONE_CHAIN_STEPS; j++)
            p = (void **)*p;
    }
    c->cur[0] = p;
}

lmb_chase_fn lmb_chase_loop(unsigned nchains)
{
    return nchains >= 1 && nchains <= LMB_CHASE_MAX_CHAINS ? loops[nchains] : NULL;
}

unsigned lmb_chase_steps(unsigned nchains)
{
    return nchains == 1 ? ONE_CHAIN_STEPS : MULTI_STEPS;
}
