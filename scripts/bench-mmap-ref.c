// SPDX-License-Identifier: MIT
/* bench-mmap-ref: an independent reference for lat_mmap in `make bench`.
 *
 * Written from scratch for this project; it shares no code with lat_mmap or
 * src/lib, so that the two check each other. It does lmbench 3's operation:
 * mmap() of the first SIZE bytes of FILE (MAP_SHARED, PROT_READ|PROT_WRITE),
 * a store of one byte at every 16384th byte below SIZE / 10 (with -r: every
 * 163840th byte below SIZE), and munmap().
 *
 *     cc -O2 -o build/bench/bench-mmap-ref scripts/bench-mmap-ref.c
 *
 * Usage: bench-mmap-ref [-r] [-t SECONDS] [-n INTERVALS] SIZE FILE
 *
 * Each interval repeats the operation for at least -t seconds (default 0.05),
 * timed with clock_gettime(CLOCK_MONOTONIC); after one warm-up interval, -n
 * intervals (default 11) are taken. The bytes stored are 0x5a: FILE is changed.
 * Prints one line on stdout:
 *
 *     <median us per operation> <best us per operation> <operations per interval>
 *
 * SIZE takes the suffixes k, m, g (binary: 64k = 65536).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);

    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
    }
    if (*end != '\0' || v == 0) {
        fprintf(stderr, "bench-mmap-ref: bad size '%s'\n", s);
        exit(2);
    }
    return (size_t)v;
}

static void one(int fd, size_t size, size_t step, size_t end)
{
    volatile char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

    if (p == MAP_FAILED) {
        perror("bench-mmap-ref: mmap");
        exit(1);
    }
    for (size_t off = 0; off < end; off += step)
        p[off] = 0x5a;
    if (munmap((void *)p, size) != 0) {
        perror("bench-mmap-ref: munmap");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    double t = 0.05, samples[1000];
    int n = 11, c, whole = 0;
    size_t size, step, end;
    long ops = 0;
    int fd;

    while ((c = getopt(argc, argv, "rt:n:")) != -1) {
        switch (c) {
        case 'r': whole = 1; break;
        case 't': t = atof(optarg); break;
        case 'n': n = atoi(optarg); break;
        default: return 2;
        }
    }
    if (argc - optind != 2 || n < 1 || n > 1000 || !(t > 0)) {
        fprintf(stderr, "usage: bench-mmap-ref [-r] [-t SECONDS] [-n INTERVALS] SIZE FILE\n");
        return 2;
    }
    size = parse_size(argv[optind]);
    fd = open(argv[optind + 1], O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "bench-mmap-ref: %s: %s\n", argv[optind + 1], strerror(errno));
        return 1;
    }
    step = whole ? 163840 : 16384;
    end = whole ? size : size / 10;
    if (end == 0)
        end = 1;

    for (int i = -1; i < n; i++) {
        double t0 = seconds(), t1;
        long k = 0;
        do {
            one(fd, size, step, end);
            k++;
            t1 = seconds();
        } while (t1 - t0 < t);
        if (i >= 0) {
            samples[i] = (t1 - t0) / (double)k * 1e6;
            ops = k;
        }
    }
    qsort(samples, (size_t)n, sizeof samples[0], cmp);
    printf("%.3f %.3f %ld\n", n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2,
           samples[0], ops);
    close(fd);
    return 0;
}
