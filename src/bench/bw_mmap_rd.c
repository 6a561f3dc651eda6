// SPDX-License-Identifier: MIT
/* bw_mmap_rd: the bandwidth of reading a file through a memory mapping.
 *
 * One operation: summing every byte of the first `size` bytes of the file
 * through a shared read-only mapping; mmap_only maps the file once before
 * timing, open2close also opens, maps, unmaps and closes it every time (and so
 * takes the page faults of a fresh mapping). Kept out of the timing: checking
 * the file, -C's copies, and for mmap_only the mapping itself. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/files.h"

enum { OPEN2CLOSE = 1 };

struct map_state {
    struct lmb_input *in;
    size_t size;
    char pathbuf[4200];
    const char *path;
    int fd;
    char *map;
    uint64_t sink;
};

static void run_mmap_only(uint64_t n, void *s)
{
    struct map_state *st = s;

    for (uint64_t i = 0; i < n; i++)
        st->sink += lmb_sum_bytes(st->map, st->size);
}

static void run_open2close(uint64_t n, void *s)
{
    struct map_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        int fd = open(st->path, O_RDONLY | O_CLOEXEC);
        void *p;
        if (fd < 0)
            lmb_abort_copy("open %s: %s", st->path, strerror(errno));
        p = mmap(NULL, st->size, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            lmb_abort_copy("mmap %s: %s", st->path, strerror(errno));
        st->sink += lmb_sum_bytes(p, st->size);
        munmap(p, st->size);
        close(fd);
    }
}

static const struct lmb_variant variants[] = {
    { "mmap_only", "read through a mapping made once before timing", run_mmap_only, NULL, 0 },
    { "open2close", "open(), mmap(), read, munmap(), close(), all timed", run_open2close, NULL,
      OPEN2CLOSE },
};

static int map_init(void *s, char *err, size_t errlen)
{
    struct map_state *st = s;

    st->fd = -1;
    st->map = NULL;
    st->path = lmb_input_take(st->in, st->pathbuf, sizeof st->pathbuf);
    st->fd = open(st->path, O_RDONLY | O_CLOEXEC);
    if (st->fd < 0) {
        snprintf(err, errlen, "open %s: %s", st->path, strerror(errno));
        return -1;
    }
    st->map = mmap(NULL, st->size, PROT_READ, MAP_SHARED, st->fd, 0);
    if (st->map == MAP_FAILED) {
        st->map = NULL;
        snprintf(err, errlen, "mmap %s: %s", st->path, strerror(errno));
        return -1;
    }
    return 0;
}

static void map_cleanup(void *s)
{
    struct map_state *st = s;

    if (st->map != NULL)
        munmap(st->map, st->size);
    if (st->fd >= 0)
        close(st->fd);
    st->map = NULL;
    st->fd = -1;
}

static const struct lmb_optdef options[] = {
    { 'C', NULL, "each copy (-P) reads its own copy of the file, made beside it" },
};

static void bw_mmap_rd_setup(void *s, uint64_t size, struct lmb_input *in)
{
    struct map_state *st = s;

    st->in = in;
    st->size = (size_t)size;
}

static int bw_mmap_rd_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct map_state st = { .fd = -1 };
    struct lmb_timed t = { .init = map_init, .cleanup = map_cleanup, .state = &st };

    if (lmb_swapped_size_error(ctx, argc, argv) != 0)
        return LMB_EXIT_USAGE;
    return lmb_file_bw_main(ctx, argc, argv, "mmap_only or open2close", true, &t, bw_mmap_rd_setup);
}

const struct lmb_bench lmb_bench_bw_mmap_rd = {
    .name = "bw_mmap_rd",
    .summary = "Bandwidth of reading a file through a memory mapping",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "size {variants} file",
    .help = "Maps the first size bytes of file shared and read-only, sums every byte, and\n"
            "prints the size in MB and the bandwidth in MB/s (10^6 bytes). The file must\n"
            "hold at least size bytes.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = bw_mmap_rd_main,
};
