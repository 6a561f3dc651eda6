// SPDX-License-Identifier: MIT
/* Unit tests of the measuring core (src/lib/benchmp.c) with fake benchmarks:
 * copies run in lockstep on one iteration count, their samples merged, a
 * crashed copy or partner named at once, timeouts and calibration trouble
 * reported, -W honoured, partners placed and torn down, nothing left behind.
 *
 * The fake loops sleep or spin on the real clock; the assertions are about
 * structure (order of events, counts, statuses, messages) and about sums with
 * wide margins, never about how long something took to within a few percent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "lib/bench.h"
#include "lib/cleanup.h"

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* A context as lmb_command_run makes one: real clock, default placement. */
static void make_ctx(struct lmb_ctx *ctx, unsigned P, unsigned N, uint64_t interval_ns)
{
    char err[256];

    memset(ctx, 0, sizeof *ctx);
    ctx->prog = "test";
    ctx->opt.parallel = P;
    ctx->opt.repetitions = N;
    ctx->opt.timeout_s = 60;
    lmb_clock_system(&ctx->clock);
    ctx->interval_ns = interval_ns;
    assert_int_equal(lmb_sched_setup(&ctx->sched, NULL, NULL, err, sizeof err), 0);
}

/* No child of ours may be left, reaped or not. */
static void assert_no_children(void)
{
    pid_t r = waitpid(-1, NULL, WNOHANG);

    if (!(r == -1 && errno == ECHILD))
        fail_msg("a child process was left behind (waitpid gave %d)", (int)r);
}

/* --- fake loops ------------------------------------------------------------------ */

struct fake {
    uint64_t ns_per_iter;     /* sleep this long per iteration */
    int crash_copy;           /* this copy (0-based) ... */
    int crash_signal;         /* ... raises this signal ... */
    unsigned crash_after;     /* ... on its crash_after-th call of run */
    int abort_copy;           /* this copy calls lmb_abort_copy on its 3rd run */
    unsigned calls;           /* per process */
    int init_fails;
};

static void run_sleep(uint64_t n, void *s)
{
    struct fake *f = s;
    uint64_t per = f->ns_per_iter;

    f->calls++;
    if (f->crash_signal && (int)lmb_copy_index() == f->crash_copy && f->calls == f->crash_after)
        raise(f->crash_signal);
    if (f->abort_copy >= 0 && (int)lmb_copy_index() == f->abort_copy && f->calls == 3)
        lmb_abort_copy("the operation failed: %s", "boom");
    sleep_ns(n * per);
}

static void run_nothing(uint64_t n, void *s)
{
    (void)n;
    (void)s;
}

static int init_maybe(void *s, char *err, size_t errlen)
{
    struct fake *f = s;

    if (f->init_fails && (int)lmb_copy_index() == 1) {
        snprintf(err, errlen, "cannot set up: %s", "no such thing");
        return -1;
    }
    lmb_copy_fact_int("copy_seen", (long long)lmb_copy_count());
    return 0;
}

static struct lmb_timed timed(struct fake *f, enum lmb_metric m)
{
    return (struct lmb_timed){ .init = init_maybe, .run = run_sleep, .state = f, .metric = m,
                               .per_iter = 1000.0 };
}

/* --- lockstep -------------------------------------------------------------------- */

/* Every copy ran every repetition with the one iteration count; a copy that
 * finished early kept running until the last had finished (release after every
 * end), and no copy began the next repetition before all had finished it. */
static void test_lockstep_spans(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 20000, .abort_copy = -1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;
    const unsigned P = 3, N = 5;

    (void)state;
    make_ctx(&ctx, P, N, 2000000);
    lmb_measure(&ctx, &t, &res);
    if (res.status != LMB_OK)
        fail_msg("status %s: %s", lmb_status_name(res.status), res.reason);
    assert_int_equal(res.n, N);
    assert_int_equal(res.copies, P);
    assert_true(res.iters > 0);
    assert_non_null(res.spans);
    for (unsigned r = 0; r < N; r++) {
        uint64_t last_end = 0;
        for (unsigned i = 0; i < P; i++) {
            const struct lmb_span *sp = &res.spans[i * N + r];
            assert_true(sp->end > sp->start);
            if (sp->end > last_end)
                last_end = sp->end;
        }
        for (unsigned i = 0; i < P; i++) {
            const struct lmb_span *sp = &res.spans[i * N + r];
            if (sp->release < last_end)
                fail_msg("rep %u: copy %u stopped at %llu, before the last copy ended at %llu",
                         r, i, (unsigned long long)sp->release, (unsigned long long)last_end);
            if (r + 1 < N && res.spans[i * N + r + 1].start < last_end)
                fail_msg("rep %u: copy %u started the next repetition before all had ended", r, i);
        }
    }
    /* Latency per operation: 20 us of sleep per iteration, 1000 operations per
     * iteration, so about 20 ns per operation (sleeping overshoots, never
     * undershoots). */
    for (unsigned r = 0; r < N; r++)
        assert_true(res.samples[r] >= 19.9 && res.samples[r] < 200.0);
    /* The fact a copy reported in init arrives as a fact of the result. */
    assert_int_equal(res.nfacts, 1);
    assert_string_equal(res.facts[0].key, "copy_seen");
    assert_int_equal(res.facts[0].ival, P);
    lmb_result_free(&res);
    assert_no_children();
}

/* Bandwidths add up over copies that overlap: sleeping copies overlap whatever
 * the CPUs, so three together move about three times what one moves. */
static void test_bandwidth_sums(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 50000, .abort_copy = -1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_BANDWIDTH);
    struct lmb_result one, three;

    (void)state;
    make_ctx(&ctx, 1, 5, 3000000);
    lmb_measure(&ctx, &t, &one);
    assert_int_equal(one.status, LMB_OK);
    make_ctx(&ctx, 3, 5, 3000000);
    lmb_measure(&ctx, &t, &three);
    assert_int_equal(three.status, LMB_OK);
    {
        double a = one.samples[0], b = three.samples[0];
        for (unsigned r = 1; r < 5; r++) {
            a = one.samples[r] > a ? one.samples[r] : a;
            b = three.samples[r] > b ? three.samples[r] : b;
        }
        /* The best of each: three copies at least twice one, at most 3.3 times. */
        if (!(b >= 2.0 * a && b <= 3.3 * a))
            fail_msg("one copy %.0f B/s, three copies %.0f B/s: ratio %.2f", a, b, b / a);
    }
    lmb_result_free(&one);
    lmb_result_free(&three);
    assert_no_children();
}

/* --- failures are named ----------------------------------------------------------- */

/* Copy 3 of 4 crashes on its 4th run while the others would sleep for a long
 * time: it is named, with its signal, and the rest are killed at once. */
static void test_crash_named_at_once(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 20000, .crash_copy = 2, .crash_signal = SIGUSR1,
                      .crash_after = 4, .abort_copy = -1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;
    uint64_t t0 = now_ns();

    (void)state;
    make_ctx(&ctx, 4, 20, 200000000);   /* 0.2 s intervals: 4+ s if nobody noticed */
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_FAILED);
    if (strstr(res.reason, "copy 3 of 4 killed by signal 10") == NULL)
        fail_msg("reason: %s", res.reason);
    if (now_ns() - t0 > 3000000000ULL)
        fail_msg("the crash was noticed only after %.1f s", (double)(now_ns() - t0) / 1e9);
    lmb_result_free(&res);
    assert_no_children();
}

static void test_abort_reason_and_copy(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 10000, .abort_copy = 1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;

    (void)state;
    make_ctx(&ctx, 3, 3, 1000000);
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_FAILED);
    assert_string_equal(res.reason, "the operation failed: boom (copy 2 of 3)");
    lmb_result_free(&res);

    /* One copy: no copy number. */
    f.abort_copy = 0;
    f.calls = 0;
    make_ctx(&ctx, 1, 3, 1000000);
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_FAILED);
    assert_string_equal(res.reason, "the operation failed: boom");
    lmb_result_free(&res);
    assert_no_children();
}

static void test_init_failure(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 10000, .abort_copy = -1, .init_fails = 1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;

    (void)state;
    make_ctx(&ctx, 2, 3, 1000000);
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_FAILED);
    assert_string_equal(res.reason, "cannot set up: no such thing (copy 2 of 2)");
    lmb_result_free(&res);
    assert_no_children();
}

static void test_timeout(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 1000000000ULL, .abort_copy = -1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;
    uint64_t t0 = now_ns();

    (void)state;
    make_ctx(&ctx, 2, 3, 5000000);
    ctx.opt.timeout_s = 0.3;
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_TIMEOUT);
    assert_non_null(strstr(res.reason, "no result within 0.3 s"));
    assert_true(now_ns() - t0 < 3000000000ULL);
    assert_int_equal(res.n, 0);
    lmb_result_free(&res);
    assert_no_children();
}

/* The command's --timeout (deadline_s): a measurement running at the deadline
 * is stopped there whatever its own bound; one that would start after it is
 * not started. */
static void test_command_deadline(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 1000000000ULL, .abort_copy = -1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;
    uint64_t t0 = now_ns();

    (void)state;
    make_ctx(&ctx, 2, 3, 5000000);
    ctx.opt.timeout_s = 0.3;
    ctx.opt.deadline_s = (double)lmb_now(&ctx.clock) / 1e9 + 0.3;
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_TIMEOUT);
    assert_non_null(strstr(res.reason, "the command's --timeout of 0.3 s ran out"));
    assert_true(now_ns() - t0 < 3000000000ULL);
    lmb_result_free(&res);
    assert_no_children();

    t0 = now_ns();
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_TIMEOUT);
    assert_string_equal(res.reason, "not measured: the command's --timeout of 0.3 s had run out");
    assert_true(now_ns() - t0 < 100000000ULL);
    assert_int_equal(res.n, 0);
    assert_true(lmb_out_of_time(&ctx, NULL));
    assert_true(lmb_time_left(&ctx) == 0);
    lmb_result_free(&res);
    assert_no_children();

    ctx.opt.deadline_s = 0;
    assert_false(lmb_out_of_time(&ctx, NULL));
    assert_true(isinf(lmb_time_left(&ctx)));
}

/* --- calibration ------------------------------------------------------------------ */

/* A fake clock that moves only when the fake loop runs: deterministic in each
 * process (a copy has its own after fork). */
struct fake_time {
    uint64_t t;
    uint64_t cost;            /* ns per iteration */
    unsigned calls;
};

static uint64_t fake_now(void *cookie)
{
    return ((struct fake_time *)cookie)->t;
}

/* Every other run takes three times as long: two intervals of one count never
 * agree on the rate. */
static void run_alternating(uint64_t n, void *s)
{
    struct fake_time *ft = s;

    ft->calls++;
    ft->t += n * ft->cost * (ft->calls % 2 ? 1 : 3);
}

/* Intervals of one count that never agree: calibration gives up within its
 * budget and the result says so, with a number still measured. */
static void test_calibration_gives_up_warns(void **state)
{
    struct lmb_ctx ctx;
    struct fake_time ft = { .t = 1000, .cost = 1000 };
    struct lmb_timed t = { .run = run_alternating, .state = &ft, .metric = LMB_METRIC_LATENCY,
                           .per_iter = 1 };
    struct lmb_result res;
    bool warned = false;

    (void)state;
    make_ctx(&ctx, 1, 3, 1000000);
    ctx.clock = (struct lmb_clock){ .now = fake_now, .cookie = &ft, .name = "fake",
                                    .overhead_ns = 1, .granularity_ns = 1 };
    lmb_measure(&ctx, &t, &res);
    if (res.status != LMB_OK)
        fail_msg("status %s: %s", lmb_status_name(res.status), res.reason);
    for (unsigned i = 0; i < res.nwarnings; i++)
        if (strstr(res.warnings[i], "calibration did not settle") != NULL)
            warned = true;
    if (!warned)
        fail_msg("no warning about calibration (%u warnings)", res.nwarnings);
    lmb_result_free(&res);
    assert_no_children();
}

/* A loop that does nothing cannot fill an interval: below resolution, with a
 * reason, not a number. */
static void test_too_fast(void **state)
{
    struct lmb_ctx ctx;
    struct lmb_timed t = { .run = run_nothing, .metric = LMB_METRIC_LATENCY, .per_iter = 1 };
    struct lmb_result res;

    (void)state;
    make_ctx(&ctx, 1, 3, 1000000);
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_BELOW_RESOLUTION);
    assert_non_null(strstr(res.reason, "too fast to time"));
    lmb_result_free(&res);
    assert_no_children();
}

/* -W runs the loop untimed for that long before calibrating. */
static void test_warmup_spent(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 10000, .abort_copy = -1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;

    (void)state;
    make_ctx(&ctx, 1, 3, 1000000);
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_OK);
    /* Without -W: the one untimed interval before the samples. */
    assert_true(res.warmup_s > 0 && res.warmup_s < 0.15);
    lmb_result_free(&res);

    ctx.opt.warmup_us = 200000;
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_OK);
    if (!(res.warmup_s >= 0.2))
        fail_msg("-W 200000 warmed up for %.3f s", res.warmup_s);
    assert_true(res.elapsed_s >= 0.2);
    lmb_result_free(&res);
    assert_no_children();
}

/* More copies than CPUs allowed: a warning says the figure is what the CPUs did. */
static void test_crowding_warning(void **state)
{
    struct lmb_ctx ctx;
    struct fake f = { .ns_per_iter = 10000, .abort_copy = -1 };
    struct lmb_timed t = timed(&f, LMB_METRIC_LATENCY);
    struct lmb_result res;
    char err[128];

    (void)state;
    make_ctx(&ctx, 3, 3, 1000000);
    assert_int_equal(lmb_sched_setup(&ctx.sched, "SINGLE", NULL, err, sizeof err), 0);
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_OK);
    assert_true(res.nwarnings >= 1);
    assert_non_null(strstr(res.warnings[0], "3 copies share 1 CPU"));
    lmb_result_free(&res);
    assert_no_children();
}

/* --- partners --------------------------------------------------------------------- */

struct pingpong {
    int to_partner[2], to_copy[2];
    int partner_dies;          /* the partner raises SIGABRT after this many replies */
};

static int pp_init(void *s, char *err, size_t errlen)
{
    struct pingpong *p = s;

    if (pipe(p->to_partner) != 0 || pipe(p->to_copy) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static int pp_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct pingpong *p = s;
    char c;
    int replies = 0;

    if (!pc->thread) {
        close(p->to_partner[1]);
        close(p->to_copy[0]);
    }
    while (read(p->to_partner[0], &c, 1) == 1) {
        if (p->partner_dies && ++replies == p->partner_dies)
            raise(SIGABRT);
        if (write(p->to_copy[1], &c, 1) != 1) {
            snprintf(pc->err, pc->errlen, "write: %s", strerror(errno));
            return -1;
        }
    }
    return 0;
}

static void pp_after(void *s, bool threads)
{
    struct pingpong *p = s;

    if (!threads) {
        close(p->to_partner[0]);
        close(p->to_copy[1]);
    }
}

static void pp_run(uint64_t n, void *s)
{
    struct pingpong *p = s;
    char c = 'x';

    for (uint64_t i = 0; i < n; i++)
        if (write(p->to_partner[1], &c, 1) != 1 || read(p->to_copy[0], &c, 1) != 1)
            lmb_abort_copy("the partner is gone");
}

static void pp_cleanup(void *s)
{
    struct pingpong *p = s;

    close(p->to_partner[1]);   /* the partner reads EOF and returns */
    close(p->to_copy[0]);
}

static struct lmb_timed pp_timed(struct pingpong *p)
{
    return (struct lmb_timed){ .init = pp_init, .run = pp_run, .cleanup = pp_cleanup, .state = p,
                               .metric = LMB_METRIC_LATENCY, .per_iter = 1, .partners = 1,
                               .partner = pp_partner, .after_partners = pp_after };
}

static void check_partner_run(bool threads, const char *sched, const char *cpus,
                              const char *ends)
{
    struct lmb_ctx ctx;
    struct pingpong p = { { -1, -1 }, { -1, -1 }, 0 };
    struct lmb_timed t = pp_timed(&p);
    struct lmb_result res;
    char err[128];

    make_ctx(&ctx, 2, 3, 2000000);
    ctx.opt.threads = threads;
    assert_int_equal(lmb_sched_setup(&ctx.sched, sched, cpus, err, sizeof err), 0);
    lmb_measure(&ctx, &t, &res);
    if (res.status != LMB_OK)
        fail_msg("%s %s: status %s: %s", threads ? "threads" : "processes", sched,
                 lmb_status_name(res.status), res.reason);
    assert_int_equal(res.partners, 1);
    assert_int_equal(res.partner_threads, threads);
    for (unsigned i = 0; i < 2; i++) {
        assert_true(res.partner_ran[i] >= 0);
        if (strcmp(sched, "DEFAULT") != 0)
            assert_int_equal(res.partner_ran[i], res.partner_assigned[i]);
    }
    assert_int_equal(res.nfacts, 1);
    assert_string_equal(res.facts[0].key, "ends");
    assert_string_equal(res.facts[0].sval, ends);
    lmb_result_free(&res);
    assert_no_children();
}

static void test_partners(void **state)
{
    (void)state;
    check_partner_run(false, "DEFAULT", NULL, "unpinned");
    check_partner_run(true, "DEFAULT", NULL, "unpinned");
    check_partner_run(false, "SINGLE", NULL, "same_cpu");
    check_partner_run(true, "BALANCED", NULL, "same_cpu");
    /* --cpus with one CPU confines both ends to it, pinned or not. */
    check_partner_run(false, "DEFAULT", "0", "same_cpu");
    if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
        check_partner_run(false, "UNIQUE", NULL, "two_cpus");
}

/* A partner that dies makes its copy fail at once, with the partner named. */
static void test_partner_crash(void **state)
{
    struct lmb_ctx ctx;
    struct pingpong p = { { -1, -1 }, { -1, -1 }, 50 };
    struct lmb_timed t = pp_timed(&p);
    struct lmb_result res;

    (void)state;
    make_ctx(&ctx, 1, 3, 2000000);
    lmb_measure(&ctx, &t, &res);
    assert_int_equal(res.status, LMB_FAILED);
    /* Either the copy's SIGCHLD handler or its next read sees it first. */
    if (strstr(res.reason, "partner 1 killed by signal 6") == NULL &&
        strstr(res.reason, "the partner is gone") == NULL)
        fail_msg("reason: %s", res.reason);
    lmb_result_free(&res);
    assert_no_children();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lockstep_spans),
        cmocka_unit_test(test_bandwidth_sums),
        cmocka_unit_test(test_crash_named_at_once),
        cmocka_unit_test(test_abort_reason_and_copy),
        cmocka_unit_test(test_init_failure),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_command_deadline),
        cmocka_unit_test(test_calibration_gives_up_warns),
        cmocka_unit_test(test_too_fast),
        cmocka_unit_test(test_warmup_spent),
        cmocka_unit_test(test_crowding_warning),
        cmocka_unit_test(test_partners),
        cmocka_unit_test(test_partner_crash),
    };

    /* Copies and partners are children of this process. */
    lmb_cleanup_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
