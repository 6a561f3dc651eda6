// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/outfile.c: a regular file replaced through a temporary
 * file made with O_EXCL beside it (mode kept, umask's mode for a new file, a
 * planted link not followed, nothing left after an error or SIGINT); devices,
 * FIFOs and open descriptors written through, never replaced; messages that
 * name the user's path, cut when long. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/cleanup.h"
#include "lib/outfile.h"

static char dir[] = "/tmp/lmb-test-outfile-XXXXXX";

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

static void at(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* The file's contents (at most 255 bytes). */
static const char *get(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    size_t n;
    assert_non_null(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* How many names in the test's directory end in ".tmp" and are not links. */
static int temp_files(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        char p[512];
        struct stat st;
        if (l < 4 || strcmp(e->d_name + l - 4, ".tmp") != 0)
            continue;
        at(e->d_name, p, sizeof p);
        if (lstat(p, &st) == 0 && !S_ISLNK(st.st_mode))
            n++;
    }
    closedir(d);
    return n;
}

static void test_new_file(void **state)
{
    struct lmb_outfile o;
    char path[256], err[512] = "";
    struct stat st;
    mode_t old = umask(027);
    (void)state;

    at("new.json", path, sizeof path);
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), 0);
    assert_false(o.direct);
    /* The temporary file: beside the file, a random name ending in .tmp. */
    assert_int_equal(strncmp(o.tmp, dir, strlen(dir)), 0);
    assert_int_equal(strcmp(o.tmp + strlen(o.tmp) - 4, ".tmp"), 0);
    assert_string_not_equal(o.tmp, "new.json.tmp");
    assert_int_equal(stat(o.tmp, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(access(path, F_OK), -1);   /* not there until committed */
    fputs("hello\n", o.fp);
    assert_int_equal(lmb_outfile_commit(&o, err, sizeof err), 0);
    umask(old);
    assert_string_equal(get(path), "hello\n");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    assert_int_equal(temp_files(), 0);
}

static void test_existing_mode_kept(void **state)
{
    struct lmb_outfile o;
    char path[256], err[512] = "";
    struct stat st;
    (void)state;

    at("mode.json", path, sizeof path);
    put(path, "old\n");
    assert_int_equal(chmod(path, 0604), 0);
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), 0);
    fputs("new\n", o.fp);
    assert_int_equal(lmb_outfile_commit(&o, err, sizeof err), 0);
    assert_string_equal(get(path), "new\n");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0604);
}

static void test_planted_link_not_followed(void **state)
{
    struct lmb_outfile o;
    char path[256], victim[256], planted[300], err[512] = "";
    (void)state;

    at("victim", victim, sizeof victim);
    put(victim, "victim\n");
    at("t.json", path, sizeof path);
    snprintf(planted, sizeof planted, "%s.tmp", path);
    assert_int_equal(symlink(victim, planted), 0);
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), 0);
    fputs("good\n", o.fp);
    assert_int_equal(lmb_outfile_commit(&o, err, sizeof err), 0);
    assert_string_equal(get(victim), "victim\n");
    assert_string_equal(get(path), "good\n");
}

static void test_link_to_regular(void **state)
{
    struct lmb_outfile o;
    char path[256], real[256], err[512] = "";
    struct stat st;
    (void)state;

    at("real", real, sizeof real);
    put(real, "old\n");
    at("link", path, sizeof path);
    assert_int_equal(symlink("real", path), 0);
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), 0);
    fputs("new\n", o.fp);
    assert_int_equal(lmb_outfile_commit(&o, err, sizeof err), 0);
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(get(real), "new\n");
}

static void test_abort_leaves_old(void **state)
{
    struct lmb_outfile o;
    char path[256], err[512] = "";
    (void)state;

    at("keep.json", path, sizeof path);
    put(path, "old\n");
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), 0);
    fputs("half", o.fp);
    lmb_outfile_abort(&o);
    assert_string_equal(get(path), "old\n");
    assert_int_equal(temp_files(), 0);
}

static void test_read_and_publish(void **state)
{
    struct lmb_outfile o;
    char path[256], err[512] = "", buf[16] = "";
    (void)state;

    at("raw", path, sizeof path);
    assert_int_equal(lmb_outfile_open(&o, path, LMB_OUTFILE_READ, err, sizeof err), 0);
    fputs("abc", o.fp);
    assert_int_equal(lmb_outfile_publish(&o, err, sizeof err), 0);
    /* Still open, now the file at its place: written on, read back. */
    fputs("def", o.fp);
    assert_int_equal(fseek(o.fp, 0, SEEK_SET), 0);
    assert_int_equal((int)fread(buf, 1, 6, o.fp), 6);
    assert_string_equal(buf, "abcdef");
    assert_int_equal(fclose(o.fp), 0);
    assert_string_equal(get(path), "abcdef");
    assert_int_equal(temp_files(), 0);
}

static void test_dev_null_through(void **state)
{
    struct lmb_outfile o;
    char err[512] = "";
    struct stat st;
    (void)state;

    assert_int_equal(lmb_outfile_open(&o, "/dev/null", 0, err, sizeof err), 0);
    assert_true(o.direct);
    fputs("nothing\n", o.fp);
    assert_int_equal(lmb_outfile_commit(&o, err, sizeof err), 0);
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void test_dev_full_fails(void **state)
{
    struct lmb_outfile o;
    char err[512] = "";
    (void)state;

    if (access("/dev/full", W_OK) != 0)
        skip();
    assert_int_equal(lmb_outfile_open(&o, "/dev/full", 0, err, sizeof err), 0);
    assert_true(o.direct);
    fputs("x\n", o.fp);
    assert_int_equal(lmb_outfile_commit(&o, err, sizeof err), -1);
    assert_string_equal(err, "cannot write '/dev/full': No space left on device");
    assert_int_equal(errno, ENOSPC);
}

static void test_descriptor_name(void **state)
{
    struct lmb_outfile o;
    char name[64], link[256], err[512] = "", buf[16] = "";
    int p[2];
    (void)state;

    assert_int_equal(pipe(p), 0);
    snprintf(name, sizeof name, "/proc/self/fd/%d", p[1]);
    /* A link that leads to the descriptor's name, as /dev/stdout does. */
    at("fdlink", link, sizeof link);
    assert_int_equal(symlink(name, link), 0);
    assert_int_equal(lmb_outfile_open(&o, link, 0, err, sizeof err), 0);
    assert_true(o.direct);
    fputs("piped", o.fp);
    assert_int_equal(lmb_outfile_commit(&o, err, sizeof err), 0);
    close(p[1]);
    assert_int_equal((int)read(p[0], buf, sizeof buf - 1), 5);
    assert_string_equal(buf, "piped");
    close(p[0]);
}

static void test_fifo_without_reader(void **state)
{
    struct lmb_outfile o;
    char path[256], err[512] = "";
    struct stat st;
    (void)state;

    at("fifo", path, sizeof path);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), -1);
    assert_int_equal(errno, ENXIO);
    assert_non_null(strstr(err, "no process reads"));
    assert_non_null(strstr(err, path));
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
}

static void test_refusals(void **state)
{
    struct lmb_outfile o;
    char path[256], err[512] = "";
    (void)state;

    assert_int_equal(lmb_outfile_open(&o, dir, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "it is a directory"));
    at("dangling", path, sizeof path);
    assert_int_equal(symlink("nowhere", path), 0);
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "symbolic link"));
    at("nowhere", path, sizeof path);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(lmb_outfile_open(&o, "", 0, err, sizeof err), -1);
}

static void test_messages_name_the_path(void **state)
{
    struct lmb_outfile o;
    char path[256], want[512], err[512] = "";
    char *longp;
    size_t n = 10000;
    (void)state;

    at("nodir/x.json", path, sizeof path);
    assert_int_equal(lmb_outfile_open(&o, path, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", path);
    assert_string_equal(err, want);
    assert_null(strstr(err, ".tmp"));

    longp = malloc(n + 1);
    assert_non_null(longp);
    memset(longp, 'a', n);
    longp[0] = '/';
    longp[n] = '\0';
    assert_int_equal(lmb_outfile_open(&o, longp, 0, err, sizeof err), -1);
    assert_true(strlen(err) < 200);
    assert_non_null(strstr(err, "...': "));
    free(longp);
}

static void test_sigint_removes_temp(void **state)
{
    char path[256], tmp[LMB_OUTFILE_PATH_MAX] = "";
    int p[2], status;
    pid_t pid;
    (void)state;

    at("sig.json", path, sizeof path);
    assert_int_equal(pipe(p), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct lmb_outfile o;
        char err[512];
        close(p[0]);
        lmb_cleanup_init();
        if (lmb_outfile_open(&o, path, 0, err, sizeof err) != 0)
            _exit(2);
        fputs("half", o.fp);
        fflush(o.fp);
        if (write(p[1], o.tmp, strlen(o.tmp)) < 0)
            _exit(3);
        close(p[1]);
        kill(getpid(), SIGINT);
        _exit(4);
    }
    close(p[1]);
    assert_true(read(p[0], tmp, sizeof tmp - 1) > 0);
    close(p[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGINT);
    assert_int_equal(access(tmp, F_OK), -1);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(temp_files(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_file),
        cmocka_unit_test(test_existing_mode_kept),
        cmocka_unit_test(test_planted_link_not_followed),
        cmocka_unit_test(test_link_to_regular),
        cmocka_unit_test(test_abort_leaves_old),
        cmocka_unit_test(test_read_and_publish),
        cmocka_unit_test(test_dev_null_through),
        cmocka_unit_test(test_dev_full_fails),
        cmocka_unit_test(test_descriptor_name),
        cmocka_unit_test(test_fifo_without_reader),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_messages_name_the_path),
        cmocka_unit_test(test_sigint_removes_temp),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
