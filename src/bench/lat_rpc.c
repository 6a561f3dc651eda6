// SPDX-License-Identifier: MIT
/* lat_rpc: Sun RPC round-trip latency (libtirpc), over TCP and UDP.
 *
 * One operation: one clnt_call() of procedure 1 of program 404040 version 1
 * (lmbench 3's numbers), which sends a char and gets it back. Kept out of
 * the timing: connecting and creating the RPC client handle.
 *
 * The server needs no portmapper: it listens on a known port (31240 unless -r
 * says otherwise; TCP and UDP) and the client goes straight there. When
 * rpcbind runs on the server's host, the server also registers there (and
 * unregisters when it stops). Procedure 2 asks the server to stop; it obeys
 * only a caller on its own host or the address given with -a. Built without
 * libtirpc, the command reports that it is skipped.
 *
 * libtirpc (and the Kerberos libraries it needs) is not linked into a dynamic
 * build: this command loads it with dlopen() when it runs (its soname comes
 * from the build, LMB_TIRPC_SONAME), so that every other command's process
 * stays small; it is skipped, saying why, when the library cannot be loaded.
 * A static build (LMB_TIRPC_LINKED) links it. Every libtirpc function is called
 * through the table `rpc`. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/net.h"
#include "lib/text.h"

#ifdef LMB_HAVE_TIRPC
#include <netinet/in.h>
#include <rpc/pmap_clnt.h>
#include <rpc/rpc.h>
#include <rpc/rpc_com.h>
#ifndef LMB_TIRPC_LINKED
#include <dlfcn.h>
#endif

/* The libtirpc functions this file calls (the others it uses are macros over
 * what these return). */
#define TIRPC_FNS(X)                                                                      \
    X(svc_sendreply) X(svcerr_decode) X(svcerr_noproc) X(svc_fd_create) X(svc_dg_create) \
    X(svc_register) X(svc_getreqset) X(rpc_control) X(pmap_set) X(pmap_unset)           \
    X(clnt_vc_create) X(clnt_dg_create) X(clnt_spcreateerror) X(clnt_sperrno) X(xdr_char) \
    X(xdr_int)

/* Filled once by tirpc_load: process-wide, as the library is. */
static struct {
#define TIRPC_FIELD(f) __typeof__(f) *f;
    TIRPC_FNS(TIRPC_FIELD)
#undef TIRPC_FIELD
} rpc;

/* Makes rpc usable: NULL, or why libtirpc cannot be used. */
static const char *tirpc_load(void)
{
    static int loaded;   /* 0: not tried, 1: loaded, -1: failed (why says why) */
    static char why[256];

    if (loaded != 0)
        return loaded > 0 ? NULL : why;
#ifdef LMB_TIRPC_LINKED
#define TIRPC_SET(f) rpc.f = f;
    TIRPC_FNS(TIRPC_SET)
#undef TIRPC_SET
#else
    void *h = dlopen(LMB_TIRPC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "libtirpc cannot be loaded: %s", e ? e : LMB_TIRPC_SONAME);
        loaded = -1;
        return why;
    }
#define TIRPC_SET(f)                                                                      \
    if ((rpc.f = (__typeof__(rpc.f))dlsym(h, #f)) == NULL) {                              \
        snprintf(why, sizeof why, "libtirpc cannot be loaded: %s has no %s", LMB_TIRPC_SONAME, \
                 #f);                                                                     \
        loaded = -1;                                                                      \
        return why;                                                                       \
    }
    TIRPC_FNS(TIRPC_SET)
#undef TIRPC_SET
#endif
    loaded = 1;
    return NULL;
}

#define XACT_PROG 404040u
#define XACT_VERS 1u
#define RPC_XACT 1u
#define RPC_EXIT 2u

enum { RPC_TCP = 1, RPC_UDP = 2 };

/* --- the server (in the daemon, one process with one server) --------------- */

/* xdr_void with the argument list the other xdr procedures have. */
static bool_t xdr_nothing(XDR *x, void *p)
{
    (void)x, (void)p;
    return TRUE;
}

static struct lmb_server *the_server;
static bool in_child;
static volatile bool udp_stop;
static bool registered;
static int udp_fd = -1;

static void dispatch(struct svc_req *rq, SVCXPRT *x)
{
    char c;
    int answer;

    switch (rq->rq_proc) {
    case NULLPROC:
        rpc.svc_sendreply(x, (xdrproc_t)xdr_nothing, NULL);
        return;
    case RPC_XACT:
        if (!svc_getargs(x, (xdrproc_t)rpc.xdr_char, (char *)&c)) {
            rpc.svcerr_decode(x);
            return;
        }
        rpc.svc_sendreply(x, (xdrproc_t)rpc.xdr_char, (char *)&c);
        return;
    case RPC_EXIT: {
        struct netbuf *nb = svc_getrpccaller(x);
        bool ok = nb != NULL && nb->buf != NULL && nb->len >= sizeof(sa_family_t) &&
                  lmb_server_may_stop(the_server, (const struct sockaddr *)nb->buf);
        answer = ok ? 0 : 1;
        rpc.svc_sendreply(x, (xdrproc_t)rpc.xdr_int, (char *)&answer);
        if (ok) {
            if (in_child)
                _exit(LMB_SRV_CHILD_STOP);
            udp_stop = true;
        }
        return;
    }
    default:
        rpc.svcerr_noproc(x);
        return;
    }
}

/* Connections are handed to a child at once: RPC has its own framing. */
static int srv_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                       const struct sockaddr *peer, socklen_t peerlen)
{
    (void)fd, (void)req, (void)len, (void)peer, (void)peerlen;
    return s->children < LMB_NET_MAX_CHILDREN ? LMB_SRV_FORK : LMB_SRV_CLOSE;
}

static int srv_child(struct lmb_server *s, int fd, const uint8_t *req, size_t len)
{
    SVCXPRT *x;

    (void)s, (void)req, (void)len;
    in_child = true;
    /* RPC records are capped (the server's only input of any length). */
    int max = 8192;
    rpc.rpc_control(RPC_SVC_CONNMAXREC_SET, &max);
    x = rpc.svc_fd_create(fd, 0, 0);
    if (x == NULL || !rpc.svc_register(x, XACT_PROG, XACT_VERS, dispatch, 0))
        return 1;
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int rc = poll(&p, 1, (int)(LMB_NET_IDLE_TIMEOUT * 1000));
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0 || (p.revents & POLLNVAL))
            return 0;   /* idle, or gone */
        fd_set set;
        FD_ZERO(&set);
        FD_SET(fd, &set);
        rpc.svc_getreqset(&set);
        if (fcntl(fd, F_GETFD) < 0)
            return 0;   /* libtirpc closed it: the client went */
    }
}

static bool srv_udp(struct lmb_server *s)
{
    fd_set set;

    (void)s;
    FD_ZERO(&set);
    FD_SET(udp_fd, &set);
    rpc.svc_getreqset(&set);
    return udp_stop;
}

static bool rpcbind_runs(void)
{
    struct lmb_addr a;
    char err[128];
    int fd;

    if (lmb_net_resolve("127.0.0.1", 111, SOCK_STREAM, &a, err, sizeof err) != 0)
        return false;
    fd = lmb_net_connect(SOCK_STREAM, &a, 0.2, err, sizeof err);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

static int srv_setup(struct lmb_server *s, const struct lmb_addr *bound, char *err,
                     size_t errlen)
{
    SVCXPRT *x;
    unsigned port = lmb_net_addr_port((const struct sockaddr *)&bound->ss);

    the_server = s;
    udp_fd = lmb_net_listen(SOCK_DGRAM, bound, err, errlen);
    if (udp_fd < 0)
        return -1;
    x = rpc.svc_dg_create(udp_fd, 0, 0);
    if (x == NULL || !rpc.svc_register(x, XACT_PROG, XACT_VERS, dispatch, 0)) {
        snprintf(err, errlen, "cannot create the UDP RPC service");
        return -1;
    }
    s->extra_fd = udp_fd;
    s->extra = srv_udp;
    if (bound->ss.ss_family == AF_INET && rpcbind_runs()) {
        rpc.pmap_unset(XACT_PROG, XACT_VERS);
        registered = rpc.pmap_set(XACT_PROG, XACT_VERS, IPPROTO_TCP, (unsigned short)port) &&
                     rpc.pmap_set(XACT_PROG, XACT_VERS, IPPROTO_UDP, (unsigned short)port);
    }
    return 0;
}

static void srv_atexit(struct lmb_server *s)
{
    (void)s;
    if (registered)
        rpc.pmap_unset(XACT_PROG, XACT_VERS);
}

static const struct lmb_server_ops server = {
    .socktype = SOCK_STREAM,
    .framed = NULL,
    .request = srv_request,
    .child = srv_child,
    .atexit = srv_atexit,
};

/* --- the client ------------------------------------------------------------- */

/* An RPC client handle on a fresh socket to a (TCP or UDP). */
static CLIENT *make_client(const struct lmb_addr *a, int proto, double timeout_s, char *err,
                           size_t errlen)
{
    struct netbuf nb = { .maxlen = a->len, .len = a->len, .buf = (void *)&a->ss };
    CLIENT *cl;
    int fd = lmb_net_connect(proto == RPC_TCP ? SOCK_STREAM : SOCK_DGRAM, a, timeout_s, err,
                             errlen);

    if (fd < 0)
        return NULL;
    cl = proto == RPC_TCP ? rpc.clnt_vc_create(fd, &nb, XACT_PROG, XACT_VERS, 0, 0)
                          : rpc.clnt_dg_create(fd, &nb, XACT_PROG, XACT_VERS, 0, 0);
    if (cl == NULL) {
        snprintf(err, errlen, "cannot create an RPC client: %s", rpc.clnt_spcreateerror(""));
        close(fd);
        errno = 0;
        return NULL;
    }
    clnt_control(cl, CLSET_FD_CLOSE, NULL);
    if (proto == RPC_UDP) {
        struct timeval retry = { 1, 0 };
        clnt_control(cl, CLSET_RETRY_TIMEOUT, (char *)&retry);
    }
    return cl;
}

/* A null call, to see that the server is there. */
static int probe(const struct lmb_addr *a, int proto, double timeout_s, char *err,
                 size_t errlen)
{
    struct timeval tv = { (time_t)timeout_s, (suseconds_t)((timeout_s - (time_t)timeout_s) * 1e6) };
    char host[64];
    CLIENT *cl = make_client(a, proto, timeout_s, err, errlen);
    enum clnt_stat st;

    if (cl == NULL)
        return -1;   /* errno: connect's */
    st = clnt_call(cl, NULLPROC, (xdrproc_t)xdr_nothing, NULL, (xdrproc_t)xdr_nothing, NULL, tv);
    if (st != RPC_SUCCESS) {
        /* Why, for the hint: a refused datagram (nothing listens) or no answer. */
        struct rpc_err re = { 0 };
        clnt_geterr(cl, &re);
        clnt_destroy(cl);
        lmb_net_addr_str((const struct sockaddr *)&a->ss, host, sizeof host);
        snprintf(err, errlen, "no RPC answer from %s port %u over %s: %s", host,
                 lmb_net_addr_port((const void *)&a->ss), proto == RPC_TCP ? "TCP" : "UDP",
                 rpc.clnt_sperrno(st));
        errno = st == RPC_TIMEDOUT ? ETIMEDOUT
                : st == RPC_CANTRECV && re.re_errno == ECONNREFUSED ? ECONNREFUSED : 0;
        return -1;
    }
    clnt_destroy(cl);
    return 0;
}

static int rpc_stop(const struct lmb_addr *a, int socktype, double timeout_s, char *err,
                    size_t errlen)
{
    struct timeval tv = { (time_t)timeout_s + 1, 0 };
    CLIENT *cl;
    enum clnt_stat st;
    int answer = -1;

    (void)socktype;
    cl = make_client(a, RPC_TCP, timeout_s, err, errlen);
    if (cl == NULL)
        return -1;
    st = clnt_call(cl, RPC_EXIT, (xdrproc_t)xdr_nothing, NULL, (xdrproc_t)rpc.xdr_int,
                   (char *)&answer, tv);
    clnt_destroy(cl);
    if (st != RPC_SUCCESS) {
        snprintf(err, errlen, "the stop request failed: %s", rpc.clnt_sperrno(st));
        return -1;
    }
    if (answer != 0) {
        snprintf(err, errlen, "the server refused to stop: a server obeys a stop only from "
                 "its own host or the address given with -a");
        return -1;
    }
    /* Wait (up to 2 s) until it no longer accepts connections. */
    for (int i = 0; i < 40; i++) {
        char why[128];
        int fd = lmb_net_connect(SOCK_STREAM, a, 0.2, why, sizeof why);
        if (fd < 0)
            break;
        close(fd);
        usleep(50000);
    }
    return 0;
}

static const struct lmb_net_cmd cmd = {
    .ops = &server,
    .default_port = LMB_PORT_LAT_RPC,
    .port_flag = 'r',
    .stop = rpc_stop,
    .setup = srv_setup,
};

struct rpc_state {
    struct lmb_addr addr;
    int proto;
    double timeout_s;
    CLIENT *cl;
};

static int client_init(void *p, char *err, size_t errlen)
{
    struct rpc_state *st = p;

    st->cl = make_client(&st->addr, st->proto, st->timeout_s, err, errlen);
    return st->cl == NULL ? -1 : 0;
}

static void client_run(uint64_t n, void *p)
{
    struct rpc_state *st = p;
    struct timeval tv = { (time_t)LMB_NET_IO_TIMEOUT, 0 };

    for (uint64_t i = 0; i < n; i++) {
        char c = 'x', r = 0;
        enum clnt_stat s = clnt_call(st->cl, RPC_XACT, (xdrproc_t)rpc.xdr_char, &c,
                                     (xdrproc_t)rpc.xdr_char, &r, tv);
        if (s != RPC_SUCCESS)
            lmb_abort_copy("RPC call failed: %s", rpc.clnt_sperrno(s));
        if (r != c)
            lmb_abort_copy("RPC call answered %d instead of %d", r, c);
    }
}

static void client_cleanup(void *p)
{
    struct rpc_state *st = p;

    if (st->cl != NULL)
        clnt_destroy(st->cl);
}

static int lat_rpc_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const char *proto_arg = lmb_opt_arg(ctx, 'p');
    unsigned port;
    int rc;

    if ((rc = lmb_net_modes(ctx, argc, argv, &cmd)) >= 0)
        return rc;
    if (argc < 1)
        return lmb_usage_error(ctx, "which host? (start a server with '%s -s')", ctx->prog);
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if (proto_arg != NULL && strcmp(proto_arg, "tcp") != 0 && strcmp(proto_arg, "udp") != 0) {
        char q[LMB_QUOTE_BUF];
        return lmb_usage_error(ctx, "-p: the protocol is tcp or udp, not '%s'",
                               lmb_quote(proto_arg, q, sizeof q));
    }
    if ((rc = lmb_net_port(ctx, &cmd, &port)) != 0)
        return rc;

    for (int proto = RPC_TCP; proto <= RPC_UDP; proto++) {
        const char *name = proto == RPC_TCP ? "tcp" : "udp";
        struct rpc_state st = { .proto = proto, .timeout_s = lmb_net_timeout(ctx) };
        struct lmb_record rec;
        struct lmb_result res;
        struct lmb_timed t;
        char err[512];

        if (proto_arg != NULL && strcmp(proto_arg, name) != 0)
            continue;
        rc = lmb_net_client_addr(ctx, argv[0], port, proto == RPC_TCP ? SOCK_STREAM : SOCK_DGRAM,
                                 &st.addr);
        if (rc != 0)
            return rc;
        lmb_net_record_init(&rec, ctx, argv[0], &st.addr, LMB_UNIT_US);
        snprintf(rec.case_name, sizeof rec.case_name, "%s", name);
        rec.classic = LMB_CLASSIC_LABEL_US;
        snprintf(rec.label, sizeof rec.label, "RPC/%s latency using %s", name, argv[0]);
        if (probe(&st.addr, proto, st.timeout_s, err, sizeof err) != 0) {
            lmb_net_unreached(ctx, &st.addr, proto == RPC_TCP ? SOCK_STREAM : SOCK_DGRAM,
                              cmd.port_flag, cmd.default_port, errno, st.timeout_s, err,
                              sizeof err);
            lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
            continue;
        }
        t = (struct lmb_timed){
            .init = client_init,
            .run = client_run,
            .cleanup = client_cleanup,
            .state = &st,
            .metric = LMB_METRIC_LATENCY,
            .per_iter = 1.0,
        };
        lmb_measure(ctx, &t, &res);
        lmb_report_add(&ctx->report, &rec, &res);
    }
    return LMB_EXIT_OK;
}

static const char *supported(void)
{
    return tirpc_load();
}

#else /* !LMB_HAVE_TIRPC */

static int lat_rpc_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    (void)ctx, (void)argc, (void)argv;
    return LMB_EXIT_SKIPPED;
}

static const char *supported(void)
{
    return "built without libtirpc";
}

#endif

static const struct lmb_optdef options[] = {
    LMB_NET_SERVER_OPTIONS,
    { 'p', "tcp|udp", "measure over this protocol only (default: both)" },
    { 'r', "port", "TCP and UDP port of the server (default 31240)" },
};

const struct lmb_bench lmb_bench_lat_rpc = {
    .name = "lat_rpc",
    .summary = "Sun RPC round-trip latency over TCP and UDP to a lat_rpc server",
    .category = LMB_CAT_NETWORK,
    .common = LMB_USE_PWN,
    .args = "host",
    .help = "lat_rpc -s starts a server (in the background; it listens on 127.0.0.1 unless\n"
            "-b says otherwise, on a known port: no portmapper needed, though it registers\n"
            "with rpcbind when rpcbind runs); lat_rpc HOST times RPC calls to it over TCP\n"
            "and UDP; lat_rpc -S HOST stops it. A server obeys -S only from its own host or\n"
            "the address given with -a.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .supported = supported,
    .main = lat_rpc_main,
};
