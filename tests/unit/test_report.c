// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/report.c: records, classic lines and JSON records. */
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
#include "lib/report_json.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A result as lmb_measure would hand it over: samples on the heap. */
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
    res->iters = 1000;
    res->elapsed_s = 0.25;
    res->copies = 0;
}

/* A finished record of the given shape. */
static void make_record(struct lmb_record *r, enum lmb_unit unit, enum lmb_classic classic,
                        enum lmb_headline head, double x, const double *v, size_t n,
                        enum lmb_status st)
{
    struct lmb_result res;

    lmb_record_init(r, "bench", "case", unit);
    r->classic = classic;
    r->headline = head;
    r->classic_x = x;
    make_result(&res, st, v, n);
    assert_int_equal(lmb_record_finish(r, &res), 0);
    /* ownership moved: the result is zeroed */
    assert_null(res.samples);
    assert_int_equal(res.n, 0);
}

static void assert_line(const struct lmb_record *r, const char *want)
{
    char buf[512];
    size_t n;

    memset(buf, 'X', sizeof buf);
    n = lmb_render_classic(r, buf, sizeof buf);
    if (n != strlen(want) || strcmp(buf, want) != 0)
        fail_msg("classic line '%.*s' (%zu), want '%s'", (int)(n < sizeof buf ? n : 0), buf, n,
                 want);
}

/* --- classic lines -------------------------------------------------------------- */

static void test_classic_label_us(void **state)
{
    const double ns[] = {210.0, 190.0, 200.0, 205.0, 195.0};
    const double ns2[] = {1234.5678};
    struct lmb_record r;

    (void)state;
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, ns, 5, LMB_OK);
    snprintf(r.label, sizeof r.label, "Simple syscall");
    assert_line(&r, "Simple syscall: 0.2000 microseconds\n");
    lmb_record_free(&r);

    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, ns2, 1, LMB_OK);
    snprintf(r.label, sizeof r.label, "Simple read");
    assert_line(&r, "Simple read: 1.2346 microseconds\n");
    lmb_record_free(&r);
}

static void test_classic_size_mbs(void **state)
{
    static const struct {
        double bytes;
        double bps;
        const char *want;
    } cases[] = {
        {512, 2.5e9, "0.000512 2500.00\n"},
        {4096, 1.0e10, "0.004096 10000.00\n"},
        {999999, 1.0e9, "0.999999 1000.00\n"},
        {1000000, 1.0e9, "1.00 1000.00\n"},
        {1048576, 1.23456e10, "1.05 12345.60\n"},
        {8388608, 5.5e9, "8.39 5500.00\n"},
        {1073741824, 2.0e10, "1073.74 20000.00\n"},
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct lmb_record r;
        make_record(&r, LMB_UNIT_MBS, LMB_CLASSIC_SIZE_MBS, LMB_HEAD_MEDIAN, cases[i].bytes,
                    &cases[i].bps, 1, LMB_OK);
        assert_line(&r, cases[i].want);
        lmb_record_free(&r);
    }
}

static void test_classic_memlat(void **state)
{
    static const struct {
        double bytes;
        double ns;
        const char *want;
    } cases[] = {
        {512, 1.5, "0.00049 1.500\n"},
        {12288, 3.14159, "0.01172 3.142\n"},
        {1048576, 1.5, "1.00000 1.500\n"},
        {8388608, 87.6543, "8.00000 87.654\n"},
        {1610612736, 120.0, "1536.00000 120.000\n"},
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct lmb_record r;
        make_record(&r, LMB_UNIT_NS, LMB_CLASSIC_MEMLAT, LMB_HEAD_MIN, cases[i].bytes,
                    &cases[i].ns, 1, LMB_OK);
        assert_line(&r, cases[i].want);
        lmb_record_free(&r);
    }
}

static void test_headline_median_vs_min(void **state)
{
    const double ns[] = {5.0, 3.0, 4.0, 9.0};
    struct lmb_record r;

    (void)state;
    make_record(&r, LMB_UNIT_NS, LMB_CLASSIC_MEMLAT, LMB_HEAD_MEDIAN, 1048576, ns, 4, LMB_OK);
    assert_true(r.has_stats);
    assert_true(r.value == 4.5);
    assert_line(&r, "1.00000 4.500\n");
    lmb_record_free(&r);

    make_record(&r, LMB_UNIT_NS, LMB_CLASSIC_MEMLAT, LMB_HEAD_MIN, 1048576, ns, 4, LMB_OK);
    assert_true(r.value == 3.0);
    assert_line(&r, "1.00000 3.000\n");
    lmb_record_free(&r);

    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MIN, 0, ns, 4, LMB_OK);
    snprintf(r.label, sizeof r.label, "x");
    assert_line(&r, "x: 0.0030 microseconds\n");
    lmb_record_free(&r);
}

static void test_classic_not_ok_renders_nothing(void **state)
{
    static const enum lmb_status bad[] = {LMB_SKIPPED, LMB_BELOW_RESOLUTION, LMB_TIMEOUT,
                                          LMB_FAILED};
    const double ns[] = {100.0, 200.0, 300.0};
    static const enum lmb_classic shapes[] = {LMB_CLASSIC_LABEL_US, LMB_CLASSIC_SIZE_MBS,
                                              LMB_CLASSIC_MEMLAT};

    (void)state;
    for (size_t s = 0; s < ARRAY_LEN(bad); s++)
        for (size_t k = 0; k < ARRAY_LEN(shapes); k++)
            for (size_t n = 0; n <= 3; n += 3) {
                struct lmb_record r;
                char buf[256];
                make_record(&r, LMB_UNIT_US, shapes[k], LMB_HEAD_MEDIAN, 4096, ns, n, bad[s]);
                snprintf(r.label, sizeof r.label, "label");
                if (lmb_render_classic(&r, buf, sizeof buf) != 0)
                    fail_msg("status %s, shape %d, n %zu: a classic line was rendered",
                             lmb_status_name(bad[s]), (int)shapes[k], n);
                lmb_record_free(&r);
            }
}

static void test_classic_edge_cases(void **state)
{
    const double ns[] = {1000.0};
    struct lmb_record r;
    char buf[8];

    (void)state;
    /* ok but no classic shape */
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_NONE, LMB_HEAD_MEDIAN, 0, ns, 1, LMB_OK);
    assert_int_equal(lmb_render_classic(&r, buf, sizeof buf), 0);
    lmb_record_free(&r);

    /* ok without samples: nothing to show */
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, NULL, 0, LMB_OK);
    assert_false(r.has_stats);
    assert_int_equal(lmb_render_classic(&r, buf, sizeof buf), 0);
    lmb_record_free(&r);

    /* a short buffer: truncated, terminated, length of what was written */
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, ns, 1, LMB_OK);
    snprintf(r.label, sizeof r.label, "Simple syscall");
    memset(buf, 'X', sizeof buf);
    assert_int_equal(lmb_render_classic(&r, buf, sizeof buf), sizeof buf - 1);
    assert_string_equal(buf, "Simple ");
    assert_int_equal(lmb_render_classic(&r, buf, 0), 0);
    lmb_record_free(&r);
}

/* Output never depends on LC_NUMERIC; the tests run in the C locale, and this one
 * checks that a decimal point is a point. */
static void test_classic_decimal_point(void **state)
{
    const double bps[] = {1.5e6};
    struct lmb_record r;
    char buf[64];

    (void)state;
    make_record(&r, LMB_UNIT_MBS, LMB_CLASSIC_SIZE_MBS, LMB_HEAD_MEDIAN, 2097152, bps, 1, LMB_OK);
    assert_true(lmb_render_classic(&r, buf, sizeof buf) > 0);
    assert_null(strchr(buf, ','));
    assert_string_equal(buf, "2.10 1.50\n");
    lmb_record_free(&r);
}

/* --- units --------------------------------------------------------------------------- */

static void test_unit_conversion(void **state)
{
    const double ns[] = {1500.0, 2.25, 999.0, 123456789.0, 0.5};
    const double bps[] = {1.0e9, 25000.0, 3.0e6, 12345678901.0};
    struct lmb_record r;

    (void)state;
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_NONE, LMB_HEAD_MEDIAN, 0, ns, ARRAY_LEN(ns), LMB_OK);
    for (size_t i = 0; i < ARRAY_LEN(ns); i++) {
        double want = ns[i] / 1000.0;
        if (fabs(r.values[i] - want) > 1e-15 * want)
            fail_msg("%.17g ns -> %.17g us, want %.17g", ns[i], r.values[i], want);
        assert_true(r.result.samples[i] == ns[i]);   /* the samples stay in SI */
    }
    assert_true(fabs(r.value - 0.999) < 1e-15);
    lmb_record_free(&r);

    make_record(&r, LMB_UNIT_NS, LMB_CLASSIC_NONE, LMB_HEAD_MEDIAN, 0, ns, ARRAY_LEN(ns), LMB_OK);
    for (size_t i = 0; i < ARRAY_LEN(ns); i++)
        assert_true(r.values[i] == ns[i]);
    assert_true(r.value == 999.0);
    lmb_record_free(&r);

    make_record(&r, LMB_UNIT_MBS, LMB_CLASSIC_NONE, LMB_HEAD_MEDIAN, 0, bps, ARRAY_LEN(bps),
                LMB_OK);
    for (size_t i = 0; i < ARRAY_LEN(bps); i++) {
        double want = bps[i] / 1e6;
        if (fabs(r.values[i] - want) > 1e-15 * want)
            fail_msg("%.17g B/s -> %.17g MB/s, want %.17g", bps[i], r.values[i], want);
    }
    assert_true(fabs(r.value - 501.5) < 1e-12);   /* median of 0.025, 3, 1000, 12345.7 */
    lmb_record_free(&r);
}

static void test_unit_names(void **state)
{
    (void)state;
    assert_string_equal(lmb_unit_name(LMB_UNIT_US), "us");
    assert_string_equal(lmb_unit_name(LMB_UNIT_NS), "ns");
    assert_string_equal(lmb_unit_name(LMB_UNIT_MBS), "MB/s");
    assert_string_equal(lmb_metric_name(LMB_UNIT_US), "latency");
    assert_string_equal(lmb_metric_name(LMB_UNIT_NS), "latency");
    assert_string_equal(lmb_metric_name(LMB_UNIT_MBS), "bandwidth");
    assert_false(lmb_unit_higher_is_better(LMB_UNIT_US));
    assert_false(lmb_unit_higher_is_better(LMB_UNIT_NS));
    assert_true(lmb_unit_higher_is_better(LMB_UNIT_MBS));
    assert_string_equal(lmb_status_name(LMB_OK), "ok");
    assert_string_equal(lmb_status_name(LMB_SKIPPED), "skipped");
    assert_string_equal(lmb_status_name(LMB_BELOW_RESOLUTION), "below_resolution");
    assert_string_equal(lmb_status_name(LMB_TIMEOUT), "timeout");
    assert_string_equal(lmb_status_name(LMB_FAILED), "failed");
}

static void test_record_stats(void **state)
{
    const double ns[] = {1000, 2000, 3000, 4000, 5000, 6000};
    struct lmb_record r;

    (void)state;
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_NONE, LMB_HEAD_MEDIAN, 0, ns, 6, LMB_OK);
    assert_true(r.has_stats);
    assert_int_equal(r.stats.n, 6);
    assert_true(fabs(r.stats.min - 1.0) < 1e-12);
    assert_true(fabs(r.stats.max - 6.0) < 1e-12);
    assert_true(fabs(r.stats.median - 3.5) < 1e-12);
    assert_true(fabs(r.value - 3.5) < 1e-12);
    assert_true(r.stats.has_ci);
    assert_true(fabs(r.stats.ci_lo - 1.0) < 1e-12);
    assert_true(fabs(r.stats.ci_hi - 6.0) < 1e-12);
    lmb_record_free(&r);
    lmb_record_free(&r);   /* freeing twice is harmless */
}

/* lmb_record_finish on a non-finite sample: the record fails, it does not lie. */
static void test_record_nonfinite(void **state)
{
    const double ns[] = {1000.0, NAN, 3000.0};
    const double inf[] = {INFINITY};
    struct lmb_record r;

    (void)state;
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, ns, 3, LMB_OK);
    assert_int_equal(r.result.status, LMB_FAILED);
    assert_true(r.result.reason[0] != '\0');
    assert_false(r.has_stats);
    assert_int_equal(lmb_render_classic(&r, (char[64]){0}, 64), 0);
    lmb_record_free(&r);

    make_record(&r, LMB_UNIT_MBS, LMB_CLASSIC_SIZE_MBS, LMB_HEAD_MEDIAN, 512, inf, 1, LMB_OK);
    assert_int_equal(r.result.status, LMB_FAILED);
    assert_false(r.has_stats);
    lmb_record_free(&r);
}

/* report.h: statistics are kept whenever there are samples (a below_resolution
 * result has them), but only an ok record has a headline that is shown. */
static void test_record_not_ok_keeps_stats(void **state)
{
    const double ns[] = {1000, 2000, 3000};
    struct lmb_record r;
    char buf[128];

    (void)state;
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, ns, 3,
                LMB_BELOW_RESOLUTION);
    snprintf(r.label, sizeof r.label, "x");
    assert_int_equal(r.result.status, LMB_BELOW_RESOLUTION);
    assert_true(r.has_stats);
    assert_int_equal(r.stats.n, 3);
    assert_true(fabs(r.stats.median - 2.0) < 1e-12);
    assert_int_equal(lmb_render_classic(&r, buf, sizeof buf), 0);
    lmb_record_free(&r);
}

static void test_params(void **state)
{
    struct lmb_record r;

    (void)state;
    lmb_record_init(&r, "bw_mem", "rd", LMB_UNIT_MBS);
    assert_string_equal(r.benchmark, "bw_mem");
    assert_string_equal(r.case_name, "rd");
    assert_int_equal(r.unit, LMB_UNIT_MBS);
    assert_int_equal(r.headline, LMB_HEAD_MEDIAN);
    assert_int_equal(r.classic, LMB_CLASSIC_NONE);
    lmb_record_param_int(&r, "size", 1LL << 40);
    lmb_record_param_str(&r, "op", "rd");
    lmb_record_param_bool(&r, "aligned", true);
    lmb_record_param_int(&r, "neg", -5);
    assert_int_equal(r.nparams, 4);
    assert_int_equal(r.params[0].type, LMB_PARAM_INT);
    assert_true(r.params[0].ival == 1LL << 40);
    assert_int_equal(r.params[1].type, LMB_PARAM_STR);
    assert_string_equal(r.params[1].sval, "rd");
    assert_int_equal(r.params[2].type, LMB_PARAM_BOOL);
    assert_true(r.params[2].ival == 1);
    assert_true(r.params[3].ival == -5);
    lmb_record_free(&r);

    lmb_record_init(&r, "x", NULL, LMB_UNIT_NS);
    assert_string_equal(r.case_name, "");
    lmb_record_free(&r);
}

/* --- JSON ---------------------------------------------------------------------------- */

#ifdef LMB_HAVE_JANSSON

static json_t *get(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);

    if (v == NULL)
        fail_msg("JSON has no \"%s\"", key);
    return v;
}

static void assert_json_string(json_t *o, const char *key, const char *want)
{
    json_t *v = get(o, key);

    if (!json_is_string(v) || strcmp(json_string_value(v), want) != 0)
        fail_msg("\"%s\": want \"%s\"", key, want);
}

static void assert_json_real(json_t *v, double want)
{
    if (!json_is_real(v))
        fail_msg("not a real (type %d)", (int)json_typeof(v));
    if (fabs(json_real_value(v) - want) > 1e-12 * (fabs(want) > 1 ? fabs(want) : 1))
        fail_msg("%.17g, want %.17g", json_real_value(v), want);
}

/* The record must also survive a dump (no NaN: jansson refuses it) and a reload. */
static json_t *dump_and_reload(json_t *o)
{
    char *text = json_dumps(o, JSON_COMPACT);
    json_error_t e;
    json_t *back;

    assert_non_null(text);
    back = json_loads(text, 0, &e);
    if (back == NULL)
        fail_msg("invalid JSON: %s: %s", e.text, text);
    free(text);
    assert_true(json_equal(o, back));
    return back;
}

static void test_json_ok_record(void **state)
{
    const double ns[] = {1500, 1000, 2000, 1200, 1800, 1600, 1400};
    static const char *const stat_keys[] = {"min", "p25", "median", "p75", "max", "mean",
                                            "stdev", "cv"};
    struct lmb_record r;
    struct lmb_result res;
    json_t *o, *v, *back;

    (void)state;
    lmb_record_init(&r, "lat_syscall", "null", LMB_UNIT_US);
    lmb_record_param_int(&r, "size", 65536);
    lmb_record_param_str(&r, "file", "/dev/null");
    lmb_record_param_bool(&r, "huge", false);
    lmb_record_param_bool(&r, "warm", true);
    make_result(&res, LMB_OK, ns, ARRAY_LEN(ns));
    res.iters = 123456;
    res.elapsed_s = 1.25;
    assert_int_equal(lmb_record_finish(&r, &res), 0);

    o = lmb_record_json(&r);
    assert_non_null(o);
    assert_true(json_is_object(o));
    assert_json_string(o, "benchmark", "lat_syscall");
    assert_json_string(o, "case", "null");
    assert_json_string(o, "metric", "latency");
    assert_json_string(o, "unit", "us");
    assert_json_string(o, "better", "lower");
    assert_json_string(o, "status", "ok");
    assert_json_string(o, "headline", "median");
    assert_true(json_is_null(get(o, "reason")));

    v = get(o, "params");
    assert_true(json_is_object(v));
    assert_int_equal(json_object_size(v), 4);
    assert_true(json_is_integer(get(v, "size")));
    assert_int_equal(json_integer_value(get(v, "size")), 65536);
    assert_json_string(v, "file", "/dev/null");
    assert_true(json_is_false(get(v, "huge")));
    assert_true(json_is_true(get(v, "warm")));

    assert_json_real(get(o, "value"), 1.5);

    v = get(o, "samples");
    assert_true(json_is_array(v));
    assert_int_equal(json_array_size(v), ARRAY_LEN(ns));
    for (size_t i = 0; i < ARRAY_LEN(ns); i++)
        assert_json_real(json_array_get(v, i), ns[i] / 1000.0);
    assert_true(json_is_integer(get(o, "iterations_per_sample")));
    assert_int_equal(json_integer_value(get(o, "iterations_per_sample")), 123456);

    v = get(o, "stats");
    assert_true(json_is_object(v));
    assert_true(json_is_integer(get(v, "n")));
    assert_int_equal(json_integer_value(get(v, "n")), 7);
    for (size_t i = 0; i < ARRAY_LEN(stat_keys); i++)
        if (!json_is_real(get(v, stat_keys[i])))
            fail_msg("stats.%s is not a real", stat_keys[i]);
    assert_json_real(get(v, "min"), 1.0);
    assert_json_real(get(v, "max"), 2.0);
    assert_json_real(get(v, "median"), 1.5);
    assert_json_real(get(v, "p25"), 1.3);    /* h = 1.5 between 1.2 and 1.4 */
    assert_json_real(get(v, "p75"), 1.7);
    assert_json_real(get(v, "mean"), 10.5 / 7.0);
    /* n = 7: ranks 1 and 7 */
    assert_true(json_is_array(get(v, "ci95")));
    assert_int_equal(json_array_size(get(v, "ci95")), 2);
    assert_json_real(json_array_get(get(v, "ci95"), 0), 1.0);
    assert_json_real(json_array_get(get(v, "ci95"), 1), 2.0);

    assert_json_real(get(o, "elapsed_s"), 1.25);
    /* one copy not described: no placement */
    assert_null(json_object_get(o, "copies"));
    assert_null(json_object_get(o, "placement"));

    back = dump_and_reload(o);
    json_decref(back);
    json_decref(o);
    lmb_record_free(&r);
}

static void test_json_bandwidth_and_placement(void **state)
{
    const double bps[] = {2.0e9, 4.0e9};
    struct lmb_record r;
    struct lmb_result res;
    json_t *o, *pl, *back;

    (void)state;
    lmb_record_init(&r, "bw_mem", "", LMB_UNIT_MBS);
    r.headline = LMB_HEAD_MIN;
    make_result(&res, LMB_OK, bps, 2);
    res.copies = 2;
    res.policy = "UNIQUE";
    res.cpu_assigned = malloc(2 * sizeof(int));
    res.cpu_ran = malloc(2 * sizeof(int));
    assert_non_null(res.cpu_assigned);
    assert_non_null(res.cpu_ran);
    res.cpu_assigned[0] = 0;
    res.cpu_assigned[1] = -1;
    res.cpu_ran[0] = 1;
    res.cpu_ran[1] = -1;
    assert_int_equal(lmb_record_finish(&r, &res), 0);

    o = lmb_record_json(&r);
    assert_non_null(o);
    assert_true(json_is_null(get(o, "case")));        /* no case name */
    assert_json_string(o, "metric", "bandwidth");
    assert_json_string(o, "unit", "MB/s");
    assert_json_string(o, "better", "higher");
    assert_json_string(o, "headline", "min");
    assert_json_real(get(o, "value"), 2000.0);
    assert_true(json_is_object(get(o, "params")));
    assert_int_equal(json_object_size(get(o, "params")), 0);
    /* n = 2: no interval */
    assert_true(json_is_null(get(get(o, "stats"), "ci95")));

    assert_true(json_is_integer(get(o, "copies")));
    assert_int_equal(json_integer_value(get(o, "copies")), 2);
    pl = get(o, "placement");
    assert_json_string(pl, "policy", "UNIQUE");
    assert_int_equal(json_array_size(get(pl, "cpus")), 2);
    assert_int_equal(json_integer_value(json_array_get(get(pl, "cpus"), 0)), 0);
    assert_true(json_is_null(json_array_get(get(pl, "cpus"), 1)));
    assert_int_equal(json_integer_value(json_array_get(get(pl, "ran_on"), 0)), 1);
    assert_true(json_is_null(json_array_get(get(pl, "ran_on"), 1)));

    back = dump_and_reload(o);
    json_decref(back);
    json_decref(o);
    lmb_record_free(&r);
}

static void test_json_ci_threshold(void **state)
{
    const double ns[] = {1, 2, 3, 4, 5, 6};

    (void)state;
    for (size_t n = 1; n <= 6; n++) {
        struct lmb_record r;
        json_t *o, *ci;
        make_record(&r, LMB_UNIT_NS, LMB_CLASSIC_NONE, LMB_HEAD_MEDIAN, 0, ns, n, LMB_OK);
        o = lmb_record_json(&r);
        assert_non_null(o);
        ci = get(get(o, "stats"), "ci95");
        if (n < 6 && !json_is_null(ci))
            fail_msg("n = %zu: ci95 is not null", n);
        if (n == 6) {
            assert_true(json_is_array(ci));
            assert_json_real(json_array_get(ci, 0), 1.0);
            assert_json_real(json_array_get(ci, 1), 6.0);
        }
        json_decref(o);
        lmb_record_free(&r);
    }
}

static void test_json_not_ok(void **state)
{
    static const enum lmb_status bad[] = {LMB_SKIPPED, LMB_BELOW_RESOLUTION, LMB_TIMEOUT,
                                          LMB_FAILED};

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        struct lmb_record r;
        struct lmb_result res;
        json_t *o, *back;

        lmb_record_init(&r, "lat_x", "c", LMB_UNIT_US);
        make_result(&res, LMB_OK, NULL, 0);
        lmb_result_set_status(&res, bad[i], "because %d", 42);
        res.elapsed_s = NAN;   /* unknown: must become null, not NaN */
        assert_int_equal(lmb_record_finish(&r, &res), 0);
        o = lmb_record_json(&r);
        assert_non_null(o);
        assert_json_string(o, "status", lmb_status_name(bad[i]));
        assert_json_string(o, "reason", "because 42");
        assert_true(json_is_null(get(o, "value")));
        assert_true(json_is_array(get(o, "samples")));
        assert_int_equal(json_array_size(get(o, "samples")), 0);
        assert_true(json_is_null(get(o, "stats")));
        assert_true(json_is_null(get(o, "elapsed_s")));
        back = dump_and_reload(o);
        json_decref(back);
        json_decref(o);
        lmb_record_free(&r);
    }
}

/* below_resolution with samples: samples and stats for inspection, value null. */
static void test_json_below_resolution_with_samples(void **state)
{
    const double ns[] = {1000, 2000, 3000, 4000, 5000, 6000};
    struct lmb_record r;
    json_t *o, *back, *st;

    (void)state;
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, ns, 6,
                LMB_BELOW_RESOLUTION);
    lmb_result_set_status(&r.result, LMB_BELOW_RESOLUTION, "too fast");
    o = lmb_record_json(&r);
    assert_non_null(o);
    assert_json_string(o, "status", "below_resolution");
    assert_json_string(o, "reason", "too fast");
    assert_true(json_is_null(get(o, "value")));
    assert_int_equal(json_array_size(get(o, "samples")), 6);
    assert_true(json_is_integer(get(o, "iterations_per_sample")));
    st = get(o, "stats");
    assert_true(json_is_object(st));
    assert_int_equal(json_integer_value(get(st, "n")), 6);
    assert_json_real(get(st, "median"), 3.5);
    assert_true(json_is_array(get(st, "ci95")));
    back = dump_and_reload(o);
    json_decref(back);
    json_decref(o);
    lmb_record_free(&r);
}

static void test_json_nonfinite_sample(void **state)
{
    const double ns[] = {1000.0, NAN, 3000.0, INFINITY, -INFINITY};
    struct lmb_record r;
    json_t *o, *s, *back;

    (void)state;
    make_record(&r, LMB_UNIT_US, LMB_CLASSIC_LABEL_US, LMB_HEAD_MEDIAN, 0, ns, 5, LMB_OK);
    o = lmb_record_json(&r);
    assert_non_null(o);
    assert_json_string(o, "status", "failed");
    assert_true(json_is_string(get(o, "reason")));
    assert_true(json_is_null(get(o, "value")));
    assert_true(json_is_null(get(o, "stats")));
    s = get(o, "samples");
    assert_int_equal(json_array_size(s), 5);
    assert_json_real(json_array_get(s, 0), 1.0);
    assert_true(json_is_null(json_array_get(s, 1)));
    assert_json_real(json_array_get(s, 2), 3.0);
    assert_true(json_is_null(json_array_get(s, 3)));
    assert_true(json_is_null(json_array_get(s, 4)));
    back = dump_and_reload(o);
    json_decref(back);
    json_decref(o);
    lmb_record_free(&r);
}

/* lmb_record_param_str truncates to 127 bytes, which can cut a UTF-8 sequence in
 * two; the record must still be valid JSON (the cut byte replaced), or the whole
 * document would be lost. lat_syscall passes a user-given path here. */
static void test_json_param_truncated_utf8(void **state)
{
    char path[200];
    const double ns[] = {1000.0};
    struct lmb_record r;
    struct lmb_result res;
    json_t *o;
    bool good;

    (void)state;
    memset(path, 'a', 126);
    strcpy(path + 126, "\xc3\xa9t\xc3\xa9.txt");   /* "été.txt": the é straddles byte 127 */
    lmb_record_init(&r, "lat_syscall", "read", LMB_UNIT_US);
    lmb_record_param_str(&r, "file", path);
    make_result(&res, LMB_OK, ns, 1);
    assert_int_equal(lmb_record_finish(&r, &res), 0);
    o = lmb_record_json(&r);
    good = o != NULL && json_is_string(json_object_get(json_object_get(o, "params"), "file"));
    json_decref(o);
    lmb_record_free(&r);   /* before failing, so that ASan reports no leak */
    if (!good)
        fail_msg("lmb_record_json gave no record (or no string) for a truncated UTF-8 parameter");
}

/* A parameter that is not valid UTF-8 (a Linux file name can be any bytes) still
 * gives a record, its bad bytes replaced. */
static void test_json_param_not_utf8(void **state)
{
    const double ns[] = {1000.0};
    struct lmb_record r;
    struct lmb_result res;
    json_t *o;
    bool good;

    (void)state;
    lmb_record_init(&r, "lat_syscall", "read", LMB_UNIT_US);
    lmb_record_param_str(&r, "file", "/tmp/\xff\xfe-latin1-\xe9t\xe9");
    make_result(&res, LMB_OK, ns, 1);
    assert_int_equal(lmb_record_finish(&r, &res), 0);
    o = lmb_record_json(&r);
    good = o != NULL && json_is_string(json_object_get(json_object_get(o, "params"), "file"));
    json_decref(o);
    lmb_record_free(&r);   /* before failing, so that ASan reports no leak */
    if (!good)
        fail_msg("lmb_record_json gave no record (or no string) for a parameter that is not UTF-8");
}

/* The whole document: parses, names its schema, holds the records in order. */
static void test_json_document(void **state)
{
    const double ns[] = {1000.0, 2000.0, 3000.0};
    struct lmb_report rep;
    struct lmb_record r;
    struct lmb_result res;
    FILE *out = tmpfile(), *msgs = tmpfile();
    json_t *doc, *results;
    json_error_t e;
    char *argv[] = {"-N", "3"};

    (void)state;
    assert_non_null(out);
    assert_non_null(msgs);
    {
    struct lmb_streams io = { .out = out, .classic = msgs, .messages = msgs, .json = out };
    lmb_report_open(&rep, "lat_test", &io);
    lmb_report_setting(&rep, (struct lmb_setting){ "parallel", LMB_SET_INT, 2, 0, NULL });
    lmb_report_setting(&rep, (struct lmb_setting){ "cpus", LMB_SET_NULL, 0, 0, NULL });

    lmb_record_init(&r, "lat_test", "one", LMB_UNIT_US);
    make_result(&res, LMB_OK, ns, 3);
    lmb_report_add(&rep, &r, &res);
    lmb_record_init(&r, "lat_test", "two", LMB_UNIT_US);
    make_result(&res, LMB_OK, NULL, 0);
    lmb_result_set_status(&res, LMB_SKIPPED, "not here");
    lmb_report_add(&rep, &r, &res);
    assert_int_equal(lmb_report_exit_status(&rep), 0);

    assert_int_equal(lmb_report_print_json(&rep, "lat_test", 2, argv), 0);
    rewind(out);
    doc = json_loadf(out, 0, &e);
    if (doc == NULL)
        fail_msg("invalid JSON document: %s (line %d)", e.text, e.line);
    assert_json_string(doc, "schema", "lmbench-results");
    assert_int_equal(json_integer_value(get(doc, "schema_version")), 1);
    assert_true(json_is_object(get(doc, "tool")));
    assert_true(json_is_object(get(doc, "host")));
    assert_int_equal(json_array_size(get(get(doc, "run"), "argv")), 3);
    /* a run id: the start time and random bits */
    assert_true(json_is_string(get(get(doc, "run"), "id")));
    assert_true(strlen(json_string_value(get(get(doc, "run"), "id"))) == 25);
    /* settings as given, in run.config */
    assert_int_equal(json_integer_value(get(get(get(doc, "run"), "config"), "parallel")), 2);
    assert_true(json_is_null(get(get(get(doc, "run"), "config"), "cpus")));
    results = get(doc, "results");
    assert_int_equal(json_array_size(results), 2);
    assert_json_string(json_array_get(results, 0), "case", "one");
    assert_json_string(json_array_get(results, 0), "status", "ok");
    assert_json_string(json_array_get(results, 1), "case", "two");
    assert_json_string(json_array_get(results, 1), "status", "skipped");
    json_decref(doc);
    lmb_report_close(&rep);
    }
    fclose(out);
    fclose(msgs);
}

/* One sample: no spread to speak of, so stdev and cv are null, not 0. */
static void test_json_one_sample_spread_null(void **state)
{
    const double ns[] = {1500};
    struct lmb_record r;
    struct lmb_result res;
    json_t *o, *st;

    (void)state;
    lmb_record_init(&r, "lat_test", "one", LMB_UNIT_US);
    make_result(&res, LMB_OK, ns, 1);
    assert_int_equal(lmb_record_finish(&r, &res), 0);
    o = lmb_record_json(&r);
    assert_non_null(o);
    st = get(o, "stats");
    assert_true(json_is_object(st));
    assert_true(json_is_null(get(st, "stdev")));
    assert_true(json_is_null(get(st, "cv")));
    assert_true(json_is_null(get(st, "ci95")));
    assert_true(json_is_number(get(st, "median")));
    json_decref(o);
    lmb_record_free(&r);
}

/* Warnings and facts of a result: warnings in the record and on the messages
 * stream; facts become parameters (replacing one of the same name). */
static void test_warnings_and_facts(void **state)
{
    const double ns[] = {1000.0, 2000.0, 3000.0};
    struct lmb_report rep;
    struct lmb_record r;
    struct lmb_result res;
    FILE *msgs = tmpfile(), *out = tmpfile();
    char buf[1024] = "";
    json_t *o, *w;

    (void)state;
    assert_non_null(msgs);
    assert_non_null(out);
    struct lmb_streams io = { .out = out, .classic = out, .messages = msgs, .json = out };
    lmb_report_open(&rep, "lat_test", &io);
    lmb_record_init(&r, "lat_test", "one", LMB_UNIT_US);
    lmb_record_param_int(&r, "page_bytes", 1);
    make_result(&res, LMB_OK, ns, 3);
    lmb_result_warn(&res, "first %d", 1);
    lmb_result_warn(&res, "second");
    lmb_result_fact_int(&res, "page_bytes", 4096);
    lmb_result_fact_str(&res, "ends", "same_cpu");
    lmb_report_add(&rep, &r, &res);
    assert_int_equal(rep.nrecords, 1);
    o = lmb_record_json(&rep.records[0]);
    assert_non_null(o);
    assert_int_equal(json_integer_value(get(get(o, "params"), "page_bytes")), 4096);
    assert_string_equal(json_string_value(get(get(o, "params"), "ends")), "same_cpu");
    w = get(o, "warnings");
    assert_int_equal(json_array_size(w), 2);
    assert_string_equal(json_string_value(json_array_get(w, 0)), "first 1");
    json_decref(o);
    rewind(msgs);
    assert_true(fread(buf, 1, sizeof buf - 1, msgs) > 0);
    assert_non_null(strstr(buf, "lat_test: one (page_bytes=4096 ends=same_cpu): warning: first 1\n"));
    assert_non_null(strstr(buf, ": warning: second\n"));
    /* an ok result with warnings is still ok */
    assert_int_equal(lmb_report_exit_status(&rep), 0);
    lmb_report_close(&rep);
    fclose(msgs);
    fclose(out);
}

#endif /* LMB_HAVE_JANSSON */

/* A classic line that cannot be written makes the exit status 1. */
static void test_write_error_fails(void **state)
{
    const double ns[] = {1000.0, 2000.0, 3000.0};
    struct lmb_report rep;
    struct lmb_record r;
    struct lmb_result res;
    FILE *full = fopen("/dev/full", "w"), *msgs = tmpfile();

    (void)state;
    if (full == NULL) {
        skip();
        return;
    }
    assert_non_null(msgs);
    struct lmb_streams io = { .out = full, .classic = full, .messages = msgs, .json = NULL };
    lmb_report_open(&rep, "lat_test", &io);
    lmb_record_init(&r, "lat_test", "one", LMB_UNIT_US);
    r.classic = LMB_CLASSIC_LABEL_US;
    snprintf(r.label, sizeof r.label, "Test");
    make_result(&res, LMB_OK, ns, 3);
    lmb_report_add(&rep, &r, &res);
    assert_int_not_equal(rep.write_errno, 0);
    assert_int_equal(lmb_report_exit_status(&rep), 1);
    lmb_report_close(&rep);
    fclose(full);
    fclose(msgs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classic_label_us),
        cmocka_unit_test(test_classic_size_mbs),
        cmocka_unit_test(test_classic_memlat),
        cmocka_unit_test(test_headline_median_vs_min),
        cmocka_unit_test(test_classic_not_ok_renders_nothing),
        cmocka_unit_test(test_classic_edge_cases),
        cmocka_unit_test(test_classic_decimal_point),
        cmocka_unit_test(test_unit_conversion),
        cmocka_unit_test(test_unit_names),
        cmocka_unit_test(test_record_stats),
        cmocka_unit_test(test_record_nonfinite),
        cmocka_unit_test(test_record_not_ok_keeps_stats),
        cmocka_unit_test(test_params),
#ifdef LMB_HAVE_JANSSON
        cmocka_unit_test(test_json_ok_record),
        cmocka_unit_test(test_json_bandwidth_and_placement),
        cmocka_unit_test(test_json_ci_threshold),
        cmocka_unit_test(test_json_not_ok),
        cmocka_unit_test(test_json_below_resolution_with_samples),
        cmocka_unit_test(test_json_nonfinite_sample),
        cmocka_unit_test(test_json_param_truncated_utf8),
        cmocka_unit_test(test_json_param_not_utf8),
        cmocka_unit_test(test_json_document),
        cmocka_unit_test(test_json_one_sample_spread_null),
        cmocka_unit_test(test_warnings_and_facts),
#endif
        cmocka_unit_test(test_write_error_fails),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
