// SPDX-License-Identifier: MIT
/* lat_c2c: the round trip of one cache line between two CPUs.
 *
 * For each pair of CPUs a < b the copy runs pinned on a and its partner (a
 * process, or a thread with --threads) pinned on b; both use one 64-bit word
 * alone in its 128-byte block of a shared mapping. One operation is one round
 * trip of the line: the copy takes it, the partner takes it back.
 *   cas    the copy compare-and-swaps the word from the partner's value to its
 *          own, the partner from the copy's value to its own; each side retries
 *          until the other's value is there.
 *   store  the copy stores an odd counter and spins loading until it reads the
 *          next (even) value, which the partner, spinning on loads, stores as
 *          its answer.
 * Placement goes through the harness (a CUSTOM placement of the pair per
 * measurement), so every record says where its ends ran. The copy gives up
 * (the pair fails) when the partner has not answered for 1 second; the
 * partner leaves when the copy's cleanup raises a flag on another line.
 * Which pairs, and why some are not measured, is decided from the topology
 * (lib/topology.h) and the CPUs this process may use. */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/bench.h"
#include "lib/sizes.h"
#include "lib/stats.h"
#include "lib/text.h"
#include "lib/topology.h"

#define C2C_STUCK_NS 1000000000ULL   /* no answer for this long: the pair fails */
#define C2C_CHECK_EVERY 4096u        /* failed spins between looks at the clock */
#define C2C_ALL_PAIRS_UP_TO 8        /* CPUs in the list up to which every pair is taken */

/* The shared mapping: the line alone in its 128-byte block (adjacent-line
 * prefetchers pair 64-byte lines), the stop flag two blocks further on. */
struct c2c_shm {
    _Alignas(128) _Atomic uint64_t line;
    char pad1[128 - sizeof(uint64_t)];
    _Alignas(128) char gap[128];
    _Alignas(128) atomic_int stop;
};

enum { OWN_COPY = 1, OWN_PARTNER = 2 };

struct c2c {
    struct c2c_shm *shm;          /* made in init, in the copy */
    uint64_t seq;                 /* store: the copy's counter (even) */
    const struct lmb_clock *clk;
    int cpu_b;                    /* for the message of a partner that does not answer */
};

static void c2c_stuck(struct c2c *st, uint64_t *since)
{
    uint64_t now = lmb_now(st->clk);

    if (*since == 0) {
        *since = now;
        return;
    }
    if (now - *since > C2C_STUCK_NS)
        lmb_abort_copy("the partner on CPU %d did not answer for %.0f s", st->cpu_b,
                       (double)C2C_STUCK_NS / 1e9);
}

static int c2c_init(void *state, char *err, size_t errlen)
{
    struct c2c *st = state;
    void *p = mmap(NULL, sizeof *st->shm, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);

    if (p == MAP_FAILED) {
        snprintf(err, errlen, "mmap of the shared line: %s", strerror(errno));
        return -1;
    }
    st->shm = p;
    st->seq = 0;
    atomic_init(&st->shm->line, 0);
    atomic_init(&st->shm->stop, 0);
    return 0;
}

static int cas_init(void *state, char *err, size_t errlen)
{
    struct c2c *st = state;

    if (c2c_init(state, err, errlen) != 0)
        return -1;
    atomic_store(&st->shm->line, OWN_PARTNER);   /* the copy goes first */
    return 0;
}

/* The partner leaves when it sees the flag; the mapping goes with the copy's
 * process (a partner thread may still be reading it now). */
static void c2c_cleanup(void *state)
{
    struct c2c *st = state;

    atomic_store(&st->shm->stop, 1);
}

static void run_cas(uint64_t n, void *state)
{
    struct c2c *st = state;
    _Atomic uint64_t *line = &st->shm->line;

    for (uint64_t i = 0; i < n; i++) {
        uint64_t want = OWN_PARTNER, since = 0;
        unsigned spins = 0;
        while (!atomic_compare_exchange_strong_explicit(line, &want, OWN_COPY,
                                                        memory_order_acq_rel,
                                                        memory_order_acquire)) {
            want = OWN_PARTNER;
            if (++spins % C2C_CHECK_EVERY == 0)
                c2c_stuck(st, &since);
        }
    }
}

static int partner_cas(void *state, const struct lmb_partner_ctx *pc)
{
    struct c2c *st = state;
    _Atomic uint64_t *line = &st->shm->line;
    unsigned spins = 0;

    (void)pc;
    for (;;) {
        uint64_t want = OWN_COPY;
        if (atomic_compare_exchange_strong_explicit(line, &want, OWN_PARTNER,
                                                    memory_order_acq_rel,
                                                    memory_order_acquire))
            continue;
        if (++spins % 1024 == 0 && atomic_load_explicit(&st->shm->stop, memory_order_relaxed))
            return 0;
    }
}

static void run_store(uint64_t n, void *state)
{
    struct c2c *st = state;
    _Atomic uint64_t *line = &st->shm->line;

    for (uint64_t i = 0; i < n; i++) {
        uint64_t since = 0;
        unsigned spins = 0;
        st->seq += 2;
        atomic_store_explicit(line, st->seq - 1, memory_order_release);
        while (atomic_load_explicit(line, memory_order_acquire) != st->seq)
            if (++spins % C2C_CHECK_EVERY == 0)
                c2c_stuck(st, &since);
    }
}

static int partner_store(void *state, const struct lmb_partner_ctx *pc)
{
    struct c2c *st = state;
    _Atomic uint64_t *line = &st->shm->line;
    unsigned spins = 0;

    (void)pc;
    for (;;) {
        uint64_t v = atomic_load_explicit(line, memory_order_acquire);
        if (v & 1) {
            atomic_store_explicit(line, v + 1, memory_order_release);
            continue;
        }
        if (++spins % 1024 == 0 && atomic_load_explicit(&st->shm->stop, memory_order_relaxed))
            return 0;
    }
}

enum { V_CAS, V_STORE };

static const struct lmb_variant variants[] = {
    { "cas", "compare-and-swap ping-pong: each side swaps the line from the other's value to its own",
      run_cas, NULL, V_CAS },
    { "store", "load/store ping-pong: one side stores a counter, the other spins loading and "
      "stores the answer", run_store, NULL, V_STORE },
};

static const struct lmb_optdef options[] = {
    { 'a', NULL, "every pair of the list, also above 8 CPUs" },
};

/* --- which pairs ---------------------------------------------------------------- */

struct pair {
    int a, b;
};

static bool in_list(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return true;
    return false;
}

static bool have_pair(const struct pair *p, size_t n, int a, int b)
{
    for (size_t i = 0; i < n; i++)
        if (p[i].a == a && p[i].b == b)
            return true;
    return false;
}

static int cmp_pair(const void *x, const void *y)
{
    const struct pair *p = x, *q = y;

    if (p->a != q->a)
        return (p->a > q->a) - (p->a < q->a);
    return (p->b > q->b) - (p->b < q->b);
}

/* The pairs of cpus[0..n) (ascending): every pair when all or n <= 8, else the
 * first CPU with every other, plus for each relation the first pair (by a,
 * then b) of two CPUs other than the first. Returns how many, pairs sorted. */
static size_t choose_pairs(const struct lmb_topology *t, const int *cpus, int n, bool all,
                           struct pair *out)
{
    size_t np = 0;

    if (all || n <= C2C_ALL_PAIRS_UP_TO) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                out[np++] = (struct pair){ cpus[i], cpus[j] };
        return np;
    }
    for (int j = 1; j < n; j++)
        out[np++] = (struct pair){ cpus[0], cpus[j] };
    for (enum lmb_cpu_relation r = LMB_REL_SMT; r <= LMB_REL_UNKNOWN; r++) {
        bool found = false;
        for (int i = 1; i < n && !found; i++)
            for (int j = i + 1; j < n && !found; j++)
                if (lmb_topology_relation(t, cpus[i], cpus[j]) == r) {
                    if (!have_pair(out, np, cpus[i], cpus[j]))
                        out[np++] = (struct pair){ cpus[i], cpus[j] };
                    found = true;
                }
    }
    qsort(out, np, sizeof out[0], cmp_pair);
    return np;
}

/* "0-3,6" for a sorted list, cut with "..." when buf is short. */
static void format_cpus(const int *v, int n, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int i = 0; i < n;) {
        int j = i;
        char item[32];
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        if (j > i)
            snprintf(item, sizeof item, "%s%d-%d", i ? "," : "", v[i], v[j]);
        else
            snprintf(item, sizeof item, "%s%d", i ? "," : "", v[i]);
        if (used + strlen(item) + 4 >= len) {
            snprintf(buf + used, len - used, ",...");
            return;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s", item);
        i = j + 1;
    }
}

/* Why CPU c cannot take part here, or NULL when it can. */
static const char *why_unusable(const struct lmb_ctx *ctx, const struct lmb_topology *t, int c,
                                char *buf, size_t len)
{
    char allowed[160];

    if (lmb_topology_cpu(t, c) == NULL) {
        snprintf(buf, len, "CPU %d is not online (%s/devices/system/cpu/online%s)", c, t->root,
                 t->fake ? ", a fake tree: LMBENCH_SYSFS" : "");
        return buf;
    }
    if (in_list(ctx->sched.cpus, ctx->sched.ncpus, c))
        return NULL;
    format_cpus(ctx->sched.cpus, ctx->sched.ncpus, allowed, sizeof allowed);
    if (ctx->sched.restricted)
        snprintf(buf, len, "CPU %d is not in --cpus (%s)", c, allowed);
    else if (t->fake)
        snprintf(buf, len, "CPU %d is in the fake topology (LMBENCH_SYSFS) but this process "
                 "can run only on CPUs %s here", c, allowed);
    else
        snprintf(buf, len, "CPU %d is not one this process may run on (its affinity: %s)", c,
                 allowed);
    return buf;
}

/* --- measuring -------------------------------------------------------------------- */

static void init_record(struct lmb_record *rec, const struct lmb_ctx *ctx,
                        const struct lmb_variant *v)
{
    lmb_record_init(rec, ctx->bench->name, v->name, LMB_UNIT_NS);
    rec->classic = LMB_CLASSIC_LABEL_NS;
    rec->compat = "new: the round trip of a cache line between two CPUs; lmbench 3 has no "
                  "lat_c2c";
}

/* Measures one pair with the copy on a and the partner on b; the harness
 * places them (a CUSTOM placement of the two for this measurement). */
static void measure_pair(struct lmb_ctx *ctx, const struct lmb_variant *v, int a, int b,
                         struct lmb_result *res)
{
    struct lmb_sched saved = ctx->sched;
    struct c2c st = { .clk = &ctx->clock, .cpu_b = b };
    struct lmb_timed t = {
        .init = v->flags == V_CAS ? cas_init : c2c_init,
        .run = v->run,
        .cleanup = c2c_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = v->flags == V_CAS ? partner_cas : partner_store,
    };

    ctx->sched.policy = LMB_SCHED_CUSTOM;
    ctx->sched.ncustom = 2;
    ctx->sched.custom[0] = a;
    ctx->sched.custom[1] = b;
    lmb_measure(ctx, &t, res);
    ctx->sched = saved;
}

static int lat_c2c_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v = &variants[0];
    static struct lmb_topology topo;   /* some 20 KiB */
    static int list[LMB_MAX_CPUS];
    struct pair *pairs;
    double *medians;
    size_t np, nok = 0;
    int n = 0;
    char err[256], q[LMB_QUOTE_BUF];
    bool all = lmb_opt_given(ctx, 'a');

    if (argc > 0) {
        const struct lmb_variant *w = lmb_find_variant(ctx->bench, argv[0]);
        if (w != NULL) {
            v = w;
            argc--;
            argv++;
        }
    }
    if (argc > 1)
        return lmb_usage_error(ctx, "unexpected operand '%s' (one variant, then one CPU list)",
                               lmb_quote(argv[1], q, sizeof q));
    if (argc == 1 && lmb_parse_cpulist(argv[0], list, LMB_MAX_CPUS, &n, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "'%s' is neither cas, store nor a CPU list: %s",
                               lmb_quote(argv[0], q, sizeof q), err);

    if (lmb_topology_read(&topo, err, sizeof err) != 0) {
        struct lmb_record rec;
        init_record(&rec, ctx, v);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    if (argc == 0) {
        if (ctx->sched.restricted) {
            memcpy(list, ctx->sched.cpus, (size_t)ctx->sched.ncpus * sizeof list[0]);
            n = ctx->sched.ncpus;
        } else {
            for (int i = 0; i < topo.ncpus; i++)
                list[i] = topo.cpu[i].cpu;
            n = topo.ncpus;
        }
    }
    if (n < 2) {
        struct lmb_record rec;
        init_record(&rec, ctx, v);
        return lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED,
                                     "only one CPU (CPU %d)%s: a core-to-core round trip "
                                     "needs two", list[0],
                                     argc == 1 ? " listed" : ctx->sched.restricted
                                     ? " in --cpus" : " online");
    }

    pairs = malloc((all || n <= C2C_ALL_PAIRS_UP_TO ? (size_t)n * (size_t)(n - 1) / 2
                                                  : (size_t)n + 4) * sizeof *pairs);
    if (pairs == NULL) {
        struct lmb_record rec;
        init_record(&rec, ctx, v);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "out of memory for %d CPUs' pairs",
                                     n);
    }
    np = choose_pairs(&topo, list, n, all, pairs);
    medians = malloc(np * sizeof *medians);
    if (medians == NULL) {
        struct lmb_record rec;
        free(pairs);
        init_record(&rec, ctx, v);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "out of memory for %zu pairs", np);
    }

    for (size_t i = 0; i < np; i++) {
        int a = pairs[i].a, b = pairs[i].b;
        enum lmb_cpu_relation r = lmb_topology_relation(&topo, a, b);
        struct lmb_record rec;
        struct lmb_result res;
        char why[400];
        const char *no;

        init_record(&rec, ctx, v);
        lmb_record_param_int(&rec, "cpu_a", a);
        lmb_record_param_int(&rec, "cpu_b", b);
        lmb_record_param_str(&rec, "relation", lmb_relation_name(r));
        snprintf(rec.label, sizeof rec.label, "CPU %d <-> CPU %d (%s)", a, b,
                 lmb_relation_name(r));
        no = why_unusable(ctx, &topo, a, why, sizeof why);
        if (no == NULL)
            no = why_unusable(ctx, &topo, b, why, sizeof why);
        if (no != NULL) {
            lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "%s", no);
            continue;
        }
        measure_pair(ctx, v, a, b, &res);
        if (res.status == LMB_OK && res.n > 0) {
            struct lmb_stats s;
            if (lmb_stats_compute(res.samples, res.n, &s) == 0)
                medians[nok++] = s.median;
        }
        lmb_report_add(&ctx->report, &rec, &res);
    }

    /* Over this process's medians: with --launches the pair lines show the
     * pooled launches, so the line is left out there. */
    if (nok > 1 && ctx->opt.launches <= 1) {
        struct lmb_stats s;
        if (lmb_stats_compute(medians, nok, &s) == 0)
            lmb_report_marker(&ctx->report,
                              "%s round trip over %zu pairs: min %.2f, median %.2f, max %.2f "
                              "nanoseconds", v->name, nok, s.min, s.median, s.max);
    }
    free(medians);
    free(pairs);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_c2c = {
    .name = "lat_c2c",
    .summary = "Core-to-core latency: the round trip of a cache line between two CPUs",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N | LMB_USE_THREADS,
    .args = "[{variants}] [cpulist]",
    .help = "Bounces one cache line between two pinned CPUs and prints, per pair a < b,\n"
            "the nanoseconds of one round trip, with the pair's relation from the\n"
            "topology (smt, core, socket, unknown). cas (the default): each side\n"
            "compare-and-swaps the line to its own value; store: one side stores a\n"
            "counter, the other loads until it sees it and stores the answer. The CPUs:\n"
            "the list given, else --cpus, else the online CPUs; every pair up to 8\n"
            "CPUs, above that CPU 0 (the first) with every other and one pair of each\n"
            "relation among the rest, or every pair with -a. A pair with a CPU that\n"
            "cannot be used here is reported as skipped, with the reason.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_c2c_main,
};
