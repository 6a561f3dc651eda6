// SPDX-License-Identifier: MIT
/* Unit tests of the --pages warnings of src/lib/mem.c: a result whose buffer
 * is not on the pages asked for says so, whatever its status but skipped,
 * and says nothing when the backing is unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/mem.h"
#include "lib/result.h"

static void fresh(struct lmb_result *r, enum lmb_status st)
{
    memset(r, 0, sizeof *r);
    r->status = st;
}

static void test_thp_short(void **state)
{
    struct lmb_result r;
    char want[128];

    (void)state;
    snprintf(want, sizeof want, "asked for --pages thp; 0%% of the buffer is on huge pages, "
             "the rest on %ld KiB pages", sysconf(_SC_PAGESIZE) / 1024);
    fresh(&r, LMB_OK);
    lmb_pages_warn_backing(&r, LMB_PAGES_HUGE, 0, 4096);
    assert_int_equal(r.nwarnings, 1);
    assert_non_null(strstr(r.warnings[0], want));

    /* A failed result on the wrong pages says so too: they may be why. */
    fresh(&r, LMB_FAILED);
    lmb_pages_warn_backing(&r, LMB_PAGES_HUGE, 62, 4096);
    assert_int_equal(r.nwarnings, 1);
    assert_non_null(strstr(r.warnings[0], "62% of the buffer is on huge pages"));

    /* 2m asked and obtained: nothing to say. */
    fresh(&r, LMB_OK);
    lmb_pages_warn_backing(&r, LMB_PAGES_2M, 100, 2 * 1024 * 1024);
    assert_int_equal(r.nwarnings, 0);
}

static void test_4k_on_huge(void **state)
{
    struct lmb_result r;

    (void)state;
    fresh(&r, LMB_OK);
    lmb_pages_warn_backing(&r, LMB_PAGES_4K, 100, 2 * 1024 * 1024);
    assert_int_equal(r.nwarnings, 1);
    assert_string_equal(r.warnings[0], "asked for --pages 4k; 100% of the buffer is on huge "
                        "pages (2048 KiB pages mostly)");
    fresh(&r, LMB_OK);
    lmb_pages_warn_backing(&r, LMB_PAGES_4K, 0, 4096);
    assert_int_equal(r.nwarnings, 0);
}

static void test_unknown_and_skipped(void **state)
{
    struct lmb_result r;

    (void)state;
    fresh(&r, LMB_OK);
    lmb_pages_warn_backing(&r, LMB_PAGES_HUGE, -1, 0);   /* smaps unread */
    assert_int_equal(r.nwarnings, 0);
    fresh(&r, LMB_SKIPPED);
    lmb_pages_warn_backing(&r, LMB_PAGES_HUGE, 0, 4096);
    assert_int_equal(r.nwarnings, 0);
}

/* lmb_pages_check reads the backing from the result's facts, on ok results. */
static void test_check_facts(void **state)
{
    struct lmb_result r;

    (void)state;
    fresh(&r, LMB_OK);
    snprintf(r.facts[0].key, sizeof r.facts[0].key, "huge_percent");
    r.facts[0].ival = 40;
    snprintf(r.facts[1].key, sizeof r.facts[1].key, "page_bytes");
    r.facts[1].ival = 4096;
    r.nfacts = 2;
    lmb_pages_check(&r, LMB_PAGES_HUGE);
    assert_int_equal(r.nwarnings, 1);
    assert_non_null(strstr(r.warnings[0], "asked for --pages thp; 40% of the buffer"));
    r.nwarnings = 0;
    r.nfacts = 0;
    lmb_pages_check(&r, LMB_PAGES_HUGE);
    assert_int_equal(r.nwarnings, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thp_short),
        cmocka_unit_test(test_4k_on_huge),
        cmocka_unit_test(test_unknown_and_skipped),
        cmocka_unit_test(test_check_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
