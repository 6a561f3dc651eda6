// SPDX-License-Identifier: MIT
/* Facts about the machine: CPU, caches, memory, load, and what may skew results. */
#ifndef LMB_SYSINFO_H
#define LMB_SYSINFO_H

#include <stdint.h>
#include <sys/utsname.h>

#include "lib/context.h"

#define LMB_MAX_CACHES 8
#define LMB_MAX_WARNINGS 8

struct lmb_cache_info {
    int level;
    char type[16];          /* Data, Instruction, Unified */
    uint64_t size;          /* bytes */
    int line;               /* bytes; 0 unknown */
};

struct lmb_host {
    char hostname[256];
    struct utsname uts;
    char cpu_model[128];
    long cpus_online;
    double cpu_mhz;         /* as the kernel reports it (/proc/cpuinfo); 0 unknown */
    struct lmb_cache_info caches[LMB_MAX_CACHES];
    int ncaches;
    uint64_t memory_bytes;
    double loadavg[3];
    char warnings[LMB_MAX_WARNINGS][160];
    int nwarnings;
    struct lmb_context context;  /* host.context (lmb_context_probe) */
};

void lmb_host_probe(struct lmb_host *h);

/* The data cache line size from sysfs or sysconf, else 64. */
int lmb_cache_line_size(void);

/* Physical memory in bytes, 0 if unknown. */
uint64_t lmb_physical_memory(void);

#endif
