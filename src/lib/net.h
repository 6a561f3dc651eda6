// SPDX-License-Identifier: MIT
/* The socket layer of the network benchmarks: addresses, connecting and
 * listening with timeouts, whole reads and writes, the fixed-size request and
 * reply headers the servers speak, the server daemon (accept loop, caps,
 * timeouts, reaping, stop), and the three modes every network command has
 * (-s: serve, -S host: stop, host: measure).
 *
 * The wire format (all integers big-endian) is ours, not lmbench 3's: a client
 * opens with a 24-byte request and the server answers with a 32-byte reply
 * before any data moves.
 *
 *   request: magic "LMN1" | u16 bench | u16 op | u32 msg | u32 aux | u64 total
 *   reply:   magic "LMR1" | u16 status | u16 bench | i32 cpu | u32 value
 *            | u8 boot_id[16]
 */
#ifndef LMB_NET_H
#define LMB_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "lib/report.h"

struct lmb_ctx;

/* lmbench 3's fixed ports, kept as the defaults. */
#define LMB_PORT_LAT_TCP 31234
#define LMB_PORT_BW_TCP 31235
#define LMB_PORT_LAT_CONNECT 31237
#define LMB_PORT_LAT_UDP 31238
#define LMB_PORT_BW_UDP 31239
#define LMB_PORT_LAT_RPC 31240    /* ours: lmbench 3 asked the portmapper */
#define LMB_PORT_HTTP 8008

/* Timeouts, in seconds. */
#define LMB_NET_CONNECT_TIMEOUT 5.0   /* client: connect and the first reply */
#define LMB_NET_IO_TIMEOUT 10.0       /* client: one operation of a timed loop */
#define LMB_NET_REQUEST_TIMEOUT 5.0   /* server: for a client's request header */
#define LMB_NET_IDLE_TIMEOUT 30.0     /* server: a connection with no traffic */
#define LMB_NET_MAX_CHILDREN 64       /* server: connections served at once */
#define LMB_NET_MAX_PENDING 64        /* server: connections still sending their request */

/* --- addresses ----------------------------------------------------------- */

struct lmb_addr {
    struct sockaddr_storage ss;
    socklen_t len;
};

enum lmb_resolve_rc { LMB_RESOLVE_OK = 0, LMB_RESOLVE_UNKNOWN = -1, LMB_RESOLVE_FAILED = -2 };

/* Resolves host (a name or a numeric IPv4/IPv6 address) for socktype.
 * LMB_RESOLVE_UNKNOWN: no such host (a usage error); LMB_RESOLVE_FAILED: the
 * resolver failed (try again later). err says which. */
int lmb_net_resolve(const char *host, unsigned port, int socktype, struct lmb_addr *a,
                    char *err, size_t errlen);

/* "127.0.0.1", "::1" ... */
void lmb_net_addr_str(const struct sockaddr *sa, char *buf, size_t len);
unsigned lmb_net_addr_port(const struct sockaddr *sa);

/* Whether the address is a loopback address or one of this host's own
 * interface addresses (seen from this network namespace). */
bool lmb_net_addr_is_local(const struct sockaddr *sa);

/* Parses a port number 1..65535. Returns 0 or -1 with a message. */
int lmb_net_parse_port(const char *s, unsigned *port, char *err, size_t errlen);

/* --- sockets ------------------------------------------------------------- */

/* A socket of socktype bound to a, listening if a stream socket, with
 * SO_REUSEADDR. Returns the fd, or -1 with a message (errno kept). */
int lmb_net_listen(int socktype, const struct lmb_addr *a, char *err, size_t errlen);

/* A connected socket of socktype, within timeout_s seconds. Returns the fd or
 * -1 with a message. */
int lmb_net_connect(int socktype, const struct lmb_addr *a, double timeout_s, char *err,
                    size_t errlen);

/* Per-call send/receive timeouts on a blocking socket (0: none). */
int lmb_net_set_timeouts(int fd, double seconds);

/* Reads exactly n bytes (1), or returns 0 at EOF before n, -1 on error (errno;
 * EAGAIN after a timeout set above). Retries on EINTR. */
int lmb_net_read_full(int fd, void *buf, size_t n);
/* Writes exactly n bytes: 1, or -1 on error. */
int lmb_net_write_full(int fd, const void *buf, size_t n);

/* --- the protocol ---------------------------------------------------------- */

#define LMB_NET_REQ_SIZE 24
#define LMB_NET_REPLY_SIZE 32
#define LMB_NET_MAGIC_REQ 0x4c4d4e31u    /* "LMN1" */
#define LMB_NET_MAGIC_REPLY 0x4c4d5231u  /* "LMR1" */

enum lmb_net_bench {
    LMB_NB_LAT_TCP = 1,
    LMB_NB_LAT_UDP = 2,
    LMB_NB_LAT_CONNECT = 3,
    LMB_NB_BW_TCP = 4,
    LMB_NB_BW_UDP = 5,
    LMB_NB_MAX = 5,
};

enum lmb_net_op {
    LMB_OP_HELLO = 1,     /* who are you: the reply, then close */
    LMB_OP_STOP = 2,      /* stop the server */
    LMB_OP_XACT = 3,      /* lat_tcp, lat_udp: echo msg-byte messages */
    LMB_OP_SINK = 4,      /* bw_tcp: take batches of data, acknowledge each */
    LMB_OP_UDATA = 5,     /* bw_udp: a datagram of burst `aux` */
    LMB_OP_UEND = 6,      /* bw_udp: burst `aux` is sent; how much arrived? */
    LMB_OP_MAX = 6,
};

enum lmb_net_status {
    LMB_NS_OK = 0,
    LMB_NS_DENIED = 1,      /* a stop from an address that may not stop it */
    LMB_NS_BUSY = 2,        /* too many connections */
    LMB_NS_BAD = 3,         /* a request it does not accept */
    LMB_NS_WRONG_BENCH = 4, /* a request for another benchmark's server */
};

struct lmb_net_req {
    uint32_t magic;
    uint16_t bench;
    uint16_t op;
    uint32_t msg;       /* message or datagram size */
    uint32_t aux;       /* op-specific: a nonce, a burst number */
    uint64_t total;     /* op-specific: bytes */
};

struct lmb_net_reply {
    uint32_t magic;
    uint16_t status;
    uint16_t bench;
    int32_t cpu;        /* the CPU the server is pinned to, -1 if not pinned */
    uint32_t value;     /* op-specific: a port, a byte count, a buffer size */
    uint8_t boot_id[16];
};

/* What a server accepts: per op, the smallest and largest msg and total. */
struct lmb_net_limits {
    uint16_t bench;
    unsigned ops;       /* bit (1 << op) for each op accepted (HELLO and STOP always) */
    uint32_t msg_min, msg_max;
    uint64_t total_max;
};

void lmb_net_req_encode(const struct lmb_net_req *r, uint8_t out[LMB_NET_REQ_SIZE]);
void lmb_net_reply_encode(const struct lmb_net_reply *r, uint8_t out[LMB_NET_REPLY_SIZE]);

/* Decodes and validates a request of len bytes against lim. Returns an
 * lmb_net_status: LMB_NS_OK, LMB_NS_WRONG_BENCH (a well-formed request for
 * another benchmark) or LMB_NS_BAD (anything else, with why in err). */
int lmb_net_req_decode(const uint8_t *buf, size_t len, const struct lmb_net_limits *lim,
                       struct lmb_net_req *out, char *err, size_t errlen);
/* Decodes a reply; -1 if it is not one. */
int lmb_net_reply_decode(const uint8_t *buf, size_t len, struct lmb_net_reply *out);

const char *lmb_net_bench_name(unsigned bench);

/* A reply describing this process: status, bench, its CPU and boot id. */
void lmb_net_reply_fill(struct lmb_net_reply *r, uint16_t status, uint16_t bench, uint32_t value);

/* This machine's boot id (16 bytes, zeros if unknown). */
void lmb_net_boot_id(uint8_t id[16]);
/* The CPU this process is confined to, or -1 when it may run on several. */
int lmb_net_pinned_cpu(void);

/* --- the server ------------------------------------------------------------ */

struct lmb_server;

/* What a server does with a complete request, in the daemon's main process. */
enum lmb_srv_action {
    LMB_SRV_CLOSE,    /* done with this connection */
    LMB_SRV_FORK,     /* serve it in a child process: ops->child(fd, req) */
    LMB_SRV_STOP,     /* the reply is sent: stop the server */
};

struct lmb_server_ops {
    int socktype;              /* SOCK_STREAM or SOCK_DGRAM */
    uint16_t bench;            /* for the binary protocol (0: not used) */
    /* Stream servers: given the first len bytes of a connection, how long the
     * request is: 0 = need more, > 0 = complete, < 0 = garbage (closed).
     * NULL: the connection is handed on at once, with no request. */
    long (*framed)(const uint8_t *buf, size_t len);
    size_t req_max;            /* most bytes a request may have (<= 4096) */
    /* A complete request (stream: fd is the connection; datagram: fd is the
     * server socket and peer the sender). Returns an lmb_srv_action. */
    int (*request)(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                   const struct sockaddr *peer, socklen_t peerlen);
    /* In a forked child: serve the connection (or session socket). Returns the
     * child's exit status; LMB_SRV_CHILD_STOP asks the server to stop. */
    int (*child)(struct lmb_server *s, int fd, const uint8_t *req, size_t len);
    /* Optional: called in the daemon before it exits. */
    void (*atexit)(struct lmb_server *s);
};

#define LMB_SRV_CHILD_STOP 100

struct lmb_server {
    const struct lmb_server_ops *ops;
    const char *prog;
    int fd;                         /* the listening (or datagram) socket */
    struct lmb_addr allow;          /* -a: one more address allowed to stop it */
    bool have_allow;
    int session_fd;                 /* LMB_SRV_FORK of a datagram server: the child's socket */
    unsigned children;              /* alive */
    /* Optional: one more fd the main loop watches (-1: none), and what to do
     * when it is readable (returns true to stop the server). */
    int extra_fd;
    bool (*extra)(struct lmb_server *s);
    void *state;                    /* the command's own */
};

/* Whether a stop request from peer is obeyed: peer is loopback or an address
 * of this host, or the address given with -a. */
bool lmb_server_may_stop(const struct lmb_server *s, const struct sockaddr *peer);

/* The binary protocol's usual handling of a request in the main process:
 * decodes it against lim, answers HELLO and STOP (and errors) itself, and
 * returns LMB_SRV_FORK for the ops the server serves. *out gets the request. */
int lmb_server_std_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                           const struct sockaddr *peer, socklen_t peerlen,
                           const struct lmb_net_limits *lim, struct lmb_net_req *out);

/* Sends a reply (stream: on fd; datagram: to peer). */
int lmb_server_reply(int fd, const struct lmb_net_reply *r, const struct sockaddr *peer,
                     socklen_t peerlen);

/* For a datagram server's request that opens a session (lat_udp, bw_udp):
 * makes s->session_fd, a socket of its own bound to the server's address and
 * connected to peer, for a child to serve; or, when the same peer sent the
 * same nonce moments ago (a repeated request), finds that session. Puts the
 * session's port in *port. Returns 1 for a new session (reply, then
 * LMB_SRV_FORK), 0 for a repeated one (reply only), -1 on error. */
int lmb_server_udp_session(struct lmb_server *s, const struct sockaddr *peer, socklen_t peerlen,
                           uint32_t nonce, uint32_t *port);

/* framed() for the binary protocol: a request is LMB_NET_REQ_SIZE bytes. */
long lmb_server_framed_req(const uint8_t *buf, size_t len);

/* --- the three modes of a network command --------------------------------- */

/* How a network command is told apart in the shared code. */
struct lmb_net_cmd {
    const struct lmb_server_ops *ops;   /* its server */
    unsigned default_port;
    char port_flag;                     /* the option that sets the port: 'p' (lat_rpc: 'r') */
    /* Stop request: NULL for the binary protocol's STOP, or a function that
     * asks the server at a to stop (returns 0, or -1 with a message). */
    int (*stop)(const struct lmb_addr *a, int socktype, double timeout_s, char *err,
                size_t errlen);
    /* After the socket listens, in the daemon, before serving (may be NULL).
     * Returns 0, or -1 with a message. */
    int (*setup)(struct lmb_server *s, const struct lmb_addr *bound, char *err, size_t errlen);
};

/* The options every network command's table starts with. */
#define LMB_NET_SERVER_OPTIONS                                                        \
    { 's', NULL, "start a server in the background and return once it listens" },   \
    { 'S', "host", "ask the server on host to stop" },                              \
    { 'b', "addr", "with -s: the address to listen on (default 127.0.0.1)" },       \
    { 'a', "addr", "with -s: one more address allowed to stop the server" }

/* -s, -S host, or neither. For -s and -S it does everything and returns the
 * exit status; otherwise it returns -1 and the command measures. */
int lmb_net_modes(struct lmb_ctx *ctx, int argc, char **argv, const struct lmb_net_cmd *cmd);

/* -s with port: binds, listens and starts the daemon (with -b, -a, --cpus).
 * Returns the exit status. */
int lmb_net_serve(struct lmb_ctx *ctx, const struct lmb_net_cmd *cmd, unsigned port);
/* -S host: asks the server at host, port to stop. Returns the exit status. */
int lmb_net_stop_at(struct lmb_ctx *ctx, const struct lmb_net_cmd *cmd, const char *host,
                    unsigned port);

/* "<prog>: <message>" on the command's messages stream; returns 1, the exit
 * status of a runtime failure. */
int lmb_net_fail(const struct lmb_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The port a command uses: its port option, or the default. Returns 0 or the
 * usage error's exit status (the message printed). */
int lmb_net_port(struct lmb_ctx *ctx, const struct lmb_net_cmd *cmd, unsigned *port);

/* Resolves the host a client measures; prints a usage error for an unknown
 * host. Returns 0, 1 for a resolver failure (message printed), or 2. */
int lmb_net_client_addr(struct lmb_ctx *ctx, const char *host, unsigned port, int socktype,
                        struct lmb_addr *a);

/* Client side of the binary protocol: connects (stream) or sends (datagram)
 * the request and reads the reply within timeout_s. The stream socket is
 * left open in *fd for the data phase (pass fd NULL to close it). Returns 0
 * with an LMB_NS_OK reply, else -1 with a message naming the host and port
 * and errno saying why: ECONNREFUSED (nothing listens), ETIMEDOUT (no
 * datagram reply), EHOSTUNREACH ... (connect's), EAGAIN (a stream connected
 * but no reply), 0 (an answer that is not a good reply). */
int lmb_net_hello(const struct lmb_addr *a, int socktype, const struct lmb_net_req *req,
                  double timeout_s, int *fd, struct lmb_net_reply *rep, char *err,
                  size_t errlen);

/* The client side's common steps, for the command's main function. */

/* The measuring mode's arguments: exactly one host, the port option, the
 * address resolved for socktype. Returns 0, or the exit status of the error
 * (printed). */
int lmb_net_client_args(struct lmb_ctx *ctx, int argc, char **argv, const struct lmb_net_cmd *cmd,
                        int socktype, struct lmb_addr *a);

/* A size option (-m): *v keeps its default when the option is absent.
 * Returns 0, or the usage error's exit status. */
int lmb_net_size_opt(struct lmb_ctx *ctx, char flag, uint64_t min, uint64_t max, uint64_t *v);

/* Starts a record of a network result with params host (as given) and
 * remote (a not a local address). */
void lmb_net_record_init(struct lmb_record *rec, const struct lmb_ctx *ctx, const char *host,
                         const struct lmb_addr *a, enum lmb_unit unit);

/* Checks, before measuring, that a server of the right kind answers at a
 * (an LMB_OP_HELLO of bench). Returns 0 with its reply, or -1 after reporting
 * rec as failed with the reason (lmb_net_unreached's when it applies). */
int lmb_net_probe(struct lmb_ctx *ctx, struct lmb_record *rec, const struct lmb_addr *a,
                  int socktype, uint16_t bench, struct lmb_net_reply *rep);

/* Why a client did not reach its server at a, said so that it points to the
 * fix, for e, the errno of the failure: ECONNREFUSED (nothing listens: the
 * command that starts a server, "CMD -s", with -p/-r PORT when port_flag's
 * port is not default_port and -b ADDR for another host, and "CMD -l" when
 * the command has -l), ETIMEDOUT (no answer: over UDP also a missing server;
 * the host, a firewall), EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN (not
 * reached). Returns true with the reason in buf, or false (buf untouched) for
 * any other e. */
bool lmb_net_unreached(const struct lmb_ctx *ctx, const struct lmb_addr *a, int socktype,
                       char port_flag, unsigned default_port, int e, double timeout_s,
                       char *buf, size_t len);

/* Points the connected datagram socket fd at port (a session's) of a's host. */
int lmb_net_connect_port(int fd, const struct lmb_addr *a, unsigned port, char *err,
                         size_t errlen);

/* -l, the local mode: two connected sockets of socktype over IPv4 loopback,
 * one for the copy (*mine) and one for the partner the harness starts and
 * places (*theirs): a TCP connection through listen/connect/accept, or two
 * UDP sockets connected to each other. Returns 0, or -1 with a message. */
int lmb_net_local_pair(int socktype, int *mine, int *theirs, char *err, size_t errlen);

/* The local mode's checks: -l takes no host and excludes -s and -S. Returns
 * 0 (and *local) or the usage error's exit status. */
int lmb_net_local_args(struct lmb_ctx *ctx, int argc, bool *local);

/* The start of a network command's main: -l, -s, -S or a host. Returns the
 * exit status when it is done (a server started or stopped, a usage error),
 * else -1 with *local (the -l mode), *host (as given, or "localhost") and *a
 * (resolved for socktype) set, to measure. */
int lmb_net_client_start(struct lmb_ctx *ctx, int argc, char **argv,
                         const struct lmb_net_cmd *cmd, int socktype, bool *local,
                         const char **host, struct lmb_addr *a);

/* The `ends` parameter of a two-ended record: "same_cpu", "two_cpus" or
 * "unpinned", from where the copies were pinned and the server's reply. */
const char *lmb_net_ends(const struct lmb_ctx *ctx, const int *cpu_assigned, unsigned copies,
                         const struct lmb_net_reply *server);

/* The handshake/stop timeout: LMB_NET_CONNECT_TIMEOUT, or --timeout if shorter. */
double lmb_net_timeout(const struct lmb_ctx *ctx);

#endif
