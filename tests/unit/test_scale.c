// SPDX-License-Identifier: MIT
/* Unit tests of lmbench scale's curve (src/suite/scalecurve.c) on synthetic data
 * with known answers: the throughput of bandwidth and latency records, the
 * efficiency against linear, the stopping rule (the first point whose
 * throughput interval is not above the previous point's, or whose efficiency
 * is under the threshold), the default -P counts and --copies parsing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "suite/scale.h"

static bool near(double a, double b)
{
    double scale = fabs(b) > 1 ? fabs(b) : 1;
    return fabs(a - b) <= 1e-9 * scale;
}
#define NEAR(a, b) assert_true(near((a), (b)))

/* A point from a throughput and a symmetric relative half-width. */
static struct lmb_scale_point pt(unsigned copies, double thr, double rel)
{
    struct lmb_scale_point p = { .copies = copies, .ok = true, .thr = thr,
                                 .thr_lo = thr * (1 - rel), .thr_hi = thr * (1 + rel),
                                 .efficiency = NAN };
    return p;
}

static void test_throughput_bandwidth(void **state)
{
    struct lmb_scale_point p;
    (void)state;
    /* A bandwidth is summed over the copies already: taken as it is. */
    assert_int_equal(lmb_scale_throughput("bandwidth", "MB/s", 4, 8000, 7900, 8100, &p), 0);
    assert_true(p.ok);
    assert_int_equal(p.copies, 4);
    NEAR(p.thr, 8000);
    NEAR(p.thr_lo, 7900);
    NEAR(p.thr_hi, 8100);
    /* An interval that leaves out the headline (a min headline) is widened. */
    assert_int_equal(lmb_scale_throughput("bandwidth", "MB/s", 1, 100, 110, 120, &p), 0);
    NEAR(p.thr_lo, 100);
    NEAR(p.thr_hi, 120);
    /* An unknown interval: the value alone. */
    assert_int_equal(lmb_scale_throughput("bandwidth", "MB/s", 1, 100, NAN, NAN, &p), 0);
    NEAR(p.thr_lo, 100);
    NEAR(p.thr_hi, 100);
}

static void test_throughput_latency(void **state)
{
    struct lmb_scale_point p;
    (void)state;
    /* 2 copies at 0.5 us per operation: 4 million operations per second; the
     * interval reversed (the slower latency is the lower throughput). */
    assert_int_equal(lmb_scale_throughput("latency", "us", 2, 0.5, 0.4, 1.0, &p), 0);
    NEAR(p.thr, 4e6);
    NEAR(p.thr_lo, 2e6);
    NEAR(p.thr_hi, 5e6);
    assert_int_equal(lmb_scale_throughput("latency", "ns", 1, 100, 100, 100, &p), 0);
    NEAR(p.thr, 1e7);
    assert_int_equal(lmb_scale_throughput("latency", "ms", 3, 2, 2, 2, &p), 0);
    NEAR(p.thr, 1500);
    /* Not a latency or a bandwidth, not positive, not finite: refused. */
    assert_int_equal(lmb_scale_throughput("frequency", "MHz", 1, 2400, 2400, 2400, &p), -1);
    assert_false(p.ok);
    assert_int_equal(lmb_scale_throughput("latency", "x", 1, 1, 1, 1, &p), -1);
    assert_int_equal(lmb_scale_throughput("latency", "us", 1, 0, 0, 0, &p), -1);
    assert_int_equal(lmb_scale_throughput("latency", "us", 1, NAN, 0, 0, &p), -1);
    assert_int_equal(lmb_scale_throughput("bandwidth", "MB/s", 0, 1, 1, 1, &p), -1);
}

static void test_linear_never_stops(void **state)
{
    struct lmb_scale_point p[4] = { pt(1, 100, 0.01), pt(2, 200, 0.01), pt(4, 400, 0.01),
                                    pt(8, 800, 0.01) };
    char why[200];
    (void)state;
    assert_int_equal(lmb_scale_stop(p, 4, 0.5, why, sizeof why), -1);
    for (int i = 0; i < 4; i++)
        NEAR(p[i].efficiency, 1.0);
    assert_non_null(strstr(why, "-P 8"));
}

static void test_flat_stops_on_overlap(void **state)
{
    /* 1 -> 2 doubles; 2 -> 4 gains 2%, inside the 5% intervals: stops at 4,
     * although its efficiency (0.51) is above the threshold. */
    struct lmb_scale_point p[4] = { pt(1, 100, 0.05), pt(2, 200, 0.05), pt(4, 204, 0.05),
                                    pt(8, 600, 0.05) };
    char why[200];
    (void)state;
    assert_int_equal(lmb_scale_stop(p, 4, 0.5, why, sizeof why), 2);
    NEAR(p[2].efficiency, 0.51);
    assert_non_null(strstr(why, "not above -P 2"));
    /* The later points still get their efficiency. */
    NEAR(p[3].efficiency, 0.75);
    /* Intervals that only touch: not above (lo <= previous hi). */
    struct lmb_scale_point q[2] = { { 1, true, 100, 90, 110, NAN }, { 2, true, 150, 110, 190, NAN } };
    assert_int_equal(lmb_scale_stop(q, 2, 0.5, why, sizeof why), 1);
    q[1].thr_lo = 110.001;
    assert_int_equal(lmb_scale_stop(q, 2, 0.5, why, sizeof why), -1);
}

static void test_efficiency_threshold(void **state)
{
    /* Throughput grows clearly at each step, but -P 8 gives 3.6 of 8: 0.45. */
    struct lmb_scale_point p[4] = { pt(1, 100, 0.01), pt(2, 190, 0.01), pt(4, 300, 0.01),
                                    pt(8, 360, 0.01) };
    char why[200];
    (void)state;
    assert_int_equal(lmb_scale_stop(p, 4, 0.5, why, sizeof why), 3);
    NEAR(p[1].efficiency, 0.95);
    NEAR(p[2].efficiency, 0.75);
    NEAR(p[3].efficiency, 0.45);
    assert_non_null(strstr(why, "0.45"));
    /* A stricter threshold stops it at 4 (0.75 < 0.8); a threshold of 0 never
     * stops a curve that keeps growing. */
    assert_int_equal(lmb_scale_stop(p, 4, 0.8, why, sizeof why), 2);
    assert_int_equal(lmb_scale_stop(p, 4, 0.0, why, sizeof why), -1);
}

static void test_base_and_gaps(void **state)
{
    /* -P 1 failed: the base is -P 2, efficiencies against its per-copy
     * throughput; a failed point in the middle is stepped over (4 is compared
     * with 2). */
    struct lmb_scale_point p[4] = { pt(1, 100, 0.01), pt(2, 200, 0.01), pt(3, 1, 0.01),
                                    pt(4, 380, 0.01) };
    char why[200];
    (void)state;
    p[0].ok = false;
    p[2].ok = false;
    assert_int_equal(lmb_scale_stop(p, 4, 0.5, why, sizeof why), -1);
    assert_true(isnan(p[0].efficiency));
    assert_true(isnan(p[2].efficiency));
    NEAR(p[1].efficiency, 1.0);
    NEAR(p[3].efficiency, 0.95);
    /* Nothing measured, or one point only: no stop, and why says so. */
    p[1].ok = p[3].ok = false;
    assert_int_equal(lmb_scale_stop(p, 4, 0.5, why, sizeof why), -1);
    assert_non_null(strstr(why, "no point"));
    p[3].ok = true;
    assert_int_equal(lmb_scale_stop(p, 4, 0.5, why, sizeof why), -1);
    assert_non_null(strstr(why, "one point"));
}

static void test_latency_curve(void **state)
{
    /* lat_syscall-like: latency per operation constant up to 2 copies, then
     * 4 copies on 2 CPUs take turns (latency doubles): throughput flat. */
    double lat[3] = { 0.2, 0.2, 0.4 };
    unsigned cp[3] = { 1, 2, 4 };
    struct lmb_scale_point p[3];
    char why[200];
    (void)state;
    for (int i = 0; i < 3; i++)
        assert_int_equal(lmb_scale_throughput("latency", "us", cp[i], lat[i], lat[i] * 0.99,
                                              lat[i] * 1.01, &p[i]), 0);
    assert_int_equal(lmb_scale_stop(p, 3, 0.5, why, sizeof why), 2);
    NEAR(p[1].efficiency, 1.0);
    NEAR(p[2].efficiency, 0.5);
}

static void test_default_copies(void **state)
{
    unsigned c[LMB_SCALE_MAX_POINTS];
    (void)state;
    assert_int_equal(lmb_scale_default_copies(1, c), 1);
    assert_int_equal(c[0], 1);
    assert_int_equal(lmb_scale_default_copies(2, c), 2);
    assert_int_equal(c[1], 2);
    assert_int_equal(lmb_scale_default_copies(6, c), 4);
    assert_int_equal(c[0], 1);
    assert_int_equal(c[1], 2);
    assert_int_equal(c[2], 4);
    assert_int_equal(c[3], 6);
    assert_int_equal(lmb_scale_default_copies(64, c), 7);
    assert_int_equal(c[6], 64);
    assert_int_equal(lmb_scale_default_copies(0, c), 1);
}

static void test_parse_copies(void **state)
{
    unsigned c[LMB_SCALE_MAX_POINTS];
    char err[300];
    (void)state;
    assert_int_equal(lmb_scale_parse_copies("1,2,3,8", 1024, c, err, sizeof err), 4);
    assert_int_equal(c[3], 8);
    /* Sorted, duplicates dropped. */
    assert_int_equal(lmb_scale_parse_copies("8,1,4,4", 1024, c, err, sizeof err), 3);
    assert_int_equal(c[0], 1);
    assert_int_equal(c[1], 4);
    assert_int_equal(c[2], 8);
    assert_int_equal(lmb_scale_parse_copies("3", 1024, c, err, sizeof err), 1);
    static const char *bad[] = { "", "0", "1,,2", "1,", ",1", "-1", "1.5", "2x", "1025", "a" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(lmb_scale_parse_copies(bad[i], 1024, c, err, sizeof err), -1);
        assert_true(err[0] != '\0');
    }
    /* More than LMB_SCALE_MAX_POINTS counts. */
    char many[LMB_SCALE_MAX_POINTS * 4 + 8] = "";
    for (int i = 1; i <= LMB_SCALE_MAX_POINTS + 1; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%s%d", i > 1 ? "," : "", i);
    assert_int_equal(lmb_scale_parse_copies(many, 1024, c, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_throughput_bandwidth),
        cmocka_unit_test(test_throughput_latency),
        cmocka_unit_test(test_linear_never_stops),
        cmocka_unit_test(test_flat_stops_on_overlap),
        cmocka_unit_test(test_efficiency_threshold),
        cmocka_unit_test(test_base_and_gaps),
        cmocka_unit_test(test_latency_curve),
        cmocka_unit_test(test_default_copies),
        cmocka_unit_test(test_parse_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
