// SPDX-License-Identifier: MIT
/* memsize: how many megabytes can be allocated and touched quickly.
 *
 * A child process maps the memory asked for (at most 90% of what this process
 * may still use: MemAvailable, the cgroup limits, RLIMIT_AS, so that the test
 * itself does not push the machine into swapping or the OOM killer) and
 * writes one byte in every page, 16 MB at a time, timing each step. It stops at the end, when a step takes 20 times as
 * long as the fastest one and over 50 ms (the system had to swap or reclaim),
 * or after 20 s; the parent reports the megabytes touched before that. If the
 * child dies (the OOM killer), what it reported before counts. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/mem.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"

#define MB (1024ULL * 1024ULL)
#define STEP_MB 16
#define DEFAULT_MB 4096
#define SLOW_FACTOR 20
#define SLOW_NS 50000000ULL
#define BUDGET_NS 20000000000ULL

/* In the child: touch, reporting each step's megabytes on fd. */
static void toucher(const struct lmb_ctx *ctx, uint64_t bytes, int fd, pid_t parent)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p;
    uint64_t best = UINT64_MAX, start;

    if (lmb_cleanup_child(parent) != 0)
        _exit(1);
    p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
             -1, 0);
    if (p == MAP_FAILED)
        _exit(2);
    start = lmb_now(&ctx->clock);
    for (uint64_t off = 0; off < bytes; off += STEP_MB * MB) {
        uint64_t end = off + STEP_MB * MB < bytes ? off + STEP_MB * MB : bytes;
        uint64_t t0 = lmb_now(&ctx->clock);
        for (uint64_t o = off; o < end; o += (uint64_t)page)
            p[o] = 1;
        uint64_t t = lmb_now(&ctx->clock) - t0;
        if (t < best)
            best = t;
        if (t > SLOW_FACTOR * best && t > SLOW_NS)
            break;
        uint32_t mb = (uint32_t)(end / MB);
        if (write(fd, &mb, sizeof mb) != (ssize_t)sizeof mb)
            _exit(1);
        if (lmb_now(&ctx->clock) - start > BUDGET_NS)
            break;
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
    limit = avail / 10 * 9 / MB;
    if (limit == 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "no memory available (%s)",
                                     what ? what : "?");
    if (want > limit) {
        lmb_report_warn(&ctx->report, "%llu MB asked, but only %llu MB (90%% of what is "
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
        toucher(ctx, want * MB, fds[1], parent);
    }
    lmb_child_track(pid);
    close(fds[1]);
    for (;;) {
        ssize_t r = read(fds[0], &mb, sizeof mb);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != (ssize_t)sizeof mb)
            break;
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
    .help = "Maps MB megabytes (2^20 bytes; default 4096, at most 90% of the available\n"
            "memory) in a child process and writes every page, 16 MB at a time; stops when\n"
            "a step is 20 times slower than the fastest (swapping) or after 20 s, and\n"
            "prints on stdout the megabytes touched quickly.\n",
    .main = memsize_main,
    .classic_on_stdout = true,
};
