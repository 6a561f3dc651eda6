// SPDX-License-Identifier: MIT
/* lmhttp: the HTTP/1.0 server lat_http measures (no timing here). It serves
 * the static document tree the build generates, one request per connection,
 * from a server in the background, as `lat_http -s` does; `lat_http -S host
 * [port]` stops it. -G DIR writes the document tree (the build uses it). */
#include <stdio.h>

#include "lib/bench.h"
#include "lib/http.h"
#include "lib/net.h"
#include "lib/text.h"

static int lmhttp_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    static const char serve_only[] = { 'p', 'b', 'a', 'd' };
    char err[512];
    unsigned port;
    int rc;
    const char *dir = lmb_opt_arg(ctx, 'd'), *gen = lmb_opt_arg(ctx, 'G');

    if (ctx->opt.json)
        return lmb_usage_error(ctx, "--json applies to measurements, not to %s",
                               gen != NULL ? "-G" : "a server");
    if (gen != NULL) {
        char q[LMB_QUOTE_BUF];
        if (argc > 0)
            return lmb_usage_error(ctx, "-G takes no port ('%s')",
                                   lmb_quote(argv[0], q, sizeof q));
        for (size_t i = 0; i < sizeof serve_only; i++)
            if (lmb_opt_given(ctx, serve_only[i]))
                return lmb_usage_error(ctx, "-%c applies to the server, not to -G",
                                       serve_only[i]);
        if (*gen == '\0')
            return lmb_usage_error(ctx, "-G: an empty path");
        if (lmb_http_make_tree(gen, err, sizeof err) != 0)
            return lmb_net_fail(ctx, "%s", err);
        return LMB_EXIT_OK;
    }
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    if ((rc = lmb_net_port(ctx, &lmb_http_cmd, &port)) != 0)
        return rc;
    if (argc == 1) {
        if (lmb_opt_arg(ctx, 'p') != NULL)
            return lmb_usage_error(ctx, "give the port once: -p or an argument");
        if (lmb_net_parse_port(argv[0], &port, err, sizeof err) != 0)
            return lmb_usage_error(ctx, "%s", err);
    }
    if (dir != NULL && *dir == '\0')
        return lmb_usage_error(ctx, "-d: an empty path");
    if (lmb_http_find_docroot(dir, err, sizeof err) != 0)
        return lmb_net_fail(ctx, "%s", err);
    return lmb_net_serve(ctx, &lmb_http_cmd, port);
}

static const struct lmb_optdef options[] = {
    { 'p', "port", "TCP port (default 8008; also the optional argument)" },
    { 'b', "addr", "the address to listen on (default 127.0.0.1)" },
    { 'a', "addr", "one more address allowed to stop the server" },
    { 'd', "dir", "the document tree (default $DOCROOT, else the one installed)" },
    { 'G', "dir", "write the document tree into dir and exit" },
};

const struct lmb_bench lmb_bench_lmhttp = {
    .name = "lmhttp",
    .summary = "The HTTP/1.0 server that lat_http measures",
    .category = LMB_CAT_NETWORK,
    .common = LMB_NO_LAUNCHES,
    .args = "[port]",
    .help = "Starts a server in the background that answers GET requests from a static\n"
            "document tree, and returns once it listens. lat_http -S HOST [PORT] stops it;\n"
            "it obeys that only from its own host or the address given with -a.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .main = lmhttp_main,
};
