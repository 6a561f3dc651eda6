// SPDX-License-Identifier: MIT
/* lat_usleep: how long a request to sleep really sleeps.
 *
 * One operation: one sleep of `usecs` microseconds asked for in one of five
 * ways: usleep(), nanosleep(), select() with no descriptors, pselect() with no
 * descriptors, or a one-shot ITIMER_REAL timer and sigsuspend() until its
 * SIGALRM (itimer). The figure is the time one request takes from call to
 * return: the time asked for plus the timer's slack and the wake-up latency.
 * Kept out of the timing: installing the SIGALRM handler and blocking SIGALRM. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/text.h"
#include "lib/files.h"
#include "lib/sizes.h"

/* At most ten seconds a sleep: the timed loop runs it at least -N times. */
#define MAX_USECS 10000000ULL

struct sleep_state {
    uint64_t usecs;
    sigset_t waitmask;     /* itimer: the mask while waiting, SIGALRM open */
};

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

static void run_usleep(uint64_t n, void *s)
{
    struct sleep_state *st = s;

    for (uint64_t i = 0; i < n; i++)
        if (usleep((useconds_t)st->usecs) != 0 && errno != EINTR)
            lmb_abort_copy("usleep: %s", strerror(errno));
}

static void run_nanosleep(uint64_t n, void *s)
{
    struct sleep_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        struct timespec ts = { (time_t)(st->usecs / 1000000), (long)(st->usecs % 1000000) * 1000 };
        while (nanosleep(&ts, &ts) != 0)
            if (errno != EINTR)
                lmb_abort_copy("nanosleep: %s", strerror(errno));
    }
}

static void run_select(uint64_t n, void *s)
{
    struct sleep_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        struct timeval tv = { (time_t)(st->usecs / 1000000), (suseconds_t)(st->usecs % 1000000) };
        if (select(0, NULL, NULL, NULL, &tv) < 0 && errno != EINTR)
            lmb_abort_copy("select: %s", strerror(errno));
    }
}

static void run_pselect(uint64_t n, void *s)
{
    struct sleep_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        struct timespec ts = { (time_t)(st->usecs / 1000000), (long)(st->usecs % 1000000) * 1000 };
        if (pselect(0, NULL, NULL, NULL, &ts, NULL) < 0 && errno != EINTR)
            lmb_abort_copy("pselect: %s", strerror(errno));
    }
}

static void run_itimer(uint64_t n, void *s)
{
    struct sleep_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        struct itimerval it = { { 0, 0 },
                                { (time_t)(st->usecs / 1000000), (suseconds_t)(st->usecs % 1000000) } };
        sig_atomic_t before = alarms;
        /* A zero timer would never fire: ask for the smallest one. */
        if (st->usecs == 0)
            it.it_value.tv_usec = 1;
        if (setitimer(ITIMER_REAL, &it, NULL) != 0)
            lmb_abort_copy("setitimer: %s", strerror(errno));
        while (alarms == before)
            sigsuspend(&st->waitmask);
    }
}

static const struct lmb_variant variants[] = {
    { "usleep", "usleep()", run_usleep, NULL, 0 },
    { "nanosleep", "nanosleep()", run_nanosleep, NULL, 0 },
    { "select", "select() with no descriptors and a timeout", run_select, NULL, 0 },
    { "pselect", "pselect() with no descriptors and a timeout", run_pselect, NULL, 0 },
    { "itimer", "setitimer(ITIMER_REAL) and sigsuspend() until SIGALRM", run_itimer, NULL, 0 },
};

static int sleep_init(void *s, char *err, size_t errlen)
{
    struct sleep_state *st = s;
    struct sigaction sa;
    sigset_t block;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    if (sigaction(SIGALRM, &sa, NULL) != 0 || sigprocmask(SIG_BLOCK, &block, &st->waitmask) != 0) {
        snprintf(err, errlen, "SIGALRM: %s", strerror(errno));
        return -1;
    }
    sigdelset(&st->waitmask, SIGALRM);
    return 0;
}

static void sleep_cleanup(void *s)
{
    struct itimerval off = { { 0, 0 }, { 0, 0 } };

    (void)s;
    setitimer(ITIMER_REAL, &off, NULL);
}

static const struct lmb_optdef options[] = {
    { 'u', "method", "how to sleep: usleep (default), nanosleep, select, pselect or itimer" },
};

static int lat_usleep_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v = &ctx->bench->variants[0];
    struct sleep_state st = { 0 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    char err[256], q[300];

    if (lmb_opt_given(ctx, 'u')) {
        v = lmb_find_variant(ctx->bench, lmb_opt_arg(ctx, 'u'));
        if (v == NULL)
            return lmb_usage_error(ctx, "-u: unknown method '%s'",
                                   lmb_quote(lmb_opt_arg(ctx, 'u'), q, sizeof q));
    }
    if (argc < 1)
        return lmb_usage_error(ctx, "how many microseconds?");
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if (lmb_parse_uint(argv[0], 0, MAX_USECS, &st.usecs, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "usecs: %s", err);

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    lmb_record_param_int(&rec, "usecs", (long long)st.usecs);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "%s %llu microseconds", v->name,
             (unsigned long long)st.usecs);

    t = (struct lmb_timed){
        .init = sleep_init,
        .run = v->run,
        .cleanup = sleep_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_usleep = {
    .name = "lat_usleep",
    .summary = "How long a request to sleep really sleeps",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "usecs",
    .help = "Asks to sleep usecs microseconds (0 to 10000000) again and again and prints\n"
            "how long each request took, in microseconds. -u chooses the call.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_usleep_main,
};
