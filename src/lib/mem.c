// SPDX-License-Identifier: MIT
/* Page-backed buffers on chosen pages, their real backing, the memory guard,
 * and the vector instruction sets available. */
#include "lib/mem.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "lib/bench.h"
#include "lib/sysinfo.h"

#define HUGE_ALIGN (2u << 20)

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

bool lmb_cpu_has_isa(const char *isa)
{
    if (strcmp(isa, "scalar") == 0)
        return true;
#if LMB_X86_TARGETS
    __builtin_cpu_init();
    if (strcmp(isa, "avx512f") == 0)
        return __builtin_cpu_supports("avx512f");
    if (strcmp(isa, "avx2") == 0)
        return __builtin_cpu_supports("avx2");
    return strcmp(isa, "sse2") == 0;
#else
    return strcmp(isa, "simd128") == 0;
#endif
}

const char *lmb_pages_name(enum lmb_pages kind)
{
    return kind == LMB_PAGES_HUGE ? "huge" : "normal";
}

void *lmb_pages_alloc(size_t len, int fill, char *err, size_t errlen)
{
    return lmb_pages_alloc_kind(len, fill, LMB_PAGES_NORMAL, err, errlen);
}

/* A mapping of len bytes whose start is 2 MiB aligned (huge pages need it):
 * map more and trim both ends. */
static void *map_aligned(size_t len)
{
    size_t extra = len + HUGE_ALIGN;
    char *p, *a;

    if (extra < len)
        return MAP_FAILED;
    p = mmap(NULL, extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return MAP_FAILED;
    a = (char *)(((uintptr_t)p + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    if ((size_t)(p + extra - (a + len)) > 0)
        munmap(a + len, (size_t)(p + extra - (a + len)));
    return a;
}

void *lmb_pages_alloc_kind(size_t len, int fill, enum lmb_pages kind, char *err, size_t errlen)
{
    void *p = MAP_FAILED;

    if (len == 0)
        len = 1;
    if (kind == LMB_PAGES_HUGE) {
        /* Transparent huge pages need a 2 MiB-aligned range. Where the kernel
         * will not give them (THP off or absent), the buffer keeps normal pages
         * and lmb_pages_backing says so. */
        p = map_aligned(len);
#ifdef MADV_HUGEPAGE
        if (p != MAP_FAILED)
            (void)madvise(p, len, MADV_HUGEPAGE);
#endif
    } else {
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#ifdef MADV_NOHUGEPAGE
        /* Without THP in the kernel this fails with EINVAL: then there are only
         * normal pages anyway. */
        if (p != MAP_FAILED)
            (void)madvise(p, len, MADV_NOHUGEPAGE);
#endif
    }
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %zu bytes%s: %s", len,
                 kind == LMB_PAGES_HUGE ? " on huge pages" : "", strerror(errno));
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

void lmb_pages_backing(const void *p, size_t len, struct lmb_page_info *out)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[256];
    uintptr_t a = (uintptr_t)p, lo, hi;
    bool inside = false;
    uint64_t rss = 0, anon_huge = 0, kernel_page = 0, v;

    memset(out, 0, sizeof *out);
    if (f == NULL)
        return;
    (void)len;
    while (fgets(line, sizeof line, f) != NULL) {
        /* A mapping's first line starts "lo-hi perms ..."; its fields start
         * "Name:". */
        size_t tok = strcspn(line, " \t\n");
        if (tok > 0 && line[tok - 1] != ':') {
            if (inside)
                break;          /* the next mapping: ours is done */
            inside = sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2 && a >= lo && a < hi;
            continue;
        }
        if (sscanf(line, "%*[^:]: %" SCNu64, &v) != 1)
            continue;
        if (!inside)
            continue;
        if (strncmp(line, "Rss:", 4) == 0)
            rss = v;
        else if (strncmp(line, "AnonHugePages:", 14) == 0)
            anon_huge = v;
        else if (strncmp(line, "KernelPageSize:", 15) == 0)
            kernel_page = v;
    }
    fclose(f);
    if (kernel_page == 0)
        return;
    out->known = true;
    out->page_bytes = kernel_page * 1024;
    if (kernel_page * 1024 >= HUGE_ALIGN) {
        out->huge_percent = 100;   /* hugetlbfs */
    } else if (rss > 0) {
        out->huge_percent = (unsigned)(anon_huge * 100 / rss);
        if (anon_huge * 2 > rss)
            out->page_bytes = HUGE_ALIGN;
    }
}

void lmb_pages_note(const void *p, size_t len)
{
    struct lmb_page_info pi;

    lmb_pages_backing(p, len, &pi);
    if (!pi.known)
        return;
    lmb_copy_fact_int("page_bytes", (long long)pi.page_bytes);
    lmb_copy_fact_int("huge_percent", pi.huge_percent);
}

/* --- the memory guard --------------------------------------------------------- */

static uint64_t meminfo_kb(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    size_t n = strlen(key);
    uint64_t v = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            sscanf(line + n + 1, "%" SCNu64, &v);
            break;
        }
    fclose(f);
    return v;
}

static bool read_u64(const char *path, uint64_t *v)
{
    FILE *f = fopen(path, "r");
    char buf[64];
    bool ok = false;

    if (f == NULL)
        return false;
    if (fgets(buf, sizeof buf, f) != NULL) {
        if (strncmp(buf, "max", 3) == 0) {
            *v = UINT64_MAX;
            ok = true;
        } else {
            ok = sscanf(buf, "%" SCNu64, v) == 1;
        }
    }
    fclose(f);
    return ok;
}

/* Room left in the memory cgroup at dir and its ancestors (v2: memory.max and
 * memory.current; v1: memory.limit_in_bytes and memory.usage_in_bytes). */
static uint64_t cgroup_room(const char *root, const char *path, bool v2)
{
    char dir[1024], file[1100];
    uint64_t room = UINT64_MAX;

    snprintf(dir, sizeof dir, "%s%s", root, path);
    for (;;) {
        uint64_t limit, use;
        snprintf(file, sizeof file, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
        if (read_u64(file, &limit) && limit < (UINT64_MAX >> 2)) {
            snprintf(file, sizeof file, "%s/%s", dir,
                     v2 ? "memory.current" : "memory.usage_in_bytes");
            if (!read_u64(file, &use))
                use = 0;
            uint64_t r = limit > use ? limit - use : 0;
            if (r < room)
                room = r;
        }
        char *slash = strrchr(dir, '/');
        if (slash == NULL || (size_t)(slash - dir) < strlen(root))
            break;
        *slash = '\0';
    }
    return room;
}

static uint64_t cgroups_room(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[1024];
    uint64_t room = UINT64_MAX;

    if (f == NULL)
        return room;
    while (fgets(line, sizeof line, f) != NULL) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *path;
        uint64_t r = UINT64_MAX;
        if (c2 == NULL)
            continue;
        path = c2 + 1;
        path[strcspn(path, "\n")] = '\0';
        *c2 = '\0';
        if (strcmp(line, "0") == 0 && c1[1] == '\0')
            r = cgroup_room("/sys/fs/cgroup", strcmp(path, "/") == 0 ? "" : path, true);
        else if (strstr(c1 + 1, "memory") != NULL)
            r = cgroup_room("/sys/fs/cgroup/memory", strcmp(path, "/") == 0 ? "" : path, false);
        if (r < room)
            room = r;
    }
    fclose(f);
    return room;
}

/* Room under RLIMIT_AS: the limit minus what is mapped now. */
static uint64_t rlimit_room(void)
{
    struct rlimit rl;
    uint64_t vm_kb = 0;
    FILE *f;
    char line[256];

    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    f = fopen("/proc/self/status", "r");
    if (f != NULL) {
        while (fgets(line, sizeof line, f) != NULL)
            if (strncmp(line, "VmSize:", 7) == 0)
                sscanf(line + 7, "%" SCNu64, &vm_kb);
        fclose(f);
    }
    return (uint64_t)rl.rlim_cur > vm_kb * 1024 ? (uint64_t)rl.rlim_cur - vm_kb * 1024 : 0;
}

uint64_t lmb_memory_available(const char **what)
{
    const char *name;
    uint64_t best = lmb_memory_unused(&name), room = rlimit_room();

    if (room < best) {
        best = room;
        name = "RLIMIT_AS";
    }
    if (what != NULL)
        *what = name;
    return best;
}

uint64_t lmb_memory_unused(const char **what)
{
    uint64_t avail = meminfo_kb("MemAvailable"), room;
    uint64_t best = UINT64_MAX;
    const char *name = "unknown";

    if (avail > 0) {
        best = avail * 1024;
        name = "MemAvailable";
    } else if (lmb_physical_memory() > 0) {
        best = lmb_physical_memory();
        name = "physical memory";
    }
    room = cgroups_room();
    if (room < best) {
        best = room;
        name = "the memory cgroup's limit";
    }
    if (what != NULL)
        *what = name;
    return best;
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
    const char *what;
    uint64_t avail = lmb_memory_available(&what);
    double need = (double)bytes * (double)(copies ? copies : 1);
    char a[32], b[32];

    if (avail == UINT64_MAX || need <= 0.75 * (double)avail)
        return 0;
    if (need >= 1.8e19)
        snprintf(a, sizeof a, "more than 16 EiB");
    else
        human((uint64_t)need, a, sizeof a);
    human(avail, b, sizeof b);
    snprintf(err, errlen, "needs %s of memory; %s is available (%s) and a benchmark takes "
             "at most three quarters of it", a, b, what);
    return -1;
}
