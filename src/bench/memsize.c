// SPDX-License-Identifier: MIT
/* memsize: how many megabytes can be allocated and touched quickly.
 *
 * A child process maps the memory asked for (at most the share the memory
 * guard allows, three quarters of what this process may still use:
 * MemAvailable, the cgroup limits, RLIMIT_AS, so that the test itself does not
 * push the machine into swapping or the OOM killer) and
 * writes one byte in every page, 16 MB at a time, timing each step and
 * noting whether the system swapped meanwhile (pswpout of /proc/vmstat, the
 * child's major faults). A slow step (20 times the fastest and over 50 ms)
 * ends the touching only when the system swapped during it (where that cannot
 * be observed: when the two steps after it are slow too); otherwise it was a
 * preemption and counts (lmb_touch_judge, src/lib/judge.c). The touching also
 * ends at the end of the memory or after 20 s of CPU time (120 s in all),
 * which a warning says; the parent reports the megabytes the child last
 * said count. Before each step the child reads again what is available, and
 * stops when what is left would fall under an eighth of what was there at the
 * start (other processes took memory meanwhile), which a warning says. The
 * child asks to be the OOM killer's first choice (oom_score_adj 1000), so that
 * if memory runs out anyway only the probe dies; what it reported before
 * counts. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/judge.h"
#include "lib/mem.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

#define MB (1024ULL * 1024ULL)
#define STEP_MB 16
#define DEFAULT_MB 4096
/* The touching stops after this much CPU time (a busy machine stretches the
 * wall time, not the CPU time the faults cost), or this much wall time. */
#define CPU_BUDGET_NS 20000000000ULL
#define WALL_BUDGET_NS 120000000000ULL
/* Sent after the megabytes when a budget ended the touching early. */
#define OUT_OF_TIME UINT32_MAX
/* Sent when the memory available fell too low to go on. */
#define OUT_OF_ROOM (UINT32_MAX - 1)
/* The share of the memory available the probe may take: the memory guard's
 * (lmb_memory_fits). */
#define SHARE_NUM 3
#define SHARE_DEN 4

/* Pages the system has swapped out so far; *known false when it cannot tell. */
static unsigned long long swapped_out(bool *known)
{
    FILE *f = fopen("/proc/vmstat", "r");
    char line[128];
    unsigned long long v = 0;

    *known = false;
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "pswpout %llu", &v) == 1) {
            *known = true;
            break;
        }
    fclose(f);
    return v;
}

/* The CPU time this process has used (user + system) in ns, and its major
 * faults. */
static uint64_t cpu_used(long *majflt)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0) {
        *majflt = 0;
        return 0;
    }
    *majflt = ru.ru_majflt;
    return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ULL +
           ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ULL;
}

/* Makes this process the OOM killer's first choice. */
static void oom_first(void)
{
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

    if (fd >= 0) {
        if (write(fd, "1000", 4) != 4) {
            /* Not fatal: the other checks still keep the probe in bounds. */
        }
        close(fd);
    }
}

/* In the child: touch, reporting on fd the megabytes that count each time
 * they grow; stop (OUT_OF_ROOM) when less than `reserve` bytes would be left
 * after the next step. */
static void toucher(const struct lmb_ctx *ctx, uint64_t bytes, uint64_t reserve, int fd,
                    pid_t parent)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t nsteps = (size_t)((bytes + STEP_MB * MB - 1) / (STEP_MB * MB)), n = 0, counted = 0;
    struct lmb_touch_step *steps;
    uint32_t said = 0;
    uint64_t start, cpu_start;
    long mf;
    char *p;

    if (lmb_cleanup_child(parent) != 0)
        _exit(1);
    oom_first();
    steps = calloc(nsteps ? nsteps : 1, sizeof *steps);
    if (steps == NULL)
        _exit(1);
    p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
             -1, 0);
    if (p == MAP_FAILED)
        _exit(2);
    start = lmb_now(&ctx->clock);
    cpu_start = cpu_used(&mf);
    for (uint64_t off = 0; off < bytes; off += STEP_MB * MB) {
        uint64_t end = off + STEP_MB * MB < bytes ? off + STEP_MB * MB : bytes;
        uint64_t room = lmb_memory_unused(NULL);
        if (room != UINT64_MAX && room < reserve + (end - off)) {
            uint32_t m = OUT_OF_ROOM;
            if (write(fd, &m, sizeof m) != (ssize_t)sizeof m)
                _exit(1);
            break;
        }
        bool k0, k1;
        unsigned long long sw0 = swapped_out(&k0);
        long mf0, mf1;
        cpu_used(&mf0);
        uint64_t t0 = lmb_now(&ctx->clock);
        for (uint64_t o = off; o < end; o += (uint64_t)page)
            p[o] = 1;
        uint64_t t1 = lmb_now(&ctx->clock);
        uint64_t c1 = cpu_used(&mf1);
        unsigned long long sw1 = swapped_out(&k1);
        steps[n].wall_ns = t1 - t0;
        steps[n].swapped = sw1 > sw0 || mf1 > mf0;
        steps[n].known = k0 && k1;
        n++;
        /* The budget, or the command's --timeout when it comes first (with a
         * second to spare for the report). */
        bool out_of_time = end < bytes && (c1 - cpu_start > CPU_BUDGET_NS ||
                                           lmb_now(&ctx->clock) - start > WALL_BUDGET_NS ||
                                           lmb_time_left(ctx) < 1.0);
        bool last = end == bytes || out_of_time;
        bool stop = lmb_touch_judge(steps, n, last, &counted);
        uint64_t ok_bytes = (uint64_t)counted * STEP_MB * MB;
        uint32_t mb = (uint32_t)((ok_bytes < bytes ? ok_bytes : bytes) / MB);
        if (mb > said) {
            if (write(fd, &mb, sizeof mb) != (ssize_t)sizeof mb)
                _exit(1);
            said = mb;
        }
        if (stop || last) {
            /* counted < n: a slow step with swapping ended it, not the budget. */
            uint32_t m = OUT_OF_TIME;
            if (out_of_time && counted == n && write(fd, &m, sizeof m) != (ssize_t)sizeof m)
                _exit(1);
            break;
        }
    }
    _exit(0);
}

static int memsize_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const char *what = NULL;
    uint64_t want = DEFAULT_MB, avail = lmb_memory_available(&what), limit;
    struct lmb_record rec;
    struct lmb_result res;
    char err[256];
    int fds[2];
    pid_t pid;
    uint32_t mb, reached = 0;
    bool out_of_time = false, out_of_room = false;
    int st;

    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if (argc == 1 && lmb_parse_uint(argv[0], 1, 1ULL << 30, &want, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "MB: %s", err);

    lmb_record_init(&rec, ctx->bench->name, NULL, LMB_UNIT_MB);
    lmb_record_param_int(&rec, "asked_mb", (long long)want);
    rec.classic = LMB_CLASSIC_INT;
    if (avail == UINT64_MAX) {
        avail = lmb_physical_memory() / 2;
        what = "half the physical memory";
    }
    limit = avail / SHARE_DEN * SHARE_NUM / MB;
    if (limit == 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "no memory available (%s)",
                                     what ? what : "?");
    if (want > limit) {
        lmb_report_warn(&ctx->report, "%llu MB asked, but only %llu MB (75%% of what is "
                        "available: %s) will be tried", (unsigned long long)want,
                        (unsigned long long)limit, what ? what : "?");
        want = limit;
    }

    if (pipe(fds) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t parent = getpid();
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        toucher(ctx, want * MB, avail / 8, fds[1], parent);
    }
    lmb_child_track(pid);
    close(fds[1]);
    for (;;) {
        ssize_t r = read(fds[0], &mb, sizeof mb);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != (ssize_t)sizeof mb)
            break;
        if (mb == OUT_OF_TIME)
            out_of_time = true;
        else if (mb == OUT_OF_ROOM)
            out_of_room = true;
        else
            reached = mb;
    }
    close(fds[0]);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    lmb_child_untrack(pid);

    if (WIFSIGNALED(st) && reached == 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "the touching process died of "
                                     "signal %d before the first step", WTERMSIG(st));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 2)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "cannot map %llu MB",
                                     (unsigned long long)want);
    if (out_of_time)
        lmb_report_warn(&ctx->report, "the time budget (20 s of CPU time, 120 s in all, or the "
                        "command's --timeout) ran out after %u MB of %llu: the figure is a "
                        "lower bound", reached, (unsigned long long)want);
    if (out_of_room)
        lmb_report_warn(&ctx->report, "stopped after %u MB of %llu: the memory available fell "
                        "to an eighth of what it was at the start (other processes are using "
                        "it): the figure is a lower bound", reached, (unsigned long long)want);
    if (WIFSIGNALED(st))
        lmb_report_warn(&ctx->report, "the touching process died of signal %d after %u MB",
                        WTERMSIG(st), reached);
    double v = (double)reached * MB;   /* in bytes, the unit's base */
    lmb_result_values(&res, &v, 1, NULL);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_memsize = {
    .name = "memsize",
    .summary = "How many megabytes can be allocated and touched quickly",
    .category = LMB_CAT_CALIBRATION,
    .common = 0,
    .args = "[MB]",
    .help = "Maps MB megabytes (2^20 bytes; default 4096, at most 75% of the available\n"
            "memory) in a child process and writes every page, 16 MB at a time; stops at a\n"
            "step 20 times slower than the fastest during which the system swapped (a slow\n"
            "step without swapping was a preemption and counts), or after 20 s of CPU time\n"
            "(120 s in all), and prints on stdout the megabytes touched quickly.\n",
    .main = memsize_main,
    .classic_on_stdout = true,
};
