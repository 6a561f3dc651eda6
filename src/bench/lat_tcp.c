// SPDX-License-Identifier: MIT
/* lat_tcp: TCP round-trip latency between a client and lat_tcp's server.
 *
 * One operation: the client writes a message of -m bytes on an established
 * connection and reads the server's echo of it back, whole. Connecting, the
 * request header and the server's reply are done before timing; the client
 * and the server set TCP_NODELAY. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/net.h"

#define MSG_MAX (1u << 20)

static const struct lmb_net_limits limits = {
    .bench = LMB_NB_LAT_TCP,
    .ops = 1u << LMB_OP_XACT,
    .msg_min = 1,
    .msg_max = MSG_MAX,
    .total_max = 0,
};

/* --- the server ------------------------------------------------------------- */

static int srv_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                       const struct sockaddr *peer, socklen_t peerlen)
{
    struct lmb_net_req r;
    return lmb_server_std_request(s, fd, req, len, peer, peerlen, &limits, &r);
}

/* Echoes messages of msg bytes until the other end goes: 0, or -1 when a
 * write fails or memory is short. */
static int echo(int fd, uint32_t msg)
{
    char *buf = malloc(msg);
    int rc = 0;

    if (buf == NULL)
        return -1;
    while (lmb_net_read_full(fd, buf, msg) == 1)
        if (lmb_net_write_full(fd, buf, msg) != 1) {
            rc = -1;
            break;
        }
    free(buf);
    return rc;
}

/* Echoes messages of the size asked for until the client goes (or idles). */
static int srv_child(struct lmb_server *s, int fd, const uint8_t *req, size_t len)
{
    struct lmb_net_req r;
    struct lmb_net_reply rep;
    char why[128];
    int one = 1;

    (void)s;
    if (lmb_net_req_decode(req, len, &limits, &r, why, sizeof why) != LMB_NS_OK)
        return 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    lmb_net_reply_fill(&rep, LMB_NS_OK, LMB_NB_LAT_TCP, r.msg);
    if (lmb_server_reply(fd, &rep, NULL, 0) != 0)
        return 1;
    echo(fd, r.msg);
    return 0;
}

static const struct lmb_server_ops server = {
    .socktype = SOCK_STREAM,
    .bench = LMB_NB_LAT_TCP,
    .framed = lmb_server_framed_req,
    .req_max = LMB_NET_REQ_SIZE,
    .request = srv_request,
    .child = srv_child,
};

static const struct lmb_net_cmd cmd = {
    .ops = &server,
    .default_port = LMB_PORT_LAT_TCP,
    .port_flag = 'p',
};

/* --- the client ------------------------------------------------------------- */

struct tcp_state {
    struct lmb_addr addr;
    uint32_t msg;
    double timeout_s;
    int fd;
    int peer;         /* -l: the partner's end */
    char *buf;
};

static int client_init(void *p, char *err, size_t errlen)
{
    struct tcp_state *st = p;
    struct lmb_net_req req = { .bench = LMB_NB_LAT_TCP, .op = LMB_OP_XACT, .msg = st->msg };
    struct lmb_net_reply rep;
    int one = 1;

    st->fd = -1;
    st->buf = calloc(1, st->msg);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a %u-byte message", (unsigned)st->msg);
        return -1;
    }
    if (lmb_net_hello(&st->addr, SOCK_STREAM, &req, st->timeout_s, &st->fd, &rep, err,
                      errlen) != 0)
        return -1;
    setsockopt(st->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    lmb_net_set_timeouts(st->fd, LMB_NET_IO_TIMEOUT);
    return 0;
}

/* -l: a loopback connection whose other end the partner serves. */
static int local_init(void *p, char *err, size_t errlen)
{
    struct tcp_state *st = p;
    int one = 1;

    st->buf = calloc(1, st->msg);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a %u-byte message", (unsigned)st->msg);
        return -1;
    }
    if (lmb_net_local_pair(SOCK_STREAM, &st->fd, &st->peer, err, errlen) != 0)
        return -1;
    setsockopt(st->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(st->peer, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    lmb_net_set_timeouts(st->fd, LMB_NET_IO_TIMEOUT);
    return 0;
}

static int local_partner(void *p, const struct lmb_partner_ctx *pc)
{
    struct tcp_state *st = p;

    close(st->fd);
    if (echo(st->peer, st->msg) != 0) {
        snprintf(pc->err, pc->errlen, "echoing: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void local_after(void *p, bool threads)
{
    struct tcp_state *st = p;

    (void)threads;
    close(st->peer);
    st->peer = -1;
}

static void client_run(uint64_t n, void *p)
{
    struct tcp_state *st = p;

    for (uint64_t i = 0; i < n; i++) {
        if (lmb_net_write_full(st->fd, st->buf, st->msg) != 1)
            lmb_abort_copy("sending to the server: %s", strerror(errno));
        int rc = lmb_net_read_full(st->fd, st->buf, st->msg);
        if (rc != 1) {
            if (rc == 0)
                lmb_abort_copy("the server closed the connection");
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                lmb_abort_copy("no echo from the server within %g s", LMB_NET_IO_TIMEOUT);
            lmb_abort_copy("reading from the server: %s", strerror(errno));
        }
    }
}

static void client_cleanup(void *p)
{
    struct tcp_state *st = p;

    if (st->fd >= 0)
        close(st->fd);
    if (st->peer >= 0)
        close(st->peer);
    free(st->buf);
}

static int lat_tcp_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct tcp_state st = { .fd = -1, .peer = -1 };
    struct lmb_net_reply rep;
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    const char *host;
    uint64_t msg = 1;
    bool local;
    char why[200];
    int rc;

    if ((rc = lmb_net_client_start(ctx, argc, argv, &cmd, SOCK_STREAM, &local, &host, &st.addr)) >= 0)
        return rc;
    if ((rc = lmb_net_size_opt(ctx, 'm', 1, MSG_MAX, &msg)) != 0)
        return rc;
    st.msg = (uint32_t)msg;
    st.timeout_s = lmb_net_timeout(ctx);

    lmb_net_record_init(&rec, ctx, host, &st.addr, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "TCP latency using %s", host);
    lmb_record_param_int(&rec, "msg_bytes", (long long)msg);
    /* The client's message, and with -l its partner's. */
    if (lmb_memory_fits(local ? 2 * msg : msg, ctx->opt.parallel, why, sizeof why) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", why);
    if (!local && lmb_net_probe(ctx, &rec, &st.addr, SOCK_STREAM, LMB_NB_LAT_TCP, &rep) != 0)
        return LMB_EXIT_OK;

    t = (struct lmb_timed){
        .init = local ? local_init : client_init,
        .run = client_run,
        .cleanup = client_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = local ? 1 : 0,
        .partner = local ? local_partner : NULL,
        .after_partners = local ? local_after : NULL,
    };
    lmb_measure(ctx, &t, &res);
    /* With a partner the harness records where both ends ran ("ends"). */
    if (!local)
        lmb_record_param_str(&rec, "ends", lmb_net_ends(ctx, res.cpu_assigned, res.copies, &rep));
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

static const struct lmb_optdef options[] = {
    LMB_NET_SERVER_OPTIONS,
    { 'l', NULL, "no server: measure over loopback against a partner the harness places" },
    { 'm', "bytes", "message size (default 1, at most 1m)" },
    { 'p', "port", "TCP port (default 31234)" },
};

const struct lmb_bench lmb_bench_lat_tcp = {
    .name = "lat_tcp",
    .summary = "TCP round-trip latency to a lat_tcp server",
    .category = LMB_CAT_NETWORK,
    .common = LMB_USE_PWN,
    .args = "host | -l",
    .help = "lat_tcp -s starts a server (in the background; it listens on 127.0.0.1 unless\n"
            "-b says otherwise); lat_tcp HOST times messages sent to it and echoed back;\n"
            "lat_tcp -S HOST stops it. A server obeys -S only from its own host or the\n"
            "address given with -a. lat_tcp -l needs no server: the harness starts the\n"
            "other end as a partner process and places both (LMBENCH_SCHED, --cpus).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_tcp_main,
};
