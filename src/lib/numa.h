// SPDX-License-Identifier: MIT
/* Memory and CPUs of one NUMA node, without libnuma: a buffer bound to a node
 * with the mbind system call (through syscall(2)), where its pages really are
 * (move_pages in query mode, else get_mempolicy), the node the kernel puts the
 * running CPU on (getcpu), and the placement of a measurement's copies on the
 * CPUs of a node. For lat_numa and bw_numa, which measure every pair (CPU
 * node, memory node) of the machine.
 *
 * On a kernel or C library without these calls (no SYS_mbind for the target)
 * everything here says so at run time, never at build time: lmb_numa_supported
 * gives the reason to skip. */
#ifndef LMB_NUMA_H
#define LMB_NUMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/sched.h"
#include "lib/topology.h"

/* NULL when buffers can be bound to nodes here; else why not ("no mbind on
 * this system", "mbind is not permitted here (...)"). Probes once with a
 * small mapping bound to node 0 (every Linux has node 0). */
const char *lmb_numa_supported(void);

/* The mbind node mask of one node: mask[] gets the bit of `node`, *maxnode
 * the value to pass as mbind's maxnode. Returns 0, or -1 when node is outside
 * 0 .. LMB_MAX_NODES-1. */
#define LMB_NUMA_MASK_WORDS (LMB_MAX_NODES / (8 * sizeof(unsigned long)) + 1)
int lmb_numa_mask(int node, unsigned long mask[LMB_NUMA_MASK_WORDS], unsigned long *maxnode);

/* Binds [p, p+len) (page aligned, not yet touched) to `node` with MPOL_BIND
 * and MPOL_MF_STRICT | MPOL_MF_MOVE, so that its pages are taken from that
 * node only (pages already there are moved). Returns 0, or -1 with the
 * reason in err ("mbind to node 1: Invalid argument (the kernel has no node
 * 1 online ...)"). */
int lmb_numa_bind(void *p, size_t len, int node, char *err, size_t errlen);

/* Where the pages of a buffer are. */
struct lmb_numa_where {
    size_t pages;            /* pages asked about */
    size_t on_node;          /* of them on the node wanted */
    size_t elsewhere;        /* on another node */
    size_t unknown;          /* not present, or the query failed for the page */
    int other_node;          /* the node most of the `elsewhere` pages are on, -1 none */
    const char *how;         /* "move_pages", "get_mempolicy", or NULL: not known */
};

/* Counts, from the per-page answers of a query (status[i] >= 0: the node of
 * page i; < 0: -errno, not known), the pages on `node` and elsewhere. */
void lmb_numa_count(const int *status, size_t n, int node, struct lmb_numa_where *w);

/* Asks the kernel where the pages of [p, p+len) (touched) are: move_pages
 * in query mode, else (move_pages refused) get_mempolicy per page. Returns 0,
 * or -1 with a message when neither can tell (w->how NULL). */
int lmb_numa_locate(const void *p, size_t len, int node, struct lmb_numa_where *w, char *err,
                    size_t errlen);

/* The fraction of the buffer's pages that are on the node (0..1), -1 when not
 * known. */
double lmb_numa_fraction(const struct lmb_numa_where *w);

/* Whether the placement is good enough to measure: every known page on the
 * node allows a few missing (LMB_NUMA_MIN_FRACTION). Returns true, or false
 * with the reason in why ("only 40.0% of the 65536 pages are on node 1; 60.0%
 * on node 0"). */
#define LMB_NUMA_MIN_FRACTION 0.99
bool lmb_numa_placement_ok(const struct lmb_numa_where *w, int node, char *why, size_t len);

/* A page-aligned anonymous mapping of len bytes on normal pages
 * (MADV_NOHUGEPAGE), bound to `node` before any page is touched, then every
 * page written with `fill`, then located (lmb_numa_locate): *w says where
 * they went. NULL with the reason in err when a step fails; a placement that
 * is not good enough is not a failure here (the caller decides with
 * lmb_numa_placement_ok). Free with lmb_numa_free(p, len). */
void *lmb_numa_alloc(size_t len, int node, int fill, struct lmb_numa_where *w, char *err,
                     size_t errlen);
void lmb_numa_free(void *p, size_t len);

/* The node the kernel says the calling thread's CPU is on (getcpu), -1 when
 * it does not say. */
int lmb_numa_current_node(void);

/* In a copy, from a benchmark's init, after lmb_numa_alloc: checks that the
 * copy runs on a CPU of cpu_node (as the kernel counts, not the topology read)
 * and that the buffer's pages are on mem_node; records the fraction as the
 * copy's fact "mem_on_node_ppm" (parts per million; lmb_numa_take_fraction
 * makes it the record's parameter). Returns 0, or -1 with the reason. */
int lmb_numa_check_copy(int cpu_node, int mem_node, const struct lmb_numa_where *w, char *err,
                        size_t errlen);

struct lmb_record;
struct lmb_result;
/* Moves the copy's fact "mem_on_node_ppm" out of res into rec as the double
 * parameter "mem_on_node" (the fraction 0..1), before lmb_report_add. */
void lmb_numa_take_fraction(struct lmb_record *rec, struct lmb_result *res);

/* A placement for measuring on node `node`: *out is *base with policy CUSTOM
 * over the node's CPUs that *base allows (--cpus, the starting affinity),
 * copies round-robin over them. Returns how many CPUs that is (0: none of
 * the node's CPUs may be used here; *out is then untouched); `listed` gets how
 * many CPUs the topology gives the node. */
int lmb_numa_sched(const struct lmb_topology *t, int node, const struct lmb_sched *base,
                   struct lmb_sched *out, int *listed);

/* Confines the calling thread to the CPUs of `node` (those of the topology
 * that its affinity allows now), for code that runs on a node outside
 * lmb_measure (a helper thread, a loader). Returns how many CPUs that is, or
 * -1 with the reason (no such CPU here, sched_setaffinity refused). */
int lmb_numa_pin_node(const struct lmb_topology *t, int node, char *err, size_t errlen);

/* A CPU list ("0-3,8") of cpus[0..n), ascending, into buf. */
void lmb_numa_cpulist(const int *cpus, int n, char *buf, size_t len);

/* --- the matrix of lat_numa and bw_numa ------------------------------------ */

struct lmb_ctx;

/* What one command measures for each pair. */
struct lmb_numa_matrix {
    const char *case_name;   /* the records' case ("" or "rd") */
    int unit;                /* enum lmb_unit of the records */
    int classic;             /* enum lmb_classic of their lines (a "<label>: ..." shape) */
    uint64_t size;           /* bytes of each copy's buffer */
    const char *param_key;   /* one more string parameter of every record, or NULL */
    const char *param_val;
    /* Measures the pair, the copies already placed on cpu_node's CPUs: each
     * copy binds its buffer to mem_node (lmb_numa_alloc) and checks it
     * (lmb_numa_check_copy) in its init. */
    void (*measure)(struct lmb_ctx *ctx, int cpu_node, int mem_node, void *arg,
                    struct lmb_result *res);
    void *arg;
};

/* Every pair (cpu_node, mem_node): cpu_node each online node with CPUs,
 * mem_node each online node, in ascending order; one record per pair (params
 * cpu_node, mem_node, size_bytes, and mem_on_node from the copies; classic
 * label "node C -> node M"). A pair that cannot be measured here (the node's
 * CPUs not usable by this process, memory short, the binding refused) is a
 * failed record with the reason (so the exit status is 1); one whose CPUs
 * --cpus leaves out is skipped (the user's choice). Notes on the messages
 * stream: one node (only local memory), nodes without CPUs. Returns
 * LMB_EXIT_OK: the records decide the exit status. */
int lmb_numa_matrix_run(struct lmb_ctx *ctx, const struct lmb_numa_matrix *m);

#endif
