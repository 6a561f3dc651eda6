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
#include <unistd.h>

#include "lib/bench.h"
#include "lib/report.h"
#include "lib/result.h"
#include "lib/sysinfo.h"

#define HUGE_2M (2ULL << 20)
#define HUGE_1G (1ULL << 30)

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

/* --- the page choice --------------------------------------------------------- */

/* The running command's --pages: a setting of this process (the harness sets
 * it once, before the benchmark's copies are forked), not a result. */
static enum lmb_pages command_pages = LMB_PAGES_4K;

void lmb_pages_choose(enum lmb_pages kind)
{
    command_pages = kind == LMB_PAGES_NORMAL ? LMB_PAGES_4K : kind;
}

enum lmb_pages lmb_pages_resolve(enum lmb_pages kind)
{
    return kind == LMB_PAGES_NORMAL ? command_pages : kind;
}

static const char *const page_names[] = {
    [LMB_PAGES_NORMAL] = "4k", [LMB_PAGES_HUGE] = "thp", [LMB_PAGES_DEFAULT] = "default",
    [LMB_PAGES_4K] = "4k", [LMB_PAGES_2M] = "2m", [LMB_PAGES_1G] = "1g",
};

const char *lmb_pages_name(enum lmb_pages kind)
{
    kind = lmb_pages_resolve(kind);
    return (unsigned)kind < sizeof page_names / sizeof page_names[0] ? page_names[kind] : "?";
}

int lmb_pages_parse(const char *s, enum lmb_pages *out, char *err, size_t errlen)
{
    static const enum lmb_pages kinds[] = { LMB_PAGES_DEFAULT, LMB_PAGES_4K, LMB_PAGES_HUGE,
                                            LMB_PAGES_2M, LMB_PAGES_1G };
    char q[LMB_QUOTE_BUF];

    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(s, page_names[kinds[i]]) == 0) {
            *out = kinds[i];
            return 0;
        }
    snprintf(err, errlen, "unknown page choice '%s' (expected one of %s)",
             lmb_quote(s, q, sizeof q), LMB_PAGES_NAMES);
    return -1;
}

uint64_t lmb_pages_huge_bytes(enum lmb_pages kind)
{
    switch (lmb_pages_resolve(kind)) {
    case LMB_PAGES_HUGE:
    case LMB_PAGES_2M:
        return HUGE_2M;
    case LMB_PAGES_1G:
        return HUGE_1G;
    default:
        return 0;
    }
}

/* ROOT/rel, ROOT being LMBENCH_SYSFS or /sys. */
static void sys_path(char *buf, size_t len, const char *rel)
{
    const char *root = getenv("LMBENCH_SYSFS");

    snprintf(buf, len, "%s/%s", root != NULL && root[0] != '\0' ? root : "/sys", rel);
}

/* The first line of a file, newline cut; false when it cannot be read. */
static bool read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    bool ok;

    if (f == NULL)
        return false;
    ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

static bool read_count(const char *path, uint64_t *v)
{
    char buf[64];

    return read_line(path, buf, sizeof buf) && sscanf(buf, "%" SCNu64, v) == 1;
}

static const char *thp_missing(char *why, size_t whylen)
{
    char path[1024], line[256];

    sys_path(path, sizeof path, "kernel/mm/transparent_hugepage/enabled");
    if (!read_line(path, line, sizeof line)) {
        snprintf(why, whylen, "this kernel offers no transparent huge pages (%s cannot be read)",
                 path);
        return why;
    }
    if (strstr(line, "[never]") != NULL) {
        snprintf(why, whylen, "transparent huge pages are off here (%s: %s); as root: echo "
                 "madvise > /sys/kernel/mm/transparent_hugepage/enabled", path, line);
        return why;
    }
    return NULL;
}

static const char *hugetlb_missing(uint64_t page, uint64_t bytes, unsigned copies, char *why,
                                   size_t whylen)
{
    bool gig = page == HUGE_1G;
    const char *name = gig ? "1 GiB" : "2 MiB";
    char dir[128], path[1024];
    uint64_t nr = 0, nfree = 0, need;

    snprintf(dir, sizeof dir, "kernel/mm/hugepages/hugepages-%" PRIu64 "kB", page >> 10);
    sys_path(path, sizeof path, dir);
    char nrpath[1100], freepath[1100];
    snprintf(nrpath, sizeof nrpath, "%s/nr_hugepages", path);
    snprintf(freepath, sizeof freepath, "%s/free_hugepages", path);
    if (!read_count(nrpath, &nr)) {
        snprintf(why, whylen, "this kernel or processor has no %s huge pages (%s cannot be read)",
                 name, nrpath);
        return why;
    }
    if (nr == 0) {
        if (gig)
            snprintf(why, whylen, "no 1 GiB huge pages reserved (%s is 0; reserve them as "
                     "root: hugepagesz=1G hugepages=N on the kernel command line, or echo N > "
                     "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages)", nrpath);
        else
            snprintf(why, whylen, "no 2 MiB huge pages reserved (%s is 0; reserve them as root: "
                     "echo N > /proc/sys/vm/nr_hugepages, or hugepages=N on the kernel command "
                     "line)", nrpath);
        return why;
    }
    if (!read_count(freepath, &nfree))
        nfree = nr;
    need = (bytes + page - 1) / page;
    if (need == 0)
        need = 1;
    need *= copies ? copies : 1;
    if (nfree < need) {
        snprintf(why, whylen, "needs %" PRIu64 " %s huge page%s; %" PRIu64 " of the %" PRIu64
                 " reserved %s free (%s; reserve more as root)", need, name, need == 1 ? "" : "s",
                 nfree, nr, nfree == 1 ? "is" : "are", freepath);
        return why;
    }
    return NULL;
}

const char *lmb_pages_missing(enum lmb_pages kind, uint64_t bytes, unsigned copies, char *why,
                              size_t whylen)
{
    switch (lmb_pages_resolve(kind)) {
    case LMB_PAGES_HUGE:
        return thp_missing(why, whylen);
    case LMB_PAGES_2M:
        return hugetlb_missing(HUGE_2M, bytes, copies, why, whylen);
    case LMB_PAGES_1G:
        return hugetlb_missing(HUGE_1G, bytes, copies, why, whylen);
    default:
        return NULL;
    }
}

int lmb_pages_imply(struct lmb_ctx *ctx, enum lmb_pages kind)
{
    struct lmb_report *r = &ctx->report;

    if (ctx->opt.pages != LMB_PAGES_NORMAL && ctx->opt.pages != (int)kind)
        return -1;
    ctx->opt.pages = (int)kind;
    lmb_pages_choose(kind);
    for (size_t i = 0; i < r->nsettings; i++)
        if (strcmp(r->settings[i].key, "pages") == 0)
            r->settings[i].sval = lmb_pages_name(kind);
    return 0;
}

void lmb_pages_warn_backing(struct lmb_result *res, enum lmb_pages kind, long long pct,
                            long long page)
{
    const char *name = lmb_pages_name(kind);

    kind = lmb_pages_resolve(kind);
    if (res->status == LMB_SKIPPED || pct < 0)
        return;   /* pct < 0: smaps unread, the backing is unknown and the record says nothing of it */
    if (lmb_pages_huge_bytes(kind) > 0 && pct < 100)
        lmb_result_warn(res, "asked for --pages %s; %lld%% of the buffer is on huge pages, the "
                        "rest on %lld KiB pages (see /sys/kernel/mm/transparent_hugepage/)",
                        name, pct, (long long)sysconf(_SC_PAGESIZE) / 1024);
    else if (kind == LMB_PAGES_4K && pct > 0)
        lmb_result_warn(res, "asked for --pages 4k; %lld%% of the buffer is on huge pages "
                        "(%lld KiB pages mostly)", pct, page / 1024);
}

void lmb_pages_check(struct lmb_result *res, enum lmb_pages kind)
{
    long long pct = -1, page = 0;

    if (res->status != LMB_OK)
        return;
    for (unsigned i = 0; i < res->nfacts; i++) {
        if (strcmp(res->facts[i].key, "huge_percent") == 0)
            pct = res->facts[i].ival;
        else if (strcmp(res->facts[i].key, "page_bytes") == 0)
            page = res->facts[i].ival;
    }
    lmb_pages_warn_backing(res, kind, pct, page);
}

void *lmb_pages_alloc(size_t len, int fill, char *err, size_t errlen)
{
    return lmb_pages_alloc_kind(len, fill, LMB_PAGES_NORMAL, err, errlen);
}

/* A mapping of len bytes whose start is 2 MiB aligned (huge pages need it):
 * map more and trim both ends. */
static void *map_aligned(size_t len)
{
    size_t extra = len + HUGE_2M;
    char *p, *a;

    if (extra < len)
        return MAP_FAILED;
    p = mmap(NULL, extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return MAP_FAILED;
    a = (char *)(((uintptr_t)p + (uintptr_t)HUGE_2M - 1) & ~((uintptr_t)HUGE_2M - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    if ((size_t)(p + extra - (a + len)) > 0)
        munmap(a + len, (size_t)(p + extra - (a + len)));
    return a;
}

static size_t round_up_to(size_t len, uint64_t unit)
{
    size_t r = (size_t)((len + unit - 1) / unit * unit);

    return r < len ? 0 : r;
}

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif
#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#endif

/* hugetlbfs pages of `page` bytes, or MAP_FAILED with errno. */
static void *map_hugetlb(size_t len, uint64_t page)
{
#ifdef MAP_HUGETLB
    return mmap(NULL, len, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
                    (page == HUGE_1G ? MAP_HUGE_1GB : MAP_HUGE_2MB), -1, 0);
#else
    (void)len;
    (void)page;
    errno = ENOSYS;
    return MAP_FAILED;
#endif
}

void *lmb_pages_alloc_kind(size_t len, int fill, enum lmb_pages kind, char *err, size_t errlen)
{
    void *p = MAP_FAILED;
    uint64_t huge;
    size_t maplen;

    if (len == 0)
        len = 1;
    kind = lmb_pages_resolve(kind);
    huge = lmb_pages_huge_bytes(kind);
    maplen = huge ? round_up_to(len, huge) : len;
    if (maplen == 0) {
        errno = ENOMEM;
    } else if (kind == LMB_PAGES_HUGE) {
        /* Transparent huge pages need a 2 MiB-aligned range. Where the kernel
         * will not give them (THP off or absent), the buffer keeps normal pages
         * and lmb_pages_backing says so. */
        p = map_aligned(maplen);
#ifdef MADV_HUGEPAGE
        if (p != MAP_FAILED)
            (void)madvise(p, maplen, MADV_HUGEPAGE);
#endif
    } else if (kind == LMB_PAGES_2M || kind == LMB_PAGES_1G) {
        p = map_hugetlb(maplen, huge);
    } else {
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#ifdef MADV_NOHUGEPAGE
        /* Without THP in the kernel this fails with EINVAL: then there are only
         * normal pages anyway. */
        if (p != MAP_FAILED && kind == LMB_PAGES_4K)
            (void)madvise(p, len, MADV_NOHUGEPAGE);
#endif
    }
    if (p == MAP_FAILED) {
        int e = errno;
        char why[512] = "";
        if (kind == LMB_PAGES_2M || kind == LMB_PAGES_1G) {
            char w[400];
            if (lmb_pages_missing(kind, len, 1, w, sizeof w) != NULL)
                snprintf(why, sizeof why, " (%s)", w);
        }
        snprintf(err, errlen, "cannot map %zu bytes on %s pages: %s%s", len,
                 lmb_pages_name(kind), strerror(e), why);
        return NULL;
    }
    memset(p, fill, len);
    return p;
}

/* What smaps says of the mapping holding address a. */
struct vma {
    uint64_t rss_kb, anon_huge_kb, kernel_page_kb;
    bool thp_advised, hugetlb;   /* VmFlags hg, ht */
    bool found;
};

static void vma_read(uintptr_t a, struct vma *v)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    uintptr_t lo, hi;
    bool inside = false;
    uint64_t x;

    memset(v, 0, sizeof *v);
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL) {
        /* A mapping's first line starts "lo-hi perms ..."; its fields start
         * "Name:". */
        size_t tok = strcspn(line, " \t\n");
        if (tok > 0 && line[tok - 1] != ':') {
            if (inside)
                break;          /* the next mapping: ours is done */
            inside = sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2 && a >= lo && a < hi;
            v->found |= inside;
            continue;
        }
        if (!inside)
            continue;
        if (strncmp(line, "VmFlags:", 8) == 0) {
            v->thp_advised = strstr(line + 8, " hg") != NULL;
            v->hugetlb = strstr(line + 8, " ht") != NULL;
            continue;
        }
        if (sscanf(line, "%*[^:]: %" SCNu64, &x) != 1)
            continue;
        if (strncmp(line, "Rss:", 4) == 0)
            v->rss_kb = x;
        else if (strncmp(line, "AnonHugePages:", 14) == 0)
            v->anon_huge_kb = x;
        else if (strncmp(line, "KernelPageSize:", 15) == 0)
            v->kernel_page_kb = x;
    }
    fclose(f);
}

void lmb_pages_free(void *p, size_t len)
{
    size_t n = len ? len : 1;

    if (p == NULL)
        return;
    /* A mapping on huge pages spans whole huge pages (lmb_pages_alloc_kind
     * rounded it up): its start is 2 MiB aligned, and smaps says which. */
    if (((uintptr_t)p & (HUGE_2M - 1)) == 0) {
        struct vma v;
        vma_read((uintptr_t)p, &v);
        if (v.hugetlb && v.kernel_page_kb > 0)
            n = round_up_to(n, v.kernel_page_kb * 1024);
        else if (v.thp_advised)
            n = round_up_to(n, HUGE_2M);
        if (n == 0)
            n = len ? len : 1;
    }
    munmap(p, n);
}

void lmb_pages_backing(const void *p, size_t len, struct lmb_page_info *out)
{
    struct vma v;

    memset(out, 0, sizeof *out);
    (void)len;
    vma_read((uintptr_t)p, &v);
    if (v.kernel_page_kb == 0)
        return;
    out->known = true;
    out->page_bytes = v.kernel_page_kb * 1024;
    if (v.kernel_page_kb * 1024 >= HUGE_2M) {
        out->huge_percent = 100;   /* hugetlbfs */
    } else if (v.rss_kb > 0) {
        out->huge_percent = (unsigned)(v.anon_huge_kb * 100 / v.rss_kb);
        if (v.anon_huge_kb * 2 > v.rss_kb)
            out->page_bytes = HUGE_2M;
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
