// SPDX-License-Identifier: MIT
/* Unit tests of src/suite/runconf.c: a config file read as the shell fragment
 * lmbench 3's config-run wrote (quotes, export, ;, $KEY), every problem of a
 * file in one message, lmbench 3's group and per-benchmark switches, the file
 * written by lmbench config read back unchanged, and the run record's keys
 * read back by --resume; and the reader's bounds: regular files only, 1 MiB,
 * lines of 64 KiB, text (a control character is an error naming its line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "suite/runconf.h"

/* Writes text to a temporary file; its path into path. */
static void write_file(char *path, size_t len, const char *text)
{
    int fd;
    FILE *f;

    snprintf(path, len, "%s/runconf.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int read_text(struct lmb_sconf *c, const char *text, char *err, size_t errlen)
{
    char path[512];
    int rc;

    write_file(path, sizeof path, text);
    lmb_sconf_defaults(c);
    err[0] = '\0';
    rc = lmb_sconf_read(c, path, err, errlen);
    unlink(path);
    return rc;
}

/* As read_text, with len bytes of data (NULs and all). */
static int read_bytes(struct lmb_sconf *c, const char *data, size_t len, char *err, size_t errlen)
{
    char path[512];
    int fd, rc;

    snprintf(path, sizeof path, "%s/runconf.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    assert_int_equal(close(fd), 0);
    lmb_sconf_defaults(c);
    err[0] = '\0';
    rc = lmb_sconf_read(c, path, err, errlen);
    unlink(path);
    return rc;
}

static void test_shell_forms(void **state)
{
    struct lmb_sconf c;
    char err[1000];

    (void)state;
    setenv("LMB_TEST_DIR", "/tmp", 1);
    assert_int_equal(read_text(&c,
                               "#!/bin/sh\n"
                               "# a comment\n"
                               "\n"
                               "   MB=\"12\"   # trailing comment\n"
                               "export SYNC_MAX='3'\n"
                               "export MB ENOUGH\n"
                               "FSDIR=${LMB_TEST_DIR}; FILE=$FSDIR/XXX\n"
                               "REMOTE=\"a b\" ENOUGH=2000\n"
                               "MHZ=\"2400 MHz, 0.42 nanosec clock\"\n"
                               "OS=x86_64-linux-gnu\n"
                               "DISKS=\n"
                               "OS=again\n"
                               "LMBENCH_SCHED=\"CUSTOM \\\"0\\\"\"\n"
                               "TOTAL_MEM=2048\n",
                               err, sizeof err),
                     0);
    assert_int_equal((int)c.mb, 12);
    assert_int_equal((int)c.parallel, 3);
    assert_string_equal(c.fsdir, "/tmp");
    assert_string_equal(c.file, "/tmp/XXX");
    assert_string_equal(c.remote, "a b");
    assert_string_equal(c.enough, "2000");
    assert_string_equal(c.sched, "CUSTOM \"0\"");
    /* Each ignored key once, in the order of the file. */
    assert_string_equal(c.ignored, "MHZ, OS, DISKS, TOTAL_MEM");
    assert_non_null(strstr(c.used, "MB=12\n"));
    assert_non_null(strstr(c.used, "FILE=/tmp/XXX\n"));
    assert_null(strstr(c.used, "MHZ"));
    assert_int_equal((int)c.line[LMB_SCL_FSDIR], 7);
}

static void test_every_problem_at_once(void **state)
{
    struct lmb_sconf c;
    char err[1000];

    (void)state;
    assert_int_equal(read_text(&c,
                               "PROFILE=quick\n"
                               "MB=abc\n"
                               "DISKS=/dev/sda\n"
                               "MBB=1\n"
                               "rm -rf /\n"
                               "MHZ=2400 MHz\n"
                               "BENCHMARK_TCP=maybe\n"
                               "FSDIR=\"/tmp\n",
                               err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ":2: MB: "));
    assert_non_null(strstr(err, ":4: unknown key 'MBB'"));
    assert_non_null(strstr(err, ":5: 'rm' is not an assignment"));
    assert_non_null(strstr(err, ":6: MHZ: the value ends at a blank"));
    assert_non_null(strstr(err, ":7: BENCHMARK_TCP: expected YES, NO or nothing, got 'maybe'"));
    assert_non_null(strstr(err, ":8: FSDIR: unbalanced quote"));
    assert_null(strstr(err, "DISKS"));
    assert_int_equal(read_text(&c, "A=`date`\nB=$(date)\nC=x|y\n", err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: A: command substitution"));
    assert_non_null(strstr(err, ":2: B: command substitution"));
    assert_non_null(strstr(err, ":3: C: '|' is shell syntax"));
    assert_int_equal(read_text(&c, "LMBENCH_SCHED=SOMETIMES\n", err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: LMBENCH_SCHED='SOMETIMES'"));
}

static void test_switches(void **state)
{
    struct lmb_sconf c;
    char err[1000];

    (void)state;
    /* A group off with some of its benchmarks on: those only. The network
     * benchmarks were OS benchmarks in lmbench 3: they follow BENCHMARK_OS. */
    assert_int_equal(read_text(&c,
                               "BENCHMARK_HARDWARE=YES\nBENCHMARK_OS=NO\n"
                               "BENCHMARK_SYSCALL=YES\nBENCHMARK_SELECT=NO\nBENCHMARK_PROC=\n"
                               "BENCHMARK_BCOPY=NO\nBENCHMARK_HTTP=NO\n",
                               err, sizeof err),
                     0);
    assert_true(c.hardware);
    assert_true(c.os);
    assert_false(c.network);
    assert_true(lmb_sconf_bench_on(&c, "SYSCALL"));
    assert_false(lmb_sconf_bench_on(&c, "SELECT"));
    assert_false(lmb_sconf_bench_on(&c, "PROC"));
    assert_false(lmb_sconf_bench_on(&c, "BCOPY"));
    assert_true(lmb_sconf_bench_on(&c, "MEM"));
    assert_true(lmb_sconf_bench_on(&c, NULL));
    assert_string_equal(c.ignored, "BENCHMARK_HTTP");
    /* The network group on through one of its benchmarks. */
    assert_int_equal(read_text(&c, "BENCHMARK_OS=NO\nBENCHMARK_TCP=YES\n", err, sizeof err), 0);
    assert_false(c.os);
    assert_true(c.network);
    assert_true(lmb_sconf_bench_on(&c, "TCP"));
    assert_false(lmb_sconf_bench_on(&c, "UDP"));
    /* BENCHMARK_NETWORK, when the file has it, is its own. */
    assert_int_equal(read_text(&c, "BENCHMARK_OS=NO\nBENCHMARK_NETWORK=YES\n", err, sizeof err), 0);
    assert_false(c.os);
    assert_true(c.network);
    /* Every group off: lmb_sconf_check says so. */
    assert_int_equal(read_text(&c, "BENCHMARK_OS=NO\nBENCHMARK_HARDWARE=NO\n", err, sizeof err), 0);
    assert_int_equal(lmb_sconf_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "no group"));
}

static void test_write_read_back(void **state)
{
    struct lmb_sconf c, d;
    char path[512], err[1000];
    FILE *f;
    int fd;

    (void)state;
    lmb_sconf_defaults(&c);
    assert_int_equal(lmb_sconf_set(&c, "LMBENCH_SCHED", "CUSTOM \"0\"", err, sizeof err), 0);
    assert_int_equal(lmb_sconf_set(&c, "FSDIR", "/tmp/a dir/it's", err, sizeof err), 0);
    assert_int_equal(lmb_sconf_set(&c, "REMOTE", "h1 h2", err, sizeof err), 0);
    assert_int_equal(lmb_sconf_set(&c, "BENCHMARK_CTX", "NO", err, sizeof err), 0);
    assert_int_equal(lmb_sconf_set(&c, "MB", "64", err, sizeof err), 0);
    snprintf(path, sizeof path, "/tmp/runconf-w.XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    assert_int_equal(lmb_sconf_write(&c, f, "test"), 0);
    assert_int_equal(fclose(f), 0);
    lmb_sconf_defaults(&d);
    assert_int_equal(lmb_sconf_read(&d, path, err, sizeof err), 0);
    unlink(path);
    assert_string_equal(d.sched, c.sched);
    assert_string_equal(d.fsdir, c.fsdir);
    assert_string_equal(d.remote, c.remote);
    assert_int_equal((int)d.mb, 64);
    assert_false(lmb_sconf_bench_on(&d, "CTX"));
    assert_true(lmb_sconf_bench_on(&d, "PROC"));
    assert_string_equal(d.ignored, "");   /* lmbench config writes no key run ignores */
}

static void test_json_round_trip(void **state)
{
    (void)state;
#ifdef LMB_HAVE_JANSSON
    struct lmb_sconf c, d;
    char err[1000];
    json_t *o = json_object();

    assert_int_equal(read_text(&c, "FILE=/tmp/XXX\nBENCHMARK_CTX=NO\nMB=4\nDISKS=\nMAIL=no\n", err,
                               sizeof err),
                     0);
    lmb_sconf_json_put(&c, o);
    assert_string_equal(json_string_value(json_object_get(o, "file")), "/tmp/XXX");
    assert_string_equal(json_string_value(json_array_get(json_object_get(o, "benchmarks_off"), 0)),
                        "CTX");
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(json_object_get(o, "config_file"), "used"), "MB")),
                        "4");
    assert_int_equal(json_array_size(json_object_get(json_object_get(o, "config_file"), "ignored")),
                     2);
    lmb_sconf_defaults(&d);
    lmb_sconf_json_get(&d, o);
    assert_string_equal(d.file, "/tmp/XXX");
    assert_false(lmb_sconf_bench_on(&d, "CTX"));
    assert_true(lmb_sconf_bench_on(&d, "PROC"));
    assert_string_equal(d.ignored, "DISKS, MAIL");
    assert_string_equal(d.used, c.used);
    assert_string_equal(d.source, c.source);
    json_decref(o);
#else
    skip();
#endif
}

static void test_bounds(void **state)
{
    struct lmb_sconf c;
    char err[1000], dir[512], fifo[600];
    size_t n = LMB_SCONF_LINE_MAX + 10;
    char *big = malloc(n);

    (void)state;
    assert_non_null(big);
    /* Not regular files: refused at once (a FIFO without a writer is not waited on). */
    lmb_sconf_defaults(&c);
    assert_int_equal(lmb_sconf_read(&c, "/dev/zero", err, sizeof err), -1);
    assert_string_equal(err, "/dev/zero is a character device, not a regular file");
    snprintf(dir, sizeof dir, "%s/runconf.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(lmb_sconf_read(&c, fifo, err, sizeof err), -1);
    assert_non_null(strstr(err, "/fifo is a FIFO, not a regular file"));
    unlink(fifo);
    assert_int_equal(lmb_sconf_read(&c, dir, err, sizeof err), -1);
    assert_non_null(strstr(err, " is a directory, not a regular file"));
    rmdir(dir);
    /* A line over the limit, after a good one: named with its line. */
    memcpy(big, "MB=1\n#", 6);
    memset(big + 6, 'x', n - 7);
    big[n - 1] = '\n';
    assert_int_equal(read_bytes(&c, big, n, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2: a line is longer than 65536 bytes"));
    /* Exactly at the limit (the newline included): read. */
    assert_int_equal(read_bytes(&c, big + 5, LMB_SCONF_LINE_MAX, err, sizeof err), 0);
    free(big);
    /* Text only: a NUL or another control character names its line; a tab and
     * a CRLF line end are text. */
    assert_int_equal(read_bytes(&c, "PROFILE=quick\nMB=6\0 4\n", sizeof "PROFILE=quick\nMB=6\0 4\n" - 1, err,
                                sizeof err), -1);
    assert_non_null(strstr(err, ":2: a NUL byte"));
    assert_int_equal(read_text(&c, "MB=1\nFSDIR=/tmp\x01\nFILE=/tmp/a\x1b[2J\n", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, ":2: a control character (\\x01) at column 11"));
    assert_non_null(strstr(err, ":3: a control character (\\x1b) at column 12"));
    assert_int_equal(read_text(&c, "MB=1\rMB=2\n", err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: a control character (\\x0d) at column 5"));
    assert_int_equal(read_text(&c, "MB=3\t# tab\r\nPROFILE=quick\r\n", err, sizeof err), 0);
    assert_int_equal((int)c.mb, 3);
    assert_string_equal(c.profile, "quick");
}

static void test_escaped_name(void **state)
{
    struct lmb_sconf c;
    char err[1000], path[512];
    FILE *f;

    (void)state;
    snprintf(path, sizeof path, "%s/runconf.\x1b[2J.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    {
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        f = fdopen(fd, "w");
        assert_non_null(f);
    }
    fputs("MB=abc\n", f);
    assert_int_equal(fclose(f), 0);
    lmb_sconf_defaults(&c);
    assert_int_equal(lmb_sconf_read(&c, path, err, sizeof err), -1);
    assert_null(strchr(err, '\x1b'));
    assert_non_null(strstr(err, "runconf.\\x1b[2J."));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shell_forms),
        cmocka_unit_test(test_every_problem_at_once),
        cmocka_unit_test(test_switches),
        cmocka_unit_test(test_write_read_back),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_escaped_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
