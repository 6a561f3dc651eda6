// SPDX-License-Identifier: MIT
/* The arithmetic chains of lat_ops, par_ops and mhz.
 *
 * Each operation (integer add, double div ...) comes as timed loops in two
 * lengths: one iteration performs LMB_OPS_SHORT or LMB_OPS_LONG steps. The
 * time of one step is the difference of the two loops' times per iteration
 * divided by the difference of their lengths: whatever the loop itself costs
 * (counter, branch, the first step waiting for the last of the previous
 * iteration) is the same in both and cancels, without subtracting a separately
 * timed empty loop.
 *
 *  - dep[]: one dependent chain, each step needs the previous one's result:
 *    the operation's latency.
 *  - indep[]: `chains` independent chains interleaved, each advanced one step
 *    per step: the operation's throughput, time per operation being the
 *    step's time divided by `chains`.
 *
 * After every operation the value goes through an empty asm statement that
 * claims to change it, so the compiler cannot fold a chain (x + y + y into
 * x + 2y), vectorise it, or hoist anything out of it; the operands are hidden
 * from it the same way. Each operation is then one instruction on x86-64 and
 * AArch64 (div and mod: the divide, with the register moves it needs).
 */
#ifndef LMB_OPS_H
#define LMB_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/calibrate.h"

#define LMB_OPS_SHORT 16
#define LMB_OPS_LONG 64

/* bogomflops (lmbench 3's quantity): one step updates LMB_OPS_BOGO_ELEMS
 * independent elements, each by one expression of LMB_OPS_BOGO_FLOPS
 * floating-point operations, v = (v + a - b) * c / d; the figure is the time
 * of one element's update. The op's ops_per_step is LMB_OPS_BOGO_ELEMS. */
#define LMB_OPS_BOGO_ELEMS 12
#define LMB_OPS_BOGO_FLOPS 4

/* What a loop works on: the chain's start and its operands, as the table
 * gives them (converted to the loop's type), and where results are dropped so
 * that nothing is dead code. */
struct lmb_ops_state {
    int64_t ix, ia, ib;
    double fx, fa, fb, fc, fd;
    double sink;
};

struct lmb_op {
    const char *type;          /* "integer", "int64", "float", "double" */
    const char *name;          /* "bit", "add", "mul", "div", "mod", "bogomflops" */
    const char *what;          /* one step, in C, for the documentation */
    unsigned ops_per_step;     /* operations in one step of one chain (bogomflops:
                                  elements updated in one step) */
    const char *minus;         /* a step also holds one of these operations of the same
                                  type (mod: an add, so that the divisor never reaches
                                  0): its latency is to be subtracted; else NULL */
    unsigned chains;           /* independent chains of indep[]; 0 when there is none */
    lmb_run_fn dep[2];         /* LMB_OPS_SHORT and LMB_OPS_LONG steps per iteration */
    lmb_run_fn indep[2];
    struct lmb_ops_state init;
};

/* Every operation, in lmbench 3's order: integer and int64 bit, add, mul, div,
 * mod; float and double add, mul, div; float and double bogomflops. */
extern const struct lmb_op lmb_ops[];
extern const size_t lmb_nops;

/* The operation of that type and name, or NULL. */
const struct lmb_op *lmb_ops_find(const char *type, const char *name);

struct lmb_ctx;
struct lmb_result;

/* Measures op's dependent loops (indep false) or independent ones (true) in
 * both lengths and hands back -N samples of the nanoseconds of one
 * operation: each repetition of the long loop less the best repetition of the
 * short one, divided by (LMB_OPS_LONG - LMB_OPS_SHORT) * ops_per_step (times
 * chains for the independent loops). With best_of > 1 each loop runs best_of
 * times -N repetitions and each sample takes the best of best_of consecutive
 * long repetitions: a disturbance only ever adds time, so on a busy machine
 * the samples stay close to the undisturbed figure. When the smallest sample
 * is not positive the result is below_resolution: the operation's cost is lost
 * in the noise. */
void lmb_ops_measure(struct lmb_ctx *ctx, const struct lmb_op *op, bool indep, unsigned best_of,
                     struct lmb_result *out);

/* The two halves of lmb_ops_measure, for a caller that gathers the loops'
 * samples over several rounds before combining them: the short and long
 * loops' results in ns per iteration (the long one grouped best of best_of),
 * then out as lmb_ops_measure makes it from them. */
void lmb_ops_measure_loops(struct lmb_ctx *ctx, const struct lmb_op *op, bool indep,
                           unsigned best_of, struct lmb_result *shrt, struct lmb_result *lng);
void lmb_ops_combine(const struct lmb_op *op, bool indep, const struct lmb_result *shrt,
                     const struct lmb_result *lng, struct lmb_result *out);

/* The timed interval of the arithmetic loops when neither ENOUGH nor
 * --min-time chose one: shorter than the harness's default (5 ms or more),
 * because on a busy machine nearly every interval of a scheduler time slice
 * or more holds a preemption, and the loops' figures are differences and
 * ratios of the best intervals: with 1 ms some intervals run undisturbed. */
#define LMB_OPS_INTERVAL_NS 1000000ULL

/* Sets ctx's interval to LMB_OPS_INTERVAL_NS when it is the default (and
 * longer), and says so in the JSON document's run.config. */
void lmb_ops_default_interval(struct lmb_ctx *ctx);

/* Appends from's samples to to's (both ok) and adds its elapsed time: the
 * samples of several rounds of one measurement gathered. Returns 0, -1 when
 * memory is short (to is then unchanged). */
int lmb_ops_append(struct lmb_result *to, const struct lmb_result *from);

#endif
