// SPDX-License-Identifier: MIT
/* Unit tests of the statistics of a comparison (src/suite/cmpstat.c) on
 * synthetic data with known answers: Student's t against table values,
 * Benjamini-Hochberg on a hand-computed list, known shifts detected (one and
 * three launches), known nulls not (200 null pairs: the rate of p < 0.05 stays
 * near 5%, and no verdict survives the floor and BH), identical samples, ties,
 * one sample, too few samples, a side without samples (unknown spread, and the
 * margin against the other side's launches), the between-launch CV and the
 * floor it sets, headlines that are minima, and reproducibility of the
 * fixed-seed bootstrap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "suite/cmpstat.h"

/* A generator of the test's own (splitmix64 and Box-Muller). */
static uint64_t g_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double g_unif(uint64_t *s)
{
    return ((double)(g_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double g_norm(uint64_t *s)
{
    return sqrt(-2 * log(g_unif(s))) * cos(2 * M_PI * g_unif(s));
}

/* L launches of k samples around mean: each launch's level varies by
 * between_cv, each sample around it by within_cv. */
static void synth(uint64_t *s, double *x, size_t *ln, size_t L, size_t k, double mean,
                  double between_cv, double within_cv)
{
    for (size_t l = 0; l < L; l++) {
        double level = mean * exp(between_cv * g_norm(s));
        ln[l] = k;
        for (size_t i = 0; i < k; i++)
            x[l * k + i] = level * exp(within_cv * g_norm(s));
    }
}

static struct lmb_cs_side side(const double *x, size_t n, const size_t *ln, size_t L)
{
    struct lmb_cs_side sd = { .x = x, .n = n, .launch_n = ln, .nlaunches = L, .value = NAN };
    return sd;
}

static void test_t(void **state)
{
    (void)state;
    /* Table values: t(0.975; 4) = 2.776, t(0.975; 10) = 2.228, normal 1.960. */
    assert_true(fabs(lmb_cs_t_quantile2(0.05, 4) - 2.7764) < 1e-3);
    assert_true(fabs(lmb_cs_t_quantile2(0.05, 10) - 2.2281) < 1e-3);
    assert_true(fabs(lmb_cs_t_quantile2(0.05, 1e6) - 1.9600) < 1e-3);
    assert_true(fabs(lmb_cs_t_tail2(2.7764, 4) - 0.05) < 1e-4);
    assert_true(fabs(lmb_cs_t_tail2(0, 7) - 1) < 1e-12);
    assert_true(fabs(lmb_cs_t_tail2(1, 1) - 0.5) < 1e-9);   /* Cauchy: P(|T|>1) = 1/2 */
    assert_true(lmb_cs_t_tail2(INFINITY, 3) == 0);
}

static void test_bh(void **state)
{
    /* m = 6, sorted p 0.001 0.008 0.039 0.041 0.042 0.60:
     * p*m/k = 0.006 0.024 0.078 0.0615 0.0504 0.60; the running minimum from
     * the top: 0.006 0.024 0.0504 0.0504 0.0504 0.60. */
    double p[] = { 0.041, 0.001, NAN, 0.60, 0.039, 0.008, 0.042 };
    double want[] = { 0.0504, 0.006, NAN, 0.60, 0.0504, 0.024, 0.0504 };
    double q[7];

    (void)state;
    assert_int_equal(lmb_cs_bh(p, 7, q), 0);
    for (int i = 0; i < 7; i++) {
        if (isnan(want[i]))
            assert_true(isnan(q[i]));
        else
            assert_true(fabs(q[i] - want[i]) < 1e-12);
    }
    /* At q = 0.05 only the two smallest survive, though 0.039 < 0.05. */
    assert_true(q[1] <= 0.05 && q[5] <= 0.05 && q[4] > 0.05 && q[0] > 0.05);
    /* An empty family. */
    assert_int_equal(lmb_cs_bh(p, 0, q), 0);
}

static void test_known_shift(void **state)
{
    struct lmb_cs_opts o = LMB_CS_DEFAULT_OPTS;
    o.min_launches = 1;   /* these tests judge single launches too */
    uint64_t s = 42;
    double b[33], n[33];
    size_t lb[3], ln[3];
    struct lmb_cs_result r[2];

    (void)state;
    /* Three launches of 11, 1% between launches, 1% within; new 10% slower. */
    synth(&s, b, lb, 3, 11, 1.0, 0.01, 0.01);
    synth(&s, n, ln, 3, 11, 1.10, 0.01, 0.01);
    struct lmb_cs_side sb = side(b, 33, lb, 3), sn = side(n, 33, ln, 3);
    lmb_cs_test(&o, &sb, &sn, false, 1, &r[0]);
    /* The same as a bandwidth: 10% higher is better. */
    lmb_cs_test(&o, &sb, &sn, true, 1, &r[1]);
    assert_int_equal(lmb_cs_judge(&o, r, 2), 0);
    assert_int_equal(r[0].method, LMB_CS_BOOTSTRAP);
    assert_true(r[0].ratio > 1.05 && r[0].ratio < 1.15);
    assert_true(r[0].lo < r[0].ratio && r[0].ratio < r[0].hi && r[0].lo > 1.03);
    assert_true(r[0].p < 0.01);
    assert_int_equal(r[0].launches_base, 3);
    assert_true(fabs(r[0].df - 4) < 0.5 || r[0].df > 3);
    assert_int_equal(r[0].verdict, LMB_CS_WORSE);
    assert_int_equal(r[1].verdict, LMB_CS_BETTER);
    assert_string_equal(lmb_cs_verdict_name(r[0].verdict), "worse");

    /* One launch of 11 each, 5% faster, 1% noise. */
    synth(&s, b, lb, 1, 11, 1.0, 0, 0.01);
    synth(&s, n, ln, 1, 11, 0.95, 0, 0.01);
    sb = side(b, 11, NULL, 0);
    sn = side(n, 11, NULL, 0);
    lmb_cs_test(&o, &sb, &sn, false, 1, &r[0]);
    assert_int_equal(lmb_cs_judge(&o, r, 1), 0);
    assert_int_equal(r[0].launches_base, 1);
    assert_true(isnan(r[0].cv_base));
    {
        /* By default one launch is not judged: its repetitions say nothing of
         * the spread between runs. */
        struct lmb_cs_opts d = LMB_CS_DEFAULT_OPTS;
        struct lmb_cs_result one;
        lmb_cs_test(&d, &sb, &sn, false, 1, &one);
        assert_int_equal(lmb_cs_judge(&d, &one, 1), 0);
        assert_int_equal(one.verdict, LMB_CS_UNKNOWN);
        assert_non_null(one.reason);
        assert_non_null(strstr(one.reason, "one launch"));
    }
    assert_true(fabs(r[0].df - 10) < 10);
    assert_int_equal(r[0].verdict, LMB_CS_BETTER);

    /* A real 2% shift is below the 3% floor: same, with the reason. */
    synth(&s, b, lb, 1, 11, 1.0, 0, 0.002);
    synth(&s, n, ln, 1, 11, 1.02, 0, 0.002);
    lmb_cs_test(&o, &sb, &sn, false, 1, &r[0]);
    assert_int_equal(lmb_cs_judge(&o, r, 1), 0);
    assert_true(r[0].p < 0.001);
    assert_int_equal(r[0].verdict, LMB_CS_SAME);
    assert_non_null(strstr(r[0].reason, "floor"));
    /* With --min-effect 1% it is worse. */
    o.min_effect = 0.01;
    lmb_cs_test(&o, &sb, &sn, false, 1, &r[0]);
    assert_int_equal(lmb_cs_judge(&o, r, 1), 0);
    assert_int_equal(r[0].verdict, LMB_CS_WORSE);
}

/* 200 null pairs of three launches (5% between, 2% within): p < 0.05 about 5%
 * of the time, and judged as one comparison no pair is called changed. */
static void test_known_null(void **state)
{
    enum { PAIRS = 200 };
    struct lmb_cs_opts o = LMB_CS_DEFAULT_OPTS;
    o.min_launches = 1;   /* these tests judge single launches too */
    uint64_t s = 7;
    double *b = malloc(PAIRS * 15 * sizeof *b), *n = malloc(PAIRS * 15 * sizeof *n);
    size_t *lb = malloc(PAIRS * 3 * sizeof *lb), *ln = malloc(PAIRS * 3 * sizeof *ln);
    struct lmb_cs_result *r = calloc(PAIRS, sizeof *r);
    int below = 0, called = 0;

    (void)state;
    assert_non_null(b);
    assert_non_null(n);
    assert_non_null(lb);
    assert_non_null(ln);
    assert_non_null(r);
    o.resamples = 500;
    for (int i = 0; i < PAIRS; i++) {
        synth(&s, b + i * 15, lb + i * 3, 3, 5, 2.0, 0.05, 0.02);
        synth(&s, n + i * 15, ln + i * 3, 3, 5, 2.0, 0.05, 0.02);
        struct lmb_cs_side sb = side(b + i * 15, 15, lb + i * 3, 3);
        struct lmb_cs_side sn = side(n + i * 15, 15, ln + i * 3, 3);
        lmb_cs_test(&o, &sb, &sn, false, (uint64_t)i, &r[i]);
        if (r[i].p < 0.05)
            below++;
    }
    assert_int_equal(lmb_cs_judge(&o, r, PAIRS), 0);
    for (int i = 0; i < PAIRS; i++)
        if (r[i].verdict == LMB_CS_WORSE || r[i].verdict == LMB_CS_BETTER)
            called++;
    print_message("null pairs: %d of %d with p < 0.05, %d called changed\n", below, PAIRS, called);
    assert_true(below <= 20);          /* 5% is 10; the binomial's 99.9% bound is ~20 */
    assert_int_equal(called, 0);
    /* The floor is set by the measured between-launch CV (about 5%). */
    assert_true(r[0].floor >= 0.03 && r[0].floor == fmax(0.03, fmax(r[0].cv_base, r[0].cv_new)));

    /* The same with one launch each (iid samples, 3% noise, 11 samples). */
    below = 0;
    for (int i = 0; i < PAIRS; i++) {
        synth(&s, b + i * 11, lb, 1, 11, 5.0, 0, 0.03);
        synth(&s, n + i * 11, ln, 1, 11, 5.0, 0, 0.03);
        struct lmb_cs_side sb = side(b + i * 11, 11, NULL, 0);
        struct lmb_cs_side sn = side(n + i * 11, 11, NULL, 0);
        lmb_cs_test(&o, &sb, &sn, false, (uint64_t)i, &r[i]);
        if (r[i].p < 0.05)
            below++;
    }
    print_message("one-launch null pairs: %d of %d with p < 0.05\n", below, PAIRS);
    assert_true(below <= 20);
    free(b);
    free(n);
    free(lb);
    free(ln);
    free(r);
}

static void test_ties_and_few(void **state)
{
    struct lmb_cs_opts o = LMB_CS_DEFAULT_OPTS;
    o.min_launches = 1;   /* these tests judge single launches too */
    double same[] = { 2, 2, 2, 2, 2, 2 }, three[] = { 3, 3, 3, 3, 3, 3 };
    double tied_a[] = { 10, 10, 11, 10, 10, 11, 10 }, tied_b[] = { 10, 11, 10, 10, 10, 10, 11 };
    double one[] = { 5 }, two[] = { 5, 5.1 };
    struct lmb_cs_result r[4];
    struct lmb_cs_side a, b;

    (void)state;
    /* Identical samples on both sides: ratio 1, p 1, same. */
    a = side(same, 6, NULL, 0);
    lmb_cs_test(&o, &a, &a, false, 3, &r[0]);
    /* Every sample 2 against every sample 3: a certain 50% change. */
    b = side(three, 6, NULL, 0);
    lmb_cs_test(&o, &a, &b, false, 3, &r[1]);
    /* Timer-tick ties: equal medians. */
    a = side(tied_a, 7, NULL, 0);
    b = side(tied_b, 7, NULL, 0);
    lmb_cs_test(&o, &a, &b, false, 3, &r[2]);
    /* One sample against two. */
    a = side(one, 1, NULL, 0);
    b = side(two, 2, NULL, 0);
    lmb_cs_test(&o, &a, &b, false, 3, &r[3]);
    assert_int_equal(lmb_cs_judge(&o, r, 4), 0);

    assert_true(r[0].ratio == 1 && r[0].p == 1 && r[0].lo == 1 && r[0].hi == 1);
    assert_int_equal(r[0].verdict, LMB_CS_SAME);
    assert_true(fabs(r[1].ratio - 1.5) < 1e-12 && r[1].p == 0);
    assert_int_equal(r[1].verdict, LMB_CS_WORSE);
    assert_true(r[2].ratio == 1);
    assert_int_not_equal(r[2].verdict, LMB_CS_WORSE);
    assert_int_not_equal(r[2].verdict, LMB_CS_BETTER);
    assert_int_equal(r[3].verdict, LMB_CS_UNKNOWN);
    assert_int_equal(r[3].method, LMB_CS_NONE);
    assert_string_equal(r[3].reason, "too few samples");
    assert_true(isnan(r[3].q));
    assert_string_equal(lmb_cs_verdict_name(r[3].verdict), "?");
}

static void test_unknown_spread(void **state)
{
    struct lmb_cs_opts o = LMB_CS_DEFAULT_OPTS;
    o.min_launches = 1;   /* these tests judge single launches too */
    uint64_t s = 11;
    double x[15];
    size_t ln[3];
    struct lmb_cs_side none = side(NULL, 0, NULL, 0), ours, ours1;
    struct lmb_cs_result r[4];

    (void)state;
    none.value = 1.0;
    /* Both without samples (two lmbench 3 files). */
    struct lmb_cs_side none2 = none;
    none2.value = 2.0;
    lmb_cs_test(&o, &none, &none2, false, 1, &r[0]);
    /* Ours in three launches with 2% between-launch CV, 2x slower: beyond
     * max(3 x CV, 2 x floor). */
    synth(&s, x, ln, 3, 5, 2.0, 0.02, 0.01);
    ours = side(x, 15, ln, 3);
    ours.value = 2.0;
    lmb_cs_test(&o, &none, &ours, false, 1, &r[1]);
    /* 4% slower: within the margin. */
    struct lmb_cs_side close = none;
    close.value = 2.0 / 1.04;
    lmb_cs_test(&o, &close, &ours, false, 1, &r[2]);
    /* Ours in one launch: the spread between launches is unknown. */
    ours1 = side(x, 5, NULL, 0);
    ours1.value = 2.0;
    lmb_cs_test(&o, &none, &ours1, false, 1, &r[3]);
    assert_int_equal(lmb_cs_judge(&o, r, 4), 0);

    assert_int_equal(r[0].verdict, LMB_CS_UNKNOWN);
    assert_true(r[0].ratio == 2);
    assert_non_null(strstr(r[0].reason, "spread unknown"));
    assert_int_equal(r[1].method, LMB_CS_MARGIN);
    assert_true(r[1].margin >= 2 * r[1].floor && r[1].margin >= 3 * r[1].cv_new);
    assert_int_equal(r[1].verdict, LMB_CS_WORSE);
    assert_true(isnan(r[1].p) && isnan(r[1].lo));
    assert_int_equal(r[2].method, LMB_CS_MARGIN);
    assert_int_equal(r[2].verdict, LMB_CS_UNKNOWN);
    assert_non_null(strstr(r[2].reason, "within the margin"));
    assert_int_equal(r[3].method, LMB_CS_NONE);
    assert_int_equal(r[3].verdict, LMB_CS_UNKNOWN);
    assert_non_null(strstr(r[3].reason, "one launch"));
}

static void test_launch_cv_and_seed(void **state)
{
    struct lmb_cs_opts o = LMB_CS_DEFAULT_OPTS;
    o.min_launches = 1;   /* these tests judge single launches too */
    /* Launch medians 1, 2, 3: mean 2, sd 1, CV 0.5. */
    double x[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3 }, y[] = { 1.1, 1, 1.2, 2, 2.2, 2.1, 3, 3.3, 2.9 };
    size_t ln[] = { 3, 3, 3 }, bad[] = { 3, 3, 2 };
    struct lmb_cs_side a = side(x, 9, ln, 3), b = side(y, 9, ln, 3), c = side(x, 9, bad, 3);
    struct lmb_cs_result r1, r2, r3;

    (void)state;
    assert_true(fabs(lmb_cs_launch_cv(&a) - 0.5) < 1e-12);
    /* Counts that do not add up: one launch. */
    assert_true(isnan(lmb_cs_launch_cv(&c)));
    lmb_cs_test(&o, &a, &b, false, 99, &r1);
    lmb_cs_test(&o, &a, &b, false, 99, &r2);
    lmb_cs_test(&o, &a, &b, false, 100, &r3);
    assert_true(r1.lo == r2.lo && r1.hi == r2.hi && r1.p == r2.p);
    assert_true(fabs(r1.p - r3.p) < 0.2);
    /* The floor is the between-launch CV, far above 3%. */
    assert_true(r1.floor >= 0.5);
    assert_true(r1.df > 1.9);

    /* Headlines that are minima (or maxima): the point is their ratio
     * (1.25), not the medians' (2.1 / 2.0). */
    a.value = 1.0;
    b.value = 1.0 * 1.25;
    a.extreme_headline = b.extreme_headline = true;
    lmb_cs_test(&o, &a, &b, false, 99, &r3);
    assert_true(fabs(r3.ratio - 1.25) < 1e-12);
    assert_true(r3.lo < 1.25 && r3.hi > 1.25);
    /* One side's headline a minimum, the other's a median: medians. */
    b.extreme_headline = false;
    lmb_cs_test(&o, &a, &b, false, 99, &r3);
    assert_true(fabs(r3.ratio - 2.1 / 2.0) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t),
        cmocka_unit_test(test_bh),
        cmocka_unit_test(test_known_shift),
        cmocka_unit_test(test_known_null),
        cmocka_unit_test(test_ties_and_few),
        cmocka_unit_test(test_unknown_spread),
        cmocka_unit_test(test_launch_cv_and_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
