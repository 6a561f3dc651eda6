// SPDX-License-Identifier: MIT
/* Unit tests of what the operating-system benchmarks add to src/lib: the classic
 * line shapes of lat_mmap, lmdd, lat_ctx and lat_fs (report.c), temporary
 * directories (cleanup.c), the file helpers (files.c), and lat_ctx's ring of
 * processes and overhead subtraction (ring.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/cleanup.h"
#include "lib/difference.h"
#include "lib/files.h"
#include "lib/report.h"
#include "lib/ring.h"

/* A finished ok record whose samples (already in SI: ns or bytes/s) are v. */
static void finished(struct lmb_record *r, enum lmb_unit unit, enum lmb_classic classic,
                     double x, const double *v, size_t n, enum lmb_status st)
{
    struct lmb_result res;

    memset(&res, 0, sizeof res);
    res.status = st;
    res.n = n;
    res.samples = malloc(n * sizeof *res.samples);
    assert_non_null(res.samples);
    memcpy(res.samples, v, n * sizeof *v);
    res.iters = 10;
    lmb_record_init(r, "bench", "case", unit);
    r->classic = classic;
    r->classic_x = x;
    assert_int_equal(lmb_record_finish(r, &res), 0);
}

static void assert_line(const struct lmb_record *r, const char *want)
{
    char buf[512] = "";
    size_t n = lmb_render_classic(r, buf, sizeof buf);

    if (n != strlen(want) || (n > 0 && strcmp(buf, want) != 0))
        fail_msg("got \"%.*s\", want \"%s\"", (int)n, buf, want);
}

/* --- report shapes ------------------------------------------------------------- */

static void test_mb_us(void **state)
{
    struct lmb_record r;
    const double small[] = { 5648.0 }, big[] = { 73400.0 }, edge[] = { 9999.4 }, ten[] = { 10000.0 };

    (void)state;
    finished(&r, LMB_UNIT_US, LMB_CLASSIC_MB_US, 524288, small, 1, LMB_OK);
    assert_line(&r, "0.524288 5.648\n");
    lmb_record_free(&r);
    finished(&r, LMB_UNIT_US, LMB_CLASSIC_MB_US, 16777216, big, 1, LMB_OK);
    assert_line(&r, "16.777216 73\n");
    lmb_record_free(&r);
    finished(&r, LMB_UNIT_US, LMB_CLASSIC_MB_US, 4096, edge, 1, LMB_OK);
    assert_line(&r, "0.004096 9.999\n");
    lmb_record_free(&r);
    finished(&r, LMB_UNIT_US, LMB_CLASSIC_MB_US, 4096, ten, 1, LMB_OK);
    assert_line(&r, "0.004096 10\n");
    lmb_record_free(&r);
}

static void test_lmdd(void **state)
{
    struct lmb_record r;
    const double bw[] = { 250e6 };   /* 250 MB/s */

    (void)state;
    finished(&r, LMB_UNIT_MBS, LMB_CLASSIC_LMDD, 8192000, bw, 1, LMB_OK);
    r.classic_mode = LMB_LMDD_SENTENCE;
    assert_line(&r, "8.1920 MB in 0.0328 secs, 250.0000 MB/sec\n");
    r.classic_mode = LMB_LMDD_MBS;
    assert_line(&r, "250.00 MB/sec\n");
    r.classic_mode = LMB_LMDD_SECS;
    assert_line(&r, "0.0328 secs\n");
    r.classic_mode = LMB_LMDD_KBS;
    snprintf(r.label, sizeof r.label, "File x write bandwidth: ");
    assert_line(&r, "File x write bandwidth: 250000 KB/sec\n");
    lmb_record_free(&r);
}

static void test_ctx_shapes(void **state)
{
    struct lmb_record r;
    const double ovr[] = { 180.0 }, row[] = { 1880.0 };

    (void)state;
    finished(&r, LMB_UNIT_US, LMB_CLASSIC_CTX_OVR, 16, ovr, 1, LMB_OK);
    assert_line(&r, "\n\"size=16k ovr=0.18\n");
    lmb_record_free(&r);
    finished(&r, LMB_UNIT_US, LMB_CLASSIC_COUNT_2F, 96, row, 1, LMB_OK);
    assert_line(&r, "96 1.88\n");
    lmb_record_free(&r);
    /* Not ok: no line. */
    finished(&r, LMB_UNIT_US, LMB_CLASSIC_COUNT_2F, 2, row, 1, LMB_FAILED);
    assert_line(&r, "");
    lmb_record_free(&r);
}

/* lmb_report_add_pair into a memory stream; returns what was written. */
static char *pair_output(enum lmb_status sa, enum lmb_status sb, struct lmb_report *rep)
{
    struct lmb_record a, b;
    struct lmb_result ra, rb;
    const double create[] = { 3600.0, 3600.0, 3700.0 }, del[] = { 1600.0, 1580.0, 1600.0 };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    struct lmb_streams io = { .out = f, .classic = f, .messages = f, .json = NULL };

    assert_non_null(f);
    lmb_report_open(rep, "lat_fs", &io);
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    ra.status = sa;
    rb.status = sb;
    ra.n = rb.n = 3;
    ra.samples = malloc(sizeof create);
    rb.samples = malloc(sizeof del);
    assert_true(ra.samples && rb.samples);
    memcpy(ra.samples, create, sizeof create);
    memcpy(rb.samples, del, sizeof del);
    if (sa != LMB_OK)
        snprintf(ra.reason, sizeof ra.reason, "why a");
    if (sb != LMB_OK)
        snprintf(rb.reason, sizeof rb.reason, "why b");
    lmb_record_init(&a, "lat_fs", "create", LMB_UNIT_US);
    lmb_record_init(&b, "lat_fs", "delete", LMB_UNIT_US);
    a.classic = LMB_CLASSIC_FS_PAIR;
    a.classic_x = 10240;
    a.classic_y = 1527;
    lmb_report_add_pair(rep, &a, &ra, &b, &rb);
    fclose(f);
    return buf;
}

static void test_fs_pair(void **state)
{
    struct lmb_report rep;
    char *out;

    (void)state;
    out = pair_output(LMB_OK, LMB_OK, &rep);
    /* 10^6 / 3.6 us = 277778 creates/s, 10^6 / 1.6 us = 625000 deletes/s */
    assert_string_equal(out, "10k\t1527\t277778\t625000\n");
    assert_int_equal(rep.counts[LMB_OK], 2);
    assert_int_equal(lmb_report_exit_status(&rep), 0);
    free(out);
    lmb_report_close(&rep);

    out = pair_output(LMB_OK, LMB_FAILED, &rep);
    assert_string_equal(out, "lat_fs: delete: failed: why b\n");
    assert_int_equal(lmb_report_exit_status(&rep), 1);
    free(out);
    lmb_report_close(&rep);

    out = pair_output(LMB_TIMEOUT, LMB_FAILED, &rep);
    assert_non_null(strstr(out, "lat_fs: create: timeout: why a\n"));
    assert_non_null(strstr(out, "lat_fs: delete: failed: why b\n"));
    assert_null(strstr(out, "10k"));
    free(out);
    lmb_report_close(&rep);
}

/* --- files and directories --------------------------------------------------------- */

/* What lmb_sum_bytes computes, written plainly: 64-bit words (native order) of
 * every whole 64-byte block, then the remaining bytes one by one. */
static uint64_t sum_ref(const unsigned char *p, size_t len)
{
    uint64_t sum = 0;
    size_t i = 0;

    for (; i + 64 <= len; i += 64)
        for (size_t k = 0; k < 64; k += 8) {
            uint64_t w;
            memcpy(&w, p + i + k, 8);
            sum += w;
        }
    for (; i < len; i++)
        sum += p[i];
    return sum;
}

static void test_sum_bytes(void **state)
{
    unsigned char buf[1000];

    (void)state;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 31 + 7);
    for (size_t off = 0; off < 9; off++)
        for (size_t len = 0; len + off <= sizeof buf; len += (len < 200 ? 1 : 61))
            assert_true(lmb_sum_bytes(buf + off, len) == sum_ref(buf + off, len));
    /* A change anywhere, in the blocks or the tail, changes the sum. */
    for (size_t i = 0; i < sizeof buf; i += 37) {
        uint64_t before = lmb_sum_bytes(buf, sizeof buf);
        buf[i]++;
        assert_true(lmb_sum_bytes(buf, sizeof buf) != before);
    }
}

/* lat_mmap's touches: lmbench 3's, a byte every 16 KiB over the first tenth
 * (-r: every 160 KiB over the whole); at least one. */
static void test_mmap_touches(void **state)
{
    size_t step = 0;

    (void)state;
    /* 8 MiB: the tenth is 838860 bytes, offsets 0 .. 51 * 16384 = 835584. */
    assert_int_equal(lmb_mmap_touches(8u << 20, false, &step), 52);
    assert_int_equal(step, 16384);
    assert_true(51 * step < (8u << 20) / 10 && 52 * step >= (8u << 20) / 10);
    assert_int_equal(lmb_mmap_touches(64u << 20, false, &step), 410);
    /* -r: every 160 KiB over all of 64 MiB: offsets 0 .. 409 * 163840. */
    assert_int_equal(lmb_mmap_touches(64u << 20, true, &step), 410);
    assert_int_equal(step, 163840);
    assert_true(409 * step < (64u << 20));
    /* Small mappings: the tenth (or all) below one step is one touch, at 0. */
    assert_int_equal(lmb_mmap_touches(1, false, &step), 1);
    assert_int_equal(lmb_mmap_touches(163840, false, &step), 1);
    assert_int_equal(lmb_mmap_touches(163850, false, &step), 2);       /* 0, 16384 */
    assert_int_equal(lmb_mmap_touches(327690, false, &step), 3);       /* 0 .. 32768 */
    assert_int_equal(lmb_mmap_touches(4096, true, &step), 1);
}

/* disk's seek walk: every read a new block until all have been read, and each
 * move the distance (or the distance -+ one block between laps). */
static void walk_check(uint64_t size, uint64_t d, uint64_t B)
{
    struct lmb_seek_walk w;
    uint64_t nblocks = size / B, seen = 0, prev = 0;
    unsigned char *hit = calloc((size_t)nblocks, 1);

    assert_non_null(hit);
    lmb_seek_walk_init(&w, size, d, B);
    for (uint64_t i = 0;; i++) {
        uint64_t pos = lmb_seek_walk_next(&w);
        assert_true(pos % B == 0);
        assert_true(pos + B <= size);
        if (hit[pos / B]) {
            /* The first repeat: after every block of the walk, back at 0. */
            assert_true(pos == 0);
            assert_true(seen > nblocks / 2);
            break;
        }
        hit[pos / B] = 1;
        seen++;
        if (i > 0) {
            uint64_t move = pos > prev ? pos - prev : prev - pos;
            if (d == B)
                assert_true(move == B);
            else
                assert_true(move == d || move == d - B || move == d + B);
        }
        prev = pos;
        assert_true(i < nblocks);
    }
    free(hit);
}

static void test_seek_walk(void **state)
{
    (void)state;
    walk_check(64 * 4096, 4096, 4096);
    walk_check(64 * 4096, 16384, 4096);
    walk_check(64 * 4096 + 100, 16384, 4096);
    walk_check(9 * 4096, 4 * 4096, 4096);          /* 2d + B == size: two per lap */
    walk_check(1 << 20, 65536, 4096);
    walk_check((1 << 20) + 3 * 4096, 262144, 4096);
    walk_check(1 << 20, 1 << 18, 4096);
    walk_check(10 << 20, 1 << 20, 4096);
}

static void touch(const char *dir, const char *name)
{
    char p[4200];
    int fd;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    fd = open(p, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "x", 1), 1);
    close(fd);
}

static void test_tmpdir_tree(void **state)
{
    char base[] = "/tmp/lmbtest-unit.XXXXXX", dir[4200], sub[4300], subsub[4400];
    struct stat sb;

    (void)state;
    assert_non_null(mkdtemp(base));
    assert_int_equal(lmb_tmpdir(base, "lmbench-unit", dir, sizeof dir), 0);
    assert_int_equal(strncmp(dir, base, strlen(base)), 0);
    assert_int_equal(stat(dir, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    /* Three levels, many files (more than one getdents buffer). */
    snprintf(sub, sizeof sub, "%s/c0", dir);
    snprintf(subsub, sizeof subsub, "%s/d0", sub);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(mkdir(subsub, 0700), 0);
    for (int i = 0; i < 300; i++) {
        char name[32];
        snprintf(name, sizeof name, "file-with-a-long-name-%d", i);
        touch(subsub, name);
    }
    touch(dir, "top");
    lmb_tmpdir_remove(dir);
    assert_int_not_equal(stat(dir, &sb), 0);
    assert_int_equal(rmdir(base), 0);   /* empty: nothing else was touched */
}

static void test_check_input(void **state)
{
    char base[] = "/tmp/lmbtest-unit.XXXXXX", path[4200], err[600];
    uint64_t size = 0;

    (void)state;
    assert_non_null(mkdtemp(base));
    snprintf(path, sizeof path, "%s/missing", base);
    assert_int_equal(lmb_check_input(path, 1, false, &size, err, sizeof err), -1);
    assert_non_null(strstr(err, "No such file"));
    assert_int_equal(lmb_check_input(base, 1, false, &size, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a directory"));
    touch(base, "one");
    snprintf(path, sizeof path, "%s/one", base);
    assert_int_equal(lmb_check_input(path, 1, false, &size, err, sizeof err), 0);
    assert_int_equal(size, 1);
    assert_int_equal(lmb_check_input(path, 5368709120ULL, false, &size, err, sizeof err), -1);
    assert_non_null(strstr(err, "holds 1 bytes, fewer than the 5368709120 asked for"));
    assert_int_equal(lmb_check_input("/dev/null", 0, true, &size, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file or a block device"));
    assert_int_equal(lmb_check_dir(path, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a directory"));
    assert_int_equal(lmb_check_dir(base, err, sizeof err), 0);
    unlink(path);
    assert_int_equal(rmdir(base), 0);
}

static void test_clones(void **state)
{
    char base[] = "/tmp/lmbtest-unit.XXXXXX", path[4200], dir[4200], clone[4300], err[600];
    struct lmb_input in;
    char buf[64];
    uint64_t size;
    const char *p;
    int fd;

    (void)state;
    assert_non_null(mkdtemp(base));
    snprintf(path, sizeof path, "%s/data", base);
    fd = open(path, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "0123456789", 10), 10);
    close(fd);
    assert_int_equal(lmb_input_prepare(&in, path, 4, true, 6, 3, &size, err, sizeof err), 0);
    assert_int_equal(size, 10);
    snprintf(dir, sizeof dir, "%s", in.clonedir);
    for (unsigned i = 0; i < 3; i++) {
        char path_i[4300];
        lmb_clone_path(dir, i, path_i, sizeof path_i);
        fd = open(path_i, O_RDONLY);
        assert_true(fd >= 0);
        assert_int_equal(read(fd, buf, sizeof buf), 6);   /* the first 6 bytes */
        assert_int_equal(memcmp(buf, "012345", 6), 0);
        close(fd);
    }
    /* Outside a copy, lmb_copy_index() is 0: the first clone. */
    p = lmb_input_take(&in, clone, sizeof clone);
    assert_non_null(strstr(p, "/0"));
    lmb_input_release(&in);
    assert_int_not_equal(access(dir, F_OK), 0);
    /* Without -C every copy reads the file itself. */
    assert_int_equal(lmb_input_prepare(&in, path, 4, false, 0, 3, NULL, err, sizeof err), 0);
    assert_string_equal(lmb_input_take(&in, clone, sizeof clone), path);
    lmb_input_release(&in);
    unlink(path);
    assert_int_equal(rmdir(base), 0);
}


/* --- lat_ctx: the ring and the overhead ----------------------------------------- */

/* A result as the harness returns it: ok, samples in ns. */
static void ring_result(struct lmb_result *r, const double *v, size_t n, enum lmb_status st)
{
    memset(r, 0, sizeof *r);
    r->status = st;
    r->n = n;
    r->samples = malloc(n * sizeof *v);
    assert_non_null(r->samples);
    memcpy(r->samples, v, n * sizeof *v);
}

static void test_ring_subtract(void **state)
{
    struct lmb_result r;
    const double hop[] = { 2000, 2100, 1900, 2050, 1950 };
    const double close_hop[] = { 2000, 2100, 1400, 2050, 1950 };

    (void)state;
    /* Every hop longer than the overhead: each sample minus it, still ok. */
    ring_result(&r, hop, 5, LMB_OK);
    assert_true(lmb_result_median(&r) == 2000);
    lmb_ring_subtract(&r, 1500);
    assert_int_equal(r.status, LMB_OK);
    assert_true(r.samples[0] == 500 && r.samples[1] == 600 && r.samples[2] == 400);
    assert_true(lmb_result_median(&r) == 500);
    lmb_result_free(&r);

    /* One hop not longer than the overhead: below_resolution, both figures said,
     * never a negative value shown. */
    ring_result(&r, close_hop, 5, LMB_OK);
    lmb_ring_subtract(&r, 1500);
    assert_int_equal(r.status, LMB_BELOW_RESOLUTION);
    assert_non_null(strstr(r.reason, "2.000 us"));   /* the hop's median */
    assert_non_null(strstr(r.reason, "1.400 us"));   /* the shortest hop */
    assert_non_null(strstr(r.reason, "1.500 us"));   /* the overhead */
    assert_true(lmb_result_median(&r) < 0);          /* not ok: no headline */
    lmb_result_free(&r);

    /* All hops shorter than the overhead: the same, whatever the median. */
    ring_result(&r, hop, 5, LMB_OK);
    lmb_ring_subtract(&r, 5000);
    assert_int_equal(r.status, LMB_BELOW_RESOLUTION);
    lmb_result_free(&r);

    /* A result that is not ok keeps its status and samples. */
    ring_result(&r, hop, 5, LMB_FAILED);
    lmb_ring_subtract(&r, 1500);
    assert_int_equal(r.status, LMB_FAILED);
    assert_true(r.samples[0] == 2000);
    lmb_result_free(&r);
}

/* lat_ctx's overhead and lat_sig's kill(self, 0): a low estimate that one
 * disturbed run does not move. */
static void test_baseline_low(void **state)
{
    struct lmb_result r;
    /* One disturbed overhead run of five (1.93 us among 0.68 us). */
    const double one_bad[] = { 680, 1930, 690, 700, 685 };
    /* Two runs, one disturbed: a median would be 1305. */
    const double two[] = { 1930, 680 };
    const double hop[] = { 2000, 2100, 1900 };

    (void)state;
    assert_string_equal(LMB_BASELINE_ESTIMATE, "min");
    ring_result(&r, one_bad, 5, LMB_OK);
    assert_true(lmb_baseline_low(&r) == 680);
    lmb_result_free(&r);
    ring_result(&r, two, 2, LMB_OK);
    assert_true(lmb_baseline_low(&r) == 680);
    lmb_result_free(&r);

    /* The rows come out of the least disturbed overhead, not the outlier. */
    ring_result(&r, two, 2, LMB_OK);
    double ovr = lmb_baseline_low(&r);
    lmb_result_free(&r);
    ring_result(&r, hop, 3, LMB_OK);
    lmb_ring_subtract(&r, ovr);
    assert_int_equal(r.status, LMB_OK);
    assert_true(r.samples[0] == 1320 && r.samples[1] == 1420 && r.samples[2] == 1220);
    lmb_result_free(&r);

    /* Nothing to estimate from: -1. */
    ring_result(&r, one_bad, 5, LMB_FAILED);
    assert_true(lmb_baseline_low(&r) < 0);
    lmb_result_free(&r);
    memset(&r, 0, sizeof r);
    assert_true(lmb_baseline_low(&r) < 0);
}

/* lat_sig catch: kill() and the handler minus kill(self, 0)'s low estimate,
 * and a status (never a negative value) when nothing is left. */
static void test_sig_subtract(void **state)
{
    struct lmb_result raw, kill0;
    const double raw_ns[] = { 1900, 1950, 2400, 1920 };
    const double kill0_ns[] = { 470, 460, 1300, 465 };
    const double slow_kill0[] = { 1950, 2000, 1990, 2010 };

    (void)state;
    ring_result(&raw, raw_ns, 4, LMB_OK);
    ring_result(&kill0, kill0_ns, 4, LMB_OK);
    lmb_result_subtract(&raw, lmb_baseline_low(&kill0), "kill() and the handler", "kill(self, 0)",
                        "no handler left");
    assert_int_equal(raw.status, LMB_OK);
    assert_true(raw.samples[0] == 1440 && raw.samples[1] == 1490 && raw.samples[2] == 1940 &&
                raw.samples[3] == 1460);
    lmb_result_free(&raw);
    lmb_result_free(&kill0);

    /* kill(self, 0) as slow as the whole: below_resolution, both figures said. */
    ring_result(&raw, raw_ns, 4, LMB_OK);
    ring_result(&kill0, slow_kill0, 4, LMB_OK);
    lmb_result_subtract(&raw, lmb_baseline_low(&kill0), "kill() and the handler", "kill(self, 0)",
                        "no handler left");
    assert_int_equal(raw.status, LMB_BELOW_RESOLUTION);
    assert_non_null(strstr(raw.reason, "kill() and the handler took 1.935 us"));
    assert_non_null(strstr(raw.reason, "1.900 us the shortest"));
    assert_non_null(strstr(raw.reason, "kill(self, 0) 1.950 us: no handler left"));
    lmb_result_free(&raw);
    lmb_result_free(&kill0);
}

/* A real ring of n processes: process 0 (this one) sends a token round `laps`
 * times; each other member adds its number; then closing 0's ends makes every
 * member see end of file in turn and exit 0. */
static void ring_of(unsigned n, unsigned laps)
{
    struct lmb_ring r;
    char err[200];
    pid_t pids[16];
    int token = 0, want = 0;

    assert_true(n <= 16);
    assert_int_equal(lmb_ring_open(&r, n, err, sizeof err), 0);
    for (unsigned k = 1; k < n; k++) {
        pids[k] = fork();
        assert_true(pids[k] >= 0);
        if (pids[k] == 0) {
            int t, rc;
            signal(SIGPIPE, SIG_IGN);
            lmb_ring_keep(&r, k);
            while ((rc = lmb_ring_recv(&r, k, &t)) == 0)
                if (lmb_ring_send(&r, k, t + (int)k) != 0)
                    _exit(3);
            _exit(rc == 1 ? 0 : 2);
        }
    }
    lmb_ring_keep(&r, 0);
    for (unsigned lap = 0; lap < laps; lap++) {
        assert_int_equal(lmb_ring_send(&r, 0, token), 0);
        assert_int_equal(lmb_ring_recv(&r, 0, &token), 0);
        want += (int)(n * (n - 1) / 2);
    }
    assert_int_equal(token, want);
    lmb_ring_close(&r);
    for (unsigned k = 1; k < n; k++) {
        int ws;
        assert_int_equal(waitpid(pids[k], &ws, 0), pids[k]);
        assert_true(WIFEXITED(ws));
        assert_int_equal(WEXITSTATUS(ws), 0);   /* left at end of file */
    }
}

static void test_ring_processes(void **state)
{
    (void)state;
    ring_of(2, 100);
    ring_of(5, 50);
    ring_of(16, 10);
}

/* The same ring in one process (as threads would share it): send and receive
 * by hand, each member's ends are the right pipes, and leave closes exactly the
 * two ends of a member. */
static void test_ring_ends(void **state)
{
    struct lmb_ring r;
    char err[200];
    int t = 7;

    (void)state;
    assert_int_equal(lmb_ring_open(&r, 3, err, sizeof err), 0);
    for (unsigned k = 0; k < 3; k++) {
        assert_int_equal(lmb_ring_send(&r, k, t + (int)k), 0);     /* into k+1 */
        assert_int_equal(lmb_ring_recv(&r, (k + 1) % 3, &t), 0);
        assert_int_equal(t, 7 + (int)k);
        t = 7;
    }
    lmb_ring_leave(&r, 1);   /* closes pipe 1's read end and pipe 2's write end */
    assert_int_equal(r.pipes[1][0], -1);
    assert_int_equal(r.pipes[2][1], -1);
    assert_true(r.pipes[1][1] >= 0 && r.pipes[2][0] >= 0 && r.pipes[0][0] >= 0);
    assert_int_equal(lmb_ring_recv(&r, 2, &t), 1);   /* no writer left: end of file */
    lmb_ring_close(&r);
    assert_null(r.pipes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mb_us),
        cmocka_unit_test(test_lmdd),
        cmocka_unit_test(test_ctx_shapes),
        cmocka_unit_test(test_fs_pair),
        cmocka_unit_test(test_sum_bytes),
        cmocka_unit_test(test_mmap_touches),
        cmocka_unit_test(test_seek_walk),
        cmocka_unit_test(test_tmpdir_tree),
        cmocka_unit_test(test_check_input),
        cmocka_unit_test(test_clones),
        cmocka_unit_test(test_ring_subtract),
        cmocka_unit_test(test_baseline_low),
        cmocka_unit_test(test_sig_subtract),
        cmocka_unit_test(test_ring_processes),
        cmocka_unit_test(test_ring_ends),
    };

    lmb_cleanup_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
