// SPDX-License-Identifier: MIT
/* Memory for benchmarks: page-backed buffers, and the widest vector code the CPU
 * running the binary offers. */
#ifndef LMB_MEM_H
#define LMB_MEM_H

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

/* Keeps the compiler from caching, merging, reordering or deleting memory
 * accesses across this point. Costs no instruction. */
static inline void lmb_compiler_barrier(void)
{
    __asm__ __volatile__("" ::: "memory");
}

/* A page-aligned anonymous mapping of len bytes, every page touched (written
 * with `fill`) so no page fault lands in a timed loop. NULL with a message in err
 * on failure. Free with lmb_pages_free. */
void *lmb_pages_alloc(size_t len, int fill, char *err, size_t errlen);
void lmb_pages_free(void *p, size_t len);

/* Whether `bytes` (times `copies`) fit comfortably in physical memory; if not,
 * a message in err. */
int lmb_memory_fits(uint64_t bytes, unsigned copies, char *err, size_t errlen);

#endif
