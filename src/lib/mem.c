// SPDX-License-Identifier: MIT
/* Page-backed buffers and the widest vector instruction set available. */
#include "lib/mem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/sysinfo.h"

const char *lmb_widest_isa(void)
{
#if LMB_X86_TARGETS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "avx512f";
    if (__builtin_cpu_supports("avx2"))
        return "avx2";
    return "sse2";
#else
    return "simd128";
#endif
}

void *lmb_pages_alloc(size_t len, int fill, char *err, size_t errlen)
{
    void *p;

    if (len == 0)
        len = 1;
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %zu bytes: %s", len, strerror(errno));
        return NULL;
    }
    memset(p, fill, len);
    return p;
}

void lmb_pages_free(void *p, size_t len)
{
    if (p != NULL)
        munmap(p, len ? len : 1);
}

static void human(uint64_t b, char *buf, size_t len)
{
    if (b >= (1ULL << 30))
        snprintf(buf, len, "%.1f GiB", (double)b / (double)(1ULL << 30));
    else
        snprintf(buf, len, "%.1f MiB", (double)b / (double)(1ULL << 20));
}

int lmb_memory_fits(uint64_t bytes, unsigned copies, char *err, size_t errlen)
{
    uint64_t phys = lmb_physical_memory();
    double need = (double)bytes * (double)(copies ? copies : 1);
    char a[32], b[32];

    if (phys == 0 || need <= 0.9 * (double)phys)
        return 0;
    human((uint64_t)need, a, sizeof a);
    human(phys, b, sizeof b);
    snprintf(err, errlen, "needs %s of memory and the machine has %s", a, b);
    return -1;
}
