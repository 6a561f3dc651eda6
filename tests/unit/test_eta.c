// SPDX-License-Identifier: MIT
/* Unit tests of src/suite/progress.c, on synthetic step durations: the ETA of
 * lmbench run (the plan's estimate before anything ran, then corrected by the
 * ratio of actual to estimated time of the steps done), its format, and the
 * progress line's text cut at a word boundary. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "suite/progress.h"

static void test_eta_first(void **state)
{
    (void)state;
    /* Nothing done: the plan's own estimate. */
    assert_true(fabs(lmb_eta_left(147, 0, 0) - 147) < 1e-9);
    assert_true(lmb_eta_left(0, 0, 0) == 0);
    /* All done, or more done than planned: nothing left. */
    assert_true(lmb_eta_left(100, 100, 250) == 0);
    assert_true(lmb_eta_left(100, 120, 250) == 0);
}

static void test_eta_corrected(void **state)
{
    (void)state;
    /* Steps that took as estimated leave the estimate as it is. */
    assert_true(fabs(lmb_eta_left(300, 100, 100) - 200) < 1e-9);
    /* Steps that took twice their estimate: the rest is expected to, the
     * more so the more has run (the prior: a tenth of the plan). */
    double twice = lmb_eta_left(1000, 500, 1000);
    assert_true(fabs(twice - 500 * 1100.0 / 600) < 1e-9);
    assert_true(fabs(lmb_eta_left(1000, 900, 1800) - 100 * 1900.0 / 1000) < 1e-9);
    double half = lmb_eta_left(1000, 500, 250);
    assert_true(fabs(half - 500 * 350.0 / 600) < 1e-9);
    /* One slow first step (10 s for an estimate of 1 s) does not multiply the
     * rest by ten. */
    double early = lmb_eta_left(150, 1, 10);
    assert_true(early > 149 && early < 2 * 149);
    /* A small plan: the prior is at least a second. */
    assert_true(fabs(lmb_eta_left(3, 0.5, 1.5) - 2.5 * 2.5 / 1.5) < 1e-9);
}

static void test_eta_synthetic_run(void **state)
{
    /* A run whose steps each take 1.5 times their estimate: the ETA after
     * each step, plus the time spent, comes closer to the real total. */
    static const double est[] = { 2, 2, 1, 1, 1, 4, 8, 8, 20, 30, 10, 5 };
    double total = 0, real = 0, done = 0, spent = 0, prev_err = INFINITY;

    (void)state;
    for (size_t i = 0; i < sizeof est / sizeof est[0]; i++) {
        total += est[i];
        real += 1.5 * est[i];
    }
    for (size_t i = 0; i < sizeof est / sizeof est[0]; i++) {
        double err = fabs(spent + lmb_eta_left(total, done, spent) - real);
        assert_true(err <= prev_err + 1e-9);
        prev_err = err;
        done += est[i];
        spent += 1.5 * est[i];
    }
    assert_true(lmb_eta_left(total, done, spent) == 0);
    /* Garbage in (NaN, negative) gives no negative or NaN time. */
    assert_true(lmb_eta_left(NAN, 0, 0) == 0);
    assert_true(lmb_eta_left(10, -5, -3) >= 0);
}

static void test_eta_format(void **state)
{
    char b[32];

    (void)state;
    assert_string_equal(lmb_eta_format(0, b, sizeof b), "0s");
    assert_string_equal(lmb_eta_format(44.6, b, sizeof b), "45s");
    assert_string_equal(lmb_eta_format(147, b, sizeof b), "2m27s");
    assert_string_equal(lmb_eta_format(624, b, sizeof b), "10m24s");
    assert_string_equal(lmb_eta_format(3900, b, sizeof b), "1h05m");
    assert_string_equal(lmb_eta_format(-3, b, sizeof b), "0s");
    assert_string_equal(lmb_eta_format(NAN, b, sizeof b), "0s");
}

static void test_fit_words(void **state)
{
    char b[200];
    const char *name = "launch 1 of 3: lat_mem_rd --launches 3 -N 3 -c 8m 256 128";

    (void)state;
    /* Whole when it fits. */
    assert_string_equal(lmb_fit_words(name, strlen(name), b, sizeof b), name);
    assert_string_equal(lmb_fit_words("", 10, b, sizeof b), "");
    /* Cut at a blank, never inside a word, with "..." in the width. */
    assert_string_equal(lmb_fit_words(name, 30, b, sizeof b), "launch 1 of 3: lat_mem_rd...");
    assert_string_equal(lmb_fit_words(name, 31, b, sizeof b), "launch 1 of 3: lat_mem_rd...");
    assert_string_equal(lmb_fit_words(name, 42, b, sizeof b),
                        "launch 1 of 3: lat_mem_rd --launches 3...");
    for (size_t w = 4; w < strlen(name); w++) {
        lmb_fit_words(name, w, b, sizeof b);
        size_t n = strlen(b);
        assert_true(n <= w);
        assert_true(n >= 3);
        if (n < 3)
            continue;
        assert_true(strcmp(b + n - 3, "...") == 0);
        /* What is kept is a run of whole words of name. */
        assert_true(strncmp(b, name, n - 3) == 0);
        assert_true(n == 3 || name[n - 3] == ' ' || n - 3 == w - 3);
    }
    /* One word longer than the width is cut, with "...". */
    assert_string_equal(lmb_fit_words("abcdefghijklmnop", 8, b, sizeof b), "abcde...");
    /* UTF-8: a character is one column and is not split. */
    assert_string_equal(lmb_fit_words("lat_fs /tmp/\xc3\xa9t\xc3\xa9 x", 12, b, sizeof b),
                        "lat_fs...");
    assert_string_equal(lmb_fit_words("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 5, b, sizeof b),
                        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    assert_string_equal(lmb_fit_words("abcdef", 3, b, sizeof b), "...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eta_first),
        cmocka_unit_test(test_eta_corrected),
        cmocka_unit_test(test_eta_synthetic_run),
        cmocka_unit_test(test_eta_format),
        cmocka_unit_test(test_fit_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
