// SPDX-License-Identifier: MIT
/* bw_udp: UDP bandwidth from a client to bw_udp's server.
 *
 * One iteration delivers a burst of 256 KB in datagrams of -m bytes (each
 * begins with a 24-byte header naming its burst), then asks the server how
 * many bytes of the burst arrived; what was lost is sent again until the
 * server has it all. The time therefore covers delivered data, losses
 * included. Kept out of the timing: the session set-up, in which the server
 * gives the client a socket and a process of its own. */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/net.h"

#define MSG_MIN LMB_NET_REQ_SIZE
#define MSG_MAX 65507u
#define DEFAULT_MSG 8192u
#define BURST_BYTES (256u << 10)
#define END_TRIES 50          /* asking for a burst's count, every 200 ms */

static const struct lmb_net_limits limits = {
    .bench = LMB_NB_BW_UDP,
    .ops = (1u << LMB_OP_SINK) | (1u << LMB_OP_UDATA) | (1u << LMB_OP_UEND),
    .msg_min = 0,
    .msg_max = MSG_MAX,
    .total_max = UINT32_MAX,
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
    if (r.op != LMB_OP_SINK || r.msg < MSG_MIN)
        return LMB_SRV_CLOSE;   /* data for no session: ignored */
    int made = lmb_server_udp_session(s, peer, peerlen, r.aux, &port);
    if (made < 0)
        return LMB_SRV_CLOSE;
    if (made) {
        /* Room for bursts: ask for 4 MB (the kernel may give less). */
        int want = 4 << 20;
        if (setsockopt(s->session_fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof want) != 0)
            setsockopt(s->session_fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof want);
    }
    lmb_net_reply_fill(&rep, LMB_NS_OK, LMB_NB_BW_UDP, port);
    lmb_server_reply(fd, &rep, peer, peerlen);
    return made ? LMB_SRV_FORK : LMB_SRV_CLOSE;
}

/* Decodes one datagram of the data phase: a UDATA of exactly its declared
 * size, or a UEND. Returns 0 or -1. */
static int datagram_decode(const uint8_t *buf, size_t n, struct lmb_net_req *r)
{
    char why[128];

    if (lmb_net_req_decode(buf, n, &limits, r, why, sizeof why) != LMB_NS_OK)
        return -1;
    if (r->op == LMB_OP_UDATA)
        return r->msg == n ? 0 : -1;
    return r->op == LMB_OP_UEND ? 0 : -1;
}

/* Counts the bytes of the current burst and answers UEND with the count. */
static int srv_child(struct lmb_server *s, int fd, const uint8_t *req, size_t len)
{
    struct lmb_net_req r;
    char why[128];
    uint32_t burst = 0;
    uint64_t bytes = 0;
    uint8_t *buf;

    (void)s;
    if (lmb_net_req_decode(req, len, &limits, &r, why, sizeof why) != LMB_NS_OK)
        return 1;
    buf = malloc(MSG_MAX + 1);
    if (buf == NULL)
        return 1;
    for (;;) {
        ssize_t n = recv(fd, buf, MSG_MAX + 1, 0);
        if (n < 0) {
            if (errno == EINTR || errno == ECONNREFUSED)
                continue;
            break;   /* idle timeout */
        }
        if (datagram_decode(buf, (size_t)n, &r) != 0)
            continue;
        if (r.aux != burst) {
            if ((int32_t)(r.aux - burst) < 0)
                continue;   /* a datagram of an older burst */
            burst = r.aux;
            bytes = 0;
        }
        if (r.op == LMB_OP_UDATA) {
            bytes += (uint64_t)n;
        } else {
            struct lmb_net_req a = { .bench = LMB_NB_BW_UDP, .op = LMB_OP_UEND, .aux = burst,
                                     .total = bytes };
            uint8_t out[LMB_NET_REQ_SIZE];
            lmb_net_req_encode(&a, out);
            send(fd, out, sizeof out, MSG_NOSIGNAL);
        }
    }
    free(buf);
    return 0;
}

static const struct lmb_server_ops server = {
    .socktype = SOCK_DGRAM,
    .bench = LMB_NB_BW_UDP,
    .req_max = LMB_NET_REQ_SIZE,
    .request = srv_request,
    .child = srv_child,
};

static const struct lmb_net_cmd cmd = {
    .ops = &server,
    .default_port = LMB_PORT_BW_UDP,
    .port_flag = 'p',
};

/* --- the client ------------------------------------------------------------- */

struct bw_state {
    struct lmb_addr addr;
    uint32_t msg;
    uint64_t burst_bytes;
    double timeout_s;
    int fd;
    uint32_t burst;
    uint8_t *buf;
};

static int client_init(void *p, char *err, size_t errlen)
{
    struct bw_state *st = p;
    struct lmb_net_req req = { .bench = LMB_NB_BW_UDP, .op = LMB_OP_SINK, .msg = st->msg };
    struct lmb_net_reply rep;
    int want = 4 << 20;

    st->fd = -1;
    st->buf = calloc(1, st->msg);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a %u-byte datagram", (unsigned)st->msg);
        return -1;
    }
    req.aux = (uint32_t)getpid() ^ (uint32_t)(uintptr_t)st->buf;
    if (lmb_net_hello(&st->addr, SOCK_DGRAM, &req, st->timeout_s, &st->fd, &rep, err,
                      errlen) != 0)
        return -1;
    if (lmb_net_connect_port(st->fd, &st->addr, rep.value, err, errlen) != 0)
        return -1;
    if (setsockopt(st->fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof want) != 0)
        setsockopt(st->fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof want);
    lmb_net_set_timeouts(st->fd, LMB_NET_IO_TIMEOUT);
    return 0;
}

static void send_data(struct bw_state *st, uint64_t bytes)
{
    struct lmb_net_req d = { .bench = LMB_NB_BW_UDP, .op = LMB_OP_UDATA, .msg = st->msg,
                             .aux = st->burst };

    lmb_net_req_encode(&d, st->buf);
    for (uint64_t sent = 0; sent < bytes; sent += st->msg)
        while (send(st->fd, st->buf, st->msg, MSG_NOSIGNAL) != (ssize_t)st->msg) {
            if (errno == EINTR || errno == ENOBUFS || errno == ECONNREFUSED)
                continue;
            lmb_abort_copy("sending to the server: %s", strerror(errno));
        }
}

/* Asks how many bytes of the current burst arrived. */
static uint64_t ask_count(struct bw_state *st)
{
    struct lmb_net_req e = { .bench = LMB_NB_BW_UDP, .op = LMB_OP_UEND, .aux = st->burst };
    uint8_t q[LMB_NET_REQ_SIZE], in[LMB_NET_REQ_SIZE + 1];

    lmb_net_req_encode(&e, q);
    for (int tries = 0; tries < END_TRIES; tries++) {
        if (send(st->fd, q, sizeof q, MSG_NOSIGNAL) < 0 && errno != ECONNREFUSED &&
            errno != ENOBUFS)
            lmb_abort_copy("sending to the server: %s", strerror(errno));
        for (;;) {
            struct pollfd p = { .fd = st->fd, .events = POLLIN };
            if (poll(&p, 1, 200) <= 0)
                break;
            ssize_t n = recv(st->fd, in, sizeof in, MSG_DONTWAIT);
            if (n != LMB_NET_REQ_SIZE)
                continue;
            struct lmb_net_req r;
            char why[128];
            if (lmb_net_req_decode(in, (size_t)n, &limits, &r, why, sizeof why) == LMB_NS_OK &&
                r.op == LMB_OP_UEND && r.aux == st->burst)
                return r.total;
        }
    }
    lmb_abort_copy("no count from the server for %d s", END_TRIES / 5);
}

static void client_run(uint64_t n, void *p)
{
    struct bw_state *st = p;

    for (uint64_t i = 0; i < n; i++) {
        uint64_t got = 0;
        st->burst++;
        send_data(st, st->burst_bytes);
        while ((got = ask_count(st)) < st->burst_bytes)
            send_data(st, st->burst_bytes - got);
    }
}

static void client_cleanup(void *p)
{
    struct bw_state *st = p;

    if (st->fd >= 0)
        close(st->fd);
    free(st->buf);
}

static int bw_udp_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct bw_state st = { .fd = -1 };
    struct lmb_net_reply rep;
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    uint64_t msg = DEFAULT_MSG;
    int rc;

    if ((rc = lmb_net_modes(ctx, argc, argv, &cmd)) >= 0)
        return rc;
    if ((rc = lmb_net_client_args(ctx, argc, argv, &cmd, SOCK_DGRAM, &st.addr)) != 0 ||
        (rc = lmb_net_size_opt(ctx, 'm', MSG_MIN, MSG_MAX, &msg)) != 0)
        return rc;
    st.msg = (uint32_t)msg;
    st.burst_bytes = (BURST_BYTES + msg - 1) / msg * msg;
    st.timeout_s = lmb_net_timeout(ctx);

    lmb_net_record_init(&rec, ctx, argv[0], &st.addr, LMB_UNIT_MBS);
    rec.classic = LMB_CLASSIC_LABEL_MBSEC;
    snprintf(rec.label, sizeof rec.label, "socket UDP bandwidth using %s", argv[0]);
    lmb_record_param_int(&rec, "msg_bytes", (long long)msg);
    if (lmb_net_probe(ctx, &rec, &st.addr, SOCK_DGRAM, LMB_NB_BW_UDP, &rep) != 0)
        return LMB_EXIT_OK;

    t = (struct lmb_timed){
        .init = client_init,
        .run = client_run,
        .cleanup = client_cleanup,
        .state = &st,
        .metric = LMB_METRIC_BANDWIDTH,
        .per_iter = (double)st.burst_bytes,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

static const struct lmb_optdef options[] = {
    LMB_NET_SERVER_OPTIONS,
    { 'm', "bytes", "datagram size (default 8k, 24 to 65507)" },
    { 'p', "port", "UDP port (default 31239)" },
};

const struct lmb_bench lmb_bench_bw_udp = {
    .name = "bw_udp",
    .summary = "UDP bandwidth to a bw_udp server",
    .category = LMB_CAT_NETWORK,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "host",
    .help = "bw_udp -s starts a server (in the background; it listens on 127.0.0.1 unless\n"
            "-b says otherwise); bw_udp HOST times delivering bursts of datagrams to it,\n"
            "lost datagrams sent again; bw_udp -S HOST stops it. A server obeys -S only from\n"
            "its own host or the address given with -a.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = bw_udp_main,
};
