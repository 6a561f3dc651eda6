// SPDX-License-Identifier: MIT
/* bw_file_rd: the bandwidth of reading a file with read().
 *
 * One operation: reading the first `size` bytes of the file in 64 KiB blocks
 * and summing each block as it arrives (so the data is used, as a program
 * would); io_only reads with pread() from a descriptor opened before timing,
 * open2close also opens and closes the file every time. Kept out of the
 * timing: checking the file, -C's copies, the buffer. The file is read from the
 * page cache after the first pass: this is re-read bandwidth. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/files.h"

#define XFER (64u * 1024u)

enum { OPEN2CLOSE = 1 };

struct rd_state {
    struct lmb_input *in;
    uint64_t size;
    char pathbuf[4200];
    const char *path;
    int fd;
    char *buf;
    uint64_t sink;
};

/* Reads size bytes from fd, from offset 0 (pread) or from where it is (read). */
static void read_all(struct rd_state *st, int fd, bool positioned)
{
    uint64_t off = 0, sum = 0;

    while (off < st->size) {
        size_t want = st->size - off < XFER ? (size_t)(st->size - off) : XFER;
        ssize_t r = positioned ? pread(fd, st->buf, want, (off_t)off) : read(fd, st->buf, want);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            lmb_abort_copy("read %s: %s", st->path, strerror(errno));
        if (r == 0)
            lmb_abort_copy("%s ended after %llu bytes of %llu", st->path,
                           (unsigned long long)off, (unsigned long long)st->size);
        sum += lmb_sum_bytes(st->buf, (size_t)r);
        off += (uint64_t)r;
    }
    st->sink += sum;
}

static void run_io_only(uint64_t n, void *s)
{
    struct rd_state *st = s;

    for (uint64_t i = 0; i < n; i++)
        read_all(st, st->fd, true);
}

static void run_open2close(uint64_t n, void *s)
{
    struct rd_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        int fd = open(st->path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            lmb_abort_copy("open %s: %s", st->path, strerror(errno));
        read_all(st, fd, false);
        close(fd);
    }
}

static const struct lmb_variant variants[] = {
    { "io_only", "pread() of the file, opened once before timing", run_io_only, NULL, 0 },
    { "open2close", "open(), read() of the file, close(), all timed", run_open2close, NULL,
      OPEN2CLOSE },
};

static int rd_init(void *s, char *err, size_t errlen)
{
    struct rd_state *st = s;

    st->fd = -1;
    st->path = lmb_input_take(st->in, st->pathbuf, sizeof st->pathbuf);
    st->buf = malloc(XFER);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    st->fd = open(st->path, O_RDONLY | O_CLOEXEC);
    if (st->fd < 0) {
        snprintf(err, errlen, "open %s: %s", st->path, strerror(errno));
        return -1;
    }
    return 0;
}

static void rd_cleanup(void *s)
{
    struct rd_state *st = s;

    if (st->fd >= 0)
        close(st->fd);
    st->fd = -1;
    free(st->buf);
    st->buf = NULL;
}

static const struct lmb_optdef options[] = {
    { 'C', NULL, "each copy (-P) reads its own copy of the file, made beside it" },
};

static void bw_file_rd_setup(void *s, uint64_t size, struct lmb_input *in)
{
    struct rd_state *st = s;

    st->in = in;
    st->size = size;
}

static int bw_file_rd_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct rd_state st = { .fd = -1 };
    struct lmb_timed t = { .init = rd_init, .cleanup = rd_cleanup, .state = &st };

    if (lmb_swapped_size_error(ctx, argc, argv) != 0)
        return LMB_EXIT_USAGE;
    return lmb_file_bw_main(ctx, argc, argv, "io_only or open2close", false, &t, bw_file_rd_setup);
}

const struct lmb_bench lmb_bench_bw_file_rd = {
    .name = "bw_file_rd",
    .summary = "Bandwidth of reading a file with read()",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "size {variants} file",
    .help = "Reads the first size bytes of file in 64 KiB blocks, summing each block, and\n"
            "prints the size in MB and the bandwidth in MB/s (10^6 bytes). The file must\n"
            "hold at least size bytes; after the first pass it is read from the page\n"
            "cache.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = bw_file_rd_main,
};
