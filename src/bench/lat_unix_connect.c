// SPDX-License-Identifier: MIT
/* lat_unix_connect: the cost of making a Unix-domain stream connection.
 *
 * One operation: socket(), connect() to a listening AF_UNIX socket and close(),
 * lmbench 3's quantity: the copy does not wait for the server to accept. The
 * server is the copy's partner (another process, or a thread with --threads):
 * poll(), accept() and close(); it writes nothing. A connection the server has
 * not accepted yet waits in the listening socket's backlog; when the backlog is
 * full, a blocking connect() on a Unix-domain socket waits for room (it is not
 * refused), so a copy ahead of its server is held back rather than failed.
 * Kept out of the timing: the listening socket (in a temporary directory
 * removed at the end, also on signals), starting, placing and stopping the
 * server. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/partner.h"

struct uc_state {
    const char *dir;
    struct sockaddr_un addr;
    int lfd;               /* the listening socket (the server's) */
    int quit[2];           /* the copy closes [1] to stop the server */
    bool threads;          /* the server is a thread: it closes its own ends */
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void run_connect(uint64_t n, void *s)
{
    struct uc_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            lmb_abort_copy("socket: %s", strerror(errno));
        while (connect(fd, (struct sockaddr *)&st->addr, sizeof st->addr) != 0) {
            if (errno == EINTR)
                continue;
            if (errno == EISCONN)   /* connected as the signal came */
                break;
            if (errno == ECONNREFUSED)
                lmb_partner_gone("connect");
            lmb_abort_copy("connect to %s: %s", st->addr.sun_path, strerror(errno));
        }
        close(fd);
    }
}

static int uc_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct uc_state *st = s;
    struct pollfd p[2];

    if (!pc->thread)
        close_fd(&st->quit[1]);
    p[0] = (struct pollfd){ .fd = st->lfd, .events = POLLIN };
    p[1] = (struct pollfd){ .fd = st->quit[0], .events = POLLIN };
    for (;;) {
        int fd;
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            snprintf(pc->err, pc->errlen, "poll: %s", strerror(errno));
            return -1;
        }
        if (p[1].revents) {
            if (pc->thread) {
                close_fd(&st->lfd);
                close_fd(&st->quit[0]);
            }
            return 0;
        }
        fd = accept4(st->lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            snprintf(pc->err, pc->errlen, "accept: %s", strerror(errno));
            return -1;
        }
        close(fd);
    }
}

static void uc_after_partners(void *s, bool threads)
{
    struct uc_state *st = s;

    st->threads = threads;
    if (!threads) {
        close_fd(&st->lfd);
        close_fd(&st->quit[0]);
    }
}

static int uc_init(void *s, char *err, size_t errlen)
{
    struct uc_state *st = s;
    unsigned id = lmb_copy_index();

    st->lfd = st->quit[0] = st->quit[1] = -1;
    memset(&st->addr, 0, sizeof st->addr);
    st->addr.sun_family = AF_UNIX;
    if ((size_t)snprintf(st->addr.sun_path, sizeof st->addr.sun_path, "%s/%u", st->dir, id) >=
        sizeof st->addr.sun_path) {
        snprintf(err, errlen, "the socket path in %s is longer than a socket allows (%zu bytes): "
                 "set TMPDIR to a shorter directory", st->dir, sizeof st->addr.sun_path - 1);
        return -1;
    }
    st->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (st->lfd < 0 || bind(st->lfd, (struct sockaddr *)&st->addr, sizeof st->addr) != 0 ||
        listen(st->lfd, 128) != 0 || pipe2(st->quit, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "listening on %s: %s", st->addr.sun_path, strerror(errno));
        return -1;
    }
    return 0;
}

static void uc_cleanup(void *s)
{
    struct uc_state *st = s;

    close_fd(&st->quit[1]);   /* the server sees it and leaves */
    if (!st->threads) {
        close_fd(&st->quit[0]);
        close_fd(&st->lfd);
    }
    unlink(st->addr.sun_path);
}

static const struct lmb_optdef options[] = {
    { 's', NULL, "accepted for lmbench 3 scripts (which started a server); does nothing" },
    { 'S', NULL, "accepted for lmbench 3 scripts (which stopped the server); does nothing" },
};

static int lat_unix_connect_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct uc_state st = { .lfd = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    char dir[4096];
    struct lmb_timed t = {
        .init = uc_init,
        .run = run_connect,
        .cleanup = uc_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = uc_partner,
        .after_partners = uc_after_partners,
    };

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    if (lmb_opt_given(ctx, 's') && lmb_opt_given(ctx, 'S'))
        return lmb_usage_error(ctx, "-s and -S together");
    /* lmbench 3 needed a server started with -s and stopped with -S; this
     * command starts its own, so both succeed without doing anything. */
    if (lmb_opt_given(ctx, 's') || lmb_opt_given(ctx, 'S'))
        return LMB_EXIT_OK;

    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "UNIX connection cost");
    if (lmb_tmpdir(NULL, "lmbench-uc", dir, sizeof dir) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "cannot create a temporary directory: %s",
                                     strerror(errno));
    st.dir = dir;
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    lmb_tmpdir_remove(dir);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_unix_connect = {
    .name = "lat_unix_connect",
    .summary = "Cost of making a Unix-domain stream connection",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Connects again and again to a listening AF_UNIX socket served by a partner\n"
            "process (which accepts and closes), closing each connection at once, and\n"
            "prints the microseconds of one connect() and close().\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_unix_connect_main,
};
