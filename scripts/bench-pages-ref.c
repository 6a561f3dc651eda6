// SPDX-License-Identifier: MIT
/* make bench reference for --pages (scripts/bench.d/pages.sh): a random
 * pointer chase, one element per 64-byte line in one random cycle, through a
 * buffer on the pages asked for: 4k (madvise MADV_NOHUGEPAGE), thp (2 MiB
 * aligned, MADV_HUGEPAGE), 2m (MAP_HUGETLB | MAP_HUGE_2MB). Written for the
 * bench, independent of lmbench's code. Prints "SIZE BEST_NS KIND HUGE_KB":
 * the best interval's nanoseconds per load and the AnonHugePages (or the
 * hugetlb size) smaps shows for the buffer. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define TWO_MB (2UL << 20)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void *chase(void *start, uint64_t n)
{
    void **p = start;
    for (uint64_t i = 0; i < n; i++) {
        p = *p; p = *p; p = *p; p = *p; p = *p; p = *p; p = *p; p = *p;
    }
    return p;
}

/* The smaps line `field` of the mapping holding a, in kB. */
static long smaps_kb(const void *a, const char *field)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    unsigned long lo, hi;
    int in = 0;
    long v = -1;
    size_t n = strlen(field);

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, ':') > strchr(line, ' ')) {
            if (in)
                break;
            in = (uintptr_t)a >= lo && (uintptr_t)a < hi;
        } else if (in && strncmp(line, field, n) == 0) {
            v = atol(line + n + 1);
        }
    }
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench-pages-ref SIZE_MB 4k|thp|2m\n");
        return 2;
    }
    size_t size = (size_t)atol(argv[1]) << 20;
    const char *kind = argv[2];
    char *buf;

    if (size < TWO_MB) {
        fprintf(stderr, "bench-pages-ref: at least 2 MB\n");
        return 2;
    }
    if (strcmp(kind, "2m") == 0) {
        buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << MAP_HUGE_SHIFT), -1, 0);
    } else {
        char *raw = mmap(NULL, size + TWO_MB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                         -1, 0);
        buf = raw == MAP_FAILED ? raw
                                : (char *)(((uintptr_t)raw + TWO_MB - 1) & ~(uintptr_t)(TWO_MB - 1));
        if (buf != MAP_FAILED &&
            madvise(buf, size, strcmp(kind, "thp") == 0 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0)
            perror("bench-pages-ref: madvise");
    }
    if (buf == MAP_FAILED) {
        perror("bench-pages-ref: mmap");
        return 1;
    }
    memset(buf, 0, size);
    size_t lines = size / LINE;
    uint32_t *order = malloc(lines * sizeof *order);
    if (order == NULL)
        return 1;
    for (size_t i = 0; i < lines; i++)
        order[i] = (uint32_t)i;
    for (size_t i = lines - 1; i > 0; i--) {
        size_t j = next_random() % (i + 1);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++)
        *(void **)(buf + (size_t)order[i] * LINE) = buf + (size_t)order[(i + 1) % lines] * LINE;
    void *p = buf + (size_t)order[0] * LINE;
    free(order);
    /* Every page read once after the order array is gone (as lmbench does). */
    for (size_t off = 0; off < size; off += 4096)
        p = (void *)((uintptr_t)p + (buf[off] & 0));

    uint64_t n = 1000;
    for (;;) {
        double t0 = now();
        p = chase(p, n);
        if (now() - t0 > 0.05)
            break;
        n *= 2;
    }
    double best = 1e30;
    for (int k = 0; k < 11; k++) {
        double t0 = now();
        p = chase(p, n);
        double ns = (now() - t0) * 1e9 / ((double)n * 8);
        if (ns < best)
            best = ns;
    }
    long huge = strcmp(kind, "2m") == 0 ? smaps_kb(buf, "KernelPageSize:") : smaps_kb(buf, "AnonHugePages:");
    printf("%zu %.3f %s %ld\n", size, best, kind, huge);
    return p == NULL;
}
