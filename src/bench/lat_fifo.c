// SPDX-License-Identifier: MIT
/* lat_fifo: the latency of a round trip through two named pipes (FIFOs).
 *
 * One operation: one round trip of a 4-byte token: the copy writes it into one
 * FIFO, its partner (another process, or a thread with --threads) reads it and writes it into the other,
 * the copy reads it back. As lat_pipe, with pipes that have names in the file
 * system. Kept out of the timing: making the FIFOs (in a temporary directory
 * removed at the end, also on signals), opening them, starting, placing and
 * stopping the partner. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/files.h"
#include "lib/partner.h"

struct fifo_state {
    const char *dir;
    char to_partner[4200], to_copy[4200];   /* FIFO paths of this copy */
    int wfd, rfd;                          /* the copy's ends */
    int hold;                              /* a writer of to_copy until the partner is one */
    int token;
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void run_fifo(uint64_t n, void *s)
{
    struct fifo_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        if (lmb_write_all(st->wfd, &st->token, sizeof st->token) != 0)
            lmb_partner_gone("write to the partner's FIFO");
        if (lmb_read_all(st->rfd, &st->token, sizeof st->token) != 0)
            lmb_partner_gone("read from the partner's FIFO");
        st->token++;
        /* The partner has its write end open now: from here on, end of file
         * means it has gone. (Once, in the first, calibrating, run.) */
        if (st->hold >= 0) {
            close(st->hold);
            st->hold = -1;
        }
    }
}

static int fifo_partner(void *s, const struct lmb_partner_ctx *pc)
{
    struct fifo_state *st = s;
    int token, rc, rfd, wfd;

    if (!pc->thread) {
        close_fd(&st->wfd);
        close_fd(&st->rfd);
        close_fd(&st->hold);
    }
    lmb_ignore_sigpipe();
    /* The copy holds its FIFO open for reading and writing, so neither open
     * waits. */
    rfd = open(st->to_partner, O_RDONLY | O_CLOEXEC);
    wfd = rfd < 0 ? -1 : open(st->to_copy, O_WRONLY | O_CLOEXEC);
    if (rfd < 0 || wfd < 0) {
        snprintf(pc->err, pc->errlen, "open a FIFO: %s", strerror(errno));
        return -1;
    }
    while ((rc = lmb_read_all(rfd, &token, sizeof token)) == 0)
        if (lmb_write_all(wfd, &token, sizeof token) != 0) {
            rc = errno == EPIPE ? 1 : -1;
            break;
        }
    if (rc < 0)
        snprintf(pc->err, pc->errlen, "FIFO: %s", strerror(errno));
    close(rfd);
    close(wfd);
    return rc < 0 ? -1 : 0;
}

static int fifo_init(void *s, char *err, size_t errlen)
{
    struct fifo_state *st = s;
    unsigned id = lmb_copy_index();
    int fl;

    st->wfd = st->rfd = st->hold = -1;
    snprintf(st->to_partner, sizeof st->to_partner, "%s/%u.to-partner", st->dir, id);
    snprintf(st->to_copy, sizeof st->to_copy, "%s/%u.to-copy", st->dir, id);
    if (mkfifo(st->to_partner, 0600) != 0 || mkfifo(st->to_copy, 0600) != 0) {
        snprintf(err, errlen, "mkfifo in %s: %s", st->dir, strerror(errno));
        return -1;
    }
    /* The copy's write end is opened for reading too, so that opening it does
     * not wait for the partner (which sees end of file when the copy closes it).
     * Its read end is opened without waiting, then made blocking; until the
     * partner has opened the other end, the copy holds a writer of it too, or
     * a read would see end of file. */
    st->wfd = open(st->to_partner, O_RDWR | O_CLOEXEC);
    st->rfd = open(st->to_copy, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    st->hold = open(st->to_copy, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (st->wfd < 0 || st->rfd < 0 || st->hold < 0 || (fl = fcntl(st->rfd, F_GETFL)) < 0 ||
        fcntl(st->rfd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        snprintf(err, errlen, "open a FIFO: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void fifo_cleanup(void *s)
{
    struct fifo_state *st = s;

    close_fd(&st->wfd);
    close_fd(&st->rfd);
    close_fd(&st->hold);
    unlink(st->to_partner);
    unlink(st->to_copy);
}

static int lat_fifo_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct fifo_state st = { .token = 1 };
    struct lmb_record rec;
    struct lmb_result res;
    char dir[4096];
    struct lmb_timed t = {
        .init = fifo_init,
        .run = run_fifo,
        .cleanup = fifo_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
        .partners = 1,
        .partner = fifo_partner,
    };

    (void)argv;
    if (argc > 0)
        return lmb_usage_error(ctx, "no operands expected");
    lmb_record_init(&rec, ctx->bench->name, "null", LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "Fifo latency");
    if (lmb_tmpdir(NULL, "lmbench-fifo", dir, sizeof dir) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "cannot create a temporary directory: %s",
                                     strerror(errno));
    st.dir = dir;
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    lmb_tmpdir_remove(dir);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_fifo = {
    .name = "lat_fifo",
    .summary = "Latency of a round trip through two named pipes",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN | LMB_USE_THREADS,
    .args = "",
    .help = "Passes a token to a partner process through one FIFO and back through\n"
            "another (made in a temporary directory in TMPDIR), and prints the\n"
            "microseconds of one round trip.\n",
    .main = lat_fifo_main,
};
