// SPDX-License-Identifier: MIT
/* bw_tcp: TCP bandwidth from a client to bw_tcp's server.
 *
 * One iteration moves -M bytes, written -m bytes at a time (default 64 KiB,
 * lmbench 3's). Each call of the timed loop sends an 8-byte count of the
 * bytes that follow, the bytes, and then waits for the server's one-byte
 * acknowledgement that it has read them all (in reads of -m bytes, at most
 * 1 MB), so the time covers the data arriving, not only leaving. Kept out of
 * the timing: connecting and the request header.
 *
 * The read size matters: a receiver that asks for far more than a write
 * brings (1 MB reads of 64 KiB writes) holds its socket for long stretches,
 * its acknowledgements come late, and the sender waits for send-buffer room:
 * over loopback, in three interleaved runs, it read 0.34, 0.44 and 0.93 of
 * what reads of the write size do. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/net.h"
#include "lib/transfer.h"

#define MSG_MAX (64u << 20)
#define READ_MAX (1u << 20)        /* the server's largest read */
#define BATCH_MAX (1ULL << 50)     /* most bytes one batch may announce */
#define DEFAULT_MSG (64u << 10)    /* lmbench 3's default message */
#define MIN_DEFAULT_MOVE (64u << 10)

static const struct lmb_net_limits limits = {
    .bench = LMB_NB_BW_TCP,
    .ops = 1u << LMB_OP_SINK,
    .msg_min = 1,
    .msg_max = MSG_MAX,
    .total_max = BATCH_MAX,
};

/* --- the server ------------------------------------------------------------- */

static int srv_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                       const struct sockaddr *peer, socklen_t peerlen)
{
    struct lmb_net_req r;
    return lmb_server_std_request(s, fd, req, len, peer, peerlen, &limits, &r);
}

/* Validates a batch header: the count of bytes that follow. */
static int batch_decode(const uint8_t b[8], uint64_t *count)
{
    uint64_t v = 0;

    for (int i = 0; i < 8; i++)
        v = (v << 8) | b[i];
    if (v == 0 || v > BATCH_MAX)
        return -1;
    *count = v;
    return 0;
}

/* Reads batches (an 8-byte count, then that many bytes, msg bytes a read, at
 * most READ_MAX) and acknowledges each with one byte, until the other end
 * goes. Returns 0, or -1 on a bad batch header, a failed write or no memory. */
static int sink(int fd, uint32_t msg)
{
    size_t rd = msg < READ_MAX ? msg : READ_MAX;
    char *buf = malloc(rd);
    uint8_t hdr[8];
    int rc = 0;

    if (buf == NULL)
        return -1;
    while (rc == 0 && lmb_net_read_full(fd, hdr, sizeof hdr) == 1) {
        uint64_t left;
        if (batch_decode(hdr, &left) != 0) {
            rc = -1;
            break;
        }
        while (left > 0) {
            ssize_t n = read(fd, buf, left < rd ? (size_t)left : rd);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                goto out;
            left -= (uint64_t)n;
        }
        if (lmb_net_write_full(fd, "", 1) != 1)
            rc = -1;
    }
out:
    free(buf);
    return rc;
}

/* Reads batches and acknowledges each, until the client goes (or idles). */
static int srv_child(struct lmb_server *s, int fd, const uint8_t *req, size_t len)
{
    struct lmb_net_req r;
    struct lmb_net_reply rep;
    char why[128];

    (void)s;
    if (lmb_net_req_decode(req, len, &limits, &r, why, sizeof why) != LMB_NS_OK)
        return 1;
    lmb_net_reply_fill(&rep, LMB_NS_OK, LMB_NB_BW_TCP, r.msg);
    if (lmb_server_reply(fd, &rep, NULL, 0) != 0)
        return 1;
    sink(fd, r.msg);
    return 0;
}

static const struct lmb_server_ops server = {
    .socktype = SOCK_STREAM,
    .bench = LMB_NB_BW_TCP,
    .framed = lmb_server_framed_req,
    .req_max = LMB_NET_REQ_SIZE,
    .request = srv_request,
    .child = srv_child,
};

static const struct lmb_net_cmd cmd = {
    .ops = &server,
    .default_port = LMB_PORT_BW_TCP,
    .port_flag = 'p',
};

/* --- the client ------------------------------------------------------------- */

struct bw_state {
    struct lmb_addr addr;
    uint32_t msg;
    uint64_t move;
    double timeout_s;
    int fd;
    int peer;         /* -l: the partner's end */
    char *buf;
};

static int client_init(void *p, char *err, size_t errlen)
{
    struct bw_state *st = p;
    struct lmb_net_req req = { .bench = LMB_NB_BW_TCP, .op = LMB_OP_SINK, .msg = st->msg };
    struct lmb_net_reply rep;

    st->fd = -1;
    st->buf = malloc(st->msg);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a %u-byte message", (unsigned)st->msg);
        return -1;
    }
    memset(st->buf, 'x', st->msg);
    if (lmb_net_hello(&st->addr, SOCK_STREAM, &req, st->timeout_s, &st->fd, &rep, err,
                      errlen) != 0)
        return -1;
    lmb_net_set_timeouts(st->fd, LMB_NET_IO_TIMEOUT);
    return 0;
}

/* -l: a loopback connection whose other end the partner reads. */
static int local_init(void *p, char *err, size_t errlen)
{
    struct bw_state *st = p;

    st->buf = malloc(st->msg);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a %u-byte message", (unsigned)st->msg);
        return -1;
    }
    memset(st->buf, 'x', st->msg);
    if (lmb_net_local_pair(SOCK_STREAM, &st->fd, &st->peer, err, errlen) != 0)
        return -1;
    lmb_net_set_timeouts(st->fd, LMB_NET_IO_TIMEOUT);
    return 0;
}

static int local_partner(void *p, const struct lmb_partner_ctx *pc)
{
    struct bw_state *st = p;

    close(st->fd);
    if (sink(st->peer, st->msg) != 0) {
        snprintf(pc->err, pc->errlen, "reading the data: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void local_after(void *p, bool threads)
{
    struct bw_state *st = p;

    (void)threads;
    close(st->peer);
    st->peer = -1;
}

/* One batch: the count, the bytes, the acknowledgement. */
static void send_batch(struct bw_state *st, uint64_t total)
{
    uint64_t left = total;
    uint8_t hdr[8];
    char ack;
    int rc;

    for (int i = 0; i < 8; i++)
        hdr[i] = (uint8_t)(total >> (56 - 8 * i));
    if (lmb_net_write_full(st->fd, hdr, sizeof hdr) != 1)
        lmb_abort_copy("sending to the server: %s", strerror(errno));
    while (left > 0) {
        size_t chunk = left < st->msg ? (size_t)left : st->msg;
        if (lmb_net_write_full(st->fd, st->buf, chunk) != 1) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                lmb_abort_copy("the server took no data for %g s", LMB_NET_IO_TIMEOUT);
            lmb_abort_copy("sending to the server: %s", strerror(errno));
        }
        left -= chunk;
    }
    rc = lmb_net_read_full(st->fd, &ack, 1);
    if (rc != 1) {
        if (rc == 0)
            lmb_abort_copy("the server closed the connection");
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            lmb_abort_copy("no acknowledgement from the server within %g s", LMB_NET_IO_TIMEOUT);
        lmb_abort_copy("reading from the server: %s", strerror(errno));
    }
}

/* n iterations, in one batch unless it would announce more than BATCH_MAX
 * bytes (or overflow the count): then in batches of as many whole iterations
 * as fit. */
static void client_run(uint64_t n, void *p)
{
    struct bw_state *st = p;
    uint64_t per = BATCH_MAX / st->move;

    while (n > 0) {
        uint64_t k = n < per ? n : per;
        send_batch(st, k * st->move);
        n -= k;
    }
}

static void client_cleanup(void *p)
{
    struct bw_state *st = p;

    if (st->fd >= 0)
        close(st->fd);
    if (st->peer >= 0)
        close(st->peer);
    free(st->buf);
}

static int bw_tcp_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct bw_state st = { .fd = -1, .peer = -1 };
    struct lmb_net_reply rep;
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    const char *host;
    uint64_t msg = DEFAULT_MSG, move = 0;
    bool local;
    char why[300];
    int rc;

    if ((rc = lmb_net_client_start(ctx, argc, argv, &cmd, SOCK_STREAM, &local, &host, &st.addr)) >= 0)
        return rc;
    if ((rc = lmb_net_size_opt(ctx, 'm', 1, MSG_MAX, &msg)) != 0 ||
        (rc = lmb_net_size_opt(ctx, 'M', msg, 1ULL << 40, &move)) != 0)
        return rc;
    /* Whole messages; by default at least 64k. */
    move = ((move ? move : MIN_DEFAULT_MOVE) + msg - 1) / msg * msg;
    if (lmb_transfer_check(ctx, 'M', lmb_opt_given(ctx, 'M') ? lmb_opt_arg(ctx, 'M') : "64k",
                           move, why, sizeof why) != 0)
        return lmb_usage_error(ctx, "%s", why);
    st.msg = (uint32_t)msg;
    st.move = move;
    st.timeout_s = lmb_net_timeout(ctx);

    lmb_net_record_init(&rec, ctx, host, &st.addr, LMB_UNIT_MBS);
    rec.classic = LMB_CLASSIC_SIZE_MBSEC;
    rec.classic_x = (double)msg;
    lmb_record_param_int(&rec, "msg_bytes", (long long)msg);
    lmb_record_param_int(&rec, "move_bytes", (long long)move);
    /* The client's message, and with -l its partner's reads (at most 1 MB). */
    if (lmb_memory_fits(msg + (local ? (msg < READ_MAX ? msg : READ_MAX) : 0), ctx->opt.parallel,
                        why, sizeof why) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", why);
    if (!local && lmb_net_probe(ctx, &rec, &st.addr, SOCK_STREAM, LMB_NB_BW_TCP, &rep) != 0)
        return LMB_EXIT_OK;

    t = (struct lmb_timed){
        .init = local ? local_init : client_init,
        .run = client_run,
        .cleanup = client_cleanup,
        .state = &st,
        .metric = LMB_METRIC_BANDWIDTH,
        .per_iter = (double)move,
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
    { 'm', "bytes", "bytes per write, and per server read up to 1m (default 64k, at most 64m)" },
    { 'M', "bytes", "bytes moved per iteration (default: 64k rounded up to whole messages)" },
    { 'p', "port", "TCP port (default 31235)" },
};

const struct lmb_bench lmb_bench_bw_tcp = {
    .name = "bw_tcp",
    .summary = "TCP bandwidth to a bw_tcp server",
    .category = LMB_CAT_NETWORK,
    .common = LMB_USE_PWN,
    .args = "host | -l",
    .help = "bw_tcp -s starts a server (in the background; it listens on 127.0.0.1 unless\n"
            "-b says otherwise); bw_tcp HOST times sending data to it, -m bytes per write,\n"
            "until the server has read it all; bw_tcp -S HOST stops it. The line shows the\n"
            "message size in MB and the bandwidth. A server obeys -S only from its own host\n"
            "or the address given with -a. bw_tcp -l needs no server: the harness starts\n"
            "the receiving end as a partner process and places both (LMBENCH_SCHED, --cpus).\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = bw_tcp_main,
};
