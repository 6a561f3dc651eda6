// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/calibrate.c and src/lib/clock.c on fake clocks: time moves
 * only when the fake operation runs (iters * cost) and, optionally, by a fixed
 * amount on every read. Nothing here reads real time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/calibrate.h"
#include "lib/clock.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Past this many runs or reads the fake clock jumps far ahead so that a loop that
 * would never end does end, and the test fails instead of hanging. */
#define RUN_LIMIT 10000
#define READ_LIMIT 50000000ULL
#define ESCAPE_NS (1ULL << 50)

struct fake {
    uint64_t t;           /* what now() returns, ns */
    uint64_t read_cost;   /* added after each read */
    uint64_t op_cost;     /* per iteration of the fake operation */
    uint64_t quantum;     /* 0, or the clock shows t rounded down to a multiple of it */
    uint64_t reads, runs, iters_total;
    bool escaped;         /* a limit was hit */
};

static uint64_t fake_now(void *cookie)
{
    struct fake *f = cookie;
    uint64_t v = f->quantum ? f->t / f->quantum * f->quantum : f->t;

    f->t += f->read_cost;
    if (++f->reads > READ_LIMIT) {
        f->escaped = true;
        f->t += ESCAPE_NS;
    }
    return v;
}

static void fake_run(uint64_t iters, void *state)
{
    struct fake *f = state;

    f->t += iters * f->op_cost;
    f->iters_total += iters;
    if (++f->runs > RUN_LIMIT) {
        f->escaped = true;
        f->t += ESCAPE_NS;
    }
}

static void fake_clock(struct lmb_clock *c, struct fake *f, double overhead, double gran)
{
    memset(c, 0, sizeof *c);
    c->now = fake_now;
    c->cookie = f;
    c->name = "fake";
    c->overhead_ns = overhead;
    c->granularity_ns = gran;
}

/* --- lmb_calibrate ------------------------------------------------------------ */

static void check_reaches(uint64_t cost, uint64_t read_cost, uint64_t target)
{
    struct fake f = {.read_cost = read_cost, .op_cost = cost};
    struct lmb_clock c;
    struct lmb_cal cal;
    double ideal = (double)target / (double)cost;

    fake_clock(&c, &f, (double)read_cost, 1.0);
    memset(&cal, 0xa5, sizeof cal);
    lmb_calibrate(&c, fake_run, &f, target, 100 * target, &cal);

    if (f.escaped)
        fail_msg("cost %llu target %llu: calibration did not stop",
                 (unsigned long long)cost, (unsigned long long)target);
    if (!cal.reached || cal.hit_max_iters)
        fail_msg("cost %llu target %llu: reached %d hit_max %d", (unsigned long long)cost,
                 (unsigned long long)target, cal.reached, cal.hit_max_iters);
    /* The last interval is the one measured with iters: its length is exact here. */
    assert_int_equal(cal.last_ns, cal.iters * cost + read_cost);
    assert_true(cal.last_ns >= target);
    /* Close to target / cost: never fewer than needed, at most ~10% over. */
    if ((double)cal.iters < floor(ideal - (double)read_cost / (double)cost) ||
        (double)cal.iters > 1.12 * ideal + 1.0)
        fail_msg("cost %llu read %llu target %llu: iters %llu, ideal %.1f",
                 (unsigned long long)cost, (unsigned long long)read_cost,
                 (unsigned long long)target, (unsigned long long)cal.iters, ideal);
    /* spent covers every interval tried, reads included */
    assert_int_equal(cal.spent_ns, f.t - read_cost);
    assert_true(cal.spent_ns >= cal.last_ns);
    assert_true(f.runs < 30);
}

static void test_calibrate_reaches_target(void **state)
{
    static const uint64_t costs[] = {1, 3, 7, 10, 100, 999, 12345};
    static const uint64_t targets[] = {100000, 1000000, 5000000, 1000000000};

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(costs); i++)
        for (size_t t = 0; t < ARRAY_LEN(targets); t++) {
            check_reaches(costs[i], 0, targets[t]);
            check_reaches(costs[i], 25, targets[t]);
        }
}

static void test_calibrate_exact_example(void **state)
{
    struct fake f = {.op_cost = 10};
    struct lmb_clock c;
    struct lmb_cal cal;

    (void)state;
    /* error 1 ns, trust below 100 ns: 1 -> 10 (x10), then x100 (capped) twice. */
    fake_clock(&c, &f, 0.0, 1.0);
    lmb_calibrate(&c, fake_run, &f, 1000000, 1000000000, &cal);
    assert_false(f.escaped);
    assert_true(cal.reached);
    assert_false(cal.hit_max_iters);
    assert_int_equal(cal.iters, 100000);
    assert_int_equal(cal.last_ns, 1000000);
    /* ... and once more at 100000 to confirm the rate. */
    assert_int_equal(f.runs, 5);
    assert_int_equal(f.iters_total, 1 + 10 + 1000 + 100000 + 100000);
    assert_int_equal(cal.spent_ns, 10 * f.iters_total);
}

static void test_calibrate_zero_cost(void **state)
{
    static const uint64_t read_costs[] = {0, 1, 20};

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(read_costs); i++) {
        struct fake f = {.read_cost = read_costs[i], .op_cost = 0};
        struct lmb_clock c;
        struct lmb_cal cal;

        fake_clock(&c, &f, (double)read_costs[i], 1.0);
        lmb_calibrate(&c, fake_run, &f, 5000000, 2000000000ULL, &cal);
        assert_false(f.escaped);
        assert_true(cal.hit_max_iters);
        assert_false(cal.reached);
        assert_int_equal(cal.iters, LMB_MAX_ITERS);
        assert_true(cal.last_ns < 5000000);
        assert_true(f.runs < 30);
    }
}

static void test_calibrate_budget(void **state)
{
    struct fake f = {.op_cost = 1000};
    struct lmb_clock c;
    struct lmb_cal cal;
    const uint64_t target = 1000000000, budget = 100000;

    (void)state;
    fake_clock(&c, &f, 0.0, 1.0);
    lmb_calibrate(&c, fake_run, &f, target, budget, &cal);
    assert_false(f.escaped);
    assert_false(cal.reached);
    assert_false(cal.hit_max_iters);
    assert_true(cal.spent_ns >= budget);
    assert_true(cal.gave_up);
    assert_true(cal.last_ns < target);
    assert_true(cal.iters < target / 1000);
    assert_int_equal(cal.last_ns, cal.iters * 1000);
    /* It keeps the largest count tried: the last run was with cal.iters. */
    assert_true(cal.iters * 1000 <= cal.spent_ns);
    /* 1 (1 us), then x100: 100 iterations make 100 us, and the budget is spent. */
    assert_int_equal(cal.iters, 100);
    assert_int_equal(f.runs, 2);
}

/* A larger budget that still runs out: the count keeps growing while there is
 * budget left, and stops soon after it is spent. */
static void test_calibrate_budget_bounded(void **state)
{
    struct fake f = {.op_cost = 50};
    struct lmb_clock c;
    struct lmb_cal cal;
    const uint64_t target = 10000000000ULL, budget = 50000000;

    (void)state;
    fake_clock(&c, &f, 20.0, 1.0);
    lmb_calibrate(&c, fake_run, &f, target, budget, &cal);
    assert_false(f.escaped);
    assert_false(cal.reached);
    assert_true(cal.spent_ns >= budget);
    /* The spending check comes after each interval: the overshoot is the last one. */
    assert_true(cal.spent_ns - cal.last_ns < budget);
}

static void test_calibrate_slow_op(void **state)
{
    static const uint64_t costs[] = {1000000, 1000001, 7000000, 60000000000ULL};

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(costs); i++) {
        struct fake f = {.op_cost = costs[i], .read_cost = 20};
        struct lmb_clock c;
        struct lmb_cal cal;

        fake_clock(&c, &f, 20.0, 1.0);
        lmb_calibrate(&c, fake_run, &f, 1000000, 2000000000ULL, &cal);
        assert_false(f.escaped);
        assert_true(cal.reached);
        assert_false(cal.hit_max_iters);
        assert_int_equal(cal.iters, 1);
        /* The second confirms the first, unless one iteration alone outlasts
         * half the budget (the 60 s one): then once is all there is time for. */
        assert_int_equal(f.runs, costs[i] > 1000000000ULL ? 1 : 2);
        assert_int_equal(cal.last_ns, costs[i] + 20);
    }
}

/* A coarse clock (1 ms steps): nothing below the trust threshold is believed. */
static void test_calibrate_coarse_clock(void **state)
{
    struct fake f = {.op_cost = 3, .quantum = 1000000};
    struct lmb_clock c;
    struct lmb_cal cal;
    const uint64_t target = 1000000000;

    (void)state;
    fake_clock(&c, &f, 0.0, 1000000.0);
    lmb_calibrate(&c, fake_run, &f, target, 20 * target, &cal);
    assert_false(f.escaped);
    assert_true(cal.reached);
    assert_true(cal.last_ns >= target);
    /* The true time of the last run is iters * 3 ns; the clock may be off by a step. */
    assert_true((double)cal.iters * 3.0 >= (double)target - 1000000.0);
    assert_true((double)cal.iters * 3.0 <= 1.12 * (double)target + 1000000.0);
}

/* --- the state machine, fed by hand -------------------------------------------- */

/* One long interval (an interruption) does not make a count acceptable: the
 * confirming interval disagrees, and calibration grows from the honest rate. */
static void test_cal_interruption_not_trusted(void **state)
{
    struct lmb_cal c;
    const uint64_t target = 5000000, cost = 100;   /* 100 ns per iteration */
    uint64_t spent = 0;
    bool done = false;
    int rounds = 0;

    (void)state;
    lmb_cal_start(&c, target, lmb_cal_budget_ns(target), 100.0);
    while (!done && rounds < 100) {
        uint64_t e = c.iters * cost;
        if (c.iters == 1000 && rounds < 6)
            e += 20000000;   /* 20 ms preempted, once */
        spent += e;
        done = lmb_cal_feed(&c, e, spent);
        rounds++;
    }
    assert_true(done);
    assert_true(c.reached);
    assert_false(c.gave_up);
    /* The count gives a 5 ms interval at the honest rate, not 1000 iterations. */
    assert_true(c.iters * cost >= target);
    assert_true(c.iters * cost <= 1.12 * (double)target);
}

/* Intervals of one count that keep disagreeing exhaust the budget: calibration
 * gives up, says so, and keeps the count it tried. */
static void test_cal_disagreement_gives_up(void **state)
{
    struct lmb_cal c;
    const uint64_t target = 1000000, budget = 50000000;
    uint64_t spent = 0;
    bool done = false;
    int rounds = 0;

    (void)state;
    lmb_cal_start(&c, target, budget, 100.0);
    while (!done && rounds < 10000) {
        /* past the target, but alternately 1x and 3x: never two agreeing */
        uint64_t e = c.iters >= 1000 ? (rounds % 2 ? 3 : 1) * 1100000 : c.iters * 1000;
        spent += e;
        done = lmb_cal_feed(&c, e, spent);
        rounds++;
    }
    assert_true(done);
    assert_true(c.gave_up);
    assert_false(c.reached);
    assert_true(c.spent_ns >= budget);
    assert_true(c.iters >= 1000);
}

static void test_cal_rescale(void **state)
{
    (void)state;
    /* 1000 iterations in 1 ms, target 5 ms: 5500 with the 10% margin */
    assert_int_equal(lmb_cal_rescale(1000, 1000000, 5000000), 5500);
    /* too short by a hair still grows */
    assert_true(lmb_cal_rescale(1000, 4999999, 5000000) > 1000);
    /* nothing measured: x100 */
    assert_int_equal(lmb_cal_rescale(7, 0, 5000000), 700);
    /* capped */
    assert_int_equal(lmb_cal_rescale(LMB_MAX_ITERS, 1, 5000000), LMB_MAX_ITERS);
    /* never zero */
    assert_int_equal(lmb_cal_rescale(1, 1000000000, 1), 1);
}

static void test_cal_budget(void **state)
{
    (void)state;
    assert_int_equal(lmb_cal_budget_ns(1000), 2000000000ULL);
    assert_int_equal(lmb_cal_budget_ns(1000000000ULL), 20000000000ULL);
    assert_int_equal(lmb_cal_budget_ns(UINT64_MAX), UINT64_MAX);
}

/* --- lmb_warmup ------------------------------------------------------------------ */

static void test_warmup(void **state)
{
    struct fake f = {.op_cost = 100};
    struct lmb_clock c;

    (void)state;
    fake_clock(&c, &f, 0.0, 1.0);
    lmb_warmup(&c, fake_run, &f, 0);
    assert_int_equal(f.runs, 0);

    lmb_warmup(&c, fake_run, &f, 1000000);
    assert_false(f.escaped);
    assert_true(f.iters_total * 100 >= 1000000);
    /* doubling: the last run is at most about as long as all before it */
    assert_true(f.iters_total * 100 <= 2 * 1000000 + 200);
}

/* --- intervals ------------------------------------------------------------------- */

static void test_interval_precedence(void **state)
{
    struct fake f = {0};
    struct lmb_clock c;
    uint64_t v;
    char err[256] = "";

    (void)state;
    fake_clock(&c, &f, 20.0, 1.0);

    /* --min-time wins over ENOUGH, even a bad one */
    assert_int_equal(lmb_interval_ns(&c, 0.5, "1000", &v, err, sizeof err), 0);
    assert_int_equal(v, 500000000);
    assert_int_equal(lmb_interval_ns(&c, 2.0, NULL, &v, err, sizeof err), 0);
    assert_int_equal(v, 2000000000);
    assert_int_equal(lmb_interval_ns(&c, 0.25, "abc", &v, err, sizeof err), 0);
    assert_int_equal(v, 250000000);
    assert_int_equal(lmb_interval_ns(&c, 1e-12, NULL, &v, err, sizeof err), 0);
    assert_int_equal(v, 1);   /* never zero */

    /* then ENOUGH, in microseconds */
    assert_int_equal(lmb_interval_ns(&c, 0.0, "1000", &v, err, sizeof err), 0);
    assert_int_equal(v, 1000000);
    assert_int_equal(lmb_interval_ns(&c, 0.0, "1", &v, err, sizeof err), 0);
    assert_int_equal(v, 1000);
    assert_int_equal(lmb_interval_ns(&c, 0.0, "3600000000", &v, err, sizeof err), 0);
    assert_int_equal(v, 3600000000000ULL);

    /* then the default */
    assert_int_equal(lmb_interval_ns(&c, 0.0, NULL, &v, err, sizeof err), 0);
    assert_int_equal(v, lmb_default_interval_ns(&c));
    assert_int_equal(lmb_interval_ns(&c, 0.0, "", &v, err, sizeof err), 0);
    assert_int_equal(v, lmb_default_interval_ns(&c));
    assert_int_equal(v, LMB_MIN_DEFAULT_INTERVAL_NS);
}

static void test_interval_enough_invalid(void **state)
{
    static const char *const bad[] = {
        "abc", "0", "-5", "+5", "1.5", "1e3", " 10", "10 ", "10us", "0x10",
        "3600000001", "18446744073709551616",
    };
    struct fake f = {0};
    struct lmb_clock c;

    (void)state;
    fake_clock(&c, &f, 20.0, 1.0);
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        uint64_t v = 0;
        char err[256] = "";
        if (lmb_interval_ns(&c, 0.0, bad[i], &v, err, sizeof err) != -1)
            fail_msg("ENOUGH='%s' accepted (%llu ns)", bad[i], (unsigned long long)v);
        if (strstr(err, "ENOUGH") == NULL)
            fail_msg("ENOUGH='%s': message '%s' does not name ENOUGH", bad[i], err);
    }
}

static void test_default_interval(void **state)
{
    struct fake f = {0};
    struct lmb_clock c;

    (void)state;
    /* 1000 x (20 + 1) = 21 us: below the floor */
    fake_clock(&c, &f, 20.0, 1.0);
    assert_int_equal(lmb_default_interval_ns(&c), LMB_MIN_DEFAULT_INTERVAL_NS);
    fake_clock(&c, &f, 0.0, 0.0);
    assert_int_equal(lmb_default_interval_ns(&c), LMB_MIN_DEFAULT_INTERVAL_NS);
    /* 1000 x 4999 ns: still the floor */
    fake_clock(&c, &f, 4000.0, 999.0);
    assert_int_equal(lmb_default_interval_ns(&c), LMB_MIN_DEFAULT_INTERVAL_NS);
    /* 1000 x 10 us = 10 ms: above the floor, 0.1% */
    fake_clock(&c, &f, 9000.0, 1000.0);
    assert_int_equal(lmb_default_interval_ns(&c), 10000000);
    /* a 1 ms clock: 1 s */
    fake_clock(&c, &f, 50.0, 1000000.0);
    assert_int_equal(lmb_default_interval_ns(&c), 1000050000);
    /* never below the floor, whatever the clock says */
    fake_clock(&c, &f, NAN, 1.0);
    assert_int_equal(lmb_default_interval_ns(&c), LMB_MIN_DEFAULT_INTERVAL_NS);
}

/* --- lmb_clock_measure ---------------------------------------------------------- */

static void test_clock_measure_stepping(void **state)
{
    static const uint64_t steps[] = {1, 20, 37, 1000};

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(steps); i++) {
        struct fake f = {.t = 123456789, .read_cost = steps[i]};
        struct lmb_clock c;

        fake_clock(&c, &f, -1.0, -1.0);
        lmb_clock_measure(&c);
        assert_false(f.escaped);
        if (fabs(c.overhead_ns - (double)steps[i]) > 1e-9 ||
            fabs(c.granularity_ns - (double)steps[i]) > 1e-9)
            fail_msg("step %llu: overhead %.3f granularity %.3f", (unsigned long long)steps[i],
                     c.overhead_ns, c.granularity_ns);
        assert_true(fabs(lmb_clock_error_ns(&c) - 2.0 * (double)steps[i]) < 1e-9);
        assert_true(c.now == fake_now && c.cookie == &f);
    }
}

/* Reads cost 10 ns but the clock shows only whole microseconds. */
static void test_clock_measure_quantized(void **state)
{
    struct fake f = {.read_cost = 10, .quantum = 1000};
    struct lmb_clock c;

    (void)state;
    fake_clock(&c, &f, -1.0, -1.0);
    lmb_clock_measure(&c);
    assert_false(f.escaped);
    assert_true(c.granularity_ns == 1000.0);
    /* 1001 reads of 10 ns seen through a 1 us clock: 10000 or 11000 ns */
    if (c.overhead_ns < 9.9 || c.overhead_ns > 11.0)
        fail_msg("overhead %.3f, want about 10", c.overhead_ns);
}

/* A clock that never moves must not make the measurement spin for ever. */
static void test_clock_measure_stuck(void **state)
{
    struct fake f = {.t = 42};
    struct lmb_clock c;

    (void)state;
    fake_clock(&c, &f, -1.0, -1.0);
    lmb_clock_measure(&c);
    if (f.escaped)
        fail_msg("lmb_clock_measure kept reading a stuck clock (%llu reads)",
                 (unsigned long long)f.reads);
    assert_true(c.overhead_ns == 0.0);
    assert_true(c.granularity_ns == 0.0);
    assert_int_equal(lmb_default_interval_ns(&c), LMB_MIN_DEFAULT_INTERVAL_NS);
}

/* A very coarse clock (20 ns reads, 4 ms steps) is measured in bounded time. */
static void test_clock_measure_coarse(void **state)
{
    struct fake f = {.read_cost = 20, .quantum = 4000000};
    struct lmb_clock c;

    (void)state;
    fake_clock(&c, &f, -1.0, -1.0);
    lmb_clock_measure(&c);
    assert_false(f.escaped);
    assert_true(c.granularity_ns == 4000000.0);
    /* Timing 5000 steps of 4 ms would take 20 s on a real clock of this kind. */
    if (f.t > 500000000ULL)
        fail_msg("measuring the clock took %.1f s of clock time", (double)f.t / 1e9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibrate_reaches_target),
        cmocka_unit_test(test_calibrate_exact_example),
        cmocka_unit_test(test_calibrate_zero_cost),
        cmocka_unit_test(test_calibrate_budget),
        cmocka_unit_test(test_calibrate_budget_bounded),
        cmocka_unit_test(test_calibrate_slow_op),
        cmocka_unit_test(test_calibrate_coarse_clock),
        cmocka_unit_test(test_cal_interruption_not_trusted),
        cmocka_unit_test(test_cal_disagreement_gives_up),
        cmocka_unit_test(test_cal_rescale),
        cmocka_unit_test(test_cal_budget),
        cmocka_unit_test(test_warmup),
        cmocka_unit_test(test_interval_precedence),
        cmocka_unit_test(test_interval_enough_invalid),
        cmocka_unit_test(test_default_interval),
        cmocka_unit_test(test_clock_measure_stepping),
        cmocka_unit_test(test_clock_measure_quantized),
        cmocka_unit_test(test_clock_measure_stuck),
        cmocka_unit_test(test_clock_measure_coarse),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
