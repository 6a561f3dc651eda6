// SPDX-License-Identifier: MIT
/* lat_connect: the cost of making a TCP connection to lat_connect's server.
 *
 * One operation: socket(), connect() to the server (the three-way handshake),
 * then close(). The socket is closed with a reset (SO_LINGER of 0) so that no
 * connection is left in TIME_WAIT: repeated runs do not fill the port table
 * and do not slow down as it fills. A send timeout bounds each connect. Kept
 * out of the timing: resolving the host and the check that a lat_connect
 * server answers there. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/net.h"

static const struct lmb_net_limits limits = {
    .bench = LMB_NB_LAT_CONNECT,
    .ops = 0,   /* HELLO and STOP only: a timed connection sends nothing */
};

/* --- the server ------------------------------------------------------------- */

static int srv_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                       const struct sockaddr *peer, socklen_t peerlen)
{
    struct lmb_net_req r;
    return lmb_server_std_request(s, fd, req, len, peer, peerlen, &limits, &r);
}

static int srv_child(struct lmb_server *s, int fd, const uint8_t *req, size_t len)
{
    (void)s, (void)fd, (void)req, (void)len;
    return 0;
}

static const struct lmb_server_ops server = {
    .socktype = SOCK_STREAM,
    .bench = LMB_NB_LAT_CONNECT,
    .framed = lmb_server_framed_req,
    .req_max = LMB_NET_REQ_SIZE,
    .request = srv_request,
    .child = srv_child,
};

static const struct lmb_net_cmd cmd = {
    .ops = &server,
    .default_port = LMB_PORT_LAT_CONNECT,
    .port_flag = 'p',
};

/* --- the client ------------------------------------------------------------- */

struct connect_state {
    struct lmb_addr addr;
    int listen_fd;    /* -l: the partner accepts on it */
    int quit[2];      /* -l: the copy closes quit[1] to send the partner away */
};

/* -l: a listening socket on an ephemeral loopback port for the partner. */
static int local_init(void *p, char *err, size_t errlen)
{
    struct connect_state *st = p;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;

    st->quit[0] = st->quit[1] = -1;
    st->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (st->listen_fd < 0 || bind(st->listen_fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(st->listen_fd, SOMAXCONN) != 0 ||
        getsockname(st->listen_fd, (struct sockaddr *)&a, &len) != 0 ||
        pipe2(st->quit, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "a loopback listening socket: %s", strerror(errno));
        return -1;
    }
    memset(&st->addr, 0, sizeof st->addr);
    memcpy(&st->addr.ss, &a, sizeof a);
    st->addr.len = sizeof a;
    return 0;
}

/* Accepts and closes connections until the copy closes its end of quit. */
static int local_partner(void *p, const struct lmb_partner_ctx *pc)
{
    struct connect_state *st = p;

    close(st->quit[1]);
    for (;;) {
        struct pollfd f[2] = { { .fd = st->listen_fd, .events = POLLIN },
                               { .fd = st->quit[0], .events = POLLIN } };
        if (poll(f, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            snprintf(pc->err, pc->errlen, "poll: %s", strerror(errno));
            return -1;
        }
        if (f[1].revents)
            return 0;
        int c = accept4(st->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (c >= 0)
            close(c);
    }
}

static void local_after(void *p, bool threads)
{
    struct connect_state *st = p;

    (void)threads;
    close(st->listen_fd);
    close(st->quit[0]);
    st->listen_fd = st->quit[0] = -1;
}

static void local_cleanup(void *p)
{
    struct connect_state *st = p;

    if (st->quit[1] >= 0)
        close(st->quit[1]);
}

static void client_run(uint64_t n, void *p)
{
    struct connect_state *st = p;
    const struct linger lg = { .l_onoff = 1, .l_linger = 0 };
    const struct timeval tv = { .tv_sec = (time_t)LMB_NET_IO_TIMEOUT, .tv_usec = 0 };

    for (uint64_t i = 0; i < n; i++) {
        int fd = socket(st->addr.ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            lmb_abort_copy("socket: %s", strerror(errno));
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if (connect(fd, (const struct sockaddr *)&st->addr.ss, st->addr.len) != 0) {
            int e = errno;
            close(fd);
            if (e == EINPROGRESS || e == EAGAIN)
                lmb_abort_copy("no connection within %g s", LMB_NET_IO_TIMEOUT);
            lmb_abort_copy("connect: %s", strerror(e));
        }
        close(fd);
    }
}

static int lat_connect_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct connect_state st = { .listen_fd = -1, .quit = { -1, -1 } };
    struct lmb_net_reply rep;
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    const char *host;
    bool local;
    int rc;

    if ((rc = lmb_net_client_start(ctx, argc, argv, &cmd, SOCK_STREAM, &local, &host, &st.addr)) >= 0)
        return rc;

    lmb_net_record_init(&rec, ctx, host, &st.addr, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "TCP/IP connection cost to %s", host);
    if (!local && lmb_net_probe(ctx, &rec, &st.addr, SOCK_STREAM, LMB_NB_LAT_CONNECT, &rep) != 0)
        return LMB_EXIT_OK;

    t = (struct lmb_timed){
        .init = local ? local_init : NULL,
        .run = client_run,
        .cleanup = local ? local_cleanup : NULL,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = local ? 1 : 0,
        .partner = local ? local_partner : NULL,
        .after_partners = local ? local_after : NULL,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

static const struct lmb_optdef options[] = {
    LMB_NET_SERVER_OPTIONS,
    { 'l', NULL, "no server: measure over loopback against a partner the harness places" },
    { 'p', "port", "TCP port (default 31237)" },
};

const struct lmb_bench lmb_bench_lat_connect = {
    .name = "lat_connect",
    .summary = "Cost of a TCP connection to a lat_connect server",
    .category = LMB_CAT_NETWORK,
    .common = LMB_USE_PWN,
    .args = "host | -l",
    .help = "lat_connect -s starts a server (in the background; it listens on 127.0.0.1\n"
            "unless -b says otherwise); lat_connect HOST times socket(), connect() and\n"
            "close() to it; lat_connect -S HOST stops it. Connections are closed with a\n"
            "reset, so none is left in TIME_WAIT. A server obeys -S only from its own host\n"
            "or the address given with -a. lat_connect -l needs no server: the harness\n"
            "starts the accepting end as a partner process and places both.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_connect_main,
};
