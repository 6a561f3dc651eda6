// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/sizes.c: strict parsing of sizes, counts, numbers and
 * CPU lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/sizes.h"

#define ERRLEN 256
#define UNTOUCHED 0xdeadbeefcafef00dULL
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* An error must come with a non-empty message. */
static void assert_has_message(const char *err, const char *input)
{
    if (err[0] == '\0')
        fail_msg("no error message for input '%s'", input);
}

/* --- lmb_parse_size --------------------------------------------------------- */

static const struct {
    const char *in;
    uint64_t want;
} good_sizes[] = {
    {"0", 0},
    {"1", 1},
    {"512", 512},
    {"007", 7},
    {"64k", 65536},
    {"64K", 65536},
    {"0k", 0},
    {"1k", 1024},
    {"8m", 8ULL << 20},
    {"8M", 8ULL << 20},
    {"1g", 1ULL << 30},
    {"1G", 1ULL << 30},
    {"3g", 3ULL << 30},
    {"1t", 1ULL << 40},
    {"2T", 2ULL << 40},
    {"16777215t", 16777215ULL << 40},       /* the largest whole count of t that fits */
    {"17179869183g", 17179869183ULL << 30}, /* 2^64 - 2^30 */
    {"18014398509481983k", 18014398509481983ULL << 10},
    {"18446744073709551615", UINT64_MAX},
    {"018446744073709551615", UINT64_MAX},  /* leading zero does not count as overflow */
};

static void test_size_good(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(good_sizes); i++) {
        uint64_t v = UNTOUCHED;
        char err[ERRLEN] = "";
        int rc = lmb_parse_size(good_sizes[i].in, &v, err, sizeof err);
        if (rc != 0)
            fail_msg("'%s' rejected: %s", good_sizes[i].in, err);
        if (v != good_sizes[i].want)
            fail_msg("'%s' -> %llu, want %llu", good_sizes[i].in, (unsigned long long)v,
                     (unsigned long long)good_sizes[i].want);
    }
}

static const char *const bad_sizes[] = {
    "",
    "-1",
    "+1",
    "-0",
    "1.5m",
    "1.0",
    ".5k",
    "1kk",
    "1km",
    "k",
    "m",
    " 1",
    "1 ",
    "\t1",
    "1\n",
    "0x10",
    "1e3",
    "1b",
    "1kb",
    "1KiB",
    "1p",
    "10q",
    "12abc",
    "1,000",
    "1_000",
    "18446744073709551616",      /* 2^64 */
    "99999999999999999999",
    "184467440737095516150",
    "17179869184g",              /* 2^34 g = 2^64 */
    "16777216t",                 /* 2^24 t = 2^64 */
    "18014398509481984k",        /* 2^54 k = 2^64 */
    "18446744073709551615k",
    "inf",
    "nan",
};

static void test_size_bad(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(bad_sizes); i++) {
        uint64_t v = UNTOUCHED;
        char err[ERRLEN] = "";
        int rc = lmb_parse_size(bad_sizes[i], &v, err, sizeof err);
        if (rc != -1)
            fail_msg("'%s' accepted (rc %d, value %llu)", bad_sizes[i], rc,
                     (unsigned long long)v);
        assert_has_message(err, bad_sizes[i]);
        if (v != UNTOUCHED)
            fail_msg("'%s' rejected but *out was written", bad_sizes[i]);
    }
}

static void test_size_null(void **state)
{
    uint64_t v = UNTOUCHED;
    char err[ERRLEN] = "";

    (void)state;
    assert_int_equal(lmb_parse_size(NULL, &v, err, sizeof err), -1);
    assert_has_message(err, "(null)");
    assert_true(v == UNTOUCHED);
}

/* The message names the input, and a short buffer is never overrun. */
static void test_size_message(void **state)
{
    uint64_t v;
    char err[ERRLEN] = "";
    char tiny[8];

    (void)state;
    assert_int_equal(lmb_parse_size("12abc", &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "12abc"));
    assert_int_equal(lmb_parse_size("17179869184g", &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "17179869184g"));

    memset(tiny, 'X', sizeof tiny);
    assert_int_equal(lmb_parse_size("nonsense-that-is-long", &v, tiny, sizeof tiny), -1);
    assert_int_equal(tiny[sizeof tiny - 1], '\0');
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

/* --- lmb_parse_uint --------------------------------------------------------- */

static void test_uint_ranges(void **state)
{
    static const struct {
        const char *in;
        uint64_t min, max;
        int rc;
        uint64_t want;
    } cases[] = {
        {"0", 0, 10, 0, 0},
        {"10", 0, 10, 0, 10},
        {"11", 0, 10, -1, 0},
        {"0", 1, 10, -1, 0},
        {"1", 1, 1, 0, 1},
        {"2", 1, 1, -1, 0},
        {"5", 5, 5, 0, 5},
        {"0011", 0, 100, 0, 11},
        {"18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX},
        {"18446744073709551616", 0, UINT64_MAX, -1, 0},
        {"3600000000", 1, 3600000000ULL, 0, 3600000000ULL},
        {"3600000001", 1, 3600000000ULL, -1, 0},
        {"", 0, 10, -1, 0},
        {"-1", 0, 10, -1, 0},
        {"+1", 0, 10, -1, 0},
        {" 1", 0, 10, -1, 0},
        {"1 ", 0, 10, -1, 0},
        {"1k", 0, 100000, -1, 0},   /* no suffixes for plain counts */
        {"1.0", 0, 10, -1, 0},
        {"0x1", 0, 10, -1, 0},
        {"1e1", 0, 100, -1, 0},
        {"abc", 0, 10, -1, 0},
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        uint64_t v = UNTOUCHED;
        char err[ERRLEN] = "";
        int rc = lmb_parse_uint(cases[i].in, cases[i].min, cases[i].max, &v, err, sizeof err);
        if (rc != cases[i].rc)
            fail_msg("'%s' in [%llu, %llu]: rc %d, want %d (%s)", cases[i].in,
                     (unsigned long long)cases[i].min, (unsigned long long)cases[i].max, rc,
                     cases[i].rc, err);
        if (rc == 0 && v != cases[i].want)
            fail_msg("'%s' -> %llu, want %llu", cases[i].in, (unsigned long long)v,
                     (unsigned long long)cases[i].want);
        if (rc != 0) {
            assert_has_message(err, cases[i].in);
            if (v != UNTOUCHED)
                fail_msg("'%s' rejected but *out was written", cases[i].in);
        }
    }
}

static void test_uint_range_message(void **state)
{
    uint64_t v;
    char err[ERRLEN] = "";

    (void)state;
    assert_int_equal(lmb_parse_uint("42", 1, 10, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "42"));
    assert_non_null(strstr(err, "10"));
    assert_int_equal(lmb_parse_uint(NULL, 1, 10, &v, err, sizeof err), -1);
}

/* --- lmb_parse_nonneg_double ------------------------------------------------- */

static void test_double_good(void **state)
{
    static const struct {
        const char *in;
        double want;
    } cases[] = {
        {"0", 0.0},
        {"0.0", 0.0},
        {"2", 2.0},
        {"0.5", 0.5},
        {".5", 0.5},
        {"5.", 5.0},
        {"3600", 3600.0},
        {"0.001", 0.001},
        {"12.25", 12.25},
        {"007.5", 7.5},
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        double v = -42.0;
        char err[ERRLEN] = "";
        if (lmb_parse_nonneg_double(cases[i].in, &v, err, sizeof err) != 0)
            fail_msg("'%s' rejected: %s", cases[i].in, err);
        if (v != cases[i].want)
            fail_msg("'%s' -> %.17g, want %.17g", cases[i].in, v, cases[i].want);
    }
}

static void test_double_bad(void **state)
{
    static const char *const cases[] = {
        "", "-1", "-0", "+1", "-0.5", "inf", "INF", "infinity", "nan", "NaN", "1e3", "1E3",
        "1e-3", "0x1p3", "0x10", ".", "..5", "1.2.3", " 1", "1 ", "1,5", "abc", "1s",
        /* 400 digits: finite in the grammar, but too large for a double */
        "1000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000",
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        double v = -42.0;
        char err[ERRLEN] = "";
        if (lmb_parse_nonneg_double(cases[i], &v, err, sizeof err) != -1)
            fail_msg("'%.40s' accepted as %g", cases[i], v);
        assert_has_message(err, cases[i]);
        if (v != -42.0)
            fail_msg("'%.40s' rejected but *out was written", cases[i]);
    }
    {
        double v;
        char err[ERRLEN] = "";
        assert_int_equal(lmb_parse_nonneg_double(NULL, &v, err, sizeof err), -1);
        assert_has_message(err, "(null)");
    }
}

/* --- lmb_parse_cpulist ------------------------------------------------------- */

static void test_cpulist_good(void **state)
{
    static const struct {
        const char *in;
        int n;
        int want[8];
    } cases[] = {
        {"0", 1, {0}},
        {"7", 1, {7}},
        {"0,2-3", 3, {0, 2, 3}},
        {"0,2-3,7", 4, {0, 2, 3, 7}},
        {"3-3", 1, {3}},
        {"0 1", 2, {0, 1}},
        {"0 2-3 7", 4, {0, 2, 3, 7}},
        {"  1 ,  0  ", 2, {0, 1}},            /* spaces around items */
        {"5,1,3", 3, {1, 3, 5}},               /* sorted */
        {"1,1,1", 1, {1}},                     /* duplicates removed */
        {"2-4,3,0-2", 5, {0, 1, 2, 3, 4}},     /* overlapping ranges merged */
        {"65535", 1, {65535}},
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        int cpus[16], n = -1;
        char err[ERRLEN] = "";
        if (lmb_parse_cpulist(cases[i].in, cpus, 16, &n, err, sizeof err) != 0)
            fail_msg("'%s' rejected: %s", cases[i].in, err);
        if (n != cases[i].n)
            fail_msg("'%s': %d CPUs, want %d", cases[i].in, n, cases[i].n);
        for (int k = 0; k < n; k++)
            if (cpus[k] != cases[i].want[k])
                fail_msg("'%s': cpus[%d] = %d, want %d", cases[i].in, k, cpus[k],
                         cases[i].want[k]);
    }
}

static void test_cpulist_bad(void **state)
{
    static const char *const cases[] = {
        "", " ", ",", ",,", "3-1", "-1", "1-", "-", "a", "0-a", "1.5", "0x1", "1;2", "1-2-3",
        "+1", "65536", "0-65536", "99999999999999999999", "1\t2", "0,2-3x",
        /* empty elements are mistakes, not something to skip */
        "0,", ",1", "0,,1", "0, ,1", "0 ,",
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        int cpus[16], n = -1;
        char err[ERRLEN] = "";
        if (lmb_parse_cpulist(cases[i], cpus, 16, &n, err, sizeof err) != -1)
            fail_msg("'%s' accepted (%d CPUs)", cases[i], n);
        assert_has_message(err, cases[i]);
        if (n != -1)
            fail_msg("'%s' rejected but *n was written", cases[i]);
    }
    {
        int cpus[4], n = -1;
        char err[ERRLEN] = "";
        assert_int_equal(lmb_parse_cpulist(NULL, cpus, 4, &n, err, sizeof err), -1);
        assert_has_message(err, "(null)");
    }
}

/* max bounds the output; what counts is the number of distinct CPUs. */
static void test_cpulist_max(void **state)
{
    int cpus[4] = {-1, -1, -1, -1}, n = -1;
    char err[ERRLEN] = "";

    (void)state;
    assert_int_equal(lmb_parse_cpulist("0-3", cpus, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(cpus[3], 3);

    n = -1;
    err[0] = '\0';
    assert_int_equal(lmb_parse_cpulist("0-4", cpus, 4, &n, err, sizeof err), -1);
    assert_has_message(err, "0-4");

    /* Two distinct CPUs fit in two slots, however often they are repeated. */
    n = -1;
    assert_int_equal(lmb_parse_cpulist("1,0,1,0,1", cpus, 2, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(cpus[0], 0);
    assert_int_equal(cpus[1], 1);

    n = -1;
    assert_int_equal(lmb_parse_cpulist("0-1,0-1,1", cpus, 2, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);

    /* A huge range is refused without writing past cpus[]. */
    n = -1;
    assert_int_equal(lmb_parse_cpulist("0-65535", cpus, 4, &n, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_good),
        cmocka_unit_test(test_size_bad),
        cmocka_unit_test(test_size_null),
        cmocka_unit_test(test_size_message),
        cmocka_unit_test(test_uint_ranges),
        cmocka_unit_test(test_uint_range_message),
        cmocka_unit_test(test_double_good),
        cmocka_unit_test(test_double_bad),
        cmocka_unit_test(test_cpulist_good),
        cmocka_unit_test(test_cpulist_bad),
        cmocka_unit_test(test_cpulist_max),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
