// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/chase.c: every order makes one cycle through every
 * element, the window order stays inside a window until it is done, chains
 * start evenly spaced, and the loops move each chain as many steps as they say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/chase.h"

/* Follows the cycle from start; checks that it visits each of the count
 * elements exactly once before coming back, each pointer-aligned inside
 * [base, base + size). Returns the visit order as element indices (malloc'd). */
static size_t *walk(char *base, size_t size, size_t stride, void **start, size_t count)
{
    size_t *order = calloc(count, sizeof *order);
    unsigned char *seen = calloc(size / stride, 1);
    void **p = start;

    assert_non_null(order);
    assert_non_null(seen);
    for (size_t i = 0; i < count; i++) {
        char *q = (char *)p;
        assert_true(q >= base && q < base + size);
        assert_int_equal((size_t)(q - base) % stride, 0);
        size_t e = (size_t)(q - base) / stride;
        if (seen[e])
            fail_msg("element %zu visited twice (step %zu of %zu)", e, i, count);
        seen[e] = 1;
        order[i] = e;
        p = (void **)*p;
    }
    assert_ptr_equal(p, start);
    free(seen);
    return order;
}

static char *buffer(size_t size)
{
    char *b = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
    assert_non_null(b);
    memset(b, 0, size);
    return b;
}

static void test_backward(void **state)
{
    struct lmb_chase c;
    char err[128];
    size_t size = 64 * 100;
    char *b = buffer(size);

    (void)state;
    assert_int_equal(lmb_chase_build(&c, b, size, 64, LMB_CHASE_BACKWARD, 0, 1, 1, err, sizeof err), 0);
    assert_int_equal(c.count, 100);
    size_t *o = walk(b, size, 64, c.start[0], c.count);
    assert_int_equal(o[0], 0);
    for (size_t i = 1; i < 100; i++)
        assert_int_equal(o[i], 100 - i);
    free(o);
    free(b);
}

/* lat_mem_rd's default chain at its default-sized stride: in the one buffer it
 * was given, every element holds the address one stride below its own, the
 * first the last's; and lmb_chase_walk (its loop) follows exactly 256
 * elements an iteration, one stride back each. */
static void test_backward_layout_walk(void **state)
{
    struct lmb_chase c;
    char err[128];
    size_t stride = 128, size = 3 * 4096 + 5 * stride, count = size / stride;
    char *b = buffer(size);

    (void)state;
    assert_int_equal(lmb_chase_build(&c, b, size, stride, LMB_CHASE_BACKWARD, 0, 1, 1, err,
                                     sizeof err), 0);
    assert_int_equal(c.count, count);
    assert_ptr_equal(c.start[0], b);
    for (size_t e = 0; e < count; e++) {
        char *next = *(char **)(void *)(b + e * stride);
        assert_ptr_equal(next, b + (e > 0 ? e - 1 : count - 1) * stride);
    }
    /* Nothing but the elements was written. */
    for (size_t off = 0; off < size; off++)
        if (off % stride >= sizeof(void *))
            assert_int_equal(b[off], 0);
    for (uint64_t n = 1; n <= 3; n++) {
        c.cur[0] = c.start[0];
        lmb_chase_walk(n, &c);
        size_t back = (size_t)(n * 256 % count);
        assert_ptr_equal(c.cur[0], b + (back == 0 ? 0 : count - back) * stride);
    }
    free(b);
}

static void test_random(void **state)
{
    struct lmb_chase c, d;
    char err[128];
    size_t size = 1 << 16;
    char *b = buffer(size), *b2 = buffer(size);

    (void)state;
    assert_int_equal(lmb_chase_build(&c, b, size, 64, LMB_CHASE_RANDOM, 0, 9, 1, err, sizeof err), 0);
    assert_int_equal(c.count, 1024);
    size_t *o = walk(b, size, 64, c.start[0], c.count);
    /* Not the backward or forward order: few consecutive neighbours. */
    size_t adjacent = 0;
    for (size_t i = 1; i < c.count; i++)
        if (o[i] == o[i - 1] + 1 || o[i] + 1 == o[i - 1])
            adjacent++;
    assert_true(adjacent < 20);
    /* The same seed gives the same chain. */
    assert_int_equal(lmb_chase_build(&d, b2, size, 64, LMB_CHASE_RANDOM, 0, 9, 1, err, sizeof err), 0);
    size_t *o2 = walk(b2, size, 64, d.start[0], d.count);
    assert_memory_equal(o, o2, c.count * sizeof *o);
    free(o);
    free(o2);
    free(b);
    free(b2);
}

static void test_window(void **state)
{
    struct lmb_chase c;
    char err[128];
    /* 10 windows of 4 KiB and a partial one of 1 KiB, 64-byte elements. */
    size_t size = 4096 * 10 + 1024, per = 64;
    char *b = buffer(size + 4096);

    (void)state;
    assert_int_equal(lmb_chase_build(&c, b, size, 64, LMB_CHASE_WINDOW, 4096, 3, 1, err, sizeof err), 0);
    assert_int_equal(c.count, size / 64);
    size_t *o = walk(b, size, 64, c.start[0], c.count);
    /* The visit runs through whole windows: each window's elements are
     * consecutive in the order, and in a shuffled order inside it. */
    size_t i = 0, windows = 0, in_order = 0;
    while (i < c.count) {
        size_t w = o[i] / per, n = w == 10 ? 16 : per;
        for (size_t k = 0; k < n; k++) {
            assert_true(i + k < c.count);
            assert_int_equal(o[i + k] / per, w);
            if (k > 0 && o[i + k] == o[i + k - 1] + 1)
                in_order++;
        }
        i += n;
        windows++;
    }
    assert_int_equal(windows, 11);
    assert_true(in_order < 40);
    free(o);
    free(b);
}

static void test_chains_spaced(void **state)
{
    struct lmb_chase c;
    char err[128];
    size_t size = 64 * 1000;
    char *b = buffer(size);

    (void)state;
    assert_int_equal(lmb_chase_build(&c, b, size, 64, LMB_CHASE_RANDOM, 0, 5, 4, err, sizeof err), 0);
    assert_int_equal(c.nchains, 4);
    size_t *o = walk(b, size, 64, c.start[0], c.count);
    for (unsigned k = 1; k < 4; k++) {
        size_t e = (size_t)((char *)c.start[k] - b) / 64;
        assert_int_equal(o[k * 250], e);
    }
    free(o);
    free(b);
}

/* Each loop moves each chain nchains * steps loads per iteration: after one
 * iteration chain j is `steps` elements further along the cycle. */
static void test_loops(void **state)
{
    char err[128];
    size_t size = 64 * 4099;   /* a prime count: no chain ends where it began */
    char *b = buffer(size);

    (void)state;
    for (unsigned k = 1; k <= LMB_CHASE_MAX_CHAINS; k++) {
        struct lmb_chase c;
        assert_int_equal(lmb_chase_build(&c, b, size, 64, LMB_CHASE_RANDOM, 0, k, k, err, sizeof err), 0);
        lmb_chase_fn f = lmb_chase_loop(k);
        assert_non_null(f);
        unsigned steps = lmb_chase_steps(k);
        f(3, &c);
        for (unsigned j = 0; j < k; j++) {
            void **p = c.start[j];
            for (unsigned s = 0; s < 3 * steps; s++)
                p = (void **)*p;
            assert_ptr_equal(c.cur[j], p);
        }
    }
    assert_null(lmb_chase_loop(0));
    assert_null(lmb_chase_loop(LMB_CHASE_MAX_CHAINS + 1));
    assert_int_equal(lmb_chase_steps(1), 256);
    free(b);
}

/* A kept order places any number of chains as a fresh build would. */
static void test_keep_restart(void **state)
{
    struct lmb_chase a, b;
    char err[128];
    size_t size = 64 * 1000;
    char *x = buffer(size), *y = buffer(size);
    uint32_t *order = NULL;

    (void)state;
    assert_int_equal(lmb_chase_build_keep(&a, x, size, 64, LMB_CHASE_WINDOW, 4096, 11, 1, &order,
                                          err, sizeof err), 0);
    assert_non_null(order);
    for (unsigned k = 1; k <= LMB_CHASE_MAX_CHAINS; k++) {
        assert_int_equal(lmb_chase_build(&b, y, size, 64, LMB_CHASE_WINDOW, 4096, 11, k, err,
                                         sizeof err), 0);
        lmb_chase_restart(&a, x, 64, order, k);
        assert_int_equal(a.nchains, k);
        for (unsigned j = 0; j < k; j++) {
            assert_int_equal((char *)a.start[j] - x, (char *)b.start[j] - y);
            assert_ptr_equal(a.cur[j], a.start[j]);
        }
    }
    free(order);
    free(x);
    free(y);
}

static void test_link(void **state)
{
    struct lmb_chase c;
    char *b = buffer(8192);
    const size_t off[] = { 4096 + 64, 128, 8192 - 8, 0 };

    (void)state;
    lmb_chase_link(&c, b, off, 4);
    assert_int_equal(c.count, 4);
    void **p = c.start[0];
    assert_ptr_equal(p, b + off[0]);
    for (size_t i = 1; i <= 4; i++) {
        p = (void **)*p;
        assert_ptr_equal(p, b + off[i % 4]);
    }
    free(b);
}

static void test_bad(void **state)
{
    struct lmb_chase c;
    char err[128];
    char *b = buffer(4096);

    (void)state;
    err[0] = '\0';
    assert_int_equal(lmb_chase_build(&c, b, 4096, 12, LMB_CHASE_RANDOM, 0, 1, 1, err, sizeof err), -1);
    assert_true(err[0] != '\0');
    assert_int_equal(lmb_chase_build(&c, b, 4096, 4, LMB_CHASE_RANDOM, 0, 1, 1, err, sizeof err), -1);
    assert_int_equal(lmb_chase_build(&c, b, 32, 64, LMB_CHASE_RANDOM, 0, 1, 1, err, sizeof err), -1);
    assert_int_equal(lmb_chase_build(&c, b, 4096, 64, LMB_CHASE_WINDOW, 100, 1, 1, err, sizeof err), -1);
    assert_int_equal(lmb_chase_build(&c, b, 4096, 64, LMB_CHASE_RANDOM, 0, 1, 0, err, sizeof err), -1);
    assert_int_equal(lmb_chase_build(&c, b, 4096, 64, LMB_CHASE_RANDOM, 0, 1, 17, err, sizeof err), -1);
    assert_int_equal(lmb_chase_build(&c, b, 128, 64, LMB_CHASE_RANDOM, 0, 1, 3, err, sizeof err), -1);
    /* The smallest chain: one element pointing at itself. */
    assert_int_equal(lmb_chase_build(&c, b, 64, 64, LMB_CHASE_RANDOM, 0, 1, 1, err, sizeof err), 0);
    assert_ptr_equal(*c.start[0], (void *)c.start[0]);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backward),
        cmocka_unit_test(test_backward_layout_walk),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_chains_spaced),
        cmocka_unit_test(test_loops),
        cmocka_unit_test(test_keep_restart),
        cmocka_unit_test(test_link),
        cmocka_unit_test(test_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
