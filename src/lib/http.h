// SPDX-License-Identifier: MIT
/* The tiny HTTP/1.0 server of lmhttp and lat_http -s, its request parser, and
 * the static document tree the build generates for it. */
#ifndef LMB_HTTP_H
#define LMB_HTTP_H

#include <stddef.h>

#include "lib/net.h"

#define LMB_HTTP_REQ_MAX 2048     /* most bytes a request (line and headers) may have */
#define LMB_HTTP_PATH_MAX 256
/* Answers are sent without blocking, from the daemon's main loop: at most
 * LMB_HTTP_SENDING_MAX connections at once (a newcomer beyond that takes the
 * place of the one that has waited longest for its client), each closed when
 * its client has taken nothing for LMB_HTTP_SEND_TIMEOUT seconds. */
#define LMB_HTTP_SENDING_MAX 64
#define LMB_HTTP_SEND_TIMEOUT 5.0

enum lmb_http_method { LMB_HTTP_GET = 1, LMB_HTTP_STOP = 2 };

struct lmb_http_req {
    int method;
    char path[LMB_HTTP_PATH_MAX];   /* relative to the document root, no leading '/' */
};

/* How many bytes of buf form a complete request: 0 = need more, > 0 = the
 * request's length, < 0 = not HTTP. */
long lmb_http_framed(const uint8_t *buf, size_t len);

/* Parses a complete request. Returns 200, or the HTTP status to answer with
 * (400 bad request, 404 a path outside the tree, 405 a method we do not
 * serve, 505 a version we do not speak). */
int lmb_http_parse(const uint8_t *buf, size_t len, struct lmb_http_req *out);

/* The server's operations and the command description lmhttp and lat_http
 * share. lmb_http_docroot must be an absolute path when the server starts. */
extern char lmb_http_docroot[4096];
extern const struct lmb_net_cmd lmb_http_cmd;

/* Finds the document tree: dir if given, else $DOCROOT, else the tree the
 * build made next to the binary (../share/lmbench/www). Returns 0 and sets
 * lmb_http_docroot, or -1 with a message. */
int lmb_http_find_docroot(const char *dir, char *err, size_t errlen);

/* Writes the document tree (files and URLS, the list lat_http reads) into
 * dir, made if missing. Returns 0 or -1 with a message. */
int lmb_http_make_tree(const char *dir, char *err, size_t errlen);

#endif
