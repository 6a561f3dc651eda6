// SPDX-License-Identifier: MIT
/* uring: the io_uring set-up and the one-request round of lat_io_uring, with
 * raw system calls and our own ring code (see uring.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/uring.h"

/* io_uring needs the kernel's header (its structures and offsets) and the
 * system call numbers; a header older than Linux 5.6 has no IORING_OP_READ
 * (IORING_FEAT_RW_CUR_POS came with it). CFLAGS=-DLMB_NO_IO_URING builds
 * without it, as on such a host. */
#if defined(__has_include) && !defined(LMB_NO_IO_URING)
#if __has_include(<linux/io_uring.h>)
#include <linux/io_uring.h>
#if defined(IORING_FEAT_RW_CUR_POS) && defined(__NR_io_uring_setup) && \
    defined(__NR_io_uring_enter)
#define LMB_HAVE_IO_URING 1
#endif
#endif
#endif

#ifdef LMB_HAVE_IO_URING

bool lmb_uring_built(void)
{
    return true;
}

/* What kernel.io_uring_disabled says, for the reason of an EPERM. */
static void disabled_note(char *out, size_t len)
{
    char buf[32] = "";
    int fd = open("/proc/sys/kernel/io_uring_disabled", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    int v;

    if (fd >= 0)
        close(fd);
    if (n <= 0 || sscanf(buf, "%d", &v) != 1) {
        snprintf(out, len, " (no kernel.io_uring_disabled to read: a seccomp filter or a "
                           "security module refuses it)");
        return;
    }
    if (v == 2)
        snprintf(out, len, " (kernel.io_uring_disabled = 2: io_uring is disabled for every "
                           "process)");
    else if (v == 1)
        snprintf(out, len, " (kernel.io_uring_disabled = 1: only root and the group "
                           "kernel.io_uring_group may create rings)");
    else
        snprintf(out, len, " (kernel.io_uring_disabled = %d: a seccomp filter or a security "
                           "module refuses it)", v);
}

int lmb_uring_open(struct lmb_uring *u, unsigned entries, int *why_errno, char *err,
                   size_t errlen)
{
    struct io_uring_params p;
    char note[200] = "";
    long fd;
    int e;

    memset(u, 0, sizeof *u);
    u->fd = -1;
    u->sq_map = u->cq_map = u->sqes = MAP_FAILED;
    memset(&p, 0, sizeof p);
    fd = syscall(__NR_io_uring_setup, entries, &p);
    if (fd < 0) {
        e = errno;
        if (e == EPERM || e == EACCES)
            disabled_note(note, sizeof note);
        else if (e == ENOSYS)
            snprintf(note, sizeof note, " (a kernel without io_uring, or a seccomp filter "
                                        "that hides it)");
        *why_errno = e;
        snprintf(err, errlen, "io_uring_setup: %s%s", strerror(e), note);
        return -1;
    }
    u->fd = (int)fd;
    u->sq_map_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    u->cq_map_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if (p.features & IORING_FEAT_SINGLE_MMAP) {
        if (u->cq_map_len > u->sq_map_len)
            u->sq_map_len = u->cq_map_len;
        u->cq_map_len = 0;
    }
    u->sq_map = mmap(NULL, u->sq_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                     u->fd, IORING_OFF_SQ_RING);
    if (u->sq_map == MAP_FAILED)
        goto mmap_failed;
    if (u->cq_map_len == 0) {
        u->cq_map = u->sq_map;
    } else {
        u->cq_map = mmap(NULL, u->cq_map_len, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_POPULATE, u->fd, IORING_OFF_CQ_RING);
        if (u->cq_map == MAP_FAILED)
            goto mmap_failed;
    }
    u->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
    u->sqes = mmap(NULL, u->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
                   IORING_OFF_SQES);
    if (u->sqes == MAP_FAILED)
        goto mmap_failed;
    u->sq_tail = (unsigned *)((char *)u->sq_map + p.sq_off.tail);
    u->sq_mask = (unsigned *)((char *)u->sq_map + p.sq_off.ring_mask);
    u->sq_array = (unsigned *)((char *)u->sq_map + p.sq_off.array);
    u->cq_head = (unsigned *)((char *)u->cq_map + p.cq_off.head);
    u->cq_tail = (unsigned *)((char *)u->cq_map + p.cq_off.tail);
    u->cq_mask = (unsigned *)((char *)u->cq_map + p.cq_off.ring_mask);
    u->cqes = (char *)u->cq_map + p.cq_off.cqes;
    return 0;

mmap_failed:
    e = errno;
    *why_errno = e;
    snprintf(err, errlen, "mmap of the io_uring rings: %s", strerror(e));
    lmb_uring_close(u);
    return -1;
}

void lmb_uring_close(struct lmb_uring *u)
{
    if (u->sqes != MAP_FAILED && u->sqes != NULL)
        munmap(u->sqes, u->sqes_len);
    if (u->cq_map != MAP_FAILED && u->cq_map != NULL && u->cq_map != u->sq_map)
        munmap(u->cq_map, u->cq_map_len);
    if (u->sq_map != MAP_FAILED && u->sq_map != NULL)
        munmap(u->sq_map, u->sq_map_len);
    if (u->fd >= 0)
        close(u->fd);
    memset(u, 0, sizeof *u);
    u->fd = -1;
}

/* Publishes the entry at the tail, submits it and waits for one completion;
 * returns the completion's result or -errno. */
static int submit_and_reap(struct lmb_uring *u, unsigned idx, unsigned tail)
{
    struct io_uring_cqe *cqe;
    unsigned head, ctail;
    unsigned submit = 1;
    long r;
    int res;

    u->sq_array[idx] = idx;
    __atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
    for (;;) {
        r = syscall(__NR_io_uring_enter, u->fd, submit, 1u, IORING_ENTER_GETEVENTS, NULL, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (submit && r == 0)
            return -EIO;    /* the kernel took no entry: it would wait forever */
        submit = 0;
        head = *u->cq_head;
        ctail = __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE);
        if (head != ctail)
            break;
    }
    cqe = (struct io_uring_cqe *)u->cqes + (head & *u->cq_mask);
    res = cqe->res;
    __atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
    return res;
}

/* The next free submission entry, cleared, and its index and the tail. */
static struct io_uring_sqe *next_sqe(struct lmb_uring *u, unsigned *idx, unsigned *tail)
{
    struct io_uring_sqe *sqe;

    *tail = *u->sq_tail;
    *idx = *tail & *u->sq_mask;
    sqe = (struct io_uring_sqe *)u->sqes + *idx;
    memset(sqe, 0, sizeof *sqe);
    return sqe;
}

int lmb_uring_nop(struct lmb_uring *u)
{
    unsigned idx, tail;
    struct io_uring_sqe *sqe = next_sqe(u, &idx, &tail);

    sqe->opcode = IORING_OP_NOP;
    sqe->user_data = tail;
    return submit_and_reap(u, idx, tail);
}

int lmb_uring_read(struct lmb_uring *u, int fd, void *buf, unsigned len, uint64_t off)
{
    unsigned idx, tail;
    struct io_uring_sqe *sqe = next_sqe(u, &idx, &tail);

    sqe->opcode = IORING_OP_READ;
    sqe->fd = fd;
    sqe->addr = (uint64_t)(uintptr_t)buf;
    sqe->len = len;
    sqe->off = off;
    sqe->user_data = tail;
    return submit_and_reap(u, idx, tail);
}

#else /* !LMB_HAVE_IO_URING */

bool lmb_uring_built(void)
{
    return false;
}

int lmb_uring_open(struct lmb_uring *u, unsigned entries, int *why_errno, char *err,
                   size_t errlen)
{
    (void)entries;
    memset(u, 0, sizeof *u);
    u->fd = -1;
    *why_errno = ENOSYS;
    snprintf(err, errlen, "%s", LMB_URING_NOT_BUILT);
    return -1;
}

void lmb_uring_close(struct lmb_uring *u)
{
    u->fd = -1;
}

int lmb_uring_nop(struct lmb_uring *u)
{
    (void)u;
    return -ENOSYS;
}

int lmb_uring_read(struct lmb_uring *u, int fd, void *buf, unsigned len, uint64_t off)
{
    (void)u, (void)fd, (void)buf, (void)len, (void)off;
    return -ENOSYS;
}

#endif
