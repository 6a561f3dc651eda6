// SPDX-License-Identifier: MIT
/* make bench's reference for lat_ops' bogomflops: a plain loop over an array
 * of independent elements, each updated by one expression of four
 * floating-point operations, x[i] = (x[i] + a - b) * c / d, pass after pass.
 * Built with -O2 -fno-tree-vectorize (scalar operations, as lmbench 3's were;
 * no -ffast-math, so nothing is reassociated); the operands come from
 * volatiles so that nothing is folded, and an empty asm with a memory clobber
 * between passes keeps the passes in order. Prints the nanoseconds per
 * element of the best of 15 intervals of at least 20 ms.
 * Usage: bench-bogo-ref float|double */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 1024
#define INTERVALS 15

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile double va = 1.0, vb = 0.5, vc = 3.0, vd = 5.0;

#define PASSES(T, x, passes)                                          \
    do {                                                              \
        T a = (T)va, b = (T)vb, c = (T)vc, d = (T)vd;                 \
        for (long p = 0; p < (passes); p++) {                         \
            for (int i = 0; i < N; i++)                               \
                x[i] = (x[i] + a - b) * c / d;                        \
            __asm__ __volatile__("" ::: "memory");                    \
        }                                                             \
    } while (0)

static float xf[N];
static double xd[N];

static void run(int dbl, long passes)
{
    if (dbl)
        PASSES(double, xd, passes);
    else
        PASSES(float, xf, passes);
}

int main(int argc, char **argv)
{
    int dbl;
    long passes = 1;
    double best = 1e300, sum = 0;

    if (argc != 2 || (strcmp(argv[1], "float") != 0 && strcmp(argv[1], "double") != 0)) {
        fprintf(stderr, "usage: bench-bogo-ref float|double\n");
        return 2;
    }
    dbl = strcmp(argv[1], "double") == 0;
    for (int i = 0; i < N; i++) {
        xf[i] = 1.5f + (float)(i % 12);
        xd[i] = 1.5 + (double)(i % 12);
    }
    for (;;) {   /* passes for an interval of 20 ms or more */
        double t0 = now();
        run(dbl, passes);
        if (now() - t0 >= 20e6)
            break;
        passes *= 2;
    }
    for (int k = 0; k < INTERVALS; k++) {
        double t0 = now();
        run(dbl, passes);
        double t = (now() - t0) / ((double)passes * N);
        if (t < best)
            best = t;
    }
    for (int i = 0; i < N; i++)
        sum += dbl ? xd[i] : xf[i];
    printf("%.4f ns per element (%s, %d elements, %ld passes; sum %g)\n", best, argv[1], N,
           passes, sum);
    return 0;
}
