// SPDX-License-Identifier: MIT
/* disk: read bandwidth across a disk's zones and seek time over distances.
 *
 * One operation of a zone: a read of one chunk (up to 1 MiB), the next chunk of
 * the zone each time, wrapping inside the zone. One operation of a seek
 * distance: a read of one 4 KiB block `distance` bytes from the last (up and
 * down the device in laps, each lap one block on from the last, so that the
 * move between laps is distance - 4 KiB or distance + 4 KiB), and never a block
 * read before until every block of the walk has been (lmb_seek_walk_next in
 * lib/files.c): no cache in the drive can hold the answer. Reads use
 * O_DIRECT where the device or file allows it, so that they reach the device
 * and not the page cache (a warning says so when they cannot).
 *
 * The number of points is fixed (16 zones, at most 14 distances) and each is a
 * measurement bounded in time, so the run takes about the same time on any
 * device, whatever its size: nothing reads the whole device. Kept out of the
 * timing: opening the device, the aligned buffer. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/text.h"
#include "lib/files.h"

#define ZONES 16
#define MAX_CHUNK (1u << 20)
#define BLOCK 4096u
#define MIN_SIZE (64u * 1024u)
#define MAX_DISTANCES 14

struct disk_state {
    const char *path;
    bool direct;
    uint64_t size;
    /* zone */
    uint64_t zone_start, zone_len;
    size_t chunk;
    /* seek */
    uint64_t distance;
    /* in a copy */
    int fd;
    char *buf;
    uint64_t pos;
    struct lmb_seek_walk walk;
};

static void read_at(struct disk_state *st, size_t len, uint64_t off)
{
    ssize_t r;

    do {
        r = pread(st->fd, st->buf, len, (off_t)off);
    } while (r < 0 && errno == EINTR);
    if (r < 0)
        lmb_abort_copy("read %s at %" PRIu64 ": %s", st->path, off, strerror(errno));
    if ((size_t)r != len)
        lmb_abort_copy("short read of %s at %" PRIu64 ": %zd of %zu bytes", st->path, off, r, len);
}

static void run_zone(uint64_t n, void *s)
{
    struct disk_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        if (st->pos + st->chunk > st->zone_len)
            st->pos = 0;
        read_at(st, st->chunk, st->zone_start + st->pos);
        st->pos += st->chunk;
    }
}

static void run_seek(uint64_t n, void *s)
{
    struct disk_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        read_at(st, BLOCK, lmb_seek_walk_next(&st->walk));
    }
}

static const struct lmb_variant variants[] = {
    { "zone", "read bandwidth at 16 places across the device", run_zone, NULL, 0 },
    { "seek", "time of a 4 KiB read a given distance from the last", run_seek, NULL, 0 },
};

static int disk_init(void *s, char *err, size_t errlen)
{
    struct disk_state *st = s;

    st->buf = NULL;
    st->pos = 0;
    lmb_seek_walk_init(&st->walk, st->size, st->distance, BLOCK);
    st->fd = open(st->path, O_RDONLY | O_CLOEXEC | (st->direct ? O_DIRECT : 0));
    if (st->fd < 0) {
        snprintf(err, errlen, "open %s: %s", st->path, strerror(errno));
        return -1;
    }
    if (posix_memalign((void **)&st->buf, BLOCK, MAX_CHUNK) != 0) {
        st->buf = NULL;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(st->buf, 0, MAX_CHUNK);
    return 0;
}

static void disk_cleanup(void *s)
{
    struct disk_state *st = s;

    if (st->fd >= 0)
        close(st->fd);
    st->fd = -1;
    free(st->buf);
    st->buf = NULL;
}

/* Whether the file can be read with O_DIRECT (a 4 KiB aligned read works). */
static bool direct_works(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
    void *buf = NULL;
    bool ok = false;

    if (fd < 0)
        return false;
    if (posix_memalign(&buf, BLOCK, BLOCK) == 0) {
        ok = pread(fd, buf, BLOCK, 0) == (ssize_t)BLOCK;
        free(buf);
    }
    close(fd);
    return ok;
}

static void measure_point(struct lmb_ctx *ctx, struct disk_state *st, const struct lmb_variant *v,
                          const char *key, uint64_t x)
{
    struct lmb_timed t = {
        .init = disk_init,
        .run = v->run,
        .cleanup = disk_cleanup,
        .state = st,
        .metric = v->run == run_zone ? LMB_METRIC_BANDWIDTH : LMB_METRIC_LATENCY,
        .per_iter = v->run == run_zone ? (double)st->chunk : 1.0,
    };
    struct lmb_record rec;
    struct lmb_result res;

    lmb_measure(ctx, &t, &res);
    lmb_record_init(&rec, ctx->bench->name, v->name, v->run == run_zone ? LMB_UNIT_MBS : LMB_UNIT_US);
    lmb_record_param_int(&rec, key, (long long)x);
    lmb_record_param_bool(&rec, "direct", st->direct);
    rec.classic = v->run == run_zone ? LMB_CLASSIC_SIZE_MBS : LMB_CLASSIC_MB_US;
    rec.classic_x = (double)x;
    lmb_report_add(&ctx->report, &rec, &res);
}

static int disk_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct disk_state st = { .fd = -1 };
    uint64_t zone_len;
    char err[600], q[300];

    if (argc < 1)
        return lmb_usage_error(ctx, "which device?");
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    st.path = argv[0];
    if (lmb_check_input(st.path, MIN_SIZE, true, &st.size, err, sizeof err) != 0) {
        struct lmb_record rec;
        lmb_record_init(&rec, ctx->bench->name, "zone", LMB_UNIT_MBS);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    st.direct = direct_works(st.path);
    if (!st.direct)
        lmb_report_warn(&ctx->report, "%s cannot be read with O_DIRECT: reads may come from the "
                        "page cache, not the device", lmb_quote(st.path, q, sizeof q));

    /* Zones: ZONES equal slices, each read a chunk at a time. */
    zone_len = st.size / ZONES / BLOCK * BLOCK;
    st.chunk = zone_len < MAX_CHUNK ? (size_t)zone_len : MAX_CHUNK;
    st.zone_len = zone_len;
    lmb_report_marker(&ctx->report, "%s", "\"zone bandwidth");
    for (unsigned z = 0; z < ZONES; z++) {
        st.zone_start = (uint64_t)z * zone_len;
        measure_point(ctx, &st, &variants[0], "offset_bytes", st.zone_start);
    }
    lmb_report_marker(&ctx->report, "%s", "");

    /* Seeks: distances from 4 KiB growing four-fold, while two of them fit. */
    lmb_report_marker(&ctx->report, "%s", "\"seek time");
    st.distance = BLOCK;
    for (unsigned d = 0; d < MAX_DISTANCES && 2 * st.distance + BLOCK <= st.size; d++) {
        measure_point(ctx, &st, &variants[1], "distance_bytes", st.distance);
        st.distance *= 4;
    }
    lmb_report_marker(&ctx->report, "%s", "");
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_disk = {
    .name = "disk",
    .summary = "Read bandwidth across a disk and seek time over distances",
    .category = LMB_CAT_OS,
    .common = LMB_USE_W | LMB_USE_N,
    .args = "device",
    .help = "Reads device (a block device, or a file) at 16 places across it and prints the\n"
            "offset in MB and the read bandwidth in MB/s at each, then reads 4 KiB blocks a\n"
            "growing distance apart, each at a new place, and prints the distance in MB and\n"
            "the microseconds per read. The run is bounded in time, not by the device's\n"
            "size. Reading a raw device usually needs root.\n",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = disk_main,
};
