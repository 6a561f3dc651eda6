// SPDX-License-Identifier: MIT
/* Memory for benchmarks: page-backed buffers with the page size chosen, not
 * inherited from the host's transparent-huge-page setting; what backing a
 * buffer really got; whether a request fits in the memory this process may
 * use; and the vector instruction sets the CPU running the binary offers. */
#ifndef LMB_MEM_H
#define LMB_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether the compiler can build functions for AVX2 and AVX-512 in a portable
 * x86-64 binary (function target attributes), to be chosen at run time. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define LMB_X86_TARGETS 1
#else
#define LMB_X86_TARGETS 0
#endif

/* The widest vector instruction set this CPU offers to code built with
 * LMB_X86_TARGETS ("avx512f", "avx2", "sse2"); "simd128" elsewhere (NEON on
 * Arm, or whatever 16-byte vectors the compiler makes). */
const char *lmb_widest_isa(void);

/* Whether the CPU runs code of the named set ("avx512f", "avx2", "sse2",
 * "simd128", "scalar"). */
bool lmb_cpu_has_isa(const char *isa);

/* Keeps the compiler from caching, merging, reordering or deleting memory
 * accesses across this point. Costs no instruction. */
static inline void lmb_compiler_barrier(void)
{
    __asm__ __volatile__("" ::: "memory");
}

/* The pages a buffer is put on: the choice of --pages (lat_mem_rd, tlb,
 * bw_mem, par_mem). */
enum lmb_pages {
    LMB_PAGES_NORMAL,   /* the running command's choice (lmb_pages_choose): base pages as
                           LMB_PAGES_4K unless the command was given another with --pages */
    LMB_PAGES_HUGE,     /* transparent huge pages asked for: MADV_HUGEPAGE on a 2 MiB-aligned
                           mapping whose length is rounded up to 2 MiB ("thp") */
    LMB_PAGES_DEFAULT,  /* what the kernel gives an ordinary mapping: no advice ("default") */
    LMB_PAGES_4K,       /* base pages asked for explicitly: MADV_NOHUGEPAGE ("4k") */
    LMB_PAGES_2M,       /* hugetlbfs pages: MAP_HUGETLB | MAP_HUGE_2MB, from the reserved pool */
    LMB_PAGES_1G,       /* hugetlbfs pages: MAP_HUGETLB | MAP_HUGE_1GB */
};
#define LMB_PAGES_THP LMB_PAGES_HUGE

/* What backs a buffer, read from /proc/self/smaps after it was touched. */
struct lmb_page_info {
    uint64_t page_bytes;     /* the page size backing most of it */
    unsigned huge_percent;   /* how much of it sits on huge pages, 0-100 */
    bool known;              /* false when smaps could not be read */
};

/* A page-aligned anonymous mapping of len bytes on the pages asked for, every
 * page touched (written with `fill`) so no page fault lands in a timed loop.
 * On huge pages (thp, 2m, 1g) the mapping is 2 MiB (1 GiB) aligned and its
 * length rounded up to whole huge pages, so that a small buffer lies in one
 * huge page too; lmb_pages_free knows. NULL with a message in err on failure
 * (for hugetlbfs pages: how many of the reserved ones are free). Free with
 * lmb_pages_free(p, len). */
void *lmb_pages_alloc(size_t len, int fill, char *err, size_t errlen);
void *lmb_pages_alloc_kind(size_t len, int fill, enum lmb_pages kind, char *err, size_t errlen);
void lmb_pages_free(void *p, size_t len);

/* What backs [p, p+len). */
void lmb_pages_backing(const void *p, size_t len, struct lmb_page_info *out);

/* In a copy (from a benchmark's init): records the backing of its buffer as
 * the record's parameters page_bytes and huge_percent. */
void lmb_pages_note(const void *p, size_t len);

/* The page choice of the running command, set by the harness from --pages
 * before the benchmark runs (so every copy inherits it): what
 * LMB_PAGES_NORMAL stands for. LMB_PAGES_4K until set; setting
 * LMB_PAGES_NORMAL restores that. */
void lmb_pages_choose(enum lmb_pages kind);
/* kind, with LMB_PAGES_NORMAL resolved to the command's choice. */
enum lmb_pages lmb_pages_resolve(enum lmb_pages kind);

/* The page-choice name for a record's "pages" parameter: "default", "4k",
 * "thp", "2m" or "1g" (LMB_PAGES_NORMAL resolved first). */
const char *lmb_pages_name(enum lmb_pages kind);
/* The choice named s (one of those names), or -1 with a message in err. */
int lmb_pages_parse(const char *s, enum lmb_pages *out, char *err, size_t errlen);
/* The names, for usage lines: "default|4k|thp|2m|1g". */
#define LMB_PAGES_NAMES "default|4k|thp|2m|1g"

/* Whether `kind` can be had here for `copies` buffers of `bytes` each at
 * once: NULL when it can, else why not, in why (the setting read and the way
 * to change it): transparent huge pages absent or "never"; no hugetlbfs pages
 * of that size reserved, or too few of them free. Reads
 * ROOT/kernel/mm/transparent_hugepage/enabled and
 * ROOT/kernel/mm/hugepages/hugepages-<size>kB/{nr,free}_hugepages, where ROOT
 * is LMBENCH_SYSFS when set (tests give a fake tree), else /sys. */
const char *lmb_pages_missing(enum lmb_pages kind, uint64_t bytes, unsigned copies, char *why,
                              size_t whylen);

/* The page size of `kind` in bytes (2 MiB for thp and 2m, 1 GiB for 1g), 0 for
 * default and 4k (the base page, whatever the kernel gives). */
uint64_t lmb_pages_huge_bytes(enum lmb_pages kind);

struct lmb_ctx;
/* For a command's own switch that stands for a page choice (-H for thp):
 * makes kind the command's choice (ctx->opt.pages, lmb_pages_choose and the
 * run.config setting "pages"). Returns 0, or -1 when --pages asked for
 * another (the caller reports the usage error). */
int lmb_pages_imply(struct lmb_ctx *ctx, enum lmb_pages kind);

struct lmb_result;
/* After a measurement of a buffer asked on `kind`: a warning on res when the
 * backing its copy noted (huge_percent) is not what was asked: fewer huge
 * pages than all for thp, 2m and 1g ("asked for --pages thp; 62% of the
 * buffer is on huge pages, the rest on 4 KiB pages"), any for 4k. */
void lmb_pages_check(struct lmb_result *res, enum lmb_pages kind);
/* The same warning for a backing known otherwise: pct huge_percent (-1:
 * unknown, no warning), page the page_bytes obtained. Also on a failed
 * result (the pages it ran on may be why); never on a skipped one. */
void lmb_pages_warn_backing(struct lmb_result *res, enum lmb_pages kind, long long pct,
                            long long page);

/* Memory this process may still use, the smallest of MemAvailable, what its
 * memory cgroups allow (limit minus use, for the cgroup and its ancestors)
 * and the room left under RLIMIT_AS; *what names the binding limit.
 * UINT64_MAX when nothing says. */
uint64_t lmb_memory_available(const char **what);

/* The part of that which is memory still to be filled: the smallest of
 * MemAvailable and the memory cgroups' room, without RLIMIT_AS (which bounds
 * what may be mapped, not what may be touched). For a process watching the
 * memory it touches in a mapping it already made. */
uint64_t lmb_memory_unused(const char **what);

/* Whether `bytes` times `copies` fit in 75% of lmb_memory_available() (the
 * rest is left to the system and the page cache); if not,
 * a message in err ("needs 20.0 GiB of memory; 18.3 GiB is available
 * (MemAvailable)"). Overflowing requests never fit. */
int lmb_memory_fits(uint64_t bytes, unsigned copies, char *err, size_t errlen);

#endif
