// SPDX-License-Identifier: MIT
/* bench-mem-ref: an independent memory bandwidth reference for `make bench`.
 *
 * Written from scratch for this project; it shares no code with bw_mem (nor with
 * STREAM or any other benchmark) so that the two check each other. Compile it on
 * the machine that runs it, with the widest vectors that machine has:
 *
 *     cc -O2 -march=native -fno-tree-loop-distribute-patterns \
 *        -o build/bench/bench-mem-ref scripts/bench-mem-ref.c
 *
 * (-fno-tree-loop-distribute-patterns keeps GCC from turning the write and copy
 * loops into calls to memset and memcpy.)
 *
 * Usage: bench-mem-ref [-t SECONDS] [-n INTERVALS] [-g GAP] SIZE rd|wr|cp|plaincp
 *
 *   rd  reads every byte of a SIZE buffer (8 independent vector accumulators)
 *   wr  writes every byte of a SIZE buffer (ordinary, temporal vector stores)
 *   cp  copies SIZE bytes from one buffer to another (temporal loads and stores).
 *       Where the destination sits relative to the source matters: on an AMD
 *       EPYC, a 256m copy ran 30% slower with both at the same offset within a
 *       page, and 10% faster with the destination 512-1024 bytes further on
 *       than at other offsets. So that the reference is neither lucky nor
 *       unlucky, successive intervals move the destination through seven
 *       offsets (512, 1024 ... 3584 bytes past the page where the source ends)
 *       and the median is taken over them; -g GAP fixes one offset instead.
 *   plaincp  the copy as a plain C program writes it: two buffers from
 *       malloc(), SIZE bytes copied as 8-byte words by a loop of ordinary
 *       assignments (8 a trip, not vectorised), no choice of placement or pages
 *
 * Bytes are counted as bw_mem counts them: SIZE per pass for rd and wr, the
 * bytes copied (SIZE) once per pass for cp; MB = 10^6 bytes. Each interval runs
 * whole passes for at least -t seconds (default 0.02) and is timed with
 * clock_gettime(CLOCK_MONOTONIC); -n intervals (default 14, twice the seven
 * cp offsets) are taken after a warm-up. Prints one line on stdout:
 *
 *     <median MB/s> <best MB/s> <isa (scalar for plaincp)> <passes per interval>
 *
 * SIZE takes the suffixes k, m, g (binary multiples: 64k = 65536).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#if defined(__AVX512F__)
#define ISA "avx512f"
typedef __m512i vec;
#define V_LOAD(p) _mm512_load_si512((const void *)(p))
#define V_STORE(p, v) _mm512_store_si512((void *)(p), (v))
#define V_XOR(a, b) _mm512_xor_si512((a), (b))
#define V_SPLAT(x) _mm512_set1_epi64((long long)(x))
#define V_ZERO() _mm512_setzero_si512()
#elif defined(__AVX2__)
#define ISA "avx2"
typedef __m256i vec;
#define V_LOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define V_STORE(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define V_XOR(a, b) _mm256_xor_si256((a), (b))
#define V_SPLAT(x) _mm256_set1_epi64x((long long)(x))
#define V_ZERO() _mm256_setzero_si256()
#elif defined(__SSE2__)
#define ISA "sse2"
typedef __m128i vec;
#define V_LOAD(p) _mm_load_si128((const __m128i *)(const void *)(p))
#define V_STORE(p, v) _mm_store_si128((__m128i *)(void *)(p), (v))
#define V_XOR(a, b) _mm_xor_si128((a), (b))
#define V_SPLAT(x) _mm_set1_epi64x((long long)(x))
#define V_ZERO() _mm_setzero_si128()
#else
#error "bench-mem-ref needs x86 SSE2 at least"
#endif

#define VB ((size_t)sizeof(vec))
/* Destination offsets the cp intervals rotate through (bytes past the page
 * where the source ends). */
static const size_t gaps[] = { 512, 1024, 1536, 2048, 2560, 3072, 3584 };
#define NGAPS (sizeof gaps / sizeof gaps[0])
#define MAXGAP 8192
#define BLOCK (8 * VB)   /* bytes handled by one trip of an unrolled loop */

/* Nothing is cached in registers across this point, nothing merged over it. */
#define FENCE() __asm__ __volatile__("" ::: "memory")

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Reads every byte `passes` times. The accumulators live across passes; the
 * fence at the end of each pass makes the next pass load memory again. */
static void do_read(const char *buf, size_t len, uint64_t passes)
{
    vec x0 = V_ZERO(), x1 = V_ZERO(), x2 = V_ZERO(), x3 = V_ZERO();
    vec x4 = V_ZERO(), x5 = V_ZERO(), x6 = V_ZERO(), x7 = V_ZERO();
    size_t body = len - len % BLOCK;
    uint64_t tail = 0;

    for (uint64_t p = 0; p < passes; p++) {
        const char *q = buf, *end = buf + body;
        while (q < end) {
            x0 = V_XOR(x0, V_LOAD(q + 0 * VB));
            x1 = V_XOR(x1, V_LOAD(q + 1 * VB));
            x2 = V_XOR(x2, V_LOAD(q + 2 * VB));
            x3 = V_XOR(x3, V_LOAD(q + 3 * VB));
            x4 = V_XOR(x4, V_LOAD(q + 4 * VB));
            x5 = V_XOR(x5, V_LOAD(q + 5 * VB));
            x6 = V_XOR(x6, V_LOAD(q + 6 * VB));
            x7 = V_XOR(x7, V_LOAD(q + 7 * VB));
            q += BLOCK;
        }
        for (size_t i = body; i < len; i++)
            tail += (unsigned char)buf[i];
        FENCE();
    }
    x0 = V_XOR(V_XOR(V_XOR(x0, x1), V_XOR(x2, x3)), V_XOR(V_XOR(x4, x5), V_XOR(x6, x7)));
    uint64_t lanes[sizeof(vec) / 8];
    memcpy(lanes, &x0, sizeof lanes);
    for (size_t i = 0; i < sizeof lanes / 8; i++)
        tail ^= lanes[i];
    sink = tail;
}

/* Writes every byte `passes` times, a different value each pass. */
static void do_write(char *buf, size_t len, uint64_t passes, uint64_t seed)
{
    size_t body = len - len % BLOCK;

    for (uint64_t p = 0; p < passes; p++) {
        vec v = V_SPLAT(seed + p);
        char *q = buf, *end = buf + body;
        while (q < end) {
            V_STORE(q + 0 * VB, v);
            V_STORE(q + 1 * VB, v);
            V_STORE(q + 2 * VB, v);
            V_STORE(q + 3 * VB, v);
            V_STORE(q + 4 * VB, v);
            V_STORE(q + 5 * VB, v);
            V_STORE(q + 6 * VB, v);
            V_STORE(q + 7 * VB, v);
            q += BLOCK;
        }
        for (size_t i = body; i < len; i++)
            buf[i] = (char)(seed + p);
        FENCE();
    }
}

/* Copies len bytes from src to dst `passes` times: all loads of a block first,
 * then its stores. */
static void do_copy(char *dst, const char *src, size_t len, uint64_t passes)
{
    size_t body = len - len % BLOCK;

    for (uint64_t p = 0; p < passes; p++) {
        const char *s = src, *end = src + body;
        char *d = dst;
        while (s < end) {
            vec y0 = V_LOAD(s + 0 * VB), y1 = V_LOAD(s + 1 * VB);
            vec y2 = V_LOAD(s + 2 * VB), y3 = V_LOAD(s + 3 * VB);
            vec y4 = V_LOAD(s + 4 * VB), y5 = V_LOAD(s + 5 * VB);
            vec y6 = V_LOAD(s + 6 * VB), y7 = V_LOAD(s + 7 * VB);
            V_STORE(d + 0 * VB, y0);
            V_STORE(d + 1 * VB, y1);
            V_STORE(d + 2 * VB, y2);
            V_STORE(d + 3 * VB, y3);
            V_STORE(d + 4 * VB, y4);
            V_STORE(d + 5 * VB, y5);
            V_STORE(d + 6 * VB, y6);
            V_STORE(d + 7 * VB, y7);
            s += BLOCK;
            d += BLOCK;
        }
        for (size_t i = body; i < len; i++)
            dst[i] = src[i];
        FENCE();
    }
}

/* Copies 8-byte words with plain assignments; kept scalar. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize")))
#endif
static void do_plain_copy(uint64_t *dst, const uint64_t *src, size_t len, uint64_t passes)
{
    size_t n = len / 8, body = n - n % 8;

    for (uint64_t p = 0; p < passes; p++) {
        for (size_t i = 0; i < body; i += 8) {
            dst[i] = src[i];
            dst[i + 1] = src[i + 1];
            dst[i + 2] = src[i + 2];
            dst[i + 3] = src[i + 3];
            dst[i + 4] = src[i + 4];
            dst[i + 5] = src[i + 5];
            dst[i + 6] = src[i + 6];
            dst[i + 7] = src[i + 7];
        }
        for (size_t i = body; i < n; i++)
            dst[i] = src[i];
        FENCE();
    }
}

enum op { OP_RD, OP_WR, OP_CP, OP_PLAINCP };

struct job {
    enum op op;
    char *a, *b;
    size_t len;
    uint64_t seed;
};

static void run(struct job *j, uint64_t passes)
{
    switch (j->op) {
    case OP_RD:
        do_read(j->a, j->len, passes);
        break;
    case OP_WR:
        do_write(j->a, j->len, passes, j->seed);
        j->seed += passes;
        break;
    case OP_CP:
        do_copy(j->b, j->a, j->len, passes);
        break;
    case OP_PLAINCP:
        do_plain_copy((uint64_t *)(void *)j->b, (const uint64_t *)(const void *)j->a, j->len,
                      passes);
        break;
    }
}

static uint64_t timed(struct job *j, uint64_t passes)
{
    uint64_t t0 = now_ns();
    run(j, passes);
    return now_ns() - t0;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    v = strtoull(s, &end, 10);
    if (errno != 0)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (*end != '\0' || v == 0 || v > (SIZE_MAX >> 2) >> shift)
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

/* A page-aligned buffer with every page touched before timing. */
static char *buffer(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "bench-mem-ref: mmap %zu bytes: %s\n", len, strerror(errno));
        exit(1);
    }
    memset(p, 0x5a, len);
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(void)
{
    fprintf(stderr, "usage: bench-mem-ref [-t SECONDS] [-n INTERVALS] [-g GAP] SIZE "
            "rd|wr|cp|plaincp\n");
    exit(2);
}

int main(int argc, char **argv)
{
    double min_s = 0.02;
    int nint = 14, ai = 1;
    long fixed_gap = -1;
    struct job j = { 0 };

    while (ai < argc && argv[ai][0] == '-') {
        if (strcmp(argv[ai], "-t") == 0 && ai + 1 < argc)
            min_s = atof(argv[ai + 1]);
        else if (strcmp(argv[ai], "-n") == 0 && ai + 1 < argc)
            nint = atoi(argv[ai + 1]);
        else if (strcmp(argv[ai], "-g") == 0 && ai + 1 < argc)
            fixed_gap = (long)(strtoul(argv[ai + 1], NULL, 0) / VB * VB);
        else
            usage();
        ai += 2;
    }
    if (argc - ai != 2 || parse_size(argv[ai], &j.len) != 0 || !(min_s > 0) || nint < 1 ||
        nint > 1000)
        usage();
    if (j.len < BLOCK) {
        fprintf(stderr, "bench-mem-ref: size must be at least %zu bytes\n", BLOCK);
        return 2;
    }
    const char *o = argv[ai + 1];
    if (strcmp(o, "rd") == 0 || strcmp(o, "frd") == 0)
        j.op = OP_RD;
    else if (strcmp(o, "wr") == 0 || strcmp(o, "fwr") == 0)
        j.op = OP_WR;
    else if (strcmp(o, "cp") == 0 || strcmp(o, "fcp") == 0)
        j.op = OP_CP;
    else if (strcmp(o, "plaincp") == 0)
        j.op = OP_PLAINCP;
    else
        usage();

    if (fixed_gap > MAXGAP) {
        fprintf(stderr, "bench-mem-ref: -g takes at most %d bytes\n", MAXGAP);
        return 2;
    }
    size_t lead = (j.len + 4095) / 4096 * 4096;
    if (j.op == OP_PLAINCP) {
        /* Two ordinary buffers, wherever malloc puts them. */
        j.a = malloc(j.len);
        j.b = malloc(j.len);
        if (j.a == NULL || j.b == NULL) {
            fprintf(stderr, "bench-mem-ref: malloc %zu bytes: %s\n", j.len, strerror(errno));
            return 1;
        }
        memset(j.a, 0x5a, j.len);
        memset(j.b, 0xa5, j.len);
    } else if (j.op == OP_CP) {
        /* One mapping: the source, then room for the destination at any of
         * its offsets past the page where the source ends. */
        j.a = buffer(lead + MAXGAP + j.len);
        j.b = j.a + lead + (fixed_gap >= 0 ? (size_t)fixed_gap : gaps[0]);
    } else {
        j.a = buffer(j.len);
    }

    /* Warm up (caches, TLB, clock speed) for ~50 ms, and find how many passes
     * make one interval last at least min_s. */
    uint64_t target = (uint64_t)(min_s * 1e9), passes = 1, warm_until = now_ns() + 50000000ull;
    for (;;) {
        uint64_t ns = timed(&j, passes);
        if (ns >= target && now_ns() >= warm_until)
            break;
        if (ns < target) {
            double f = ns > 0 ? 1.2 * (double)target / (double)ns : 16.0;
            if (f > 16.0)
                f = 16.0;
            uint64_t next = (uint64_t)((double)passes * f);
            passes = next > passes ? next : passes + 1;
        }
    }

    double *mbs = calloc((size_t)nint, sizeof *mbs);
    if (mbs == NULL)
        return 1;
    for (int i = 0; i < nint; i++) {
        if (j.op == OP_CP && fixed_gap < 0)
            j.b = j.a + lead + gaps[(size_t)i % NGAPS];
        uint64_t ns = timed(&j, passes);
        mbs[i] = (double)j.len * (double)passes / ((double)ns * 1e-9) / 1e6;
    }
    qsort(mbs, (size_t)nint, sizeof *mbs, cmp_double);
    double median = nint % 2 ? mbs[nint / 2] : (mbs[nint / 2 - 1] + mbs[nint / 2]) / 2;
    printf("%.2f %.2f %s %llu\n", median, mbs[nint - 1], j.op == OP_PLAINCP ? "scalar" : ISA,
           (unsigned long long)passes);
    free(mbs);
    return 0;
}
