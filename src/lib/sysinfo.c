// SPDX-License-Identifier: MIT
/* Facts about the machine from uname, /proc and sysfs. */
#include "lib/sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return -1;
    if (fgets(buf, (int)len, f) == NULL) {
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* "32K", "1024K", "32M" as sysfs writes cache sizes. */
static uint64_t sysfs_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);

    if (end == s)
        return 0;
    switch (*end) {
    case 'K': return v << 10;
    case 'M': return v << 20;
    case 'G': return v << 30;
    default: return v;
    }
}

static void probe_caches(struct lmb_host *h)
{
    for (int i = 0; i < 16 && h->ncaches < LMB_MAX_CACHES; i++) {
        char path[128], buf[64];
        struct lmb_cache_info *c = &h->caches[h->ncaches];

        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (read_line(path, buf, sizeof buf) != 0)
            break;
        memset(c, 0, sizeof *c);
        c->level = atoi(buf);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (read_line(path, buf, sizeof buf) == 0)
            snprintf(c->type, sizeof c->type, "%.15s", buf);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (read_line(path, buf, sizeof buf) == 0)
            c->size = sysfs_size(buf);
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
        if (read_line(path, buf, sizeof buf) == 0)
            c->line = atoi(buf);
        h->ncaches++;
    }
}

static void probe_cpuinfo(struct lmb_host *h)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    int hypervisor = 0;

    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL) {
        char *colon = strchr(line, ':');
        if (colon == NULL)
            continue;
        char *val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        val[strcspn(val, "\n")] = '\0';
        if (h->cpu_model[0] == '\0' && (strncmp(line, "model name", 10) == 0 ||
                                        strncmp(line, "Model", 5) == 0 ||
                                        strncmp(line, "cpu model", 9) == 0))
            snprintf(h->cpu_model, sizeof h->cpu_model, "%s", val);
        else if (h->cpu_mhz == 0 && strncmp(line, "cpu MHz", 7) == 0)
            h->cpu_mhz = strtod(val, NULL);
        else if (strncmp(line, "flags", 5) == 0 && strstr(val, " hypervisor") != NULL)
            hypervisor = 1;
    }
    fclose(f);
    if (hypervisor && h->nwarnings < LMB_MAX_WARNINGS)
        snprintf(h->warnings[h->nwarnings++], sizeof h->warnings[0],
                 "running under a hypervisor: other guests can disturb timings");
}

uint64_t lmb_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

    if (pages <= 0 || psz <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)psz;
}

int lmb_cache_line_size(void)
{
    char buf[32];
    long v;

    if (read_line("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size",
                  buf, sizeof buf) == 0) {
        v = atol(buf);
        if (v >= 16 && v <= 4096)
            return (int)v;
    }
#ifdef _SC_LEVEL1_DCACHE_LINESIZE
    v = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    if (v >= 16 && v <= 4096)
        return (int)v;
#endif
    return 64;
}

void lmb_host_probe(struct lmb_host *h)
{
    char gov[64];

    memset(h, 0, sizeof *h);
    if (gethostname(h->hostname, sizeof h->hostname - 1) != 0)
        snprintf(h->hostname, sizeof h->hostname, "unknown");
    if (uname(&h->uts) != 0)
        memset(&h->uts, 0, sizeof h->uts);
    h->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
    probe_cpuinfo(h);
    probe_caches(h);
    h->memory_bytes = lmb_physical_memory();
    lmb_context_probe(&h->context);
    if (getloadavg(h->loadavg, 3) != 3)
        memset(h->loadavg, 0, sizeof h->loadavg);
    if (h->cpus_online > 0 && h->loadavg[0] > 0.5 * (double)h->cpus_online &&
        h->nwarnings < LMB_MAX_WARNINGS)
        snprintf(h->warnings[h->nwarnings++], sizeof h->warnings[0],
                 "load average %.2f on %ld CPUs: other work competes with the benchmarks",
                 h->loadavg[0], h->cpus_online);
    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", gov, sizeof gov) == 0 &&
        strcmp(gov, "performance") != 0 && h->nwarnings < LMB_MAX_WARNINGS)
        snprintf(h->warnings[h->nwarnings++], sizeof h->warnings[0],
                 "cpufreq governor is '%s', not 'performance': clock speed may vary", gov);
}
