// SPDX-License-Identifier: MIT
/* The server side of the network benchmarks and the three modes of their
 * commands. A server (`cmd -s`) binds and listens in the foreground, so that a
 * port in use is reported at once, then detaches (setsid, double fork, no
 * terminal, stdio on /dev/null) and returns once the daemon is serving. The
 * daemon's main loop reads each connection's fixed-size request itself (a
 * deadline per connection, a cap on connections still sending), answers HELLO
 * and STOP, and hands data connections to children (capped, idle timeouts,
 * always reaped, killed when the server stops or dies). */
#include "lib/net.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/text.h"

#define REQ_BUF 4096

struct pending {
    int fd;
    size_t len;
    double deadline;
    struct sockaddr_storage peer;
    socklen_t peerlen;
    uint8_t buf[REQ_BUF];
};

/* UDP sessions recently created, so that a HELLO sent twice (the first reply
 * was lost) gets the same session instead of a second one. */
struct udp_session {
    struct sockaddr_storage peer;
    socklen_t peerlen;
    uint32_t nonce;
    uint32_t port;
    double when;
};

static volatile sig_atomic_t stop_signal;

/* The daemon is one process with one main loop: its recent UDP sessions. */
static struct udp_session sessions[16];

static void on_term(int sig)
{
    stop_signal = sig;
}

static void on_chld(int sig)
{
    (void)sig;   /* only wakes ppoll */
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool lmb_server_may_stop(const struct lmb_server *s, const struct sockaddr *peer)
{
    if (lmb_net_addr_is_local(peer))
        return true;
    if (s->have_allow) {
        char a[64], b[64];
        lmb_net_addr_str((const struct sockaddr *)&s->allow.ss, a, sizeof a);
        lmb_net_addr_str(peer, b, sizeof b);
        if (strcmp(a, b) == 0)
            return true;
        /* An IPv4 peer seen through an IPv6 socket. */
        if (strncmp(b, "::ffff:", 7) == 0 && strcmp(a, b + 7) == 0)
            return true;
    }
    return false;
}

int lmb_server_reply(int fd, const struct lmb_net_reply *r, const struct sockaddr *peer,
                     socklen_t peerlen)
{
    uint8_t out[LMB_NET_REPLY_SIZE];

    lmb_net_reply_encode(r, out);
    if (peer != NULL)
        return sendto(fd, out, sizeof out, MSG_NOSIGNAL | MSG_DONTWAIT, peer, peerlen) ==
                       (ssize_t)sizeof out ? 0 : -1;
    return lmb_net_write_full(fd, out, sizeof out) == 1 ? 0 : -1;
}

long lmb_server_framed_req(const uint8_t *buf, size_t len)
{
    /* A wrong magic closes the connection early instead of waiting for 24 bytes. */
    static const uint8_t magic[4] = { 'L', 'M', 'N', '1' };
    size_t n = len < 4 ? len : 4;

    if (memcmp(buf, magic, n) != 0)
        return -1;
    return len >= LMB_NET_REQ_SIZE ? LMB_NET_REQ_SIZE : 0;
}

int lmb_server_std_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                           const struct sockaddr *peer, socklen_t peerlen,
                           const struct lmb_net_limits *lim, struct lmb_net_req *out)
{
    struct lmb_net_reply rep;
    char why[128];
    bool dgram = s->ops->socktype == SOCK_DGRAM;
    const struct sockaddr *to = dgram ? peer : NULL;
    int st = lmb_net_req_decode(req, len, lim, out, why, sizeof why);

    if (st != LMB_NS_OK) {
        /* Garbage on a datagram socket gets no answer (no reflection). */
        if (!dgram || st == LMB_NS_WRONG_BENCH) {
            lmb_net_reply_fill(&rep, (uint16_t)st, lim->bench, 0);
            lmb_server_reply(fd, &rep, to, peerlen);
        }
        return LMB_SRV_CLOSE;
    }
    switch (out->op) {
    case LMB_OP_HELLO:
        lmb_net_reply_fill(&rep, LMB_NS_OK, lim->bench, 0);
        lmb_server_reply(fd, &rep, to, peerlen);
        return LMB_SRV_CLOSE;
    case LMB_OP_STOP:
        if (!lmb_server_may_stop(s, peer)) {
            lmb_net_reply_fill(&rep, LMB_NS_DENIED, lim->bench, 0);
            lmb_server_reply(fd, &rep, to, peerlen);
            return LMB_SRV_CLOSE;
        }
        lmb_net_reply_fill(&rep, LMB_NS_OK, lim->bench, 0);
        lmb_server_reply(fd, &rep, to, peerlen);
        return LMB_SRV_STOP;
    default:
        if (s->children >= LMB_NET_MAX_CHILDREN) {
            lmb_net_reply_fill(&rep, LMB_NS_BUSY, lim->bench, 0);
            lmb_server_reply(fd, &rep, to, peerlen);
            return LMB_SRV_CLOSE;
        }
        return LMB_SRV_FORK;
    }
}

int lmb_server_udp_session(struct lmb_server *s, const struct sockaddr *peer, socklen_t peerlen,
                           uint32_t nonce, uint32_t *port)
{
    struct sockaddr_storage local;
    socklen_t llen = sizeof local;
    double now = mono_s();
    int fd, oldest = 0;

    for (int i = 0; i < 16; i++) {
        struct udp_session *u = &sessions[i];
        if (u->when > 0 && now - u->when < 10.0 && u->nonce == nonce && u->peerlen == peerlen &&
            memcmp(&u->peer, peer, peerlen) == 0) {
            *port = u->port;
            return 0;
        }
        if (u->when < sessions[oldest].when)
            oldest = i;
    }
    if (getsockname(s->fd, (struct sockaddr *)&local, &llen) != 0)
        return -1;
    if (local.ss_family == AF_INET)
        ((struct sockaddr_in *)&local)->sin_port = 0;
    else
        ((struct sockaddr_in6 *)&local)->sin6_port = 0;
    fd = socket(local.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (bind(fd, (struct sockaddr *)&local, llen) != 0 || connect(fd, peer, peerlen) != 0 ||
        getsockname(fd, (struct sockaddr *)&local, &llen) != 0) {
        close(fd);
        return -1;
    }
    *port = lmb_net_addr_port((struct sockaddr *)&local);
    s->session_fd = fd;
    sessions[oldest].when = now;
    sessions[oldest].nonce = nonce;
    sessions[oldest].port = *port;
    sessions[oldest].peerlen = peerlen;
    memcpy(&sessions[oldest].peer, peer, peerlen);
    return 1;
}

/* Closes every descriptor from 3 up except those in keep. */
static void close_other_fds(const int *keep, int nkeep)
{
    long max = sysconf(_SC_OPEN_MAX);

    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++) {
        bool k = false;
        for (int i = 0; i < nkeep; i++)
            if (keep[i] == fd)
                k = true;
        if (!k)
            close(fd);
    }
}

/* --- the daemon's main loop ------------------------------------------------ */

struct loop {
    struct lmb_server *s;
    struct pending *pend;
    int npend;
    pid_t kids[LMB_NET_MAX_CHILDREN];
    struct udp_session sess[16];
    sigset_t run_mask;   /* the mask during ppoll: nothing blocked */
    bool stop;
};

static void spawn(struct loop *L, int fd, const uint8_t *req, size_t len)
{
    struct lmb_server *s = L->s;
    pid_t pid;
    int slot = -1;

    for (int i = 0; i < LMB_NET_MAX_CHILDREN; i++)
        if (L->kids[i] == 0) {
            slot = i;
            break;
        }
    if (slot < 0)
        return;
    pid = fork();
    if (pid < 0)
        return;
    if (pid == 0) {
        int keep[1] = { fd };
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGCHLD, &sa, NULL);
        sigprocmask(SIG_SETMASK, &L->run_mask, NULL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        close_other_fds(keep, 1);
        lmb_net_set_timeouts(fd, LMB_NET_IDLE_TIMEOUT);
        _exit(s->ops->child(s, fd, req, len));
    }
    L->kids[slot] = pid;
    s->children++;
}

static void reap(struct loop *L, bool block)
{
    int st;
    pid_t pid;

    while ((pid = waitpid(-1, &st, block ? 0 : WNOHANG)) > 0) {
        for (int i = 0; i < LMB_NET_MAX_CHILDREN; i++)
            if (L->kids[i] == pid) {
                L->kids[i] = 0;
                L->s->children--;
            }
        if (WIFEXITED(st) && WEXITSTATUS(st) == LMB_SRV_CHILD_STOP)
            L->stop = true;
    }
}

static void close_pending(struct loop *L, int i)
{
    close(L->pend[i].fd);
    L->pend[i] = L->pend[L->npend - 1];
    L->npend--;
}

/* A complete request on a stream connection, or a connection handed on at
 * once (len 0). Returns the fd to close after stopping, or -1. */
static int dispatch(struct loop *L, int fd, const uint8_t *req, size_t len,
                    const struct sockaddr *peer, socklen_t peerlen)
{
    struct lmb_server *s = L->s;
    int flags = fcntl(fd, F_GETFL);

    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    lmb_net_set_timeouts(fd, LMB_NET_REQUEST_TIMEOUT);
    switch (s->ops->request(s, fd, req, len, peer, peerlen)) {
    case LMB_SRV_FORK:
        spawn(L, fd, req, len);
        break;
    case LMB_SRV_STOP:
        L->stop = true;
        return fd;   /* closed last, so the client sees the server gone */
    default:
        break;
    }
    close(fd);
    return -1;
}

static void on_datagram(struct loop *L)
{
    struct lmb_server *s = L->s;
    uint8_t buf[REQ_BUF];
    struct sockaddr_storage peer;
    socklen_t plen = sizeof peer;
    ssize_t n = recvfrom(s->fd, buf, sizeof buf, MSG_DONTWAIT | MSG_TRUNC,
                         (struct sockaddr *)&peer, &plen);

    if (n < 0 || (size_t)n > s->ops->req_max || (size_t)n > sizeof buf)
        return;
    s->session_fd = -1;
    switch (s->ops->request(s, s->fd, buf, (size_t)n, (struct sockaddr *)&peer, plen)) {
    case LMB_SRV_FORK:
        if (s->session_fd >= 0) {
            spawn(L, s->session_fd, buf, (size_t)n);
            close(s->session_fd);
            s->session_fd = -1;
        }
        break;
    case LMB_SRV_STOP:
        L->stop = true;
        break;
    default:
        break;
    }
}

static void on_accept(struct loop *L, double now)
{
    struct lmb_server *s = L->s;

    for (int k = 0; k < 16; k++) {
        struct sockaddr_storage peer;
        socklen_t plen = sizeof peer;
        int fd = accept4(s->fd, (struct sockaddr *)&peer, &plen, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        if (s->ops->framed == NULL) {
            int last = dispatch(L, fd, NULL, 0, (struct sockaddr *)&peer, plen);
            if (last >= 0)
                close(last);
            continue;
        }
        if (L->npend == LMB_NET_MAX_PENDING) {
            /* Full: the connection that has waited longest makes room. */
            int oldest = 0;
            for (int i = 1; i < L->npend; i++)
                if (L->pend[i].deadline < L->pend[oldest].deadline)
                    oldest = i;
            close_pending(L, oldest);
        }
        struct pending *p = &L->pend[L->npend++];
        p->fd = fd;
        p->len = 0;
        p->deadline = now + LMB_NET_REQUEST_TIMEOUT;
        memcpy(&p->peer, &peer, sizeof peer);
        p->peerlen = plen;
    }
}

/* Returns the fd of a stop request to close last, or -1. */
static int on_pending(struct loop *L, int i)
{
    struct lmb_server *s = L->s;
    struct pending *p = &L->pend[i];
    size_t room = s->ops->req_max - p->len;
    ssize_t n = recv(p->fd, p->buf + p->len, room, MSG_DONTWAIT);
    long need;

    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return -1;
        close_pending(L, i);   /* closed or reset before a request: lat_connect's case */
        return -1;
    }
    p->len += (size_t)n;
    need = s->ops->framed(p->buf, p->len);
    if (need < 0 || (need == 0 && p->len >= s->ops->req_max)) {
        close_pending(L, i);
        return -1;
    }
    if (need == 0)
        return -1;
    struct pending done = *p;
    L->pend[i] = L->pend[L->npend - 1];
    L->npend--;
    return dispatch(L, done.fd, done.buf, (size_t)need, (struct sockaddr *)&done.peer,
                    done.peerlen);
}

static void run_loop(struct lmb_server *s)
{
    struct loop *L = calloc(1, sizeof *L);
    struct pollfd *fds;
    int last_fd = -1;
    sigset_t block;

    if (L == NULL)
        _exit(1);
    L->s = s;
    L->pend = calloc(LMB_NET_MAX_PENDING, sizeof *L->pend);
    fds = calloc(LMB_NET_MAX_PENDING + 2, sizeof *fds);
    if (L->pend == NULL || fds == NULL)
        _exit(1);
    fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);

    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &L->run_mask);
    sigdelset(&L->run_mask, SIGCHLD);
    sigdelset(&L->run_mask, SIGTERM);
    sigdelset(&L->run_mask, SIGINT);
    sigdelset(&L->run_mask, SIGHUP);

    while (!L->stop && !stop_signal) {
        double now = mono_s(), next = now + 3600;
        int n = 0, first_pend;

        reap(L, false);
        if (L->stop)
            break;
        for (int i = 0; i < L->npend;) {
            if (L->pend[i].deadline <= now) {
                close_pending(L, i);
                continue;
            }
            if (L->pend[i].deadline < next)
                next = L->pend[i].deadline;
            i++;
        }
        fds[n++] = (struct pollfd){ .fd = s->fd, .events = POLLIN };
        if (s->extra_fd >= 0)
            fds[n++] = (struct pollfd){ .fd = s->extra_fd, .events = POLLIN };
        else
            fds[n++] = (struct pollfd){ .fd = -1 };
        first_pend = n;
        for (int i = 0; i < L->npend; i++)
            fds[n++] = (struct pollfd){ .fd = L->pend[i].fd, .events = POLLIN };
        double wait = next - now;
        struct timespec ts = { (time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9) };
        int rc = ppoll(fds, (nfds_t)n, &ts, &L->run_mask);
        if (rc <= 0)
            continue;
        now = mono_s();
        /* Pending connections first (their indexes shift as they close). */
        for (int i = n - 1; i >= first_pend && !L->stop; i--)
            if (fds[i].revents) {
                int idx = i - first_pend;
                if (idx < L->npend && L->pend[idx].fd == fds[i].fd) {
                    int lf = on_pending(L, idx);
                    if (lf >= 0)
                        last_fd = lf;
                }
            }
        if (!L->stop && fds[1].fd >= 0 && fds[1].revents && s->extra(s))
            L->stop = true;
        if (!L->stop && fds[0].revents) {
            if (s->ops->socktype == SOCK_DGRAM)
                on_datagram(L);
            else
                on_accept(L, now);
        }
    }

    /* Stop: no more listening, every connection and child gone, then the
     * stop request's connection closed, last. */
    close(s->fd);
    for (int i = 0; i < L->npend; i++)
        close(L->pend[i].fd);
    for (int i = 0; i < LMB_NET_MAX_CHILDREN; i++)
        if (L->kids[i] > 0)
            kill(L->kids[i], SIGKILL);
    while (s->children > 0) {
        reap(L, true);
        if (errno == ECHILD)
            break;
    }
    if (s->ops->atexit)
        s->ops->atexit(s);
    if (last_fd >= 0)
        close(last_fd);
    _exit(0);
}

/* --- starting and stopping ------------------------------------------------- */

/* Detaches and runs the server; in the caller, returns 0 once the daemon is
 * serving, or -1 with a message. */
static int daemonize(struct lmb_server *s, const struct lmb_net_cmd *cmd,
                     const struct lmb_addr *bound, char *err, size_t errlen)
{
    int p[2];
    pid_t pid;
    char msg[256];
    ssize_t n;

    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        /* The intermediate process: a new session, then the daemon is its
         * child, which cannot get a controlling terminal back. */
        close(p[0]);
        if (setsid() < 0)
            _exit(1);
        pid_t d = fork();
        if (d != 0)
            _exit(d < 0 ? 1 : 0);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        sa.sa_handler = on_term;
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
        sa.sa_handler = on_chld;
        sigaction(SIGCHLD, &sa, NULL);
        prctl(PR_SET_PDEATHSIG, 0);
        if (chdir("/") != 0)
            _exit(1);
        int nul = open("/dev/null", O_RDWR);
        if (nul < 0)
            _exit(1);
        dup2(nul, 0);
        dup2(nul, 1);
        dup2(nul, 2);
        if (nul > 2)
            close(nul);
        int keep[3] = { s->fd, p[1], s->extra_fd };
        close_other_fds(keep, 3);
        if (cmd->setup != NULL && cmd->setup(s, bound, msg, sizeof msg) != 0) {
            n = write(p[1], msg, strlen(msg));
            (void)n;
            _exit(1);
        }
        /* The setup may have made the extra fd. */
        n = write(p[1], "", 1);
        (void)n;
        close(p[1]);
        run_loop(s);
    }
    close(p[1]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    n = read(p[0], msg, sizeof msg - 1);
    close(p[0]);
    if (n == 1 && msg[0] == '\0')
        return 0;
    if (n > 0) {
        msg[n] = '\0';
        snprintf(err, errlen, "%s", msg);
    } else {
        snprintf(err, errlen, "the server did not start");
    }
    return -1;
}

int lmb_net_fail(const struct lmb_ctx *ctx, const char *fmt, ...)
{
    FILE *f = ctx->report.messages ? ctx->report.messages : stderr;
    va_list ap;

    fprintf(f, "%s: ", ctx->prog);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
    return LMB_EXIT_FAILED;
}

int lmb_net_port(struct lmb_ctx *ctx, const struct lmb_net_cmd *cmd, unsigned *port)
{
    char why[160];
    const char *arg = lmb_opt_arg(ctx, cmd->port_flag);

    *port = cmd->default_port;
    if (arg != NULL && lmb_net_parse_port(arg, port, why, sizeof why) != 0)
        return lmb_usage_error(ctx, "-%c: %s", cmd->port_flag, why);
    return 0;
}

int lmb_net_client_addr(struct lmb_ctx *ctx, const char *host, unsigned port, int socktype,
                        struct lmb_addr *a)
{
    char err[256];
    int rc = lmb_net_resolve(host, port, socktype, a, err, sizeof err);

    if (rc == LMB_RESOLVE_UNKNOWN)
        return lmb_usage_error(ctx, "%s", err);
    if (rc != LMB_RESOLVE_OK)
        return lmb_net_fail(ctx, "%s", err);
    return 0;
}

/* Asks the server at a to stop, with the binary protocol. */
static int std_stop(const struct lmb_net_cmd *cmd, const struct lmb_addr *a, double timeout_s,
                    char *err, size_t errlen)
{
    struct lmb_net_req req = { .bench = cmd->ops->bench, .op = LMB_OP_STOP };
    struct lmb_net_reply rep;
    int fd;

    if (lmb_net_hello(a, cmd->ops->socktype, &req, timeout_s,
                      cmd->ops->socktype == SOCK_STREAM ? &fd : NULL, &rep, err, errlen) != 0)
        return -1;
    if (cmd->ops->socktype == SOCK_STREAM) {
        /* The server closes this connection once it no longer listens. */
        char c;
        while (read(fd, &c, 1) > 0)
            ;
        close(fd);
    } else {
        /* Datagrams: wait (up to 2 s) until the port no longer answers. */
        struct lmb_net_req hello = { .bench = cmd->ops->bench, .op = LMB_OP_HELLO };
        char why[256];
        for (int i = 0; i < 20; i++)
            if (lmb_net_hello(a, SOCK_DGRAM, &hello, 0.1, NULL, &rep, why, sizeof why) != 0)
                break;
    }
    return 0;
}

int lmb_net_stop_at(struct lmb_ctx *ctx, const struct lmb_net_cmd *cmd, const char *host,
                    unsigned port)
{
    struct lmb_addr a;
    char err[512];
    double t = lmb_net_timeout(ctx);
    int rc;

    if ((rc = lmb_net_client_addr(ctx, host, port, cmd->ops->socktype, &a)) != 0)
        return rc;
    rc = cmd->stop != NULL ? cmd->stop(&a, cmd->ops->socktype, t, err, sizeof err)
                           : std_stop(cmd, &a, t, err, sizeof err);
    if (rc != 0) {
        char q[LMB_QUOTE_BUF];
        return lmb_net_fail(ctx, "-S %s: %s", lmb_quote(host, q, sizeof q), err);
    }
    return LMB_EXIT_OK;
}

int lmb_net_serve(struct lmb_ctx *ctx, const struct lmb_net_cmd *cmd, unsigned port)
{
    const char *bind_arg = lmb_opt_arg(ctx, 'b'), *allow_arg = lmb_opt_arg(ctx, 'a');
    struct lmb_server s;
    struct lmb_addr bound;
    char err[512];
    int rc;

    memset(&s, 0, sizeof s);
    s.ops = cmd->ops;
    s.prog = ctx->prog;
    s.session_fd = -1;
    s.extra_fd = -1;
    rc = lmb_net_resolve(bind_arg ? bind_arg : "127.0.0.1", port, cmd->ops->socktype, &bound,
                         err, sizeof err);
    if (rc != LMB_RESOLVE_OK)
        return lmb_usage_error(ctx, "-b: %s", err);
    if (allow_arg != NULL) {
        rc = lmb_net_resolve(allow_arg, 0, cmd->ops->socktype, &s.allow, err, sizeof err);
        if (rc != LMB_RESOLVE_OK)
            return lmb_usage_error(ctx, "-a: %s", err);
        s.have_allow = true;
    }
    if (lmb_sched_apply(&ctx->sched, lmb_sched_cpu_for(&ctx->sched, 0, 1, 2)) != 0)
        return lmb_net_fail(ctx, "cannot place the server: %s", strerror(errno));
    s.fd = lmb_net_listen(cmd->ops->socktype, &bound, err, sizeof err);
    if (s.fd < 0)
        return lmb_net_fail(ctx, "%s", err);
    if (daemonize(&s, cmd, &bound, err, sizeof err) != 0) {
        close(s.fd);
        return lmb_net_fail(ctx, "%s", err);
    }
    close(s.fd);
    return LMB_EXIT_OK;
}

int lmb_net_modes(struct lmb_ctx *ctx, int argc, char **argv, const struct lmb_net_cmd *cmd)
{
    bool serve = lmb_opt_given(ctx, 's'), stop = lmb_opt_given(ctx, 'S');
    const char *bind_arg = lmb_opt_arg(ctx, 'b'), *allow_arg = lmb_opt_arg(ctx, 'a');
    unsigned port;
    int rc;

    if (!serve && !stop) {
        if (bind_arg != NULL || allow_arg != NULL)
            return lmb_usage_error(ctx, "-%c applies only to -s (the server)",
                                   bind_arg != NULL ? 'b' : 'a');
        return -1;
    }
    if (serve && stop)
        return lmb_usage_error(ctx, "-s and -S exclude each other");
    if (ctx->opt.json || ctx->opt.launch > 0)
        return lmb_usage_error(ctx, "%s applies to measurements, not to -%c",
                               ctx->opt.launch > 0 ? "--launches" : "--json", serve ? 's' : 'S');
    if (argc > 0)
    {
        char q[LMB_QUOTE_BUF];
        return lmb_usage_error(ctx, "-%c takes no host argument ('%s')", serve ? 's' : 'S',
                               lmb_quote(argv[0], q, sizeof q));
    }
    if ((rc = lmb_net_port(ctx, cmd, &port)) != 0)
        return rc;
    if (stop) {
        if (allow_arg != NULL || bind_arg != NULL)
            return lmb_usage_error(ctx, "-%c applies only to -s (the server)",
                                   bind_arg != NULL ? 'b' : 'a');
        return lmb_net_stop_at(ctx, cmd, lmb_opt_arg(ctx, 'S'), port);
    }
    return lmb_net_serve(ctx, cmd, port);
}
