// SPDX-License-Identifier: MIT
/* Socket layer of the network benchmarks: addresses, connect and listen with
 * timeouts, whole reads and writes, the request and reply headers, and what a
 * client learns from a server's reply. The server daemon is in netserver.c. */
#include "lib/net.h"

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/sizes.h"
#include "lib/text.h"

/* --- addresses ----------------------------------------------------------- */

int lmb_net_resolve(const char *host, unsigned port, int socktype, struct lmb_addr *a,
                    char *err, size_t errlen)
{
    struct addrinfo hints, *res = NULL, *pick = NULL;
    char service[16];
    int rc;

    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = socktype;
    hints.ai_flags = AI_NUMERICSERV;
    snprintf(service, sizeof service, "%u", port);
    if (host == NULL || *host == '\0') {
        snprintf(err, errlen, "empty host name");
        return LMB_RESOLVE_UNKNOWN;
    }
    char q[LMB_QUOTE_BUF];
    lmb_quote(host, q, sizeof q);
    rc = getaddrinfo(host, service, &hints, &res);
    if (rc == EAI_AGAIN) {
        snprintf(err, errlen, "cannot look up host '%s' now (%s): try again, or give its "
                 "address instead of its name", q, gai_strerror(rc));
        return LMB_RESOLVE_FAILED;
    }
    if (rc != 0) {
        bool failed = rc == EAI_MEMORY || rc == EAI_SYSTEM;
        snprintf(err, errlen, "unknown host '%s' (%s)%s", q, gai_strerror(rc),
                 failed ? "" : ": check the name, or give an address (127.0.0.1 for this host)");
        return failed ? LMB_RESOLVE_FAILED : LMB_RESOLVE_UNKNOWN;
    }
    /* IPv4 first when a name has both (lmbench's servers listen on IPv4
     * loopback by default), else the first IPv6 address. */
    for (struct addrinfo *p = res; p != NULL; p = p->ai_next)
        if (p->ai_family == AF_INET) {
            pick = p;
            break;
        }
    if (pick == NULL)
        for (struct addrinfo *p = res; p != NULL; p = p->ai_next)
            if (p->ai_family == AF_INET6) {
                pick = p;
                break;
            }
    if (pick == NULL || pick->ai_addrlen > sizeof a->ss) {
        freeaddrinfo(res);
        snprintf(err, errlen, "host '%s' has no IPv4 or IPv6 address", q);
        return LMB_RESOLVE_UNKNOWN;
    }
    memset(a, 0, sizeof *a);
    memcpy(&a->ss, pick->ai_addr, pick->ai_addrlen);
    a->len = pick->ai_addrlen;
    freeaddrinfo(res);
    return LMB_RESOLVE_OK;
}

void lmb_net_addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
    const void *p = NULL;

    if (sa->sa_family == AF_INET)
        p = &((const struct sockaddr_in *)(const void *)sa)->sin_addr;
    else if (sa->sa_family == AF_INET6)
        p = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
    if (p == NULL || inet_ntop(sa->sa_family, p, buf, (socklen_t)len) == NULL)
        snprintf(buf, len, "?");
}

unsigned lmb_net_addr_port(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return ntohs(((const struct sockaddr_in *)(const void *)sa)->sin_port);
    if (sa->sa_family == AF_INET6)
        return ntohs(((const struct sockaddr_in6 *)(const void *)sa)->sin6_port);
    return 0;
}

/* Whether two addresses are the same host address (ports ignored); an
 * IPv4-mapped IPv6 address equals its IPv4 address. */
static bool same_host(const struct sockaddr *x, const struct sockaddr *y)
{
    struct in_addr a4, b4;
    bool a_is4 = false, b_is4 = false;

    if (x->sa_family == AF_INET6 && y->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const void *)x, *b = (const void *)y;
        return memcmp(&a->sin6_addr, &b->sin6_addr, sizeof a->sin6_addr) == 0;
    }
    for (int i = 0; i < 2; i++) {
        const struct sockaddr *s = i ? y : x;
        struct in_addr *out = i ? &b4 : &a4;
        bool *is4 = i ? &b_is4 : &a_is4;
        if (s->sa_family == AF_INET) {
            *out = ((const struct sockaddr_in *)(const void *)s)->sin_addr;
            *is4 = true;
        } else if (s->sa_family == AF_INET6) {
            const struct sockaddr_in6 *s6 = (const void *)s;
            if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
                memcpy(&out->s_addr, s6->sin6_addr.s6_addr + 12, 4);
                *is4 = true;
            }
        }
    }
    return a_is4 && b_is4 && a4.s_addr == b4.s_addr;
}

bool lmb_net_addr_is_local(const struct sockaddr *sa)
{
    struct ifaddrs *ifs = NULL;
    bool local = false;

    if (sa->sa_family == AF_INET) {
        uint32_t h = ntohl(((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr);
        if ((h >> 24) == 127)
            return true;
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *s6 = (const void *)sa;
        if (IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr))
            return true;
        if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr) && s6->sin6_addr.s6_addr[12] == 127)
            return true;
    } else {
        return false;
    }
    if (getifaddrs(&ifs) != 0)
        return false;
    for (struct ifaddrs *i = ifs; i != NULL && !local; i = i->ifa_next)
        if (i->ifa_addr != NULL && (i->ifa_addr->sa_family == AF_INET ||
                                    i->ifa_addr->sa_family == AF_INET6))
            local = same_host(i->ifa_addr, sa);
    freeifaddrs(ifs);
    return local;
}

int lmb_net_parse_port(const char *s, unsigned *port, char *err, size_t errlen)
{
    uint64_t v;
    char why[128], q[LMB_QUOTE_BUF];

    if (lmb_parse_uint(s, 1, 65535, &v, why, sizeof why) != 0) {
        snprintf(err, errlen, "expected a port number from 1 to 65535, got '%s'",
                 lmb_quote(s, q, sizeof q));
        return -1;
    }
    *port = (unsigned)v;
    return 0;
}

/* --- sockets ------------------------------------------------------------- */

int lmb_net_listen(int socktype, const struct lmb_addr *a, char *err, size_t errlen)
{
    int fd, one = 1;
    char host[64];

    lmb_net_addr_str((const struct sockaddr *)&a->ss, host, sizeof host);
    fd = socket(a->ss.ss_family, socktype | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    /* TCP: a port whose last connections are in TIME_WAIT can be reused. (Not
     * UDP, where the option would let two servers share a port.) */
    if (socktype == SOCK_STREAM)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (a->ss.ss_family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *)&a->ss, a->len) != 0) {
        int e = errno;
        if (e == EADDRINUSE)
            snprintf(err, errlen, "%s port %u is in use (a server already running? choose "
                     "another port with -p)", host, lmb_net_addr_port((const void *)&a->ss));
        else
            snprintf(err, errlen, "cannot bind to %s port %u: %s", host,
                     lmb_net_addr_port((const void *)&a->ss), strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    if (socktype == SOCK_STREAM && listen(fd, SOMAXCONN) != 0) {
        int e = errno;
        snprintf(err, errlen, "listen: %s", strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int lmb_net_connect(int socktype, const struct lmb_addr *a, double timeout_s, char *err,
                    size_t errlen)
{
    char host[64];
    unsigned port = lmb_net_addr_port((const void *)&a->ss);
    int fd, rc, e = 0, flags;

    lmb_net_addr_str((const struct sockaddr *)&a->ss, host, sizeof host);
    fd = socket(a->ss.ss_family, socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    rc = connect(fd, (const struct sockaddr *)&a->ss, a->len);
    if (rc != 0 && errno == EINPROGRESS) {
        struct pollfd p = { .fd = fd, .events = POLLOUT };
        int ms = timeout_s > 0 ? (int)ceil(timeout_s * 1000.0) : -1;
        do {
            rc = poll(&p, 1, ms);
        } while (rc < 0 && errno == EINTR);
        if (rc == 0) {
            snprintf(err, errlen, "cannot connect to %s port %u: no answer within %g s", host,
                     port, timeout_s);
            close(fd);
            errno = ETIMEDOUT;
            return -1;
        }
        socklen_t l = sizeof e;
        if (rc < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l) != 0)
            e = errno;
    } else if (rc != 0) {
        e = errno;
    }
    if (e != 0) {
        snprintf(err, errlen, "cannot connect to %s port %u: %s", host, port, strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        snprintf(err, errlen, "fcntl: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int lmb_net_set_timeouts(int fd, double seconds)
{
    struct timeval tv = { 0, 0 };

    if (seconds > 0) {
        tv.tv_sec = (time_t)seconds;
        tv.tv_usec = (suseconds_t)((seconds - (double)tv.tv_sec) * 1e6);
        if (tv.tv_sec == 0 && tv.tv_usec == 0)
            tv.tv_usec = 1000;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0)
        return -1;
    return 0;
}

int lmb_net_read_full(int fd, void *buf, size_t n)
{
    char *p = buf;

    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r > 0) {
            p += r;
            n -= (size_t)r;
        } else if (r == 0) {
            return 0;
        } else if (errno != EINTR) {
            return -1;
        }
    }
    return 1;
}

int lmb_net_write_full(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        } else if (w < 0 && errno != EINTR) {
            return -1;
        }
    }
    return 1;
}

/* --- the protocol ---------------------------------------------------------- */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint64_t get64(const uint8_t *p)
{
    return ((uint64_t)get32(p) << 32) | get32(p + 4);
}

void lmb_net_req_encode(const struct lmb_net_req *r, uint8_t out[LMB_NET_REQ_SIZE])
{
    put32(out, LMB_NET_MAGIC_REQ);
    put16(out + 4, r->bench);
    put16(out + 6, r->op);
    put32(out + 8, r->msg);
    put32(out + 12, r->aux);
    put64(out + 16, r->total);
}

void lmb_net_reply_encode(const struct lmb_net_reply *r, uint8_t out[LMB_NET_REPLY_SIZE])
{
    put32(out, LMB_NET_MAGIC_REPLY);
    put16(out + 4, r->status);
    put16(out + 6, r->bench);
    put32(out + 8, (uint32_t)r->cpu);
    put32(out + 12, r->value);
    memcpy(out + 16, r->boot_id, 16);
}

int lmb_net_req_decode(const uint8_t *buf, size_t len, const struct lmb_net_limits *lim,
                       struct lmb_net_req *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len < LMB_NET_REQ_SIZE) {
        snprintf(err, errlen, "short request: %zu bytes", len);
        return LMB_NS_BAD;
    }
    out->magic = get32(buf);
    out->bench = get16(buf + 4);
    out->op = get16(buf + 6);
    out->msg = get32(buf + 8);
    out->aux = get32(buf + 12);
    out->total = get64(buf + 16);
    if (out->magic != LMB_NET_MAGIC_REQ) {
        snprintf(err, errlen, "not an lmbench request (magic %08x)", (unsigned)out->magic);
        return LMB_NS_BAD;
    }
    if (out->op == 0 || out->op > LMB_OP_MAX) {
        snprintf(err, errlen, "unknown operation %u", out->op);
        return LMB_NS_BAD;
    }
    if (out->bench != lim->bench) {
        if (out->bench == 0 || out->bench > LMB_NB_MAX) {
            snprintf(err, errlen, "unknown benchmark %u", out->bench);
            return LMB_NS_BAD;
        }
        snprintf(err, errlen, "a request for %s", lmb_net_bench_name(out->bench));
        return LMB_NS_WRONG_BENCH;
    }
    if (out->op == LMB_OP_HELLO || out->op == LMB_OP_STOP)
        return LMB_NS_OK;
    if (!(lim->ops & (1u << out->op))) {
        snprintf(err, errlen, "operation %u is not served here", out->op);
        return LMB_NS_BAD;
    }
    if (out->msg < lim->msg_min || out->msg > lim->msg_max) {
        snprintf(err, errlen, "message size %u outside %u..%u", (unsigned)out->msg,
                 (unsigned)lim->msg_min, (unsigned)lim->msg_max);
        return LMB_NS_BAD;
    }
    if (out->total > lim->total_max) {
        snprintf(err, errlen, "byte count %llu over %llu", (unsigned long long)out->total,
                 (unsigned long long)lim->total_max);
        return LMB_NS_BAD;
    }
    return LMB_NS_OK;
}

int lmb_net_reply_decode(const uint8_t *buf, size_t len, struct lmb_net_reply *out)
{
    memset(out, 0, sizeof *out);
    if (len < LMB_NET_REPLY_SIZE || get32(buf) != LMB_NET_MAGIC_REPLY)
        return -1;
    out->magic = LMB_NET_MAGIC_REPLY;
    out->status = get16(buf + 4);
    out->bench = get16(buf + 6);
    out->cpu = (int32_t)get32(buf + 8);
    out->value = get32(buf + 12);
    memcpy(out->boot_id, buf + 16, 16);
    return 0;
}

const char *lmb_net_bench_name(unsigned bench)
{
    static const char *const names[] = { "?", "lat_tcp", "lat_udp", "lat_connect", "bw_tcp",
                                         "bw_udp" };
    return bench <= LMB_NB_MAX ? names[bench] : "?";
}

void lmb_net_boot_id(uint8_t id[16])
{
    char text[64];
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    size_t o = 0;

    memset(id, 0, 16);
    if (f == NULL)
        return;
    if (fgets(text, sizeof text, f) != NULL)
        for (const char *p = text; *p && o < 32; p++) {
            int v;
            if (*p >= '0' && *p <= '9') v = *p - '0';
            else if (*p >= 'a' && *p <= 'f') v = *p - 'a' + 10;
            else continue;
            id[o / 2] = (uint8_t)(id[o / 2] | (o % 2 ? v : v << 4));
            o++;
        }
    fclose(f);
}

int lmb_net_pinned_cpu(void)
{
    cpu_set_t set;
    int cpu = -1;

    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1)
        return -1;
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set)) {
            cpu = i;
            break;
        }
    return cpu;
}

void lmb_net_reply_fill(struct lmb_net_reply *r, uint16_t status, uint16_t bench, uint32_t value)
{
    memset(r, 0, sizeof *r);
    r->magic = LMB_NET_MAGIC_REPLY;
    r->status = status;
    r->bench = bench;
    r->cpu = lmb_net_pinned_cpu();
    r->value = value;
    lmb_net_boot_id(r->boot_id);
}

/* --- the client side --------------------------------------------------------- */

static int reply_error(const struct lmb_net_reply *rep, const struct lmb_net_req *req,
                       const char *where, char *err, size_t errlen)
{
    switch (rep->status) {
    case LMB_NS_OK:
        if (rep->bench != req->bench) {
            snprintf(err, errlen, "%s is a %s server, not %s", where,
                     lmb_net_bench_name(rep->bench), lmb_net_bench_name(req->bench));
            return -1;
        }
        return 0;
    case LMB_NS_DENIED:
        snprintf(err, errlen, "%s refused to stop: a server obeys a stop only from its own "
                 "host or the address given with -a", where);
        break;
    case LMB_NS_BUSY:
        snprintf(err, errlen, "%s is busy: it already serves %d connections", where,
                 LMB_NET_MAX_CHILDREN);
        break;
    case LMB_NS_WRONG_BENCH:
        snprintf(err, errlen, "%s is a %s server, not %s", where, lmb_net_bench_name(rep->bench),
                 lmb_net_bench_name(req->bench));
        break;
    default:
        snprintf(err, errlen, "%s rejected the request (status %u)", where, rep->status);
        break;
    }
    return -1;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int lmb_net_hello(const struct lmb_addr *a, int socktype, const struct lmb_net_req *req,
                  double timeout_s, int *fdp, struct lmb_net_reply *rep, char *err,
                  size_t errlen)
{
    uint8_t q[LMB_NET_REQ_SIZE], r[LMB_NET_REPLY_SIZE + 1];
    char host[64], where[96];
    int fd, rc, why = 0;   /* errno on return: see net.h */

    lmb_net_addr_str((const struct sockaddr *)&a->ss, host, sizeof host);
    snprintf(where, sizeof where, "the server at %s port %u", host,
             lmb_net_addr_port((const void *)&a->ss));
    if (fdp != NULL)
        *fdp = -1;
    lmb_net_req_encode(req, q);
    fd = lmb_net_connect(socktype, a, timeout_s, err, errlen);
    if (fd < 0)
        return -1;
    if (socktype == SOCK_STREAM) {
        lmb_net_set_timeouts(fd, timeout_s);
        if (lmb_net_write_full(fd, q, sizeof q) != 1) {
            why = errno;
            snprintf(err, errlen, "sending to %s: %s", where, strerror(why));
            goto fail;
        }
        rc = lmb_net_read_full(fd, r, LMB_NET_REPLY_SIZE);
        if (rc != 1) {
            why = rc == 0 ? 0 : errno;
            if (rc == 0)
                snprintf(err, errlen, "%s closed the connection without a reply", where);
            else if (errno == EAGAIN || errno == EWOULDBLOCK)
                snprintf(err, errlen, "no reply from %s within %g s (is it an lmbench server?)",
                         where, timeout_s);
            else
                snprintf(err, errlen, "reading from %s: %s", where, strerror(errno));
            goto fail;
        }
    } else {
        /* Datagrams: resend every quarter second until a reply or the timeout. */
        double end = mono_s() + timeout_s;
        ssize_t n = -1;
        while (n < 0) {
            double left = end - mono_s();
            if (left <= 0) {
                why = ETIMEDOUT;
                snprintf(err, errlen, "no reply from %s within %g s (is a server running "
                         "there?)", where, timeout_s);
                goto fail;
            }
            if (send(fd, q, sizeof q, MSG_NOSIGNAL) < 0 && errno != ECONNREFUSED) {
                why = errno;
                snprintf(err, errlen, "sending to %s: %s", where, strerror(why));
                goto fail;
            }
            struct pollfd p = { .fd = fd, .events = POLLIN };
            int ms = (int)ceil(fmin(left, 0.25) * 1000.0);
            if (poll(&p, 1, ms) > 0) {
                n = recv(fd, r, sizeof r, MSG_DONTWAIT);
                if (n < 0 && errno == ECONNREFUSED) {
                    why = ECONNREFUSED;
                    snprintf(err, errlen, "%s: nothing listens there (is a server running?)",
                             where);
                    goto fail;
                }
                if (n >= 0 && n != LMB_NET_REPLY_SIZE)
                    n = -1;   /* not a reply: ignore it */
            }
        }
    }
    if (lmb_net_reply_decode(r, LMB_NET_REPLY_SIZE, rep) != 0) {
        snprintf(err, errlen, "%s does not speak lmbench's protocol", where);
        goto fail;
    }
    if (reply_error(rep, req, where, err, errlen) != 0)
        goto fail;
    if (fdp != NULL) {
        *fdp = fd;
    } else {
        /* Closed with a reset: a probe leaves no TIME_WAIT behind. */
        const struct linger lg = { .l_onoff = 1, .l_linger = 0 };
        if (socktype == SOCK_STREAM)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(fd);
    }
    return 0;
fail:
    close(fd);
    errno = why;
    return -1;
}

const char *lmb_net_ends(const struct lmb_ctx *ctx, const int *cpu_assigned, unsigned copies,
                         const struct lmb_net_reply *server)
{
    uint8_t mine[16];
    bool same_machine, all_same = true, all_other = true;
    int only = -1;

    if (ctx->sched.restricted && ctx->sched.ncpus == 1)
        only = ctx->sched.cpus[0];
    else
        only = lmb_net_pinned_cpu();
    lmb_net_boot_id(mine);
    same_machine = memcmp(mine, server->boot_id, 16) == 0;
    if (server->cpu < 0 || copies == 0)
        return "unpinned";
    for (unsigned i = 0; i < copies; i++) {
        int c = cpu_assigned != NULL && cpu_assigned[i] >= 0 ? cpu_assigned[i] : only;
        if (c < 0)
            return "unpinned";
        if (same_machine && c == server->cpu)
            all_other = false;
        else
            all_same = false;
    }
    if (all_same)
        return "same_cpu";
    if (all_other)
        return "two_cpus";
    return "unpinned";
}

double lmb_net_timeout(const struct lmb_ctx *ctx)
{
    double t = LMB_NET_CONNECT_TIMEOUT, left = lmb_time_left(ctx);

    if (ctx->opt.timeout_s > 0 && ctx->opt.timeout_s < t)
        t = ctx->opt.timeout_s;
    /* Within what is left of the command's --timeout (a wait of 0 would be
     * none at all). */
    if (left < t)
        t = left > 0.001 ? left : 0.001;
    return t;
}

/* --- the client's common steps ----------------------------------------------- */

static bool has_option(const struct lmb_bench *b, char flag);

int lmb_net_client_args(struct lmb_ctx *ctx, int argc, char **argv, const struct lmb_net_cmd *cmd,
                        int socktype, struct lmb_addr *a)
{
    unsigned port;
    int rc;

    if (argc < 1)
        return lmb_usage_error(ctx, "which host? (start a server with '%s -s'%s%s%s)", ctx->prog,
                               has_option(ctx->bench, 'l') ? ", or measure without one: '" : "",
                               has_option(ctx->bench, 'l') ? ctx->prog : "",
                               has_option(ctx->bench, 'l') ? " -l'" : "");
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if ((rc = lmb_net_port(ctx, cmd, &port)) != 0)
        return rc;
    return lmb_net_client_addr(ctx, argv[0], port, socktype, a);
}

int lmb_net_size_opt(struct lmb_ctx *ctx, char flag, uint64_t min, uint64_t max, uint64_t *v)
{
    const char *arg = lmb_opt_arg(ctx, flag);
    char err[256];

    if (arg == NULL)
        return 0;
    if (lmb_parse_size(arg, v, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-%c: %s", flag, err);
    if (*v < min || *v > max)
        return lmb_usage_error(ctx, "-%c: expected %llu to %llu bytes, got %llu", flag,
                               (unsigned long long)min, (unsigned long long)max,
                               (unsigned long long)*v);
    return 0;
}

void lmb_net_record_init(struct lmb_record *rec, const struct lmb_ctx *ctx, const char *host,
                         const struct lmb_addr *a, enum lmb_unit unit)
{
    lmb_record_init(rec, ctx->bench->name, "", unit);
    lmb_record_param_str(rec, "host", host);
    lmb_record_param_bool(rec, "remote", !lmb_net_addr_is_local((const struct sockaddr *)&a->ss));
}

/* The default port of a binary-protocol server. */
static unsigned default_port(uint16_t bench)
{
    switch (bench) {
    case LMB_NB_LAT_TCP: return LMB_PORT_LAT_TCP;
    case LMB_NB_LAT_UDP: return LMB_PORT_LAT_UDP;
    case LMB_NB_LAT_CONNECT: return LMB_PORT_LAT_CONNECT;
    case LMB_NB_BW_TCP: return LMB_PORT_BW_TCP;
    case LMB_NB_BW_UDP: return LMB_PORT_BW_UDP;
    }
    return 0;
}

static bool has_option(const struct lmb_bench *b, char flag)
{
    for (size_t i = 0; i < b->noptions; i++)
        if (b->options[i].flag == flag)
            return true;
    return false;
}

int lmb_net_probe(struct lmb_ctx *ctx, struct lmb_record *rec, const struct lmb_addr *a,
                  int socktype, uint16_t bench, struct lmb_net_reply *rep)
{
    struct lmb_net_req hello = { .bench = bench, .op = LMB_OP_HELLO };
    double t = lmb_net_timeout(ctx);
    char err[512];

    if (lmb_net_hello(a, socktype, &hello, t, NULL, rep, err, sizeof err) == 0)
        return 0;
    /* Every binary-protocol command sets its port with -p. */
    lmb_net_unreached(ctx, a, socktype, 'p', default_port(bench), errno, t, err, sizeof err);
    lmb_report_unmeasured(ctx, rec, LMB_FAILED, "%s", err);
    return -1;
}

bool lmb_net_unreached(const struct lmb_ctx *ctx, const struct lmb_addr *a, int socktype,
                       char port_flag, unsigned default_port, int e, double timeout_s,
                       char *buf, size_t len)
{
    const char *name = ctx->bench->name, *proto = socktype == SOCK_STREAM ? "TCP" : "UDP";
    unsigned port = lmb_net_addr_port((const struct sockaddr *)&a->ss);
    bool local = lmb_net_addr_is_local((const struct sockaddr *)&a->ss);
    char host[64], opts[128] = "", start[400], local_mode[96] = "";
    int n = 0;

    lmb_net_addr_str((const struct sockaddr *)&a->ss, host, sizeof host);
    /* What starts a server that this client finds: its port, and on another
     * host an address to listen on (a server listens on 127.0.0.1 unless -b
     * says otherwise). */
    if (port != default_port)
        n += snprintf(opts + n, sizeof opts - (size_t)n, " -%c %u", port_flag, port);
    if (!local && n >= 0 && (size_t)n < sizeof opts)
        snprintf(opts + n, sizeof opts - (size_t)n, " -b %s", host);
    snprintf(start, sizeof start, "start one %swith '%s -s%s' (or 'lmbench %s -s%s'%s)",
             local ? "" : "on that host ", name, opts, name, opts,
             local ? "" : "; without -b a server listens on 127.0.0.1 only");
    if (local && has_option(ctx->bench, 'l'))
        snprintf(local_mode, sizeof local_mode, "; or measure without a server: '%s -l'", name);

    switch (e) {
    case ECONNREFUSED:
        snprintf(buf, len, "no %s server listens at %s port %u: %s%s", name, host, port, start,
                 local_mode);
        return true;
    case ETIMEDOUT:
        if (socktype == SOCK_DGRAM)
            snprintf(buf, len, "no %s server answers at %s port %u (no reply within %g s): %s%s; "
                     "if one runs there, a firewall may drop UDP port %u", name, host, port,
                     timeout_s, start, local_mode, port);
        else
            snprintf(buf, len, "no answer from %s port %u within %g s: is the host up, and does "
                     "a firewall let TCP port %u through? A server there must listen on that "
                     "address: '%s -s%s'", host, port, timeout_s, port, name, opts);
        return true;
    case EHOSTUNREACH:
    case ENETUNREACH:
    case EHOSTDOWN:
    case ENETDOWN:
        snprintf(buf, len, "cannot reach %s port %u over %s (%s): check the address, and that "
                 "this host has a route to it", host, port, proto, strerror(e));
        return true;
    }
    return false;
}

int lmb_net_connect_port(int fd, const struct lmb_addr *a, unsigned port, char *err,
                         size_t errlen)
{
    struct lmb_addr s = *a;

    if (s.ss.ss_family == AF_INET)
        ((struct sockaddr_in *)&s.ss)->sin_port = htons((uint16_t)port);
    else
        ((struct sockaddr_in6 *)&s.ss)->sin6_port = htons((uint16_t)port);
    if (connect(fd, (struct sockaddr *)&s.ss, s.len) != 0) {
        snprintf(err, errlen, "connect to the session port %u: %s", port, strerror(errno));
        return -1;
    }
    return 0;
}

/* --- the local mode ---------------------------------------------------------- */

int lmb_net_local_pair(int socktype, int *mine, int *theirs, char *err, size_t errlen)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    struct sockaddr_in b;
    socklen_t len = sizeof b;
    int l = -1, x = -1, y = -1;

    *mine = *theirs = -1;
    x = socket(AF_INET, socktype | SOCK_CLOEXEC, 0);
    y = socket(AF_INET, socktype | SOCK_CLOEXEC, 0);
    if (x < 0 || y < 0)
        goto fail;
    if (socktype == SOCK_STREAM) {
        /* y listens; x connects (the backlog completes it); y becomes the
         * accepted end. */
        l = y;
        y = -1;
        if (bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 1) != 0 ||
            getsockname(l, (struct sockaddr *)&b, &len) != 0 ||
            connect(x, (struct sockaddr *)&b, sizeof b) != 0)
            goto fail;
        y = accept4(l, NULL, NULL, SOCK_CLOEXEC);
        if (y < 0)
            goto fail;
        close(l);
    } else {
        struct sockaddr_in c;
        socklen_t clen = sizeof c;
        if (bind(x, (struct sockaddr *)&a, sizeof a) != 0 ||
            bind(y, (struct sockaddr *)&a, sizeof a) != 0 ||
            getsockname(x, (struct sockaddr *)&b, &len) != 0 ||
            getsockname(y, (struct sockaddr *)&c, &clen) != 0 ||
            connect(x, (struct sockaddr *)&c, clen) != 0 ||
            connect(y, (struct sockaddr *)&b, len) != 0)
            goto fail;
    }
    *mine = x;
    *theirs = y;
    return 0;
fail:
    snprintf(err, errlen, "a loopback %s pair: %s", socktype == SOCK_STREAM ? "TCP" : "UDP",
             strerror(errno));
    if (l >= 0)
        close(l);
    if (x >= 0)
        close(x);
    if (y >= 0)
        close(y);
    return -1;
}

int lmb_net_local_args(struct lmb_ctx *ctx, int argc, bool *local)
{
    *local = lmb_opt_given(ctx, 'l');
    if (!*local)
        return 0;
    if (argc > 0)
        return lmb_usage_error(ctx, "-l measures over loopback against a partner: no host");
    if (lmb_opt_given(ctx, 's') || lmb_opt_given(ctx, 'S'))
        return lmb_usage_error(ctx, "-l excludes -s and -S");
    if (lmb_opt_arg(ctx, 'p') != NULL)
        return lmb_usage_error(ctx, "-l uses no server port");
    return 0;
}

int lmb_net_client_start(struct lmb_ctx *ctx, int argc, char **argv,
                         const struct lmb_net_cmd *cmd, int socktype, bool *local,
                         const char **host, struct lmb_addr *a)
{
    int rc;

    if ((rc = lmb_net_local_args(ctx, argc, local)) != 0)
        return rc;
    if (*local) {
        *host = "localhost";
        return lmb_net_resolve("127.0.0.1", 0, socktype, a, NULL, 0) == 0 ? -1 : LMB_EXIT_FAILED;
    }
    if ((rc = lmb_net_modes(ctx, argc, argv, cmd)) >= 0)
        return rc;
    if ((rc = lmb_net_client_args(ctx, argc, argv, cmd, socktype, a)) != 0)
        return rc;
    *host = argv[0];
    return -1;
}
