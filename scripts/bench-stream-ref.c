// SPDX-License-Identifier: MIT
/* bench-stream-ref: a plain STREAM-style loop for `make bench`.
 *
 * Written from scratch for this project; it shares no code with our stream
 * command. Three arrays of doubles, the kernels written as the plain loops of
 * the STREAM benchmark's definition, left to the compiler:
 *
 *     cc -O2 -march=native -fno-tree-loop-distribute-patterns \
 *        -o build/bench/bench-stream-ref scripts/bench-stream-ref.c
 *
 * (-fno-tree-loop-distribute-patterns keeps GCC from turning copy into a call
 * of memcpy.)
 *
 * Usage: bench-stream-ref [-n PASSES] SIZE copy|scale|add|triad
 *
 * SIZE is the size of each array (suffixes k, m, g: binary). The arrays are
 * malloc'ed, aligned to 64 bytes and initialised first; then one untimed pass,
 * then -n timed passes (default 20), each timed with
 * clock_gettime(CLOCK_MONOTONIC). Bytes counted as STREAM counts them: copy
 * and scale 16 per element, add and triad 24. Prints one line on stdout:
 *
 *     <median MB/s> <best MB/s>        (MB = 10^6 bytes)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s)
        return 0;
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'm' || *end == 'M')
        v <<= 20, end++;
    else if (*end == 'g' || *end == 'G')
        v <<= 30, end++;
    return *end ? 0 : (size_t)v;
}

static void pass(int k, size_t n, double *restrict a, double *restrict b, double *restrict c,
                 double s)
{
    switch (k) {
    case 0:
        for (size_t j = 0; j < n; j++)
            c[j] = a[j];
        break;
    case 1:
        for (size_t j = 0; j < n; j++)
            b[j] = s * c[j];
        break;
    case 2:
        for (size_t j = 0; j < n; j++)
            c[j] = a[j] + b[j];
        break;
    default:
        for (size_t j = 0; j < n; j++)
            a[j] = b[j] + s * c[j];
        break;
    }
}

int main(int argc, char **argv)
{
    static const char *const names[] = { "copy", "scale", "add", "triad" };
    static const int bytes[] = { 16, 16, 24, 24 };
    int passes = 20, opt, k = -1;
    size_t size, n;
    double *a, *b, *c, *mbs;

    while ((opt = getopt(argc, argv, "n:")) != -1) {
        if (opt != 'n')
            return 2;
        passes = atoi(optarg);
    }
    if (argc - optind != 2 || passes < 1 || passes > 10000) {
        fprintf(stderr, "usage: bench-stream-ref [-n PASSES] SIZE copy|scale|add|triad\n");
        return 2;
    }
    size = parse_size(argv[optind]);
    for (int i = 0; i < 4; i++)
        if (strcmp(argv[optind + 1], names[i]) == 0)
            k = i;
    if (size < 4096 || k < 0) {
        fprintf(stderr, "bench-stream-ref: bad size or kernel\n");
        return 2;
    }
    n = size / sizeof(double);
    if (posix_memalign((void **)&a, 64, n * sizeof(double)) ||
        posix_memalign((void **)&b, 64, n * sizeof(double)) ||
        posix_memalign((void **)&c, 64, n * sizeof(double)) ||
        (mbs = malloc((size_t)passes * sizeof *mbs)) == NULL) {
        fprintf(stderr, "bench-stream-ref: out of memory\n");
        return 1;
    }
    for (size_t j = 0; j < n; j++) {
        a[j] = 1.0;
        b[j] = 2.0;
        c[j] = 0.0;
    }
    pass(k, n, a, b, c, 3.0);
    for (int i = 0; i < passes; i++) {
        double t0 = now();
        pass(k, n, a, b, c, 3.0);
        double dt = now() - t0;
        mbs[i] = (double)bytes[k] * (double)n / dt / 1e6;
    }
    qsort(mbs, (size_t)passes, sizeof *mbs, cmp);
    double med = passes % 2 ? mbs[passes / 2] : (mbs[passes / 2 - 1] + mbs[passes / 2]) / 2;
    /* Keep the arrays alive. */
    if (a[n / 2] + b[n / 3] + c[n / 5] == 42.4242)
        fputs("", stderr);
    printf("%.2f %.2f\n", med, mbs[passes - 1]);
    free(a);
    free(b);
    free(c);
    free(mbs);
    return 0;
}
