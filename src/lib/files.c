// SPDX-License-Identifier: MIT
/* Files for the file and VM benchmarks: input checks, -C clones, summing data
 * read, whole reads and writes, descriptor limits. */
#include "lib/files.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/mem.h"
#include "lib/sizes.h"
#include "lib/text.h"

int64_t lmb_fd_size(int fd)
{
    struct stat sb;

    if (fstat(fd, &sb) != 0)
        return -1;
    if (S_ISREG(sb.st_mode))
        return (int64_t)sb.st_size;
    if (S_ISBLK(sb.st_mode)) {
        uint64_t bytes;
        if (ioctl(fd, BLKGETSIZE64, &bytes) != 0)
            return -1;
        return (int64_t)bytes;
    }
    return -1;
}

int lmb_check_input(const char *path, uint64_t need, bool allow_dev, uint64_t *size,
                    char *err, size_t errlen)
{
    struct stat sb;
    char q[300];
    int fd;
    int64_t sz;

    lmb_quote(path, q, sizeof q);
    if (stat(path, &sb) != 0) {
        snprintf(err, errlen, "'%s': %s", q, strerror(errno));
        return -1;
    }
    if (S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "'%s' is a directory, not a file", q);
        return -1;
    }
    if (!S_ISREG(sb.st_mode) && !(allow_dev && S_ISBLK(sb.st_mode))) {
        snprintf(err, errlen, "'%s' is not a regular file%s", q, allow_dev ? " or a block device" : "");
        return -1;
    }
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s' for reading: %s", q, strerror(errno));
        return -1;
    }
    sz = lmb_fd_size(fd);
    close(fd);
    if (sz < 0) {
        snprintf(err, errlen, "cannot tell the size of '%s'", q);
        return -1;
    }
    if ((uint64_t)sz < need) {
        snprintf(err, errlen, "'%s' holds %lld bytes, fewer than the %llu asked for", q,
                 (long long)sz, (unsigned long long)need);
        return -1;
    }
    if (size != NULL)
        *size = (uint64_t)sz;
    return 0;
}

int lmb_check_dir(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    char q[300];

    lmb_quote(path, q, sizeof q);
    if (stat(path, &sb) != 0) {
        snprintf(err, errlen, "'%s': %s", q, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "'%s' is not a directory", q);
        return -1;
    }
    if (access(path, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "cannot create files in '%s': %s", q, strerror(errno));
        return -1;
    }
    return 0;
}

void lmb_clone_path(const char *dir, unsigned i, char *out, size_t len)
{
    snprintf(out, len, "%s/%u", dir, i);
}

/* Copies the first `bytes` bytes of in to a new file at out. */
static int copy_file(int in, const char *out, uint64_t bytes, char *buf, size_t buflen,
                     char *err, size_t errlen)
{
    int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    uint64_t done = 0;

    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", out, strerror(errno));
        return -1;
    }
    while (done < bytes) {
        size_t want = bytes - done < buflen ? (size_t)(bytes - done) : buflen;
        ssize_t r = pread(in, buf, want, (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            snprintf(err, errlen, "reading the file to copy: %s", r < 0 ? strerror(errno) : "it ended early");
            close(fd);
            return -1;
        }
        for (ssize_t w = 0; w < r;) {
            ssize_t k = write(fd, buf + w, (size_t)(r - w));
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                snprintf(err, errlen, "writing %s: %s", out, k < 0 ? strerror(errno) : "no progress");
                close(fd);
                return -1;
            }
            w += k;
        }
        done += (uint64_t)r;
    }
    if (close(fd) != 0) {
        snprintf(err, errlen, "writing %s: %s", out, strerror(errno));
        return -1;
    }
    return 0;
}

int lmb_clones_make(const char *path, uint64_t bytes, unsigned count, char *dir, size_t dirlen,
                    char *err, size_t errlen)
{
    char parent[4096], q[300];
    size_t buflen = 1 << 20;
    char *buf;
    int in, rc = 0;

    snprintf(parent, sizeof parent, "%s", path);
    if (lmb_tmpdir(dirname(parent), "lmbench-clones", dir, dirlen) != 0) {
        snprintf(err, errlen, "-C: cannot create a directory beside '%s' for its copies: %s",
                 lmb_quote(path, q, sizeof q), strerror(errno));
        return -1;
    }
    in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", lmb_quote(path, q, sizeof q), strerror(errno));
        lmb_tmpdir_remove(dir);
        return -1;
    }
    /* On tmpfs or ramfs the copies are memory that cannot be reclaimed (without
     * swap): the memory guard decides, not the OOM killer. */
    struct statfs fs;
    if (statfs(dir, &fs) == 0 && ((unsigned long)fs.f_type == 0x01021994ul /* tmpfs */ ||
                                  (unsigned long)fs.f_type == 0x858458f6ul /* ramfs */) &&
        lmb_memory_fits(bytes, count, q, sizeof q) != 0) {
        char qp[LMB_QUOTE_BUF];
        snprintf(err, errlen, "-C: %u copies of '%s' in memory (tmpfs or ramfs): %s", count,
                 lmb_quote(path, qp, sizeof qp), q);
        close(in);
        lmb_tmpdir_remove(dir);
        return -1;
    }
    buf = malloc(buflen);
    if (buf == NULL) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (unsigned i = 0; rc == 0 && i < count; i++) {
        char out[4200];
        lmb_clone_path(dir, i, out, sizeof out);
        rc = copy_file(in, out, bytes, buf, buflen, err, errlen);
    }
    free(buf);
    close(in);
    if (rc != 0)
        lmb_tmpdir_remove(dir);
    return rc;
}

uint64_t lmb_sum_bytes(const void *p, size_t len)
{
    /* Sixteen-byte vectors, four accumulators: loads independent of each other,
     * fast enough to follow the memory (scalar adds are not). */
    typedef uint64_t v2 __attribute__((vector_size(16)));
    const unsigned char *b = p;
    v2 a0 = { 0, 0 }, a1 = { 0, 0 }, a2 = { 0, 0 }, a3 = { 0, 0 };
    uint64_t sum = 0;
    size_t i = 0;

    for (; i + 64 <= len; i += 64) {
        v2 w[4];
        memcpy(w, b + i, sizeof w);
        a0 += w[0];
        a1 += w[1];
        a2 += w[2];
        a3 += w[3];
    }
    a0 += a1 + a2 + a3;
    sum = a0[0] + a0[1];
    for (; i < len; i++)
        sum += b[i];
    return sum;
}

int lmb_input_prepare(struct lmb_input *in, const char *path, uint64_t need, bool clone,
                      uint64_t clone_bytes, unsigned copies, uint64_t *size, char *err,
                      size_t errlen)
{
    memset(in, 0, sizeof *in);
    in->path = path;
    if (lmb_check_input(path, need, false, size, err, errlen) != 0)
        return -1;
    if (clone) {
        if (lmb_clones_make(path, clone_bytes, copies, in->clonedir, sizeof in->clonedir, err,
                            errlen) != 0)
            return -1;
        in->cloned = true;
    }
    return 0;
}

const char *lmb_input_take(struct lmb_input *in, char *buf, size_t len)
{
    if (!in->cloned)
        return in->path;
    lmb_clone_path(in->clonedir, lmb_copy_index(), buf, len);
    return buf;
}

void lmb_input_release(struct lmb_input *in)
{
    if (in->cloned)
        lmb_tmpdir_remove(in->clonedir);
    in->cloned = false;
}

int lmb_read_all(int fd, void *buf, size_t len)
{
    char *p = buf;

    while (len > 0) {
        ssize_t r = read(fd, p, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return 1;
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

int lmb_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;

    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        if (w == 0) {
            errno = EIO;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int lmb_want_fds(uint64_t need, char *err, size_t errlen)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)need) {
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)need) {
            snprintf(err, errlen, "%llu descriptors needed, the limit is %llu (ulimit -n)",
                     (unsigned long long)need, (unsigned long long)rl.rlim_max);
            return -1;
        }
        rl.rlim_cur = (rlim_t)need;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
            snprintf(err, errlen, "setrlimit(RLIMIT_NOFILE, %llu): %s", (unsigned long long)need,
                     strerror(errno));
            return -1;
        }
    }
    return 0;
}

int lmb_file_bw_main(struct lmb_ctx *ctx, int argc, char **argv, const char *modes, bool mapped,
                     struct lmb_timed *t, void (*setup)(void *state, uint64_t size,
                                                        struct lmb_input *in))
{
    const struct lmb_variant *v;
    struct lmb_input in;
    struct lmb_record rec;
    struct lmb_result res;
    uint64_t size;
    char err[600], q[LMB_QUOTE_BUF];

    if (argc < 3)
        return lmb_usage_error(ctx, "needs a size, %s, and a file", modes);
    if (argc > 3)
        return lmb_usage_error(ctx, "too many arguments");
    if (lmb_parse_size(argv[0], &size, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "%s", err);
    if (size == 0)
        return lmb_usage_error(ctx, "the size must be at least 1 byte");
    v = lmb_find_variant(ctx->bench, argv[1]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown mode '%s'", lmb_quote(argv[1], q, sizeof q));

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_MBS);
    lmb_record_param_int(&rec, "size_bytes", (long long)size);
    lmb_record_param_str(&rec, "file", argv[2]);
    rec.classic = LMB_CLASSIC_SIZE_MBS;
    rec.classic_x = (double)size;
    if (mapped && size > SIZE_MAX / 2)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "%llu bytes cannot be mapped in this address space",
                                     (unsigned long long)size);
    /* A mapping read through holds a page-table entry (8 bytes) a page that the
     * kernel cannot reclaim while it is mapped: per copy, under the guard. */
    if (mapped && lmb_check_input(argv[2], size, false, NULL, err, sizeof err) == 0 &&
        lmb_memory_fits((size / (uint64_t)sysconf(_SC_PAGESIZE) + 1) * 8, ctx->opt.parallel, err,
                        sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    if (lmb_input_prepare(&in, argv[2], size, lmb_opt_given(ctx, 'C'), size, ctx->opt.parallel,
                          NULL, err, sizeof err) != 0)
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    setup(t->state, size, &in);
    t->run = v->run;
    t->metric = LMB_METRIC_BANDWIDTH;
    t->per_iter = (double)size;
    lmb_measure(ctx, t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    lmb_input_release(&in);
    return LMB_EXIT_OK;
}

size_t lmb_mmap_touches(uint64_t size, bool whole, size_t *step)
{
    uint64_t end = whole ? size : size / 10;

    *step = whole ? 10 * (size_t)LMB_MMAP_STEP : (size_t)LMB_MMAP_STEP;
    if (end == 0)
        return 1;
    return (size_t)((end + *step - 1) / *step);
}

void lmb_seek_walk_init(struct lmb_seek_walk *w, uint64_t size, uint64_t distance,
                        uint64_t block)
{
    *w = (struct lmb_seek_walk){ .size = size / block * block, .distance = distance,
                                 .block = block };
}

/* The last k of lap j: its offset plus k * distance still holds a block. */
static uint64_t walk_kmax(const struct lmb_seek_walk *w, uint64_t j)
{
    return (w->size - w->block - j * w->block) / w->distance;
}

uint64_t lmb_seek_walk_next(struct lmb_seek_walk *w)
{
    uint64_t laps = w->distance / w->block;

    if (!w->started) {
        w->started = true;
        w->lap = w->k = 0;
    } else if (laps <= 1) {
        w->k = w->k < walk_kmax(w, 0) ? w->k + 1 : 0;
    } else if (w->lap % 2 == 0) {
        /* Up; at the top, down the next lap from one step below: a move of
         * distance - block. */
        if (w->k < walk_kmax(w, w->lap)) {
            w->k++;
        } else if (++w->lap == laps) {
            w->lap = w->k = 0;
        } else {
            uint64_t a = walk_kmax(w, w->lap), b = walk_kmax(w, w->lap - 1) - 1;
            w->k = a < b ? a : b;
        }
    } else {
        /* Down; at the bottom, up the next lap from its second position: a
         * move of distance + block. */
        if (w->k > 0) {
            w->k--;
        } else if (++w->lap == laps) {
            w->lap = w->k = 0;
        } else {
            w->k = 1;
        }
    }
    return w->lap * w->block + w->k * w->distance;
}
