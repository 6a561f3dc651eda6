// SPDX-License-Identifier: MIT
/* The CPU and NUMA topology read from sysfs (or the fake tree LMBENCH_SYSFS
 * names): per online CPU its core, package, node and SMT core, and the online
 * nodes; how two CPUs are related. Missing files leave fields unknown (-1). */
#include "lib/topology.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/sizes.h"

/* Reads the first line of ROOT/devices/system/REL into buf (newline cut).
 * Returns 0, or -1 when the file is missing, unreadable or empty. */
static int read_line(const struct lmb_topology *t, const char *rel, char *buf, size_t len)
{
    char path[512];
    FILE *f;
    size_t n;

    if (snprintf(path, sizeof path, "%s/devices/system/%s", t->root, rel) >= (int)sizeof path)
        return -1;
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    if (fgets(buf, (int)len, f) == NULL) {
        fclose(f);
        return -1;
    }
    fclose(f);
    n = strlen(buf);
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return n > 0 ? 0 : -1;
}

/* A non-negative decimal integer file; -1 when missing or not a number (some
 * kernels write -1 for an unknown package). */
static int read_int(const struct lmb_topology *t, const char *rel)
{
    char buf[64], *end;
    long v;

    if (read_line(t, rel, buf, sizeof buf) != 0)
        return -1;
    errno = 0;
    v = strtol(buf, &end, 10);
    if (errno != 0 || end == buf || *end != '\0' || v < 0 || v > 1 << 30)
        return -1;
    return (int)v;
}

/* A CPU list file into list[0..max); returns the count, -1 when missing or bad. */
static int read_list(const struct lmb_topology *t, const char *rel, int *list, int max)
{
    static const size_t cap = 65536;   /* a list of many single CPUs is long */
    char *buf, err[128];
    int n = 0, rc;

    buf = malloc(cap);
    if (buf == NULL)
        return -1;
    rc = read_line(t, rel, buf, cap);
    if (rc == 0)
        rc = lmb_parse_cpulist(buf, list, max, &n, err, sizeof err);
    free(buf);
    return rc == 0 ? n : -1;
}

static bool is_dir(const struct lmb_topology *t, const char *rel)
{
    char path[512];
    struct stat st;

    if (snprintf(path, sizeof path, "%s/devices/system/%s", t->root, rel) >= (int)sizeof path)
        return false;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The online nodes when node/online is missing but node/nodeM directories exist. */
static int scan_nodes(const struct lmb_topology *t, int *nodes, int max)
{
    char path[512];
    DIR *d;
    struct dirent *e;
    int n = 0;

    snprintf(path, sizeof path, "%s/devices/system/node", t->root);
    d = opendir(path);
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL && n < max) {
        const char *s = e->d_name;
        char *end;
        long v;
        if (strncmp(s, "node", 4) != 0 || !isdigit((unsigned char)s[4]))
            continue;
        v = strtol(s + 4, &end, 10);
        if (*end == '\0' && v >= 0 && v < 65536)
            nodes[n++] = (int)v;
    }
    closedir(d);
    qsort(nodes, (size_t)n, sizeof nodes[0], cmp_int);
    return n;
}

static struct lmb_cpu_topo *cpu_entry(struct lmb_topology *t, int cpu)
{
    return (struct lmb_cpu_topo *)lmb_topology_cpu(t, cpu);
}

static void read_nodes(struct lmb_topology *t, int *list)
{
    int n;

    if (!is_dir(t, "node")) {
        /* No NUMA in this kernel: one node, every CPU on it. */
        t->nnodes = 1;
        t->nodes[0] = 0;
        for (int i = 0; i < t->ncpus; i++)
            t->cpu[i].node = 0;
        return;
    }
    n = read_list(t, "node/online", list, LMB_MAX_CPUS);
    if (n < 0)
        n = scan_nodes(t, list, LMB_MAX_CPUS);
    if (n <= 0) {
        t->nnodes = 1;
        t->nodes[0] = 0;
        n = 0;
    } else {
        t->nnodes = 0;
        for (int i = 0; i < n && t->nnodes < LMB_MAX_NODES; i++)
            t->nodes[t->nnodes++] = list[i];
    }
    for (int i = 0; i < t->nnodes; i++) {
        char rel[64];
        int node = t->nodes[i], *cpus = list, k;
        snprintf(rel, sizeof rel, "node/node%d/cpulist", node);
        k = read_list(t, rel, cpus, LMB_MAX_CPUS);
        for (int j = 0; j < k; j++) {
            struct lmb_cpu_topo *c = cpu_entry(t, cpus[j]);
            if (c != NULL && c->node < 0)
                c->node = node;
        }
    }
    /* A node directory with no node lists at all (an odd tree): one node. */
    if (n == 0)
        for (int i = 0; i < t->ncpus; i++)
            if (t->cpu[i].node < 0)
                t->cpu[i].node = 0;
}

int lmb_topology_read(struct lmb_topology *t, char *err, size_t errlen)
{
    const char *env = getenv("LMBENCH_SYSFS");
    int *list, n;

    memset(t, 0, sizeof *t);
    t->fake = env != NULL && env[0] != '\0';
    if (snprintf(t->root, sizeof t->root, "%s", t->fake ? env : "/sys") >= (int)sizeof t->root) {
        snprintf(err, errlen, "LMBENCH_SYSFS is too long (at most %zu characters)",
                 sizeof t->root - 1);
        return -1;
    }
    list = malloc(2 * LMB_MAX_CPUS * sizeof *list);   /* online CPUs, then a sibling list */
    if (list == NULL) {
        snprintf(err, errlen, "out of memory reading the topology");
        return -1;
    }
    n = read_list(t, "cpu/online", list, LMB_MAX_CPUS);
    if (n <= 0) {
        snprintf(err, errlen, "cannot read the online CPUs from %s/devices/system/cpu/online",
                 t->root);
        free(list);
        return -1;
    }
    t->ncpus = n;
    for (int i = 0; i < n; i++) {
        struct lmb_cpu_topo *c = &t->cpu[i];
        char rel[96];
        int k;

        c->cpu = list[i];
        snprintf(rel, sizeof rel, "cpu/cpu%d/topology/core_id", c->cpu);
        c->core = read_int(t, rel);
        snprintf(rel, sizeof rel, "cpu/cpu%d/topology/physical_package_id", c->cpu);
        c->package = read_int(t, rel);
        c->node = -1;
        c->sibling = -1;
        c->core_first = -1;
        snprintf(rel, sizeof rel, "cpu/cpu%d/topology/thread_siblings_list", c->cpu);
        k = read_list(t, rel, list + LMB_MAX_CPUS, LMB_MAX_CPUS);
        if (k < 0) {
            snprintf(rel, sizeof rel, "cpu/cpu%d/topology/core_cpus_list", c->cpu);
            k = read_list(t, rel, list + LMB_MAX_CPUS, LMB_MAX_CPUS);
        }
        if (k > 0) {
            bool self = false;
            for (int j = 0; j < k; j++) {
                int s = list[LMB_MAX_CPUS + j];
                if (s == c->cpu)
                    self = true;
                else if (c->sibling < 0)
                    c->sibling = s;
            }
            /* A list without the CPU itself is not this CPU's: leave it unknown. */
            if (self)
                c->core_first = list[LMB_MAX_CPUS] < c->cpu ? list[LMB_MAX_CPUS] : c->cpu;
            else
                c->sibling = -1;
        }
    }
    for (int i = 0; i < n; i++) {
        int p = t->cpu[i].package;
        bool seen = false;
        if (p < 0)
            continue;
        for (int j = 0; j < i; j++)
            if (t->cpu[j].package == p)
                seen = true;
        if (!seen)
            t->npackages++;
    }
    read_nodes(t, list);
    free(list);
    return 0;
}

const struct lmb_cpu_topo *lmb_topology_cpu(const struct lmb_topology *t, int cpu)
{
    int lo = 0, hi = t->ncpus - 1;

    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (t->cpu[mid].cpu == cpu)
            return &t->cpu[mid];
        if (t->cpu[mid].cpu < cpu)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

enum lmb_cpu_relation lmb_topology_relation(const struct lmb_topology *t, int a, int b)
{
    const struct lmb_cpu_topo *x, *y;
    int smt = -1;   /* 1 one core, 0 two cores, -1 not known */

    if (a == b)
        return LMB_REL_SELF;
    x = lmb_topology_cpu(t, a);
    y = lmb_topology_cpu(t, b);
    if (x == NULL || y == NULL)
        return LMB_REL_UNKNOWN;
    /* The sibling lists say best whether two CPUs share a core. */
    if (x->core_first >= 0 && y->core_first >= 0)
        smt = x->core_first == y->core_first;
    else if (x->core >= 0 && y->core >= 0 && x->package >= 0 && y->package >= 0)
        smt = x->package == y->package && x->core == y->core;
    if (smt == 1)
        return LMB_REL_SMT;
    if (x->package < 0 || y->package < 0)
        return LMB_REL_UNKNOWN;
    if (x->package != y->package)
        return LMB_REL_SOCKET;
    return smt == 0 ? LMB_REL_CORE : LMB_REL_UNKNOWN;
}

const char *lmb_relation_name(enum lmb_cpu_relation r)
{
    switch (r) {
    case LMB_REL_SELF:
        return "self";
    case LMB_REL_SMT:
        return "smt";
    case LMB_REL_CORE:
        return "core";
    case LMB_REL_SOCKET:
        return "socket";
    case LMB_REL_UNKNOWN:
        break;
    }
    return "unknown";
}

int lmb_topology_node_cpus(const struct lmb_topology *t, int node, int *cpus, int max)
{
    int n = 0;

    if (node < 0)
        return 0;
    for (int i = 0; i < t->ncpus && n < max; i++)
        if (t->cpu[i].node == node)
            cpus[n++] = t->cpu[i].cpu;
    return n;
}
