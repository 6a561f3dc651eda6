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

enum lmb_pages {
    LMB_PAGES_NORMAL,   /* base pages, asked for explicitly (MADV_NOHUGEPAGE) */
    LMB_PAGES_HUGE,     /* huge pages: transparent ones asked for (MADV_HUGEPAGE) on a
                           2 MiB-aligned mapping, else hugetlbfs pages (MAP_HUGETLB) */
};

/* What backs a buffer, read from /proc/self/smaps after it was touched. */
struct lmb_page_info {
    uint64_t page_bytes;     /* the page size backing most of it */
    unsigned huge_percent;   /* how much of it sits on huge pages, 0-100 */
    bool known;              /* false when smaps could not be read */
};

/* A page-aligned anonymous mapping of len bytes on the pages asked for, every
 * page touched (written with `fill`) so no page fault lands in a timed loop.
 * NULL with a message in err on failure. Free with lmb_pages_free(p, len). */
void *lmb_pages_alloc(size_t len, int fill, char *err, size_t errlen);
void *lmb_pages_alloc_kind(size_t len, int fill, enum lmb_pages kind, char *err, size_t errlen);
void lmb_pages_free(void *p, size_t len);

/* What backs [p, p+len). */
void lmb_pages_backing(const void *p, size_t len, struct lmb_page_info *out);

/* In a copy (from a benchmark's init): records the backing of its buffer as
 * the record's parameters page_bytes and huge_percent. */
void lmb_pages_note(const void *p, size_t len);

/* The page-choice name for a record's "pages" parameter. */
const char *lmb_pages_name(enum lmb_pages kind);

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
