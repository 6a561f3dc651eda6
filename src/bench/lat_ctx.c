// SPDX-License-Identifier: MIT
/* lat_ctx: context switch time, from a ring of processes passing a token.
 *
 * A ring of n processes (the copy and n-1 partners; threads with --threads) passes a 4-byte token
 * through n pipes; each process, when the token reaches it, first touches its
 * own `size` bytes of data (reads them all) and passes the token on. One
 * operation of the ring is one hop: receive, touch, send, and the switch to the
 * next process. The same work without a switch (one process writing the token
 * into a pipe, reading it back and touching its data) is measured on its own:
 * the overhead, printed as "ovr". The context switch time of a row is each
 * hop sample minus the overhead's smallest sample (lmb_baseline_low: noise
 * only adds time, so the least disturbed overhead run is the estimate, and one
 * disturbed run cannot understate every row); a row whose switches are not
 * measurably longer than that is reported as below_resolution with both
 * figures, never as a negative number or not at all.
 *
 * The overhead is a loop on the CPU alone, and its smallest sample is what is
 * subtracted: unless ENOUGH or --min-time fix the interval, it is measured in
 * intervals of OVR_INTERVAL_NS, shorter than the scheduler's slice, and
 * OVR_SAMPLES_PER_REP times as many of them (the same time in all). On a busy
 * CPU, the harness's default 5 ms intervals each held a share of the other
 * tasks' time, so the smallest of them moved from launch to launch with the
 * machine's load (2.5 to 9 us on a 2-CPU VM) and the switch time with it;
 * intervals that fit between two preemptions find the loop's own cost.
 *
 * Kept out of the timing: the pipes, the data (allocated and touched once
 * before), starting, placing and stopping the ring's processes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/difference.h"
#include "lib/files.h"
#include "lib/mem.h"
#include "lib/partner.h"
#include "lib/ring.h"
#include "lib/sizes.h"
#include "lib/text.h"

#define MAX_PROCS 129      /* the harness starts at most 128 partners per copy */
#define MAX_KB (1024u * 1024u)
#define MAX_ROWS 64
#define OVR_INTERVAL_NS 500000ULL   /* 0.5 ms: the overhead's intervals by default */
#define OVR_SAMPLES_PER_REP 10u     /* and -N times this many of them */

struct ring_state {
    size_t size;           /* bytes of data per process */
    unsigned n;            /* processes in the ring */
    struct lmb_ring ring;
    int pfd[2];            /* the overhead's one pipe */
    char *data;
    uint64_t sink;
    int token;
    bool threads;          /* the ring's other members are threads of the copy */
};

static char *new_data(size_t size)
{
    char *p = malloc(size ? size : 1);

    if (p != NULL)
        memset(p, 1, size);   /* touched once, before timing */
    return p;
}

/* --- the overhead: a hop's work in one process ------------------------------- */

static void run_overhead(uint64_t iters, void *s)
{
    struct ring_state *st = s;

    for (uint64_t i = 0; i < iters; i++) {
        if (lmb_write_all(st->pfd[1], &st->token, sizeof st->token) != 0 ||
            lmb_read_all(st->pfd[0], &st->token, sizeof st->token) != 0)
            lmb_abort_copy("pipe: %s", strerror(errno));
        st->sink += lmb_sum_bytes(st->data, st->size);
    }
}

static int overhead_init(void *s, char *err, size_t errlen)
{
    struct ring_state *st = s;

    st->data = new_data(st->size);
    if (st->data == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (pipe2(st->pfd, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void overhead_cleanup(void *s)
{
    struct ring_state *st = s;

    close(st->pfd[0]);
    close(st->pfd[1]);
    free(st->data);
    st->data = NULL;
}

/* --- the ring ----------------------------------------------------------------- */

/* The copy is process 0: per lap it touches its data, sends, and waits for the
 * token to come round. */
static void run_ring(uint64_t laps, void *s)
{
    struct ring_state *st = s;

    for (uint64_t i = 0; i < laps; i++) {
        st->sink += lmb_sum_bytes(st->data, st->size);
        if (lmb_ring_send(&st->ring, 0, st->token) != 0)
            lmb_partner_gone("passing the token");
        if (lmb_ring_recv(&st->ring, 0, &st->token) != 0)
            lmb_partner_gone("waiting for the token");
    }
}

/* Partner i is process i+1 of the ring. */
static int ring_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct ring_state *st = s;
    unsigned k = pc->index + 1;
    uint64_t sink = 0;
    char *data;
    int token, rc;

    if (!pc->thread)
        lmb_ring_keep(&st->ring, k);
    lmb_ignore_sigpipe();
    data = new_data(st->size);
    if (data == NULL) {
        snprintf(pc->err, pc->errlen, "out of memory for %zu bytes", st->size);
        return -1;
    }
    while ((rc = lmb_ring_recv(&st->ring, k, &token)) == 0) {
        sink += lmb_sum_bytes(data, st->size);
        if (lmb_ring_send(&st->ring, k, token + (int)(sink & 1)) != 0) {
            rc = errno == EPIPE ? 1 : -1;
            break;
        }
    }
    free(data);
    if (rc < 0)
        snprintf(pc->err, pc->errlen, "ring member %u: %s", k, strerror(errno));
    /* A thread closes its ends itself, so that the next one sees end of file. */
    if (pc->thread)
        lmb_ring_leave(&st->ring, k);
    return rc < 0 ? -1 : 0;
}

static void ring_after_partners(void *s, bool threads)
{
    struct ring_state *st = s;

    st->threads = threads;
    if (!threads)
        lmb_ring_keep(&st->ring, 0);
}

static int ring_init(void *s, char *err, size_t errlen)
{
    struct ring_state *st = s;

    st->ring.pipes = NULL;
    if (lmb_want_fds(2 * (uint64_t)st->n + 32, err, errlen) != 0)
        return -1;
    st->data = new_data(st->size);
    if (st->data == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return lmb_ring_open(&st->ring, st->n, err, errlen);
}

static void ring_cleanup(void *s)
{
    struct ring_state *st = s;

    /* Closing the copy's ends makes each member see end of file in turn. Threads
     * still use the ring's table after this: it is left for the copy's exit. */
    if (st->threads) {
        lmb_ring_leave(&st->ring, 0);
    } else {
        lmb_ring_close(&st->ring);
    }
    free(st->data);
    st->data = NULL;
}

/* Measures the overhead: in short intervals, more of them, unless ENOUGH or
 * --min-time chose the interval (see the top of this file). */
static void measure_overhead(struct lmb_ctx *ctx, const struct lmb_timed *t,
                             struct lmb_result *res)
{
    const char *enough = getenv("ENOUGH");
    uint64_t interval = ctx->interval_ns;
    unsigned reps = ctx->opt.repetitions;

    if (ctx->opt.min_time_s <= 0 && (enough == NULL || *enough == '\0') &&
        interval > OVR_INTERVAL_NS) {
        ctx->interval_ns = OVR_INTERVAL_NS;
        ctx->opt.repetitions = reps > LMB_MAX_REPETITIONS / OVR_SAMPLES_PER_REP
                                   ? LMB_MAX_REPETITIONS
                                   : reps * OVR_SAMPLES_PER_REP;
    }
    lmb_measure(ctx, t, res);
    ctx->interval_ns = interval;
    ctx->opt.repetitions = reps;
}

static const struct lmb_optdef options[] = {
    { 's', "KB", "data each process touches per hop, in KB of 1024 bytes (default 0)" },
};

static int lat_ctx_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct ring_state st = { .pfd = { -1, -1 }, .token = 1 };
    uint64_t kb = 0, procs[MAX_ROWS], most = 0;
    struct lmb_record rec;
    struct lmb_result res;
    double ovr_ns;
    char err[256], q[300];

    if (lmb_opt_given(ctx, 's') &&
        lmb_parse_uint(lmb_opt_arg(ctx, 's'), 0, MAX_KB, &kb, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-s: %s", err);
    if (argc < 1)
        return lmb_usage_error(ctx, "how many processes?");
    if (argc > MAX_ROWS)
        return lmb_usage_error(ctx, "at most %d process counts", MAX_ROWS);
    for (int i = 0; i < argc; i++) {
        if (lmb_parse_uint(argv[i], 2, MAX_PROCS, &procs[i], err, sizeof err) != 0)
            return lmb_usage_error(ctx, "processes '%s': %s", lmb_quote(argv[i], q, sizeof q),
                                   err);
        if (procs[i] > most)
            most = procs[i];
    }
    st.size = (size_t)kb * 1024;

    /* The overhead of a hop without a switch, for this size. */
    lmb_record_init(&rec, ctx->bench->name, "overhead", LMB_UNIT_US);
    lmb_record_param_int(&rec, "size_kb", (long long)kb);
    rec.classic = LMB_CLASSIC_CTX_OVR;
    rec.classic_x = (double)kb;
    /* The figure shown and subtracted is the smallest overhead sample. */
    rec.headline = LMB_HEAD_MIN;
    if (lmb_memory_fits((uint64_t)st.size * most, ctx->opt.parallel, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    {
        struct lmb_timed t = {
            .init = overhead_init,
            .run = run_overhead,
            .cleanup = overhead_cleanup,
            .state = &st,
            .metric = LMB_METRIC_LATENCY,
            .per_iter = 1.0,
        };
        measure_overhead(ctx, &t, &res);
    }
    ovr_ns = lmb_baseline_low(&res);
    lmb_report_add(&ctx->report, &rec, &res);

    for (int i = 0; i < argc; i++) {
        struct lmb_timed t = {
            .init = ring_init,
            .run = run_ring,
            .cleanup = ring_cleanup,
            .state = &st,
            .metric = LMB_METRIC_LATENCY,
            .per_iter = (double)procs[i],   /* hops per lap */
            .partners = (unsigned)procs[i] - 1,
            .partner = ring_partner,
            .after_partners = ring_after_partners,
        };

        st.n = (unsigned)procs[i];
        if (ovr_ns >= 0) {
            lmb_measure(ctx, &t, &res);
            lmb_ring_subtract(&res, ovr_ns);
        } else if (!lmb_out_of_time(ctx, &res)) {
            memset(&res, 0, sizeof res);
            lmb_result_set_status(&res, LMB_FAILED, "not measured: the overhead could not be");
        }
        lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_US);
        lmb_record_param_int(&rec, "size_kb", (long long)kb);
        lmb_record_param_int(&rec, "procs", (long long)procs[i]);
        rec.classic = LMB_CLASSIC_COUNT_2F;
        rec.classic_x = (double)procs[i];
        lmb_report_add(&ctx->report, &rec, &res);
    }
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_ctx = {
    .name = "lat_ctx",
    .summary = "Context switch time, from a ring of processes passing a token",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "nprocs [nprocs...]",
    .help = "Passes a token round a ring of nprocs processes (2 to 129) connected by\n"
            "pipes, each touching -s KB of its own data per hop, and prints, after a\n"
            "line \"size=<KB>k ovr=<overhead>, a row per ring: the processes and the\n"
            "microseconds of one context switch (a hop minus the same work in one\n"
            "process, the overhead).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_ctx_main,
};
