// SPDX-License-Identifier: MIT
/* Unit tests of the hardware benchmarks' plausibility judgements
 * (src/lib/judge.c) on synthetic data with known answers: parallelism ratios
 * against their chain counts, rounds that disagree, a par_mem row set with
 * one dip, memsize's decision with one preemption spike, lat_dram_page's
 * difference; and lat_ops' bogomflops loop counted (src/lib/ops.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/judge.h"
#include "lib/ops.h"

static void test_parallelism(void **state)
{
    char why[256];

    (void)state;
    assert_true(lmb_judge_parallelism(4.0, 12, why, sizeof why));
    assert_true(lmb_judge_parallelism(12.0, 12, why, sizeof why));
    assert_true(lmb_judge_parallelism(1.0, 12, why, sizeof why));
    assert_true(lmb_judge_parallelism(0.9, 8, NULL, 0));        /* within the slack */
    assert_true(lmb_judge_parallelism(13.5, 12, NULL, 0));
    /* Above what the chains allow. */
    assert_false(lmb_judge_parallelism(23.74, 12, why, sizeof why));
    assert_non_null(strstr(why, "too noisy: 23.74 is more than 12 chains"));
    assert_false(lmb_judge_parallelism(9.3, 8, why, sizeof why));
    assert_false(lmb_judge_parallelism(2.5, 2, why, sizeof why));
    /* Below 1. */
    assert_false(lmb_judge_parallelism(0.5, 10, why, sizeof why));
    assert_int_equal(strncmp(why, "too noisy: 0.50, below 1", 24), 0);
    assert_false(lmb_judge_parallelism(0, 10, why, sizeof why));
    assert_false(lmb_judge_parallelism(-1, 10, NULL, 0));
    assert_false(lmb_judge_parallelism(NAN, 10, why, sizeof why));
    assert_false(lmb_judge_parallelism(INFINITY, 10, why, sizeof why));
}

static void test_rounds(void **state)
{
    const double agree[] = { 4.00, 3.90, 4.10 };
    const double moved[] = { 4.00, 2.99, 3.95 };   /* the two runs, as rounds */
    const double bad[] = { 4.0, -1.0, 4.0 };
    char why[256];

    (void)state;
    assert_true(lmb_judge_rounds(agree, 3, why, sizeof why));
    assert_true(lmb_judge_rounds(agree, 1, why, sizeof why));
    assert_true(lmb_judge_rounds(agree, 0, why, sizeof why));
    assert_false(lmb_judge_rounds(moved, 3, why, sizeof why));
    assert_string_equal(why, "too noisy: the rounds disagree: 4.00, 2.99, 3.95");
    assert_false(lmb_judge_rounds(bad, 3, why, sizeof why));
}

/* par_mem rows 1k.. doubling, with the dip: 2.22 between 15 and 17. */
static void test_rows_dip(void **state)
{
    const double v[] = { 1.0, 1.9, 3.8, 4.0, 8.1, 15.1, 2.22, 17.0, 16.2 };
    bool known[9], odd[9];

    (void)state;
    for (int i = 0; i < 9; i++)
        known[i] = true;
    assert_int_equal(lmb_judge_rows(v, known, 9, odd), 1);
    for (int i = 0; i < 9; i++)
        assert_int_equal(odd[i], i == 6);
    char why[256];
    lmb_judge_row_reason(v, known, 9, 6, why, sizeof why);
    assert_string_equal(why, "too noisy: 2.22 between neighbours of 15.10 and 17.00, which agree");
}

static void test_rows_not_decidable(void **state)
{
    /* A transition (the row between its neighbours), neighbours that
     * disagree, ends and unknown neighbours: nothing is judged. */
    const double step[] = { 1.0, 1.1, 5.0, 10.0, 10.5 };
    const double spike_edge[] = { 30.0, 8.0, 8.2, 8.1, 0.5 };
    const double disagree[] = { 2.0, 1.0, 8.0, 8.0 };
    const double beside_unknown[] = { 8.0, 0, 1.0, 8.0, 8.0 };
    const double spike[] = { 8.0, 8.2, 30.0, 8.1, 8.0 };
    bool known[5] = { true, true, true, true, true }, odd[5];

    (void)state;
    assert_int_equal(lmb_judge_rows(step, known, 5, odd), 0);
    assert_int_equal(lmb_judge_rows(spike_edge, known, 5, odd), 0);
    assert_int_equal(lmb_judge_rows(disagree, known, 4, odd), 0);
    /* Two rows without a value between the row and its neighbour: not
     * decidable. */
    known[0] = known[1] = false;
    assert_int_equal(lmb_judge_rows(beside_unknown, known, 5, odd), 0);
    known[0] = known[1] = true;
    assert_int_equal(lmb_judge_rows(spike, known, 5, odd), 1);
    assert_true(odd[2]);
    assert_int_equal(lmb_judge_rows(spike, known, 1, odd), 0);
}

/* The run seen here: 8 MB refused (no value), 16 MB 2.25 between 4 MB's
 * 13.28 and 32 MB's 9.01: the neighbour across the gap counts. */
static void test_rows_across_gap(void **state)
{
    const double v[] = { 11.16, 13.28, 0, 2.25, 9.01, 9.5 };
    bool known[6] = { true, true, false, true, true, true }, odd[6];
    char why[256];

    (void)state;
    assert_int_equal(lmb_judge_rows(v, known, 6, odd), 1);
    assert_true(odd[3]);
    assert_false(odd[2]);
    lmb_judge_row_reason(v, known, 6, 3, why, sizeof why);
    assert_string_equal(why, "too noisy: 2.25 between neighbours of 13.28 and 9.01, which agree");
}

/* Steps of 16 MB taking 3 ms, one of them preempted for 200 ms. */
static void test_touch_preemption(void **state)
{
    struct lmb_touch_step s[10];
    size_t counted;

    (void)state;
    for (int i = 0; i < 10; i++)
        s[i] = (struct lmb_touch_step){ .wall_ns = 3000000, .swapped = false, .known = true };
    s[4].wall_ns = 200000000;
    assert_false(lmb_touch_judge(s, 4, false, &counted));
    assert_int_equal(counted, 4);
    assert_false(lmb_touch_judge(s, 5, false, &counted));   /* no swapping: it counts */
    assert_int_equal(counted, 5);
    assert_true(lmb_touch_judge(s, 10, true, &counted));    /* the end: stop, all count */
    assert_int_equal(counted, 10);
    /* Several slow steps in a row without swapping (a host that provides
     * each page slowly): they count. */
    s[5].wall_ns = s[6].wall_ns = 200000000;
    assert_false(lmb_touch_judge(s, 8, false, &counted));
    assert_int_equal(counted, 8);
}

static void test_touch_swapping(void **state)
{
    struct lmb_touch_step s[8];
    size_t counted;

    (void)state;
    for (int i = 0; i < 8; i++)
        s[i] = (struct lmb_touch_step){ .wall_ns = 3000000, .swapped = false, .known = true };
    /* Swapping while a step is fast is not a slow step. */
    s[2].swapped = true;
    assert_false(lmb_touch_judge(s, 4, false, &counted));
    assert_int_equal(counted, 4);
    /* A slow step during which the system swapped: the memory ran out. */
    s[5].wall_ns = 900000000;
    s[5].swapped = true;
    assert_true(lmb_touch_judge(s, 6, false, &counted));
    assert_int_equal(counted, 5);
    /* Slow but under 50 ms: not slow. */
    s[5].wall_ns = 40000000;
    assert_false(lmb_touch_judge(s, 6, false, &counted));
    assert_int_equal(counted, 6);
}

static void test_touch_unobservable(void **state)
{
    struct lmb_touch_step s[8];
    size_t counted;

    (void)state;
    for (int i = 0; i < 8; i++)
        s[i] = (struct lmb_touch_step){ .wall_ns = 3000000, .swapped = false, .known = false };
    /* One spike: waits for the next two, then counts. */
    s[3].wall_ns = 300000000;
    assert_false(lmb_touch_judge(s, 4, false, &counted));
    assert_int_equal(counted, 3);
    assert_false(lmb_touch_judge(s, 5, false, &counted));
    assert_int_equal(counted, 5);
    /* A spike on the last step: counts at the end. */
    s[7].wall_ns = 300000000;
    assert_true(lmb_touch_judge(s, 8, true, &counted));
    assert_int_equal(counted, 8);
    /* Slow three times in a row: the memory ran out before the first. */
    s[4].wall_ns = s[5].wall_ns = 300000000;
    s[7].wall_ns = 3000000;
    assert_true(lmb_touch_judge(s, 6, false, &counted));
    assert_int_equal(counted, 3);
    assert_true(lmb_touch_judge(s, 8, false, &counted));
    assert_int_equal(counted, 3);
}

static void test_difference(void **state)
{
    char why[256];

    (void)state;
    assert_true(lmb_judge_difference(12.0, 2.0, 80.0, why, sizeof why));
    assert_false(lmb_judge_difference(0.0, 2.0, 80.0, why, sizeof why));
    assert_int_equal(strncmp(why, "not positive", 12), 0);
    assert_false(lmb_judge_difference(-3.5, 2.0, 80.0, why, sizeof why));
    assert_non_null(strstr(why, "-3.50"));
    assert_false(lmb_judge_difference(NAN, 2.0, 80.0, why, sizeof why));
    assert_false(lmb_judge_difference(1.5, 2.0, 80.0, why, sizeof why));   /* in the noise */
    assert_int_equal(strncmp(why, "too noisy", 9), 0);
    assert_false(lmb_judge_difference(0.5, 0.1, 80.0, why, sizeof why));   /* under 1% */
}

/* bogomflops: the short loop run once from known values with operands that
 * make each update exact (v + 1 - 0.5, times 3, divided by 3: v + 0.5), so
 * the sum tells how many elements were updated how many times. */
static void test_bogomflops_counted(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        const struct lmb_op *op = lmb_ops_find(t ? "double" : "float", "bogomflops");
        assert_non_null(op);
        assert_int_equal(op->chains, 0);
        assert_int_equal(op->ops_per_step, LMB_OPS_BOGO_ELEMS);
        for (int k = 0; k < 2; k++) {
            struct lmb_ops_state st = { .fx = 1.0, .fa = 1.0, .fb = 0.5, .fc = 3.0, .fd = 3.0 };
            int steps = k ? LMB_OPS_LONG : LMB_OPS_SHORT;
            op->dep[k](2, &st);
            /* element j starts at 1 + j and gains 0.5 per update */
            double want = 0;
            for (int j = 0; j < LMB_OPS_BOGO_ELEMS; j++)
                want += 1.0 + j + 0.5 * 2 * steps;
            assert_true(fabs(st.sink - want) < 1e-9);
        }
        /* The operands of the table keep every element near 0.75. */
        struct lmb_ops_state st = op->init;
        op->dep[1](1000, &st);
        assert_true(fabs(st.sink / LMB_OPS_BOGO_ELEMS - 0.75) < 1e-3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallelism),
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_rows_dip),
        cmocka_unit_test(test_rows_not_decidable),
        cmocka_unit_test(test_rows_across_gap),
        cmocka_unit_test(test_touch_preemption),
        cmocka_unit_test(test_touch_swapping),
        cmocka_unit_test(test_touch_unobservable),
        cmocka_unit_test(test_difference),
        cmocka_unit_test(test_bogomflops_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
