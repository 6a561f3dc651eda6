// SPDX-License-Identifier: MIT
/* Unit tests of src/lib/curve.c on synthetic latency curves: clean levels, no
 * L2, noise, a VM that declares a larger L3 than it reaches, a curve that ends
 * inside a cache, memory latency that keeps rising, bad input, and one curve
 * measured on a real machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/curve.h"

#define KB 1024.0
#define MB (1024.0 * 1024.0)
#define MAXPTS 512

/* A synthetic machine: cache capacities and latencies, then memory. */
struct model {
    size_t nlevels;
    double cap[6];
    double lat[6];       /* lat[nlevels] is memory */
    double tlb_slope;    /* extra log-latency per octave past the last cache (0: none) */
};

struct curve {
    size_t n;
    double size[MAXPTS];
    double ns[MAXPTS];
};

/* lat_mem_rd's working-set steps: x2 to 2k, 2k steps to 32k (half-octave steps
 * below 8k), then eight steps per doubling. */
static double next_size(double s)
{
    double octave = 1;

    if (s < 2048)
        return s * 2;
    while (octave * 2 <= s)
        octave *= 2;
    if (s < 8192)
        return s + octave / 2;
    if (s < 32768)
        return s + 2048;
    return s + octave / 8;
}

/* Latency at working set s: each level's share of misses rises smoothly over
 * about a tenth of an octave just past its capacity. */
static double model_ns(const struct model *m, double s)
{
    double t = m->lat[0];

    for (size_t k = 0; k < m->nlevels; k++) {
        double z = (log2(s / m->cap[k]) - 0.12) / 0.06;
        double miss = 1.0 / (1.0 + exp(-z));
        t += (m->lat[k + 1] - m->lat[k]) * miss;
    }
    if (m->tlb_slope > 0 && s > m->cap[m->nlevels - 1] * 2)
        t *= exp(m->tlb_slope * log2(s / (m->cap[m->nlevels - 1] * 2)));
    return t;
}

/* splitmix64, for deterministic noise. */
static uint64_t rnd(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A standard normal deviate (Box-Muller). */
static double gauss(uint64_t *x)
{
    double u = ((double)(rnd(x) >> 11) + 0.5) / 9007199254740992.0;
    double v = ((double)(rnd(x) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* The model's curve from 512 bytes to max, each point multiplied by
 * exp(sigma * N(0,1)). */
static void make_curve(const struct model *m, double max, double sigma, uint64_t seed,
                       struct curve *c)
{
    c->n = 0;
    for (double s = 512; s <= max && c->n < MAXPTS; s = next_size(s)) {
        c->size[c->n] = s;
        c->ns[c->n] = model_ns(m, s) * exp(sigma * gauss(&seed));
        c->n++;
    }
}

static void analyze_ok(const struct curve *cv, struct lmb_curve *c)
{
    int rc = lmb_curve_analyze(cv->size, cv->ns, cv->n, c);
    if (rc != 0)
        fail_msg("lmb_curve_analyze failed: %s", c->nnotes ? c->notes[0] : "(no note)");
}

static void show(const struct lmb_curve *c)
{
    for (size_t i = 0; i < c->nlevels; i++)
        print_message("  level %zu: %.0f bytes, %.3f ns (plateau %.0f-%.0f)%s\n", i + 1,
                      c->levels[i].size_bytes, c->levels[i].latency_ns, c->levels[i].plateau_from,
                      c->levels[i].plateau_to, c->levels[i].open_ended ? " open-ended" : "");
    print_message("  memory: found %d, %.3f ns from %.0f\n", c->memory.found, c->memory.latency_ns,
                  c->memory.from_bytes);
    for (size_t i = 0; i < c->nnotes; i++)
        print_message("  note: %s\n", c->notes[i]);
}

/* A level: size within [lo, hi] times cap, latency within 5% of lat. */
static void expect_level(const struct lmb_curve *c, size_t i, double cap, double lo, double hi,
                         double lat)
{
    if (i >= c->nlevels) {
        show(c);
        fail_msg("level %zu missing (found %zu)", i + 1, c->nlevels);
    }
    const struct lmb_curve_level *l = &c->levels[i];
    if (!(l->size_bytes >= lo * cap && l->size_bytes <= hi * cap)) {
        show(c);
        fail_msg("level %zu: size %.0f, want %.0f to %.0f", i + 1, l->size_bytes, lo * cap, hi * cap);
    }
    if (!(fabs(l->latency_ns / lat - 1.0) <= 0.05)) {
        show(c);
        fail_msg("level %zu: latency %.3f, want %.3f +- 5%%", i + 1, l->latency_ns, lat);
    }
}

static bool has_note(const struct lmb_curve *c, const char *word)
{
    for (size_t i = 0; i < c->nnotes; i++)
        if (strstr(c->notes[i], word) != NULL)
            return true;
    return false;
}

static const struct model three = {
    .nlevels = 3,
    .cap = { 48 * KB, 1 * MB, 32 * MB },
    .lat = { 1.2, 4.0, 14.0, 90.0 },
};

static const struct lmb_cache_info declared_three[] = {
    { 1, "Data", 48 * 1024, 64 },
    { 1, "Instruction", 32 * 1024, 64 },
    { 2, "Unified", 1024 * 1024, 64 },
    { 3, "Unified", 32 * 1024 * 1024, 64 },
};

/* --- clean curves ---------------------------------------------------------- */

static void test_three_levels(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 512 * MB, 0, 1, &cv);
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    expect_level(&c, 0, 48 * KB, 0.9, 1.3, 1.2);
    expect_level(&c, 1, 1 * MB, 0.9, 1.3, 4.0);
    expect_level(&c, 2, 32 * MB, 0.9, 1.3, 14.0);
    assert_true(c.memory.found);
    assert_true(fabs(c.memory.latency_ns / 90.0 - 1.0) < 0.02);
    assert_true(c.memory.from_bytes > 32 * MB && c.memory.from_bytes <= 64 * MB);
    assert_true(c.memory.past_cache >= 4.0);
    assert_false(c.memory.rising);
    assert_false(c.levels[2].open_ended);
    if (c.nnotes != 0) {
        show(&c);
        fail_msg("a clean curve has no notes");
    }

    lmb_curve_compare(&c, declared_three, 4);
    assert_int_equal(c.ndeclared, 3);   /* the instruction cache is left out */
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(c.declared[i].level, (int)i + 1);
        assert_int_equal(c.declared[i].measured, (int)i);
        assert_int_equal(c.declared[i].verdict, LMB_CURVE_AGREES);
        assert_true(c.declared[i].ratio > 0.9 && c.declared[i].ratio < 1.3);
    }
    assert_int_equal(c.nnotes, 0);
}

/* The analysis does not care how coarse the sweep is: quarter-octave steps
 * from 1k to 256m. */
static void test_coarse_sweep(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    cv.n = 0;
    for (double s = 1024; s <= 256 * MB; s *= pow(2.0, 0.25)) {
        cv.size[cv.n] = floor(s);
        cv.ns[cv.n] = model_ns(&three, floor(s));
        cv.n++;
    }
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    expect_level(&c, 0, 48 * KB, 0.8, 1.4, 1.2);
    expect_level(&c, 1, 1 * MB, 0.8, 1.4, 4.0);
    expect_level(&c, 2, 32 * MB, 0.8, 1.4, 14.0);
    assert_true(c.memory.found);
}

/* --- no L2 ------------------------------------------------------------------ */

static void test_no_l2(void **state)
{
    static const struct model m = {
        .nlevels = 1,
        .cap = { 32 * KB },
        .lat = { 1.0, 80.0 },
    };
    static const struct lmb_cache_info decl[] = { { 1, "Data", 32 * 1024, 64 } };
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&m, 64 * MB, 0, 2, &cv);
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 1);
    expect_level(&c, 0, 32 * KB, 0.9, 1.3, 1.0);
    assert_true(c.memory.found);
    assert_true(fabs(c.memory.latency_ns / 80.0 - 1.0) < 0.02);
    assert_true(c.memory.from_bytes < 64 * KB);
    lmb_curve_compare(&c, decl, 1);
    assert_int_equal(c.ndeclared, 1);
    assert_int_equal(c.declared[0].verdict, LMB_CURVE_AGREES);
    if (c.nnotes != 0) {
        show(&c);
        fail_msg("no notes expected");
    }
}

/* A system declaring an L2 the curve cannot show (as fast as L1 there): the
 * comparison says so instead of inventing a level. */
static void test_declared_l2_not_seen(void **state)
{
    static const struct model m = {
        .nlevels = 1,
        .cap = { 32 * KB },
        .lat = { 1.0, 80.0 },
    };
    static const struct lmb_cache_info decl[] = {
        { 1, "Data", 32 * 1024, 64 },
        { 2, "Unified", 4 * 1024 * 1024, 64 },
    };
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&m, 64 * MB, 0, 2, &cv);
    analyze_ok(&cv, &c);
    lmb_curve_compare(&c, decl, 2);
    assert_int_equal(c.ndeclared, 2);
    assert_int_equal(c.declared[0].verdict, LMB_CURVE_AGREES);
    assert_int_equal(c.declared[1].measured, -1);
    /* Memory starts at 64k, far below the declared 4 MiB. */
    assert_int_equal(c.declared[1].verdict, LMB_CURVE_UNREACHABLE);
    assert_true(has_note(&c, "L2"));
}

/* --- noise -------------------------------------------------------------------- */

static void test_noisy(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    /* 6% noise on every point, and three points disturbed badly (x2, x3, /2). */
    make_curve(&three, 256 * MB, 0.06, 42, &cv);
    cv.ns[10] *= 2.0;
    cv.ns[40] *= 3.0;
    cv.ns[70] /= 2.0;
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    expect_level(&c, 0, 48 * KB, 0.75, 1.5, 1.2);
    expect_level(&c, 1, 1 * MB, 0.67, 1.5, 4.0);
    expect_level(&c, 2, 32 * MB, 0.67, 1.5, 14.0);
    assert_true(c.memory.found);
    assert_true(fabs(c.memory.latency_ns / 90.0 - 1.0) < 0.06);
    assert_true(c.noise > 0.05);
    assert_true(has_note(&c, "noisy"));
}

/* Many seeds of 4% noise: the three levels are found every time. */
static void test_noise_seeds(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    for (uint64_t seed = 100; seed < 140; seed++) {
        make_curve(&three, 256 * MB, 0.04, seed, &cv);
        analyze_ok(&cv, &c);
        if (c.nlevels != 3) {
            show(&c);
            fail_msg("seed %llu: %zu levels", (unsigned long long)seed, c.nlevels);
        }
        expect_level(&c, 0, 48 * KB, 0.75, 1.5, 1.2);
        expect_level(&c, 1, 1 * MB, 0.67, 1.5, 4.0);
        expect_level(&c, 2, 32 * MB, 0.67, 1.5, 14.0);
        assert_true(c.memory.found);
    }
}

/* A level the curve cannot show as a plateau (here a steady climb from 9 to
 * 30 ns between 1.2 MiB and 8 MiB): the L2 ends where the climb starts, not
 * where latency reaches the geometric mean with memory, and a note says a
 * level may hide there. */
static void test_hidden_level(void **state)
{
    static struct curve cv;
    struct lmb_curve c;
    const struct model two = { .nlevels = 2, .cap = { 48 * KB, 1 * MB }, .lat = { 1.2, 4.0, 100 } };

    (void)state;
    cv.n = 0;
    for (double s = 512; s <= 256 * MB; s = next_size(s)) {
        double t = model_ns(&two, s);
        if (s > 1.2 * MB && s < 8 * MB)
            t = 9.0 * pow(s / (1.2 * MB), log(30.0 / 9.0) / log(8.0 / 1.2));
        cv.size[cv.n] = s;
        cv.ns[cv.n] = t;
        cv.n++;
    }
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 2);
    expect_level(&c, 1, 1 * MB, 0.9, 1.3, 4.0);
    assert_true(c.memory.found);
    assert_true(has_note(&c, "may be hidden"));
}

/* --- a VM declaring the host's whole L3 ------------------------------------------ */

static void test_vm_declared_l3(void **state)
{
    static const struct lmb_cache_info decl[] = {
        { 1, "Data", 48 * 1024, 64 },
        { 1, "Instruction", 32 * 1024, 64 },
        { 2, "Unified", 1024 * 1024, 64 },
        { 3, "Unified", 512ULL * 1024 * 1024, 64 },
    };
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 256 * MB, 0.01, 7, &cv);
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    expect_level(&c, 2, 32 * MB, 0.8, 1.3, 14.0);
    lmb_curve_compare(&c, decl, 4);
    assert_int_equal(c.ndeclared, 3);
    assert_int_equal(c.declared[0].verdict, LMB_CURVE_AGREES);
    assert_int_equal(c.declared[1].verdict, LMB_CURVE_AGREES);
    assert_int_equal(c.declared[2].verdict, LMB_CURVE_UNREACHABLE);
    assert_int_equal(c.declared[2].measured, 2);
    assert_true(c.declared[2].ratio < 0.1);
    assert_true(has_note(&c, "L3: the system declares 512 MiB"));
    assert_true(has_note(&c, "virtual machine"));
    /* Memory is still measured well past what is reachable. */
    assert_true(c.memory.found && c.memory.past_cache >= 4.0);
}

/* --- curves that stop early, or keep rising ------------------------------------ */

static void test_ends_inside_cache(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 16 * MB, 0, 3, &cv);
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    assert_true(c.levels[2].open_ended);
    assert_false(c.memory.found);
    assert_true(has_note(&c, "memory was not reached"));
    lmb_curve_compare(&c, declared_three, 4);
    assert_int_equal(c.declared[0].verdict, LMB_CURVE_AGREES);
    assert_int_equal(c.declared[1].verdict, LMB_CURVE_AGREES);
    assert_int_equal(c.declared[2].verdict, LMB_CURVE_BEYOND_SWEEP);
}

static void test_ends_while_rising(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    /* Stops in the middle of the rise from L2 (4 ns) to L3 (14 ns). */
    make_curve(&three, 1.125 * MB, 0, 3, &cv);
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 2);
    assert_false(c.memory.found);
    assert_true(has_note(&c, "still rising"));
}

/* Stops in the rise to memory, past the slowest a cache can be: memory is
 * found, with notes that it does not settle and that the curve is short. */
static void test_ends_in_memory_rise(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 36 * MB, 0, 3, &cv);
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    assert_true(c.memory.found);
    assert_true(has_note(&c, "does not settle"));
    assert_true(has_note(&c, "less than 4 times"));
}

static void test_memory_rising(void **state)
{
    struct model m = three;
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    m.tlb_slope = 0.2;   /* +22% per octave from 64 MiB on */
    make_curve(&m, 1024 * MB, 0, 4, &cv);
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    assert_true(c.memory.found);
    assert_true(c.memory.rising);
    assert_true(has_note(&c, "keeps rising"));
    /* The figure comes from 4x the last level on (128 MiB to 1 GiB), so it is
     * above the latency where memory starts. */
    assert_true(c.memory.latency_ns > 100.0);
}

static void test_short_memory_region(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 80 * MB, 0, 5, &cv);
    analyze_ok(&cv, &c);
    assert_true(c.memory.found);
    assert_true(c.memory.past_cache < 4.0);
    assert_true(has_note(&c, "less than 4 times"));
}

/* --- a real curve --------------------------------------------------------------- */

/* lat_mem_rd -t 256 64 on a 2-vCPU AMD EPYC (Zen 5) guest, busy with other work:
 * L1 48k, L2 1m, an L3 that ends early, and memory latency that keeps rising
 * with TLB misses under nested paging. (size in MiB, ns) */
static const double real_curve[][2] = {
    {0.00049, 1.131}, {0.00098, 1.140}, {0.00195, 1.190}, {0.00293, 1.168}, {0.00391, 1.195},
    {0.00586, 1.163}, {0.00781, 1.212}, {0.00977, 1.138}, {0.01172, 1.183}, {0.01367, 1.179},
    {0.01562, 1.237}, {0.01758, 1.149}, {0.01953, 1.130}, {0.02148, 1.135}, {0.02344, 1.130},
    {0.02539, 1.292}, {0.02734, 1.224}, {0.02930, 1.140}, {0.03125, 1.165}, {0.03516, 1.147},
    {0.03906, 1.159}, {0.04297, 1.158}, {0.04688, 1.144}, {0.05078, 4.026}, {0.05469, 3.937},
    {0.05859, 3.942}, {0.06250, 3.884}, {0.07031, 3.926}, {0.07812, 3.943}, {0.08594, 3.981},
    {0.09375, 3.958}, {0.10156, 3.969}, {0.10938, 3.957}, {0.11719, 3.934}, {0.12500, 3.997},
    {0.14062, 3.904}, {0.15625, 3.898}, {0.17188, 3.988}, {0.18750, 3.966}, {0.20312, 4.035},
    {0.21875, 4.012}, {0.23438, 4.102}, {0.25000, 4.064}, {0.28125, 4.122}, {0.31250, 4.196},
    {0.34375, 4.311}, {0.37500, 4.350}, {0.40625, 4.402}, {0.43750, 4.467}, {0.46875, 4.556},
    {0.50000, 4.793}, {0.56250, 5.068}, {0.62500, 5.203}, {0.68750, 5.868}, {0.75000, 6.902},
    {0.81250, 6.799}, {0.87500, 7.353}, {0.93750, 8.757}, {1.00000, 10.204}, {1.12500, 10.335},
    {1.25000, 11.474}, {1.37500, 12.552}, {1.50000, 13.759}, {1.62500, 13.002}, {1.75000, 13.137},
    {1.87500, 13.623}, {2.00000, 13.896}, {2.25000, 14.171}, {2.50000, 15.165}, {2.75000, 15.446},
    {3.00000, 15.508}, {3.25000, 15.435}, {3.50000, 16.006}, {3.75000, 16.347}, {4.00000, 16.045},
    {4.50000, 17.221}, {5.00000, 19.140}, {5.50000, 26.363}, {6.00000, 22.145}, {6.50000, 60.744},
    {7.00000, 28.954}, {7.50000, 55.473}, {8.00000, 85.972}, {9.00000, 94.192}, {10.00000, 129.097},
    {11.00000, 177.511}, {12.00000, 140.587}, {13.00000, 151.719}, {14.00000, 150.013},
    {15.00000, 136.014}, {16.00000, 123.699}, {18.00000, 161.583}, {20.00000, 159.473},
    {22.00000, 157.718}, {24.00000, 165.482}, {26.00000, 163.702}, {28.00000, 225.412},
    {30.00000, 212.653}, {32.00000, 245.686}, {36.00000, 180.127}, {40.00000, 190.426},
    {44.00000, 190.873}, {48.00000, 190.007}, {52.00000, 182.959}, {56.00000, 203.548},
    {60.00000, 192.469}, {64.00000, 203.875}, {72.00000, 213.513}, {80.00000, 250.503},
    {88.00000, 321.629}, {96.00000, 259.764}, {104.00000, 219.790}, {112.00000, 292.052},
    {120.00000, 232.803}, {128.00000, 288.255}, {144.00000, 246.918}, {160.00000, 253.130},
    {176.00000, 248.614}, {192.00000, 250.466}, {208.00000, 271.176}, {224.00000, 272.787},
    {240.00000, 267.863}, {256.00000, 292.072},
};

static void test_real_curve(void **state)
{
    static struct curve cv;
    struct lmb_curve c;
    static const struct lmb_cache_info decl[] = {
        { 1, "Data", 48 * 1024, 64 },
        { 2, "Unified", 1024 * 1024, 64 },
        { 3, "Unified", 532676608, 64 },   /* what this guest's CPUID declares */
    };

    (void)state;
    cv.n = sizeof real_curve / sizeof real_curve[0];
    for (size_t i = 0; i < cv.n; i++) {
        cv.size[i] = round(real_curve[i][0] * MB);
        cv.ns[i] = real_curve[i][1];
    }
    analyze_ok(&cv, &c);
    assert_int_equal(c.nlevels, 3);
    expect_level(&c, 0, 48 * KB, 0.9, 1.2, 1.16);
    expect_level(&c, 1, 1 * MB, 0.7, 1.3, 4.0);
    assert_true(c.levels[2].latency_ns > 12.0 && c.levels[2].latency_ns < 18.0);
    assert_true(c.memory.found && c.memory.rising);
    assert_true(c.memory.latency_ns > 150.0);
    lmb_curve_compare(&c, decl, 3);
    assert_int_equal(c.declared[0].verdict, LMB_CURVE_AGREES);
    assert_int_equal(c.declared[1].verdict, LMB_CURVE_AGREES);
    assert_int_equal(c.declared[2].verdict, LMB_CURVE_UNREACHABLE);
}

/* --- bad input, edges, helpers ---------------------------------------------------- */

static void test_bad_input(void **state)
{
    struct lmb_curve c;
    const double s[] = { 512, 1024, 1024, 4096 }, ns[] = { 1, 1, 1, 1 };
    const double s2[] = { 512, 1024, 2048 }, nan_ns[] = { 1, NAN, 1 }, neg_ns[] = { 1, -1, 1 };
    const double zero_s[] = { 0, 1024, 2048 };

    (void)state;
    assert_int_equal(lmb_curve_analyze(s, ns, 0, &c), -1);
    assert_int_equal(c.nnotes, 1);
    assert_int_equal(lmb_curve_analyze(s, ns, 4, &c), -1);
    assert_non_null(strstr(c.notes[0], "increase"));
    assert_int_equal(lmb_curve_analyze(s2, nan_ns, 3, &c), -1);
    assert_int_equal(lmb_curve_analyze(s2, neg_ns, 3, &c), -1);
    assert_int_equal(lmb_curve_analyze(zero_s, ns, 3, &c), -1);
}

static void test_tiny_curves(void **state)
{
    struct lmb_curve c;
    const double s[] = { 512, 1024 }, ns[] = { 1.0, 1.1 };

    (void)state;
    /* Too short for any plateau: analysed, with a note, no crash. */
    assert_int_equal(lmb_curve_analyze(s, ns, 1, &c), 0);
    assert_int_equal(c.nlevels, 0);
    assert_true(has_note(&c, "no cache plateau"));
    assert_int_equal(lmb_curve_analyze(s, ns, 2, &c), 0);
    assert_int_equal(c.nlevels, 0);
    lmb_curve_compare(&c, declared_three, 4);
    assert_int_equal(c.ndeclared, 3);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(c.declared[i].measured, -1);
}

static void test_no_declared(void **state)
{
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 256 * MB, 0, 1, &cv);
    analyze_ok(&cv, &c);
    lmb_curve_compare(&c, NULL, 0);
    assert_int_equal(c.ndeclared, 0);
    assert_int_equal(c.nnotes, 0);
}

/* Fewer declared caches than measured levels: the match goes by size. */
static void test_declared_fewer(void **state)
{
    static const struct lmb_cache_info decl[] = {
        { 1, "Data", 48 * 1024, 64 },
        { 3, "Unified", 32 * 1024 * 1024, 64 },
    };
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 256 * MB, 0, 1, &cv);
    analyze_ok(&cv, &c);
    lmb_curve_compare(&c, decl, 2);
    assert_int_equal(c.ndeclared, 2);
    assert_int_equal(c.declared[0].measured, 0);
    assert_int_equal(c.declared[1].measured, 2);
    assert_int_equal(c.declared[1].verdict, LMB_CURVE_AGREES);
    assert_true(has_note(&c, "measured level 2"));
}

static void test_differs(void **state)
{
    static const struct lmb_cache_info decl[] = {
        { 1, "Data", 48 * 1024, 64 },
        { 2, "Unified", 4 * 1024 * 1024, 64 },   /* the curve's L2 is 1 MiB */
        { 3, "Unified", 32 * 1024 * 1024, 64 },
    };
    static struct curve cv;
    struct lmb_curve c;

    (void)state;
    make_curve(&three, 256 * MB, 0, 1, &cv);
    analyze_ok(&cv, &c);
    lmb_curve_compare(&c, decl, 3);
    assert_int_equal(c.declared[1].verdict, LMB_CURVE_DIFFERS);
    assert_true(c.declared[1].ratio > 0.2 && c.declared[1].ratio < 0.35);
    assert_true(has_note(&c, "L2: the system declares 4 MiB"));
}

static void test_format_size(void **state)
{
    char b[32];

    (void)state;
    lmb_curve_format_size(512, b, sizeof b);
    assert_string_equal(b, "512 B");
    lmb_curve_format_size(48 * 1024, b, sizeof b);
    assert_string_equal(b, "48 KiB");
    lmb_curve_format_size(1.5 * MB, b, sizeof b);
    assert_string_equal(b, "1.5 MiB");
    lmb_curve_format_size(532676608, b, sizeof b);
    assert_string_equal(b, "508 MiB");
    lmb_curve_format_size(3.0 * 1024 * MB, b, sizeof b);
    assert_string_equal(b, "3 GiB");
    assert_string_equal(lmb_curve_verdict_name(LMB_CURVE_UNREACHABLE), "unreachable");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_levels),
        cmocka_unit_test(test_coarse_sweep),
        cmocka_unit_test(test_no_l2),
        cmocka_unit_test(test_declared_l2_not_seen),
        cmocka_unit_test(test_noisy),
        cmocka_unit_test(test_noise_seeds),
        cmocka_unit_test(test_hidden_level),
        cmocka_unit_test(test_vm_declared_l3),
        cmocka_unit_test(test_ends_inside_cache),
        cmocka_unit_test(test_ends_while_rising),
        cmocka_unit_test(test_ends_in_memory_rise),
        cmocka_unit_test(test_memory_rising),
        cmocka_unit_test(test_short_memory_region),
        cmocka_unit_test(test_real_curve),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_tiny_curves),
        cmocka_unit_test(test_no_declared),
        cmocka_unit_test(test_declared_fewer),
        cmocka_unit_test(test_differs),
        cmocka_unit_test(test_format_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
