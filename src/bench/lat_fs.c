// SPDX-License-Identifier: MIT
/* lat_fs: how fast a file system creates and deletes small files.
 *
 * One operation of `create`: open(O_CREAT|O_EXCL) of a new file, a write() of
 * its `size` bytes (none for 0k) and close(). One operation of `delete`:
 * unlink() of such a file. Files live in a private temporary directory, at most
 * -n of them (default 100, as lmbench 3) in one subdirectory; making a new
 * subdirectory (every -n creates) and changing to the next (every -n creates or
 * deletes) are timed with the files they serve. The files a create interval
 * makes stay until the create measurement ends: each interval goes on in new
 * subdirectories beside those of the intervals before it.
 *
 * Kept out of the timing: the directories of each copy, the files a delete
 * measurement deletes (made in its set-up, enough for every interval it may
 * time), and removing whatever is left afterwards. Creates and deletes are two
 * measurements, so the classic row of a size comes from two records. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"
#include "lib/files.h"
#include "lib/sizes.h"
#include "lib/stats.h"

#define DEFAULT_PER_DIR 100
#define MAX_SIZE (1ULL << 30)
/* Files a delete measurement prepares per file a create interval held, per
 * interval: deletes are usually faster than creates. When they run out, the
 * measurement is done again with enough for the largest run the harness asked
 * for (its calibration converges there), or four times as many, at most four
 * times. */
#define POOL_FACTOR 4
#define POOL_RETRIES 4
/* Making the files to delete may take this long (per copy, per size); where
 * creates are so much slower than deletes that full intervals would need
 * longer, the deletes are timed in shorter intervals, with a warning. */
#define POOL_BUDGET_NS 3e9
#define MIN_DELETE_INTERVAL_NS 500000ULL

struct fs_shared {
    unsigned ran_out;            /* a delete copy used up its files */
    uint64_t max_n;              /* the most deletes the harness asked of one run */
};

struct fs_state {
    const char *root;            /* the command's temporary directory */
    struct fs_shared *shared;    /* MAP_SHARED */
    uint64_t size;
    uint64_t per_dir;
    bool deleting;
    uint64_t pool;               /* deleting: files made in the set-up */
    /* In a copy: */
    char copydir[4200];
    int topfd;                   /* copydir */
    int dirfd;                   /* the subdirectory of file `dirno` */
    uint64_t dirno;
    uint64_t next;               /* create: next file to make; delete: next to unlink */
    char *buf;
    size_t buflen;
};

static void name_of(uint64_t i, char *out, size_t len)
{
    snprintf(out, len, "f%" PRIu64, i);
}

/* Makes (when `make`) and enters the subdirectory of file i. */
static int enter_dir(struct fs_state *st, uint64_t i, bool make)
{
    uint64_t d = i / st->per_dir;
    char name[32];

    if (st->dirfd >= 0 && d == st->dirno)
        return 0;
    snprintf(name, sizeof name, "d%" PRIu64, d);
    if (make && mkdirat(st->topfd, name, 0700) != 0 && errno != EEXIST)
        return -1;
    if (st->dirfd >= 0)
        close(st->dirfd);
    st->dirfd = openat(st->topfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    st->dirno = d;
    return st->dirfd < 0 ? -1 : 0;
}

/* Creates file i; returns 0 or an errno value, with what failed in *what. */
static int make_file(struct fs_state *st, uint64_t i, const char **what)
{
    char name[32];
    uint64_t left = st->size;
    int fd;

    if (enter_dir(st, i, true) != 0) {
        *what = "mkdir";
        return errno;
    }
    name_of(i, name, sizeof name);
    fd = openat(st->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        *what = "create";
        return errno;
    }
    while (left > 0) {
        size_t want = left < st->buflen ? (size_t)left : st->buflen;
        ssize_t w = write(fd, st->buf, want);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            *what = "write";
            return e;
        }
        left -= (uint64_t)w;
    }
    if (close(fd) != 0) {
        *what = "close";
        return errno;
    }
    return 0;
}

static void run_create(uint64_t n, void *s)
{
    struct fs_state *st = s;
    const char *what = "";

    for (uint64_t k = 0; k < n; k++) {
        int e = make_file(st, st->next, &what);
        if (e != 0)
            lmb_abort_copy("%s of file %" PRIu64 " in %s: %s", what, st->next, st->copydir,
                           strerror(e));
        st->next++;
    }
}

static void run_delete(uint64_t n, void *s)
{
    struct fs_state *st = s;
    char name[32];

    if (n > __atomic_load_n(&st->shared->max_n, __ATOMIC_RELAXED))
        __atomic_store_n(&st->shared->max_n, n, __ATOMIC_RELAXED);
    for (uint64_t k = 0; k < n; k++) {
        if (st->next >= st->pool) {
            __atomic_store_n(&st->shared->ran_out, 1, __ATOMIC_SEQ_CST);
            lmb_abort_copy("the %" PRIu64 " files made to be deleted ran out", st->pool);
        }
        if (enter_dir(st, st->next, false) != 0)
            lmb_abort_copy("open directory %" PRIu64 " in %s: %s", st->next / st->per_dir,
                           st->copydir, strerror(errno));
        name_of(st->next, name, sizeof name);
        if (unlinkat(st->dirfd, name, 0) != 0)
            lmb_abort_copy("unlink %s: %s", name, strerror(errno));
        st->next++;
    }
}

static const struct lmb_variant variants[] = {
    { "create", "open(O_CREAT), write the size, close() a new file", run_create, NULL, 0 },
    { "delete", "unlink() a file", run_delete, NULL, 0 },
};

static int fs_init(void *s, char *err, size_t errlen)
{
    struct fs_state *st = s;
    unsigned id = lmb_copy_index();
    const char *what = "";

    st->topfd = st->dirfd = -1;
    st->next = 0;
    st->buflen = st->size < (1u << 20) ? (size_t)st->size : (1u << 20);
    st->buf = malloc(st->buflen ? st->buflen : 1);
    if (st->buf == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(st->buf, 'x', st->buflen);
    snprintf(st->copydir, sizeof st->copydir, "%s/c%u", st->root, id);
    if (mkdir(st->copydir, 0700) != 0 ||
        (st->topfd = open(st->copydir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "mkdir %s: %s", st->copydir, strerror(errno));
        return -1;
    }
    if (!st->deleting)
        return 0;
    for (uint64_t i = 0; i < st->pool; i++) {
        int e = make_file(st, i, &what);
        if (e != 0) {
            snprintf(err, errlen, "making the files to delete: %s of file %" PRIu64 " in %s: %s",
                     what, i, st->copydir, strerror(e));
            return -1;
        }
    }
    if (st->dirfd >= 0)
        close(st->dirfd);
    st->dirfd = -1;
    return 0;
}

static void fs_cleanup(void *s)
{
    struct fs_state *st = s;

    if (st->dirfd >= 0)
        close(st->dirfd);
    if (st->topfd >= 0)
        close(st->topfd);
    st->dirfd = st->topfd = -1;
    lmb_remove_tree(st->copydir);
    free(st->buf);
    st->buf = NULL;
}

static const struct lmb_optdef options[] = {
    { 's', "size", "file size (default: 0k, 1k, 4k and 10k in turn)" },
    { 'n', "files", "at most this many files in one directory (default 100, as lmbench 3)" },
};

static void size_record(struct lmb_record *rec, const struct lmb_ctx *ctx, const char *c,
                        uint64_t size)
{
    lmb_record_init(rec, ctx->bench->name, c, LMB_UNIT_US);
    lmb_record_param_int(rec, "size_bytes", (long long)size);
}

/* Free bytes for unprivileged files in the file system of dir, or UINT64_MAX. */
static uint64_t free_bytes(const char *dir)
{
    struct statvfs sv;

    if (statvfs(dir, &sv) != 0)
        return UINT64_MAX;
    return (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
}

/* Removes what the copies of a measurement left (a copy that fails or runs out
 * of files ends without its clean-up). */
static void remove_copy_dirs(const struct fs_state *st, unsigned copies)
{
    char path[4200];

    for (unsigned i = 0; i < copies; i++) {
        snprintf(path, sizeof path, "%s/c%u", st->root, i);
        lmb_remove_tree(path);
    }
}

/* Measures creates then deletes of files of one size, and reports the pair. */
static void one_size(struct lmb_ctx *ctx, struct fs_state *st, uint64_t size)
{
    struct lmb_timed t = {
        .init = fs_init,
        .cleanup = fs_cleanup,
        .state = st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    struct lmb_record crec, drec;
    struct lmb_result cres, dres;
    struct lmb_stats cst;
    uint64_t block = (size + 4095) / 4096 * 4096 + 4096;
    uint64_t full_interval = ctx->interval_ns;
    double create_ns;

    st->size = size;
    size_record(&crec, ctx, "create", size);
    size_record(&drec, ctx, "delete", size);
    lmb_record_param_int(&crec, "files_per_dir", (long long)st->per_dir);
    lmb_record_param_int(&drec, "files_per_dir", (long long)st->per_dir);
    crec.classic = LMB_CLASSIC_FS_PAIR;
    crec.classic_x = (double)size;

    st->deleting = false;
    t.run = run_create;
    lmb_measure(ctx, &t, &cres);
    remove_copy_dirs(st, ctx->opt.parallel);
    if (cres.iters > 0)
        lmb_record_param_int(&crec, "files", (long long)cres.iters);
    crec.classic_y = (double)cres.iters;
    if (cres.status != LMB_OK) {
        if (!lmb_out_of_time(ctx, &dres)) {
            memset(&dres, 0, sizeof dres);
            lmb_result_set_status(&dres, LMB_FAILED, "not measured: the creates were not (%s)",
                                  lmb_status_name(cres.status));
        }
        lmb_report_add_pair(&ctx->report, &crec, &cres, &drec, &dres);
        return;
    }

    /* Enough files for every interval the delete measurement may time. */
    create_ns = lmb_stats_compute(cres.samples, cres.n, &cst) == 0 ? cst.median : 0;
    st->deleting = true;
    st->pool = (uint64_t)(ctx->opt.repetitions + 4) * cres.iters * POOL_FACTOR;
    if (ctx->opt.warmup_us > 0 && cres.n > 0) {
        double per_file_us = cres.samples[0] / 1e3;
        st->pool += (uint64_t)((double)ctx->opt.warmup_us / per_file_us) * POOL_FACTOR;
    }
    /* A first guess costs at most a third of the budget; when it runs out, the
     * runs the harness asked for say how many the rest needs. */
    if (create_ns > 0 && (double)st->pool * create_ns > POOL_BUDGET_NS / 3)
        st->pool = (uint64_t)(POOL_BUDGET_NS / 3 / create_ns) + 1;
    t.run = run_delete;
    for (int attempt = 0;; attempt++) {
        uint64_t need = st->pool * block * ctx->opt.parallel;
        if (need > free_bytes(st->root) / 10 * 9) {
            memset(&dres, 0, sizeof dres);
            lmb_result_set_status(&dres, LMB_FAILED,
                                  "%" PRIu64 " files of %" PRIu64 " bytes to delete do not fit "
                                  "in the free space of %s",
                                  st->pool * ctx->opt.parallel, size, st->root);
            break;
        }
        st->shared->ran_out = 0;
        st->shared->max_n = 0;
        lmb_measure(ctx, &t, &dres);
        remove_copy_dirs(st, ctx->opt.parallel);
        if (!st->shared->ran_out || attempt == POOL_RETRIES)
            break;
        lmb_result_free(&dres);
        /* The harness sizes a run from the rate of the run before it, so the
         * longest run asked for is close to the one each sample will ask for:
         * enough for the samples, the calibration and a tenth more. With -P, a
         * copy that finishes a round first keeps deleting (untimed, to keep
         * the machine as busy) until the last has finished: up to as much
         * again. */
        uint64_t want = (uint64_t)(ctx->opt.repetitions + 5) * st->shared->max_n *
                        (ctx->opt.parallel > 1 ? 25 : 11) / 10;
        uint64_t pool = want > st->pool * 4 ? want : st->pool * 4;
        double cost = (double)pool * create_ns;
        if (cost > POOL_BUDGET_NS && ctx->interval_ns > MIN_DELETE_INTERVAL_NS) {
            /* Runs shrink with the interval, and so does the pool. */
            double scale = POOL_BUDGET_NS / cost;
            uint64_t iv = (uint64_t)((double)ctx->interval_ns * scale);
            if (iv < MIN_DELETE_INTERVAL_NS)
                iv = MIN_DELETE_INTERVAL_NS;
            pool = (uint64_t)((double)pool * (double)iv / (double)ctx->interval_ns) + 1;
            ctx->interval_ns = iv;
        }
        st->pool = pool;
    }
    if (ctx->interval_ns != full_interval) {
        if (dres.status == LMB_OK)
            lmb_result_warn(&dres,
                            "deletes timed in intervals of %.2f ms, not %.2f ms: the files for "
                            "full intervals would have taken over %.0f s to make (a create "
                            "costs %.0f us here)",
                            (double)ctx->interval_ns / 1e6, (double)full_interval / 1e6,
                            POOL_BUDGET_NS / 1e9, create_ns / 1e3);
        ctx->interval_ns = full_interval;
    }
    if (dres.iters > 0)
        lmb_record_param_int(&drec, "files", (long long)dres.iters);
    lmb_report_add_pair(&ctx->report, &crec, &cres, &drec, &dres);
}

static int lat_fs_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    static const uint64_t default_sizes[] = { 0, 1024, 4096, 10240 };
    uint64_t sizes[4], per_dir = DEFAULT_PER_DIR;
    size_t nsizes = 0;
    struct fs_state st = { 0 };
    const char *dir;
    char root[4096], err[600];

    if (lmb_opt_given(ctx, 's')) {
        if (lmb_parse_size(lmb_opt_arg(ctx, 's'), &sizes[0], err, sizeof err) != 0)
            return lmb_usage_error(ctx, "-s: %s", err);
        if (sizes[0] > MAX_SIZE)
            return lmb_usage_error(ctx, "-s: at most 1g");
        nsizes = 1;
    } else {
        memcpy(sizes, default_sizes, sizeof default_sizes);
        nsizes = 4;
    }
    if (lmb_opt_given(ctx, 'n') &&
        lmb_parse_uint(lmb_opt_arg(ctx, 'n'), 1, 1000000000, &per_dir, err, sizeof err) != 0)
        return lmb_usage_error(ctx, "-n: %s", err);
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");

    if (argc == 1) {
        dir = argv[0];
    } else {
        dir = getenv("TMPDIR");
        if (dir == NULL || *dir == '\0')
            dir = access("/var/tmp", W_OK | X_OK) == 0 ? "/var/tmp" : "/tmp";
    }
    if (lmb_check_dir(dir, err, sizeof err) != 0 ||
        lmb_tmpdir(dir, "lmbench-fs", root, sizeof root) != 0) {
        struct lmb_record rec;
        size_record(&rec, ctx, "create", sizes[0]);
        if (err[0] == '\0' || lmb_check_dir(dir, err, sizeof err) == 0)
            snprintf(err, sizeof err, "cannot create a directory in %s: %s", dir, strerror(errno));
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    }
    st.shared = mmap(NULL, sizeof *st.shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                     -1, 0);
    if (st.shared == MAP_FAILED) {
        struct lmb_record rec;
        lmb_tmpdir_remove(root);
        size_record(&rec, ctx, "create", sizes[0]);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "mmap: %s", strerror(errno));
    }
    st.root = root;
    st.per_dir = per_dir;

    for (size_t i = 0; i < nsizes; i++)
        one_size(ctx, &st, sizes[i]);
    munmap(st.shared, sizeof *st.shared);
    lmb_tmpdir_remove(root);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_fs = {
    .name = "lat_fs",
    .summary = "Rates of creating and deleting files",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "[dir]",
    .help = "Creates files of each size in a temporary directory made in dir (default\n"
            "$TMPDIR, else /var/tmp), then deletes them, and prints a row per size: the\n"
            "size in KB, the files created per timed interval, creates per second and\n"
            "deletes per second.\n",
    .options = options,
    .noptions = sizeof options / sizeof options[0],
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_fs_main,
};
