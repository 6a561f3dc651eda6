// SPDX-License-Identifier: MIT
/* Unit tests of the summary page's number format (src/suite/summary.c), the
 * memory latency row (src/suite/memlat.c, over src/lib/curve) on made-up
 * curves, the cells' placement, substitutions, plausibility and spread, and
 * the run settings (src/suite/runconf.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "suite/memlat.h"
#include "suite/results.h"
#include "suite/runconf.h"
#include "suite/summary.h"

static void check_fmt(double v, int width, const char *want)
{
    char out[64];

    lmb_sum_format(v, width, out, sizeof out);
    if (strcmp(out, want) != 0)
        fail_msg("format(%.10g, %d) = '%s', want '%s'", v, width, out, want);
}

/* Cells of lmbench 3's summary of the fixture, and the edges of the rule. */
static void test_format(void **state)
{
    (void)state;
    check_fmt(0.0524, 4, "0.05");
    check_fmt(6.49, 6, "6.4900");
    check_fmt(1.94, 7, "1.94000");
    check_fmt(3.1476, 5, "3.148");
    check_fmt(92.7692, 4, "92.8");
    check_fmt(198.7143, 4, "198.");     /* one decimal, cut to the width */
    check_fmt(10.2236, 3, "10.");
    check_fmt(56.970318, 6, "57.0");
    check_fmt(2299, 7, "2299.0");
    check_fmt(7193.69, 4, "7193");
    check_fmt(7887.85, 5, "7887.");
    check_fmt(18791.58, 4, "18.K");
    check_fmt(20075.19, 6, "20.1K");
    check_fmt(12345678, 6, "12.3M");
    check_fmt(0.0004, 4, "0.0004");      /* too small for the width: 3 significant digits */
    check_fmt(0.00012345, 6, "0.0001");     /* as lmbench 3: what fits */
    check_fmt(0.00004, 4, "4e-05");
    check_fmt(0, 4, "0.00");
    check_fmt(NAN, 4, "");
    check_fmt(INFINITY, 4, "");
    check_fmt(9.9999, 4, "10.0");
}

/* A file with one stride curve and a random chase built from plateaus. */
static void add_curve(struct lmb_rs_file *f, const char *kind, long stride, const double *lat,
                      const double *upto, size_t nlevels)
{
    for (double s = 512; s <= 512.0 * 1024 * 1024; s *= 1.25) {
        double size = round(s / 512) * 512, ns = lat[nlevels - 1];
        struct lmb_rs_record *r;
        for (size_t k = 0; k < nlevels; k++)
            if (size <= upto[k]) {
                ns = lat[k];
                break;
            }
        r = lmb_rs_add(f, "lat_mem_rd", kind, "ns");
        lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, size);
        lmb_rs_param_num(r, "stride_bytes", LMB_RS_INT, (double)stride);
        lmb_rs_set_value(r, ns);
    }
}

/* A file with the stride-128 curve of four levels (1, 4, 12 ns, memory 80 ns)
 * and, when rstride > 0, a random chase at that stride (memory 150 ns). */
static void four_levels(struct lmb_rs_file *f, long rstride)
{
    const double lat[] = { 1.0, 4.0, 12.0, 80.0 }, upto[] = { 32768, 1 << 20, 32 << 20, 1e12 };
    const double rlat[] = { 1.0, 5.0, 20.0, 150.0 };

    memset(f, 0, sizeof *f);
    add_curve(f, "stride", 128, lat, upto, 4);
    if (rstride > 0)
        add_curve(f, "random", rstride, rlat, upto, 4);
}

static void test_memlat_levels(void **state)
{
    struct lmb_rs_file f;
    struct lmb_memlat m;

    (void)state;
    four_levels(&f, 16);
    lmb_memlat_summarize(&f, &m);
    assert_int_equal(m.nlevels, 3);
    assert_true(fabs(m.level_ns[0] - 1.0) < 1e-9);
    assert_true(fabs(m.level_ns[1] - 4.0) < 1e-9);
    assert_true(fabs(m.level_ns[2] - 12.0) < 1e-9);
    /* Each level's size: about the last working set of its plateau. */
    assert_true(m.level_bytes[0] <= 32768 && m.level_bytes[0] > 16384);
    assert_true(m.level_bytes[2] <= 32 << 20 && m.level_bytes[2] > 16 << 20);
    assert_true(fabs(m.main_ns - 80.0) < 1e-9);
    assert_true(fabs(m.rand_ns - 150.0) < 1e-9);
    assert_null(strstr(m.guesses, "prefetched"));
    assert_non_null(strstr(m.guesses, "no declared caches"));
    lmb_rs_free(&f);
}

/* Rand mem is lmbench 3's random chase at stride 16: a chase at another stride
 * is another quantity and stays out of the cell (said in Guesses); a record
 * whose compat is not "same" never fills a cell. */
static void test_memlat_random_stride(void **state)
{
    struct lmb_rs_file f;
    struct lmb_memlat m;

    (void)state;
    four_levels(&f, 64);
    lmb_memlat_summarize(&f, &m);
    assert_true(isnan(m.rand_ns));
    assert_non_null(strstr(m.guesses, "random chase at stride 64, not 16"));
    assert_true(fabs(m.main_ns - 80.0) < 1e-9);
    lmb_rs_free(&f);

    four_levels(&f, 0);
    for (size_t i = 0; i < f.nrecs; i++)
        f.recs[i].compat = lmb_rs_strdup("differs: a test quantity");
    lmb_memlat_summarize(&f, &m);
    assert_int_equal(m.nlevels, 0);
    assert_true(isnan(m.main_ns));
    lmb_rs_free(&f);
}

/* The column of the summary whose key is key. */
static const struct lmb_sum_col *column(const char *key)
{
    for (size_t t = 0; t < lmb_sum_ntables; t++)
        for (int c = 0; c < lmb_sum_tables[t].ncols; c++)
            if (strcmp(lmb_sum_tables[t].cols[c].key, key) == 0)
                return &lmb_sum_tables[t].cols[c];
    return NULL;
}

/* A figure that is not lmbench 3's quantity never fills a cell of its tables;
 * lmbench 3's quantity beside it does. */
static void test_cell_compat(void **state)
{
    struct lmb_rs_file f;
    struct lmb_rs_record *r;
    const struct lmb_sum_opts o = { NULL };
    const struct lmb_sum_col *c = column("null_call");

    (void)state;
    assert_non_null(c);
    memset(&f, 0, sizeof f);
    r = lmb_rs_add(&f, "lat_syscall", "null", "us");
    lmb_rs_set_value(r, 0.5);
    r->compat = lmb_rs_strdup("differs: a test quantity");
    assert_true(isnan(lmb_sum_cell(&o, &f, c, NULL, 0)));
    r = lmb_rs_add(&f, "lat_syscall", "null", "us");
    lmb_rs_set_value(r, 0.25);
    assert_true(fabs(lmb_sum_cell(&o, &f, c, NULL, 0) - 0.25) < 1e-12);
    /* Later records of the same thing win, but never one of another quantity. */
    r = lmb_rs_add(&f, "lat_syscall", "null", "us");
    lmb_rs_set_value(r, 0.75);
    r->compat = lmb_rs_strdup("new: another");
    assert_true(fabs(lmb_sum_cell(&o, &f, c, NULL, 0) - 0.25) < 1e-12);
    lmb_rs_free(&f);
}

/* A lat_ctx record of procs processes and kb KiB at a placement. */
static struct lmb_rs_record *ctx_rec(struct lmb_rs_file *f, int procs, int kb, const char *ends,
                                     double v)
{
    struct lmb_rs_record *r = lmb_rs_add(f, "lat_ctx", NULL, "us");
    lmb_rs_param_num(r, "size_kb", LMB_RS_INT, kb);
    lmb_rs_param_num(r, "procs", LMB_RS_INT, procs);
    if (ends != NULL)
        lmb_rs_param_str(r, "ends", ends);
    if (isnan(v))
        lmb_rs_set_status(r, LMB_RS_BELOW, "too fast");
    else
        lmb_rs_set_value(r, v);
    return r;
}

/* A cell shows the placement asked for, never another one silently: a
 * one-CPU figure below resolution leaves the cell blank and the note names the
 * two-CPU figure; --ends two_cpus shows it. */
static void test_placement_not_mixed(void **state)
{
    struct lmb_rs_file f;
    struct lmb_sum_cellx x;
    const struct lmb_sum_opts dflt = { NULL }, two = { "two_cpus" };
    const struct lmb_sum_col *c = column("2p_0k");
    bool only = true;

    (void)state;
    memset(&f, 0, sizeof f);
    ctx_rec(&f, 2, 0, "same_cpu", NAN);
    ctx_rec(&f, 2, 0, "two_cpus", 5.0);
    assert_string_equal(lmb_sum_placement(&dflt, &f, &only), "same_cpu");
    assert_false(only);
    lmb_sum_cell_ex(&dflt, &f, c, &x);
    assert_true(isnan(x.value));
    assert_true(x.below);
    assert_non_null(strstr(x.blank, "same_cpu below resolution"));
    assert_non_null(strstr(x.blank, "--ends two_cpus shows the two_cpus one"));
    lmb_sum_cell_ex(&two, &f, c, &x);
    assert_true(fabs(x.value - 5.0) < 1e-12);
    assert_int_equal(x.mark, 0);
    lmb_rs_free(&f);
}

/* A file with one placement only (lmbench 3: unpinned) shows it by default,
 * plainly; asking for another leaves the cells blank, said so. */
static void test_placement_only_one(void **state)
{
    struct lmb_rs_file f;
    struct lmb_sum_cellx x;
    const struct lmb_sum_opts dflt = { NULL }, same = { "same_cpu" };
    const struct lmb_sum_col *c = column("2p_16k");
    bool only = false;

    (void)state;
    memset(&f, 0, sizeof f);
    ctx_rec(&f, 2, 16, "unpinned", 1.87);
    ctx_rec(&f, 2, 0, "unpinned", 1.88);
    assert_string_equal(lmb_sum_placement(&dflt, &f, &only), "unpinned");
    assert_true(only);
    lmb_sum_cell_ex(&dflt, &f, c, &x);
    assert_true(fabs(x.value - 1.87) < 1e-12);
    /* 1.87 with 16 KB against 1.88 without: within the slack, not implausible. */
    assert_int_equal(x.mark, 0);
    lmb_sum_cell_ex(&same, &f, c, &x);
    assert_true(isnan(x.value));
    assert_non_null(strstr(x.blank, "no same_cpu figure"));
    assert_non_null(strstr(x.blank, "--ends unpinned shows the unpinned one"));
    lmb_rs_free(&f);
}

/* A switch with more data much faster than one with less, on the same
 * placement, is implausible; on different placements it is not compared. */
static void test_ctx_implausible(void **state)
{
    struct lmb_rs_file f;
    struct lmb_sum_cellx x;
    const struct lmb_sum_opts dflt = { NULL };

    (void)state;
    memset(&f, 0, sizeof f);
    ctx_rec(&f, 8, 16, "same_cpu", 4.0);
    ctx_rec(&f, 8, 64, "same_cpu", 2.0);
    lmb_sum_cell_ex(&dflt, &f, column("8p_64k"), &x);
    assert_true(fabs(x.value - 2.0) < 1e-12);
    assert_int_equal(x.mark, LMB_SUM_MARK_DOUBT);
    assert_non_null(strstr(x.doubt, "faster than 8p/16K"));
    lmb_sum_cell_ex(&dflt, &f, column("8p_16k"), &x);
    assert_int_equal(x.mark, 0);
    lmb_rs_free(&f);
}

/* Spread: the CV of the samples, or of the launches' medians when there are
 * several launches; over 50% the cell is implausible. */
static void test_spread(void **state)
{
    struct lmb_rs_file f;
    struct lmb_rs_record *r;
    struct lmb_sum_cellx x;
    const struct lmb_sum_opts dflt = { NULL };
    const double s[] = { 0.1, 0.1, 0.1, 0.11, 0.11, 0.11, 0.12, 0.12, 0.12 };
    size_t nl = 9;

    (void)state;
    memset(&f, 0, sizeof f);
    r = lmb_rs_add(&f, "lat_syscall", "null", "us");
    lmb_rs_set_value(r, 0.11);
    r->samples = malloc(sizeof s);
    assert_non_null(r->samples);
    memcpy(r->samples, s, sizeof s);
    r->nsamples = 9;
    /* One launch: the samples' CV. */
    assert_true(fabs(lmb_sum_spread(r, &nl) - 7.872958) < 1e-4);
    assert_int_equal(nl, 0);
    r->launch_n = malloc(3 * sizeof *r->launch_n);
    assert_non_null(r->launch_n);
    r->launch_n[0] = r->launch_n[1] = r->launch_n[2] = 3;
    r->nlaunches = 3;
    assert_true(fabs(lmb_sum_spread(r, &nl) - 9.090909) < 1e-4);
    assert_int_equal(nl, 3);
    lmb_sum_cell_ex(&dflt, &f, column("null_call"), &x);
    assert_int_equal(x.mark, 0);
    assert_int_equal(x.spread_launches, 3);
    r->samples[8] = 1.0;      /* the last launch's median is now 0.12, samples spread */
    r->launch_n[2] = 3;
    r->samples[6] = 1.0;
    r->samples[7] = 1.0;      /* medians 0.1, 0.11, 1.0: CV far over 50% */
    lmb_sum_cell_ex(&dflt, &f, column("null_call"), &x);
    assert_int_equal(x.mark, LMB_SUM_MARK_DOUBT);
    assert_true(x.noisy);
    assert_int_equal(x.spread_launches, 3);
    assert_true(x.spread > LMB_SUM_SPREAD_DOUBT);
    lmb_rs_free(&f);
}

static struct lmb_rs_record *bw_rec(struct lmb_rs_file *f, const char *c, double size, int conflict,
                                    double v)
{
    struct lmb_rs_record *r = lmb_rs_add(f, "bw_mem", c, "MB/s");
    r->higher_better = true;
    lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, size);
    if (conflict >= 0)
        lmb_rs_param_num(r, "conflict", LMB_RS_BOOL, conflict);
    if (isnan(v))
        lmb_rs_set_status(r, LMB_RS_TIMEOUT, "too slow");
    else
        lmb_rs_set_value(r, v);
    return r;
}

/* Substitutions are marked: another size (the largest failed), another case
 * (null I/O from read alone), another copy (bcopy with conflict). Memory
 * faster than the sizes that fit a cache is implausible. */
static void test_substitutions(void **state)
{
    struct lmb_rs_file f;
    struct lmb_rs_record *r;
    struct lmb_sum_cellx x;
    const struct lmb_sum_opts dflt = { NULL };

    (void)state;
    memset(&f, 0, sizeof f);
    bw_rec(&f, "fwr", 32 << 20, -1, 9000);
    bw_rec(&f, "fwr", 64 << 20, -1, NAN);
    lmb_sum_cell_ex(&dflt, &f, column("mem_write"), &x);
    assert_true(fabs(x.value - 9000) < 1e-9);
    assert_int_equal(x.mark, LMB_SUM_MARK_SUBST);
    assert_non_null(strstr(x.subst, "at 32 MiB, not the largest size 64 MiB"));

    bw_rec(&f, "bcopy", 64 << 20, 1, 8000);
    lmb_sum_cell_ex(&dflt, &f, column("bcopy_libc"), &x);
    assert_int_equal(x.mark, LMB_SUM_MARK_SUBST);
    assert_non_null(strstr(x.subst, "aligned copy (conflict)"));
    bw_rec(&f, "bcopy", 64 << 20, 0, 7000);
    lmb_sum_cell_ex(&dflt, &f, column("bcopy_libc"), &x);
    assert_true(fabs(x.value - 7000) < 1e-9);
    assert_int_equal(x.mark, 0);

    bw_rec(&f, "frd", 32768, -1, 10000);
    bw_rec(&f, "frd", 64 << 20, -1, 20000);
    lmb_sum_cell_ex(&dflt, &f, column("mem_read"), &x);
    assert_int_equal(x.mark, LMB_SUM_MARK_DOUBT);
    assert_non_null(strstr(x.doubt, "faster than any size that fits a cache"));

    r = lmb_rs_add(&f, "lat_syscall", "read", "us");
    lmb_rs_set_value(r, 0.2);
    r = lmb_rs_add(&f, "lat_syscall", "write", "us");
    lmb_rs_set_status(r, LMB_RS_FAILED, "injected");
    lmb_sum_cell_ex(&dflt, &f, column("null_io"), &x);
    assert_true(fabs(x.value - 0.2) < 1e-12);
    assert_int_equal(x.mark, LMB_SUM_MARK_SUBST);
    assert_non_null(strstr(x.subst, "read only"));
    assert_non_null(strstr(x.subst, "write: failed (injected)"));
    r = lmb_rs_add(&f, "lat_syscall", "write", "us");
    lmb_rs_set_value(r, 0.4);
    lmb_sum_cell_ex(&dflt, &f, column("null_io"), &x);
    assert_true(fabs(x.value - 0.3) < 1e-12);
    assert_int_equal(x.mark, 0);
    lmb_rs_free(&f);
}

static void check_mit(const char *v, const char *want)
{
    char out[200];

    lmb_sum_mitigations(v, out, sizeof out);
    if (strcmp(out, want) != 0)
        fail_msg("mitigations(%s) = '%s', want '%s'", v ? v : "NULL", out, want);
}

/* The entries are told apart from the parts of a state ("IBPB: conditional")
 * by their lower-case names. */
static void test_mitigations(void **state)
{
    (void)state;
    check_mit("meltdown: Mitigation: PTI; spectre_v2: Mitigation: Retpolines; IBPB: conditional; "
              "STIBP: disabled; RSB filling; srbds: Not affected; spec_store_bypass: Vulnerable",
              "2 of 4 mitigated, 1 vulnerable (spec_store_bypass), 1 not affected");
    check_mit("l1tf: Not affected", "0 of 1 mitigated, 0 vulnerable, 1 not affected");
    check_mit("mds: Vulnerable: Clear CPU buffers attempted, no microcode; retbleed: Vulnerable; "
              "tsa: Unknown: no data",
              "0 of 3 mitigated, 2 vulnerable (mds, retbleed), 0 not affected, 1 other");
    check_mit(NULL, "unknown");
    check_mit("garbage", "not understood");
}

static void test_memlat_short_curve(void **state)
{
    struct lmb_rs_file f;
    struct lmb_memlat m;
    const double lat[] = { 1.0, 4.0 }, upto[] = { 32768, 1e12 };

    (void)state;
    memset(&f, 0, sizeof f);
    /* Declared caches larger than the curve: it ends inside them. */
    f.ncaches = 1;
    f.caches[0].level = 3;
    snprintf(f.caches[0].type, sizeof f.caches[0].type, "Unified");
    f.caches[0].size = 1ULL << 40;
    add_curve(&f, "stride", 64, lat, upto, 2);
    lmb_memlat_summarize(&f, &m);
    assert_int_equal(m.nlevels, 2);
    assert_true(isnan(m.main_ns));
    assert_true(isnan(m.rand_ns));
    assert_non_null(strstr(m.guesses, "curve ends before memory"));
    assert_non_null(strstr(m.guesses, "no random chase"));
    lmb_rs_free(&f);
}

/* A stride curve whose memory a prefetcher hides (a last plateau too fast for
 * memory, far past the last cache): main memory as the stride sees it, said so. */
static void test_memlat_prefetched(void **state)
{
    struct lmb_rs_file f;
    struct lmb_memlat m;
    const double lat[] = { 1.0, 3.3, 7.2, 11.0 }, upto[] = { 49152, 1 << 20, 24 << 20, 1e12 };

    (void)state;
    memset(&f, 0, sizeof f);
    add_curve(&f, "stride", 128, lat, upto, 4);
    lmb_memlat_summarize(&f, &m);
    assert_int_equal(m.nlevels, 3);
    assert_true(fabs(m.level_ns[2] - 7.2) < 1e-9);
    assert_true(fabs(m.main_ns - 11.0) < 1e-9);
    assert_non_null(strstr(m.guesses, "main mem prefetched (stride 128)"));
    lmb_rs_free(&f);
}

static void test_memlat_none(void **state)
{
    struct lmb_rs_file f;
    struct lmb_memlat m;

    (void)state;
    memset(&f, 0, sizeof f);
    lmb_memlat_summarize(&f, &m);
    assert_int_equal(m.nlevels, 0);
    assert_true(isnan(m.main_ns) && isnan(m.rand_ns));
    assert_string_equal(m.guesses, "no lat_mem_rd curve");
}

static void test_sconf(void **state)
{
    struct lmb_sconf c;
    char err[300];

    (void)state;
    lmb_sconf_defaults(&c);
    assert_int_equal(lmb_sconf_set(&c, "MB", "64", err, sizeof err), 0);
    assert_int_equal((int)c.mb, 64);
    assert_int_equal(lmb_sconf_set(&c, "SYNC_MAX", "4", err, sizeof err), 0);
    assert_int_equal((int)c.parallel, 4);
    assert_int_equal(lmb_sconf_set(&c, "BENCHMARK_OS", "NO", err, sizeof err), 0);
    assert_false(c.os);
    assert_int_equal(lmb_sconf_set(&c, "FASTMEM", "YES", err, sizeof err), 1);   /* lmbench 3's, unused */
    assert_int_equal(lmb_sconf_set(&c, "NOSUCHKEY", "1", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown key"));
    assert_int_equal(lmb_sconf_set(&c, "ENOUGH", "abc", err, sizeof err), -1);
    assert_int_equal(lmb_sconf_set(&c, "PROFILE", "huge", err, sizeof err), -1);
    assert_int_equal(lmb_sconf_set(&c, "REMOTE", "host; rm -rf /", err, sizeof err), -1);
    assert_int_equal(lmb_sconf_set(&c, "REMOTE", "a.example b", err, sizeof err), 0);
}


/* --- the Modern tables ----------------------------------------------------------- */

static const struct lmb_sum_table *table(const char *key)
{
    for (size_t t = 0; t < lmb_sum_ntables; t++)
        if (strcmp(lmb_sum_tables[t].key, key) == 0)
            return &lmb_sum_tables[t];
    return NULL;
}

static const struct lmb_sum_col *tcol(const char *tkey, const char *ckey)
{
    const struct lmb_sum_table *t = table(tkey);
    for (int c = 0; t != NULL && c < t->ncols; c++)
        if (strcmp(t->cols[c].key, ckey) == 0)
            return &t->cols[c];
    return NULL;
}

static void c2c_pair(struct lmb_rs_file *f, int a, int b, const char *rel, double ns)
{
    struct lmb_rs_record *r = lmb_rs_add(f, "lat_c2c", "cas", "ns");
    lmb_rs_param_num(r, "cpu_a", LMB_RS_INT, a);
    lmb_rs_param_num(r, "cpu_b", LMB_RS_INT, b);
    lmb_rs_param_str(r, "relation", rel);
    r->compat = lmb_rs_strdup("new: a test");
    if (isnan(ns))
        lmb_rs_set_status(r, LMB_RS_SKIPPED, "CPU 9 is offline");
    else
        lmb_rs_set_value(r, ns);
}

/* Min, median and max over the pairs (of any compat), the relation of the
 * fastest and slowest, the unmeasured pairs said; all unmeasured: blank
 * with the reason; the matrix symmetric. */
static void test_modern_c2c(void **state)
{
    struct lmb_rs_file f;
    struct lmb_sum_cellx x;
    struct lmb_sum_matrix *m;
    char text[64];
    int n;

    (void)state;
    memset(&f, 0, sizeof f);
    c2c_pair(&f, 0, 1, "smt", 20);
    c2c_pair(&f, 0, 2, "socket", 150);
    c2c_pair(&f, 1, 2, "core", 60);
    c2c_pair(&f, 2, 3, "core", 70);
    c2c_pair(&f, 0, 9, "unknown", NAN);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_c2c", "min"), &x);
    assert_true(x.value == 20);
    assert_non_null(strstr(x.info, "CPUs 0 and 1 (smt), the fastest of 4 pairs"));
    lmb_sum_cell_ex(NULL, &f, tcol("modern_c2c", "median"), &x);
    assert_true(x.value == 65);          /* the mean of the middle two */
    assert_non_null(strstr(x.info, "1 pair unmeasured"));
    lmb_sum_cell_ex(NULL, &f, tcol("modern_c2c", "max"), &x);
    assert_true(x.value == 150);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_c2c", "pairs"), &x);
    assert_true(x.value == 4);
    lmb_sum_cell(NULL, &f, tcol("modern_c2c", "max_relation"), text, sizeof text);
    assert_string_equal(text, "socket");
    n = lmb_sum_matrices(&f, &m);
    assert_int_equal(n, 1);
    assert_int_equal(m[0].n, 5);          /* CPUs 0 1 2 3 9 */
    assert_true(m[0].v[0 * 5 + 2] == 150 && m[0].v[2 * 5 + 0] == 150);
    assert_int_equal(m[0].rel[1], 's');
    assert_true(isnan(m[0].v[0 * 5 + 4]));
    assert_string_equal(m[0].why[4 * 5 + 0], "CPU 9 is offline");
    assert_int_equal(m[0].measured, 4);
    assert_int_equal(m[0].unmeasured, 1);
    lmb_sum_matrices_free(m, n);
    lmb_rs_free(&f);

    memset(&f, 0, sizeof f);
    c2c_pair(&f, 0, 9, "unknown", NAN);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_c2c", "min"), &x);
    assert_true(isnan(x.value));
    assert_non_null(strstr(x.blank, "CPU 9 is offline"));
    lmb_rs_free(&f);
}

static void numa_rec(struct lmb_rs_file *f, const char *b, int cn, int mn, double v)
{
    struct lmb_rs_record *r = lmb_rs_add(f, b, strcmp(b, "bw_numa") == 0 ? "rd" : NULL,
                                         strcmp(b, "bw_numa") == 0 ? "MB/s" : "ns");
    lmb_rs_param_num(r, "cpu_node", LMB_RS_INT, cn);
    lmb_rs_param_num(r, "mem_node", LMB_RS_INT, mn);
    lmb_rs_set_value(r, v);
}

/* NUMA: local the median of the diagonal, remote the worst other pair (the
 * highest latency, the lowest bandwidth); one node: "one node". */
static void test_modern_numa(void **state)
{
    struct lmb_rs_file f;
    struct lmb_sum_cellx x;

    (void)state;
    memset(&f, 0, sizeof f);
    numa_rec(&f, "lat_numa", 0, 0, 90);
    numa_rec(&f, "lat_numa", 1, 1, 100);
    numa_rec(&f, "lat_numa", 0, 1, 140);
    numa_rec(&f, "lat_numa", 1, 0, 150);
    numa_rec(&f, "bw_numa", 0, 1, 9000);
    numa_rec(&f, "bw_numa", 1, 0, 8000);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_memory", "numa_local"), &x);
    assert_true(x.value == 95);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_memory", "numa_remote"), &x);
    assert_true(x.value == 150);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_bandwidth", "numa_remote"), &x);
    assert_true(x.value == 8000);
    lmb_rs_free(&f);

    memset(&f, 0, sizeof f);
    numa_rec(&f, "lat_numa", 0, 0, 90);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_memory", "numa_remote"), &x);
    assert_true(isnan(x.value));
    assert_string_equal(x.word, "one node");
    assert_non_null(strstr(x.blank, "one NUMA node"));
    lmb_rs_free(&f);
}

static void mem_rec(struct lmb_rs_file *f, const char *pages, double size, double ns, double pct)
{
    struct lmb_rs_record *r = lmb_rs_add(f, "lat_mem_rd", "random", "ns");
    lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, size);
    lmb_rs_param_num(r, "stride_bytes", LMB_RS_INT, 64);
    lmb_rs_param_str(r, "pages", pages);
    lmb_rs_param_num(r, "huge_percent", LMB_RS_INT, pct);
    lmb_rs_set_value(r, ns);
}

/* Huge pages: the largest size both kinds measured; a huge-page figure of
 * few huge pages is marked; one kind alone fills nothing. */
static void test_modern_huge(void **state)
{
    struct lmb_rs_file f;
    struct lmb_sum_cellx x;

    (void)state;
    memset(&f, 0, sizeof f);
    mem_rec(&f, "4k", 1 << 20, 5, 0);
    mem_rec(&f, "4k", 64 << 20, 110, 0);
    mem_rec(&f, "4k", 128 << 20, 120, 0);      /* no thp point at this size */
    mem_rec(&f, "thp", 1 << 20, 5, 100);
    mem_rec(&f, "thp", 64 << 20, 80, 20);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_memory", "pages_4k"), &x);
    assert_true(x.value == 110);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_memory", "pages_huge"), &x);
    assert_true(x.value == 80);
    assert_int_equal(x.mark, LMB_SUM_MARK_SUBST);
    assert_non_null(strstr(x.subst, "20%"));
    lmb_rs_free(&f);

    memset(&f, 0, sizeof f);
    mem_rec(&f, "4k", 64 << 20, 110, 0);
    lmb_sum_cell_ex(NULL, &f, tcol("modern_memory", "pages_4k"), &x);
    assert_true(isnan(x.value));
    lmb_sum_cell_ex(NULL, &f, tcol("modern_memory", "pages_huge"), &x);
    assert_true(isnan(x.value));
    assert_non_null(strstr(x.blank, "no huge-page record"));
    lmb_rs_free(&f);
}

/* A Modern table shows only the columns some file has, none without one of
 * its own (fork beside nothing is not a reason to show the processes
 * table); its header wraps each label into its width. */
static void test_modern_columns(void **state)
{
    struct lmb_rs_file f;
    struct lmb_rs_record *r;
    int idx[LMB_SUM_MAX_COLS], n;
    char head[3][512], dashes[512];

    (void)state;
    memset(&f, 0, sizeof f);
    r = lmb_rs_add(&f, "lat_proc", "fork", "us");
    lmb_rs_set_value(r, 90);
    assert_int_equal(lmb_sum_shown_cols(NULL, &f, 1, table("modern_processes"), idx), 0);
    assert_int_equal(lmb_sum_shown_cols(NULL, &f, 1, table("processes"), idx),
                     table("processes")->ncols);
    r = lmb_rs_add(&f, "lat_proc", "vfork", "us");
    lmb_rs_set_value(r, 30);
    n = lmb_sum_shown_cols(NULL, &f, 1, table("modern_processes"), idx);
    assert_int_equal(n, 2);
    assert_string_equal(table("modern_processes")->cols[idx[0]].key, "fork");
    assert_string_equal(table("modern_processes")->cols[idx[1]].key, "vfork");
    assert_int_equal(lmb_sum_dynamic_head(table("modern_processes"), idx, n, head, dashes,
                                          sizeof dashes), 2);
    assert_string_equal(head[0], "Host                 OS fork  vfork");
    assert_string_equal(head[1], "                        proc  proc");
    assert_string_equal(dashes, "--------- ------------- ----- -----");
    assert_int_equal(lmb_sum_shown_cols(NULL, &f, 1, table("modern_c2c"), idx), 0);
    lmb_rs_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_memlat_levels),
        cmocka_unit_test(test_memlat_random_stride),
        cmocka_unit_test(test_cell_compat),
        cmocka_unit_test(test_placement_not_mixed),
        cmocka_unit_test(test_placement_only_one),
        cmocka_unit_test(test_ctx_implausible),
        cmocka_unit_test(test_spread),
        cmocka_unit_test(test_substitutions),
        cmocka_unit_test(test_mitigations),
        cmocka_unit_test(test_memlat_short_curve),
        cmocka_unit_test(test_memlat_prefetched),
        cmocka_unit_test(test_memlat_none),
        cmocka_unit_test(test_sconf),
        cmocka_unit_test(test_modern_c2c),
        cmocka_unit_test(test_modern_numa),
        cmocka_unit_test(test_modern_huge),
        cmocka_unit_test(test_modern_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
