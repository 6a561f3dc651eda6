// SPDX-License-Identifier: MIT
/* bench-spawn-ref: an independent vfork and posix_spawn latency reference for
 * `make bench` (lat_proc vfork and spawn).
 *
 * Written for the bench script; it shares no code with lat_proc or the
 * harness, and is linked dynamically against libc alone:
 *
 *     cc -O2 -o build/bench/bench-spawn-ref scripts/bench-spawn-ref.c
 *
 * Usage: bench-spawn-ref [-t SECONDS] [-n INTERVALS] vfork | spawn PROGRAM
 *
 * One operation: vfork(), _exit(0) in the child, waitpid() in the parent
 * (vfork); or posix_spawn() of PROGRAM with no arguments but its name, its
 * stdout on /dev/null, then waitpid() (spawn). Intervals of at least -t
 * seconds (default 0.01) by CLOCK_MONOTONIC, one warm-up and -n (default 11).
 * Prints "<median us per operation> <best us per operation>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *prog;
static posix_spawn_file_actions_t fa;

static void wait_child(pid_t pid)
{
    int st;

    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            perror("bench-spawn-ref: waitpid");
            exit(1);
        }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench-spawn-ref: the child did not exit with 0\n");
        exit(1);
    }
}

static void op_vfork(void)
{
    pid_t pid = vfork();

    if (pid < 0) {
        perror("bench-spawn-ref: vfork");
        exit(1);
    }
    if (pid == 0)
        _exit(0);
    wait_child(pid);
}

static void op_spawn(void)
{
    char *args[] = { "hello", NULL };
    pid_t pid;
    int e = posix_spawn(&pid, prog, &fa, NULL, args, environ);

    if (e != 0) {
        fprintf(stderr, "bench-spawn-ref: posix_spawn %s: %s\n", prog, strerror(e));
        exit(1);
    }
    wait_child(pid);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double interval(void (*op)(void), double t)
{
    double a = now(), b;
    long n = 0;

    do {
        op();
        n++;
        b = now();
    } while (b - a < t);
    return (b - a) * 1e6 / n;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    double t = 0.01, v[1000];
    int n = 11, c, devnull;
    void (*op)(void);

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
    if (strcmp(argv[optind], "vfork") == 0 && optind + 1 == argc) {
        op = op_vfork;
    } else if (strcmp(argv[optind], "spawn") == 0 && optind + 2 == argc) {
        op = op_spawn;
        prog = argv[optind + 1];
        devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (devnull < 0 || posix_spawn_file_actions_init(&fa) != 0 ||
            posix_spawn_file_actions_adddup2(&fa, devnull, 1) != 0) {
            perror("bench-spawn-ref: /dev/null");
            return 1;
        }
    } else {
        goto usage;
    }
    interval(op, t);
    for (int i = 0; i < n; i++)
        v[i] = interval(op, t);
    qsort(v, (size_t)n, sizeof v[0], cmp);
    printf("%.4f %.4f\n", n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0]);
    return 0;
usage:
    fprintf(stderr, "usage: bench-spawn-ref [-t SECONDS] [-n INTERVALS] vfork | spawn PROGRAM\n");
    return 2;
}
