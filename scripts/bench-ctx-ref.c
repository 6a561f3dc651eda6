// SPDX-License-Identifier: MIT
/* bench-ctx-ref: an independent context switch reference for `make bench`
 * (lat_ctx -s 0 2 with both processes on one CPU, as LMBENCH_SCHED=SINGLE).
 *
 * Written from scratch for this project; it shares no code with lat_ctx or the
 * harness:
 *
 *     cc -O2 -o build/bench/bench-ctx-ref scripts/bench-ctx-ref.c
 *
 * Usage: bench-ctx-ref [-c CPU] [-t SECONDS] [-n INTERVALS]
 *
 * Both processes are pinned to CPU -c (default: the first CPU this process may
 * use). The ring: the parent writes a 4-byte token into pipe A; the child reads
 * it and writes it into pipe B; the parent reads it back. One lap is two
 * switches. The overhead: the parent alone writes the token into a pipe and
 * reads it back (a hop's pipe calls without a switch). Each interval repeats
 * its operation a count found once (doubled until one run lasts -t seconds,
 * default 0.005); after one warm-up interval, -n intervals (default 11) of each
 * are taken, the overhead's first. One switch = median lap / 2 minus the
 * smallest overhead interval. Prints one line on stdout:
 *
 *     <us per switch> <overhead us> <us per hop (lap / 2)> <median overhead us>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_N 101

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
    fprintf(stderr, "bench-ctx-ref: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void put(int fd, int *tok)
{
    if (write(fd, tok, sizeof *tok) != (ssize_t)sizeof *tok)
        die("write");
}

static void get(int fd, int *tok)
{
    if (read(fd, tok, sizeof *tok) != (ssize_t)sizeof *tok)
        die("read");
}

struct job {
    int self[2];          /* the overhead's pipe */
    int a[2], b[2];       /* parent -> child, child -> parent */
    int token;
};

static void overhead(struct job *j, long n)
{
    for (long i = 0; i < n; i++) {
        put(j->self[1], &j->token);
        get(j->self[0], &j->token);
    }
}

static void laps(struct job *j, long n)
{
    for (long i = 0; i < n; i++) {
        put(j->a[1], &j->token);
        get(j->b[0], &j->token);
    }
}

/* Seconds per operation of n runs of fn, in intervals. */
static long count_for(void (*fn)(struct job *, long), struct job *j, double t)
{
    long n = 1;

    for (;;) {
        double t0 = now_s();
        fn(j, n);
        if (now_s() - t0 >= t || n > (1L << 40))
            return n;
        n *= 2;
    }
}

static void intervals(void (*fn)(struct job *, long), struct job *j, long n, int k, double *out)
{
    fn(j, n);   /* warm-up */
    for (int i = 0; i < k; i++) {
        double t0 = now_s();
        fn(j, n);
        out[i] = (now_s() - t0) / (double)n;
    }
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double t = 0.005, ovr[MAX_N], lap[MAX_N];
    int k = 11, cpu = -1, o, ws;
    struct job j = { .token = 1 };
    cpu_set_t set;
    pid_t pid;

    while ((o = getopt(argc, argv, "c:t:n:")) != -1) {
        switch (o) {
        case 'c': cpu = atoi(optarg); break;
        case 't': t = atof(optarg); break;
        case 'n': k = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: bench-ctx-ref [-c CPU] [-t SECONDS] [-n INTERVALS]\n");
            return 2;
        }
    }
    if (k < 1 || k > MAX_N || !(t > 0)) {
        fprintf(stderr, "bench-ctx-ref: -n must be 1..%d and -t positive\n", MAX_N);
        return 2;
    }
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        die("sched_getaffinity");
    for (int c = 0; cpu < 0 && c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpu = c;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        die("sched_setaffinity");
    if (pipe(j.self) != 0 || pipe(j.a) != 0 || pipe(j.b) != 0)
        die("pipe");

    pid = fork();   /* the child inherits the affinity: the same CPU */
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        int tok;
        close(j.a[1]);
        close(j.b[0]);
        for (;;) {
            ssize_t r = read(j.a[0], &tok, sizeof tok);
            if (r == 0)
                _exit(0);
            if (r != (ssize_t)sizeof tok || write(j.b[1], &tok, sizeof tok) != (ssize_t)sizeof tok)
                _exit(1);
        }
    }
    close(j.a[0]);
    close(j.b[1]);

    intervals(overhead, &j, count_for(overhead, &j, t), k, ovr);
    intervals(laps, &j, count_for(laps, &j, t), k, lap);

    close(j.a[1]);
    close(j.b[0]);
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR)
            die("waitpid");
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        fprintf(stderr, "bench-ctx-ref: the child failed\n");
        return 1;
    }
    qsort(ovr, (size_t)k, sizeof ovr[0], cmp_d);
    qsort(lap, (size_t)k, sizeof lap[0], cmp_d);
    {
        double hop = lap[k / 2] / 2 * 1e6, o_us = ovr[0] * 1e6;
        printf("%.4f %.4f %.4f %.4f\n", hop - o_us, o_us, hop, ovr[k / 2] * 1e6);
    }
    return 0;
}
