// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/input.c: regular files only, opened without blocking,
 * size and line-length limits, messages that name the user's path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/input.h"

static char dir[] = "/tmp/lmb-test-input-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void make_file(const char *name, const char *text, char *path, size_t len)
{
    FILE *f;
    snprintf(path, len, "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal((int)fwrite(text, 1, strlen(text), f), (int)strlen(text));
    assert_int_equal(fclose(f), 0);
}

static void test_regular(void **state)
{
    char path[256], err[512] = "", *line = NULL;
    size_t cap = 0;
    FILE *fp;
    (void)state;

    make_file("a", "one\ntwo", path, sizeof path);
    fp = lmb_input_open(path, 100, err, sizeof err);
    assert_non_null(fp);
    assert_int_equal(lmb_input_line(fp, &line, &cap, 100, err, sizeof err), 4);
    assert_string_equal(line, "one\n");
    assert_int_equal(lmb_input_line(fp, &line, &cap, 100, err, sizeof err), 3);
    assert_string_equal(line, "two");
    assert_int_equal(lmb_input_line(fp, &line, &cap, 100, err, sizeof err), -1);
    fclose(fp);
    free(line);
}

static void test_too_big(void **state)
{
    char path[256], err[512] = "";
    (void)state;

    make_file("big", "0123456789", path, sizeof path);
    assert_null(lmb_input_open(path, 9, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "the limit"));
}

static void test_long_line(void **state)
{
    char path[256], err[512] = "", *line = NULL;
    size_t cap = 0;
    FILE *fp;
    (void)state;

    make_file("long", "short\n0123456789abcdef\n", path, sizeof path);
    fp = lmb_input_open(path, 1000, err, sizeof err);
    assert_non_null(fp);
    assert_int_equal(lmb_input_line(fp, &line, &cap, 8, err, sizeof err), 6);
    assert_int_equal(lmb_input_line(fp, &line, &cap, 8, err, sizeof err), -2);
    assert_non_null(strstr(err, "longer than 8"));
    fclose(fp);
    free(line);
}

static void test_not_regular(void **state)
{
    char path[256], err[512] = "";
    (void)state;

    /* A FIFO with no writer: refused at once, not waited on. */
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_null(lmb_input_open(path, 1000, err, sizeof err));
    assert_non_null(strstr(err, "a FIFO"));
    assert_null(lmb_input_open("/dev/zero", 1000, err, sizeof err));
    assert_non_null(strstr(err, "character device"));
    assert_null(lmb_input_open(dir, 1000, err, sizeof err));
    assert_non_null(strstr(err, "a directory"));
}

static void test_missing(void **state)
{
    char path[256], err[512] = "";
    (void)state;

    snprintf(path, sizeof path, "%s/none", dir);
    assert_null(lmb_input_open(path, 1000, err, sizeof err));
    assert_non_null(strstr(err, "No such file"));
    assert_non_null(strstr(err, path));
}

static void test_unreadable(void **state)
{
    char path[256], err[512] = "";
    pid_t pid;
    int st;
    (void)state;

    make_file("secret", "x\n", path, sizeof path);
    assert_int_equal(chmod(path, 0), 0);
    /* Root reads every file: the check runs in a child that is nobody
     * (cmocka's skip() would count as a failure under TAP). */
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (geteuid() == 0 && (chmod(dir, 0755) != 0 || setgid(65534) != 0 ||
                               setuid(65534) != 0))
            _exit(3);
        _exit(lmb_input_open(path, 1000, err, sizeof err) == NULL &&
                      strstr(err, "Permission denied") != NULL ? 0 : 1);
    }
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular),
        cmocka_unit_test(test_too_big),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_not_regular),
        cmocka_unit_test(test_missing),
        cmocka_unit_test(test_unreadable),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
