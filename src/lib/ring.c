// SPDX-License-Identifier: MIT
/* A ring of processes passing a token (lat_ctx), and hop times turned into
 * context switch times. */
#include "lib/ring.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/difference.h"
#include "lib/files.h"
#include "lib/stats.h"

int lmb_ring_open(struct lmb_ring *r, unsigned n, char *err, size_t errlen)
{
    r->n = n;
    r->pipes = malloc(n * sizeof *r->pipes);
    if (r->pipes == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned k = 0; k < n; k++)
        r->pipes[k][0] = r->pipes[k][1] = -1;
    for (unsigned k = 0; k < n; k++)
        if (pipe2(r->pipes[k], O_CLOEXEC) != 0) {
            snprintf(err, errlen, "pipe %u of %u: %s", k + 1, n, strerror(errno));
            lmb_ring_close(r);
            return -1;
        }
    return 0;
}

void lmb_ring_keep(struct lmb_ring *r, unsigned k)
{
    unsigned next = (k + 1) % r->n;

    for (unsigned i = 0; i < r->n; i++) {
        if (i != k && r->pipes[i][0] >= 0) {
            close(r->pipes[i][0]);
            r->pipes[i][0] = -1;
        }
        if (i != next && r->pipes[i][1] >= 0) {
            close(r->pipes[i][1]);
            r->pipes[i][1] = -1;
        }
    }
}

int lmb_ring_recv(const struct lmb_ring *r, unsigned k, int *token)
{
    return lmb_read_all(r->pipes[k][0], token, sizeof *token);
}

int lmb_ring_send(const struct lmb_ring *r, unsigned k, int token)
{
    return lmb_write_all(r->pipes[(k + 1) % r->n][1], &token, sizeof token);
}

void lmb_ring_leave(struct lmb_ring *r, unsigned k)
{
    int *in = &r->pipes[k][0], *out = &r->pipes[(k + 1) % r->n][1];

    if (*in >= 0)
        close(*in);
    if (*out >= 0)
        close(*out);
    *in = *out = -1;
}

void lmb_ring_close(struct lmb_ring *r)
{
    for (unsigned i = 0; r->pipes != NULL && i < r->n; i++)
        for (int e = 0; e < 2; e++)
            if (r->pipes[i][e] >= 0) {
                close(r->pipes[i][e]);
                r->pipes[i][e] = -1;
            }
    free(r->pipes);
    r->pipes = NULL;
}

double lmb_result_median(const struct lmb_result *r)
{
    struct lmb_stats s;

    if (r->status != LMB_OK || r->n == 0 || lmb_stats_compute(r->samples, r->n, &s) != 0)
        return -1;
    return s.median;
}

void lmb_ring_subtract(struct lmb_result *hop, double ovr_ns)
{
    lmb_result_subtract(hop, ovr_ns, "a hop", "the same work without a context switch",
                        "the switch is not measurably longer than the work around it");
}
