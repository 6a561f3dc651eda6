// SPDX-License-Identifier: MIT
/* The arithmetic chains of lat_ops, par_ops and mhz: each operation's loops,
 * dependent and independent, in two lengths. See ops.h. */
#include "lib/ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bench.h"

/* Hide a value from the compiler: it must assume the empty asm changed it, so
 * it can neither fold the operations before and after nor keep the value in a
 * vector. Integers stay in general registers; floating-point values in the
 * registers the FPU works on. */
#define OPQ_I(v) __asm__ __volatile__("" : "+r"(v))
#if defined(__x86_64__) || defined(__i386__)
#define OPQ_F(v) __asm__ __volatile__("" : "+x"(v))
#elif defined(__aarch64__) || defined(__arm__)
#define OPQ_F(v) __asm__ __volatile__("" : "+w"(v))
#else
#define OPQ_F(v) __asm__ __volatile__("" : "+g"(v))   /* may go through memory */
#endif

/* Independent chains per operation: at least latency times throughput on
 * current cores (a Zen 5 multiplies 3 integers a cycle with latency 3: 9 in
 * flight), and no more than x86-64's 16 registers hold besides the operands
 * and the loop counter (div and mod also need rax and rdx). */
#define ICHAINS 12
#define DCHAINS 8
#define FCHAINS 10

/* One step of each operation on v; a, b (and c) are the hidden operands. */
#define ST_XOR(v) v ^= a;
#define ST_ADD(v) v += a;
#define ST_MUL(v) v *= a;
#define ST_DIV(v) v = a / v;
#define ST_MOD(v) v = a % v + b;
#define ST_FADD(v) v += a;
#define ST_FMUL(v) v *= a; OPQ(v); v *= b;   /* two: by y, then by 1/y */
#define ST_FDIV(v) v = a / v;

/* The dependent chain: STEPS steps per iteration. */
#define DEP(fn, T, X, A, B, OPQ, STEP, STEPS)                        \
    static void fn(uint64_t n, void *s)                             \
    {                                                               \
        struct lmb_ops_state *st = s;                               \
        T v = (T)st->X, a = (T)st->A, b = (T)st->B;                 \
                                                                    \
        (void)b;                                                    \
        OPQ(a);                                                     \
        OPQ(b);                                                     \
        OPQ(v);                                                     \
        for (uint64_t i = 0; i < n; i++) {                          \
            _Pragma("GCC unroll 64")                                \
            for (int r = 0; r < (STEPS); r++) {                     \
                STEP(v) OPQ(v);                                     \
            }                                                       \
        }                                                           \
        st->sink += (double)v;                                      \
    }

/* K independent chains, each advanced once per step. */
#define INDEP(fn, T, X, A, B, OPQ, STEP, K, STEPS)                   \
    static void fn(uint64_t n, void *s)                             \
    {                                                               \
        struct lmb_ops_state *st = s;                               \
        T v[K], a = (T)st->A, b = (T)st->B, sum = 0;                \
                                                                    \
        (void)b;                                                    \
        OPQ(a);                                                     \
        OPQ(b);                                                     \
        _Pragma("GCC unroll 16")                                    \
        for (int j = 0; j < (K); j++) {                             \
            v[j] = (T)st->X + (T)j;                                 \
            OPQ(v[j]);                                              \
        }                                                           \
        for (uint64_t i = 0; i < n; i++) {                          \
            _Pragma("GCC unroll 64")                                \
            for (int r = 0; r < (STEPS); r++) {                     \
                _Pragma("GCC unroll 16")                            \
                for (int j = 0; j < (K); j++) {                     \
                    STEP(v[j]) OPQ(v[j]);                           \
                }                                                   \
            }                                                       \
        }                                                           \
        _Pragma("GCC unroll 16")                                    \
        for (int j = 0; j < (K); j++)                               \
            sum += v[j];                                            \
        st->sink += (double)sum;                                    \
    }

/* The four loops of one operation. */
#define KERNELS(id, T, X, A, B, OPQ, STEP, K)                        \
    DEP(id##_dep_s, T, X, A, B, OPQ, STEP, LMB_OPS_SHORT)           \
    DEP(id##_dep_l, T, X, A, B, OPQ, STEP, LMB_OPS_LONG)            \
    INDEP(id##_ind_s, T, X, A, B, OPQ, STEP, K, LMB_OPS_SHORT)      \
    INDEP(id##_ind_l, T, X, A, B, OPQ, STEP, K, LMB_OPS_LONG)

#define OPQ OPQ_I
KERNELS(int_bit, uint32_t, ix, ia, ib, OPQ_I, ST_XOR, ICHAINS)
KERNELS(int_add, uint32_t, ix, ia, ib, OPQ_I, ST_ADD, ICHAINS)
KERNELS(int_mul, uint32_t, ix, ia, ib, OPQ_I, ST_MUL, ICHAINS)
KERNELS(int_div, int32_t, ix, ia, ib, OPQ_I, ST_DIV, DCHAINS)
KERNELS(int_mod, int32_t, ix, ia, ib, OPQ_I, ST_MOD, DCHAINS)
KERNELS(i64_bit, uint64_t, ix, ia, ib, OPQ_I, ST_XOR, ICHAINS)
KERNELS(i64_add, uint64_t, ix, ia, ib, OPQ_I, ST_ADD, ICHAINS)
KERNELS(i64_mul, uint64_t, ix, ia, ib, OPQ_I, ST_MUL, ICHAINS)
KERNELS(i64_div, int64_t, ix, ia, ib, OPQ_I, ST_DIV, DCHAINS)
KERNELS(i64_mod, int64_t, ix, ia, ib, OPQ_I, ST_MOD, DCHAINS)
#undef OPQ
#define OPQ OPQ_F
KERNELS(flt_add, float, fx, fa, fb, OPQ_F, ST_FADD, FCHAINS)
KERNELS(flt_mul, float, fx, fa, fb, OPQ_F, ST_FMUL, FCHAINS)
KERNELS(flt_div, float, fx, fa, fb, OPQ_F, ST_FDIV, FCHAINS)
KERNELS(dbl_add, double, fx, fa, fb, OPQ_F, ST_FADD, FCHAINS)
KERNELS(dbl_mul, double, fx, fa, fb, OPQ_F, ST_FMUL, FCHAINS)
KERNELS(dbl_div, double, fx, fa, fb, OPQ_F, ST_FDIV, FCHAINS)

/* bogomflops, lmbench 3's quantity: BOGO_ELEMS independent elements, each
 * updated once per step by one expression of four floating-point operations,
 * v = (v + a - b) * c / d (an add, a subtract, a multiply and a divide). The
 * four operations of one update depend on each other; the elements do not
 * depend on each other, so that the core overlaps the updates of different
 * elements and the loop runs at the operations' throughput, not at their
 * latency: 12 elements in flight cover a chain of four latencies (about 20
 * cycles) on cores that divide once every 2 cycles or slower. The figure is
 * the time of one element's update. The elements live in registers (12, plus
 * the four operands: x86-64's 16 vector registers), so no load or store is
 * timed. With a = 1, b = 0.5, c = 3, d = 5 every element tends to 0.75 and
 * stays a normal number however long the loop runs. */
#define BOGO_ELEMS LMB_OPS_BOGO_ELEMS
#define ST_BOGO(v) v = (v + a - b) * c / d;
#define BOGO(fn, T, STEPS)                                           \
    static void fn(uint64_t n, void *s)                             \
    {                                                               \
        struct lmb_ops_state *st = s;                               \
        T v[BOGO_ELEMS], a = (T)st->fa, b = (T)st->fb, c = (T)st->fc, d = (T)st->fd; \
        T sum = 0;                                                  \
                                                                    \
        OPQ(a);                                                     \
        OPQ(b);                                                     \
        OPQ(c);                                                     \
        OPQ(d);                                                     \
        _Pragma("GCC unroll 16")                                    \
        for (int j = 0; j < BOGO_ELEMS; j++) {                      \
            v[j] = (T)st->fx + (T)j;                                \
            OPQ(v[j]);                                              \
        }                                                           \
        for (uint64_t i = 0; i < n; i++) {                          \
            _Pragma("GCC unroll 64")                                \
            for (int r = 0; r < (STEPS); r++) {                     \
                _Pragma("GCC unroll 16")                            \
                for (int j = 0; j < BOGO_ELEMS; j++) {              \
                    ST_BOGO(v[j]) OPQ(v[j]);                        \
                }                                                   \
            }                                                       \
        }                                                           \
        _Pragma("GCC unroll 16")                                    \
        for (int j = 0; j < BOGO_ELEMS; j++)                        \
            sum += v[j];                                            \
        st->sink += (double)sum;                                    \
    }
BOGO(flt_bogo_s, float, LMB_OPS_SHORT)
BOGO(flt_bogo_l, float, LMB_OPS_LONG)
BOGO(dbl_bogo_s, double, LMB_OPS_SHORT)
BOGO(dbl_bogo_l, double, LMB_OPS_LONG)
#undef OPQ

#define LOOPS(id) { id##_dep_s, id##_dep_l }, { id##_ind_s, id##_ind_l }

/* Operands. Integer div: x = K / x with x near the square root of K, so that
 * it stays there (the quotient has half of K's bits) and never reaches 0.
 * mod: x = K % x + H keeps x between H and about 3H, never 0. float mul: by y,
 * then by 1/y, so that nothing overflows however long the loop runs. */
#define I32_DIV { .ix = 31623, .ia = 1000000007, .ib = 0 }
#define I32_MOD { .ix = 31623, .ia = 1000000007, .ib = 16384 }
#define I64_DIV { .ix = 1000000000, .ia = 1000000000000000003LL, .ib = 0 }
#define I64_MOD { .ix = 1000000000, .ia = 1000000000000000003LL, .ib = 1LL << 29 }
#define BOGO_INIT { .fx = 1.5, .fa = 1, .fb = 0.5, .fc = 3, .fd = 5 }

const struct lmb_op lmb_ops[] = {
    { "integer", "bit", "x ^= y", 1, NULL, ICHAINS, LOOPS(int_bit),
      { .ix = 0x12345679, .ia = 0x5a5a5a5a } },
    { "integer", "add", "x += y", 1, NULL, ICHAINS, LOOPS(int_add),
      { .ix = 0x12345679, .ia = 0x9e3779b9 } },
    { "integer", "mul", "x *= y (y odd)", 1, NULL, ICHAINS, LOOPS(int_mul),
      { .ix = 0x12345679, .ia = 0x9e3779b9 } },
    { "integer", "div", "x = K / x", 1, NULL, DCHAINS, LOOPS(int_div), I32_DIV },
    { "integer", "mod", "x = K % x + H", 1, "add", DCHAINS, LOOPS(int_mod), I32_MOD },
    { "int64", "bit", "x ^= y", 1, NULL, ICHAINS, LOOPS(i64_bit),
      { .ix = 0x123456789abcdef1LL, .ia = 0x5a5a5a5a5a5a5a5aLL } },
    { "int64", "add", "x += y", 1, NULL, ICHAINS, LOOPS(i64_add),
      { .ix = 0x123456789abcdef1LL, .ia = (int64_t)0x9e3779b97f4a7c15ULL } },
    { "int64", "mul", "x *= y (y odd)", 1, NULL, ICHAINS, LOOPS(i64_mul),
      { .ix = 0x123456789abcdef1LL, .ia = (int64_t)0x9e3779b97f4a7c15ULL } },
    { "int64", "div", "x = K / x", 1, NULL, DCHAINS, LOOPS(i64_div), I64_DIV },
    { "int64", "mod", "x = K % x + H", 1, "add", DCHAINS, LOOPS(i64_mod), I64_MOD },
    { "float", "add", "x += y", 1, NULL, FCHAINS, LOOPS(flt_add),
      { .fx = 1.5, .fa = 1.0 / 1048576.0 / 1048576.0 } },
    { "float", "mul", "x *= y; x *= 1/y", 2, NULL, FCHAINS, LOOPS(flt_mul),
      { .fx = 1.5, .fa = 1.25, .fb = 0.8 } },
    { "float", "div", "x = K / x", 1, NULL, FCHAINS, LOOPS(flt_div), { .fx = 1.5, .fa = 3.0 } },
    { "double", "add", "x += y", 1, NULL, FCHAINS, LOOPS(dbl_add),
      { .fx = 1.5, .fa = 1.0 / 1048576.0 / 1048576.0 / 1048576.0 / 1048576.0 } },
    { "double", "mul", "x *= y; x *= 1/y", 2, NULL, FCHAINS, LOOPS(dbl_mul),
      { .fx = 1.5, .fa = 1.25, .fb = 0.8 } },
    { "double", "div", "x = K / x", 1, NULL, FCHAINS, LOOPS(dbl_div), { .fx = 1.5, .fa = 3.0 } },
    /* bogomflops: ops_per_step counts elements (one update of four flops
     * each), so the figure is the time per element, as lmbench 3's. */
    { "float", "bogomflops", "12 elements, v = (v + 1 - 0.5) * 3 / 5", BOGO_ELEMS, NULL, 0,
      { flt_bogo_s, flt_bogo_l }, { NULL, NULL }, BOGO_INIT },
    { "double", "bogomflops", "12 elements, v = (v + 1 - 0.5) * 3 / 5", BOGO_ELEMS, NULL, 0,
      { dbl_bogo_s, dbl_bogo_l }, { NULL, NULL }, BOGO_INIT },
};

const size_t lmb_nops = sizeof lmb_ops / sizeof lmb_ops[0];

const struct lmb_op *lmb_ops_find(const char *type, const char *name)
{
    for (size_t i = 0; i < lmb_nops; i++)
        if (strcmp(lmb_ops[i].type, type) == 0 && strcmp(lmb_ops[i].name, name) == 0)
            return &lmb_ops[i];
    return NULL;
}

/* --- measuring ------------------------------------------------------------------- */

struct step_arg {
    double short_best;   /* ns per iteration of the short loop's best repetition */
    double ops;          /* operations the long loop does more per iteration */
};

static double step_ns(double long_ns, double unused, void *arg)
{
    const struct step_arg *x = arg;

    (void)unused;
    return (long_ns - x->short_best) / x->ops;
}

void lmb_ops_measure_loops(struct lmb_ctx *ctx, const struct lmb_op *op, bool indep,
                           unsigned best_of, struct lmb_result *shrt, struct lmb_result *lng)
{
    struct lmb_ops_state st = op->init;
    const lmb_run_fn *loops = indep ? op->indep : op->dep;
    struct lmb_result *r[2] = { shrt, lng };
    unsigned n = ctx->opt.repetitions;

    if (best_of < 1)
        best_of = 1;
    if ((uint64_t)n * best_of > LMB_MAX_REPETITIONS)
        best_of = LMB_MAX_REPETITIONS / n > 0 ? LMB_MAX_REPETITIONS / n : 1;
    ctx->opt.repetitions = n * best_of;
    for (int k = 0; k < 2; k++) {
        struct lmb_timed t = {
            .run = loops[k],
            .state = &st,
            .metric = LMB_METRIC_LATENCY,
            .per_iter = 1.0,   /* ns per iteration; the difference makes it per operation */
        };
        lmb_measure(ctx, &t, r[k]);
    }
    ctx->opt.repetitions = n;
    /* Groups of best_of repetitions of the long loop: the best of each. */
    if (lng->status == LMB_OK && best_of > 1 && lng->n == (size_t)n * best_of) {
        for (unsigned g = 0; g < n; g++) {
            double m = lng->samples[g * best_of];
            for (unsigned j = 1; j < best_of; j++)
                if (lng->samples[g * best_of + j] < m)
                    m = lng->samples[g * best_of + j];
            lng->samples[g] = m;
        }
        lng->n = n;
    }
}

void lmb_ops_combine(const struct lmb_op *op, bool indep, const struct lmb_result *shrt,
                     const struct lmb_result *lng, struct lmb_result *out)
{
    struct step_arg arg = {
        .ops = (double)(LMB_OPS_LONG - LMB_OPS_SHORT) * op->ops_per_step *
               (indep ? op->chains : 1),
    };

    /* Each sample of the long loop, less the best repetition of the short
     * one: the loop's cost is the same in both, and a disturbance (an
     * interrupt, another process) only ever adds time, so the best short
     * repetition is the one that holds nothing else. */
    arg.short_best = lmb_result_min(shrt);
    lmb_result_derive(out, lng, NULL, step_ns, &arg);
    out->elapsed_s += shrt->elapsed_s;
    if (shrt->status != LMB_OK && out->status == LMB_OK) {
        free(out->samples);
        out->samples = NULL;
        out->n = 0;
        lmb_result_set_status(out, shrt->status, "%s", shrt->reason);
    }
    if (out->status == LMB_OK && !(lmb_result_min(out) > 0))
        lmb_result_set_status(out, LMB_BELOW_RESOLUTION,
                              "the %d-step loop was never slower than the %d-step one: the "
                              "operation's cost is lost in the noise; raise ENOUGH or --min-time",
                              LMB_OPS_LONG, LMB_OPS_SHORT);
}

void lmb_ops_measure(struct lmb_ctx *ctx, const struct lmb_op *op, bool indep, unsigned best_of,
                     struct lmb_result *out)
{
    struct lmb_result shrt, lng;

    lmb_ops_measure_loops(ctx, op, indep, best_of, &shrt, &lng);
    lmb_ops_combine(op, indep, &shrt, &lng, out);
    lmb_result_free(&shrt);
    lmb_result_free(&lng);
}

int lmb_ops_append(struct lmb_result *to, const struct lmb_result *from)
{
    double *p = realloc(to->samples, (to->n + from->n) * sizeof *p);

    if (p == NULL && to->n + from->n > 0)
        return -1;
    if (from->n > 0)
        memcpy(p + to->n, from->samples, from->n * sizeof *p);
    to->samples = p;
    to->n += from->n;
    to->elapsed_s += from->elapsed_s;
    return 0;
}

void lmb_ops_default_interval(struct lmb_ctx *ctx)
{
    const char *enough = getenv("ENOUGH");
    struct lmb_report *rep = &ctx->report;

    if (ctx->opt.min_time_s > 0 || (enough != NULL && *enough != '\0') ||
        ctx->interval_ns <= LMB_OPS_INTERVAL_NS)
        return;
    ctx->interval_ns = LMB_OPS_INTERVAL_NS;
    for (size_t i = 0; i < rep->nsettings; i++) {
        if (strcmp(rep->settings[i].key, "interval_us") == 0)
            rep->settings[i].dval = (double)LMB_OPS_INTERVAL_NS / 1e3;
        else if (strcmp(rep->settings[i].key, "interval_source") == 0)
            rep->settings[i].sval = "default (1 ms for the arithmetic loops)";
    }
}
