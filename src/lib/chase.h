// SPDX-License-Identifier: MIT
/* Pointer chains for memory latency: a buffer's elements linked into one cycle
 * in a chosen order, and the timed loops that follow one or several chains
 * through it at once.
 *
 * An element is one pointer-sized slot every `stride` bytes; each holds the
 * address of the next element of the cycle, so that following the chain is a
 * series of loads each of which needs the previous one's result. With k
 * chains, k pointers start at evenly spaced places of the same cycle and move
 * in step: k independent loads can be in flight, which measures how many
 * misses the memory system overlaps (par_mem, cache).
 */
#ifndef LMB_CHASE_H
#define LMB_CHASE_H

#include <stddef.h>
#include <stdint.h>

#define LMB_CHASE_MAX_CHAINS 16

enum lmb_chase_order {
    LMB_CHASE_BACKWARD,   /* each element points one stride back, the last to the
                             first: lmbench 3's chain, which prefetchers follow */
    LMB_CHASE_RANDOM,     /* one random cycle through all elements */
    LMB_CHASE_WINDOW,     /* the buffer cut into windows (a page each, say): the
                             elements of a window in random order, then on to
                             the next window, the windows in random order. TLB
                             misses come once per window, not once per load */
};

struct lmb_chase {
    size_t count;                              /* elements in the cycle */
    unsigned nchains;
    void **start[LMB_CHASE_MAX_CHAINS];        /* where each chain starts */
    void **cur[LMB_CHASE_MAX_CHAINS];          /* where each chain is (the loops move these) */
};

/* Links the elements of base[0..size) (one every `stride` bytes, stride a
 * multiple of the pointer size) into one cycle in the given order; `window` is
 * the window size for LMB_CHASE_WINDOW (a multiple of stride), ignored
 * otherwise. The random orders are drawn from `seed` (the same seed gives the
 * same chain). Sets nchains (1 to LMB_CHASE_MAX_CHAINS) starting points evenly
 * spaced along the cycle. Returns 0, or -1 with a message (bad arguments,
 * memory for the order short). */
int lmb_chase_build(struct lmb_chase *c, char *base, size_t size, size_t stride,
                    enum lmb_chase_order order, size_t window, uint64_t seed, unsigned nchains,
                    char *err, size_t errlen);

/* As lmb_chase_build, and hands back the visit order (count element indices,
 * malloc'd: free it), so that lmb_chase_restart can place another number of
 * chains on the same cycle later without laying it again. */
int lmb_chase_build_keep(struct lmb_chase *c, char *base, size_t size, size_t stride,
                         enum lmb_chase_order order, size_t window, uint64_t seed,
                         unsigned nchains, uint32_t **kept, char *err, size_t errlen);

/* Places nchains (1 to LMB_CHASE_MAX_CHAINS, at most c->count) chains evenly
 * spaced along the cycle of c, whose visit order lmb_chase_build_keep gave. */
void lmb_chase_restart(struct lmb_chase *c, char *base, size_t stride, const uint32_t *order,
                       unsigned nchains);

/* Links the elements at the given byte offsets of base (each pointer-aligned,
 * all different) into one cycle in that order, for chains of a special shape
 * (one element per page, pairs of loads ...). One chain. */
void lmb_chase_link(struct lmb_chase *c, char *base, const size_t *offsets, size_t n);

/* The timed loop for c->nchains chains: each iteration moves every chain
 * lmb_chase_steps(nchains) elements on, so it performs
 * nchains * lmb_chase_steps(nchains) loads. The state is the struct lmb_chase. */
typedef void (*lmb_chase_fn)(uint64_t iters, void *chase);
lmb_chase_fn lmb_chase_loop(unsigned nchains);
unsigned lmb_chase_steps(unsigned nchains);

/* The timed loop for one chain through a single load instruction: each
 * iteration follows lmb_chase_steps(1) elements, in a loop that is not
 * unrolled. For chains a prefetcher can follow (LMB_CHASE_BACKWARD): stride
 * prefetchers that track each load instruction see the chain's own stride
 * here, where a loop unrolled k times shows each of its k loads a stride k
 * times larger (at a 128-byte stride, 32 KiB for lmb_chase_loop(1)'s 256
 * loads), which they do not follow. */
void lmb_chase_walk(uint64_t iters, void *chase);

/* splitmix64: the generator of the random orders, for callers that shuffle
 * their own offsets. */
uint64_t lmb_chase_random(uint64_t *state);

#endif
