// SPDX-License-Identifier: MIT
/* lat_loaded: memory load latency while other CPUs load the memory system
 * (Intel MLC's loaded-latency curve).
 *
 * The chase: one random cycle through a buffer larger than the caches, one
 * element per cache line (src/lib/memlat.h, laid once and inherited by every
 * measurement), followed by one process pinned to the first usable CPU; one
 * operation is one dependent load, the loop's own branch (one per 256 loads)
 * left in, as lat_mem_rd's. The load: loader threads (src/lib/loader.h) on the
 * next CPUs, each streaming rd or wr passes over a buffer of its own, flat out
 * or paced to a rate. The bandwidth of a point is what the loaders really
 * delivered during each of the chase's timed intervals: their logs of bytes
 * over time read over the interval's span (the harness's clock), summed over
 * loaders; one bandwidth sample per latency sample.
 *
 * Outside the timing: laying the chain, mapping and touching the loaders'
 * buffers, starting the loaders (each has passed over a chunk before the
 * chase starts) and stopping them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bench.h"
#include "lib/loader.h"
#include "lib/mem.h"
#include "lib/memlat.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

#define DEFAULT_SIZE (256ULL << 20)
#define MIN_SIZE (64ULL << 10)
#define MAX_RATES 32
#define MAX_RATE_MBS 10000000ULL
/* A log entry at least every interval / LOG_PER_INTERVAL (and 1 us): the
 * bandwidth of an interval is then read to well under 1%. */
#define LOG_PER_INTERVAL 500
/* Delivered under this share of what was asked: a warning. */
#define RATE_SHORT 0.9
#define START_WAIT_S 60.0

static const struct lmb_optdef options[] = {
    { 's', "size", "bytes of the chase's buffer and of each loader's (default 256m)" },
    { 'n', "loaders", "most loaders (default: one per usable CPU but the chase's)" },
    { 'r', "MB/s,...", "also these rates per loader (MB/s, 10^6 bytes), all loaders each" },
    { 'w', NULL, "the loaders write (wr passes) instead of reading (rd)" },
};

/* One point of the curve: how many loaders, at what rate (0 = flat out). */
struct point {
    unsigned loaders;
    uint64_t rate;
};

struct plan {
    uint64_t size;
    bool write;
    int cpus[LMB_MAX_CPUS];   /* the chase's CPU, then the loaders', in order */
    int ncpus;
    unsigned fit;             /* loaders whose buffers fit in memory with the chase's */
    char fit_why[256];
    struct point *points;
    size_t npoints;
};

/* The usable CPUs in the order they are given: --cpus (or the affinity) in
 * increasing order, LMBENCH_SCHED=CUSTOM's list as written (each CPU once),
 * SINGLE only the first. */
static int usable_cpus(const struct lmb_sched *s, int *out)
{
    int n = 0;

    if (s->policy == LMB_SCHED_SINGLE) {
        out[0] = s->cpus[0];
        return 1;
    }
    if (s->policy != LMB_SCHED_CUSTOM) {
        memcpy(out, s->cpus, (size_t)s->ncpus * sizeof *out);
        return s->ncpus;
    }
    for (int i = 0; i < s->ncustom; i++) {
        bool seen = false;
        for (int j = 0; j < n && !seen; j++)
            seen = out[j] == s->custom[i];
        if (!seen)
            out[n++] = s->custom[i];
    }
    return n;
}

/* -r 100,500,2000: rates in MB/s, whole numbers. */
static int parse_rates(const struct lmb_ctx *ctx, const char *arg, uint64_t *rates, size_t *n)
{
    char buf[512], err[256], q[LMB_QUOTE_BUF];
    char *save = NULL, *tok;

    *n = 0;
    if (strlen(arg) >= sizeof buf || arg[0] == '\0' || arg[0] == ',' ||
        arg[strlen(arg) - 1] == ',' || strstr(arg, ",,") != NULL)
        return lmb_usage_error(ctx, "-r: bad rate list '%s' (MB/s per loader, e.g. 500,2000)",
                               lmb_quote(arg, q, sizeof q));
    strcpy(buf, arg);
    for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        if (*n == MAX_RATES)
            return lmb_usage_error(ctx, "-r: at most %d rates", MAX_RATES);
        if (lmb_parse_uint(tok, 1, MAX_RATE_MBS, &rates[*n], err, sizeof err) != 0)
            return lmb_usage_error(ctx, "-r: rate '%s': %s (MB/s per loader, 1 to %llu)",
                                   lmb_quote(tok, q, sizeof q), err,
                                   (unsigned long long)MAX_RATE_MBS);
        (*n)++;
    }
    return 0;
}

/* The options into a plan. Returns 0, or the exit status of a usage error. */
static int make_plan(struct lmb_ctx *ctx, int argc, struct plan *p)
{
    uint64_t rates[MAX_RATES], nl = 0;
    size_t nrates = 0;
    char err[256];
    int rc;

    if (argc > 0)
        return lmb_usage_error(ctx, "takes no arguments (the size is -s SIZE)");
    p->size = DEFAULT_SIZE;
    if (lmb_opt_given(ctx, 's') &&
        lmb_parse_size(lmb_opt_arg(ctx, 's'), &p->size, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-s: %s", err);
    if (p->size < MIN_SIZE)
        return lmb_usage_error(ctx, "-s: the size must be at least 64k");
    if (p->size > SIZE_MAX / 4)
        return lmb_usage_error(ctx, "-s: the size does not fit in this machine's address "
                               "space");
    p->write = lmb_opt_given(ctx, 'w');
    p->ncpus = usable_cpus(&ctx->sched, p->cpus);
    /* Loaders asked: -n, else one per CPU but the chase's (one, to say it
     * could not run, when there is no other CPU). */
    nl = p->ncpus > 1 ? (uint64_t)p->ncpus - 1 : 1;
    if (lmb_opt_given(ctx, 'n') &&
        lmb_parse_uint(lmb_opt_arg(ctx, 'n'), 0, LMB_MAX_CPUS - 1, &nl, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-n: %s", err);
    if (lmb_opt_given(ctx, 'r') &&
        (rc = parse_rates(ctx, lmb_opt_arg(ctx, 'r'), rates, &nrates)) != 0)
        return rc;
    if (nrates > 0 && nl == 0)
        return lmb_usage_error(ctx, "-r needs loaders: -n 0 leaves none");
    p->points = calloc(1 + nl + nrates, sizeof *p->points);
    if (p->points == NULL)
        return lmb_usage_error(ctx, "out of memory");
    p->points[p->npoints++] = (struct point){ 0, 0 };
    for (unsigned k = 1; k <= nl; k++)
        p->points[p->npoints++] = (struct point){ k, 0 };
    for (size_t i = 0; i < nrates; i++)
        p->points[p->npoints++] = (struct point){ (unsigned)nl, rates[i] };
    return 0;
}

/* How many loaders' buffers fit in memory beside the chase (its buffer and
 * the chain's visit order). */
static void memory_fit(struct plan *p, unsigned most)
{
    uint64_t chase = p->size + p->size / (uint64_t)lmb_cache_line_size() * 4;

    p->fit = most;
    while (p->fit > 0 &&
           lmb_memory_fits(chase + p->fit * p->size, 1, p->fit_why, sizeof p->fit_why) != 0)
        p->fit--;
}

/* The rate parameter: "none" (no loader), "max" or the MB/s asked. */
static const char *rate_name(const struct point *pt, char *buf, size_t len)
{
    if (pt->loaders == 0)
        return "none";
    if (pt->rate == 0)
        return "max";
    snprintf(buf, len, "%" PRIu64, pt->rate);
    return buf;
}

static void point_record(struct lmb_record *rec, const struct lmb_ctx *ctx, const struct plan *p,
                         size_t i, bool bandwidth)
{
    const struct point *pt = &p->points[i];
    char rate[32], cpus[256] = "";
    size_t o = 0;

    lmb_record_init(rec, ctx->bench->name, bandwidth ? "bandwidth" : "latency",
                    bandwidth ? LMB_UNIT_MBS : LMB_UNIT_NS);
    lmb_record_param_int(rec, "point", (long long)i);
    lmb_record_param_int(rec, "loaders", pt->loaders);
    lmb_record_param_str(rec, "rate", rate_name(pt, rate, sizeof rate));
    lmb_record_param_str(rec, "load", p->write ? "wr" : "rd");
    lmb_record_param_int(rec, "size_bytes", (long long)p->size);
    lmb_record_param_int(rec, "chase_cpu", p->cpus[0]);
    for (unsigned k = 0; k < pt->loaders && (int)k + 1 < p->ncpus && o < sizeof cpus; k++)
        o += (size_t)snprintf(cpus + o, sizeof cpus - o, "%s%d", k ? "," : "", p->cpus[k + 1]);
    lmb_record_param_str(rec, "loader_cpus", cpus);
    rec->headline = LMB_HEAD_MEDIAN;
    rec->classic = LMB_CLASSIC_NONE;
    rec->compat = bandwidth ? "new: what the loaders delivered during the chase; lmbench 3 "
                              "has no loaded latency"
                            : "new: lmbench 3 has no loaded latency";
}

static double median_of(const struct lmb_result *r)
{
    struct lmb_result tmp;

    if (r->status != LMB_OK || r->n == 0 || lmb_result_values(&tmp, r->samples, r->n, NULL) != 0)
        return -1;
    double m = lmb_result_sort_median(&tmp);
    lmb_result_free(&tmp);
    return m;
}

/* Both records of point i, and its classic line when both are ok:
 * "loaders=K rate=R: L nanoseconds at B MB/s". */
static void report_point(struct lmb_ctx *ctx, const struct plan *p, size_t i,
                         struct lmb_result *lat, struct lmb_result *bw)
{
    const struct point *pt = &p->points[i];
    struct lmb_record rl, rb;
    double ml = median_of(lat), mb = median_of(bw);
    char rate[32];

    point_record(&rl, ctx, p, i, false);
    point_record(&rb, ctx, p, i, true);
    lmb_report_add(&ctx->report, &rl, lat);
    lmb_report_add(&ctx->report, &rb, bw);
    if (ml > 0 && mb >= 0)
        lmb_report_marker(&ctx->report, "loaders=%u rate=%s: %.2f nanoseconds at %.1f MB/s",
                          pt->loaders, rate_name(pt, rate, sizeof rate), ml, mb / 1e6);
}

/* A point not measured: both records with status s and the reason. */
static void report_unmeasured(struct lmb_ctx *ctx, const struct plan *p, size_t i,
                              enum lmb_status s, const char *why)
{
    struct lmb_result lat, bw;

    memset(&lat, 0, sizeof lat);
    memset(&bw, 0, sizeof bw);
    lmb_result_set_status(&lat, s, "%s", why);
    lmb_result_set_status(&bw, s, "%s", why);
    report_point(ctx, p, i, &lat, &bw);
}

/* The loaders' bandwidth over each of the chase's timed intervals (spans
 * since origin, the clock read just before the measurement started: it
 * starts its own clock some hundred nanoseconds later). */
static void delivered(const struct lmb_loaders *ls, const struct point *pt,
                      const struct lmb_result *lat, uint64_t origin, struct lmb_result *bw)
{
    double *v;

    memset(bw, 0, sizeof *bw);
    if (lat->status != LMB_OK && lat->status != LMB_BELOW_RESOLUTION) {
        lmb_result_set_status(bw, lat->status, "not measured: the chase ended %s: %s",
                              lmb_status_name(lat->status), lat->reason);
        return;
    }
    if (lat->spans == NULL || lat->n == 0) {
        lmb_result_set_status(bw, LMB_FAILED, "the chase's timed intervals are not known");
        return;
    }
    v = calloc(lat->n, sizeof *v);
    if (v == NULL) {
        lmb_result_set_status(bw, LMB_FAILED, "out of memory");
        return;
    }
    for (size_t r = 0; r < lat->n; r++) {
        uint64_t t0 = origin + lat->spans[r].start, t1 = origin + lat->spans[r].end;
        double bytes = lmb_loaders_bytes(ls, t0, t1);
        if (bytes < 0 || t1 <= t0) {
            lmb_result_set_status(bw, LMB_FAILED, "the loaders' logs do not cover the chase's "
                                  "timed interval %zu", r + 1);
            free(v);
            return;
        }
        v[r] = bytes / ((double)(t1 - t0) * 1e-9);
    }
    lmb_result_values(bw, v, lat->n, NULL);
    free(v);
    if (pt->rate > 0) {
        double asked = (double)pt->loaders * (double)pt->rate * 1e6, got = median_of(bw);
        if (got >= 0 && got < RATE_SHORT * asked)
            lmb_result_warn(bw, "asked %u x %" PRIu64 " MB/s, delivered %.1f MB/s: the loaders "
                            "could not keep the rate", pt->loaders, pt->rate, got / 1e6);
    }
}

/* One loaded point: loaders started, the chase measured on its CPU, the
 * loaders stopped. */
static void measure_point(struct lmb_ctx *ctx, const struct plan *p, size_t i,
                          struct lmb_loaders *ls, struct lmb_memlat_shared *chain)
{
    const struct point *pt = &p->points[i];
    struct lmb_result lat, bw;
    struct lmb_sched saved = ctx->sched;
    uint64_t spacing = ctx->interval_ns / LOG_PER_INTERVAL, origin;
    double wait = lmb_time_left(ctx);
    char err[256];

    if (spacing < 1000)
        spacing = 1000;
    if (wait > START_WAIT_S)
        wait = START_WAIT_S;
    if (lmb_loaders_start(ls, pt->loaders, p->cpus + 1, p->write, (double)pt->rate, spacing,
                          wait, err, sizeof err) != 0) {
        report_unmeasured(ctx, p, i, LMB_FAILED, err);
        return;
    }
    /* The chase's one process on the first usable CPU, whatever the policy. */
    ctx->sched.policy = LMB_SCHED_CUSTOM;
    ctx->sched.ncustom = 1;
    ctx->sched.custom[0] = p->cpus[0];
    origin = lmb_now(&ctx->clock);
    lmb_memlat_measure_shared(ctx, chain, &lat);
    ctx->sched = saved;
    lmb_loaders_stop(ls);
    lat.policy = lmb_sched_policy_name(saved.policy);
    delivered(ls, pt, &lat, origin, &bw);
    report_point(ctx, p, i, &lat, &bw);
}

static void warn_small(struct lmb_ctx *ctx, uint64_t size)
{
    const char *where;
    size_t cache = lmb_memlat_largest_cache(&where);

    if (cache > 0 && size < 2 * (uint64_t)cache)
        lmb_report_warn(&ctx->report, "the %" PRIu64 "-byte buffers are not twice the largest "
                        "cache (%zu bytes, from %s): the chase measures the cache, not the "
                        "memory", size, cache, where);
}

static int lat_loaded_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct plan p;
    struct lmb_loaders ls;
    struct lmb_memlat_shared chain;
    unsigned most = 0;
    char err[256], why[LMB_REASON_LEN + 320];
    int rc;

    (void)argv;
    memset(&p, 0, sizeof p);
    if ((rc = make_plan(ctx, argc, &p)) != 0) {
        free(p.points);
        return rc;
    }
    for (size_t i = 0; i < p.npoints; i++)
        if (p.points[i].loaders > most)
            most = p.points[i].loaders;
    if (most > (unsigned)p.ncpus - 1)
        most = (unsigned)p.ncpus - 1;
    memory_fit(&p, most);
    warn_small(ctx, p.size);

    if (lmb_memory_fits(p.size + p.size / (uint64_t)lmb_cache_line_size() * 4, 1, err,
                        sizeof err) != 0 ||
        lmb_memlat_share(&chain, (size_t)p.size, (size_t)lmb_cache_line_size(), 0, err,
                         sizeof err) != 0) {
        for (size_t i = 0; i < p.npoints; i++)
            report_unmeasured(ctx, &p, i, LMB_FAILED, err);
        free(p.points);
        return LMB_EXIT_OK;
    }
    if (lmb_loaders_init(&ls, p.fit, (size_t)p.size, &ctx->clock, &ctx->sched, err,
                         sizeof err) != 0) {
        for (size_t i = 0; i < p.npoints; i++)
            report_unmeasured(ctx, &p, i, LMB_FAILED, err);
        lmb_memlat_unshare(&chain);
        free(p.points);
        return LMB_EXIT_OK;
    }

    for (size_t i = 0; i < p.npoints; i++) {
        const struct point *pt = &p.points[i];
        struct lmb_result lat, bw;

        if (lmb_out_of_time(ctx, &lat)) {
            lmb_out_of_time(ctx, &bw);
            report_point(ctx, &p, i, &lat, &bw);
        } else if ((int)pt->loaders >= p.ncpus) {
            snprintf(why, sizeof why, "not measured: %u loaders need %u CPUs besides the "
                     "chase's; %d usable (--cpus, LMBENCH_SCHED or the affinity), and a "
                     "loader on the chase's CPU would be timed as the chase",
                     pt->loaders, pt->loaders, p.ncpus - 1);
            report_unmeasured(ctx, &p, i, LMB_SKIPPED, why);
        } else if (pt->loaders > p.fit) {
            snprintf(why, sizeof why, "not measured: the buffers of %u loaders do not fit "
                     "beside the chase's (%s)", pt->loaders, p.fit_why);
            report_unmeasured(ctx, &p, i, LMB_FAILED, why);
        } else {
            measure_point(ctx, &p, i, &ls, &chain);
        }
    }
    lmb_loaders_free(&ls);
    lmb_memlat_unshare(&chain);
    free(p.points);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_loaded = {
    .name = "lat_loaded",
    .summary = "Memory latency under a bandwidth load from other CPUs",
    .category = LMB_CAT_HARDWARE,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "",
    .help = "Chases one random cycle of pointers, one per cache line, through a buffer\n"
            "(-s, default 256m) on the first usable CPU while loader threads on the next\n"
            "CPUs stream over buffers of their own, the same size: rd passes (lmbench's,\n"
            "one word in every 16 bytes), or wr with -w. Points: no load, then 1 to N\n"
            "loaders flat out (-n N, default one per usable CPU but the chase's), then N\n"
            "loaders at each rate of -r (MB/s per loader, paced by busy-waiting). Each\n"
            "point gives the latency (ns per load, median) and the bandwidth the loaders\n"
            "delivered during the chase's timed intervals (MB/s, measured, summed):\n"
            "  loaders=K rate=R: L nanoseconds at B MB/s\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_loaded_main,
};
