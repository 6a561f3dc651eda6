// SPDX-License-Identifier: MIT
/* bench-mprotect-ref: an independent per-page mprotect and madvise reference
 * for `make bench` (lat_mprotect).
 *
 * Written for the bench script; it shares no code with lat_mprotect:
 *
 *     cc -O2 -o build/bench/bench-mprotect-ref scripts/bench-mprotect-ref.c
 *
 * Usage: bench-mprotect-ref [-t SECONDS] [-n INTERVALS] mprotect|madvise PAGES
 *
 * The range: PAGES pages of anonymous memory between two inaccessible guard
 * pages, MADV_NOHUGEPAGE, every page written once. One operation: mprotect
 * of the range to PROT_READ and back to PROT_READ|PROT_WRITE (mprotect); or
 * madvise(MADV_DONTNEED) of the range and a store to each page (madvise).
 * Intervals of at least -t seconds (default 0.01), one warm-up, -n (default
 * 11). Prints "<median us per page> <best us per page>".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static char *base;
static size_t pg, npg;
static int mode;   /* 0 mprotect, 1 madvise */

static void die(const char *s)
{
    perror(s);
    exit(1);
}

static void op(void)
{
    size_t len = pg * npg;

    if (mode == 0) {
        if (mprotect(base, len, PROT_READ) || mprotect(base, len, PROT_READ | PROT_WRITE))
            die("bench-mprotect-ref: mprotect");
    } else {
        if (madvise(base, len, MADV_DONTNEED))
            die("bench-mprotect-ref: madvise");
        for (size_t i = 0; i < npg; i++)
            ((volatile char *)base)[i * pg] = 2;
    }
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double interval(double t)
{
    double a = now(), b;
    long n = 0;

    do {
        op();
        n++;
        b = now();
    } while (b - a < t);
    return (b - a) * 1e6 / ((double)n * (double)npg);
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    double t = 0.01, v[1000];
    int n = 11, c;
    char *m;

    while ((c = getopt(argc, argv, "t:n:")) != -1) {
        if (c == 't')
            t = atof(optarg);
        else if (c == 'n')
            n = atoi(optarg);
        else
            goto usage;
    }
    if (t <= 0 || t > 10 || n < 1 || n > 1000 || optind + 2 != argc)
        goto usage;
    if (strcmp(argv[optind], "mprotect") == 0)
        mode = 0;
    else if (strcmp(argv[optind], "madvise") == 0)
        mode = 1;
    else
        goto usage;
    npg = strtoul(argv[optind + 1], NULL, 10);
    if (npg < 1 || npg > (1u << 20))
        goto usage;
    pg = (size_t)sysconf(_SC_PAGESIZE);
    m = mmap(NULL, (npg + 2) * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        die("bench-mprotect-ref: mmap");
    base = m + pg;
    if (mprotect(base, npg * pg, PROT_READ | PROT_WRITE))
        die("bench-mprotect-ref: mprotect");
    madvise(base, npg * pg, MADV_NOHUGEPAGE);
    memset(base, 1, npg * pg);
    interval(t);
    for (int i = 0; i < n; i++)
        v[i] = interval(t);
    qsort(v, (size_t)n, sizeof v[0], cmp);
    printf("%.4f %.4f\n", n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0]);
    return 0;
usage:
    fprintf(stderr, "usage: bench-mprotect-ref [-t SECONDS] [-n INTERVALS] mprotect|madvise PAGES\n");
    return 2;
}
