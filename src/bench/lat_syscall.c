// SPDX-License-Identifier: MIT
/* lat_syscall: the cost of simple system calls.
 *
 * One operation is one call (getppid, a one-byte read of /dev/zero or write to
 * /dev/null, stat, fstat, or open followed by close). Kept out of the timing:
 * creating the temporary file and opening what read, write and fstat work on,
 * done once per copy in init. The loop's own compare-and-branch per call is
 * left in: a few tenths of a nanosecond against calls of tens of nanoseconds
 * and more. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/cleanup.h"

/* What a variant needs set up before timing (its flags in the table). */
enum {
    NEEDS_FILE = 1,     /* works on the file argument (or a temporary file) */
    OPENS_FILE = 2,     /* each copy opens that file first (fstat) */
    OPENS_ZERO = 4,     /* each copy opens /dev/zero for reading */
    OPENS_NULL = 8,     /* each copy opens /dev/null for writing */
};

struct syscall_state {
    char path[4096];          /* the file of stat, fstat and open */
    const char *open_path;    /* what each copy opens before timing, or NULL */
    int open_flags;
    int fd;
};

static void run_null(uint64_t n, void *s)
{
    (void)s;
    for (uint64_t i = 0; i < n; i++)
        (void)getppid();
}

static void run_read(uint64_t n, void *s)
{
    struct syscall_state *st = s;
    char c;

    for (uint64_t i = 0; i < n; i++)
        if (read(st->fd, &c, 1) != 1)
            lmb_abort_copy("read: %s", strerror(errno));
}

static void run_write(uint64_t n, void *s)
{
    struct syscall_state *st = s;
    char c = 0;

    for (uint64_t i = 0; i < n; i++)
        if (write(st->fd, &c, 1) != 1)
            lmb_abort_copy("write: %s", strerror(errno));
}

static void run_stat(uint64_t n, void *s)
{
    struct syscall_state *st = s;
    struct stat sb;

    for (uint64_t i = 0; i < n; i++)
        if (stat(st->path, &sb) != 0)
            lmb_abort_copy("stat %s: %s", st->path, strerror(errno));
}

static void run_fstat(uint64_t n, void *s)
{
    struct syscall_state *st = s;
    struct stat sb;

    for (uint64_t i = 0; i < n; i++)
        if (fstat(st->fd, &sb) != 0)
            lmb_abort_copy("fstat: %s", strerror(errno));
}

static void run_open(uint64_t n, void *s)
{
    struct syscall_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        int fd = open(st->path, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
            lmb_abort_copy("open %s: %s", st->path, strerror(errno));
        close(fd);
    }
}

static const struct lmb_variant variants[] = {
    { "null", "getppid(): entering and leaving the kernel", run_null, "Simple syscall", 0 },
    { "read", "read() of one byte from /dev/zero", run_read, "Simple read", OPENS_ZERO },
    { "write", "write() of one byte to /dev/null", run_write, "Simple write", OPENS_NULL },
    { "stat", "stat() of the file", run_stat, "Simple stat", NEEDS_FILE },
    { "fstat", "fstat() of the open file", run_fstat, "Simple fstat", NEEDS_FILE | OPENS_FILE },
    { "open", "open() then close() of the file", run_open, "Simple open/close", NEEDS_FILE },
};

/* Opens, in each copy, what its loop works on. */
static int syscall_init(void *s, char *err, size_t errlen)
{
    struct syscall_state *st = s;

    st->fd = -1;
    if (st->open_path == NULL)
        return 0;
    st->fd = open(st->open_path, st->open_flags);
    if (st->fd < 0) {
        snprintf(err, errlen, "open %s: %s", st->open_path, strerror(errno));
        return -1;
    }
    return 0;
}

static void syscall_cleanup(void *s)
{
    struct syscall_state *st = s;

    if (st->fd >= 0)
        close(st->fd);
}

static int lat_syscall_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v;
    struct syscall_state st = { .fd = -1 };
    struct lmb_timed t;
    struct lmb_record rec;
    struct lmb_result res;
    bool made_tmp = false;
    char q[LMB_QUOTE_BUF];

    if (argc < 1)
        return lmb_usage_error(ctx, "which system call?");
    if (argc > 2)
        return lmb_usage_error(ctx, "too many arguments");
    v = lmb_find_variant(ctx->bench, argv[0]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown system call '%s'", lmb_quote(argv[0], q, sizeof q));

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "%s", v->label);

    if (v->flags & NEEDS_FILE) {
        if (argc == 2) {
            struct stat sb;
            if (stat(argv[1], &sb) != 0)
                return lmb_usage_error(ctx, "%s: %s", lmb_quote(argv[1], q, sizeof q),
                                       strerror(errno));
            snprintf(st.path, sizeof st.path, "%s", argv[1]);
        } else {
            int fd = lmb_tmpfile("lmbench-syscall", st.path, sizeof st.path);
            if (fd < 0)
                return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                             "cannot create a temporary file: %s", strerror(errno));
            close(fd);
            made_tmp = true;
        }
        lmb_record_param_str(&rec, "file", made_tmp ? "(temporary file)" : st.path);
    } else if (argc == 2) {
        lmb_report_warn(&ctx->report, "%s does not use a file; '%s' ignored", v->name,
                        lmb_quote(argv[1], q, sizeof q));
    }
    if (v->flags & OPENS_FILE) {
        st.open_path = st.path;
        st.open_flags = O_RDONLY | O_NONBLOCK;
    } else if (v->flags & OPENS_ZERO) {
        st.open_path = "/dev/zero";
        st.open_flags = O_RDONLY;
    } else if (v->flags & OPENS_NULL) {
        st.open_path = "/dev/null";
        st.open_flags = O_WRONLY;
    }

    t = (struct lmb_timed){
        .init = syscall_init,
        .run = v->run,
        .cleanup = syscall_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    lmb_measure(ctx, &t, &res);

    lmb_report_add(&ctx->report, &rec, &res);

    if (made_tmp)
        lmb_tmpfile_remove(st.path);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_syscall = {
    .name = "lat_syscall",
    .summary = "Latency of simple system calls",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "{variants} [file]",
    .help = "Times one system call in a loop and prints microseconds per call. stat, fstat\n"
            "and open work on the file given, or on a temporary file created and removed\n"
            "by the command.\n",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_syscall_main,
};
