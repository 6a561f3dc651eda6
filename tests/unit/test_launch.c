// SPDX-License-Identifier: MIT
/* Unit tests of --launches: the launch pool and its pure computations
 * (src/lib/launchpool.c), the passing on of launches' messages
 * (src/lib/launch.c) and the merge of a pool into a record by lmb_report_add
 * (src/lib/report.c), on synthetic samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/launch.h"
#include "lib/launchpool.h"
#include "lib/report.h"
#include "lib/report_json.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void key_of(char *buf, size_t len, const char *bench, const char *cs, const char *k1,
                   const char *v1, const char *k2, const char *v2)
{
    const char *keys[2] = { k1, k2 }, *vals[2] = { v1, v2 };
    assert_int_equal(lmb_launch_key(buf, len, bench, cs, keys, vals, k2 ? 2 : (k1 ? 1 : 0)), 0);
}

/* The identity: sorted parameters, the facts of a launch left out. */
static void test_key(void **state)
{
    char a[256], b[256], c[256], d[64];

    (void)state;
    key_of(a, sizeof a, "bw_mem", "rd", "size", "1048576", "stride", "8");
    key_of(b, sizeof b, "bw_mem", "rd", "stride", "8", "size", "1048576");
    assert_string_equal(a, b);
    key_of(c, sizeof c, "bw_mem", "rd", "size", "1048576", "page_bytes", "4096");
    key_of(b, sizeof b, "bw_mem", "rd", "size", "1048576", NULL, NULL);
    assert_string_equal(c, b);
    key_of(c, sizeof c, "bw_mem", "wr", "size", "1048576", NULL, NULL);
    assert_string_not_equal(c, b);
    assert_false(lmb_launch_identity_param("huge_percent"));
    assert_false(lmb_launch_identity_param("faults"));
    assert_true(lmb_launch_identity_param("ends"));
    lmb_launch_key_describe(a, d, sizeof d);
    assert_string_equal(d, "rd (size=1048576 stride=8)");
    {
        const char *k[1] = { "x" }, *v[1] = { "a very long value that does not fit" };
        assert_int_equal(lmb_launch_key(d, 16, "bench", "case", k, v, 1), -1);
    }
}

static void test_list_text(void **state)
{
    const unsigned l[] = { 1, 2, 3, 5, 7, 8 };
    char buf[64];

    (void)state;
    lmb_launch_list_text(l, ARRAY_LEN(l), buf, sizeof buf);
    assert_string_equal(buf, "1-3, 5, 7-8");
    lmb_launch_list_text(l, 1, buf, sizeof buf);
    assert_string_equal(buf, "1");
}

/* Pooled samples: the ok launches' samples in launch order; the spread
 * between launches: their medians and the CV of those. */
static void test_pool_and_between(void **state)
{
    double s1[] = { 1, 2, 3 }, s2[] = { 10, 20 }, s3[] = { 4, 5, 6 };
    struct lmb_launch l[3] = {
        { .status = LMB_OK, .samples = s1, .n = 3 },
        { .status = LMB_FAILED, .samples = s2, .n = 2 },
        { .status = LMB_OK, .samples = s3, .n = 3 },
    };
    struct lmb_launches ls = { 3, l };
    struct lmb_between b;
    double *pool;
    size_t n;
    char warn[200];

    (void)state;
    assert_int_equal(lmb_launches_pool(&ls, &pool, &n), 0);
    assert_int_equal(n, 6);
    for (size_t i = 0; i < 3; i++) {
        assert_true(pool[i] == s1[i]);
        assert_true(pool[3 + i] == s3[i]);
    }
    free(pool);
    lmb_launches_between(&ls, &b);
    assert_int_equal(b.n, 2);
    assert_true(b.medians[0] == 2 && b.medians[1] == 5);
    /* mean 3.5, sample stdev 2.1213...: CV 0.6061 */
    assert_true(fabs(b.cv - sqrt(4.5) / 3.5) < 1e-12);
    assert_true(lmb_launches_warning(&ls, warn, sizeof warn));
    assert_string_equal(warn, "launch 2 of 3 failed: (no reason given)");

    /* One ok launch: no spread. None: nothing pooled. */
    l[2].status = LMB_TIMEOUT;
    lmb_launches_between(&ls, &b);
    assert_int_equal(b.n, 1);
    assert_true(isnan(b.cv));
    l[0].status = LMB_FAILED;
    assert_int_equal(lmb_launches_pool(&ls, &pool, &n), 0);
    assert_null(pool);
    assert_int_equal(n, 0);
}

/* Launches with the same reason are said in one clause. */
static void test_warning_groups(void **state)
{
    struct lmb_launch l[5];
    struct lmb_launches ls = { 5, l };
    char warn[200];

    (void)state;
    memset(l, 0, sizeof l);
    for (int i = 0; i < 5; i++)
        l[i].status = LMB_OK;
    assert_false(lmb_launches_warning(&ls, warn, sizeof warn));
    l[0].status = l[1].status = LMB_FAILED;
    strcpy(l[0].reason, "no file");
    strcpy(l[1].reason, "no file");
    l[3].status = LMB_TIMEOUT;
    strcpy(l[3].reason, "too slow");
    l[4].status = LMB_FAILED;   /* the last launch: the record's own status */
    assert_true(lmb_launches_warning(&ls, warn, sizeof warn));
    assert_string_equal(warn, "launches 1-2 of 5 failed: no file; launch 4 of 5 timeout: too slow");
}

/* The pool: entries by key, duplicates kept in order, a record missing from a
 * launch and a lost launch said as failed outcomes. */
static void test_pool_take(void **state)
{
    struct lmb_launch_pool p;
    struct lmb_launches ls;
    double a[] = { 1, 2 }, b[] = { 3 }, own_s[] = { 9 };
    struct lmb_launch own = { .status = LMB_OK, .samples = own_s, .n = 1 };

    (void)state;
    assert_int_equal(lmb_launch_pool_init(&p, 4), 0);
    assert_int_equal(lmb_launch_pool_add(&p, 1, "k", LMB_OK, NULL, a, 2, 7), 0);
    assert_int_equal(lmb_launch_pool_add(&p, 1, "k", LMB_OK, NULL, b, 1, 8), 0);   /* a second "k" */
    assert_int_equal(lmb_launch_pool_add(&p, 2, "k", LMB_FAILED, "bad", NULL, 0, 0), 0);
    assert_int_equal(lmb_launch_pool_add(&p, 2, "other", LMB_OK, NULL, b, 1, 0), 0);
    assert_int_equal(lmb_launch_pool_add(&p, 4, "k", LMB_OK, NULL, b, 1, 0), -1);   /* not earlier */
    strcpy(p.lost[2], "killed by signal 9");
    assert_int_equal(p.n, 3);

    assert_int_equal(lmb_launch_pool_take(&p, "k", &own, &ls), 0);
    assert_int_equal(ls.k, 4);
    assert_int_equal(ls.l[0].status, LMB_OK);
    assert_int_equal(ls.l[0].n, 2);
    assert_int_equal(ls.l[0].iters, 7);
    assert_int_equal(ls.l[1].status, LMB_FAILED);
    assert_string_equal(ls.l[1].reason, "bad");
    assert_int_equal(ls.l[2].status, LMB_FAILED);
    assert_string_equal(ls.l[2].reason, "killed by signal 9");
    assert_int_equal(ls.l[3].n, 1);
    assert_true(ls.l[3].samples != own_s && ls.l[3].samples[0] == 9);
    lmb_launches_free(&ls);

    /* The second "k": launch 1's second record; launch 2 did not report it. */
    assert_int_equal(lmb_launch_pool_take(&p, "k", &own, &ls), 0);
    assert_int_equal(ls.l[0].n, 1);
    assert_true(ls.l[0].samples[0] == 3);
    assert_int_equal(ls.l[1].status, LMB_FAILED);
    assert_string_equal(ls.l[1].reason, "this launch did not report this record");
    lmb_launches_free(&ls);

    /* A key no earlier launch had. */
    assert_int_equal(lmb_launch_pool_take(&p, "new", &own, &ls), 0);
    assert_int_equal(ls.l[0].status, LMB_FAILED);
    assert_int_equal(ls.l[3].status, LMB_OK);
    lmb_launches_free(&ls);
    assert_false(p.e[2].taken);   /* "other": only earlier launches measured it */
    lmb_launch_pool_free(&p);
}

/* The messages of earlier launches: each distinct line once, with the
 * launches that said it, none the last launch said too. */
struct seen {
    char lines[8][100];
    char who[8][40];
    int n;
};

static void collect(const char *line, const unsigned *launches, unsigned n, void *arg)
{
    struct seen *s = arg;

    assert_true(s->n < 8);
    snprintf(s->lines[s->n], sizeof s->lines[s->n], "%s", line);
    lmb_launch_list_text(launches, n, s->who[s->n], sizeof s->who[s->n]);
    s->n++;
}

static void test_distinct_lines(void **state)
{
    char t1[] = "cmd: warning: A\ncmd: warning: B\ncmd: warning: A\n";
    char t2[] = "cmd: warning: B\ncmd: warning: C";
    char *texts[3] = { t1, NULL, t2 };
    struct seen s = { .n = 0 };

    (void)state;
    assert_int_equal(lmb_launch_distinct_lines(texts, 3, "cmd: warning: A\n", collect, &s), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.lines[0], "cmd: warning: B");
    assert_string_equal(s.who[0], "1, 3");
    assert_string_equal(s.lines[1], "cmd: warning: C");
    assert_string_equal(s.who[1], "3");
}

/* lmb_report_add with a pool: values are the ok launches' samples then the
 * record's own (in the record's unit), the headline is their median, the
 * classic line shows it, and the record keeps every launch. */
static void test_report_merge(void **state)
{
    struct lmb_launch_pool p;
    struct lmb_report rep;
    struct lmb_streams io = { 0 };
    struct lmb_record r;
    struct lmb_result res;
    double l1[] = { 1.0, 1.1 }, l2[] = { 5.0 };
    double own_ns[] = { 2000.0, 3000.0 };   /* 2 and 3 us */
    char key[256], *classic = NULL, *msgs = NULL;
    size_t classic_len = 0, msgs_len = 0;
    FILE *cf = open_memstream(&classic, &classic_len);
    FILE *mf = open_memstream(&msgs, &msgs_len);

    (void)state;
    assert_non_null(cf);
    assert_non_null(mf);
    io.classic = cf;
    io.messages = mf;
    io.json = tmpfile();
    assert_non_null(io.json);
    lmb_report_open(&rep, "bench", &io);
    assert_int_equal(lmb_launch_pool_init(&p, 3), 0);
    rep.pool = &p;
    key_of(key, sizeof key, "bench", "case", "size", "64", NULL, NULL);
    assert_int_equal(lmb_launch_pool_add(&p, 1, key, LMB_OK, NULL, l1, 2, 10), 0);
    assert_int_equal(lmb_launch_pool_add(&p, 2, key, LMB_FAILED, "lost it", l2, 1, 10), 0);

    lmb_record_init(&r, "bench", "case", LMB_UNIT_US);
    lmb_record_param_int(&r, "size", 64);
    r.classic = LMB_CLASSIC_LABEL_US;
    snprintf(r.label, sizeof r.label, "Thing");
    memset(&res, 0, sizeof res);
    res.status = LMB_OK;
    res.n = 2;
    res.samples = malloc(sizeof own_ns);
    assert_non_null(res.samples);
    memcpy(res.samples, own_ns, sizeof own_ns);
    res.iters = 10;
    lmb_result_fact_int(&res, "page_bytes", 4096);   /* a fact: not part of the identity */
    lmb_report_add(&rep, &r, &res);
    fflush(cf);
    fflush(mf);

    assert_int_equal(rep.nrecords, 1);
    {
        const struct lmb_record *k = &rep.records[0];
        assert_int_equal(k->result.status, LMB_OK);
        assert_int_equal(k->result.n, 4);
        assert_true(k->values[0] == 1.0 && k->values[1] == 1.1);
        assert_true(k->values[2] == 2.0 && k->values[3] == 3.0);
        assert_true(fabs(k->result.samples[1] - 1100.0) < 1e-9);
        assert_int_equal(k->stats.n, 4);
        assert_true(fabs(k->value - 1.55) < 1e-12);   /* median of 1, 1.1, 2, 3 */
        assert_non_null(k->launches);
        assert_int_equal(k->launches->k, 3);
        assert_int_equal(k->launches->l[1].status, LMB_FAILED);
        assert_int_equal(k->launches->l[2].n, 2);
        assert_int_equal(k->result.nwarnings, 1);
        assert_string_equal(k->result.warnings[0], "launch 2 of 3 failed: lost it");
    }
    assert_string_equal(classic, "Thing: 1.5500 microseconds\n");
    assert_non_null(strstr(msgs, "warning: launch 2 of 3 failed: lost it"));

#ifdef LMB_HAVE_JANSSON
    /* The JSON record: launches and between_launches as results-schema.md says. */
    {
        json_t *j = lmb_record_json(&rep.records[0]), *ls, *bl;
        assert_non_null(j);
        ls = json_object_get(j, "launches");
        assert_int_equal(json_array_size(ls), 3);
        assert_int_equal(json_integer_value(json_object_get(json_array_get(ls, 0), "launch")), 1);
        assert_string_equal(json_string_value(json_object_get(json_array_get(ls, 1), "status")),
                            "failed");
        assert_int_equal(json_array_size(json_object_get(json_array_get(ls, 2), "samples")), 2);
        assert_true(json_is_object(json_object_get(json_array_get(ls, 0), "stats")));
        assert_int_equal(json_array_size(json_object_get(j, "samples")), 4);
        bl = json_object_get(j, "between_launches");
        assert_int_equal(json_integer_value(json_object_get(bl, "n")), 2);
        assert_int_equal(json_array_size(json_object_get(bl, "medians")), 2);
        assert_true(json_is_real(json_object_get(bl, "cv")));
        json_decref(j);
    }
#endif
    lmb_report_close(&rep);
    lmb_launch_pool_free(&p);
    fclose(cf);
    fclose(mf);
    fclose(io.json);
    free(classic);
    free(msgs);
}

/* The last launch failed while earlier ones were ok: the record keeps its
 * failure, with the earlier samples pooled for inspection. */
static void test_report_own_failed(void **state)
{
    struct lmb_launch_pool p;
    struct lmb_report rep;
    struct lmb_streams io = { 0 };
    struct lmb_record r;
    struct lmb_result res;
    double l1[] = { 1.0 };
    char key[256];

    (void)state;
    io.json = tmpfile();
    assert_non_null(io.json);
    lmb_report_open(&rep, "bench", &io);
    assert_int_equal(lmb_launch_pool_init(&p, 2), 0);
    rep.pool = &p;
    key_of(key, sizeof key, "bench", "case", NULL, NULL, NULL, NULL);
    assert_int_equal(lmb_launch_pool_add(&p, 1, key, LMB_OK, NULL, l1, 1, 10), 0);
    lmb_record_init(&r, "bench", "case", LMB_UNIT_US);
    memset(&res, 0, sizeof res);
    lmb_result_set_status(&res, LMB_FAILED, "broke");
    lmb_report_add(&rep, &r, &res);
    assert_int_equal(rep.records[0].result.status, LMB_FAILED);
    assert_string_equal(rep.records[0].result.reason, "broke");
    assert_int_equal(rep.records[0].result.n, 1);
    assert_int_equal(lmb_report_exit_status(&rep), LMB_EXIT_FAILED);
#ifdef LMB_HAVE_JANSSON
    {
        json_t *j = lmb_record_json(&rep.records[0]);
        assert_non_null(j);
        assert_true(json_is_null(json_object_get(j, "value")));
        json_decref(j);
    }
#endif
    lmb_report_close(&rep);
    lmb_launch_pool_free(&p);
    fclose(io.json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key),
        cmocka_unit_test(test_list_text),
        cmocka_unit_test(test_pool_and_between),
        cmocka_unit_test(test_warning_groups),
        cmocka_unit_test(test_pool_take),
        cmocka_unit_test(test_distinct_lines),
        cmocka_unit_test(test_report_merge),
        cmocka_unit_test(test_report_own_failed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
