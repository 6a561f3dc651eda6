// SPDX-License-Identifier: MIT
/* lat_udp: UDP round-trip latency between a client and lat_udp's server.
 *
 * One operation: the client sends one datagram of -m bytes (its first four a
 * sequence number) and receives the server's echo of it; echoes of older
 * datagrams are skipped, and a datagram with no echo within a second is sent
 * again (that wait counts: it is what a lost datagram costs). Kept out of the
 * timing: the session set-up, in which the server gives each client a socket
 * of its own served by a process of its own. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/net.h"

#define MSG_MIN 4u
#define MSG_MAX 65507u    /* the largest UDP payload over IPv4 */
#define RESENDS 10

static const struct lmb_net_limits limits = {
    .bench = LMB_NB_LAT_UDP,
    .ops = 1u << LMB_OP_XACT,
    .msg_min = MSG_MIN,
    .msg_max = MSG_MAX,
    .total_max = 0,
};

/* --- the server ------------------------------------------------------------- */

static int srv_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                       const struct sockaddr *peer, socklen_t peerlen)
{
    struct lmb_net_req r;
    struct lmb_net_reply rep;
    uint32_t port;
    int rc = lmb_server_std_request(s, fd, req, len, peer, peerlen, &limits, &r);

    if (rc != LMB_SRV_FORK)
        return rc;
    int made = lmb_server_udp_session(s, peer, peerlen, r.aux, &port);
    if (made < 0)
        return LMB_SRV_CLOSE;
    lmb_net_reply_fill(&rep, LMB_NS_OK, LMB_NB_LAT_UDP, port);
    lmb_server_reply(fd, &rep, peer, peerlen);
    return made ? LMB_SRV_FORK : LMB_SRV_CLOSE;
}

/* Echoes datagrams of msg bytes on the connected socket fd until it idles
 * (the socket's receive timeout) or, when `until_empty`, an empty datagram
 * comes. Returns 0, or -1 when memory is short. */
static int echo(int fd, uint32_t msg, bool until_empty)
{
    char *buf = malloc((size_t)msg + 1);

    if (buf == NULL)
        return -1;
    for (;;) {
        ssize_t n = recv(fd, buf, (size_t)msg + 1, 0);
        if (n < 0) {
            if (errno == EINTR || errno == ECONNREFUSED)
                continue;
            break;   /* idle timeout */
        }
        if (n == 0 && until_empty)
            break;
        if ((size_t)n == msg)
            send(fd, buf, (size_t)n, MSG_NOSIGNAL);
    }
    free(buf);
    return 0;
}

/* Echoes the client's datagrams of the agreed size until it idles. */
static int srv_child(struct lmb_server *s, int fd, const uint8_t *req, size_t len)
{
    struct lmb_net_req r;
    char why[128];

    (void)s;
    if (lmb_net_req_decode(req, len, &limits, &r, why, sizeof why) != LMB_NS_OK)
        return 1;
    return echo(fd, r.msg, false) == 0 ? 0 : 1;
}

static const struct lmb_server_ops server = {
    .socktype = SOCK_DGRAM,
    .bench = LMB_NB_LAT_UDP,
    .req_max = LMB_NET_REQ_SIZE,
    .request = srv_request,
    .child = srv_child,
};

static const struct lmb_net_cmd cmd = {
    .ops = &server,
    .default_port = LMB_PORT_LAT_UDP,
    .port_flag = 'p',
};

/* --- the client ------------------------------------------------------------- */

struct udp_state {
    struct lmb_addr addr;
    uint32_t msg;
    double timeout_s;
    int fd;
    int peer;         /* -l: the partner's end */
    uint32_t seq;
    char *buf, *in;
};

static int client_init(void *p, char *err, size_t errlen)
{
    struct udp_state *st = p;
    struct lmb_net_req req = { .bench = LMB_NB_LAT_UDP, .op = LMB_OP_XACT, .msg = st->msg };
    struct lmb_net_reply rep;

    st->fd = -1;
    st->buf = calloc(1, st->msg);
    st->in = malloc((size_t)st->msg + 1);
    if (st->buf == NULL || st->in == NULL) {
        snprintf(err, errlen, "out of memory for a %u-byte message", (unsigned)st->msg);
        return -1;
    }
    req.aux = (uint32_t)getpid() ^ (uint32_t)(uintptr_t)st->buf;
    if (lmb_net_hello(&st->addr, SOCK_DGRAM, &req, st->timeout_s, &st->fd, &rep, err,
                      errlen) != 0)
        return -1;
    if (lmb_net_connect_port(st->fd, &st->addr, rep.value, err, errlen) != 0)
        return -1;
    lmb_net_set_timeouts(st->fd, 1.0);
    return 0;
}

/* -l: two loopback UDP sockets connected to each other; the partner echoes
 * on one until an empty datagram says the copy is done. */
static int local_init(void *p, char *err, size_t errlen)
{
    struct udp_state *st = p;

    st->buf = calloc(1, st->msg);
    st->in = malloc((size_t)st->msg + 1);
    if (st->buf == NULL || st->in == NULL) {
        snprintf(err, errlen, "out of memory for a %u-byte message", (unsigned)st->msg);
        return -1;
    }
    if (lmb_net_local_pair(SOCK_DGRAM, &st->fd, &st->peer, err, errlen) != 0)
        return -1;
    lmb_net_set_timeouts(st->fd, 1.0);
    return 0;
}

static int local_partner(void *p, const struct lmb_partner_ctx *pc)
{
    struct udp_state *st = p;

    close(st->fd);
    if (echo(st->peer, st->msg, true) != 0) {
        snprintf(pc->err, pc->errlen, "out of memory");
        return -1;
    }
    return 0;
}

static void local_after(void *p, bool threads)
{
    struct udp_state *st = p;

    (void)threads;
    close(st->peer);
    st->peer = -1;
}

static void client_run(uint64_t n, void *p)
{
    struct udp_state *st = p;

    for (uint64_t i = 0; i < n; i++) {
        uint32_t seq = ++st->seq;
        int tries = 0;
        memcpy(st->buf, &seq, sizeof seq);
    again:
        if (send(st->fd, st->buf, st->msg, MSG_NOSIGNAL) != (ssize_t)st->msg)
            lmb_abort_copy("sending to the server: %s", strerror(errno));
        for (;;) {
            ssize_t r = recv(st->fd, st->in, (size_t)st->msg + 1, 0);
            if (r < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    if (++tries <= RESENDS)
                        goto again;
                    lmb_abort_copy("no echo from the server for %d s", RESENDS);
                }
                lmb_abort_copy("receiving from the server: %s", strerror(errno));
            }
            if ((size_t)r == st->msg && memcmp(st->in, &seq, sizeof seq) == 0)
                break;
        }
    }
}

static void client_cleanup(void *p)
{
    struct udp_state *st = p;

    if (st->fd >= 0) {
        send(st->fd, "", 0, MSG_NOSIGNAL);   /* -l: the partner's signal to leave */
        close(st->fd);
    }
    if (st->peer >= 0)
        close(st->peer);
    free(st->buf);
    free(st->in);
}

static int lat_udp_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct udp_state st = { .fd = -1, .peer = -1 };
    struct lmb_net_reply rep;
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    const char *host;
    uint64_t msg = MSG_MIN;
    bool local;
    char why[200];
    int rc;

    if ((rc = lmb_net_client_start(ctx, argc, argv, &cmd, SOCK_DGRAM, &local, &host, &st.addr)) >= 0)
        return rc;
    if ((rc = lmb_net_size_opt(ctx, 'm', MSG_MIN, MSG_MAX, &msg)) != 0)
        return rc;
    st.msg = (uint32_t)msg;
    st.timeout_s = lmb_net_timeout(ctx);

    lmb_net_record_init(&rec, ctx, host, &st.addr, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "UDP latency using %s", host);
    lmb_record_param_int(&rec, "msg_bytes", (long long)msg);
    /* The client's datagram and the one it receives, and with -l its partner's. */
    if (lmb_memory_fits((local ? 3 : 2) * (msg + 1), ctx->opt.parallel, why, sizeof why) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", why);
    if (!local && lmb_net_probe(ctx, &rec, &st.addr, SOCK_DGRAM, LMB_NB_LAT_UDP, &rep) != 0)
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
    { 'm', "bytes", "datagram size (default 4, 4 to 65507)" },
    { 'p', "port", "UDP port (default 31238)" },
};

const struct lmb_bench lmb_bench_lat_udp = {
    .name = "lat_udp",
    .summary = "UDP round-trip latency to a lat_udp server",
    .category = LMB_CAT_NETWORK,
    .common = LMB_USE_PWN,
    .args = "host | -l",
    .help = "lat_udp -s starts a server (in the background; it listens on 127.0.0.1 unless\n"
            "-b says otherwise); lat_udp HOST times datagrams sent to it and echoed back;\n"
            "lat_udp -S HOST stops it. A server obeys -S only from its own host or the\n"
            "address given with -a. lat_udp -l needs no server: the harness starts the\n"
            "other end as a partner process and places both (LMBENCH_SCHED, --cpus).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_udp_main,
};
