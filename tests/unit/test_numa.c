// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/numa.c that need no second node: the mbind node mask,
 * counting per-page answers, the placement verdict and its reason, the
 * fraction moved from a copy's fact to a record parameter, the placement on a
 * node's CPUs and pinning a thread to a node (from topologies made here), CPU
 * lists; and, where this kernel binds memory, a buffer bound to node 0 found
 * on node 0 and a bind to a node that does not exist refused with the reason. */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/numa.h"
#include "lib/report.h"

static void test_mask(void **state)
{
    unsigned long mask[LMB_NUMA_MASK_WORDS], maxnode = 0;
    const size_t bits = 8 * sizeof(unsigned long);

    (void)state;
    assert_int_equal(lmb_numa_mask(0, mask, &maxnode), 0);
    assert_int_equal(mask[0], 1UL);
    for (size_t i = 1; i < LMB_NUMA_MASK_WORDS; i++)
        assert_int_equal(mask[i], 0);
    /* more bits than the highest node, every one inside the array */
    assert_true(maxnode > LMB_MAX_NODES);
    assert_true(maxnode <= LMB_NUMA_MASK_WORDS * bits);

    assert_int_equal(lmb_numa_mask(LMB_MAX_NODES - 1, mask, &maxnode), 0);
    size_t w = (size_t)(LMB_MAX_NODES - 1) / bits, b = (size_t)(LMB_MAX_NODES - 1) % bits;
    for (size_t i = 0; i < LMB_NUMA_MASK_WORDS; i++)
        assert_int_equal(mask[i], i == w ? 1UL << b : 0UL);

    assert_int_equal(lmb_numa_mask(3, mask, &maxnode), 0);
    assert_int_equal(mask[0], 8UL);

    assert_int_equal(lmb_numa_mask(-1, mask, &maxnode), -1);
    assert_int_equal(lmb_numa_mask(LMB_MAX_NODES, mask, &maxnode), -1);
}

static void test_count(void **state)
{
    const int status[] = { 1, 1, 0, 1, -ENOENT, 2, 0, 0, 1, -EFAULT };
    struct lmb_numa_where w;

    (void)state;
    lmb_numa_count(status, 10, 1, &w);
    assert_int_equal(w.pages, 10);
    assert_int_equal(w.on_node, 4);
    assert_int_equal(w.elsewhere, 4);
    assert_int_equal(w.unknown, 2);
    assert_int_equal(w.other_node, 0);   /* three on node 0, one on node 2 */

    lmb_numa_count(status, 2, 1, &w);
    assert_int_equal(w.on_node, 2);
    assert_int_equal(w.elsewhere, 0);
    assert_int_equal(w.other_node, -1);

    lmb_numa_count(status, 0, 1, &w);
    assert_int_equal(w.pages, 0);
    assert_int_equal(w.on_node, 0);
}

static struct lmb_numa_where where_of(size_t pages, size_t on, size_t elsewhere, int other,
                                      const char *how)
{
    return (struct lmb_numa_where){ .pages = pages, .on_node = on, .elsewhere = elsewhere,
                                    .unknown = pages - on - elsewhere, .other_node = other,
                                    .how = how };
}

static void test_verdict(void **state)
{
    struct lmb_numa_where w;
    char why[200];

    (void)state;
    w = where_of(1000, 1000, 0, -1, "move_pages");
    assert_true(lmb_numa_fraction(&w) == 1.0);
    assert_true(lmb_numa_placement_ok(&w, 1, why, sizeof why));

    /* a few pages astray pass (LMB_NUMA_MIN_FRACTION), more do not */
    w = where_of(1000, 995, 5, 0, "move_pages");
    assert_true(lmb_numa_placement_ok(&w, 1, why, sizeof why));
    w = where_of(1000, 400, 600, 0, "move_pages");
    assert_false(lmb_numa_placement_ok(&w, 1, why, sizeof why));
    assert_non_null(strstr(why, "only 40.0% of the 1000 pages are on node 1"));
    assert_non_null(strstr(why, "60.0% elsewhere (most on node 0)"));

    w = where_of(1000, 900, 0, -1, "get_mempolicy");
    assert_false(lmb_numa_placement_ok(&w, 2, why, sizeof why));
    assert_non_null(strstr(why, "on node 2"));
    assert_non_null(strstr(why, "10.0% not known"));
    assert_null(strstr(why, "elsewhere"));

    /* not known at all: no fraction, never good enough */
    w = where_of(1000, 0, 0, -1, NULL);
    assert_true(lmb_numa_fraction(&w) < 0);
    assert_false(lmb_numa_placement_ok(&w, 0, why, sizeof why));
    assert_non_null(strstr(why, "not known"));
    w = where_of(8, 0, 0, -1, "move_pages");
    assert_true(lmb_numa_fraction(&w) < 0);

    /* a short buffer for the reason: cut, terminated */
    w = where_of(1000, 400, 600, 0, "move_pages");
    assert_false(lmb_numa_placement_ok(&w, 1, why, 12));
    assert_int_equal(strlen(why), 11);
}

static void test_take_fraction(void **state)
{
    struct lmb_record rec;
    struct lmb_result res;

    (void)state;
    memset(&res, 0, sizeof res);
    lmb_record_init(&rec, "lat_numa", "", LMB_UNIT_NS);
    lmb_result_fact_int(&res, "page_bytes", 4096);
    lmb_result_fact_int(&res, "mem_on_node_ppm", 998500);
    lmb_result_fact_int(&res, "huge_percent", 0);
    lmb_numa_take_fraction(&rec, &res);
    assert_int_equal(res.nfacts, 2);
    assert_string_equal(res.facts[0].key, "page_bytes");
    assert_string_equal(res.facts[1].key, "huge_percent");
    assert_int_equal(rec.nparams, 1);
    assert_string_equal(rec.params[0].key, "mem_on_node");
    assert_int_equal(rec.params[0].type, LMB_PARAM_DOUBLE);
    assert_true(rec.params[0].dval > 0.9984 && rec.params[0].dval < 0.9986);

    /* no such fact (the copy could not tell): no parameter */
    lmb_record_init(&rec, "lat_numa", "", LMB_UNIT_NS);
    lmb_numa_take_fraction(&rec, &res);
    assert_int_equal(rec.nparams, 0);
    assert_int_equal(res.nfacts, 2);
}

static void test_cpulist(void **state)
{
    const int a[] = { 0, 1, 2, 3, 8, 10, 11 };
    char buf[64];

    (void)state;
    lmb_numa_cpulist(a, 7, buf, sizeof buf);
    assert_string_equal(buf, "0-3,8,10-11");
    lmb_numa_cpulist(a, 1, buf, sizeof buf);
    assert_string_equal(buf, "0");
    lmb_numa_cpulist(a, 0, buf, sizeof buf);
    assert_string_equal(buf, "");
    lmb_numa_cpulist(a, 7, buf, 4);
    assert_int_equal(strlen(buf), 3);
}

/* Four CPUs, two a node; the process may use CPUs 0, 1 and 3. */
static void test_sched(void **state)
{
    struct lmb_topology *t = calloc(1, sizeof *t);
    struct lmb_sched *base = calloc(1, sizeof *base), *out = calloc(1, sizeof *out);
    int listed = -1;

    (void)state;
    assert_non_null(t);
    assert_non_null(base);
    assert_non_null(out);
    t->ncpus = 4;
    for (int i = 0; i < 4; i++)
        t->cpu[i] = (struct lmb_cpu_topo){ .cpu = i, .core = i, .package = i / 2, .node = i / 2,
                                           .sibling = -1, .core_first = i };
    t->nnodes = 2;
    t->nodes[0] = 0;
    t->nodes[1] = 1;
    base->policy = LMB_SCHED_UNIQUE;
    base->ncpus = 3;
    base->cpus[0] = 0;
    base->cpus[1] = 1;
    base->cpus[2] = 3;

    assert_int_equal(lmb_numa_sched(t, 0, base, out, &listed), 2);
    assert_int_equal(listed, 2);
    assert_int_equal(out->policy, LMB_SCHED_CUSTOM);
    assert_int_equal(out->ncustom, 2);
    assert_int_equal(lmb_sched_cpu_for(out, 0, 0, 1), 0);
    assert_int_equal(lmb_sched_cpu_for(out, 1, 0, 1), 1);
    assert_int_equal(lmb_sched_cpu_for(out, 2, 0, 1), 0);   /* copies round-robin */

    assert_int_equal(lmb_numa_sched(t, 1, base, out, &listed), 1);
    assert_int_equal(out->custom[0], 3);                     /* CPU 2 is not allowed */

    /* none of the node's CPUs usable: 0, out untouched */
    base->ncpus = 2;
    out->ncustom = 77;
    assert_int_equal(lmb_numa_sched(t, 1, base, out, &listed), 0);
    assert_int_equal(listed, 2);
    assert_int_equal(out->ncustom, 77);
    /* a node the topology does not have */
    assert_int_equal(lmb_numa_sched(t, 5, base, out, &listed), 0);
    assert_int_equal(listed, 0);
    free(t);
    free(base);
    free(out);
}

/* Pinning this thread to a node of a topology made from its own affinity:
 * the CPUs it may use as node 0, one it may not as node 1. */
static void test_pin_node(void **state)
{
    struct lmb_topology *t = calloc(1, sizeof *t);
    cpu_set_t before, after;
    char err[200];
    int n = 0, missing = -1;

    (void)state;
    assert_non_null(t);
    assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
    for (int c = 0; c < CPU_SETSIZE && n < LMB_MAX_CPUS - 1; c++) {
        if (CPU_ISSET(c, &before))
            t->cpu[n++] = (struct lmb_cpu_topo){ .cpu = c, .node = 0, .core = -1,
                                                 .package = -1, .sibling = -1,
                                                 .core_first = -1 };
        else if (missing < 0)
            missing = c;
    }
    if (missing >= 0)
        t->cpu[n++] = (struct lmb_cpu_topo){ .cpu = missing, .node = 1, .core = -1,
                                             .package = -1, .sibling = -1, .core_first = -1 };
    t->ncpus = n;
    t->nnodes = 3;
    t->nodes[0] = 0;
    t->nodes[1] = 1;
    t->nodes[2] = 2;

    assert_int_equal(lmb_numa_pin_node(t, 0, err, sizeof err), CPU_COUNT(&before));
    assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&before, &after));
    if (missing >= 0) {
        assert_int_equal(lmb_numa_pin_node(t, 1, err, sizeof err), -1);
        assert_non_null(strstr(err, "none of node 1's CPUs"));
    }
    assert_int_equal(lmb_numa_pin_node(t, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "node 2 has no CPUs"));
    assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&before, &after));
    free(t);
}

/* This kernel's node 0, where it binds memory at all (a container may forbid
 * mbind; a kernel without NUMA has none). */
static void test_bind_here(void **state)
{
    const char *why = lmb_numa_supported();
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = 64 * pg;
    struct lmb_numa_where w;
    char err[256];
    char *p;

    (void)state;
    if (why != NULL) {
        assert_true(strlen(why) > 0);
        skip();
    }
    p = lmb_numa_alloc(len, 0, 7, &w, err, sizeof err);
    assert_non_null(p);
    assert_int_equal(p[0], 7);
    assert_int_equal(p[len - 1], 7);
    assert_int_equal(w.pages, 64);
    assert_non_null(w.how);
    assert_int_equal(w.on_node, 64);
    assert_true(lmb_numa_fraction(&w) == 1.0);
    assert_true(lmb_numa_placement_ok(&w, 0, err, sizeof err));
    /* asked about another node, the same pages are all elsewhere */
    assert_int_equal(lmb_numa_locate(p, len, 1, &w, err, sizeof err), 0);
    assert_int_equal(w.on_node, 0);
    assert_int_equal(w.elsewhere, 64);
    assert_int_equal(w.other_node, 0);
    assert_false(lmb_numa_placement_ok(&w, 1, err, sizeof err));
    assert_non_null(strstr(err, "only 0.0% of the 64 pages are on node 1"));
    lmb_numa_free(p, len);

    /* the last node the mask can name: not online on any machine here */
    p = lmb_numa_alloc(len, LMB_MAX_NODES - 1, 0, &w, err, sizeof err);
    assert_null(p);
    assert_non_null(strstr(err, "mbind to node 63"));
    assert_non_null(strstr(err, "Invalid argument"));
    p = lmb_numa_alloc(len, LMB_MAX_NODES, 0, &w, err, sizeof err);
    assert_null(p);
    assert_non_null(strstr(err, "outside"));
    assert_null(lmb_numa_alloc(0, 0, 0, &w, err, sizeof err));

    /* the running CPU's node is one the kernel has */
    int n = lmb_numa_current_node();
    assert_true(n >= -1 && n < LMB_MAX_NODES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mask),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_verdict),
        cmocka_unit_test(test_take_fraction),
        cmocka_unit_test(test_cpulist),
        cmocka_unit_test(test_sched),
        cmocka_unit_test(test_pin_node),
        cmocka_unit_test(test_bind_here),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
