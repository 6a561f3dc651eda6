// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/text.c: lmb_escape, which shows a user's string whole
 * in an output line with its control bytes escaped, cut only where the buffer
 * ends (lmb_quote's limits are for messages). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/text.h"

static void test_escape_plain(void **state)
{
    char buf[256];

    (void)state;
    assert_string_equal(lmb_escape("Pagefaults on /tmp/x y", buf, sizeof buf),
                        "Pagefaults on /tmp/x y");
    assert_string_equal(lmb_escape("", buf, sizeof buf), "");
    /* A backslash and UTF-8 pass as they are. */
    assert_string_equal(lmb_escape("a\\b \xc3\xa9", buf, sizeof buf), "a\\b \xc3\xa9");
}

static void test_escape_control(void **state)
{
    char buf[256];

    (void)state;
    assert_string_equal(lmb_escape("a\033[31mred", buf, sizeof buf), "a\\x1b[31mred");
    assert_string_equal(lmb_escape("\t\n\x7f", buf, sizeof buf), "\\x09\\x0a\\x7f");
}

static void test_escape_whole(void **state)
{
    char in[200], buf[256];

    (void)state;
    /* Longer than lmb_quote's 64 bytes: kept whole. */
    memset(in, 'x', sizeof in - 1);
    in[sizeof in - 1] = '\0';
    assert_string_equal(lmb_escape(in, buf, sizeof buf), in);
}

static void test_escape_cut(void **state)
{
    char buf[8];

    (void)state;
    /* Cut where the buffer ends, never inside an escape, always terminated. */
    assert_string_equal(lmb_escape("abcdefghij", buf, sizeof buf), "abcdefg");
    assert_string_equal(lmb_escape("abcd\033", buf, sizeof buf), "abcd");
    assert_string_equal(lmb_escape("abc\033", buf, sizeof buf), "abc\\x1b");
    assert_string_equal(lmb_escape("x", buf, 1), "");
    assert_string_equal(lmb_escape(NULL, buf, sizeof buf), "(null)");
}

/* A shell word: single quotes, a quote inside as '\'', never truncated. */
static void test_shell_quote(void **state)
{
    char out[32];

    (void)state;
    assert_int_equal(lmb_shell_quote("/usr/bin/lmbench", out, sizeof out), 0);
    assert_string_equal(out, "'/usr/bin/lmbench'");
    assert_int_equal(lmb_shell_quote("it's $HOME", out, sizeof out), 0);
    assert_string_equal(out, "'it'\\''s $HOME'");
    assert_int_equal(lmb_shell_quote("", out, sizeof out), 0);
    assert_string_equal(out, "''");
    /* 10 bytes need 13 with the quotes and the NUL: 12 is too few. */
    assert_int_equal(lmb_shell_quote("0123456789", out, 12), -1);
    assert_int_equal(lmb_shell_quote("0123456789", out, 13), 0);
    assert_string_equal(out, "'0123456789'");
    assert_int_equal(lmb_shell_quote("'", out, 6), -1);
    assert_int_equal(lmb_shell_quote("'", out, 7), 0);
    assert_string_equal(out, "''\\'''");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_plain),
        cmocka_unit_test(test_escape_control),
        cmocka_unit_test(test_escape_whole),
        cmocka_unit_test(test_escape_cut),
        cmocka_unit_test(test_shell_quote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
