// SPDX-License-Identifier: MIT
/* lat_io_uring: the latency of one io_uring request, submission to completion.
 *
 * One operation: fill one submission entry (an IORING_OP_NOP, or an
 * IORING_OP_READ of 4 KiB at offset 0 of a file already in the page cache),
 * one io_uring_enter(to_submit 1, min_complete 1, IORING_ENTER_GETEVENTS), and
 * reap its completion entry, checking its result. The ring (8 entries, no
 * SQPOLL, no registered files or buffers) is our own code over the raw system
 * calls (src/lib/uring.c). Kept out of the timing: setting up and mapping the
 * ring (per copy, in init), making the file (a temporary directory in dir),
 * opening it and one untimed read that makes sure it is cached.
 *
 * Skipped, with the reason, in a build without <linux/io_uring.h> and where
 * the kernel refuses io_uring_setup (no io_uring, seccomp, the sysctl
 * kernel.io_uring_disabled), or does not know IORING_OP_READ (before 5.6). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/files.h"
#include "lib/uring.h"

#define READ_BYTES 4096u
#define RING_ENTRIES 8u

enum { READS_FILE = 1 };

struct uring_state {
    struct lmb_uring ring;
    char path[4200];     /* the file read */
    int fd;
    void *buf;           /* READ_BYTES, page-aligned */
};

static void run_nop(uint64_t n, void *s)
{
    struct uring_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        int r = lmb_uring_nop(&st->ring);
        if (r < 0)
            lmb_abort_copy("io_uring nop: %s", strerror(-r));
    }
}

static void run_read(uint64_t n, void *s)
{
    struct uring_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        int r = lmb_uring_read(&st->ring, st->fd, st->buf, READ_BYTES, 0);
        if (r != (int)READ_BYTES)
            lmb_abort_copy("io_uring read of %s: %s", st->path,
                           r < 0 ? strerror(-r) : "a short read");
    }
}

static const struct lmb_variant variants[] = {
    { "nop", "an IORING_OP_NOP, submitted and waited for in one io_uring_enter()", run_nop,
      "io_uring nop", 0 },
    { "read", "the same with an IORING_OP_READ of 4 KiB of a cached file", run_read,
      "io_uring 4k read", READS_FILE },
};

static void uring_cleanup(void *s)
{
    struct uring_state *st = s;

    lmb_uring_close(&st->ring);
    if (st->fd >= 0)
        close(st->fd);
    st->fd = -1;
    free(st->buf);
    st->buf = NULL;
}

static int uring_init(void *s, char *err, size_t errlen)
{
    struct uring_state *st = s;
    int e, r;

    st->buf = NULL;
    if (lmb_uring_open(&st->ring, RING_ENTRIES, &e, err, errlen) != 0)
        return -1;
    if (st->path[0] == '\0')
        return 0;
    st->fd = open(st->path, O_RDONLY | O_CLOEXEC);
    if (st->fd < 0) {
        snprintf(err, errlen, "open %s: %s", st->path, strerror(errno));
        goto fail;
    }
    if (posix_memalign(&st->buf, 4096, READ_BYTES) != 0) {
        st->buf = NULL;
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    r = lmb_uring_read(&st->ring, st->fd, st->buf, READ_BYTES, 0);
    if (r != (int)READ_BYTES) {
        snprintf(err, errlen, "io_uring read of %s: %s", st->path,
                 r < 0 ? strerror(-r) : "a short read");
        goto fail;
    }
    return 0;
fail:
    uring_cleanup(st);
    return -1;
}

/* Makes the file to read in a new temporary directory in dir: READ_BYTES
 * bytes, just written, so in the page cache. */
static int make_file(const char *dir, char *root, size_t rootlen, char *path, size_t pathlen,
                     char *err, size_t errlen)
{
    unsigned char data[READ_BYTES];
    int fd;

    if (lmb_check_dir(dir, err, errlen) != 0)
        return -1;
    if (lmb_tmpdir(dir, "lmbench-uring", root, rootlen) != 0) {
        snprintf(err, errlen, "cannot create a directory in %s: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(path, pathlen, "%s/data", root);
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 7u + 1u);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "create %s: %s", path, strerror(errno));
        return -1;
    }
    if (lmb_write_all(fd, data, sizeof data) != 0) {
        snprintf(err, errlen, "write %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        snprintf(err, errlen, "close %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* One request of the variant on a ring of its own, before measuring: 0 when
 * it works, else -1 with the status (skipped where the kernel refuses,
 * failed otherwise) and the reason in err. */
static int probe(const char *path, enum lmb_status *status, char *err, size_t errlen)
{
    struct lmb_uring u;
    void *buf = NULL;
    int e, r, fd = -1;

    if (lmb_uring_open(&u, RING_ENTRIES, &e, err, errlen) != 0) {
        *status = (e == ENOSYS || e == EPERM || e == EACCES) ? LMB_SKIPPED : LMB_FAILED;
        return -1;
    }
    *status = LMB_FAILED;
    if (path == NULL) {
        r = lmb_uring_nop(&u);
        if (r < 0)
            snprintf(err, errlen, "io_uring nop: %s", strerror(-r));
    } else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
        r = -1;
        snprintf(err, errlen, "open %s: %s", path, strerror(errno));
    } else if (posix_memalign(&buf, 4096, READ_BYTES) != 0) {
        r = -1;
        buf = NULL;
        snprintf(err, errlen, "out of memory");
    } else {
        r = lmb_uring_read(&u, fd, buf, READ_BYTES, 0);
        if (r == -EINVAL) {
            /* What a kernel before 5.6 answers to an opcode it does not know. */
            *status = LMB_SKIPPED;
            snprintf(err, errlen, "io_uring read: %s (a kernel without IORING_OP_READ, "
                                  "which came in Linux 5.6)", strerror(EINVAL));
        } else if (r != (int)READ_BYTES) {
            snprintf(err, errlen, "io_uring read of %s: %s", path,
                     r < 0 ? strerror(-r) : "a short read");
            r = -1;
        }
    }
    free(buf);
    if (fd >= 0)
        close(fd);
    lmb_uring_close(&u);
    return r < 0 ? -1 : 0;
}

static int lat_io_uring_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v;
    struct uring_state st = { .fd = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    enum lmb_status status;
    const char *dir = NULL;
    char root[4096] = "", err[9000], q[LMB_QUOTE_BUF];

    if (argc < 1)
        return lmb_usage_error(ctx, "which operation?");
    if (argc > 2)
        return lmb_usage_error(ctx, "too many arguments");
    v = lmb_find_variant(ctx->bench, argv[0]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown operation '%s'", lmb_quote(argv[0], q, sizeof q));

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    rec.compat = "new: lmbench 3 has no io_uring benchmark";
    snprintf(rec.label, sizeof rec.label, "%s", v->label);

    if (v->flags & READS_FILE) {
        if (argc == 2) {
            dir = argv[1];
        } else {
            dir = getenv("TMPDIR");
            if (dir == NULL || *dir == '\0')
                dir = access("/var/tmp", W_OK | X_OK) == 0 ? "/var/tmp" : "/tmp";
        }
        lmb_record_param_int(&rec, "bytes", READ_BYTES);
        lmb_record_param_str(&rec, "dir", dir);
    } else if (argc == 2) {
        lmb_report_warn(&ctx->report, "%s reads no file; '%s' ignored", v->name,
                        lmb_quote(argv[1], q, sizeof q));
    }

    /* A kernel that refuses io_uring is told apart before making any file. */
    if (probe(NULL, &status, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, status, "%s", err);
    if (dir != NULL) {
        if (make_file(dir, root, sizeof root, st.path, sizeof st.path, err, sizeof err) != 0) {
            if (root[0])
                lmb_tmpdir_remove(root);
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
        }
        if (probe(st.path, &status, err, sizeof err) != 0) {
            lmb_tmpdir_remove(root);
            return lmb_report_unmeasured(ctx, &rec, status, "%s", err);
        }
    }

    t = (struct lmb_timed){
        .init = uring_init,
        .run = v->run,
        .cleanup = uring_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    if (root[0])
        lmb_tmpdir_remove(root);
    return LMB_EXIT_OK;
}

static const char *supported(void)
{
    return lmb_uring_built() ? NULL : LMB_URING_NOT_BUILT;
}

const struct lmb_bench lmb_bench_lat_io_uring = {
    .name = "lat_io_uring",
    .summary = "Latency of one io_uring request, submission to completion",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "{variants} [dir]",
    .help = "Submits one request to an io_uring of its own (raw system calls, no\n"
            "liburing), waits for it in the same io_uring_enter() and reaps its\n"
            "completion; prints microseconds per request. read reads 4 KiB of a file\n"
            "made in a temporary directory in dir (default $TMPDIR, else /var/tmp) and\n"
            "already in the page cache. Skipped (exit 3), with the reason, where the\n"
            "kernel or a seccomp filter refuses io_uring.\n",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .supported = supported,
    .main = lat_io_uring_main,
};
