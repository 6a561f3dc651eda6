// SPDX-License-Identifier: MIT
/* Unit tests of the topology reader (src/lib/topology.c) on the fake sysfs
 * trees of tests/fixtures/sysfs/ (2s8c: 2 packages x 2 cores x 2 SMT threads,
 * siblings N and N+4, 2 nodes; 1s4c-nosmt; nonode: no node directory;
 * unknown: topology files missing), on trees made here (no online list, a
 * memory-only node, an offline CPU), and on the real /sys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/topology.h"

static struct lmb_topology topo;   /* some 20 KiB: not on the stack */
static char tmp[64];

/* The fixture tree NAME, found from this file's path (tests run from the
 * source root, but the path holds either way). */
static void use_fixture(const char *name)
{
    char path[1024];
    const char *file = __FILE__, *cut = strstr(file, "tests/unit/");

    if (cut == NULL)
        fail_msg("cannot find the fixtures from %s", file);
    snprintf(path, sizeof path, "%.*stests/fixtures/sysfs/%s", (int)(cut - file), file, name);
    if (setenv("LMBENCH_SYSFS", path, 1) != 0)
        fail_msg("setenv: %s", strerror(errno));
}

static void read_ok(void)
{
    char err[256] = "";

    if (lmb_topology_read(&topo, err, sizeof err) != 0)
        fail_msg("lmb_topology_read: %s", err);
}

static enum lmb_cpu_relation rel(int a, int b)
{
    enum lmb_cpu_relation r = lmb_topology_relation(&topo, a, b);
    assert_int_equal(lmb_topology_relation(&topo, b, a), r);   /* symmetric */
    return r;
}

static void test_2s8c(void **state)
{
    int cpus[16], n;
    const struct lmb_cpu_topo *c;

    (void)state;
    use_fixture("2s8c");
    read_ok();
    assert_true(topo.fake);
    assert_non_null(strstr(topo.root, "tests/fixtures/sysfs/2s8c"));
    assert_int_equal(topo.ncpus, 8);
    assert_int_equal(topo.npackages, 2);
    assert_int_equal(topo.nnodes, 2);
    assert_int_equal(topo.nodes[0], 0);
    assert_int_equal(topo.nodes[1], 1);
    for (int i = 0; i < 8; i++) {
        c = lmb_topology_cpu(&topo, i);
        assert_non_null(c);
        assert_int_equal(c->cpu, i);
        assert_int_equal(c->package, (i % 4) / 2);
        assert_int_equal(c->core, i % 2);
        assert_int_equal(c->node, (i % 4) / 2);
        assert_int_equal(c->sibling, i < 4 ? i + 4 : i - 4);
        assert_int_equal(c->core_first, i % 4);
    }
    assert_null(lmb_topology_cpu(&topo, 8));
    assert_null(lmb_topology_cpu(&topo, -1));

    assert_int_equal(rel(0, 0), LMB_REL_SELF);
    assert_int_equal(rel(0, 4), LMB_REL_SMT);
    assert_int_equal(rel(3, 7), LMB_REL_SMT);
    assert_int_equal(rel(0, 1), LMB_REL_CORE);
    assert_int_equal(rel(0, 5), LMB_REL_CORE);
    assert_int_equal(rel(4, 5), LMB_REL_CORE);
    assert_int_equal(rel(0, 2), LMB_REL_SOCKET);
    assert_int_equal(rel(1, 6), LMB_REL_SOCKET);
    assert_int_equal(rel(0, 8), LMB_REL_UNKNOWN);   /* not online */

    n = lmb_topology_node_cpus(&topo, 0, cpus, 16);
    assert_int_equal(n, 4);
    assert_int_equal(cpus[0], 0);
    assert_int_equal(cpus[1], 1);
    assert_int_equal(cpus[2], 4);
    assert_int_equal(cpus[3], 5);
    n = lmb_topology_node_cpus(&topo, 1, cpus, 16);
    assert_int_equal(n, 4);
    assert_int_equal(cpus[0], 2);
    assert_int_equal(cpus[3], 7);
    assert_int_equal(lmb_topology_node_cpus(&topo, 1, cpus, 2), 2);   /* bounded by max */
    assert_int_equal(lmb_topology_node_cpus(&topo, 2, cpus, 16), 0);
    assert_int_equal(lmb_topology_node_cpus(&topo, -1, cpus, 16), 0);
}

static void test_1s4c_nosmt(void **state)
{
    int cpus[8];

    (void)state;
    use_fixture("1s4c-nosmt");   /* sibling lists as core_cpus_list only */
    read_ok();
    assert_int_equal(topo.ncpus, 4);
    assert_int_equal(topo.npackages, 1);
    assert_int_equal(topo.nnodes, 1);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(topo.cpu[i].sibling, -1);
        assert_int_equal(topo.cpu[i].core_first, i);
        assert_int_equal(topo.cpu[i].node, 0);
    }
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            assert_int_equal(rel(a, b), LMB_REL_CORE);
    assert_int_equal(lmb_topology_node_cpus(&topo, 0, cpus, 8), 4);
}

static void test_nonode(void **state)
{
    int cpus[8];

    (void)state;
    use_fixture("nonode");   /* no node directory: one node, node 0 */
    read_ok();
    assert_int_equal(topo.ncpus, 4);
    assert_int_equal(topo.nnodes, 1);
    assert_int_equal(topo.nodes[0], 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(topo.cpu[i].node, 0);
    assert_int_equal(topo.cpu[0].sibling, 1);
    assert_int_equal(topo.cpu[1].sibling, 0);
    assert_int_equal(topo.cpu[3].sibling, 2);
    assert_int_equal(rel(0, 1), LMB_REL_SMT);
    assert_int_equal(rel(2, 3), LMB_REL_SMT);
    assert_int_equal(rel(1, 2), LMB_REL_CORE);
    assert_int_equal(lmb_topology_node_cpus(&topo, 0, cpus, 8), 4);
    assert_int_equal(lmb_topology_node_cpus(&topo, 1, cpus, 8), 0);
}

static void test_unknown(void **state)
{
    (void)state;
    use_fixture("unknown");
    read_ok();
    assert_int_equal(topo.ncpus, 4);
    assert_int_equal(topo.npackages, 1);   /* cpu1 and cpu2 say package 0 */
    assert_int_equal(topo.nnodes, 1);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(topo.cpu[i].sibling, -1);
        assert_int_equal(topo.cpu[i].core_first, -1);
        assert_int_equal(topo.cpu[i].node, 0);
    }
    assert_int_equal(topo.cpu[0].package, -1);
    assert_int_equal(topo.cpu[0].core, -1);
    assert_int_equal(topo.cpu[1].package, 0);
    assert_int_equal(topo.cpu[1].core, -1);
    assert_int_equal(topo.cpu[2].core, 1);
    assert_int_equal(rel(0, 1), LMB_REL_UNKNOWN);
    assert_int_equal(rel(1, 2), LMB_REL_UNKNOWN);   /* one package, cores not known */
    assert_int_equal(rel(0, 3), LMB_REL_UNKNOWN);
    assert_int_equal(rel(2, 2), LMB_REL_SELF);
}

/* --- trees made here ------------------------------------------------------------ */

static void put(const char *rel_path, const char *text)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof path, "%s/devices/system/%s", tmp, rel_path);
    for (char *s = path + strlen(tmp) + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(path, 0755) != 0 && errno != EEXIST)
                fail_msg("mkdir %s: %s", path, strerror(errno));
            *s = '/';
        }
    f = fopen(path, "w");
    if (f == NULL)
        fail_msg("%s: %s", path, strerror(errno));
    fputs(text, f);
    fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmp, sizeof tmp, "/tmp/lmb-topo-XXXXXX");
    if (mkdtemp(tmp) == NULL)
        return -1;
    return setenv("LMBENCH_SYSFS", tmp, 1);
}

static int teardown(void **state)
{
    (void)state;
    return nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_no_online_list(void **state)
{
    char err[256] = "";

    (void)state;
    assert_int_equal(lmb_topology_read(&topo, err, sizeof err), -1);
    assert_non_null(strstr(err, "online CPUs"));
    assert_non_null(strstr(err, tmp));
    put("cpu/online", "\n");   /* empty */
    assert_int_equal(lmb_topology_read(&topo, err, sizeof err), -1);
    put("cpu/online", "0-x\n");   /* not a list */
    assert_int_equal(lmb_topology_read(&topo, err, sizeof err), -1);
}

/* CPU 1 offline (a hole in the online list), node 1 memory-only, node 2 has
 * a CPU that is offline; a bad core_id and a package of -1 are unknown. */
static void test_holes(void **state)
{
    int cpus[8];

    (void)state;
    put("cpu/online", "0,2-3\n");
    put("cpu/cpu0/topology/core_id", "0\n");
    put("cpu/cpu0/topology/physical_package_id", "0\n");
    put("cpu/cpu0/topology/thread_siblings_list", "0\n");
    put("cpu/cpu2/topology/core_id", "zz\n");
    put("cpu/cpu2/topology/physical_package_id", "0\n");
    put("cpu/cpu2/topology/thread_siblings_list", "2-3\n");
    put("cpu/cpu3/topology/core_id", "1\n");
    put("cpu/cpu3/topology/physical_package_id", "-1\n");
    put("cpu/cpu3/topology/thread_siblings_list", "2-3\n");
    put("node/online", "0-2\n");
    put("node/node0/cpulist", "0,2-3\n");
    put("node/node1/cpulist", "\n");
    put("node/node2/cpulist", "1\n");
    read_ok();
    assert_int_equal(topo.ncpus, 3);
    assert_null(lmb_topology_cpu(&topo, 1));
    assert_int_equal(topo.cpu[1].cpu, 2);
    assert_int_equal(topo.cpu[1].core, -1);
    assert_int_equal(topo.cpu[2].package, -1);
    assert_int_equal(topo.npackages, 1);
    assert_int_equal(topo.nnodes, 3);
    assert_int_equal(lmb_topology_node_cpus(&topo, 0, cpus, 8), 3);
    assert_int_equal(lmb_topology_node_cpus(&topo, 1, cpus, 8), 0);
    assert_int_equal(lmb_topology_node_cpus(&topo, 2, cpus, 8), 0);
    assert_int_equal(rel(2, 3), LMB_REL_SMT);      /* the sibling lists say so */
    assert_int_equal(rel(0, 2), LMB_REL_CORE);
    assert_int_equal(rel(0, 3), LMB_REL_UNKNOWN);  /* package of 3 unknown */
    assert_int_equal(rel(0, 1), LMB_REL_UNKNOWN);  /* 1 offline */

    /* node/online missing: the nodeM directories are the nodes. */
    {
        char path[1024];
        snprintf(path, sizeof path, "%s/devices/system/node/online", tmp);
        assert_int_equal(remove(path), 0);
    }
    read_ok();
    assert_int_equal(topo.nnodes, 3);
    assert_int_equal(topo.nodes[2], 2);
    assert_int_equal(topo.cpu[0].node, 0);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(lmb_relation_name(LMB_REL_SELF), "self");
    assert_string_equal(lmb_relation_name(LMB_REL_SMT), "smt");
    assert_string_equal(lmb_relation_name(LMB_REL_CORE), "core");
    assert_string_equal(lmb_relation_name(LMB_REL_SOCKET), "socket");
    assert_string_equal(lmb_relation_name(LMB_REL_UNKNOWN), "unknown");
    assert_string_equal(lmb_relation_name((enum lmb_cpu_relation)99), "unknown");
}

/* The real /sys of this machine: readable, consistent with sysconf. */
static void test_real(void **state)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int total = 0, cpus[LMB_MAX_CPUS];

    (void)state;
    unsetenv("LMBENCH_SYSFS");
    read_ok();
    assert_false(topo.fake);
    assert_string_equal(topo.root, "/sys");
    assert_true(topo.ncpus >= 1);
    if (online > 0)
        assert_int_equal(topo.ncpus, online);
    assert_true(topo.nnodes >= 1);
    for (int i = 1; i < topo.ncpus; i++)
        assert_true(topo.cpu[i - 1].cpu < topo.cpu[i].cpu);
    for (int i = 0; i < topo.nnodes; i++)
        total += lmb_topology_node_cpus(&topo, topo.nodes[i], cpus, LMB_MAX_CPUS);
    assert_true(total <= topo.ncpus);
    for (int i = 0; i < topo.ncpus; i++)
        for (int j = i + 1; j < topo.ncpus; j++)
            assert_int_not_equal(rel(topo.cpu[i].cpu, topo.cpu[j].cpu), LMB_REL_SELF);
}

static void test_empty_env_is_sys(void **state)
{
    (void)state;
    setenv("LMBENCH_SYSFS", "", 1);
    read_ok();
    assert_false(topo.fake);
    assert_string_equal(topo.root, "/sys");
    unsetenv("LMBENCH_SYSFS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_2s8c),
        cmocka_unit_test(test_1s4c_nosmt),
        cmocka_unit_test(test_nonode),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test_setup_teardown(test_no_online_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_holes, setup, teardown),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_real),
        cmocka_unit_test(test_empty_env_is_sys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
