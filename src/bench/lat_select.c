// SPDX-License-Identifier: MIT
/* lat_select: the cost of select() over many file descriptors.
 *
 * One operation: select() for reading on N descriptors with a zero timeout,
 * including the copy of the descriptor set that select() overwrites. file: N
 * descriptors of one regular file (always ready). tcp: N connected TCP sockets
 * over loopback with nothing to read (never ready); the command makes the
 * listening socket and both ends of every connection itself.
 *
 * Kept out of the timing: creating the file, opening the descriptors, making
 * the connections; closing them afterwards. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/text.h"
#include "lib/cleanup.h"
#include "lib/files.h"
#include "lib/sizes.h"

#define DEFAULT_N 200
/* Descriptors above FD_SETSIZE cannot be selected; leave room for those the
 * command itself holds. */
#define MAX_N (FD_SETSIZE - 24)

enum { TCP = 1 };

struct select_state {
    const char *path;     /* file: the file opened N times */
    unsigned n;
    bool tcp;
    int *fds;             /* the selected descriptors */
    int *others;          /* tcp: the accepted ends and the listener */
    unsigned nothers;
    int maxfd;
    fd_set set;
    int ready;            /* what the last select() returned */
};

static void run_select(uint64_t iters, void *s)
{
    struct select_state *st = s;
    struct timeval tv;
    fd_set rd;
    int want = st->tcp ? 0 : (int)st->n;

    for (uint64_t i = 0; i < iters; i++) {
        rd = st->set;
        tv.tv_sec = 0;
        tv.tv_usec = 0;
        st->ready = select(st->maxfd + 1, &rd, NULL, NULL, &tv);
        if (st->ready != want) {
            if (st->ready < 0)
                lmb_abort_copy("select: %s", strerror(errno));
            lmb_abort_copy("select found %d of %u descriptors ready, expected %d", st->ready,
                           st->n, want);
        }
    }
}

static const struct lmb_variant variants[] = {
    { "file", "descriptors of a regular file (always ready)", run_select, "Select on %u fd's", 0 },
    { "tcp", "connected TCP sockets over loopback (never ready)", run_select,
      "Select on %u tcp fd's", TCP },
};

static int add_fd(struct select_state *st, unsigned i, int fd, char *err, size_t errlen)
{
    if (fd >= FD_SETSIZE) {
        snprintf(err, errlen, "descriptor %d is beyond what select() handles (FD_SETSIZE %d)", fd,
                 FD_SETSIZE);
        close(fd);
        return -1;
    }
    st->fds[i] = fd;
    FD_SET(fd, &st->set);
    if (fd > st->maxfd)
        st->maxfd = fd;
    return 0;
}

static int tcp_setup(struct select_state *st, char *err, size_t errlen)
{
    struct sockaddr_in sin;
    socklen_t len = sizeof sin;
    int lfd;

    /* The sockets to select on first, so that they get the lowest numbers. */
    for (unsigned i = 0; i < st->n; i++) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            snprintf(err, errlen, "socket: %s", strerror(errno));
            return -1;
        }
        if (add_fd(st, i, fd, err, errlen) != 0)
            return -1;
    }
    lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lfd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    st->others[st->nothers++] = lfd;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sin.sin_port = 0;
    if (bind(lfd, (struct sockaddr *)&sin, sizeof sin) != 0 || listen(lfd, 64) != 0 ||
        getsockname(lfd, (struct sockaddr *)&sin, &len) != 0) {
        snprintf(err, errlen, "a listening socket on 127.0.0.1: %s", strerror(errno));
        return -1;
    }
    for (unsigned i = 0; i < st->n; i++) {
        int afd;
        if (connect(st->fds[i], (struct sockaddr *)&sin, sizeof sin) != 0) {
            snprintf(err, errlen, "connect to 127.0.0.1:%u: %s", ntohs(sin.sin_port), strerror(errno));
            return -1;
        }
        afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (afd < 0) {
            snprintf(err, errlen, "accept: %s", strerror(errno));
            return -1;
        }
        st->others[st->nothers++] = afd;
    }
    return 0;
}

static void select_cleanup(void *s)
{
    struct select_state *st = s;

    for (unsigned i = 0; st->fds != NULL && i < st->n; i++)
        if (st->fds[i] >= 0)
            close(st->fds[i]);
    for (unsigned i = 0; st->others != NULL && i < st->nothers; i++)
        close(st->others[i]);
    free(st->fds);
    free(st->others);
    st->fds = st->others = NULL;
    st->nothers = 0;
}

static int select_init(void *s, char *err, size_t errlen)
{
    struct select_state *st = s;

    FD_ZERO(&st->set);
    st->maxfd = -1;
    st->nothers = 0;
    st->fds = malloc(st->n * sizeof *st->fds);
    st->others = st->tcp ? malloc((st->n + 1) * sizeof *st->others) : NULL;
    if (st->fds == NULL || (st->tcp && st->others == NULL)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < st->n; i++)
        st->fds[i] = -1;
    if (lmb_want_fds((uint64_t)(st->tcp ? 2 * st->n : st->n) + 32, err, errlen) != 0)
        goto fail;
    if (st->tcp) {
        if (tcp_setup(st, err, errlen) != 0)
            goto fail;
        return 0;
    }
    for (unsigned i = 0; i < st->n; i++) {
        int fd = open(st->path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            snprintf(err, errlen, "open %s: %s", st->path, strerror(errno));
            goto fail;
        }
        if (add_fd(st, i, fd, err, errlen) != 0)
            goto fail;
    }
    return 0;
fail:
    select_cleanup(st);
    return -1;
}

static const struct lmb_optdef options[] = {
    { 'n', "fds", "select on this many descriptors (default 200)" },
};

static int lat_select_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v;
    struct select_state st = { 0 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    char path[4096], err[256], q[300];
    uint64_t n = DEFAULT_N;
    bool made_tmp = false;

    if (lmb_opt_given(ctx, 'n') &&
        lmb_parse_uint(lmb_opt_arg(ctx, 'n'), 1, MAX_N, &n, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-n: %s", err);
    if (argc < 1)
        return lmb_usage_error(ctx, "file or tcp?");
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    v = lmb_find_variant(ctx->bench, argv[0]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown kind of descriptor '%s'",
                               lmb_quote(argv[0], q, sizeof q));

    st.n = (unsigned)n;
    st.tcp = v->flags & TCP;
    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    lmb_record_param_int(&rec, "nfds", (long long)n);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, v->label, st.n);

    if (!st.tcp) {
        int fd = lmb_tmpfile("lmbench-select", path, sizeof path);
        if (fd < 0)
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "cannot create a temporary file: %s",
                                         strerror(errno));
        close(fd);
        made_tmp = true;
        st.path = path;
    }

    t = (struct lmb_timed){
        .init = select_init,
        .run = v->run,
        .cleanup = select_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    if (made_tmp)
        lmb_tmpfile_remove(path);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_select = {
    .name = "lat_select",
    .summary = "Latency of select() over many file descriptors",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "{variants}",
    .help = "Times select() for reading, with a zero timeout, on n descriptors: of a\n"
            "temporary file (file), or connected TCP sockets over loopback that the\n"
            "command makes itself (tcp). n goes from 1 to " "1000.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_select_main,
};
