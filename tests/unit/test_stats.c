// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/stats.c against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/stats.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* |got - want| within a relative (or, near 0, absolute) 1e-12. */
#define assert_close(got, want) assert_close_at((got), (want), #got, __FILE__, __LINE__)

static void assert_close_at(double got, double want, const char *what, const char *file,
                            int line)
{
    double tol = 1e-12 * (fabs(want) > 1.0 ? fabs(want) : 1.0);

    if (!(fabs(got - want) <= tol))
        fail_msg("%s:%d: %s = %.17g, want %.17g", file, line, what, got, want);
}

static void compute_ok(const double *x, size_t n, struct lmb_stats *st)
{
    memset(st, 0xa5, sizeof *st);   /* garbage: everything must be written */
    assert_int_equal(lmb_stats_compute(x, n, st), 0);
}

static void test_n1(void **state)
{
    const double x[] = {42.5};
    struct lmb_stats st;

    (void)state;
    compute_ok(x, 1, &st);
    assert_int_equal(st.n, 1);
    assert_close(st.min, 42.5);
    assert_close(st.p25, 42.5);
    assert_close(st.median, 42.5);
    assert_close(st.p75, 42.5);
    assert_close(st.max, 42.5);
    assert_close(st.mean, 42.5);
    assert_close(st.stdev, 0.0);
    assert_close(st.cv, 0.0);
    assert_false(st.has_ci);
}

static void test_n2(void **state)
{
    const double x[] = {3.0, 1.0};
    struct lmb_stats st;

    (void)state;
    compute_ok(x, 2, &st);
    assert_int_equal(st.n, 2);
    assert_close(st.min, 1.0);
    assert_close(st.max, 3.0);
    assert_close(st.median, 2.0);
    assert_close(st.p25, 1.5);    /* h = 0.25 */
    assert_close(st.p75, 2.5);    /* h = 0.75 */
    assert_close(st.mean, 2.0);
    assert_close(st.stdev, sqrt(2.0));          /* ((1+1)/(2-1))^0.5 */
    assert_close(st.cv, sqrt(2.0) / 2.0);
    assert_false(st.has_ci);
}

static void test_one_to_ten(void **state)
{
    const double x[] = {7, 3, 10, 1, 5, 9, 2, 8, 4, 6};
    struct lmb_stats st;

    (void)state;
    compute_ok(x, 10, &st);
    assert_int_equal(st.n, 10);
    assert_close(st.min, 1.0);
    assert_close(st.max, 10.0);
    assert_close(st.median, 5.5);
    assert_close(st.p25, 3.25);   /* h = 9 * 0.25 = 2.25: 3 + 0.25 */
    assert_close(st.p75, 7.75);   /* h = 6.75: 7 + 0.75 */
    assert_close(st.mean, 5.5);
    /* sum of squared deviations 82.5, over n - 1 = 9 */
    assert_close(st.stdev, sqrt(82.5 / 9.0));
    assert_close(st.stdev, 3.0276503540974917);
    assert_close(st.cv, 3.0276503540974917 / 5.5);
    /* n = 10: ranks 2 and 9 (coverage 1 - 2 * 11/1024 = 0.9785) */
    assert_true(st.has_ci);
    assert_close(st.ci_lo, 2.0);
    assert_close(st.ci_hi, 9.0);
}

static void test_repeated_values(void **state)
{
    const double x[] = {5, 1, 5, 5, 2, 5};
    struct lmb_stats st;

    (void)state;
    compute_ok(x, 6, &st);
    assert_close(st.min, 1.0);
    assert_close(st.max, 5.0);
    assert_close(st.median, 5.0);
    assert_close(st.p25, 2.75);   /* h = 1.25 between 2 and 5 */
    assert_close(st.p75, 5.0);
    assert_close(st.mean, 23.0 / 6.0);
    /* deviations: -17/6, -11/6, 7/6 (x4): (289 + 121 + 4 * 49) / 36 = 606 / 36 */
    assert_close(st.stdev, sqrt(606.0 / 36.0 / 5.0));
    assert_close(st.cv, sqrt(606.0 / 36.0 / 5.0) / (23.0 / 6.0));
    assert_true(st.has_ci);       /* n = 6: ranks 1 and 6 */
    assert_close(st.ci_lo, 1.0);
    assert_close(st.ci_hi, 5.0);
}

static void test_all_equal(void **state)
{
    double x[11];
    struct lmb_stats st;

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(x); i++)
        x[i] = 0.25;
    compute_ok(x, ARRAY_LEN(x), &st);
    assert_close(st.min, 0.25);
    assert_close(st.max, 0.25);
    assert_close(st.median, 0.25);
    assert_close(st.stdev, 0.0);
    assert_close(st.cv, 0.0);
    assert_true(st.has_ci);
    assert_close(st.ci_lo, 0.25);
    assert_close(st.ci_hi, 0.25);
}

static void test_zero_mean(void **state)
{
    const double x[] = {-1.0, 1.0};
    const double z[] = {0.0, 0.0, 0.0};
    struct lmb_stats st;

    (void)state;
    compute_ok(x, 2, &st);
    assert_close(st.mean, 0.0);
    assert_close(st.stdev, sqrt(2.0));
    assert_close(st.cv, 0.0);     /* defined as 0 when the mean is 0 */
    compute_ok(z, 3, &st);
    assert_close(st.cv, 0.0);
    assert_false(isnan(st.cv));
}

/* Odd n: the median is the middle order statistic, and the CI uses ranks 2 and 10. */
static void test_n11_ci(void **state)
{
    const double x[] = {110, 30, 70, 10, 90, 50, 20, 100, 40, 80, 60};
    struct lmb_stats st;

    (void)state;
    compute_ok(x, 11, &st);
    assert_close(st.median, 60.0);
    assert_close(st.p25, 35.0);   /* h = 2.5 */
    assert_close(st.p75, 85.0);   /* h = 7.5 */
    assert_true(st.has_ci);
    assert_close(st.ci_lo, 20.0);
    assert_close(st.ci_hi, 100.0);
}

static void test_no_ci_below_6(void **state)
{
    const double x[] = {1, 2, 3, 4, 5};
    struct lmb_stats st;

    (void)state;
    for (size_t n = 1; n <= 5; n++) {
        compute_ok(x, n, &st);
        assert_false(st.has_ci);
    }
}

static void test_quantile_type7(void **state)
{
    const double s[] = {10, 20, 30, 40};
    const double one[] = {7};

    (void)state;
    assert_close(lmb_quantile_sorted(s, 4, 0.0), 10.0);
    assert_close(lmb_quantile_sorted(s, 4, 1.0), 40.0);
    assert_close(lmb_quantile_sorted(s, 4, 0.5), 25.0);
    assert_close(lmb_quantile_sorted(s, 4, 0.25), 17.5);   /* h = 0.75 */
    assert_close(lmb_quantile_sorted(s, 4, 0.75), 32.5);   /* h = 2.25 */
    assert_close(lmb_quantile_sorted(s, 4, 0.9), 37.0);    /* h = 2.7 */
    assert_close(lmb_quantile_sorted(s, 4, 1.0 / 3.0), 20.0);
    assert_close(lmb_quantile_sorted(s, 4, 0.1), 13.0);    /* h = 0.3 */
    assert_close(lmb_quantile_sorted(one, 1, 0.0), 7.0);
    assert_close(lmb_quantile_sorted(one, 1, 0.5), 7.0);
    assert_close(lmb_quantile_sorted(one, 1, 1.0), 7.0);
}

/* Hand-checked against the binomial: the largest j with
 * 1 - 2 * P(Bin(n, 1/2) <= j - 1) >= 0.95, and k = n + 1 - j. */
static void test_ci_ranks_table(void **state)
{
    static const struct {
        size_t n, j, k;
    } cases[] = {
        {6, 1, 6},   /* 1 - 2/64 = 0.969; j = 2 would give 1 - 14/64 = 0.78 */
        {7, 1, 7},
        {8, 1, 8},   /* j = 2: 1 - 2 * 9/256 = 0.930 */
        {9, 2, 8},   /* 1 - 2 * 10/512 = 0.961 */
        {10, 2, 9},
        {11, 2, 10}, /* 1 - 2 * 12/2048 = 0.988; j = 3: 1 - 2 * 67/2048 = 0.935 */
        {12, 3, 10},
        {13, 3, 11},
        {14, 3, 12},
        {15, 4, 12},
        {16, 4, 13},
        {17, 5, 13},
        {18, 5, 14},
        {19, 5, 15},
        {20, 6, 15}, /* P(B <= 5) = 21700/2^20 = 0.0207; P(B <= 6) = 60460/2^20 = 0.0577 */
        {30, 10, 21},
        {50, 18, 33},
        {100, 40, 61},
        {1000, 469, 532},
        {2001, 957, 1045},
        {10000, 4902, 5099},
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        size_t j = 0, k = 0;
        if (!lmb_median_ci_ranks(cases[i].n, &j, &k))
            fail_msg("n = %zu: no interval", cases[i].n);
        if (j != cases[i].j || k != cases[i].k)
            fail_msg("n = %zu: ranks %zu..%zu, want %zu..%zu", cases[i].n, j, k, cases[i].j,
                     cases[i].k);
    }
}

/* Every n from 6 to 56 against exact integer arithmetic (2^56 * 40 fits in 64 bits). */
static void test_ci_ranks_exact(void **state)
{
    (void)state;
    for (size_t n = 6; n <= 56; n++) {
        uint64_t total = 1ULL << n, cum = 0, c = 1;   /* c = C(n, i) */
        size_t want = 0, j = 0, k = 0;
        for (size_t i = 0; i < n / 2; i++) {
            cum += c;                                   /* P(B <= i) * 2^n */
            if (40 * cum <= total)                      /* 1 - 2 P >= 0.95 */
                want = i + 1;
            else
                break;
            c = c * (n - i) / (i + 1);
        }
        assert_true(want > 0);
        if (!lmb_median_ci_ranks(n, &j, &k))
            fail_msg("n = %zu: no interval", n);
        if (j != want || k != n + 1 - want)
            fail_msg("n = %zu: ranks %zu..%zu, want %zu..%zu", n, j, k, want, n + 1 - want);
    }
}

static void test_ci_ranks_small(void **state)
{
    (void)state;
    for (size_t n = 0; n < 6; n++) {
        size_t j = 12345, k = 12345;
        assert_false(lmb_median_ci_ranks(n, &j, &k));
        assert_int_equal(j, 12345);
        assert_int_equal(k, 12345);
    }
}

static void test_rejects_bad_input(void **state)
{
    const double nan_x[] = {1.0, NAN, 3.0};
    const double inf_x[] = {1.0, 2.0, INFINITY};
    const double ninf_x[] = {-INFINITY, 2.0, 3.0};
    const double ok_x[] = {1.0};
    struct lmb_stats st;

    (void)state;
    assert_int_equal(lmb_stats_compute(nan_x, 3, &st), -1);
    assert_int_equal(lmb_stats_compute(inf_x, 3, &st), -1);
    assert_int_equal(lmb_stats_compute(ninf_x, 3, &st), -1);
    assert_int_equal(lmb_stats_compute(ok_x, 0, &st), -1);
    assert_int_equal(lmb_stats_compute(NULL, 0, &st), -1);
    assert_int_equal(lmb_stats_compute(NULL, 3, &st), -1);
}

static void test_input_not_modified(void **state)
{
    double x[] = {9, 1, 8, 2, 7, 3, 6, 4, 5, 0, 11, -3};
    double copy[ARRAY_LEN(x)];
    struct lmb_stats st;

    (void)state;
    memcpy(copy, x, sizeof x);
    compute_ok(x, ARRAY_LEN(x), &st);
    assert_memory_equal(x, copy, sizeof x);
    assert_close(st.min, -3.0);
    assert_close(st.max, 11.0);
    assert_close(st.median, 4.5);
}

/* The order of the input does not matter. */
static void test_order_independent(void **state)
{
    const double a[] = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
    const double b[] = {6.5, 0.5, 5.5, 1.5, 4.5, 2.5, 3.5};
    struct lmb_stats sa, sb;

    (void)state;
    compute_ok(a, 7, &sa);
    compute_ok(b, 7, &sb);
    assert_close(sa.median, 3.5);
    assert_close(sb.median, 3.5);
    assert_close(sa.p25, sb.p25);
    assert_close(sa.p75, sb.p75);
    assert_close(sa.p25, 2.0);    /* h = 1.5 */
    assert_close(sa.p75, 5.0);    /* h = 4.5 */
    assert_close(sa.stdev, sb.stdev);
    assert_true(sa.has_ci && sb.has_ci);
    assert_close(sa.ci_lo, 0.5);  /* n = 7: ranks 1 and 7 */
    assert_close(sa.ci_hi, 6.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n1),
        cmocka_unit_test(test_n2),
        cmocka_unit_test(test_one_to_ten),
        cmocka_unit_test(test_repeated_values),
        cmocka_unit_test(test_all_equal),
        cmocka_unit_test(test_zero_mean),
        cmocka_unit_test(test_n11_ci),
        cmocka_unit_test(test_no_ci_below_6),
        cmocka_unit_test(test_quantile_type7),
        cmocka_unit_test(test_ci_ranks_table),
        cmocka_unit_test(test_ci_ranks_exact),
        cmocka_unit_test(test_ci_ranks_small),
        cmocka_unit_test(test_rejects_bad_input),
        cmocka_unit_test(test_input_not_modified),
        cmocka_unit_test(test_order_independent),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
