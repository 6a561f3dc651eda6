// SPDX-License-Identifier: MIT
/* Removing temporary files and killing child processes on exit and on signals. */
#include "lib/cleanup.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Process-wide bookkeeping that a signal handler must reach; it holds paths and
 * pids, never results. */
#define MAX_TMP 16
#define MAX_KIDS 2048

static pid_t owner;
static char tmp_paths[MAX_TMP][256];
static volatile sig_atomic_t tmp_used[MAX_TMP];
static volatile pid_t kids[MAX_KIDS];

static void remove_all(void)
{
    if (getpid() != owner)
        return;
    for (int i = 0; i < MAX_KIDS; i++)
        if (kids[i] > 0)
            kill(kids[i], SIGKILL);
    for (int i = 0; i < MAX_TMP; i++)
        if (tmp_used[i])
            unlink(tmp_paths[i]);
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
    sigemptyset(&sa.sa_mask);
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
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        return -1;
    if (getppid() != parent)
        return -1;
    return 0;
}

int lmb_tmpfile(const char *stem, char *path, size_t len)
{
    const char *dir = getenv("TMPDIR");
    int slot = -1, fd;

    if (dir == NULL || *dir == '\0')
        dir = "/tmp";
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
        sizeof tmp_paths[slot]) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkstemp(tmp_paths[slot]);
    if (fd < 0)
        return -1;
    tmp_used[slot] = 1;
    snprintf(path, len, "%s", tmp_paths[slot]);
    return fd;
}

void lmb_tmpfile_remove(const char *path)
{
    for (int i = 0; i < MAX_TMP; i++)
        if (tmp_used[i] && strcmp(tmp_paths[i], path) == 0) {
            unlink(tmp_paths[i]);
            tmp_used[i] = 0;
        }
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
