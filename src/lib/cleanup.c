// SPDX-License-Identifier: MIT
/* Removing temporary files and killing child processes on exit and on signals. */
#include "lib/cleanup.h"

#include <stdbool.h>
#include <stdint.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Process-wide bookkeeping that a signal handler must reach; it holds paths and
 * pids, never results. */
#define MAX_TMP 16
#define MAX_KIDS 2048

static pid_t owner;
static char tmp_paths[MAX_TMP][4096];
static volatile sig_atomic_t tmp_used[MAX_TMP];
static volatile sig_atomic_t tmp_isdir[MAX_TMP];
static volatile pid_t kids[MAX_KIDS];
#define MAX_SEMSETS 16
static volatile sig_atomic_t semsets[MAX_SEMSETS];   /* id + 1; 0 = free */

/* A directory entry as getdents64(2) returns it. */
struct dent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Removes the directory `name` (relative to dirfd) with everything in it, at most
 * `depth` levels of subdirectories deep. Only system calls: safe in a signal
 * handler. Entries are unlinked while the directory is read, so it is read again
 * from the start until a pass removes nothing. */
static void remove_tree(int dirfd, const char *name, int depth)
{
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

    if (fd >= 0) {
        char buf[2048] __attribute__((aligned(8)));
        for (int pass = 0; pass < 100000; pass++) {
            unsigned removed = 0;
            long n;
            if (lseek(fd, 0, SEEK_SET) != 0)
                break;
            while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
                for (long off = 0; off < n;) {
                    struct dent64 *d = (struct dent64 *)(void *)(buf + off);
                    off += d->d_reclen;
                    if (d->d_name[0] == '.' &&
                        (d->d_name[1] == '\0' || (d->d_name[1] == '.' && d->d_name[2] == '\0')))
                        continue;
                    if (unlinkat(fd, d->d_name, 0) == 0) {
                        removed++;
                    } else if ((errno == EISDIR || errno == EPERM) && depth > 0) {
                        remove_tree(fd, d->d_name, depth - 1);
                        removed++;
                    }
                }
            }
            if (removed == 0)
                break;
        }
        close(fd);
    }
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void remove_slot(int i)
{
    if (tmp_isdir[i])
        remove_tree(AT_FDCWD, tmp_paths[i], LMB_TMPDIR_DEPTH);
    else
        unlink(tmp_paths[i]);
}

static void remove_all(void)
{
    if (getpid() != owner)
        return;
    for (int i = 0; i < MAX_KIDS; i++)
        if (kids[i] > 0)
            kill(kids[i], SIGKILL);
    /* A child may be creating files in a temporary directory: wait until it is
     * gone before emptying the directory; and none outlives the command. */
    for (int i = 0; i < MAX_KIDS; i++)
        if (kids[i] > 0)
            while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
                ;
    for (int i = 0; i < MAX_TMP; i++)
        if (tmp_used[i])
            remove_slot(i);
    for (int i = 0; i < MAX_SEMSETS; i++)
        if (semsets[i] > 0)
            semctl((int)semsets[i] - 1, 0, IPC_RMID);
}

static void on_signal(int sig)
{
    remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_exit_hook(void)
{
    remove_all();
}

void lmb_cleanup_init(void)
{
    struct sigaction sa;

    if (owner == getpid())
        return;
    owner = getpid();
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* A second signal while the first one's clean-up runs waits for it. */
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* Children are reaped by waitpid: an inherited SIG_IGN would reap them
     * behind our back and hide how they ended. */
    signal(SIGCHLD, SIG_DFL);
    atexit(on_exit_hook);
}

int lmb_cleanup_child(pid_t parent)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    for (int i = 0; i < MAX_KIDS; i++)
        kids[i] = 0;
    for (int i = 0; i < MAX_TMP; i++)
        tmp_used[i] = 0;
    for (int i = 0; i < MAX_SEMSETS; i++)
        semsets[i] = 0;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        return -1;
    if (getppid() != parent)
        return -1;
    return 0;
}

/* A free slot holding the template "<dir>/<stem>.XXXXXX" (dir NULL or empty:
 * $TMPDIR or /tmp), not yet in use; or -1 with errno set. */
static int template_slot(const char *dir, const char *stem, size_t len)
{
    int slot = -1;

    if (dir == NULL || *dir == '\0') {
        dir = getenv("TMPDIR");
        if (dir == NULL || *dir == '\0')
            dir = "/tmp";
    }
    for (int i = 0; i < MAX_TMP; i++)
        if (!tmp_used[i]) {
            slot = i;
            break;
        }
    if (slot < 0) {
        errno = EMFILE;
        return -1;
    }
    if ((size_t)snprintf(tmp_paths[slot], sizeof tmp_paths[slot], "%s/%s.XXXXXX", dir, stem) >=
            sizeof tmp_paths[slot] ||
        strlen(tmp_paths[slot]) >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return slot;
}

/* The signals whose handler removes the temporary files are held while a file is
 * made and recorded: a SIGTERM between the two would leave it behind. */
static void hold_signals(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, old);
}

int lmb_tmpfile(const char *stem, char *path, size_t len)
{
    int slot = template_slot(NULL, stem, len), fd, e;
    sigset_t old;

    if (slot < 0)
        return -1;
    hold_signals(&old);
    fd = mkstemp(tmp_paths[slot]);
    e = errno;
    if (fd >= 0) {
        tmp_isdir[slot] = 0;
        tmp_used[slot] = 1;
        snprintf(path, len, "%s", tmp_paths[slot]);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

int lmb_tmpfile_in(const char *dir, const char *stem, const char *suffix, char *path,
                   size_t len)
{
    int slot = template_slot(dir, stem, len), fd, e;
    size_t n, sl = strlen(suffix);
    sigset_t old;

    if (slot < 0)
        return -1;
    n = strlen(tmp_paths[slot]);
    if (n + sl >= sizeof tmp_paths[slot] || n + sl >= len || sl > INT32_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(tmp_paths[slot] + n, suffix, sl + 1);
    hold_signals(&old);
    fd = mkostemps(tmp_paths[slot], (int)sl, O_CLOEXEC);
    e = errno;
    if (fd >= 0) {
        tmp_isdir[slot] = 0;
        tmp_used[slot] = 1;
        snprintf(path, len, "%s", tmp_paths[slot]);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

void lmb_tmpfile_forget(const char *path)
{
    for (int i = 0; i < MAX_TMP; i++)
        if (tmp_used[i] && !tmp_isdir[i] && strcmp(tmp_paths[i], path) == 0)
            tmp_used[i] = 0;
}

void lmb_tmpfile_remove(const char *path)
{
    for (int i = 0; i < MAX_TMP; i++)
        if (tmp_used[i] && !tmp_isdir[i] && strcmp(tmp_paths[i], path) == 0) {
            unlink(tmp_paths[i]);
            tmp_used[i] = 0;
        }
}

int lmb_tmpdir(const char *parent, const char *stem, char *path, size_t len)
{
    int slot = template_slot(parent, stem, len), e;
    sigset_t old;
    bool made;

    if (slot < 0)
        return -1;
    hold_signals(&old);
    made = mkdtemp(tmp_paths[slot]) != NULL;
    e = errno;
    if (made) {
        tmp_isdir[slot] = 1;
        tmp_used[slot] = 1;
        snprintf(path, len, "%s", tmp_paths[slot]);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return made ? 0 : -1;
}

void lmb_remove_tree(const char *path)
{
    remove_tree(AT_FDCWD, path, LMB_TMPDIR_DEPTH);
}

void lmb_tmpdir_remove(const char *path)
{
    for (int i = 0; i < MAX_TMP; i++)
        if (tmp_used[i] && tmp_isdir[i] && strcmp(tmp_paths[i], path) == 0) {
            remove_tree(AT_FDCWD, tmp_paths[i], LMB_TMPDIR_DEPTH);
            tmp_used[i] = 0;
        }
}

int lmb_semset_track(int id)
{
    for (int i = 0; i < MAX_SEMSETS; i++)
        if (semsets[i] == 0) {
            semsets[i] = id + 1;
            return 0;
        }
    return -1;
}

void lmb_semset_remove(int id)
{
    for (int i = 0; i < MAX_SEMSETS; i++)
        if (semsets[i] == id + 1)
            semsets[i] = 0;
    semctl(id, 0, IPC_RMID);
}

pid_t lmb_fork_tracked(void)
{
    sigset_t old;
    pid_t pid;

    hold_signals(&old);
    pid = fork();
    if (pid > 0)
        lmb_child_track(pid);
    if (pid != 0)
        sigprocmask(SIG_SETMASK, &old, NULL);
    return pid;
}

void lmb_child_track(pid_t pid)
{
    for (int i = 0; i < MAX_KIDS; i++)
        if (kids[i] == 0) {
            kids[i] = pid;
            return;
        }
}

void lmb_child_untrack(pid_t pid)
{
    for (int i = 0; i < MAX_KIDS; i++)
        if (kids[i] == pid)
            kids[i] = 0;
}
