// SPDX-License-Identifier: MIT
/* lat_epoll: epoll_wait() on many descriptors, one of them ready (the modern
 * lat_select).
 *
 * Set-up, per copy: N eventfds (blocking counters, all 0), each registered
 * for EPOLLIN (level-triggered) in one epoll instance, its index as the
 * event's data.
 *
 * One operation: the next descriptor in turn (round robin over the N) is made
 * ready by write()ing 1 to it, epoll_wait() with a zero timeout and room for
 * 16 events returns it (exactly one event, for that descriptor, is checked),
 * and it is drained by read()ing its count. So the timing holds three system
 * calls: the write, the epoll_wait and the read; an eventfd write and read
 * are the cheapest pair that makes a descriptor ready and not ready again
 * (see lat_eventfd(1) for their cost with a waiter). Where lat_select asks the
 * kernel to look at every one of N descriptors each time, epoll keeps a list
 * of the ready ones: its figure should hardly grow with N.
 *
 * Kept out of the timing: making and registering the descriptors, closing
 * them. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/files.h"
#include "lib/sizes.h"

#define DEFAULT_N 200
#define MAX_N 100000
#define MAX_EVENTS 16

struct epoll_state {
    unsigned n;
    int ep;
    int *fds;
    unsigned next;        /* the descriptor made ready next */
};

static void run_epoll(uint64_t iters, void *s)
{
    struct epoll_state *st = s;
    struct epoll_event ev[MAX_EVENTS];
    uint64_t v = 1;

    for (uint64_t i = 0; i < iters; i++) {
        unsigned k = st->next;
        if (write(st->fds[k], &v, sizeof v) != (ssize_t)sizeof v)
            lmb_abort_copy("write to eventfd %u: %s", k, strerror(errno));
        int r = epoll_wait(st->ep, ev, MAX_EVENTS, 0);
        if (r != 1 || ev[0].data.u32 != k) {
            if (r < 0)
                lmb_abort_copy("epoll_wait: %s", strerror(errno));
            lmb_abort_copy("epoll_wait returned %d events (the first for descriptor %u), "
                           "expected 1 for descriptor %u", r, r > 0 ? ev[0].data.u32 : 0, k);
        }
        if (read(st->fds[k], &v, sizeof v) != (ssize_t)sizeof v)
            lmb_abort_copy("read from eventfd %u: %s", k, strerror(errno));
        st->next = k + 1 == st->n ? 0 : k + 1;
    }
}

static void epoll_cleanup(void *s)
{
    struct epoll_state *st = s;

    for (unsigned i = 0; st->fds != NULL && i < st->n; i++)
        if (st->fds[i] >= 0)
            close(st->fds[i]);
    free(st->fds);
    st->fds = NULL;
    if (st->ep >= 0)
        close(st->ep);
    st->ep = -1;
}

static int epoll_init(void *s, char *err, size_t errlen)
{
    struct epoll_state *st = s;

    st->next = 0;
    st->ep = -1;
    st->fds = malloc(st->n * sizeof *st->fds);
    if (st->fds == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < st->n; i++)
        st->fds[i] = -1;
    if (lmb_want_fds((uint64_t)st->n + 32, err, errlen) != 0)
        goto fail;
    st->ep = epoll_create1(EPOLL_CLOEXEC);
    if (st->ep < 0) {
        snprintf(err, errlen, "epoll_create1: %s", strerror(errno));
        goto fail;
    }
    for (unsigned i = 0; i < st->n; i++) {
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
        st->fds[i] = eventfd(0, EFD_CLOEXEC);
        if (st->fds[i] < 0) {
            snprintf(err, errlen, "eventfd %u of %u: %s", i + 1, st->n, strerror(errno));
            goto fail;
        }
        if (epoll_ctl(st->ep, EPOLL_CTL_ADD, st->fds[i], &ev) != 0) {
            snprintf(err, errlen, "epoll_ctl(EPOLL_CTL_ADD) of descriptor %u of %u: %s", i + 1,
                     st->n, strerror(errno));
            goto fail;
        }
    }
    return 0;
fail:
    epoll_cleanup(st);
    return -1;
}

static const struct lmb_optdef options[] = {
    { 'n', "fds", "register this many descriptors (default 200)" },
};

static int lat_epoll_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct epoll_state st = { .ep = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    char err[256];
    uint64_t n = DEFAULT_N;
    struct lmb_timed t = {
        .init = epoll_init,
        .run = run_epoll,
        .cleanup = epoll_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };

    (void)argv;
    if (lmb_opt_given(ctx, 'n') &&
        lmb_parse_uint(lmb_opt_arg(ctx, 'n'), 1, MAX_N, &n, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-n: %s", err);
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected (the number of descriptors is -n)");
    st.n = (unsigned)n;
    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_US);
    lmb_record_param_int(&rec, "fds", (long long)n);
    rec.classic = LMB_CLASSIC_LABEL_US;
    rec.compat = "new: lmbench 3 has no epoll benchmark";
    snprintf(rec.label, sizeof rec.label, "epoll_wait on %u fd's", st.n);
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_epoll = {
    .name = "lat_epoll",
    .summary = "Latency of epoll_wait() returning one ready descriptor among many",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "",
    .help = "Registers n eventfds in one epoll instance; each operation makes the next\n"
            "one ready (write), takes it from epoll_wait() with a zero timeout and\n"
            "drains it (read). Prints the microseconds of one such operation, three\n"
            "system calls. n goes from 1 to 100000 (default 200, as lat_select's).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_epoll_main,
};
