// SPDX-License-Identifier: MIT
/* The machine's CPU and memory topology, read from sysfs: which CPUs are SMT
 * siblings of one core, which share a package (socket), which NUMA node each
 * belongs to, and the online nodes.
 *
 * The sysfs root is LMBENCH_SYSFS when set (tests point it at a fake tree such
 * as tests/fixtures/sysfs/2s8c/, so the code paths of a large machine run on a
 * 2-CPU VM), else /sys. A file that is missing (a board without topology
 * files, a kernel without NUMA) leaves its field unknown (-1), never an error:
 * a machine without /sys/devices/system/node is one node, node 0.
 *
 * Files read, under ROOT/devices/system/:
 *   cpu/online                                  the online CPUs (a CPU list)
 *   cpu/cpuN/topology/core_id                   the core within its package
 *   cpu/cpuN/topology/physical_package_id       the package (socket)
 *   cpu/cpuN/topology/thread_siblings_list      (or core_cpus_list) SMT siblings
 *   node/online                                 the online nodes
 *   node/nodeM/cpulist                          the CPUs of node M
 */
#ifndef LMB_TOPOLOGY_H
#define LMB_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/sched.h"   /* LMB_MAX_CPUS */

#define LMB_MAX_NODES 64

struct lmb_cpu_topo {
    int cpu;        /* the CPU number */
    int core;       /* core_id, -1 unknown */
    int package;    /* physical_package_id, -1 unknown */
    int node;       /* NUMA node, -1 unknown */
    int sibling;    /* the lowest-numbered other SMT sibling of this core, -1 none */
    int core_first; /* the lowest CPU of its thread_siblings_list (itself when alone):
                     * the same for CPUs of one core; -1 unknown (no sibling list) */
};

struct lmb_topology {
    char root[256];                      /* the sysfs root read */
    bool fake;                           /* root came from LMBENCH_SYSFS */
    int ncpus;                           /* online CPUs */
    struct lmb_cpu_topo cpu[LMB_MAX_CPUS];   /* in ascending CPU order */
    int nnodes;                          /* online nodes (1 when the kernel shows none) */
    int nodes[LMB_MAX_NODES];            /* ascending */
    int npackages;                       /* distinct known packages (0 when unknown) */
};

/* How two CPUs are related. */
enum lmb_cpu_relation {
    LMB_REL_SELF,      /* the same CPU */
    LMB_REL_SMT,       /* SMT siblings: one core */
    LMB_REL_CORE,      /* other cores of one package */
    LMB_REL_SOCKET,    /* different packages */
    LMB_REL_UNKNOWN,   /* the topology files do not say */
};

/* Reads the topology (root as above). Returns 0, or -1 with a message in err
 * when not even the online CPU list can be read. Allocate the struct on the
 * heap or statically: it is some 20 KiB. */
int lmb_topology_read(struct lmb_topology *t, char *err, size_t errlen);

/* The entry of CPU `cpu`, or NULL when it is not online. */
const struct lmb_cpu_topo *lmb_topology_cpu(const struct lmb_topology *t, int cpu);

enum lmb_cpu_relation lmb_topology_relation(const struct lmb_topology *t, int a, int b);

/* "self", "smt", "core", "socket", "unknown": the records' "relation" parameter. */
const char *lmb_relation_name(enum lmb_cpu_relation r);

/* The online CPUs of node `node`, ascending, into cpus[0..max); returns how many
 * (0 for an unknown node or one without CPUs, a memory-only node). */
int lmb_topology_node_cpus(const struct lmb_topology *t, int node, int *cpus, int max);

/* (CPU and node lists are parsed with lmb_parse_cpulist of lib/sizes.h.) */

#endif
