// SPDX-License-Identifier: MIT
/* bench-c2c-ref: an independent core-to-core round trip for make bench (not part of
 * lmbench; shares no code with it). Two threads, pinned to CPUs A and B, pass
 * the ownership of one cache-line-sized flag back and forth with C11
 * compare-and-swap: A swaps it from 0 to 1, B from 1 back to 0. Prints the
 * median over the samples of the nanoseconds per round trip, the smallest
 * sample and the round trips per sample:
 *
 *     bench-c2c-ref [-n samples] [-t seconds per sample] A B
 *     -> "<median ns> <min ns> <round trips>"
 *
 * The round trips per sample are chosen once, from a short timed run, so that
 * a sample lasts about -t seconds (default 0.01, 15 samples). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct flag {
    _Alignas(128) atomic_int turn;     /* 0: A's move, 1: B's move */
    char pad[124];
    _Alignas(128) atomic_int quit;
};

static struct flag f;

static double secs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    return pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static void *answer(void *arg)
{
    int cpu = *(int *)arg, one, zero;

    if (pin(cpu) != 0) {
        fprintf(stderr, "bench-c2c-ref: cannot pin to CPU %d\n", cpu);
        exit(1);
    }
    for (;;) {
        one = 1;
        zero = 0;
        if (atomic_compare_exchange_strong(&f.turn, &one, zero))
            continue;
        if (atomic_load_explicit(&f.quit, memory_order_relaxed))
            return NULL;
    }
}

/* count round trips from A's side; seconds they took */
static double ping(long count)
{
    double t0 = secs();
    for (long i = 0; i < count; i++) {
        int zero = 0;
        while (!atomic_compare_exchange_strong(&f.turn, &zero, 1))
            zero = 0;
    }
    return secs() - t0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = 15, opt, a, b;
    double t = 0.01, s[1000];
    long count = 1000;
    pthread_t th;

    while ((opt = getopt(argc, argv, "n:t:")) != -1) {
        if (opt == 'n')
            n = atoi(optarg);
        else if (opt == 't')
            t = atof(optarg);
        else
            return 2;
    }
    if (argc - optind != 2 || n < 1 || n > 1000 || !(t > 0)) {
        fprintf(stderr, "usage: bench-c2c-ref [-n samples] [-t seconds] A B\n");
        return 2;
    }
    a = atoi(argv[optind]);
    b = atoi(argv[optind + 1]);
    if (pin(a) != 0) {
        fprintf(stderr, "bench-c2c-ref: cannot pin to CPU %d\n", a);
        return 1;
    }
    atomic_store(&f.turn, 0);
    atomic_store(&f.quit, 0);
    errno = pthread_create(&th, NULL, answer, &b);
    if (errno != 0) {
        perror("bench-c2c-ref: pthread_create");
        return 1;
    }
    /* Warm up and size the sample: grow until a run takes a tenth of -t. */
    for (;;) {
        double d = ping(count);
        if (d >= t / 10 || count > (1L << 40))
            break;
        count *= 2;
    }
    count = (long)((double)count * t / ping(count)) + 1;
    for (int i = 0; i < n; i++)
        s[i] = ping(count) * 1e9 / (double)count;
    atomic_store(&f.quit, 1);
    pthread_join(th, NULL);
    qsort(s, (size_t)n, sizeof s[0], cmp);
    printf("%.2f %.2f %ld\n", n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2, s[0], count);
    return 0;
}
