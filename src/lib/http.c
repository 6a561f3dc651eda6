// SPDX-License-Identifier: MIT
/* The HTTP/1.0 server of lmhttp and lat_http -s: requests read by the server
 * daemon's main loop (at most 2 KB each, a deadline each), answered from a
 * static document tree without blocking (a deadline each, see answer()), one
 * request per connection, no child processes. A "STOP / HTTP/1.0" request
 * stops it, from an address that may stop it. */
#include "lib/http.h"
#include "lib/text.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__) && defined(SYS_openat2)
#include <linux/openat2.h>
#endif

char lmb_http_docroot[4096];
static int root_fd = -1;

long lmb_http_framed(const uint8_t *buf, size_t len)
{
    /* The first bytes must look like a method: upper-case letters, a space. */
    for (size_t i = 0; i < len && i < 9; i++) {
        if (buf[i] == ' ' && i > 0)
            break;
        if (buf[i] < 'A' || buf[i] > 'Z')
            return -1;
    }
    for (size_t i = 0; i + 1 < len; i++) {
        if (buf[i] == '\n' && buf[i + 1] == '\n')
            return (long)(i + 2);
        if (i + 3 < len && memcmp(buf + i, "\r\n\r\n", 4) == 0)
            return (long)(i + 4);
    }
    return 0;
}

static bool path_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '-' || c == '_' || c == '/';
}

int lmb_http_parse(const uint8_t *buf, size_t len, struct lmb_http_req *out)
{
    const char *p = (const char *)buf, *end = p + len, *sp1, *sp2, *eol;
    size_t plen;

    memset(out, 0, sizeof *out);
    eol = memchr(p, '\n', len);
    if (eol == NULL)
        return 400;
    if (eol > p && eol[-1] == '\r')
        eol--;
    sp1 = memchr(p, ' ', (size_t)(eol - p));
    if (sp1 == NULL)
        return 400;
    sp2 = memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1));
    if (sp2 == NULL)
        return 400;
    if (sp1 - p == 3 && memcmp(p, "GET", 3) == 0)
        out->method = LMB_HTTP_GET;
    else if (sp1 - p == 4 && memcmp(p, "STOP", 4) == 0)
        out->method = LMB_HTTP_STOP;
    else
        return 405;
    if ((size_t)(eol - sp2 - 1) != 8 || (memcmp(sp2 + 1, "HTTP/1.0", 8) != 0 &&
                                         memcmp(sp2 + 1, "HTTP/1.1", 8) != 0))
        return 505;
    /* The path: "/a/b.html", or an absolute URL's path. */
    const char *path = sp1 + 1;
    if (sp2 - path > 7 && memcmp(path, "http://", 7) == 0) {
        path = memchr(path + 7, '/', (size_t)(sp2 - path - 7));
        if (path == NULL)
            return 400;
    }
    if (*path != '/')
        return 400;
    path++;
    plen = (size_t)(sp2 - path);
    if (plen >= LMB_HTTP_PATH_MAX || (plen > 0 && path[0] == '/'))
        return 404;   /* too long, or "//...": an absolute path */
    for (size_t i = 0; i < plen; i++) {
        if (!path_char(path[i]))
            return 404;
        /* No component may start with a dot: no "..", no hidden files. */
        if (path[i] == '.' && (i == 0 || path[i - 1] == '/'))
            return 404;
        if (path[i] == '/' && i + 1 < plen && path[i + 1] == '/')
            return 404;
    }
    memcpy(out->path, path, plen);
    out->path[plen] = '\0';
    if (plen == 0 && out->method == LMB_HTTP_GET)
        snprintf(out->path, sizeof out->path, "index.html");
    (void)end;
    return 200;
}

static const char *content_type(const char *path)
{
    const char *dot = strrchr(path, '.');

    if (dot == NULL)
        return "application/octet-stream";
    if (strcmp(dot, ".html") == 0)
        return "text/html";
    if (strcmp(dot, ".gif") == 0)
        return "image/gif";
    if (strcmp(dot, ".txt") == 0 || strcmp(path, "URLS") == 0)
        return "text/plain";
    return "application/octet-stream";
}

/* Opens path inside the tree: with openat2, nothing (no symbolic link on
 * the way) may lead out of it. Where the kernel has no openat2 (before Linux
 * 5.6, as on many boards, or under qemu-user), the same by hand: the parser's
 * checks (no absolute path, no component starting with a dot), then one
 * component at a time with O_NOFOLLOW, so that no symbolic link is followed. */
static int open_in_tree(const char *path)
{
    int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how = { .flags = (uint64_t)flags,
                            .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
    long fd = syscall(SYS_openat2, root_fd, path, &how, sizeof how);
    if (fd >= 0 || errno != ENOSYS)
        return (int)fd;
#endif
    char buf[PATH_MAX];
    char *save = NULL, *comp, *next;
    int dir = root_fd;

    if (strlen(path) >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, strlen(path) + 1);
    for (comp = strtok_r(buf, "/", &save); comp != NULL; comp = next) {
        next = strtok_r(NULL, "/", &save);
        int fd2 = openat(dir, comp, next != NULL ? O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
                                                 : flags);
        int e = errno;
        if (dir != root_fd)
            close(dir);
        if (fd2 < 0 || next == NULL) {
            errno = e;
            return fd2;
        }
        dir = fd2;
    }
    errno = ENOENT;
    return -1;
}

/* --- answers, sent without blocking ----------------------------------------
 *
 * The daemon's main loop hands a complete request to http_request() and closes
 * the connection when it returns. An answer that fits the socket's send buffer
 * (every answer lat_http asks for) is sent there and then. One that does not
 * (a client reading slowly, or not at all) becomes a job: the connection is
 * kept (a duplicate of its descriptor), watched for room through an epoll set
 * that is the main loop's extra descriptor, and fed as the client takes the
 * bytes. A job whose client takes nothing for LMB_HTTP_SEND_TIMEOUT seconds is
 * reset (a timer descriptor in the same set wakes the loop for it), so that
 * one stalled reader costs its own connection and nothing else. */

#define TIMER_TAG UINT32_MAX

struct job {
    int fd;                /* the connection; -1: a free slot */
    int file;              /* the file being sent, -1 when none */
    off_t off, size;
    char head[256];
    size_t headlen, headoff;
    double deadline;       /* CLOCK_MONOTONIC seconds */
};

struct http_srv {
    int ep;                /* epoll: the jobs' sockets and the timer */
    int timer;             /* timerfd: the earliest deadline */
    struct job jobs[LMB_HTTP_SENDING_MAX];
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sends what the socket takes now. Returns 1 when the answer is complete, 0
 * when the socket is full (more later), -1 when the connection is done with
 * (an error, or the file shorter than announced). */
static int job_push(struct job *j)
{
    bool moved = false;
    int rc = 1;

    while (j->headoff < j->headlen) {
        ssize_t w = send(j->fd, j->head + j->headoff, j->headlen - j->headoff,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            rc = errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
            goto out;
        }
        j->headoff += (size_t)w;
        moved = true;
    }
    while (j->file >= 0 && j->off < j->size) {
        ssize_t w = sendfile(j->fd, j->file, &j->off, (size_t)(j->size - j->off));
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            rc = errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
            goto out;
        }
        if (w == 0) {
            rc = -1;   /* the file shrank: the client sees a short answer */
            goto out;
        }
        moved = true;
    }
out:
    if (moved)
        j->deadline = now_s() + LMB_HTTP_SEND_TIMEOUT;
    return rc;
}

/* Closes a job's connection: reset when its answer is incomplete, so that
 * the kernel does not keep the unsent bytes for a client that does not read. */
static void job_close(struct http_srv *h, struct job *j, bool reset)
{
    if (reset) {
        struct linger lg = { .l_onoff = 1, .l_linger = 0 };
        setsockopt(j->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    }
    if (h != NULL)
        epoll_ctl(h->ep, EPOLL_CTL_DEL, j->fd, NULL);
    close(j->fd);
    if (j->file >= 0)
        close(j->file);
    j->fd = -1;
    j->file = -1;
}

/* Arms the timer for the earliest deadline, or disarms it. */
static void arm_timer(struct http_srv *h)
{
    struct itimerspec its;
    double first = 0;

    memset(&its, 0, sizeof its);
    for (int i = 0; i < LMB_HTTP_SENDING_MAX; i++)
        if (h->jobs[i].fd >= 0 && (first == 0 || h->jobs[i].deadline < first))
            first = h->jobs[i].deadline;
    if (first > 0) {
        its.it_value.tv_sec = (time_t)first;
        its.it_value.tv_nsec = (long)((first - (double)(time_t)first) * 1e9);
        if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
            its.it_value.tv_nsec = 1;
    }
    timerfd_settime(h->timer, TFD_TIMER_ABSTIME, &its, NULL);
}

/* Answers on fd: head, then size bytes of file (or none when file is -1).
 * Takes the file. What does not go at once is left to the main loop. */
static void answer(struct lmb_server *s, int fd, const char *head, size_t headlen, int file,
                   off_t size)
{
    struct http_srv *h = s->state;
    struct job now = { .fd = fd, .file = file, .size = size };
    int slot = -1;

    now.headlen = headlen < sizeof now.head ? headlen : sizeof now.head;
    memcpy(now.head, head, now.headlen);
    /* The main loop gave the connection blocking, with no other status flag
     * (accept4, then O_NONBLOCK cleared): one call makes it non-blocking. */
    if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0 || job_push(&now) != 0 || h == NULL) {
        if (file >= 0)
            close(file);
        return;   /* sent, failed, or nowhere to keep it: the caller closes fd */
    }
    for (int i = 0; i < LMB_HTTP_SENDING_MAX && slot < 0; i++)
        if (h->jobs[i].fd < 0)
            slot = i;
    if (slot < 0) {
        /* Full: the job whose client has taken nothing for longest goes. */
        slot = 0;
        for (int i = 1; i < LMB_HTTP_SENDING_MAX; i++)
            if (h->jobs[i].deadline < h->jobs[slot].deadline)
                slot = i;
        job_close(h, &h->jobs[slot], true);
    }
    now.fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (now.deadline == 0)
        now.deadline = now_s() + LMB_HTTP_SEND_TIMEOUT;
    struct epoll_event ev = { .events = EPOLLOUT, .data.u32 = (uint32_t)slot };
    if (now.fd < 0 || epoll_ctl(h->ep, EPOLL_CTL_ADD, now.fd, &ev) != 0) {
        if (now.fd >= 0)
            close(now.fd);
        if (file >= 0)
            close(file);
        return;
    }
    h->jobs[slot] = now;
    arm_timer(h);
}

/* The main loop's extra descriptor is readable: sockets with room, or the
 * timer. Feeds the jobs, closes the finished and the expired. */
static bool http_extra(struct lmb_server *s)
{
    struct http_srv *h = s->state;
    struct epoll_event ev[LMB_HTTP_SENDING_MAX + 1];
    int n = epoll_wait(h->ep, ev, LMB_HTTP_SENDING_MAX + 1, 0);
    double now;

    for (int i = 0; i < n; i++) {
        uint32_t tag = ev[i].data.u32;
        if (tag == TIMER_TAG) {
            uint64_t ticks;
            if (read(h->timer, &ticks, sizeof ticks) < 0)
                (void)ticks;
            continue;
        }
        if (tag >= LMB_HTTP_SENDING_MAX || h->jobs[tag].fd < 0)
            continue;
        struct job *j = &h->jobs[tag];
        int rc = job_push(j);
        if (rc != 0)
            job_close(h, j, rc < 0);
    }
    now = now_s();
    for (int i = 0; i < LMB_HTTP_SENDING_MAX; i++)
        if (h->jobs[i].fd >= 0 && h->jobs[i].deadline <= now)
            job_close(h, &h->jobs[i], true);
    arm_timer(h);
    return false;
}

static void http_atexit(struct lmb_server *s)
{
    struct http_srv *h = s->state;

    if (h == NULL)
        return;
    for (int i = 0; i < LMB_HTTP_SENDING_MAX; i++)
        if (h->jobs[i].fd >= 0)
            job_close(NULL, &h->jobs[i], true);
    close(h->ep);
    close(h->timer);
    free(h);
    s->state = NULL;
}

static void status_only(struct lmb_server *s, int fd, int code)
{
    const char *why = code == 400 ? "Bad Request" : code == 403 ? "Forbidden"
                    : code == 404 ? "Not Found" : code == 405 ? "Method Not Allowed"
                    : code == 505 ? "HTTP Version Not Supported" : "OK";
    char out[160];
    int n = snprintf(out, sizeof out, "HTTP/1.0 %d %s\r\nServer: lmhttp\r\nContent-Length: 0\r\n\r\n",
                     code, why);
    answer(s, fd, out, (size_t)n, -1, 0);
}

static int http_request(struct lmb_server *s, int fd, const uint8_t *req, size_t len,
                        const struct sockaddr *peer, socklen_t peerlen)
{
    struct lmb_http_req r;
    struct stat sb;
    char head[256];
    int code = lmb_http_parse(req, len, &r), f, n;

    (void)peerlen;
    if (code != 200) {
        status_only(s, fd, code);
        return LMB_SRV_CLOSE;
    }
    if (r.method == LMB_HTTP_STOP) {
        if (!lmb_server_may_stop(s, peer)) {
            status_only(s, fd, 403);
            return LMB_SRV_CLOSE;
        }
        status_only(s, fd, 200);
        return LMB_SRV_STOP;
    }
    f = open_in_tree(r.path);
    if (f < 0 || fstat(f, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        if (f >= 0)
            close(f);
        status_only(s, fd, 404);
        return LMB_SRV_CLOSE;
    }
    n = snprintf(head, sizeof head,
                 "HTTP/1.0 200 OK\r\nServer: lmhttp\r\nContent-Type: %s\r\n"
                 "Content-Length: %lld\r\n\r\n", content_type(r.path), (long long)sb.st_size);
    answer(s, fd, head, (size_t)n, f, sb.st_size);
    return LMB_SRV_CLOSE;
}

static int http_child(struct lmb_server *s, int fd, const uint8_t *req, size_t len)
{
    (void)s, (void)fd, (void)req, (void)len;
    return 0;
}

static int http_setup(struct lmb_server *s, const struct lmb_addr *bound, char *err,
                      size_t errlen)
{
    struct http_srv *h;
    char q[LMB_QUOTE_BUF];

    (void)bound;
    root_fd = open(lmb_http_docroot, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0) {
        snprintf(err, errlen, "document root '%s': %s",
                 lmb_quote(lmb_http_docroot, q, sizeof q), strerror(errno));
        return -1;
    }
    h = calloc(1, sizeof *h);
    if (h == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < LMB_HTTP_SENDING_MAX; i++)
        h->jobs[i].fd = h->jobs[i].file = -1;
    h->ep = epoll_create1(EPOLL_CLOEXEC);
    h->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = TIMER_TAG };
    if (h->ep < 0 || h->timer < 0 || epoll_ctl(h->ep, EPOLL_CTL_ADD, h->timer, &ev) != 0) {
        snprintf(err, errlen, "epoll: %s", strerror(errno));
        return -1;   /* the daemon exits */
    }
    s->state = h;
    s->extra_fd = h->ep;
    s->extra = http_extra;
    return 0;
}

/* -S: a STOP request; the server closes the connection once it is gone. */
static int http_stop(const struct lmb_addr *a, int socktype, double timeout_s, char *err,
                     size_t errlen)
{
    static const char q[] = "STOP / HTTP/1.0\r\n\r\n";
    char in[64] = "";
    int fd = lmb_net_connect(socktype, a, timeout_s, err, errlen);
    ssize_t n;

    if (fd < 0)
        return -1;
    lmb_net_set_timeouts(fd, timeout_s);
    if (lmb_net_write_full(fd, q, sizeof q - 1) != 1) {
        snprintf(err, errlen, "sending the stop request: %s", strerror(errno));
        close(fd);
        return -1;
    }
    n = read(fd, in, sizeof in - 1);
    if (n > 0)
        in[n] = '\0';
    if (n <= 0 || strncmp(in, "HTTP/1.0 ", 9) != 0) {
        snprintf(err, errlen, "no answer to the stop request (is it lmhttp?)");
        close(fd);
        return -1;
    }
    if (strncmp(in + 9, "200", 3) != 0) {
        snprintf(err, errlen, "%s", strncmp(in + 9, "403", 3) == 0
                 ? "the server refused to stop: a server obeys a stop only from its own host "
                   "or the address given with -a"
                 : "the server did not accept the stop request");
        close(fd);
        return -1;
    }
    while (read(fd, in, sizeof in) > 0)
        ;
    close(fd);
    return 0;
}

static const struct lmb_server_ops http_ops = {
    .socktype = SOCK_STREAM,
    .framed = lmb_http_framed,
    .req_max = LMB_HTTP_REQ_MAX,
    .request = http_request,
    .child = http_child,
    .atexit = http_atexit,
};

const struct lmb_net_cmd lmb_http_cmd = {
    .ops = &http_ops,
    .default_port = LMB_PORT_HTTP,
    .port_flag = 'p',
    .stop = http_stop,
    .setup = http_setup,
};

int lmb_http_find_docroot(const char *dir, char *err, size_t errlen)
{
    char exe[PATH_MAX], guess[PATH_MAX + 32];
    const char *pick = dir;

    if (pick == NULL)
        pick = getenv("DOCROOT");
    if (pick == NULL || *pick == '\0') {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = '\0';
            char *slash = strrchr(exe, '/');
            if (slash != NULL)
                *slash = '\0';
            snprintf(guess, sizeof guess, "%s/../share/lmbench/www", exe);
            pick = guess;
        }
    }
    if (pick == NULL || realpath(pick, lmb_http_docroot) == NULL) {
        char q[LMB_QUOTE_BUF];
        snprintf(err, errlen, "no document tree%s%s%s (give one with -d, or DOCROOT)",
                 pick ? " at '" : "", pick ? lmb_quote(pick, q, sizeof q) : "", pick ? "'" : "");
        return -1;
    }
    return 0;
}

/* --- the generated tree ------------------------------------------------------ */

struct doc {
    const char *name;
    unsigned size;
};

/* Thirteen files, 41,800 bytes, about the size of the pages lmbench 3 served. */
static const struct doc docs[] = {
    { "index.html", 6400 }, { "lmbench.html", 4300 }, { "results.html", 8400 },
    { "about.html", 2600 }, { "pics/logo.gif", 3100 }, { "pics/bar.gif", 700 },
    { "pics/graph1.gif", 5200 }, { "pics/graph2.gif", 3000 }, { "pics/dot.gif", 900 },
    { "pics/arrow.gif", 1200 }, { "pics/head.gif", 2200 }, { "docs/notes.txt", 1800 },
    { "docs/faq.html", 2000 },
};

static int write_doc(const char *dir, const struct doc *d, char *err, size_t errlen)
{
    char path[PATH_MAX];
    char *buf = malloc(d->size);
    uint32_t x = 2463534242u;
    bool text = strstr(d->name, ".gif") == NULL;
    static const char words[] = "lmbench measures the latency and bandwidth of the system ";
    FILE *f;

    if (buf == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < d->size; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        buf[i] = text ? words[i % (sizeof words - 1)] : (char)(x & 0xff);
        if (text && i % 64 == 63)
            buf[i] = '\n';
    }
    snprintf(path, sizeof path, "%s/%s", dir, d->name);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(buf, 1, d->size, f) != d->size || fclose(f) != 0) {
        char q[LMB_QUOTE_BUF];
        snprintf(err, errlen, "cannot write '%s': %s", lmb_quote(path, q, sizeof q),
                 strerror(errno));
        free(buf);
        return -1;
    }
    free(buf);
    return 0;
}

int lmb_http_make_tree(const char *dir, char *err, size_t errlen)
{
    static const char *const subdirs[] = { "", "/pics", "/docs" };
    char path[PATH_MAX];
    FILE *urls;

    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
        snprintf(path, sizeof path, "%s%s", dir, subdirs[i]);
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            char q[LMB_QUOTE_BUF];
            snprintf(err, errlen, "cannot make '%s': %s", lmb_quote(path, q, sizeof q),
                     strerror(errno));
            return -1;
        }
    }
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        if (write_doc(dir, &docs[i], err, errlen) != 0)
            return -1;
    snprintf(path, sizeof path, "%s/URLS", dir);
    urls = fopen(path, "w");
    if (urls == NULL) {
        char q[LMB_QUOTE_BUF];
        snprintf(err, errlen, "cannot write '%s': %s", lmb_quote(path, q, sizeof q),
                 strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        fprintf(urls, "/%s\n", docs[i].name);
    if (fclose(urls) != 0) {
        char q[LMB_QUOTE_BUF];
        snprintf(err, errlen, "cannot write '%s': %s", lmb_quote(path, q, sizeof q),
                 strerror(errno));
        return -1;
    }
    return 0;
}
