// SPDX-License-Identifier: MIT
/* lat_http: HTTP/1.0 transfer rate from lmhttp (or lat_http -s).
 *
 * One iteration fetches every URL read from standard input once, in order:
 * for each, connect, send "GET path HTTP/1.0", read the whole answer until
 * the server closes. Kept out of the timing: reading the URL list and a first
 * pass that checks every URL answers 200 and learns the sizes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/http.h"
#include "lib/net.h"
#include "lib/stats.h"
#include "lib/text.h"

#define MAX_URLS 1000
#define MAX_BODY (16u << 20)

struct http_state {
    struct lmb_addr addr;
    double timeout_s;
    char (*paths)[LMB_HTTP_PATH_MAX + 1];
    size_t npaths;
    uint64_t bytes;        /* body bytes of one pass */
    char *buf;
    size_t buflen;
};

/* Fetches one path; returns its body size, or -1 with a message. */
static long long fetch(struct http_state *st, const char *path, double timeout_s, char *err,
                       size_t errlen)
{
    char req[LMB_HTTP_PATH_MAX + 64];
    int n = snprintf(req, sizeof req, "GET /%s HTTP/1.0\r\n\r\n", path);
    int fd = lmb_net_connect(SOCK_STREAM, &st->addr, timeout_s, err, errlen);
    size_t got = 0;
    char *end;

    if (fd < 0)
        return -1;
    lmb_net_set_timeouts(fd, timeout_s);
    if (lmb_net_write_full(fd, req, (size_t)n) != 1) {
        snprintf(err, errlen, "GET /%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    for (;;) {
        if (got == st->buflen) {
            snprintf(err, errlen, "GET /%s: the answer is over %u bytes", path, MAX_BODY);
            close(fd);
            return -1;
        }
        ssize_t r = read(fd, st->buf + got, st->buflen - got);
        if (r == 0)
            break;
        if (r < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errlen, "GET /%s: %s", path, errno == EAGAIN
                     ? "no answer in time" : strerror(errno));
            close(fd);
            return -1;
        }
        got += (size_t)r;
    }
    close(fd);
    if (got < 12 || memcmp(st->buf, "HTTP/1.", 7) != 0) {
        snprintf(err, errlen, "GET /%s: not an HTTP answer", path);
        return -1;
    }
    if (memcmp(st->buf + 9, "200", 3) != 0) {
        char *eol = memchr(st->buf, '\r', got);
        snprintf(err, errlen, "GET /%s: %.*s", path, (int)((eol ? eol : st->buf + 12) - st->buf),
                 st->buf);
        return -1;
    }
    end = memmem(st->buf, got, "\r\n\r\n", 4);
    if (end == NULL) {
        snprintf(err, errlen, "GET /%s: an answer without its header's end", path);
        return -1;
    }
    return (long long)(got - (size_t)(end + 4 - st->buf));
}

static int client_init(void *p, char *err, size_t errlen)
{
    struct http_state *st = p;

    st->buf = malloc(st->buflen);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static void client_run(uint64_t n, void *p)
{
    struct http_state *st = p;
    char err[512];

    for (uint64_t i = 0; i < n; i++) {
        uint64_t total = 0;
        for (size_t u = 0; u < st->npaths; u++) {
            long long b = fetch(st, st->paths[u], LMB_NET_IO_TIMEOUT, err, sizeof err);
            if (b < 0)
                lmb_abort_copy("%s", err);
            total += (uint64_t)b;
        }
        if (total != st->bytes)
            lmb_abort_copy("a pass moved %llu bytes, the first %llu: the documents changed",
                           (unsigned long long)total, (unsigned long long)st->bytes);
    }
}

static void client_cleanup(void *p)
{
    struct http_state *st = p;

    free(st->buf);
}

/* Reads the URL list: "/path", "path" or "http://host[:port]/path", one a
 * line; blank lines and '#' comments skipped. Returns the count, or -1 with
 * a message. */
static long read_urls(struct http_state *st, char *err, size_t errlen)
{
    char line[1024];
    size_t n = 0;

    st->paths = calloc(MAX_URLS, sizeof *st->paths);
    if (st->paths == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *s = line, *e;
        struct lmb_http_req r;
        char req[LMB_HTTP_PATH_MAX + 64];
        while (*s == ' ' || *s == '\t')
            s++;
        e = s + strcspn(s, " \t\r\n");
        *e = '\0';
        if (*s == '\0' || *s == '#')
            continue;
        if (n == MAX_URLS) {
            snprintf(err, errlen, "more than %d URLs on standard input", MAX_URLS);
            return -1;
        }
        /* The server's own parser says whether the path is one it serves. */
        snprintf(req, sizeof req, "GET %s%.*s HTTP/1.0\r\n\r\n",
                 (*s == '/' || strncmp(s, "http://", 7) == 0) ? "" : "/",
                 LMB_HTTP_PATH_MAX, s);
        if (lmb_http_parse((const uint8_t *)req, strlen(req), &r) != 200) {
            char q[LMB_QUOTE_BUF];
            snprintf(err, errlen, "not a URL lmhttp serves: '%s'", lmb_quote(s, q, sizeof q));
            return -1;
        }
        snprintf(st->paths[n++], LMB_HTTP_PATH_MAX + 1, "%s", r.path);
    }
    if (ferror(stdin)) {
        snprintf(err, errlen, "reading standard input: %s", strerror(errno));
        return -1;
    }
    return (long)n;
}

static int lat_http_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct http_state st = { .buflen = MAX_BODY + 4096 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    char err[512];
    unsigned port;
    long nurls;
    int rc;
    bool serve = lmb_opt_given(ctx, 's'), stop = lmb_opt_given(ctx, 'S');

    if (serve && stop)
        return lmb_usage_error(ctx, "-s and -S exclude each other");
    if ((serve || stop) && (ctx->opt.json || ctx->opt.launch > 0))
        return lmb_usage_error(ctx, "%s applies to measurements, not to -%c",
                               ctx->opt.launch > 0 ? "--launches" : "--json", serve ? 's' : 'S');
    if (!serve && (lmb_opt_arg(ctx, 'b') || lmb_opt_arg(ctx, 'a') || lmb_opt_arg(ctx, 'd')))
        return lmb_usage_error(ctx, "-b, -a and -d apply only to -s (the server)");
    if ((rc = lmb_net_port(ctx, &lmb_http_cmd, &port)) != 0)
        return rc;
    /* The port may also be the last argument, as lmbench 3 had it. */
    int nhost = serve || stop ? 0 : 1;
    if (argc < nhost)
        return lmb_usage_error(ctx, "which host? (start a server with '%s -s')", ctx->prog);
    if (argc > nhost + 1)
        return lmb_usage_error(ctx, "too many arguments");
    if (argc == nhost + 1) {
        if (lmb_opt_arg(ctx, 'p') != NULL)
            return lmb_usage_error(ctx, "give the port once: -p or an argument");
        if (lmb_net_parse_port(argv[nhost], &port, err, sizeof err) != 0)
            return lmb_usage_error(ctx, "%s", err);
    }
    if (stop)
        return lmb_net_stop_at(ctx, &lmb_http_cmd, lmb_opt_arg(ctx, 'S'), port);
    if (serve) {
        const char *d = lmb_opt_arg(ctx, 'd');
        if (d != NULL && d[0] == '\0')
            return lmb_usage_error(ctx, "-d: an empty path (the document tree is a directory)");
        if (lmb_http_find_docroot(d, err, sizeof err) != 0)
            return lmb_net_fail(ctx, "%s", err);
        return lmb_net_serve(ctx, &lmb_http_cmd, port);
    }

    if ((rc = lmb_net_client_addr(ctx, argv[0], port, SOCK_STREAM, &st.addr)) != 0)
        return rc;
    nurls = read_urls(&st, err, sizeof err);
    if (nurls < 0) {
        free(st.paths);
        return lmb_usage_error(ctx, "%s", err);
    }
    if (nurls == 0) {
        free(st.paths);
        return lmb_usage_error(ctx, "no URLs on standard input (lmhttp's tree has a list: URLS)");
    }
    st.npaths = (size_t)nurls;
    st.timeout_s = lmb_net_timeout(ctx);

    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_MBS);
    rec.classic = LMB_CLASSIC_HTTP;
    lmb_record_param_str(&rec, "host", argv[0]);
    lmb_record_param_int(&rec, "port", port);

    /* A server answers (else say how to start one); then the first pass,
     * untimed: every URL answers, and the sizes. */
    int fd = lmb_net_connect(SOCK_STREAM, &st.addr, st.timeout_s, err, sizeof err);
    if (fd < 0) {
        lmb_net_unreached(ctx, &st.addr, SOCK_STREAM, lmb_http_cmd.port_flag,
                          lmb_http_cmd.default_port, errno, st.timeout_s, err, sizeof err);
        free(st.paths);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    close(fd);
    if (client_init(&st, err, sizeof err) != 0) {
        free(st.paths);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    for (size_t u = 0; u < st.npaths; u++) {
        long long b = fetch(&st, st.paths[u], st.timeout_s, err, sizeof err);
        if (b < 0) {
            client_cleanup(&st);
            free(st.paths);
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
        }
        st.bytes += (uint64_t)b;
    }
    client_cleanup(&st);
    if (st.bytes == 0) {
        free(st.paths);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "the documents are all empty");
    }

    t = (struct lmb_timed){
        .init = client_init,
        .run = client_run,
        .cleanup = client_cleanup,
        .state = &st,
        .metric = LMB_METRIC_BANDWIDTH,
        .per_iter = (double)st.bytes,
    };
    lmb_measure(ctx, &t, &res);
    rec.classic_x = (double)st.bytes;
    rec.classic_n = (double)st.npaths;
    lmb_record_param_double(&rec, "kbytes", (double)st.bytes / 1e3);
    if (res.status == LMB_OK && res.n > 0) {
        struct lmb_stats s;
        if (lmb_stats_compute(res.samples, res.n, &s) == 0 && s.median > 0)
            lmb_record_param_double(&rec, "ms", (double)st.bytes / s.median * 1e3);
    }
    lmb_report_add(&ctx->report, &rec, &res);
    free(st.paths);
    return LMB_EXIT_OK;
}

static const struct lmb_optdef options[] = {
    { 's', NULL, "start the HTTP server (lmhttp) in the background" },
    { 'S', "host", "ask the HTTP server on host to stop" },
    { 'p', "port", "TCP port (default 8008; also the optional last argument)" },
    { 'b', "addr", "with -s: the address to listen on (default 127.0.0.1)" },
    { 'a', "addr", "with -s: one more address allowed to stop the server" },
    { 'd', "dir", "with -s: the document tree (default $DOCROOT, else the one installed)" },
};

const struct lmb_bench lmb_bench_lat_http = {
    .name = "lat_http",
    .summary = "HTTP/1.0 transfer rate from lmhttp, for the URLs read on standard input",
    .category = LMB_CAT_NETWORK,
    .common = LMB_USE_PWN,
    .args = "host [port] < urls",
    .help = "lat_http HOST [PORT] reads URLs (one a line) on standard input and times\n"
            "fetching them all, one connection each, from lmhttp; the line gives the mean\n"
            "file size, the bytes of one pass, its time and the rate. lat_http -s [PORT]\n"
            "starts the server (as lmhttp does); lat_http -S HOST [PORT] stops it.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lat_http_main,
};
