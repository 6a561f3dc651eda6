// SPDX-License-Identifier: MIT
/* bench-fork-ref: an independent fork+exit+wait latency reference for
 * `make bench` (lat_proc fork).
 *
 * Written from scratch for this project; it shares no code with lat_proc or the
 * harness, and it is meant to be linked dynamically against libc alone, so that
 * the process that forks is as small as a C program gets:
 *
 *     cc -O2 -o build/bench/bench-fork-ref scripts/bench-fork-ref.c
 *
 * Usage: bench-fork-ref [-t SECONDS] [-n INTERVALS]
 *
 * One operation: fork(); the child calls _exit(0) at once; the parent waits for
 * it with waitpid(). Each interval repeats the operation for at least -t
 * seconds (default 0.01), timed with clock_gettime(CLOCK_MONOTONIC); after one
 * warm-up interval, -n intervals (default 11) are taken. Prints one line on
 * stdout:
 *
 *     <median us per fork> <best us per fork> <lines of /proc/self/maps>
 *
 * The last figure is the number of mappings of the forking process, counted
 * before the first fork.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void one_fork(void)
{
    int ws;
    pid_t pid = fork();

    if (pid < 0) {
        perror("bench-fork-ref: fork");
        exit(1);
    }
    if (pid == 0)
        _exit(0);
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            perror("bench-fork-ref: waitpid");
            exit(1);
        }
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        fprintf(stderr, "bench-fork-ref: the child did not exit with 0\n");
        exit(1);
    }
}

/* Microseconds per fork over one interval of at least t seconds. */
static double interval(double t)
{
    double start = now_s(), end;
    long n = 0;

    do {
        for (int i = 0; i < 10; i++)
            one_fork();
        n += 10;
        end = now_s();
    } while (end - start < t);
    return (end - start) * 1e6 / (double)n;
}

static int count_maps(void)
{
    char buf[4096];
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC), lines = 0;
    ssize_t r;

    if (fd < 0)
        return -1;
    while ((r = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < r; i++)
            lines += buf[i] == '\n';
    close(fd);
    return r < 0 ? -1 : lines;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double t = 0.01, v[1000];
    int n = 11, c, maps;

    while ((c = getopt(argc, argv, "t:n:")) != -1) {
        switch (c) {
        case 't':
            t = atof(optarg);
            break;
        case 'n':
            n = atoi(optarg);
            break;
        default:
            fprintf(stderr, "usage: bench-fork-ref [-t SECONDS] [-n INTERVALS]\n");
            return 2;
        }
    }
    if (t <= 0 || t > 10 || n < 1 || n > 1000 || optind != argc) {
        fprintf(stderr, "usage: bench-fork-ref [-t SECONDS (0-10)] [-n INTERVALS (1-1000)]\n");
        return 2;
    }
    maps = count_maps();
    fflush(NULL);
    interval(t);
    for (int i = 0; i < n; i++)
        v[i] = interval(t);
    qsort(v, (size_t)n, sizeof v[0], cmp);
    printf("%.4f %.4f %d\n", n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], maps);
    return 0;
}
