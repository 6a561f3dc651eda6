// SPDX-License-Identifier: MIT
/* Writing a file the user named: written through when it is a device, a FIFO or
 * an open descriptor; else a temporary file made with O_EXCL beside it, fsync'ed
 * and renamed over it. The rules are in outfile.h. */
#include "lib/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/text.h"

/* At most this many bytes of the file's name go into the temporary file's name,
 * so that it and ".XXXXXX.tmp" fit in NAME_MAX. */
#define STEM_MAX 200
/* Symbolic links followed when looking for a descriptor's name. */
#define HOPS_MAX 40

/* "cannot write 'path': why", errno set to e (callers may print strerror).
 * Returns -1. */
static int say(const struct lmb_outfile *o, char *err, size_t errlen, int e, const char *why)
{
    char q[LMB_QUOTE_BUF];

    snprintf(err, errlen, "cannot write '%s': %s", lmb_quote(o->path, q, sizeof q), why);
    errno = e;
    return -1;
}

static int say_errno(const struct lmb_outfile *o, char *err, size_t errlen, int e)
{
    if (e == 0)
        e = EIO;
    return say(o, err, errlen, e, strerror(e));
}

/* The descriptor that p names (/dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<our pid>/fd/N), or -1. */
static int fd_of_name(const char *p)
{
    static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/" };
    char mine[64];
    const char *n = NULL;
    long v;
    char *end;

    if (strcmp(p, "/dev/stdout") == 0)
        return 1;
    if (strcmp(p, "/dev/stderr") == 0)
        return 2;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (strncmp(p, dirs[i], strlen(dirs[i])) == 0)
            n = p + strlen(dirs[i]);
    snprintf(mine, sizeof mine, "/proc/%ld/fd/", (long)getpid());
    if (n == NULL && strncmp(p, mine, strlen(mine)) == 0)
        n = p + strlen(mine);
    if (n == NULL || *n < '0' || *n > '9')
        return -1;
    errno = 0;
    v = strtol(n, &end, 10);
    if (errno != 0 || *end != '\0' || v > INT_MAX)
        return -1;
    return (int)v;
}

/* The descriptor that path names, itself or through a chain of symbolic links
 * (a link to /dev/stdout, which links to /proc/self/fd/1), or -1. */
static int descriptor_named(const char *path)
{
    char cur[PATH_MAX], link[PATH_MAX], next[PATH_MAX * 2];

    if (strlen(path) >= sizeof cur)
        return -1;
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop < HOPS_MAX; hop++) {
        int fd = fd_of_name(cur);
        ssize_t n;
        char *slash;

        if (fd >= 0)
            return fd;
        n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return -1;   /* not a link (or not there): no descriptor's name */
        link[n] = '\0';
        slash = strrchr(cur, '/');
        if (link[0] == '/' || slash == NULL)
            snprintf(next, sizeof next, "%s", link);
        else
            snprintf(next, sizeof next, "%.*s/%s", (int)(slash - cur), cur, link);
        size_t len = strlen(next);
        if (len >= sizeof cur)
            return -1;
        memcpy(cur, next, len + 1);
    }
    return -1;
}

/* The stream on fd, which is written through. */
static int direct_stream(struct lmb_outfile *o, int fd, int flags, char *err, size_t errlen)
{
    o->fp = fdopen(fd, (flags & LMB_OUTFILE_READ) ? "w+" : "w");
    if (o->fp == NULL) {
        int e = errno;
        close(fd);
        return say_errno(o, err, errlen, e);
    }
    o->direct = true;
    return 0;
}

/* A character device or a FIFO: opened for writing, never created, without
 * waiting for a FIFO's reader. */
static int open_through(struct lmb_outfile *o, const struct stat *st, int flags, char *err,
                        size_t errlen)
{
    int acc = (flags & LMB_OUTFILE_READ) ? O_RDWR : O_WRONLY;
    int fd = open(o->path, acc | O_NOCTTY | O_NONBLOCK | O_CLOEXEC), fl;
    struct stat now;

    if (fd < 0) {
        if (errno == ENXIO && S_ISFIFO(st->st_mode))
            return say(o, err, errlen, ENXIO, "it is a FIFO that no process reads (start the reader first)");
        return say_errno(o, err, errlen, errno);
    }
    /* It was replaced between the look and the open: write nothing over it. */
    if (fstat(fd, &now) != 0 || (now.st_mode & S_IFMT) != (st->st_mode & S_IFMT)) {
        close(fd);
        return say(o, err, errlen, EAGAIN, "it changed while it was opened");
    }
    if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return say_errno(o, err, errlen, e);
    }
    return direct_stream(o, fd, flags, err, errlen);
}

/* A temporary file beside o->dest with the given permission bits. */
static int open_temp(struct lmb_outfile *o, mode_t mode, const struct stat *old, int flags,
                     char *err, size_t errlen)
{
    char dir[LMB_OUTFILE_PATH_MAX], stem[STEM_MAX + 1];
    const char *slash = strrchr(o->dest, '/'), *base;
    int fd, e;

    if (slash == NULL) {
        snprintf(dir, sizeof dir, ".");
        base = o->dest;
    } else {
        snprintf(dir, sizeof dir, "%.*s", slash == o->dest ? 1 : (int)(slash - o->dest), o->dest);
        base = slash + 1;
    }
    if (*base == '\0')
        return say(o, err, errlen, EISDIR, "it names a directory, not a file");
    snprintf(stem, sizeof stem, "%.*s", STEM_MAX, base);
    fd = lmb_tmpfile_in(dir, stem, ".tmp", o->tmp, sizeof o->tmp);
    if (fd < 0) {
        o->tmp[0] = '\0';
        return say_errno(o, err, errlen, errno);
    }
    if (fchmod(fd, mode) != 0) {
        e = errno;
        close(fd);
        lmb_outfile_abort(o);
        return say_errno(o, err, errlen, e);
    }
    /* Root replacing another user's file gives it back to them; anyone else
     * cannot give a file away, and the new file is then theirs (as with any
     * editor's save by rename): so a refusal here is not an error. */
    if (old != NULL && (old->st_uid != geteuid() || old->st_gid != getegid()) &&
        fchown(fd, old->st_uid, old->st_gid) != 0)
        errno = 0;
    o->fp = fdopen(fd, (flags & LMB_OUTFILE_READ) ? "w+" : "w");
    if (o->fp == NULL) {
        e = errno;
        close(fd);
        lmb_outfile_abort(o);
        return say_errno(o, err, errlen, e);
    }
    return 0;
}

int lmb_outfile_open(struct lmb_outfile *o, const char *path, int flags, char *err,
                     size_t errlen)
{
    struct stat st, lst;
    mode_t mask;
    int fd;

    memset(o, 0, sizeof *o);
    o->path = path;
    if (*path == '\0')
        return say(o, err, errlen, ENOENT, "the file name is empty");
    fd = descriptor_named(path);
    if (fd >= 0) {
        int d;
        /* What this process wrote there before comes first. */
        fflush(stdout);
        fflush(stderr);
        d = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        if (d < 0)
            return say_errno(o, err, errlen, errno);
        return direct_stream(o, d, flags, err, errlen);
    }
    if (strlen(path) >= sizeof o->dest)
        return say_errno(o, err, errlen, ENAMETOOLONG);
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return say(o, err, errlen, EISDIR, "it is a directory");
        if (S_ISBLK(st.st_mode))
            return say(o, err, errlen, ENOTSUP, "it is a block device (write a regular file)");
        if (S_ISSOCK(st.st_mode))
            return say(o, err, errlen, ENXIO, "it is a socket");
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
            return open_through(o, &st, flags, err, errlen);
        if (!S_ISREG(st.st_mode))
            return say(o, err, errlen, ENOTSUP, "it is not a regular file");
        /* A link to a regular file: the file it leads to is replaced, the link stays. */
        if (lstat(path, &lst) != 0)
            return say_errno(o, err, errlen, errno);
        if (S_ISLNK(lst.st_mode)) {
            if (realpath(path, o->dest) == NULL)
                return say_errno(o, err, errlen, errno);
        } else {
            snprintf(o->dest, sizeof o->dest, "%s", path);
        }
        return open_temp(o, st.st_mode & 0777, &st, flags, err, errlen);
    }
    if (errno != ENOENT)
        return say_errno(o, err, errlen, errno);
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        return say(o, err, errlen, ENOENT, "it is a symbolic link to a file that does not exist");
    snprintf(o->dest, sizeof o->dest, "%s", path);
    mask = umask(0);
    umask(mask);
    return open_temp(o, 0666 & ~mask, NULL, flags, err, errlen);
}

/* Flush, fsync, close (when asked), rename. */
static int finish(struct lmb_outfile *o, bool close_it, char *err, size_t errlen)
{
    sigset_t hold, old;
    int e = 0;

    errno = 0;
    if (fflush(o->fp) != 0 || ferror(o->fp))
        e = errno ? errno : EIO;
    else if (!o->direct && fsync(fileno(o->fp)) != 0)
        e = errno;
    if (e == 0 && close_it) {
        errno = 0;
        if (fclose(o->fp) != 0)
            e = errno ? errno : EIO;
        o->fp = NULL;
    }
    if (e == 0 && !o->direct) {
        /* No signal between the rename and forgetting the name: the handler
         * must not remove a name that is no longer ours. */
        sigemptyset(&hold);
        sigaddset(&hold, SIGINT);
        sigaddset(&hold, SIGTERM);
        sigaddset(&hold, SIGHUP);
        sigprocmask(SIG_BLOCK, &hold, &old);
        if (rename(o->tmp, o->dest) != 0) {
            e = errno;
        } else {
            lmb_tmpfile_forget(o->tmp);
            o->tmp[0] = '\0';
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
    }
    if (e != 0) {
        lmb_outfile_abort(o);
        return say_errno(o, err, errlen, e);
    }
    return 0;
}

int lmb_outfile_commit(struct lmb_outfile *o, char *err, size_t errlen)
{
    return finish(o, true, err, errlen);
}

int lmb_outfile_publish(struct lmb_outfile *o, char *err, size_t errlen)
{
    return finish(o, false, err, errlen);
}

void lmb_outfile_abort(struct lmb_outfile *o)
{
    int e = errno;   /* the cause, for the caller's message */

    if (o->fp != NULL)
        fclose(o->fp);
    o->fp = NULL;
    if (o->tmp[0] != '\0')
        lmb_tmpfile_remove(o->tmp);
    o->tmp[0] = '\0';
    errno = e;
}

int lmb_outfile_fail(struct lmb_outfile *o, char *err, size_t errlen)
{
    int e = errno;

    lmb_outfile_abort(o);
    return say_errno(o, err, errlen, e);
}
