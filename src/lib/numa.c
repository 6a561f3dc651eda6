// SPDX-License-Identifier: MIT
/* NUMA placement without libnuma: binding a buffer to a node (mbind), finding
 * where its pages went (move_pages, get_mempolicy), the node of the running
 * CPU (getcpu), and the CPUs of a node as a measurement's placement. See
 * numa.h. */
#include "lib/numa.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/mem.h"
#include "lib/report.h"

/* The constants of <numaif.h> (linux/mempolicy.h), under our own names: that
 * header comes with libnuma, which is not needed. */
#define LMB_MPOL_BIND 2
#define LMB_MPOL_MF_STRICT 1
#define LMB_MPOL_MF_MOVE 2
#define LMB_MPOL_F_NODE 1
#define LMB_MPOL_F_ADDR 2

/* Pages asked about per move_pages call. */
#define LOCATE_CHUNK 16384

#define ULONG_BITS (8 * sizeof(unsigned long))

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

int lmb_numa_mask(int node, unsigned long mask[LMB_NUMA_MASK_WORDS], unsigned long *maxnode)
{
    if (node < 0 || node >= LMB_MAX_NODES)
        return -1;
    memset(mask, 0, LMB_NUMA_MASK_WORDS * sizeof mask[0]);
    mask[(size_t)node / ULONG_BITS] = 1UL << ((size_t)node % ULONG_BITS);
    /* The kernel reads maxnode - 1 bits (it counts one past the last): give it
     * every bit of the array, all of them ours. */
    *maxnode = LMB_NUMA_MASK_WORDS * ULONG_BITS;
    return 0;
}

int lmb_numa_bind(void *p, size_t len, int node, char *err, size_t errlen)
{
#ifdef SYS_mbind
    unsigned long mask[LMB_NUMA_MASK_WORDS], maxnode;

    if (lmb_numa_mask(node, mask, &maxnode) != 0) {
        snprintf(err, errlen, "node %d is outside 0-%d", node, LMB_MAX_NODES - 1);
        return -1;
    }
    if (syscall(SYS_mbind, p, (unsigned long)len, (unsigned long)LMB_MPOL_BIND, mask, maxnode,
                (unsigned long)(LMB_MPOL_MF_STRICT | LMB_MPOL_MF_MOVE)) == 0)
        return 0;
    int e = errno;
    const char *hint = "";
    if (e == EINVAL)
        hint = " (the kernel has no such node online, or this process may not use it)";
    else if (e == EPERM)
        hint = " (not permitted here: a seccomp filter, or a container without CAP_SYS_NICE)";
    else if (e == ENOSYS)
        hint = " (a kernel built without NUMA, or an emulator without the call)";
    snprintf(err, errlen, "mbind to node %d: %s%s", node, strerror(e), hint);
    return -1;
#else
    (void)p;
    (void)len;
    (void)node;
    snprintf(err, errlen, "no mbind on this system");
    return -1;
#endif
}

const char *lmb_numa_supported(void)
{
#ifdef SYS_mbind
    size_t pg = page_size();
    char err[200];
    void *p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int rc, e;

    if (p == MAP_FAILED)
        return NULL;   /* no memory for the probe: let the measurement say so */
    rc = lmb_numa_bind(p, pg, 0, err, sizeof err);
    e = errno;
    munmap(p, pg);
    if (rc == 0)
        return NULL;
    if (e == ENOSYS)
        return "no mbind on this system (a kernel built without NUMA, or an emulator "
               "without the call)";
    if (e == EPERM)
        return "mbind is not permitted here (a seccomp filter, or a container without "
               "CAP_SYS_NICE)";
    return NULL;   /* another error: each pair reports its own */
#else
    return "no mbind on this system";
#endif
}

void lmb_numa_count(const int *status, size_t n, int node, struct lmb_numa_where *w)
{
    size_t per[LMB_MAX_NODES] = { 0 };

    w->pages = n;
    w->on_node = w->elsewhere = w->unknown = 0;
    w->other_node = -1;
    for (size_t i = 0; i < n; i++) {
        if (status[i] == node)
            w->on_node++;
        else if (status[i] >= 0) {
            w->elsewhere++;
            if (status[i] < LMB_MAX_NODES)
                per[status[i]]++;
        } else
            w->unknown++;
    }
    for (int k = 0; k < LMB_MAX_NODES; k++)
        if (per[k] > 0 && (w->other_node < 0 || per[k] > per[w->other_node]))
            w->other_node = k;
}

/* The node of each page by move_pages (nodes NULL: a query, nothing moves).
 * Returns 0, or -1 (errno set) when the call itself is refused. */
static int query_move_pages(const char *base, size_t npages, size_t pg, int *status)
{
#ifdef SYS_move_pages
    void **addr = malloc(LOCATE_CHUNK * sizeof *addr);

    if (addr == NULL)
        return -1;
    for (size_t done = 0; done < npages;) {
        size_t k = npages - done < LOCATE_CHUNK ? npages - done : LOCATE_CHUNK;
        for (size_t i = 0; i < k; i++) {
            addr[i] = (void *)(base + (done + i) * pg);
            status[done + i] = -ENOENT;
        }
        if (syscall(SYS_move_pages, 0, (unsigned long)k, addr, NULL, status + done, 0) < 0) {
            int e = errno;
            free(addr);
            errno = e;
            return -1;
        }
        done += k;
    }
    free(addr);
    return 0;
#else
    (void)base;
    (void)npages;
    (void)pg;
    (void)status;
    errno = ENOSYS;
    return -1;
#endif
}

/* The same, one get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR) per page. */
static int query_get_mempolicy(const char *base, size_t npages, size_t pg, int *status)
{
#ifdef SYS_get_mempolicy
    for (size_t i = 0; i < npages; i++) {
        int n = -1;
        if (syscall(SYS_get_mempolicy, &n, NULL, 0UL, (void *)(base + i * pg),
                    (unsigned long)(LMB_MPOL_F_NODE | LMB_MPOL_F_ADDR)) != 0) {
            if (i == 0)
                return -1;
            status[i] = -errno;
        } else
            status[i] = n;
    }
    return 0;
#else
    (void)base;
    (void)npages;
    (void)pg;
    (void)status;
    errno = ENOSYS;
    return -1;
#endif
}

int lmb_numa_locate(const void *p, size_t len, int node, struct lmb_numa_where *w, char *err,
                    size_t errlen)
{
    size_t pg = page_size();
    size_t npages = (len + pg - 1) / pg;
    int *status = malloc((npages ? npages : 1) * sizeof *status);
    int e1, e2;

    memset(w, 0, sizeof *w);
    w->other_node = -1;
    if (status == NULL) {
        snprintf(err, errlen, "no memory to ask where %zu pages are", npages);
        return -1;
    }
    if (query_move_pages(p, npages, pg, status) == 0) {
        lmb_numa_count(status, npages, node, w);
        w->how = "move_pages";
        free(status);
        return 0;
    }
    e1 = errno;
    if (query_get_mempolicy(p, npages, pg, status) == 0) {
        lmb_numa_count(status, npages, node, w);
        w->how = "get_mempolicy";
        free(status);
        return 0;
    }
    e2 = errno;
    free(status);
    w->pages = npages;
    w->unknown = npages;
    snprintf(err, errlen, "cannot tell where the pages are: move_pages: %s; get_mempolicy: %s",
             strerror(e1), strerror(e2));
    return -1;
}

double lmb_numa_fraction(const struct lmb_numa_where *w)
{
    if (w->how == NULL || w->pages == 0 || w->unknown == w->pages)
        return -1;
    return (double)w->on_node / (double)w->pages;
}

bool lmb_numa_placement_ok(const struct lmb_numa_where *w, int node, char *why, size_t len)
{
    double f = lmb_numa_fraction(w);

    if (f < 0) {
        snprintf(why, len, "where the %zu pages are is not known", w->pages);
        return false;
    }
    if (f >= LMB_NUMA_MIN_FRACTION)
        return true;
    int o = snprintf(why, len, "only %.1f%% of the %zu pages are on node %d", 100.0 * f,
                     w->pages, node);
    if (o > 0 && (size_t)o < len && w->elsewhere > 0)
        o += snprintf(why + o, len - (size_t)o, "; %.1f%% elsewhere (most on node %d)",
                      100.0 * (double)w->elsewhere / (double)w->pages, w->other_node);
    if (o > 0 && (size_t)o < len && w->unknown > 0)
        snprintf(why + o, len - (size_t)o, "; %.1f%% not known",
                 100.0 * (double)w->unknown / (double)w->pages);
    return false;
}

void *lmb_numa_alloc(size_t len, int node, int fill, struct lmb_numa_where *w, char *err,
                     size_t errlen)
{
    void *p;

    memset(w, 0, sizeof *w);
    w->other_node = -1;
    if (len == 0) {
        snprintf(err, errlen, "an empty buffer");
        return NULL;
    }
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "mmap of %zu bytes: %s", len, strerror(errno));
        return NULL;
    }
#ifdef MADV_NOHUGEPAGE
    /* Normal pages, whatever the host's transparent-huge-page setting (not an
     * error where the kernel has no THP). */
    (void)madvise(p, len, MADV_NOHUGEPAGE);
#endif
    if (lmb_numa_bind(p, len, node, err, errlen) != 0) {
        munmap(p, len);
        return NULL;
    }
    /* The pages are taken now, from the node bound: every one written. */
    memset(p, fill, len);
    if (lmb_numa_locate(p, len, node, w, err, errlen) != 0) {
        /* Not knowing is for the caller to judge: the buffer is kept. */
        err[0] = '\0';
    }
    return p;
}

void lmb_numa_free(void *p, size_t len)
{
    if (p != NULL)
        munmap(p, len);
}

int lmb_numa_current_node(void)
{
#ifdef SYS_getcpu
    unsigned cpu = 0, node = 0;

    if (syscall(SYS_getcpu, &cpu, &node, NULL) == 0)
        return (int)node;
#endif
    return -1;
}

int lmb_numa_check_copy(int cpu_node, int mem_node, const struct lmb_numa_where *w, char *err,
                        size_t errlen)
{
    int here = lmb_numa_current_node();
    double f = lmb_numa_fraction(w);
    char why[200];

    if (here >= 0 && here != cpu_node) {
        snprintf(err, errlen, "the copy runs on CPU %d, which this kernel puts on node %d, "
                 "not node %d (the topology read does not match this kernel)",
                 sched_getcpu(), here, cpu_node);
        return -1;
    }
    if (f >= 0)
        lmb_copy_fact_int("mem_on_node_ppm", (long long)(f * 1e6 + 0.5));
    if (!lmb_numa_placement_ok(w, mem_node, why, sizeof why)) {
        snprintf(err, errlen, "memory not on node %d: %s", mem_node, why);
        return -1;
    }
    return 0;
}

void lmb_numa_take_fraction(struct lmb_record *rec, struct lmb_result *res)
{
    for (unsigned i = 0; i < res->nfacts; i++) {
        if (strcmp(res->facts[i].key, "mem_on_node_ppm") != 0 || !res->facts[i].is_int)
            continue;
        lmb_record_param_double(rec, "mem_on_node", (double)res->facts[i].ival / 1e6);
        memmove(&res->facts[i], &res->facts[i + 1],
                (res->nfacts - i - 1) * sizeof res->facts[0]);
        res->nfacts--;
        return;
    }
}

int lmb_numa_sched(const struct lmb_topology *t, int node, const struct lmb_sched *base,
                   struct lmb_sched *out, int *listed)
{
    int cpus[LMB_MAX_CPUS];
    int n = lmb_topology_node_cpus(t, node, cpus, LMB_MAX_CPUS), usable = 0;

    *listed = n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < base->ncpus; j++)
            if (base->cpus[j] == cpus[i]) {
                cpus[usable++] = cpus[i];
                break;
            }
    if (usable == 0)
        return 0;
    *out = *base;
    out->policy = LMB_SCHED_CUSTOM;
    out->ncustom = usable;
    memcpy(out->custom, cpus, (size_t)usable * sizeof cpus[0]);
    return usable;
}

int lmb_numa_pin_node(const struct lmb_topology *t, int node, char *err, size_t errlen)
{
    int cpus[LMB_MAX_CPUS], n = lmb_topology_node_cpus(t, node, cpus, LMB_MAX_CPUS), k = 0;
    cpu_set_t now, want;

    if (n == 0) {
        snprintf(err, errlen, "node %d has no CPUs", node);
        return -1;
    }
    CPU_ZERO(&now);
    CPU_ZERO(&want);
    if (sched_getaffinity(0, sizeof now, &now) != 0) {
        snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (cpus[i] < CPU_SETSIZE && CPU_ISSET(cpus[i], &now)) {
            CPU_SET(cpus[i], &want);
            k++;
        }
    if (k == 0) {
        char list[128];
        lmb_numa_cpulist(cpus, n, list, sizeof list);
        snprintf(err, errlen, "none of node %d's CPUs (%s) may be used by this thread", node,
                 list);
        return -1;
    }
    if (sched_setaffinity(0, sizeof want, &want) != 0) {
        snprintf(err, errlen, "sched_setaffinity to node %d: %s", node, strerror(errno));
        return -1;
    }
    return k;
}

void lmb_numa_cpulist(const int *cpus, int n, char *buf, size_t len)
{
    size_t o = 0;

    if (len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < n && o < len;) {
        int j = i;
        while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
            j++;
        int w = j > i ? snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", cpus[i], cpus[j])
                      : snprintf(buf + o, len - o, "%s%d", o ? "," : "", cpus[i]);
        if (w < 0)
            break;
        o += (size_t)w;
        i = j + 1;
    }
}

/* --- the matrix ------------------------------------------------------------- */

/* One pair: its record, whether it can be measured here, the measurement. */
static void matrix_pair(struct lmb_ctx *ctx, const struct lmb_numa_matrix *m,
                        const struct lmb_topology *t, int cn, int mn)
{
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_sched *placed = malloc(sizeof *placed), *saved = malloc(sizeof *saved);
    int cpus[LMB_MAX_CPUS], listed, n;
    char list[128], err[256];

    lmb_record_init(&rec, ctx->bench->name, m->case_name, (enum lmb_unit)m->unit);
    lmb_record_param_int(&rec, "cpu_node", cn);
    lmb_record_param_int(&rec, "mem_node", mn);
    lmb_record_param_int(&rec, "size_bytes", (long long)m->size);
    if (m->param_key != NULL)
        lmb_record_param_str(&rec, m->param_key, m->param_val);
    rec.classic = (enum lmb_classic)m->classic;
    rec.compat = "new: lmbench 3 has no NUMA benchmark";
    snprintf(rec.label, sizeof rec.label, "node %d -> node %d", cn, mn);
    if (placed == NULL || saved == NULL) {
        free(placed);
        free(saved);
        lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "out of memory");
        return;
    }
    if (lmb_out_of_time(ctx, &res)) {
        lmb_report_add(&ctx->report, &rec, &res);
    } else if ((n = lmb_numa_sched(t, cn, &ctx->sched, placed, &listed)) == 0) {
        char allowed[128];
        lmb_numa_cpulist(cpus, lmb_topology_node_cpus(t, cn, cpus, LMB_MAX_CPUS), list,
                         sizeof list);
        lmb_numa_cpulist(ctx->sched.cpus, ctx->sched.ncpus, allowed, sizeof allowed);
        if (ctx->sched.restricted)
            lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "node %d's CPUs (%s) are not in "
                                  "--cpus (%s)", cn, list, allowed);
        else if (t->fake)
            lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "node %d's CPUs (%s) are in the fake "
                                  "topology (LMBENCH_SYSFS) but this process can run only on "
                                  "CPUs %s here", cn, list, allowed);
        else
            lmb_report_unmeasured(ctx, &rec, LMB_SKIPPED, "node %d's CPUs (%s) are not ones "
                                  "this process may run on (its affinity: %s)", cn, list,
                                  allowed);
    } else if (lmb_memory_fits(m->size, ctx->opt.parallel, err, sizeof err) != 0) {
        lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
    } else {
        lmb_numa_cpulist(placed->custom, placed->ncustom, list, sizeof list);
        lmb_record_param_str(&rec, "cpus", list);
        *saved = ctx->sched;
        ctx->sched = *placed;
        m->measure(ctx, cn, mn, m->arg, &res);
        ctx->sched = *saved;
        lmb_numa_take_fraction(&rec, &res);
        lmb_report_add(&ctx->report, &rec, &res);
    }
    free(placed);
    free(saved);
}

int lmb_numa_matrix_run(struct lmb_ctx *ctx, const struct lmb_numa_matrix *m)
{
    struct lmb_topology *t = malloc(sizeof *t);
    FILE *msg = ctx->report.messages;
    char err[256];
    int cpus[1], ncpunodes = 0;

    if (t == NULL) {
        struct lmb_record rec;
        lmb_record_init(&rec, ctx->bench->name, m->case_name, (enum lmb_unit)m->unit);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "out of memory");
    }
    if (lmb_topology_read(t, err, sizeof err) != 0) {
        struct lmb_record rec;
        free(t);
        lmb_record_init(&rec, ctx->bench->name, m->case_name, (enum lmb_unit)m->unit);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "the topology: %s", err);
    }
    for (int i = 0; i < t->nnodes; i++) {
        if (lmb_topology_node_cpus(t, t->nodes[i], cpus, 1) > 0)
            ncpunodes++;
        else if (msg != NULL)
            fprintf(msg, "%s: note: node %d has no CPUs: it is measured as memory only\n",
                    ctx->prog, t->nodes[i]);
    }
    if (t->nnodes == 1 && msg != NULL)
        fprintf(msg, "%s: note: one NUMA node: only local memory measured\n", ctx->prog);
    if (ncpunodes == 0) {
        struct lmb_record rec;
        free(t);
        lmb_record_init(&rec, ctx->bench->name, m->case_name, (enum lmb_unit)m->unit);
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED,
                                     "the topology gives no node any CPU: nothing to run on");
    }
    for (int i = 0; i < t->nnodes; i++) {
        if (lmb_topology_node_cpus(t, t->nodes[i], cpus, 1) == 0)
            continue;
        for (int j = 0; j < t->nnodes; j++)
            matrix_pair(ctx, m, t, t->nodes[i], t->nodes[j]);
    }
    free(t);
    return LMB_EXIT_OK;
}
