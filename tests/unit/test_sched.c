// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/sched.c: LMBENCH_SCHED and --cpus parsing, and the
 * placement of processes. Independent of the machine: the CPUs used are read
 * from our own affinity, and the mapping is checked on hand-made sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/sched.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The CPUs this process may run on, ascending. */
static int allowed[LMB_MAX_CPUS];
static int nallowed;

static int read_affinity(void **state)
{
    cpu_set_t set;

    (void)state;
    nallowed = 0;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    for (int c = 0; c < CPU_SETSIZE && nallowed < LMB_MAX_CPUS; c++)
        if (CPU_ISSET(c, &set))
            allowed[nallowed++] = c;
    return nallowed > 0 ? 0 : -1;
}

static void setup_ok(struct lmb_sched *s, const char *env, const char *cpus)
{
    char err[256] = "";

    if (lmb_sched_setup(s, env, cpus, err, sizeof err) != 0)
        fail_msg("LMBENCH_SCHED='%s' --cpus '%s' rejected: %s", env ? env : "(unset)",
                 cpus ? cpus : "(none)", err);
}

static void setup_bad(const char *env, const char *cpus, const char *must_mention)
{
    static struct lmb_sched s;
    char err[256] = "";

    if (lmb_sched_setup(&s, env, cpus, err, sizeof err) != -1)
        fail_msg("LMBENCH_SCHED='%s' --cpus '%s' accepted", env ? env : "(unset)",
                 cpus ? cpus : "(none)");
    if (err[0] == '\0')
        fail_msg("LMBENCH_SCHED='%s': no message", env ? env : "(unset)");
    if (must_mention != NULL && strstr(err, must_mention) == NULL)
        fail_msg("message '%s' does not mention '%s'", err, must_mention);
}

static void test_default_unset(void **state)
{
    static struct lmb_sched s;

    (void)state;
    setup_ok(&s, NULL, NULL);
    assert_int_equal(s.policy, LMB_SCHED_DEFAULT);
    assert_false(s.restricted);
    assert_int_equal(s.ncpus, nallowed);
    assert_memory_equal(s.cpus, allowed, (size_t)nallowed * sizeof allowed[0]);
    for (unsigned copy = 0; copy < 4; copy++)
        for (unsigned proc = 0; proc < 3; proc++)
            assert_int_equal(lmb_sched_cpu_for(&s, copy, proc, 3), -1);
    /* DEFAULT without --cpus leaves the process alone */
    assert_int_equal(lmb_sched_apply(&s, -1), 0);
}

static void test_policy_names(void **state)
{
    static const struct {
        const char *env;
        enum lmb_sched_policy want;
    } cases[] = {
        {"", LMB_SCHED_DEFAULT},
        {"DEFAULT", LMB_SCHED_DEFAULT},
        {"default", LMB_SCHED_DEFAULT},
        {"SINGLE", LMB_SCHED_SINGLE},
        {"Single", LMB_SCHED_SINGLE},
        {"  SINGLE", LMB_SCHED_SINGLE},
        {"SINGLE  ", LMB_SCHED_SINGLE},
        {"\tUNIQUE\n", LMB_SCHED_UNIQUE},
        {"   ", LMB_SCHED_DEFAULT},
        {"BALANCED", LMB_SCHED_BALANCED},
        {"balanced", LMB_SCHED_BALANCED},
        {"UNIQUE", LMB_SCHED_UNIQUE},
        {"unique", LMB_SCHED_UNIQUE},
    };
    static struct lmb_sched s;

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        setup_ok(&s, cases[i].env, NULL);
        if (s.policy != cases[i].want)
            fail_msg("LMBENCH_SCHED='%s': policy %d, want %d", cases[i].env, (int)s.policy,
                     (int)cases[i].want);
        assert_int_equal(s.ncpus, nallowed);
    }
    assert_string_equal(lmb_sched_policy_name(LMB_SCHED_DEFAULT), "DEFAULT");
    assert_string_equal(lmb_sched_policy_name(LMB_SCHED_SINGLE), "SINGLE");
    assert_string_equal(lmb_sched_policy_name(LMB_SCHED_BALANCED), "BALANCED");
    assert_string_equal(lmb_sched_policy_name(LMB_SCHED_UNIQUE), "UNIQUE");
    assert_string_equal(lmb_sched_policy_name(LMB_SCHED_CUSTOM), "CUSTOM");
}

static void test_bad_names(void **state)
{
    static const char *const bad[] = {
        "FOO", "SINGLEX", "SINGLE2", "SINGL", "BALANCE", "UNIQUEX", "DEFAULTS", "0",
        "CUSTOMX 0", "CUSTOM-0", "SINGLE,BALANCED",
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        setup_bad(bad[i], NULL, "LMBENCH_SCHED");
}

static void test_custom_bad(void **state)
{
    static const char *const bad[] = {
        "CUSTOM",            /* no list */
        "CUSTOM ",
        "CUSTOM \"\"",
        "CUSTOM x",
        "CUSTOM 3-1",
        "CUSTOM 0 x",
        "CUSTOM -1",
        "CUSTOM 65535",      /* no machine here lets us run there */
        "CUSTOM 65536",
    };

    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        setup_bad(bad[i], NULL, "CUSTOM");
}

static void test_custom_one_cpu(void **state)
{
    static struct lmb_sched s;
    char env[64];

    (void)state;
    snprintf(env, sizeof env, "CUSTOM %d", allowed[0]);
    setup_ok(&s, env, NULL);
    assert_int_equal(s.policy, LMB_SCHED_CUSTOM);
    assert_int_equal(s.ncustom, 1);
    for (unsigned copy = 0; copy < 3; copy++)
        for (unsigned proc = 0; proc < 2; proc++)
            assert_int_equal(lmb_sched_cpu_for(&s, copy, proc, 2), allowed[0]);

    snprintf(env, sizeof env, "custom \"%d\"", allowed[0]);
    setup_ok(&s, env, NULL);
    assert_int_equal(s.policy, LMB_SCHED_CUSTOM);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), allowed[0]);

    /* a CPU we may not use, next to one we may */
    snprintf(env, sizeof env, "CUSTOM %d 65535", allowed[0]);
    setup_bad(env, NULL, "65535");
}

/* "CUSTOM 0 1" with two CPUs we are allowed to use, in its spellings. */
static void test_custom_two_cpus(void **state)
{
    static struct lmb_sched s;
    char env[96];
    const char *fmts[] = {"CUSTOM %d %d", "CUSTOM \"%d %d\"", "CUSTOM %d,%d", "CUSTOM  %d  %d "};
    int a, b;

    (void)state;
    if (nallowed < 2)
        skip();
    a = allowed[0];
    b = allowed[1];
    for (size_t i = 0; i < ARRAY_LEN(fmts); i++) {
        snprintf(env, sizeof env, fmts[i], a, b);
        setup_ok(&s, env, NULL);
        assert_int_equal(s.policy, LMB_SCHED_CUSTOM);
        assert_int_equal(s.ncustom, 2);
        /* process g on list[g % 2]: g = copy * procs_per_copy + proc */
        assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), a);
        assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 1), b);
        assert_int_equal(lmb_sched_cpu_for(&s, 2, 0, 1), a);
        assert_int_equal(lmb_sched_cpu_for(&s, 0, 1, 2), b);
        assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 2), a);
        assert_int_equal(lmb_sched_cpu_for(&s, 1, 1, 2), b);
    }
}

/* The CUSTOM list keeps the user's order and repeats (sched.h: "process g on
 * list[g % len]"): "CUSTOM 1 0" puts process 0 on CPU 1. */
static void test_custom_keeps_order(void **state)
{
    static struct lmb_sched s;
    char env[96];
    int a, b;

    (void)state;
    if (nallowed < 2)
        skip();
    a = allowed[0];
    b = allowed[1];   /* b > a */
    snprintf(env, sizeof env, "CUSTOM %d %d", b, a);
    setup_ok(&s, env, NULL);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), b);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 1), a);

    snprintf(env, sizeof env, "CUSTOM %d %d %d", b, b, a);
    setup_ok(&s, env, NULL);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), b);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 1), b);
    assert_int_equal(lmb_sched_cpu_for(&s, 2, 0, 1), a);
    assert_int_equal(lmb_sched_cpu_for(&s, 3, 0, 1), b);
    assert_int_equal(s.ncustom, 3);

    /* a range expands in place */
    if (b == a + 1) {
        snprintf(env, sizeof env, "CUSTOM %d %d-%d", b, a, b);
        setup_ok(&s, env, NULL);
        assert_int_equal(s.ncustom, 3);
        assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), b);
        assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 1), a);
        assert_int_equal(lmb_sched_cpu_for(&s, 2, 0, 1), b);
    }
}

static void test_cpus_option(void **state)
{
    static struct lmb_sched s;
    char opt[32], env[64];

    (void)state;
    snprintf(opt, sizeof opt, "%d", allowed[0]);
    setup_ok(&s, NULL, opt);
    assert_true(s.restricted);
    assert_int_equal(s.ncpus, 1);
    assert_int_equal(s.cpus[0], allowed[0]);
    assert_int_equal(s.policy, LMB_SCHED_DEFAULT);

    setup_ok(&s, "SINGLE", opt);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), allowed[0]);
    assert_int_equal(lmb_sched_cpu_for(&s, 5, 1, 2), allowed[0]);

    setup_ok(&s, "UNIQUE", opt);
    assert_int_equal(lmb_sched_cpu_for(&s, 3, 1, 2), allowed[0]);

    snprintf(env, sizeof env, "CUSTOM %d", allowed[0]);
    setup_ok(&s, env, opt);
    assert_int_equal(s.policy, LMB_SCHED_CUSTOM);

    /* CUSTOM must stay inside --cpus */
    setup_bad("CUSTOM 65535", opt, "--cpus");
    if (nallowed >= 2) {
        snprintf(env, sizeof env, "CUSTOM %d", allowed[1]);
        setup_bad(env, opt, "--cpus");
    }

    /* --cpus itself */
    setup_bad(NULL, "65535", "--cpus");
    setup_bad(NULL, "x", "--cpus");
    setup_bad(NULL, "", "--cpus");
    setup_bad(NULL, "3-1", "--cpus");
    /* a bad --cpus is reported whatever the policy */
    setup_bad("SINGLE", "65535", "--cpus");
}

static void test_single_from_affinity(void **state)
{
    static struct lmb_sched s;

    (void)state;
    setup_ok(&s, "SINGLE", NULL);
    for (unsigned copy = 0; copy < 5; copy++)
        assert_int_equal(lmb_sched_cpu_for(&s, copy, 0, 1), allowed[0]);
    setup_ok(&s, "BALANCED", NULL);
    for (unsigned copy = 0; copy < 5; copy++)
        assert_int_equal(lmb_sched_cpu_for(&s, copy, 1, 2), allowed[copy % (unsigned)nallowed]);
    setup_ok(&s, "UNIQUE", NULL);
    for (unsigned copy = 0; copy < 5; copy++)
        assert_int_equal(lmb_sched_cpu_for(&s, copy, 1, 2),
                         allowed[(copy * 2 + 1) % (unsigned)nallowed]);
}

/* The mapping on hand-made sets, whatever the machine has. */
static void test_cpu_for_mapping(void **state)
{
    static struct lmb_sched s;

    (void)state;
    memset(&s, 0, sizeof s);
    s.ncpus = 3;
    s.cpus[0] = 4;
    s.cpus[1] = 5;
    s.cpus[2] = 6;
    s.ncustom = 3;
    s.custom[0] = 9;
    s.custom[1] = 3;
    s.custom[2] = 7;

    s.policy = LMB_SCHED_DEFAULT;
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), -1);
    assert_int_equal(lmb_sched_cpu_for(&s, 7, 2, 3), -1);

    s.policy = LMB_SCHED_SINGLE;
    for (unsigned copy = 0; copy < 7; copy++)
        for (unsigned proc = 0; proc < 3; proc++)
            assert_int_equal(lmb_sched_cpu_for(&s, copy, proc, 3), 4);

    /* copies round-robin; a copy's helpers share its CPU */
    s.policy = LMB_SCHED_BALANCED;
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 2), 4);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 1, 2), 4);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 2), 5);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 1, 2), 5);
    assert_int_equal(lmb_sched_cpu_for(&s, 2, 1, 2), 6);
    assert_int_equal(lmb_sched_cpu_for(&s, 3, 0, 2), 4);
    assert_int_equal(lmb_sched_cpu_for(&s, 4, 1, 2), 5);

    /* every process round-robin: g = copy * procs_per_copy + proc */
    s.policy = LMB_SCHED_UNIQUE;
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 2), 4);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 1, 2), 5);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 2), 6);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 1, 2), 4);
    assert_int_equal(lmb_sched_cpu_for(&s, 2, 0, 2), 5);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), 4);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 1), 5);
    assert_int_equal(lmb_sched_cpu_for(&s, 2, 0, 1), 6);
    assert_int_equal(lmb_sched_cpu_for(&s, 3, 0, 1), 4);
    /* procs_per_copy 0 counts as 1 */
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 0), 5);
    assert_int_equal(lmb_sched_cpu_for(&s, 2, 0, 0), 6);

    /* CUSTOM: the list in its own order */
    s.policy = LMB_SCHED_CUSTOM;
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 0, 1), 9);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 1), 3);
    assert_int_equal(lmb_sched_cpu_for(&s, 2, 0, 1), 7);
    assert_int_equal(lmb_sched_cpu_for(&s, 3, 0, 1), 9);
    assert_int_equal(lmb_sched_cpu_for(&s, 0, 1, 2), 3);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 0, 2), 7);
    assert_int_equal(lmb_sched_cpu_for(&s, 1, 1, 2), 9);
}

/* Pinning, in a child so that this process keeps its affinity. */
static void test_apply_in_child(void **state)
{
    static struct lmb_sched s;
    pid_t pid;
    int status;

    (void)state;
    setup_ok(&s, "SINGLE", NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        cpu_set_t set;
        int cpu = lmb_sched_cpu_for(&s, 0, 0, 1);
        if (lmb_sched_apply(&s, cpu) != 0)
            _exit(10);
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) != 0)
            _exit(11);
        if (CPU_COUNT(&set) != 1 || !CPU_ISSET(cpu, &set))
            _exit(12);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_unset),
        cmocka_unit_test(test_policy_names),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_custom_bad),
        cmocka_unit_test(test_custom_one_cpu),
        cmocka_unit_test(test_custom_two_cpus),
        cmocka_unit_test(test_custom_keeps_order),
        cmocka_unit_test(test_cpus_option),
        cmocka_unit_test(test_single_from_affinity),
        cmocka_unit_test(test_cpu_for_mapping),
        cmocka_unit_test(test_apply_in_child),
    };

    return cmocka_run_group_tests(tests, read_affinity, NULL);
}
