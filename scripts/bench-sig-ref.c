// SPDX-License-Identifier: MIT
/* bench-sig-ref: an independent reference for lat_sig catch (make bench).
 *
 * The cost of handling a signal, as lmbench 3 reported it: kill() of SIGUSR1 to
 * oneself with its handler, minus kill() of signal 0 to oneself. The two loops
 * are timed in alternating intervals of about 20 ms each (15 of each by
 * default); the figure is the median interval of the first minus the median
 * interval of the second.
 *
 * Usage: bench-sig-ref [intervals]
 * Prints one line: "<handler us> <kill+handler us> <kill(self,0) us>". */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t count;

static void handler(int sig)
{
    (void)sig;
    count++;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Microseconds per call of kill(self, sig) over n calls. */
static double per_call(pid_t self, int sig, long n)
{
    double t0 = now();

    for (long i = 0; i < n; i++)
        if (kill(self, sig) != 0) {
            perror("kill");
            exit(1);
        }
    return (now() - t0) * 1e6 / (double)n;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 15;
    struct sigaction sa;
    pid_t self = getpid();
    double *sig, *zero;
    long n = 1000;

    if (rounds < 1 || rounds > 1000) {
        fprintf(stderr, "usage: bench-sig-ref [intervals 1-1000]\n");
        return 2;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0) {
        perror("sigaction");
        return 1;
    }
    sig = malloc((size_t)rounds * sizeof *sig);
    zero = malloc((size_t)rounds * sizeof *zero);
    if (sig == NULL || zero == NULL)
        return 1;
    /* Calls per interval: about 20 ms of the signal loop. */
    for (;;) {
        double us = per_call(self, SIGUSR1, n);
        if (us * (double)n >= 20000 || n > 100000000)
            break;
        n *= 2;
    }
    for (int r = 0; r < rounds; r++) {
        long before = count;
        sig[r] = per_call(self, SIGUSR1, n);
        zero[r] = per_call(self, 0, n);
        if (count - before != n) {
            fprintf(stderr, "bench-sig-ref: %ld signals sent, %ld handled\n", n,
                    (long)(count - before));
            return 1;
        }
    }
    double s = median(sig, rounds), z = median(zero, rounds);
    printf("%.4f %.4f %.4f\n", s - z, s, z);
    free(sig);
    free(zero);
    return 0;
}
