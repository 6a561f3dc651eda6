// SPDX-License-Identifier: MIT
/* bench-uring-ref: an independent io_uring round-trip reference for `make
 * bench` (lat_io_uring nop and read).
 *
 * Written separately for the bench script; it shares no code with
 * lat_io_uring or src/lib. No liburing: io_uring_setup and io_uring_enter
 * through syscall(2), the rings mapped by hand (one mapping for both rings,
 * which every kernel since 5.4 offers, IORING_FEAT_SINGLE_MMAP).
 *
 *     cc -O2 -o build/bench/bench-uring-ref scripts/bench-uring-ref.c
 *
 * Usage: bench-uring-ref [-t SECONDS] [-n INTERVALS] nop | read FILE
 *
 * One operation: one entry written to the submission ring, one
 * io_uring_enter(fd, 1, 1, IORING_ENTER_GETEVENTS), the completion taken off
 * the completion ring (a read: 4096 bytes at offset 0 of FILE, which must
 * hold that many). Each interval repeats it for at least -t seconds (default
 * 0.01) by CLOCK_MONOTONIC; one warm-up interval, then -n (default 11).
 * Prints "<median us per operation> <best us per operation>".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int ring_fd;
static unsigned char *ring;          /* both rings */
static struct io_uring_sqe *sqe_tab;
static struct io_uring_params par;
static int file_fd = -1;
static char *rbuf;

static void fail(const char *what)
{
    perror(what);
    exit(1);
}

static void setup(void)
{
    size_t sq_len, cq_len, len;

    ring_fd = (int)syscall(__NR_io_uring_setup, 4, &par);
    if (ring_fd < 0)
        fail("bench-uring-ref: io_uring_setup");
    if (!(par.features & IORING_FEAT_SINGLE_MMAP)) {
        fprintf(stderr, "bench-uring-ref: the kernel lacks IORING_FEAT_SINGLE_MMAP\n");
        exit(1);
    }
    sq_len = par.sq_off.array + par.sq_entries * 4;
    cq_len = par.cq_off.cqes + par.cq_entries * sizeof(struct io_uring_cqe);
    len = sq_len > cq_len ? sq_len : cq_len;
    ring = mmap(0, len, PROT_READ | PROT_WRITE, MAP_SHARED, ring_fd, IORING_OFF_SQ_RING);
    if (ring == MAP_FAILED)
        fail("bench-uring-ref: mmap rings");
    sqe_tab = mmap(0, par.sq_entries * sizeof *sqe_tab, PROT_READ | PROT_WRITE, MAP_SHARED,
                   ring_fd, IORING_OFF_SQES);
    if (sqe_tab == MAP_FAILED)
        fail("bench-uring-ref: mmap sqes");
}

#define U32(off) ((unsigned *)(ring + (off)))

static void one(int op)
{
    unsigned t = *U32(par.sq_off.tail), slot = t & *U32(par.sq_off.ring_mask), h;
    struct io_uring_sqe *e = &sqe_tab[slot];
    struct io_uring_cqe *c;

    memset(e, 0, sizeof *e);
    e->opcode = (unsigned char)op;
    if (op == IORING_OP_READ) {
        e->fd = file_fd;
        e->addr = (uintptr_t)rbuf;
        e->len = 4096;
    }
    U32(par.sq_off.array)[slot] = slot;
    __atomic_store_n(U32(par.sq_off.tail), t + 1, __ATOMIC_RELEASE);
    if (syscall(__NR_io_uring_enter, ring_fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) != 1)
        fail("bench-uring-ref: io_uring_enter");
    h = *U32(par.cq_off.head);
    if (__atomic_load_n(U32(par.cq_off.tail), __ATOMIC_ACQUIRE) == h) {
        fprintf(stderr, "bench-uring-ref: no completion\n");
        exit(1);
    }
    c = (struct io_uring_cqe *)(ring + par.cq_off.cqes) + (h & *U32(par.cq_off.ring_mask));
    if (c->res != (op == IORING_OP_READ ? 4096 : 0)) {
        fprintf(stderr, "bench-uring-ref: completion result %d\n", c->res);
        exit(1);
    }
    __atomic_store_n(U32(par.cq_off.head), h + 1, __ATOMIC_RELEASE);
}

static double seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double interval(int op, double t)
{
    double t0 = seconds(), t1;
    long n = 0;

    do {
        for (int i = 0; i < 100; i++)
            one(op);
        n += 100;
        t1 = seconds();
    } while (t1 - t0 < t);
    return (t1 - t0) * 1e6 / n;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    double t = 0.01, v[1000];
    int n = 11, c, op;

    while ((c = getopt(argc, argv, "t:n:")) != -1) {
        if (c == 't')
            t = atof(optarg);
        else if (c == 'n')
            n = atoi(optarg);
        else
            goto usage;
    }
    if (t <= 0 || t > 10 || n < 1 || n > 1000 || optind >= argc)
        goto usage;
    if (strcmp(argv[optind], "nop") == 0 && optind + 1 == argc) {
        op = IORING_OP_NOP;
    } else if (strcmp(argv[optind], "read") == 0 && optind + 2 == argc) {
        op = IORING_OP_READ;
        file_fd = open(argv[optind + 1], O_RDONLY);
        if (file_fd < 0)
            fail(argv[optind + 1]);
        if (posix_memalign((void **)&rbuf, 4096, 4096) != 0)
            fail("bench-uring-ref: posix_memalign");
    } else {
        goto usage;
    }
    setup();
    interval(op, t);
    for (int i = 0; i < n; i++)
        v[i] = interval(op, t);
    qsort(v, n, sizeof v[0], by_value);
    printf("%.4f %.4f\n", n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0]);
    return 0;
usage:
    fprintf(stderr, "usage: bench-uring-ref [-t SECONDS] [-n INTERVALS] nop | read FILE\n");
    return 2;
}
