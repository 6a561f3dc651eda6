// SPDX-License-Identifier: MIT
/* lmdd: dd(1) with a clock: copies blocks from an input to an output and prints
 * the bandwidth.
 *
 * One operation: one whole transfer, as one run of dd would do it: open the
 * input (unless internal) and the output (unless internal; truncated unless
 * seek= is given), move count blocks of bs bytes with read() and write(),
 * fsync() the output when fsync=1, close both. "internal" as the input is a
 * buffer of bytes, as the output a sink that reads (sums) each block and drops
 * it. Kept out of the
 * timing: checking the keys and files, the buffer.
 *
 * What if= and of= may name, the same on both sides: a regular file (of= one
 * that does not exist yet is created), a block device, or a character device
 * that is ready at once (/dev/zero, /dev/null, /dev/full, /dev/urandom; a
 * terminal with nothing typed is not). A FIFO, a socket or a directory is
 * refused before anything is opened for good: a FIFO would wait for a partner.
 * Files are opened without blocking (O_NONBLOCK), so one that turns into a
 * FIFO after the check fails instead of waiting. The block
 * buffer (bs= bytes) must fit in the memory this process may use
 * (lmb_memory_fits) or the command is refused, never left to the OOM killer. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/text.h"
#include "lib/files.h"
#include "lib/mem.h"
#include "lib/sizes.h"

#define DEFAULT_BS 8192
#define MAX_BS (1ULL << 30)

struct dd_state {
    const char *in, *out;       /* paths, or NULL for internal */
    uint64_t bs, count;         /* blocks; the last may be short when reading to EOF */
    uint64_t bytes;             /* per transfer */
    uint64_t skip, seek;        /* blocks */
    bool fsync_out;
    char *buf;
    uint64_t sink;
    char qin[LMB_QUOTE_BUF], qout[LMB_QUOTE_BUF];   /* the paths, for messages */
};

/* Why lmdd does not read (output false) or write path, or NULL when it can: a
 * message starting with the quoted path in err. A missing output is fine (it
 * is created); a character device must be ready at once. */
static const char *dd_refusal(const char *path, bool output, char *err, size_t errlen)
{
    struct stat sb;
    char q[LMB_QUOTE_BUF];
    const char *kind = NULL;

    lmb_quote(path, q, sizeof q);
    if (stat(path, &sb) != 0) {
        if (output && errno == ENOENT)
            return NULL;
        snprintf(err, errlen, "'%s': %s", q, strerror(errno));
        return err;
    }
    if (S_ISDIR(sb.st_mode))
        kind = "a directory";
    else if (S_ISFIFO(sb.st_mode))
        kind = "a FIFO";
    else if (S_ISSOCK(sb.st_mode))
        kind = "a socket";
    else if (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode) && !S_ISCHR(sb.st_mode))
        kind = "not a file";
    if (kind != NULL) {
        snprintf(err, errlen, "'%s' is %s, not a regular file or a device", q, kind);
        return err;
    }
    if (S_ISCHR(sb.st_mode)) {
        int fd = open(path, (output ? O_WRONLY : O_RDONLY) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        struct pollfd pfd = { .fd = fd, .events = output ? POLLOUT : POLLIN };
        int r;

        if (fd < 0) {
            snprintf(err, errlen, "cannot open '%s' for %s: %s", q, output ? "writing" : "reading",
                     strerror(errno));
            return err;
        }
        do {
            r = poll(&pfd, 1, 0);
        } while (r < 0 && errno == EINTR);
        close(fd);
        if (r != 1 || (pfd.revents & (output ? POLLOUT : POLLIN)) == 0) {
            snprintf(err, errlen, "'%s' is a character device that is not ready for %s at once "
                     "(lmdd does not wait for one)", q, output ? "writing" : "reading");
            return err;
        }
    }
    return NULL;
}

/* open() that never waits (timed, as dd's own open is: one system call, as
 * before): O_NONBLOCK, which regular files and block devices ignore, so that
 * a FIFO put in place after the check fails (no reader: ENXIO; no writer: end
 * of file at once) instead of waiting, and a character device that is not
 * ready fails its read or write (EAGAIN). Aborts the copy on failure. */
static int dd_open(const char *path, const char *q, int flags)
{
    int fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);

    if (fd < 0)
        lmb_abort_copy("open '%s': %s", q, strerror(errno));
    return fd;
}

static void xfer(struct dd_state *st)
{
    int in = -1, out = -1;
    uint64_t left = st->bytes;

    if (st->in != NULL) {
        in = dd_open(st->in, st->qin, O_RDONLY);
        if (st->skip && lseek(in, (off_t)(st->skip * st->bs), SEEK_SET) < 0)
            lmb_abort_copy("lseek '%s': %s", st->qin, strerror(errno));
    }
    if (st->out != NULL) {
        out = dd_open(st->out, st->qout, O_WRONLY | O_CREAT | (st->seek ? 0 : O_TRUNC));
        if (st->seek && lseek(out, (off_t)(st->seek * st->bs), SEEK_SET) < 0)
            lmb_abort_copy("lseek '%s': %s", st->qout, strerror(errno));
    }
    while (left > 0) {
        size_t want = left < st->bs ? (size_t)left : (size_t)st->bs, got = want;
        if (in >= 0) {
            got = 0;
            while (got < want) {
                ssize_t r = read(in, st->buf + got, want - got);
                if (r < 0 && errno == EINTR)
                    continue;
                if (r < 0)
                    lmb_abort_copy("read '%s': %s", st->qin, strerror(errno));
                if (r == 0)
                    lmb_abort_copy("'%s' ended after %" PRIu64 " of the %" PRIu64 " bytes asked "
                                   "for", st->qin, st->bytes - left + got, st->bytes);
                got += (size_t)r;
            }
        }
        if (out >= 0) {
            for (size_t w = 0; w < got;) {
                ssize_t r = write(out, st->buf + w, got - w);
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0)
                    lmb_abort_copy("write '%s': %s", st->qout,
                                   r < 0 ? strerror(errno) : "no progress");
                w += (size_t)r;
            }
        } else {
            st->sink += lmb_sum_bytes(st->buf, got);
        }
        left -= got;
    }
    if (out >= 0) {
        if (st->fsync_out && fsync(out) != 0)
            lmb_abort_copy("fsync '%s': %s", st->qout, strerror(errno));
        if (close(out) != 0)
            lmb_abort_copy("close '%s': %s", st->qout, strerror(errno));
    }
    if (in >= 0)
        close(in);
}

static void run_dd(uint64_t n, void *s)
{
    for (uint64_t i = 0; i < n; i++)
        xfer(s);
}

static int dd_init(void *s, char *err, size_t errlen)
{
    struct dd_state *st = s;

    st->buf = malloc((size_t)st->bs);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory for a block of %" PRIu64 " bytes", st->bs);
        return -1;
    }
    for (uint64_t i = 0; i < st->bs; i++)
        st->buf[i] = (char)(i * 7 + 1);
    return 0;
}

static void dd_cleanup(void *s)
{
    struct dd_state *st = s;

    free(st->buf);
    st->buf = NULL;
}

static const char *const keys[] = { "if", "of", "bs", "count", "move", "skip", "seek", "fsync",
                                    "print", "label" };
enum { K_IF, K_OF, K_BS, K_COUNT, K_MOVE, K_SKIP, K_SEEK, K_FSYNC, K_PRINT, K_LABEL, NKEYS };

static int lmdd_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const char *val[NKEYS] = { 0 };
    struct dd_state st = { .bs = DEFAULT_BS };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    uint64_t print = LMB_LMDD_SENTENCE, fsync_v = 0, count = 0, move = 0, insize = 0;
    char err[600], q[300];

    for (int i = 0; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        size_t klen = eq ? (size_t)(eq - argv[i]) : 0;
        int k;
        for (k = 0; k < NKEYS; k++)
            if (eq && strlen(keys[k]) == klen && strncmp(argv[i], keys[k], klen) == 0)
                break;
        if (k == NKEYS)
            return lmb_usage_error(ctx, "unknown argument '%s' (expected key=value: if= of= bs= "
                                   "count= move= skip= seek= fsync= print= label=)",
                                   lmb_quote(argv[i], q, sizeof q));
        val[k] = eq + 1;
    }

    if (val[K_BS] && (lmb_parse_size(val[K_BS], &st.bs, err, sizeof err) != 0 || st.bs == 0 ||
                      st.bs > MAX_BS))
        return lmb_usage_error(ctx, "bs=: %s", st.bs == 0 || st.bs > MAX_BS ?
                               "from 1 byte to 1g" : err);
    if (val[K_COUNT] && (lmb_parse_size(val[K_COUNT], &count, err, sizeof err) != 0 || count == 0))
        return lmb_usage_error(ctx, "count=: %s", count == 0 ? "at least 1 block" : err);
    if (val[K_MOVE] && (lmb_parse_size(val[K_MOVE], &move, err, sizeof err) != 0 || move == 0))
        return lmb_usage_error(ctx, "move=: %s", move == 0 ? "at least 1 byte" : err);
    if (val[K_COUNT] && val[K_MOVE])
        return lmb_usage_error(ctx, "give count= or move=, not both");
    if (val[K_SKIP] && lmb_parse_size(val[K_SKIP], &st.skip, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "skip=: %s", err);
    if (val[K_SEEK] && lmb_parse_size(val[K_SEEK], &st.seek, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "seek=: %s", err);
    if (val[K_FSYNC] && lmb_parse_uint(val[K_FSYNC], 0, 1, &fsync_v, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "fsync=: %s", err);
    if (val[K_PRINT] && lmb_parse_uint(val[K_PRINT], 0, 3, &print, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "print=: %s", err);
    if ((st.skip && st.skip > INT64_MAX / st.bs) || (st.seek && st.seek > INT64_MAX / st.bs))
        return lmb_usage_error(ctx, "skip= or seek= is beyond any file");
    st.fsync_out = fsync_v != 0;
    st.in = val[K_IF] && strcmp(val[K_IF], "internal") != 0 ? val[K_IF] : NULL;
    st.out = val[K_OF] && strcmp(val[K_OF], "internal") != 0 ? val[K_OF] : NULL;
    if ((val[K_IF] && val[K_IF][0] == '\0') || (val[K_OF] && val[K_OF][0] == '\0'))
        return lmb_usage_error(ctx, "if= and of= need a file name (or internal)");
    if (st.skip && st.in == NULL)
        return lmb_usage_error(ctx, "skip= needs an input file");
    if (st.seek && st.out == NULL)
        return lmb_usage_error(ctx, "seek= needs an output file");
    if (st.fsync_out && st.out == NULL)
        return lmb_usage_error(ctx, "fsync=1 needs an output file");

    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_MBS);
    rec.classic = LMB_CLASSIC_LMDD;
    rec.classic_mode = (int)print;
    /* The label goes into the classic line whole, its control bytes escaped. */
    lmb_escape(val[K_LABEL] ? val[K_LABEL] : "", rec.label, sizeof rec.label);
    lmb_quote(st.in ? st.in : "", st.qin, sizeof st.qin);
    lmb_quote(st.out ? st.out : "", st.qout, sizeof st.qout);

    /* The bytes of one transfer. */
    if (val[K_COUNT]) {
        if (count > UINT64_MAX / st.bs)
            return lmb_usage_error(ctx, "count= times bs= does not fit in 64 bits");
        st.bytes = count * st.bs;
    } else if (val[K_MOVE]) {
        st.bytes = move;
    }
    if (st.in != NULL) {
        struct stat sb = { 0 };
        bool refused = dd_refusal(st.in, false, err, sizeof err) != NULL;
        if (!refused && stat(st.in, &sb) != 0) {
            snprintf(err, sizeof err, "'%s': %s", st.qin, strerror(errno));
            refused = true;
        }
        if (!refused && !S_ISCHR(sb.st_mode))
            refused = lmb_check_input(st.in, 0, true, &insize, err, sizeof err) != 0;
        if (refused) {
            lmb_record_param_int(&rec, "bytes", (long long)st.bytes);
            lmb_record_param_int(&rec, "block_bytes", (long long)st.bs);
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
        }
        /* A character device (/dev/zero) has no size: a count is needed. */
        if (S_ISCHR(sb.st_mode))
            insize = UINT64_MAX;
        uint64_t from = st.skip * st.bs, avail = insize == UINT64_MAX ? UINT64_MAX :
                        insize > from ? insize - from : 0;
        if (!val[K_COUNT] && !val[K_MOVE]) {
            if (insize == UINT64_MAX)
                return lmb_usage_error(ctx, "reading a device needs count= or move=");
            st.bytes = avail;
        }
        if (st.bytes > avail) {
            lmb_record_param_int(&rec, "bytes", (long long)st.bytes);
            lmb_record_param_int(&rec, "block_bytes", (long long)st.bs);
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                         "%s holds %" PRIu64 " bytes after skip=, fewer than the "
                                         "%" PRIu64 " asked for", lmb_quote(st.in, q, sizeof q),
                                         avail, st.bytes);
        }
    } else if (!val[K_COUNT] && !val[K_MOVE]) {
        return lmb_usage_error(ctx, "count= or move= is needed without an input file");
    }
    lmb_record_param_int(&rec, "bytes", (long long)st.bytes);
    lmb_record_param_int(&rec, "block_bytes", (long long)st.bs);
    rec.classic_x = (double)st.bytes;
    if (st.bytes == 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "nothing to move: '%s' is empty",
                                     lmb_quote(st.in, q, sizeof q));
    if (st.out != NULL && dd_refusal(st.out, true, err, sizeof err) != NULL)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    /* The block buffer, as bw_mem refuses a buffer that does not fit: exit 1. */
    if (lmb_memory_fits(st.bs, 1, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "the block (bs=%" PRIu64 " bytes) %s",
                                     st.bs, err);

    t = (struct lmb_timed){
        .init = dd_init,
        .run = run_dd,
        .cleanup = dd_cleanup,
        .state = &st,
        .metric = LMB_METRIC_BANDWIDTH,
        .per_iter = (double)st.bytes,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lmdd = {
    .name = "lmdd",
    .summary = "Move data like dd and print the bandwidth",
    .category = LMB_CAT_OS,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "[if=FILE|internal] [of=FILE|internal] [bs=SIZE] [count=N|move=SIZE] [skip=N] "
            "[seek=N] [fsync=0|1] [print=0-3] [label=TEXT]",
    .help = "Copies count blocks of bs bytes (or move bytes) from if to of, as dd does,\n"
            "each transfer from opening to closing timed, and prints the bandwidth.\n"
            "internal (the default for both) is a buffer in memory as the input and, as\n"
            "the output, a sink that reads each block and drops it. The output is\n"
            "truncated unless seek= is given. What it prints:\n"
            "print=0 \"X MB in S secs, B MB/sec\", 1 \"B MB/sec\", 2 \"S secs\", 3 \"K KB/sec\";\n"
            "label= goes before it. MB = 10^6 bytes, KB = 10^3.\n",
    .main = lmdd_main,
};
