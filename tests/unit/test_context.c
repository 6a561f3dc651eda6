// SPDX-License-Identifier: MIT
/* Unit tests of the machine context (src/lib/context.c): each key read from a
 * fake /proc and /sys tree made in a temporary directory (x86 host and guest,
 * aarch64, an empty tree), the fixed order of the keys, what is unknown, the
 * cleaning of values, and the renderings (raw-file header lines, JSON). */
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

#include "lib/context.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

/* --- a fake tree ------------------------------------------------------------------ */

static char root[64];

static void mkdirs(const char *path)
{
    char buf[1024];

    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                fail_msg("mkdir %s: %s", buf, strerror(errno));
            *s = '/';
        }
}

/* Writes text (a printf format) to root/rel, making the directories. */
static void put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(const char *rel, const char *fmt, ...)
{
    char path[1024];
    va_list ap;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", root, rel);
    mkdirs(path);
    f = fopen(path, "w");
    assert_non_null(f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    assert_int_equal(fclose(f), 0);
}

static void put_bytes(const char *rel, const void *data, size_t n)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", root, rel);
    mkdirs(path);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void mkdir_rel(const char *rel)
{
    char path[1024];

    snprintf(path, sizeof path, "%s/%s/", root, rel);
    mkdirs(path);
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
    snprintf(root, sizeof root, "/tmp/lmb-test-context-XXXXXX");
    return mkdtemp(root) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void topo(int cpu, int pkg, int core, const char *core_cpus)
{
    char rel[256];

    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    put(rel, "%d\n", pkg);
    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
    put(rel, "%d\n", core);
    if (core_cpus != NULL) {
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
        put(rel, "%s\n", core_cpus);
    }
}

static void governor(int cpu, const char *g)
{
    char rel[256];

    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
    put(rel, "%s\n", g);
}

static void x86_cpuinfo(int ncpu, const char *flags_extra, const char *microcode1)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
    mkdirs(path);
    f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < ncpu; i++)
        fprintf(f, "processor\t: %d\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) "
                   "Gold 6130 CPU @ 2.10GHz\nmicrocode\t: %s\ncpu MHz\t\t: 2100.000\n"
                   "flags\t\t: fpu vme de pse tsc%s sse2\n\n",
                i, i == 1 && microcode1 ? microcode1 : "0x2006e05", flags_extra);
    assert_int_equal(fclose(f), 0);
}

static const char *get(const struct lmb_context *c, const char *key)
{
    return lmb_context_get(c, key);
}

#define assert_key(c, key, want)                                                              \
    do {                                                                                      \
        const char *got_ = get(c, key);                                                       \
        if (got_ == NULL || strcmp(got_, want) != 0)                                          \
            fail_msg("%s: got %s%s%s, want \"%s\"", key, got_ ? "\"" : "", got_ ? got_ : "unknown", \
                     got_ ? "\"" : "", want);                                                 \
    } while (0)

/* --- tests ------------------------------------------------------------------------ */

static const char *const order[] = {
    "cpu_model", "microcode", "sockets", "cores", "threads", "smt", "governor", "boost",
    "thp", "thp_defrag", "kernel", "cmdline", "mitigations", "virtualization",
    "numa_nodes", "memory_bytes",
};

/* An x86 guest of 4 CPUs (1 socket, 2 cores of 2 threads) under QEMU/KVM. */
static void test_x86_guest(void **state)
{
    struct lmb_context c;

    (void)state;
    x86_cpuinfo(4, " hypervisor", NULL);
    put("sys/devices/system/cpu/online", "0-3\n");
    topo(0, 0, 0, "0-1");
    topo(1, 0, 0, "0-1");
    topo(2, 0, 1, "2-3");
    topo(3, 0, 1, "2-3");
    put("sys/devices/system/cpu/smt/control", "on\n");
    put("sys/devices/system/cpu/smt/active", "1\n");
    for (int i = 0; i < 4; i++)
        governor(i, "performance");
    put("sys/devices/system/cpu/cpufreq/boost", "1\n");
    put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
    put("sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never\n");
    put("proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/vda1  quiet \n");
    put("sys/devices/system/cpu/vulnerabilities/spectre_v2", "Mitigation: Retpolines\n");
    put("sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
    put("sys/devices/system/cpu/vulnerabilities/spectre_v1", "Mitigation: usercopy/swapgs barriers\n");
    put("sys/class/dmi/id/sys_vendor", "QEMU\n");
    put("sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n");
    put("sys/devices/system/clocksource/clocksource0/available_clocksource", "kvm-clock tsc acpi_pm\n");
    mkdir_rel("sys/devices/system/node/node0");
    mkdir_rel("sys/devices/system/node/node1");
    mkdir_rel("sys/devices/system/node/power");
    put("proc/meminfo", "MemTotal:        8000000 kB\nMemFree:         1000 kB\n");

    lmb_context_probe_at(&c, root);
    assert_int_equal(c.n, sizeof order / sizeof order[0]);
    for (size_t i = 0; i < c.n; i++)
        assert_string_equal(c.items[i].key, order[i]);
    assert_key(&c, "cpu_model", "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz");
    assert_key(&c, "microcode", "0x2006e05");
    assert_key(&c, "sockets", "1");
    assert_key(&c, "cores", "2");
    assert_key(&c, "threads", "4");
    assert_key(&c, "smt", "on");
    assert_key(&c, "governor", "performance");
    assert_key(&c, "boost", "on");
    assert_key(&c, "thp", "always");
    assert_key(&c, "thp_defrag", "madvise");
    assert_key(&c, "cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/vda1 quiet");
    assert_key(&c, "mitigations", "meltdown: Not affected; spectre_v1: Mitigation: usercopy/swapgs "
                                  "barriers; spectre_v2: Mitigation: Retpolines");
    assert_key(&c, "virtualization", "QEMU (KVM)");
    assert_key(&c, "numa_nodes", "2");
    assert_key(&c, "memory_bytes", "8192000000");
    assert_non_null(get(&c, "kernel"));   /* uname: the running system's */
}

/* A bare-metal x86 host of 2 sockets with mixed governors, SMT off at run time,
 * turbo from intel_pstate, two microcode revisions, no cpufreq/boost file. */
static void test_x86_host(void **state)
{
    struct lmb_context c;

    (void)state;
    x86_cpuinfo(4, "", "0x2006e08");
    put("sys/devices/system/cpu/online", "0,1-2,3\n");
    topo(0, 0, 0, NULL);      /* no core_cpus_list: thread_siblings_list, else core_id */
    topo(1, 0, 1, NULL);
    topo(2, 1, 0, NULL);
    topo(3, 1, 1, NULL);
    put("sys/devices/system/cpu/smt/control", "on\n");
    put("sys/devices/system/cpu/smt/active", "0\n");
    governor(0, "performance");
    governor(1, "powersave");
    governor(2, "performance");
    put("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
    put("sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
    /* Not known: a file without a bracketed choice. */
    put("sys/kernel/mm/transparent_hugepage/defrag", "always madvise never\n");

    lmb_context_probe_at(&c, root);
    assert_key(&c, "microcode", "mixed: first 0x2006e05");
    assert_key(&c, "sockets", "2");
    assert_key(&c, "cores", "4");
    assert_key(&c, "threads", "4");
    assert_key(&c, "smt", "on (inactive)");
    assert_key(&c, "governor", "mixed: performance x2, powersave x1, no cpufreq x1");
    assert_key(&c, "boost", "off");
    assert_key(&c, "thp", "never");
    assert_null(get(&c, "thp_defrag"));
    assert_key(&c, "virtualization", "none");   /* x86 without the hypervisor flag */
    assert_null(get(&c, "mitigations"));
    assert_null(get(&c, "numa_nodes"));
    assert_null(get(&c, "memory_bytes"));
}

/* An aarch64 guest: CPU implementer/part, two kinds of core, a device tree of
 * QEMU's virt machine, no cpufreq, no microcode, no hypervisor flag. */
static void test_aarch64(void **state)
{
    struct lmb_context c;
    const char dt[] = "linux,dummy-virt\0";
    char path[1024];
    FILE *f;

    (void)state;
    snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
    mkdirs(path);
    f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 3; i++)
        fprintf(f, "processor\t: %d\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm\n"
                   "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x%d\n"
                   "CPU part\t: 0x%s\nCPU revision\t: 1\n\n",
                i, i < 2 ? 3 : 0, i < 2 ? "d0c" : "d05");
    assert_int_equal(fclose(f), 0);
    put("sys/devices/system/cpu/online", "0-2\n");
    put_bytes("sys/firmware/devicetree/base/compatible", dt, sizeof dt);

    lmb_context_probe_at(&c, root);
    assert_key(&c, "cpu_model", "ARM Neoverse-N1 r3p1 x2 + ARM Cortex-A55 r0p1 x1");
    assert_null(get(&c, "microcode"));
    assert_key(&c, "threads", "3");
    assert_null(get(&c, "sockets"));
    assert_null(get(&c, "cores"));
    assert_null(get(&c, "governor"));
    assert_key(&c, "virtualization", "QEMU");
}

/* A riscv cpuinfo: "uarch" is preferred to "isa"; an unknown ARM implementer. */
static void test_other_models(void **state)
{
    struct lmb_context c;

    (void)state;
    put("proc/cpuinfo", "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\nmmu\t\t: sv39\n"
                        "uarch\t\t: sifive,u74-mc\n\n");
    lmb_context_probe_at(&c, root);
    assert_key(&c, "cpu_model", "sifive,u74-mc");
    assert_null(get(&c, "virtualization"));   /* not x86: no flag to go by */

    put("proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x99\nCPU part\t: 0x001\n\n");
    lmb_context_probe_at(&c, root);
    assert_key(&c, "cpu_model", "implementer 0x99 part 0x001");
}

/* Nothing under the root: every key there, in order, and unknown but kernel. */
static void test_empty_tree(void **state)
{
    struct lmb_context c;

    (void)state;
    lmb_context_probe_at(&c, root);
    assert_int_equal(c.n, sizeof order / sizeof order[0]);
    for (size_t i = 0; i < c.n; i++) {
        assert_string_equal(c.items[i].key, order[i]);
        if (strcmp(order[i], "kernel") == 0)
            assert_true(c.items[i].known);
        else if (c.items[i].known)
            fail_msg("%s known in an empty tree: \"%s\"", order[i], c.items[i].value);
        else
            assert_string_equal(c.items[i].value, "");
    }
    assert_null(get(&c, "no_such_key"));
    /* The x86 hypervisor flag with nothing to name it. */
    x86_cpuinfo(1, " hypervisor", NULL);
    mkdir_rel("sys/devices/system/cpu/cpu0");
    mkdir_rel("sys/devices/system/cpu/cpufreq");
    lmb_context_probe_at(&c, root);
    assert_key(&c, "virtualization", "unidentified hypervisor");
    assert_key(&c, "threads", "1");   /* no online list: the cpuN directories */
}

/* Values are one line of ASCII; what does not fit ends in "...". */
static void test_values_cleaned(void **state)
{
    struct lmb_context c;
    char *longline = malloc(5000);
    const char *v;

    (void)state;
    assert_non_null(longline);
    memset(longline, 'x', 4999);
    longline[4999] = '\0';
    put("proc/cmdline", "%s\n", longline);
    put("sys/devices/system/cpu/vulnerabilities/bad", "caf\xc3\xa9\tline\nnext\n");
    put("sys/hypervisor/type", "xen\n");
    lmb_context_probe_at(&c, root);
    v = get(&c, "cmdline");
    assert_non_null(v);
    assert_int_equal(strlen(v), sizeof c.items[0].value - 1);
    assert_string_equal(v + strlen(v) - 3, "...");
    assert_key(&c, "mitigations", "bad: caf?? line next");
    assert_key(&c, "virtualization", "Xen");
    free(longline);
}

static void test_raw_lines(void **state)
{
    struct lmb_context c;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;

    (void)state;
    put("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu\n\n");
    put("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
    lmb_context_probe_at(&c, root);
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(lmb_context_raw_lines(&c, f), 0);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(buf, "[CONTEXT_CPU_MODEL: AMD EPYC]\n"));
    assert_non_null(strstr(buf, "[CONTEXT_THP: madvise]\n"));
    assert_non_null(strstr(buf, "[CONTEXT_VIRTUALIZATION: none]\n"));
    assert_non_null(strstr(buf, "[CONTEXT_KERNEL: "));
    assert_null(strstr(buf, "MICROCODE"));   /* unknown: no line */
    /* Every line is "[KEY: value]" with KEY in capitals, as lmbench 3 writes them. */
    for (char *s = buf; *s;) {
        char *eol = strchr(s, '\n');
        assert_non_null(eol);
        assert_int_equal(s[0], '[');
        assert_int_equal(eol[-1], ']');
        for (char *k = s + 1; *k != ':'; k++)
            assert_true((*k >= 'A' && *k <= 'Z') || *k == '_');
        s = eol + 1;
    }
    free(buf);
}

#ifdef LMB_HAVE_JANSSON
static void test_json(void **state)
{
    struct lmb_context c;
    json_t *o;
    const char *key;
    json_t *v;
    size_t i = 0;

    (void)state;
    put("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC\n\n");
    lmb_context_probe_at(&c, root);
    o = lmb_context_json(&c);
    assert_non_null(o);
    json_object_foreach(o, key, v) {
        assert_true(i < sizeof order / sizeof order[0]);
        assert_string_equal(key, order[i]);
        if (strcmp(key, "cpu_model") == 0)
            assert_string_equal(json_string_value(v), "AMD EPYC");
        else if (strcmp(key, "kernel") == 0)
            assert_true(json_is_string(v));
        else
            assert_true(json_is_null(v));
        i++;
    }
    assert_int_equal(i, sizeof order / sizeof order[0]);
    json_decref(o);
}
#endif

/* The running system: never fails, every key present. */
static void test_real_system(void **state)
{
    struct lmb_context c;

    (void)state;
    lmb_context_probe(&c);
    assert_int_equal(c.n, sizeof order / sizeof order[0]);
    assert_non_null(get(&c, "kernel"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_x86_guest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_x86_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aarch64, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_models, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_tree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_values_cleaned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_raw_lines, setup, teardown),
#ifdef LMB_HAVE_JANSSON
        cmocka_unit_test_setup_teardown(test_json, setup, teardown),
#endif
        cmocka_unit_test(test_real_system),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
