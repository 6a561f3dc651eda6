// SPDX-License-Identifier: MIT
/* Unit tests of what src/lib/report.c gained for the processor and memory
 * benchmarks: the units MHz, bytes, pages, MB and x, their classic line shapes,
 * results computed from results (lmb_result_derive, lmb_result_values) and
 * the small statistics the hardware benchmarks take of a result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/report.h"

static void make_result(struct lmb_result *res, enum lmb_status st, const double *v, size_t n)
{
    memset(res, 0, sizeof *res);
    res->status = st;
    res->n = n;
    if (n > 0) {
        res->samples = malloc(n * sizeof *res->samples);
        assert_non_null(res->samples);
        memcpy(res->samples, v, n * sizeof *v);
    }
    res->iters = 77;
    res->elapsed_s = 0.5;
    res->copies = 2;
    res->policy = "DEFAULT";
    res->cpu_assigned = malloc(2 * sizeof(int));
    res->cpu_ran = malloc(2 * sizeof(int));
    assert_non_null(res->cpu_assigned);
    assert_non_null(res->cpu_ran);
    res->cpu_assigned[0] = res->cpu_assigned[1] = -1;
    res->cpu_ran[0] = 0;
    res->cpu_ran[1] = 1;
}

/* A finished ok record of one value with the given shape. */
static void one(struct lmb_record *r, enum lmb_unit unit, enum lmb_classic classic, double v,
                const char *label)
{
    struct lmb_result res;

    lmb_record_init(r, "bench", "case", unit);
    r->classic = classic;
    if (label)
        snprintf(r->label, sizeof r->label, "%s", label);
    assert_int_equal(lmb_result_values(&res, &v, 1, NULL), 0);
    assert_int_equal(lmb_record_finish(r, &res), 0);
}

static void assert_line(const struct lmb_record *r, const char *want)
{
    char buf[512];
    size_t n = lmb_render_classic(r, buf, sizeof buf);

    if (n != strlen(want) || strcmp(buf, want) != 0)
        fail_msg("classic line '%s' (%zu), want '%s'", n ? buf : "", n, want);
}

static void test_units(void **state)
{
    (void)state;
    assert_string_equal(lmb_unit_name(LMB_UNIT_MHZ), "MHz");
    assert_string_equal(lmb_unit_name(LMB_UNIT_BYTES), "bytes");
    assert_string_equal(lmb_unit_name(LMB_UNIT_PAGES), "pages");
    assert_string_equal(lmb_unit_name(LMB_UNIT_MB), "MB");
    assert_string_equal(lmb_unit_name(LMB_UNIT_RATIO), "x");
    assert_string_equal(lmb_metric_name(LMB_UNIT_MHZ), "frequency");
    assert_string_equal(lmb_metric_name(LMB_UNIT_BYTES), "size");
    assert_string_equal(lmb_metric_name(LMB_UNIT_PAGES), "size");
    assert_string_equal(lmb_metric_name(LMB_UNIT_MB), "size");
    assert_string_equal(lmb_metric_name(LMB_UNIT_RATIO), "parallelism");
    assert_string_equal(lmb_metric_name(LMB_UNIT_NS), "latency");
    assert_string_equal(lmb_metric_name(LMB_UNIT_MBS), "bandwidth");
    assert_true(lmb_unit_higher_is_better(LMB_UNIT_MHZ));
    assert_true(lmb_unit_higher_is_better(LMB_UNIT_RATIO));
    assert_true(lmb_unit_higher_is_better(LMB_UNIT_MBS));
    assert_false(lmb_unit_higher_is_better(LMB_UNIT_NS));
    assert_false(lmb_unit_higher_is_better(LMB_UNIT_US));
}

/* Values of the new units come in the unit's base (Hz, bytes, a plain number). */
static void test_no_conversion(void **state)
{
    struct lmb_record r;

    (void)state;
    one(&r, LMB_UNIT_MHZ, LMB_CLASSIC_NONE, 4103.25e6, NULL);   /* Hz in, MHz out */
    assert_true(fabs(r.value - 4103.25) < 1e-9);
    lmb_record_free(&r);
    one(&r, LMB_UNIT_BYTES, LMB_CLASSIC_NONE, 49152, NULL);
    assert_true(r.value == 49152);
    lmb_record_free(&r);
}

static void test_shapes(void **state)
{
    struct lmb_record r;

    (void)state;
    one(&r, LMB_UNIT_NS, LMB_CLASSIC_LABEL_NS, 0.24375, "integer add");
    assert_line(&r, "integer add: 0.24 nanoseconds\n");
    lmb_record_free(&r);
    /* Samples of LMB_UNIT_NS are SI nanoseconds already. */
    one(&r, LMB_UNIT_MBS, LMB_CLASSIC_LABEL_MBSEC, 44583.2e6, "STREAM copy bandwidth");
    assert_line(&r, "STREAM copy bandwidth: 44583.20 MB/sec\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_RATIO, LMB_CLASSIC_LABEL_VALUE, 2.755, "integer add parallelism");
    assert_line(&r, "integer add parallelism: 2.75\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_MHZ, LMB_CLASSIC_MHZ, 4103.0e6, NULL);
    assert_line(&r, "4103 MHz, 0.2437 nanosec clock\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_MHZ, LMB_CLASSIC_PERIOD, 4103.0e6, NULL);
    assert_line(&r, "0.2437\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_BYTES, LMB_CLASSIC_INT, 64, NULL);
    assert_line(&r, "64\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_BYTES, LMB_CLASSIC_LABEL_INT, 64, "cache line size");
    assert_line(&r, "cache line size: 64 bytes\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_PAGES, LMB_CLASSIC_LABEL_INT, 96, "tlb");
    assert_line(&r, "tlb: 96 pages\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_PAGES, LMB_CLASSIC_TLB_NS, 96, "tlb");
    r.classic_extra[0] = 1.234567;
    assert_line(&r, "tlb: 96 pages 1.23457 nanoseconds\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_BYTES, LMB_CLASSIC_CACHE, 49152, NULL);
    r.classic_x = 1;
    r.classic_extra[0] = 0.978;
    r.classic_extra[1] = 64;
    r.classic_extra[2] = 13.6;
    assert_line(&r, "L1 cache: 49152 bytes 0.98 nanoseconds 64 linesize 13.60 parallelism\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_NS, LMB_CLASSIC_CACHE_MEM, 95.25, NULL);
    r.classic_extra[0] = 6.49;
    assert_line(&r, "Memory latency: 95.25 nanoseconds 6.49 parallelism\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_RATIO, LMB_CLASSIC_SIZE_VALUE, 14.02, NULL);
    r.classic_x = 1024;
    assert_line(&r, "0.001024 14.02\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_NS, LMB_CLASSIC_FLOAT, 12.5, NULL);
    assert_line(&r, "12.500000\n");
    lmb_record_free(&r);
    one(&r, LMB_UNIT_MB, LMB_CLASSIC_INT, 20480.0 * 1048576.0, NULL);   /* bytes in */
    assert_line(&r, "20480\n");
    lmb_record_free(&r);
}

static double diff_per(double a, double b, void *arg)
{
    return (b - a) / *(double *)arg;
}

static void test_derive(void **state)
{
    struct lmb_result a, b, out;
    const double va[] = { 10, 11, 12 }, vb[] = { 30, 33, 32 };
    double per = 10;

    (void)state;
    make_result(&a, LMB_OK, va, 3);
    make_result(&b, LMB_OK, vb, 3);
    b.elapsed_s = 0.25;
    assert_int_equal(lmb_result_derive(&out, &a, &b, diff_per, &per), 0);
    assert_int_equal(out.status, LMB_OK);
    assert_int_equal(out.n, 3);
    assert_true(fabs(out.samples[0] - 2.0) < 1e-12);
    assert_true(fabs(out.samples[1] - 2.2) < 1e-12);
    assert_true(fabs(out.samples[2] - 2.0) < 1e-12);
    assert_int_equal(out.copies, 2);
    assert_int_equal(out.iters, 77);
    assert_string_equal(out.policy, "DEFAULT");
    assert_int_equal(out.cpu_ran[1], 1);
    assert_true(fabs(out.elapsed_s - 0.75) < 1e-12);
    /* The inputs are untouched and still owned by the caller. */
    assert_int_equal(a.n, 3);
    assert_true(a.samples[0] == 10);
    lmb_result_free(&out);

    /* A status that is not ok passes on, with its reason. */
    lmb_result_set_status(&b, LMB_BELOW_RESOLUTION, "too fast");
    assert_int_equal(lmb_result_derive(&out, &a, &b, diff_per, &per), 0);
    assert_int_equal(out.status, LMB_BELOW_RESOLUTION);
    assert_string_equal(out.reason, "too fast");
    assert_int_equal(out.n, 0);
    lmb_result_free(&out);
    lmb_result_set_status(&a, LMB_TIMEOUT, "slow");
    assert_int_equal(lmb_result_derive(&out, &a, &b, diff_per, &per), 0);
    assert_int_equal(out.status, LMB_TIMEOUT);
    lmb_result_free(&out);
    lmb_result_free(&a);
    lmb_result_free(&b);

    /* Different lengths cannot be paired. */
    make_result(&a, LMB_OK, va, 3);
    make_result(&b, LMB_OK, vb, 2);
    assert_int_equal(lmb_result_derive(&out, &a, &b, diff_per, &per), -1);
    assert_int_equal(out.status, LMB_FAILED);
    lmb_result_free(&out);
    lmb_result_free(&b);

    /* b NULL: one input. */
    assert_int_equal(lmb_result_derive(&out, &a, NULL, diff_per, &per), 0);
    assert_true(fabs(out.samples[0] + 1.0) < 1e-12);
    assert_true(fabs(out.elapsed_s - 0.5) < 1e-12);
    lmb_result_free(&out);
    lmb_result_free(&a);
}

static void test_values(void **state)
{
    struct lmb_result from, out;
    const double v[] = { 1.5, 2.5 };
    struct lmb_record r;

    (void)state;
    make_result(&from, LMB_OK, v, 2);
    assert_int_equal(lmb_result_values(&out, v, 2, &from), 0);
    assert_int_equal(out.status, LMB_OK);
    assert_int_equal(out.n, 2);
    assert_int_equal(out.copies, 2);
    assert_true(out.elapsed_s == 0);
    lmb_record_init(&r, "cache", "level", LMB_UNIT_NS);
    assert_int_equal(lmb_record_finish(&r, &out), 0);
    assert_true(r.has_stats);
    assert_true(r.value == 2.0);   /* the median */
    lmb_record_free(&r);
    lmb_result_free(&from);
    assert_int_equal(lmb_result_values(&out, v, 1, NULL), 0);
    assert_int_equal(out.copies, 0);
    assert_null(out.cpu_ran);
    lmb_result_free(&out);
}

static void test_min_sort_median(void **state)
{
    struct lmb_result r;
    const double v[] = { 5, 1, 4, 2, 3, 6 };

    (void)state;
    assert_int_equal(lmb_result_values(&r, v, 6, NULL), 0);
    assert_true(lmb_result_min(&r) == 1);
    assert_true(lmb_result_sort_median(&r) == 3.5);
    for (size_t i = 0; i < 6; i++)
        assert_true(r.samples[i] == (double)(i + 1));
    lmb_result_free(&r);
    assert_int_equal(lmb_result_values(&r, v, 3, NULL), 0);
    assert_true(lmb_result_sort_median(&r) == 4);
    lmb_result_free(&r);
    assert_int_equal(lmb_result_values(&r, NULL, 0, NULL), 0);
    assert_true(isinf(lmb_result_min(&r)));
    assert_true(isnan(lmb_result_sort_median(&r)));
    lmb_result_sort(&r);
    lmb_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_no_conversion),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_derive),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_min_sort_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
