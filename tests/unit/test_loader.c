// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/loader.c on a fake clock (each reading one
 * microsecond after the last, whoever reads it): a paced loader delivers its
 * rate over a window read from its log, a window outside the log is refused,
 * no loaders move no bytes, and a loader that cannot be placed or more loaders
 * than slots fail with the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/loader.h"

static atomic_uint_fast64_t fake_ns;

static uint64_t fake_now(void *cookie)
{
    (void)cookie;
    return atomic_fetch_add(&fake_ns, 1000) + 1000;
}

static const struct lmb_clock fake = { .now = fake_now, .name = "fake" };

static void sleep_ms(long ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

static void setup_set(struct lmb_loaders *ls, struct lmb_sched *s, unsigned max)
{
    char err[256];

    atomic_store(&fake_ns, 1000000);
    assert_int_equal(lmb_sched_setup(s, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(lmb_loaders_init(ls, max, 64 * 1024, &fake, s, err, sizeof err), 0);
}

/* 1000 MB/s paced on the fake clock: the bytes over a window inside the
 * log are the rate times the window, to within a chunk. */
static void test_paced_rate(void **state)
{
    struct lmb_loaders ls;
    struct lmb_sched s;
    int cpus[1] = { -1 };
    char err[256];
    uint64_t t0, t1;

    (void)state;
    setup_set(&ls, &s, 1);
    assert_int_equal(lmb_loaders_start(&ls, 1, cpus, false, 1000, 5000, 10, err, sizeof err), 0);
    t0 = fake_now(NULL);
    sleep_ms(30);
    t1 = fake_now(NULL);
    lmb_loaders_stop(&ls);
    assert_true(t1 - t0 > 1000000);   /* the loader's spin moved the clock on */
    double bytes = lmb_loaders_bytes(&ls, t0, t1);
    double want = 1000e6 * (double)(t1 - t0) * 1e-9;
    if (bytes < want - 40000 || bytes > want + 40000)
        fail_msg("%.0f bytes over %.0f us, want %.0f", bytes, (double)(t1 - t0) / 1e3, want);
    /* Outside the log: refused. */
    assert_true(lmb_loaders_bytes(&ls, 0, t1) < 0);
    assert_true(lmb_loaders_bytes(&ls, t0, t1 + 1000000000ULL) < 0);
    lmb_loaders_free(&ls);
}

/* Flat out, reading then writing: a positive figure; the logs stay readable
 * after the stop, and no loader (a start of 0) moves nothing. */
static void test_max_and_none(void **state)
{
    struct lmb_loaders ls;
    struct lmb_sched s;
    int cpus[2] = { -1, -1 };
    char err[256];
    uint64_t t0, t1;

    (void)state;
    setup_set(&ls, &s, 2);
    for (int w = 0; w < 2; w++) {
        assert_int_equal(lmb_loaders_start(&ls, 2, cpus, w == 1, 0, 1000, 10, err, sizeof err),
                         0);
        t0 = fake_now(NULL);
        sleep_ms(10);
        t1 = fake_now(NULL);
        lmb_loaders_stop(&ls);
        assert_true(lmb_loaders_bytes(&ls, t0, t1) > 0);
    }
    assert_int_equal(lmb_loaders_start(&ls, 0, cpus, false, 0, 1000, 10, err, sizeof err), 0);
    assert_true(lmb_loaders_bytes(&ls, 0, UINT64_MAX) == 0);
    lmb_loaders_free(&ls);
}

static void test_failures(void **state)
{
    struct lmb_loaders ls;
    struct lmb_sched s;
    int cpus[2] = { LMB_MAX_CPUS - 1, -1 };
    char err[256];

    (void)state;
    setup_set(&ls, &s, 1);
    assert_int_equal(lmb_loaders_start(&ls, 2, cpus, false, 0, 1000, 10, err, sizeof err), -1);
    assert_non_null(strstr(err, "2 loaders asked, room for 1"));
    assert_int_equal(lmb_loaders_start(&ls, 1, cpus, false, 0, 1000, 10, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot place it on CPU 1023"));
    lmb_loaders_free(&ls);
    assert_int_equal(lmb_loaders_init(&ls, 1, 1024, &fake, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "at least 4096 bytes"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paced_rate),
        cmocka_unit_test(test_max_and_none),
        cmocka_unit_test(test_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
