// SPDX-License-Identifier: MIT
/* bench-prim-ref: independent references for `make bench` of lat_futex,
 * lat_eventfd, lat_epoll and lat_pthread.
 *
 * Written for the bench script; it shares no code with those commands or the
 * harness, and needs libc and pthreads alone:
 *
 *     cc -O2 -pthread -o build/bench/bench-prim-ref scripts/bench-prim-ref.c
 *
 * Usage: bench-prim-ref [-t SECONDS] [-n INTERVALS] [-w SECONDS] [-c CPU[,CPU]] MODE [FDS]
 *
 * MODE, each one operation:
 *   futex-thread, futex-process  store 1 + FUTEX_WAKE, FUTEX_WAIT until the other
 *                                end has stored 0 and woken us (one round trip);
 *                                private ops between threads, shared ones between
 *                                processes (the word in a MAP_SHARED page)
 *   eventfd-thread, eventfd-process  write 1 to one eventfd, read the answer
 *                                from another (one round trip)
 *   epoll FDS                    write 1 to the next of FDS eventfds, epoll_wait
 *                                (timeout 0) gets it, read drains it
 *   create                       pthread_create + pthread_join, a thread that returns
 *   mutex                        one round trip of a hand-off through three mutexes
 *   cond                         one round trip of a condition-variable ping-pong
 *                                (the mutex held by the measuring end between waits)
 * -c A pins the measuring end (and the other end) to CPU A; -c A,B the other
 * end to B. The operation runs untimed for -w seconds first (default 0.3: the
 * harness's calibration and untimed interval come before its timed ones too,
 * and on a VM two threads on two vCPUs wake each other much faster for the
 * first few tenths of a second of a process than afterwards), then intervals
 * of at least -t seconds (default 0.01) by CLOCK_MONOTONIC, the first
 * calibrating, then -n (default 11). Prints "<median us per op> <best us per op>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
    fprintf(stderr, "bench-prim-ref: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void pin(int cpu)
{
    cpu_set_t s;

    if (cpu < 0)
        return;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0)
        die("sched_setaffinity");
}

/* The shared page: futex word, stop flag, eventfds, mutexes and conditions. */
struct page {
    atomic_uint w;
    atomic_int quit;
    int efd[2];
    pthread_mutex_t m[3];
    atomic_int holds;
    pthread_mutex_t lk;
    pthread_cond_t cv[2];
    int who;
};

static struct page *pg;
static int fpriv;            /* FUTEX_PRIVATE_FLAG or 0 */
static int other_cpu = -1;
static int mode;
enum { FUTEX, EVENTFD, EPOLL, CREATE, MUTEX, COND };

static long fx(int op, unsigned v)
{
    return syscall(SYS_futex, &pg->w, op | fpriv, v, NULL, NULL, 0);
}

/* --- the other end ----------------------------------------------------------- */

static void serve(void)
{
    uint64_t v;
    unsigned j = 0;

    pin(other_cpu);
    switch (mode) {
    case FUTEX:
        for (;;) {
            while (atomic_load(&pg->w) != 1)
                fx(FUTEX_WAIT, 0);
            if (atomic_load(&pg->quit))
                return;
            atomic_store(&pg->w, 0);
            fx(FUTEX_WAKE, 1);
        }
    case EVENTFD:
        for (;;) {
            if (read(pg->efd[0], &v, 8) != 8)
                die("read");
            if (atomic_load(&pg->quit))
                return;
            v = 1;
            if (write(pg->efd[1], &v, 8) != 8)
                die("write");
        }
    case MUTEX:
        pthread_mutex_lock(&pg->m[2]);
        atomic_store(&pg->holds, 1);
        for (;; j = (j + 1) % 3) {
            pthread_mutex_lock(&pg->m[j]);
            if (atomic_load(&pg->quit))
                return;
            pthread_mutex_unlock(&pg->m[(j + 2) % 3]);
        }
    case COND:
        pthread_mutex_lock(&pg->lk);
        for (;;) {
            while (pg->who != 1)
                pthread_cond_wait(&pg->cv[1], &pg->lk);
            if (atomic_load(&pg->quit)) {
                pthread_mutex_unlock(&pg->lk);
                return;
            }
            pg->who = 0;
            pthread_cond_signal(&pg->cv[0]);
        }
    }
}

static void *serve_thread(void *a)
{
    serve();
    return a;
}

/* --- the measuring end --------------------------------------------------------- */

static int *efds;
static int nfds, ep;
static unsigned step, turn;

static void *nothing(void *a)
{
    return a;
}

static void ops(long n)
{
    uint64_t v = 1;
    struct epoll_event ev[8];
    pthread_t t;

    if (mode == COND)
        pthread_mutex_lock(&pg->lk);
    for (long i = 0; i < n; i++) {
        switch (mode) {
        case FUTEX:
            atomic_store(&pg->w, 1);
            fx(FUTEX_WAKE, 1);
            while (atomic_load(&pg->w) == 1)
                fx(FUTEX_WAIT, 1);
            break;
        case EVENTFD:
            v = 1;
            if (write(pg->efd[0], &v, 8) != 8 || read(pg->efd[1], &v, 8) != 8)
                die("eventfd");
            break;
        case EPOLL:
            v = 1;
            if (write(efds[turn], &v, 8) != 8)
                die("write");
            if (epoll_wait(ep, ev, 8, 0) != 1 || ev[0].data.fd != efds[turn])
                die("epoll_wait");
            if (read(efds[turn], &v, 8) != 8)
                die("read");
            turn = turn + 1 == (unsigned)nfds ? 0 : turn + 1;
            break;
        case CREATE:
            if (pthread_create(&t, NULL, nothing, NULL) != 0 || pthread_join(t, NULL) != 0)
                die("pthread_create/join");
            break;
        case MUTEX:
            pthread_mutex_unlock(&pg->m[step]);
            pthread_mutex_lock(&pg->m[(step + 2) % 3]);
            step = (step + 1) % 3;
            break;
        case COND:
            /* The lock is held across the loop (taken below). */
            pg->who = 1;
            pthread_cond_signal(&pg->cv[1]);
            while (pg->who != 0)
                pthread_cond_wait(&pg->cv[0], &pg->lk);
            break;
        }
    }
    if (mode == COND)
        pthread_mutex_unlock(&pg->lk);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    double tmin = 0.01, warm = 0.3, res[1000];
    int nint = 11, opt, cpu = -1, process = 0;
    pid_t kid = -1;
    pthread_t th;
    const char *m;

    while ((opt = getopt(argc, argv, "t:n:w:c:")) != -1) {
        if (opt == 't')
            tmin = atof(optarg);
        else if (opt == 'w')
            warm = atof(optarg);
        else if (opt == 'n')
            nint = atoi(optarg);
        else if (opt == 'c' && sscanf(optarg, "%d,%d", &cpu, &other_cpu) >= 1) {
            if (other_cpu < 0)
                other_cpu = cpu;
        } else
            goto usage;
    }
    if (optind >= argc || nint < 1 || nint > 1000)
        goto usage;
    m = argv[optind];
    if (!strcmp(m, "futex-thread") || !strcmp(m, "futex-process"))
        mode = FUTEX;
    else if (!strcmp(m, "eventfd-thread") || !strcmp(m, "eventfd-process"))
        mode = EVENTFD;
    else if (!strcmp(m, "epoll"))
        mode = EPOLL;
    else if (!strcmp(m, "create"))
        mode = CREATE;
    else if (!strcmp(m, "mutex"))
        mode = MUTEX;
    else if (!strcmp(m, "cond"))
        mode = COND;
    else
        goto usage;
    process = strstr(m, "-process") != NULL;
    fpriv = process ? 0 : FUTEX_PRIVATE_FLAG;

    pg = mmap(NULL, sizeof *pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pg == MAP_FAILED)
        die("mmap");
    if ((pg->efd[0] = eventfd(0, 0)) < 0 || (pg->efd[1] = eventfd(0, 0)) < 0)
        die("eventfd");
    for (int i = 0; i < 3; i++)
        pthread_mutex_init(&pg->m[i], NULL);
    pthread_mutex_init(&pg->lk, NULL);
    pthread_cond_init(&pg->cv[0], NULL);
    pthread_cond_init(&pg->cv[1], NULL);
    pin(cpu);

    if (mode == EPOLL) {
        nfds = optind + 1 < argc ? atoi(argv[optind + 1]) : 200;
        if (nfds < 1 || !(efds = calloc((size_t)nfds, sizeof *efds)))
            goto usage;
        if ((ep = epoll_create1(0)) < 0)
            die("epoll_create1");
        for (int i = 0; i < nfds; i++) {
            struct epoll_event e = { .events = EPOLLIN };
            if ((efds[i] = eventfd(0, 0)) < 0)
                die("eventfd (raise ulimit -n?)");
            e.data.fd = efds[i];
            if (epoll_ctl(ep, EPOLL_CTL_ADD, efds[i], &e) != 0)
                die("epoll_ctl");
        }
    } else if (mode == MUTEX) {
        pthread_mutex_lock(&pg->m[0]);
        pthread_mutex_lock(&pg->m[1]);
    }
    if (mode == FUTEX || mode == EVENTFD || mode == MUTEX || mode == COND) {
        if (process) {
            kid = fork();
            if (kid < 0)
                die("fork");
            if (kid == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                serve();
                _exit(0);
            }
        } else if (pthread_create(&th, NULL, serve_thread, NULL) != 0) {
            die("pthread_create");
        }
        if (mode == MUTEX)
            while (!atomic_load(&pg->holds))
                sched_yield();
    }

    /* Warm up, then calibrate: double the count until one interval lasts tmin. */
    for (double t0 = now(); now() - t0 < warm;)
        ops(1);
    long n = 1;
    for (;;) {
        double t0 = now();
        ops(n);
        if (now() - t0 >= tmin)
            break;
        n *= 2;
    }
    for (int i = 0; i < nint; i++) {
        double t0 = now();
        ops(n);
        res[i] = (now() - t0) / (double)n * 1e6;
    }
    qsort(res, (size_t)nint, sizeof res[0], cmp);
    printf("%.4f %.4f\n", nint % 2 ? res[nint / 2] : (res[nint / 2 - 1] + res[nint / 2]) / 2,
           res[0]);
    if (kid > 0) {
        kill(kid, SIGKILL);
        waitpid(kid, NULL, 0);
    }
    return 0;   /* a partner thread ends with the process */
usage:
    fprintf(stderr, "usage: bench-prim-ref [-t SEC] [-n INTERVALS] [-w SEC] [-c CPU[,CPU]] "
                    "futex-thread|futex-process|eventfd-thread|eventfd-process|"
                    "epoll [FDS]|create|mutex|cond\n");
    return 2;
}
