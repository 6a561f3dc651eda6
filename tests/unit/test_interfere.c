// SPDX-License-Identifier: MIT
/* Unit tests of interference accounting (src/lib/interfere.c): snapshots read
 * from a fake /proc and /sys tree (known ticks, load, frequencies, throttle
 * counts; files missing), the shares two snapshots give, the disturbed flag at
 * the edges of the threshold, and the line that describes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/interfere.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

static char root[64];

/* |got - want| <= eps (cmocka of older systems has no assert_double_equal). */
#define assert_near(got, want, eps)                                                          \
    do {                                                                                     \
        double g_ = (got), w_ = (want);                                                      \
        if (!(fabs(g_ - w_) <= (eps)))                                                       \
            fail_msg("%s = %.17g, want %.17g", #got, g_, w_);                                \
    } while (0)

static void mkdirs(const char *path)
{
    char buf[1024];

    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                fail_msg("mkdir %s: %s", buf, strerror(errno));
            *s = '/';
        }
}

static void put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(const char *rel, const char *fmt, ...)
{
    char path[1024];
    va_list ap;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", root, rel);
    mkdirs(path);
    f = fopen(path, "w");
    assert_non_null(f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    assert_int_equal(fclose(f), 0);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/lmb-test-interfere-XXXXXX");
    return mkdtemp(root) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static double tck(void)
{
    long t = sysconf(_SC_CLK_TCK);
    return t > 0 ? (double)t : 100.0;
}

/* The "cpu" line in ticks: user nice system idle iowait irq softirq steal. */
static void stat_ticks(long user, long nice, long sys, long idle, long iowait, long irq,
                       long softirq, long steal)
{
    put("proc/stat", "cpu  %ld %ld %ld %ld %ld %ld %ld %ld 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"
                     "intr 12345\n",
        user, nice, sys, idle, iowait, irq, softirq, steal);
}

static void freq(int cpu, long khz)
{
    char rel[256];

    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
    put(rel, "%ld\n", khz);
}

static void throttle(int cpu, long core, long pkg)
{
    char rel[256];

    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count", cpu);
    put(rel, "%ld\n", core);
    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count", cpu);
    put(rel, "%ld\n", pkg);
}

/* Two snapshots of known ticks: 10 s of wall time on 2 CPUs (20 CPU-seconds),
 * 7 s busy of which 3 s ours, 1 s steal. */
static void test_known_shares(void **state)
{
    struct lmb_cpu_snapshot a, b;
    struct lmb_interference x;
    double t = tck();
    char line[256];

    (void)state;
    put("sys/devices/system/cpu/online", "0-1\n");
    put("proc/loadavg", "0.50 0.40 0.30 1/100 1234\n");
    freq(0, 2000000);
    freq(1, 1800000);
    throttle(0, 5, 10);
    throttle(1, 1, 10);
    stat_ticks(1000, 0, 500, 9000, 100, 10, 20, 50);
    assert_int_equal(lmb_cpu_snapshot_take_at(&a, root), 0);
    assert_true(a.ok);
    assert_near(a.busy_s, 1530 / t, 1e-9);
    assert_near(a.idle_s, 9100 / t, 1e-9);
    assert_near(a.steal_s, 50 / t, 1e-9);
    assert_near(a.load[0], 0.5, 1e-9);
    assert_near(a.load[2], 0.3, 1e-9);
    assert_near(a.mhz_min, 1800, 1e-9);
    assert_near(a.mhz_max, 2000, 1e-9);
    assert_int_equal(a.throttle, 26);

    /* 7 s busy more: user 4 s, nice 1 s, system 1.5 s, irq 0.25 s, softirq 0.25 s. */
    stat_ticks(1000 + (long)(4 * t), (long)t, 500 + (long)(1.5 * t), 9000 + (long)(11 * t), 100,
               10 + (long)(0.25 * t), 20 + (long)(0.25 * t), 50 + (long)t);
    put("proc/loadavg", "2.25 1.00 0.50 3/100 1240\n");
    freq(1, 3000000);
    throttle(0, 7, 12);
    assert_int_equal(lmb_cpu_snapshot_take_at(&b, root), 0);
    /* Wall and own time as a real step would have them. */
    a.wall_s = 100;
    b.wall_s = 110;
    a.own_s = 2;
    b.own_s = 5;
    lmb_interference_between(&a, &b, 2, LMB_DISTURBED_SHARE, &x);
    assert_true(x.known);
    assert_int_equal(x.cpus, 2);
    assert_near(x.wall_s, 10, 1e-9);
    assert_near(x.own_cpu_s, 3, 1e-9);
    assert_near(x.other_cpu_s, 4, 1e-9);
    assert_near(x.steal_s, 1, 1e-9);
    assert_near(x.other_share, 0.2, 1e-9);
    assert_near(x.steal_share, 0.05, 1e-9);
    assert_near(x.load_before[0], 0.5, 1e-9);
    assert_near(x.load_after[0], 2.25, 1e-9);
    assert_near(x.mhz_min, 1800, 1e-9);
    assert_near(x.mhz_max, 3000, 1e-9);
    assert_int_equal(x.throttle_events, 30 - 26);
    assert_true(x.disturbed);
    lmb_interference_describe(&x, line, sizeof line);
    assert_string_equal(line, "other processes used 20% of the 2 CPUs, steal 5%, load 0.50 -> 2.25, "
                              "1800-3000 MHz, 4 throttling events: disturbed");
    /* A short buffer: cut, terminated. */
    lmb_interference_describe(&x, line, 10);
    assert_int_equal(strlen(line), 9);

    /* Our own time above the busy delta: other processes took nothing. */
    b.own_s = 20;
    lmb_interference_between(&a, &b, 2, LMB_DISTURBED_SHARE, &x);
    assert_near(x.other_cpu_s, 0, 0);
    assert_near(x.other_share, 0, 0);
    assert_false(x.disturbed);
}

/* The flag at the edges of the threshold: above it is disturbed, at it not. */
static void test_threshold_edges(void **state)
{
    struct lmb_cpu_snapshot a, b;
    struct lmb_interference x;

    (void)state;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.ok = b.ok = true;
    a.throttle = b.throttle = -1;
    a.wall_s = 0;
    b.wall_s = 8;                     /* 4 CPUs: 32 CPU-seconds */
    b.busy_s = 3.2;                   /* other 3.2 s: a share of exactly 0.1 */
    lmb_interference_between(&a, &b, 4, 0.1, &x);
    assert_near(x.other_share, 0.1, 1e-12);
    assert_false(x.disturbed);
    b.busy_s = 3.2 + 0.001;
    lmb_interference_between(&a, &b, 4, 0.1, &x);
    assert_true(x.disturbed);
    /* A higher threshold asked for. */
    lmb_interference_between(&a, &b, 4, 0.5, &x);
    assert_false(x.disturbed);
    /* Steal alone. */
    b.busy_s = 0;
    b.steal_s = 3.2;
    lmb_interference_between(&a, &b, 4, 0.1, &x);
    assert_near(x.steal_share, 0.1, 1e-12);
    assert_false(x.disturbed);
    b.steal_s = 3.3;
    lmb_interference_between(&a, &b, 4, 0.1, &x);
    assert_true(x.disturbed);
    /* A threshold that is not one: the default. */
    lmb_interference_between(&a, &b, 4, NAN, &x);
    assert_true(x.disturbed);
    lmb_interference_between(&a, &b, 4, -1, &x);
    assert_true(x.disturbed);
    assert_int_equal(x.throttle_events, -1);
    assert_near(x.mhz_max, 0, 0);
}

/* Tick-counted times over a short step can exceed the wall time's CPU
 * seconds: the shares stay at most 1 (all of it). */
static void test_shares_at_most_one(void **state)
{
    struct lmb_cpu_snapshot a, b;
    struct lmb_interference x;

    (void)state;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.ok = b.ok = true;
    a.throttle = b.throttle = -1;
    b.wall_s = 0.05;                  /* 2 CPUs: 0.1 CPU-seconds */
    b.busy_s = 0.12;                  /* three ticks too many */
    b.steal_s = 0.13;
    lmb_interference_between(&a, &b, 2, LMB_DISTURBED_SHARE, &x);
    assert_near(x.other_share, 1.0, 1e-12);
    assert_near(x.steal_share, 1.0, 1e-12);
    assert_near(x.other_cpu_s, 0.1, 1e-12);
    assert_true(x.disturbed);
}

/* Missing files: unknown, and nothing made up. */
static void test_missing_files(void **state)
{
    struct lmb_cpu_snapshot a, b;
    struct lmb_interference x;
    char line[256];

    (void)state;
    assert_int_equal(lmb_cpu_snapshot_take_at(&a, root), -1);
    assert_false(a.ok);
    assert_int_equal(a.throttle, -1);
    assert_near(a.mhz_min, 0, 0);
    assert_near(a.mhz_max, 0, 0);
    assert_near(a.load[0], 0, 0);
    stat_ticks(100, 0, 100, 1000, 0, 0, 0, 0);
    assert_int_equal(lmb_cpu_snapshot_take_at(&b, root), 0);
    lmb_interference_between(&a, &b, 2, LMB_DISTURBED_SHARE, &x);
    assert_false(x.known);
    assert_false(x.disturbed);
    assert_int_equal(x.throttle_events, -1);
    lmb_interference_describe(&x, line, sizeof line);
    assert_string_equal(line, "interference unknown (/proc/stat not read)");

    /* Not a stat file; a "cpu" line with too few fields. */
    put("proc/stat", "intr 1 2 3\n");
    assert_int_equal(lmb_cpu_snapshot_take_at(&a, root), -1);
    put("proc/stat", "cpu  1 2 3\n");
    assert_int_equal(lmb_cpu_snapshot_take_at(&a, root), -1);
    /* An old kernel's four fields: no steal. */
    put("proc/stat", "cpu  1 2 3 4\n");
    assert_int_equal(lmb_cpu_snapshot_take_at(&a, root), 0);
    assert_near(a.steal_s, 0, 0);

    /* No time passed: unknown. */
    b = a;
    lmb_interference_between(&a, &b, 2, LMB_DISTURBED_SHARE, &x);
    assert_false(x.known);
    /* Throttle counts that went backwards (a CPU went offline): unknown. */
    a.throttle = 10;
    b.throttle = 4;
    b.wall_s = a.wall_s + 1;
    lmb_interference_between(&a, &b, 2, LMB_DISTURBED_SHARE, &x);
    assert_true(x.known);
    assert_int_equal(x.throttle_events, -1);
}

/* The real system: a child that burns CPU and is reaped counts as ours. */
static void test_real_own_time(void **state)
{
    struct lmb_cpu_snapshot a, b;
    struct lmb_interference x;
    pid_t pid;
    int st;

    (void)state;
    if (lmb_cpu_snapshot_take(&a) != 0)
        skip();
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        volatile unsigned long n = 0;
        struct timespec t0, t;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        do {
            for (int i = 0; i < 100000; i++)
                n++;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < 0.2);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_int_equal(lmb_cpu_snapshot_take(&b), 0);
    lmb_interference_between(&a, &b, 0, LMB_DISTURBED_SHARE, &x);
    assert_true(x.known);
    assert_true(x.cpus >= 1);
    assert_true(x.own_cpu_s >= 0.19);
    assert_true(x.other_cpu_s >= 0);
    assert_true(x.other_share >= 0);
}

#ifdef LMB_HAVE_JANSSON
/* The JSON object: keys in the documented order, unknown parts null. */
static void test_json(void **state)
{
    static const char *const order[] = {
        "wall_s", "cpus", "own_cpu_s", "other_cpu_s", "steal_s", "other_share", "steal_share",
        "load_before", "load_after", "mhz_min", "mhz_max", "throttle_events", "disturbed",
    };
    struct lmb_interference x;
    json_t *o, *v;
    const char *key;
    size_t i = 0;

    (void)state;
    memset(&x, 0, sizeof x);
    o = lmb_interference_json(&x);
    assert_true(json_is_null(o));
    json_decref(o);
    x.known = true;
    x.wall_s = 2;
    x.cpus = 2;
    x.other_cpu_s = 1;
    x.other_share = 0.25;
    x.load_after[0] = 1.5;
    x.throttle_events = -1;
    x.mhz_max = 2000;
    x.disturbed = true;
    o = lmb_interference_json(&x);
    assert_true(json_is_object(o));
    json_object_foreach(o, key, v) {
        assert_true(i < sizeof order / sizeof order[0]);
        assert_string_equal(key, order[i]);
        i++;
    }
    assert_int_equal(i, sizeof order / sizeof order[0]);
    assert_int_equal(json_integer_value(json_object_get(o, "cpus")), 2);
    assert_near(json_real_value(json_object_get(o, "other_share")), 0.25, 0);
    assert_near(json_real_value(json_array_get(json_object_get(o, "load_after"), 0)), 1.5, 0);
    assert_true(json_is_null(json_object_get(o, "mhz_min")));
    assert_near(json_real_value(json_object_get(o, "mhz_max")), 2000, 0);
    assert_true(json_is_null(json_object_get(o, "throttle_events")));
    assert_true(json_is_true(json_object_get(o, "disturbed")));
    json_decref(o);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_known_shares, setup, teardown),
        cmocka_unit_test(test_threshold_edges),
        cmocka_unit_test(test_shares_at_most_one),
        cmocka_unit_test_setup_teardown(test_missing_files, setup, teardown),
        cmocka_unit_test(test_real_own_time),
#ifdef LMB_HAVE_JANSSON
        cmocka_unit_test(test_json),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
