// SPDX-License-Identifier: MIT
/* bench-chase-ref: an independent pointer-chase latency reference for
 * `make bench`.
 *
 * Written from scratch for this project; it shares no code with lat_mem_rd or
 * src/lib/chase.c, so that the two check each other. Compile it on the machine
 * that runs it:
 *
 *     cc -O2 -o build/bench/bench-chase-ref scripts/bench-chase-ref.c
 *
 * Usage: bench-chase-ref [-t SECONDS] [-n INTERVALS] [-s STRIDE] SIZE random|page|backward
 *
 *   random  one 8-byte pointer at the start of every 64-byte line of a SIZE
 *           buffer, linked into a single cycle in random order (a shuffled
 *           list of line numbers, each pointing to the next in the list)
 *   page    the same lines, but the list is built page by page: the pages of
 *           4096 bytes in shuffled order, and inside each page its 64 lines
 *           in shuffled order
 *   backward  a plain backward walk: one pointer every STRIDE bytes (-s, default
 *           64) of a buffer from plain malloc(), each pointing one STRIDE back,
 *           the first to the last; followed by a loop of one load statement
 *           (`p = *p`, not unrolled), so that the processor sees one load
 *           instruction walking the buffer STRIDE bytes at a time
 *
 * The random and page buffers come from mmap and every byte is written before
 * the chain is laid. Each interval follows the chain for whole runs of 1000
 * loads (random and page: written out 10 at a time, each load needing the
 * previous one's value) for at least
 * -t seconds (default 0.01), timed with clock_gettime(CLOCK_MONOTONIC); after
 * a warm-up interval, -n intervals (default 15) are taken. Prints one line on
 * stdout:
 *
 *     <median ns per load> <best ns per load> <loads per interval>
 *
 * SIZE takes the suffixes k, m, g (binary: 64k = 65536); at least 8k.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LINE 64
#define PAGE 4096

static uint64_t rng_state = 88172645463325252ULL;

/* xorshift64 (Marsaglia). */
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void shuffle(size_t *v, size_t n)
{
    while (n > 1) {
        size_t k = (size_t)(rng() % n);
        n--;
        size_t t = v[n];
        v[n] = v[k];
        v[k] = t;
    }
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s)
        return 0;
    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
    }
    return *end ? 0 : (size_t)v;
}

/* Follows the chain for `runs` runs of 1000 loads; returns where it stopped. */
static void *walk(void *start, uint64_t runs)
{
    void **p = start;

    for (uint64_t r = 0; r < runs; r++) {
        for (int i = 0; i < 100; i++) {
            p = *p; p = *p; p = *p; p = *p; p = *p;
            p = *p; p = *p; p = *p; p = *p; p = *p;
        }
    }
    return p;
}

/* The same runs through one load statement, kept rolled. */
static void *walk_plain(void *start, uint64_t runs)
{
    void **p = start;

    for (uint64_t n = runs * 1000; n > 0; n--) {
        p = *p;
        __asm__ __volatile__("" : "+r"(p));
    }
    return p;
}

int main(int argc, char **argv)
{
    double min_s = 0.01;
    int intervals = 15, opt;
    size_t size, lines, stride = 64;
    char *buf;
    size_t *order;
    void *volatile sink;

    while ((opt = getopt(argc, argv, "t:n:s:")) != -1) {
        if (opt == 't')
            min_s = atof(optarg);
        else if (opt == 's')
            stride = parse_size(optarg);
        else if (opt == 'n')
            intervals = atoi(optarg);
        else
            return 2;
    }
    if (argc - optind != 2 || min_s <= 0 || intervals < 1 || intervals > 1000 ||
        stride < sizeof(void *) || stride % sizeof(void *) != 0) {
        fprintf(stderr, "usage: bench-chase-ref [-t SECONDS] [-n INTERVALS] [-s STRIDE] SIZE "
                "random|page|backward\n");
        return 2;
    }
    size = parse_size(argv[optind]);
    if (size < 2 * PAGE) {
        fprintf(stderr, "bench-chase-ref: bad size '%s'\n", argv[optind]);
        return 2;
    }
    size = size / PAGE * PAGE;
    int page_order = strcmp(argv[optind + 1], "page") == 0;
    int backward = strcmp(argv[optind + 1], "backward") == 0;
    if (!page_order && !backward && strcmp(argv[optind + 1], "random") != 0) {
        fprintf(stderr, "bench-chase-ref: mode is random, page or backward\n");
        return 2;
    }
    void *(*follow)(void *, uint64_t) = walk;
    void *p;
    if (backward) {
        /* An ordinary buffer, each element one stride back from the one before. */
        size_t n = size / stride;
        buf = malloc(size);
        if (buf == NULL || n < 2) {
            perror("bench-chase-ref: malloc");
            return 1;
        }
        memset(buf, 1, size);
        for (size_t i = 0; i < n; i++)
            *(void **)(buf + i * stride) = buf + (i > 0 ? i - 1 : n - 1) * stride;
        p = buf;
        follow = walk_plain;
    } else {
        buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (buf == MAP_FAILED) {
            perror("bench-chase-ref: mmap");
            return 1;
        }
        memset(buf, 1, size);
        lines = size / LINE;
        order = malloc(lines * sizeof *order);
        if (order == NULL) {
            perror("bench-chase-ref: malloc");
            return 1;
        }
        if (page_order) {
            size_t pages = size / PAGE, per = PAGE / LINE, *pg = malloc(pages * sizeof *pg);
            if (pg == NULL) {
                perror("bench-chase-ref: malloc");
                return 1;
            }
            for (size_t i = 0; i < pages; i++)
                pg[i] = i;
            shuffle(pg, pages);
            for (size_t i = 0; i < pages; i++) {
                for (size_t j = 0; j < per; j++)
                    order[i * per + j] = pg[i] * per + j;
                shuffle(order + i * per, per);
            }
            free(pg);
        } else {
            for (size_t i = 0; i < lines; i++)
                order[i] = i;
            shuffle(order, lines);
        }
        for (size_t i = 0; i < lines; i++) {
            size_t next = order[(i + 1) % lines];
            *(void **)(buf + order[i] * LINE) = buf + next * LINE;
        }
        p = buf + order[0] * LINE;
        free(order);
    }

    /* Runs per interval: grow until one interval lasts min_s. */
    uint64_t runs = 1;
    for (;;) {
        double t0 = seconds();
        p = follow(p, runs);
        double dt = seconds() - t0;
        if (dt >= min_s)
            break;
        runs = dt > 0 ? (uint64_t)((double)runs * 1.2 * min_s / dt) + 1 : runs * 10;
    }
    double *ns = malloc((size_t)intervals * sizeof *ns);
    if (ns == NULL)
        return 1;
    for (int k = 0; k < intervals; k++) {
        double t0 = seconds();
        p = follow(p, runs);
        ns[k] = (seconds() - t0) * 1e9 / ((double)runs * 1000.0);
    }
    sink = p;
    (void)sink;
    qsort(ns, (size_t)intervals, sizeof *ns, by_value);
    double med = intervals % 2 ? ns[intervals / 2] : (ns[intervals / 2 - 1] + ns[intervals / 2]) / 2;
    printf("%.4f %.4f %llu\n", med, ns[0], (unsigned long long)runs * 1000ULL);
    free(ns);
    if (backward)
        free(buf);
    else
        munmap(buf, size);
    return 0;
}
