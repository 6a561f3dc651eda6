// SPDX-License-Identifier: MIT
/* The context of a measurement (context.h): each fact read from /proc and
 * /sys under a root (a fake tree in the tests), in the fixed order of
 * doc/results-schema.md's host.context; what a system does not say is unknown.
 * Also its renderings: the JSON object and lmbench 3 raw-file header lines. */
#include "lib/context.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

/* The keys, in the order of the document. */
enum {
    K_CPU_MODEL, K_MICROCODE, K_SOCKETS, K_CORES, K_THREADS, K_SMT, K_GOVERNOR, K_BOOST,
    K_THP, K_THP_DEFRAG, K_KERNEL, K_CMDLINE, K_MITIGATIONS, K_VIRTUALIZATION,
    K_NUMA_NODES, K_MEMORY_BYTES, K_COUNT
};

static const char *const keys[K_COUNT] = {
    "cpu_model", "microcode", "sockets", "cores", "threads", "smt", "governor", "boost",
    "thp", "thp_defrag", "kernel", "cmdline", "mitigations", "virtualization",
    "numa_nodes", "memory_bytes",
};

_Static_assert(K_COUNT <= LMB_CONTEXT_MAX, "LMB_CONTEXT_MAX holds every key");

/* Where the files are: root ("" the real one) and a buffer for the path. */
struct probe {
    const char *root;
    char path[1024];
    /* From /proc/cpuinfo, read once. */
    char *cpuinfo;
    bool x86_flags;          /* a "flags" line was seen (x86) */
    bool hypervisor_flag;    /* ... with "hypervisor" in it */
};

static const char *at(struct probe *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static const char *at(struct probe *p, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(p->path, sizeof p->path, "%s", p->root);

    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof p->path)
        vsnprintf(p->path + n, sizeof p->path - (size_t)n, fmt, ap);
    va_end(ap);
    return p->path;
}

long lmb_read_text_file(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n;

    if (len == 0)
        return -1;
    buf[0] = '\0';
    if (f == NULL)
        return -1;
    n = fread(buf, 1, len - 1, f);
    if (ferror(f)) {
        fclose(f);
        buf[0] = '\0';
        return -1;
    }
    fclose(f);
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        n--;
    buf[n] = '\0';
    return (long)n;
}

/* A file of any size into a malloc'd string; NULL when unreadable. */
static char *slurp_all(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0;

    if (f == NULL)
        return NULL;
    for (;;) {
        if (cap - len < 4096) {
            if (cap > ((size_t)16 << 20)) /* no /proc file of ours is that big */
                break;
            char *nb = realloc(buf, cap + 65536);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap += 65536;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    if (buf == NULL)
        buf = calloc(1, 1);
    else
        buf[len] = '\0';
    return buf;
}

/* A value fit for one line of JSON or of a raw header: control characters
 * become blanks, bytes outside ASCII '?', runs of blanks one, no blanks at the
 * ends. Truncation is marked with "...". */
static void set(struct lmb_context *c, int k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set(struct lmb_context *c, int k, const char *fmt, ...)
{
    struct lmb_context_item *it = &c->items[k];
    char *v = it->value;
    size_t len = sizeof it->value, o = 0;
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(v, len, fmt, ap);
    va_end(ap);
    if (n < 0) {
        v[0] = '\0';
        it->known = false;
        return;
    }
    if ((size_t)n >= len)
        memcpy(v + len - 4, "...", 4);
    for (size_t i = 0; v[i]; i++) {
        unsigned char ch = (unsigned char)v[i];
        if (ch < 0x20 || ch == 0x7f)
            ch = ' ';
        else if (ch >= 0x80)
            ch = '?';
        if (ch == ' ' && (o == 0 || v[o - 1] == ' '))
            continue;
        v[o++] = (char)ch;
    }
    while (o > 0 && v[o - 1] == ' ')
        o--;
    v[o] = '\0';
    it->known = o > 0;
}

/* --- /proc/cpuinfo ------------------------------------------------------------ */

/* Calls fn for each "key : value" line of cpuinfo (key without its padding). */
static void cpuinfo_each(const char *text, void (*fn)(void *arg, const char *key, const char *val),
                         void *arg)
{
    const char *s = text;

    while (s != NULL && *s) {
        const char *eol = strchr(s, '\n');
        size_t n = eol ? (size_t)(eol - s) : strlen(s);
        char line[2048], *colon, *val;
        size_t kl;

        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, s, n);
        line[n] = '\0';
        s = eol ? eol + 1 : NULL;
        colon = strchr(line, ':');
        if (colon == NULL)
            continue;
        kl = (size_t)(colon - line);
        while (kl > 0 && isspace((unsigned char)line[kl - 1]))
            kl--;
        line[kl] = '\0';
        val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        fn(arg, line, val);
    }
}

/* ARM's own cores by part number (the implementer 0x41). */
static const char *arm_part(unsigned part)
{
    static const struct { unsigned part; const char *name; } t[] = {
        {0xd03, "Cortex-A53"}, {0xd04, "Cortex-A35"}, {0xd05, "Cortex-A55"},
        {0xd07, "Cortex-A57"}, {0xd08, "Cortex-A72"}, {0xd09, "Cortex-A73"},
        {0xd0a, "Cortex-A75"}, {0xd0b, "Cortex-A76"}, {0xd0c, "Neoverse-N1"},
        {0xd0d, "Cortex-A77"}, {0xd40, "Neoverse-V1"}, {0xd41, "Cortex-A78"},
        {0xd44, "Cortex-X1"}, {0xd46, "Cortex-A510"}, {0xd47, "Cortex-A710"},
        {0xd48, "Cortex-X2"}, {0xd49, "Neoverse-N2"}, {0xd4f, "Neoverse-V2"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].part == part)
            return t[i].name;
    return NULL;
}

static const char *arm_implementer(unsigned imp)
{
    switch (imp) {
    case 0x41: return "ARM";
    case 0x42: return "Broadcom";
    case 0x43: return "Cavium";
    case 0x46: return "Fujitsu";
    case 0x48: return "HiSilicon";
    case 0x4e: return "NVIDIA";
    case 0x50: return "APM";
    case 0x51: return "Qualcomm";
    case 0x61: return "Apple";
    case 0xc0: return "Ampere";
    default: return NULL;
    }
}

#define MAX_KINDS 8

struct cpuinfo_scan {
    char model_name[256];    /* x86 "model name", else the first of the others */
    char other_model[256];   /* "cpu model" (mips), "cpu" (powerpc), "uarch" or "isa" (riscv) */
    int other_rank;          /* which of them other_model holds (lower is better) */
    char microcode[64];
    bool mixed_microcode;
    bool flags, hypervisor;
    /* ARM: the current processor's fields, then the distinct kinds seen. */
    long imp, part, variant, revision;
    struct { long imp, part, variant, revision; int count; } kinds[MAX_KINDS];
    int nkinds;
};

static void arm_flush(struct cpuinfo_scan *s)
{
    if (s->imp < 0 || s->part < 0)
        return;
    for (int i = 0; i < s->nkinds; i++)
        if (s->kinds[i].imp == s->imp && s->kinds[i].part == s->part &&
            s->kinds[i].variant == s->variant && s->kinds[i].revision == s->revision) {
            s->kinds[i].count++;
            goto done;
        }
    if (s->nkinds < MAX_KINDS) {
        s->kinds[s->nkinds].imp = s->imp;
        s->kinds[s->nkinds].part = s->part;
        s->kinds[s->nkinds].variant = s->variant;
        s->kinds[s->nkinds].revision = s->revision;
        s->kinds[s->nkinds].count = 1;
        s->nkinds++;
    }
done:
    s->imp = s->part = s->variant = s->revision = -1;
}

static void cpuinfo_line(void *arg, const char *key, const char *val)
{
    struct cpuinfo_scan *s = arg;
    static const char *const others[] = {"cpu model", "cpu", "uarch", "isa"};

    if (strcmp(key, "processor") == 0) {
        arm_flush(s);
    } else if (strcmp(key, "model name") == 0) {
        if (s->model_name[0] == '\0')
            snprintf(s->model_name, sizeof s->model_name, "%s", val);
    } else if (strcmp(key, "microcode") == 0) {
        if (s->microcode[0] == '\0')
            snprintf(s->microcode, sizeof s->microcode, "%s", val);
        else if (strcmp(s->microcode, val) != 0)
            s->mixed_microcode = true;
    } else if (strcmp(key, "flags") == 0) {
        s->flags = true;
        /* A word of the list, not a part of one. */
        for (const char *w = strstr(val, "hypervisor"); w != NULL; w = strstr(w + 1, "hypervisor"))
            if ((w == val || isspace((unsigned char)w[-1])) &&
                (w[10] == '\0' || isspace((unsigned char)w[10])))
                s->hypervisor = true;
    } else if (strcmp(key, "CPU implementer") == 0) {
        s->imp = strtol(val, NULL, 0);
    } else if (strcmp(key, "CPU part") == 0) {
        s->part = strtol(val, NULL, 0);
    } else if (strcmp(key, "CPU variant") == 0) {
        s->variant = strtol(val, NULL, 0);
    } else if (strcmp(key, "CPU revision") == 0) {
        s->revision = strtol(val, NULL, 0);
    } else {
        for (int i = 0; i < (int)(sizeof others / sizeof others[0]); i++)
            if (strcmp(key, others[i]) == 0 && *val && (s->other_model[0] == '\0' || i < s->other_rank)) {
                snprintf(s->other_model, sizeof s->other_model, "%s", val);
                s->other_rank = i;
            }
    }
}

/* "ARM Neoverse-N1 r3p1 x2 + ..." from the distinct kinds. */
static void arm_model(const struct cpuinfo_scan *s, char *buf, size_t len)
{
    size_t o = 0;

    buf[0] = '\0';
    for (int i = 0; i < s->nkinds && o < len; i++) {
        const char *imp = arm_implementer((unsigned)s->kinds[i].imp);
        const char *part = s->kinds[i].imp == 0x41 ? arm_part((unsigned)s->kinds[i].part) : NULL;
        char rev[48] = "";
        int n;

        if (s->kinds[i].variant >= 0 && s->kinds[i].revision >= 0)
            snprintf(rev, sizeof rev, " r%ldp%ld", s->kinds[i].variant, s->kinds[i].revision);
        if (imp != NULL && part != NULL)
            n = snprintf(buf + o, len - o, "%s%s %s%s", i ? " + " : "", imp, part, rev);
        else if (imp != NULL)
            n = snprintf(buf + o, len - o, "%s%s part 0x%03lx%s", i ? " + " : "", imp,
                         s->kinds[i].part, rev);
        else
            n = snprintf(buf + o, len - o, "%simplementer 0x%02lx part 0x%03lx%s", i ? " + " : "",
                         s->kinds[i].imp, s->kinds[i].part, rev);
        if (n < 0)
            break;
        o += (size_t)n;
        if (s->nkinds > 1 && o < len) {
            n = snprintf(buf + o, len - o, " x%d", s->kinds[i].count);
            if (n < 0)
                break;
            o += (size_t)n;
        }
    }
}

static void probe_cpuinfo(struct lmb_context *c, struct probe *p)
{
    struct cpuinfo_scan *s = calloc(1, sizeof *s);
    char arm[512];

    if (s == NULL)
        return;
    s->imp = s->part = s->variant = s->revision = -1;
    p->cpuinfo = slurp_all(at(p, "/proc/cpuinfo"));
    if (p->cpuinfo != NULL) {
        cpuinfo_each(p->cpuinfo, cpuinfo_line, s);
        arm_flush(s);
    }
    p->x86_flags = s->flags;
    p->hypervisor_flag = s->hypervisor;
    arm_model(s, arm, sizeof arm);
    if (arm[0])
        set(c, K_CPU_MODEL, "%s", arm);
    else if (s->model_name[0])
        set(c, K_CPU_MODEL, "%s", s->model_name);
    else if (s->other_model[0])
        set(c, K_CPU_MODEL, "%s", s->other_model);
    if (s->microcode[0])
        set(c, K_MICROCODE, "%s%s", s->mixed_microcode ? "mixed: first " : "", s->microcode);
    else {
        char buf[64];
        if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/cpu0/microcode/version"), buf, sizeof buf) > 0)
            set(c, K_MICROCODE, "%s", buf);
    }
    free(s);
}

/* --- topology -------------------------------------------------------------------- */

/* The CPUs of a list "0-3,8,10-11" (as sysfs writes it), malloc'd; NULL when it
 * is not one. At most 65536. */
static int *cpulist(const char *s, size_t *n)
{
    int *v = NULL;
    size_t len = 0, cap = 0;

    *n = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b;
        if (end == s || a < 0)
            goto bad;
        b = a;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a)
                goto bad;
            s = end;
        }
        for (long i = a; i <= b; i++) {
            if (len == cap) {
                if (cap >= 65536)
                    goto bad;
                int *nv = realloc(v, (cap ? cap * 2 : 64) * sizeof *v);
                if (nv == NULL)
                    goto bad;
                v = nv;
                cap = cap ? cap * 2 : 64;
            }
            v[len++] = (int)i;
        }
        if (*s == ',')
            s++;
        else if (*s && !isspace((unsigned char)*s))
            goto bad;
        else
            while (isspace((unsigned char)*s))
                s++;
    }
    if (len == 0)
        goto bad;
    *n = len;
    return v;
bad:
    free(v);
    return NULL;
}

/* The online CPUs: the online list, else every cpuN directory. */
static int *online_cpus(struct probe *p, size_t *n)
{
    char buf[4096];
    int *v = NULL;
    size_t len = 0, cap = 0;
    DIR *d;
    struct dirent *e;

    if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/online"), buf, sizeof buf) > 0 &&
        (v = cpulist(buf, n)) != NULL)
        return v;
    *n = 0;
    d = opendir(at(p, "/sys/devices/system/cpu"));
    if (d == NULL)
        return NULL;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long id;
        if (strncmp(e->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)e->d_name[3]))
            continue;
        id = strtol(e->d_name + 3, &end, 10);
        if (*end || id > 65535)
            continue;
        if (len == cap) {
            int *nv = realloc(v, (cap ? cap * 2 : 64) * sizeof *v);
            if (nv == NULL)
                break;
            v = nv;
            cap = cap ? cap * 2 : 64;
        }
        v[len++] = (int)id;
    }
    closedir(d);
    *n = len;
    if (len == 0) {
        free(v);
        return NULL;
    }
    return v;
}

/* How many distinct values of v[0..n). Sorts v. */
static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static size_t distinct(long *v, size_t n)
{
    size_t d = 0;

    qsort(v, n, sizeof *v, cmp_long);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || v[i] != v[i - 1])
            d++;
    return d;
}

#define TOPO "/sys/devices/system/cpu/cpu%d/topology/%s"

static void probe_topology(struct lmb_context *c, struct probe *p, const int *cpu, size_t ncpu)
{
    long *pkg = calloc(ncpu ? ncpu : 1, sizeof *pkg);
    long *core = calloc(ncpu ? ncpu : 1, sizeof *core);
    bool pkg_ok = ncpu > 0, core_ok = ncpu > 0;
    char buf[4096];

    if (ncpu > 0)
        set(c, K_THREADS, "%zu", ncpu);
    if (pkg == NULL || core == NULL) {
        free(pkg);
        free(core);
        return;
    }
    for (size_t i = 0; i < ncpu; i++) {
        char *end;
        if (pkg_ok && lmb_read_text_file(at(p, TOPO, cpu[i], "physical_package_id"), buf, sizeof buf) > 0) {
            pkg[i] = strtol(buf, &end, 10);
            pkg_ok = end != buf;
        } else
            pkg_ok = false;
        /* A core is named by the first CPU of its list of threads. */
        if (core_ok && (lmb_read_text_file(at(p, TOPO, cpu[i], "core_cpus_list"), buf, sizeof buf) > 0 ||
                        lmb_read_text_file(at(p, TOPO, cpu[i], "thread_siblings_list"), buf, sizeof buf) > 0)) {
            core[i] = strtol(buf, &end, 10);
            core_ok = end != buf;
        } else if (core_ok && pkg_ok && lmb_read_text_file(at(p, TOPO, cpu[i], "core_id"), buf, sizeof buf) > 0) {
            core[i] = pkg[i] * 1000003 + strtol(buf, &end, 10);
            core_ok = end != buf;
        } else
            core_ok = false;
    }
    if (pkg_ok)
        set(c, K_SOCKETS, "%zu", distinct(pkg, ncpu));
    if (core_ok)
        set(c, K_CORES, "%zu", distinct(core, ncpu));
    free(pkg);
    free(core);
}

static void probe_smt(struct lmb_context *c, struct probe *p)
{
    char ctl[64], act[16];

    if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/smt/control"), ctl, sizeof ctl) <= 0)
        return;
    if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/smt/active"), act, sizeof act) > 0 &&
        strcmp(ctl, "on") == 0 && strcmp(act, "0") == 0)
        set(c, K_SMT, "on (inactive)");
    else
        set(c, K_SMT, "%s", ctl);
}

/* --- frequency ------------------------------------------------------------------- */

static void probe_governor(struct lmb_context *c, struct probe *p, const int *cpu, size_t ncpu)
{
    struct { char name[64]; size_t count; } seen[8];
    size_t nseen = 0, missing = 0, other = 0;
    char buf[64], out[512];
    size_t o = 0;

    for (size_t i = 0; i < ncpu; i++) {
        size_t j;
        if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu[i]),
                  buf, sizeof buf) <= 0) {
            missing++;
            continue;
        }
        for (j = 0; j < nseen && strcmp(seen[j].name, buf) != 0; j++)
            ;
        if (j < nseen)
            seen[j].count++;
        else if (nseen < sizeof seen / sizeof seen[0]) {
            snprintf(seen[nseen].name, sizeof seen[nseen].name, "%s", buf);
            seen[nseen++].count = 1;
        } else
            other++;
    }
    if (nseen == 0)
        return;
    if (nseen == 1 && missing == 0) {
        set(c, K_GOVERNOR, "%s", seen[0].name);
        return;
    }
    out[0] = '\0';
    for (size_t j = 0; j < nseen && o < sizeof out; j++) {
        int n = snprintf(out + o, sizeof out - o, "%s%s x%zu", j ? ", " : "", seen[j].name,
                         seen[j].count);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (other > 0 && o < sizeof out)
        o += (size_t)snprintf(out + o, sizeof out - o, ", others x%zu", other);
    if (missing > 0 && o < sizeof out)
        snprintf(out + o, sizeof out - o, ", no cpufreq x%zu", missing);
    set(c, K_GOVERNOR, "mixed: %s", out);
}

static void probe_boost(struct lmb_context *c, struct probe *p)
{
    char buf[16];

    if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/cpufreq/boost"), buf, sizeof buf) > 0)
        set(c, K_BOOST, "%s", strcmp(buf, "0") == 0 ? "off" : "on");
    else if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/intel_pstate/no_turbo"), buf, sizeof buf) > 0)
        set(c, K_BOOST, "%s", strcmp(buf, "0") == 0 ? "on" : "off");
    else if (lmb_read_text_file(at(p, "/sys/devices/system/cpu/cpu0/cpufreq/boost"), buf, sizeof buf) > 0)
        set(c, K_BOOST, "%s", strcmp(buf, "0") == 0 ? "off" : "on");
}

/* --- memory, kernel ---------------------------------------------------------------- */

/* The bracketed choice of "always [madvise] never". */
static void bracketed(struct lmb_context *c, int k, const char *path)
{
    char buf[256], *a, *b;

    if (lmb_read_text_file(path, buf, sizeof buf) <= 0)
        return;
    a = strchr(buf, '[');
    b = a ? strchr(a, ']') : NULL;
    if (a != NULL && b != NULL && b > a + 1)
        set(c, k, "%.*s", (int)(b - a - 1), a + 1);
    else if (a == NULL && strchr(buf, ' ') == NULL)
        set(c, k, "%s", buf);        /* a single word: the setting itself */
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void probe_mitigations(struct lmb_context *c, struct probe *p)
{
    char dir[1024], val[512], out[2 * sizeof c->items[0].value]; /* set() marks a cut */
    char **names = NULL;
    size_t n = 0, cap = 0, o = 0;
    DIR *d;
    struct dirent *e;

    snprintf(dir, sizeof dir, "%s", at(p, "/sys/devices/system/cpu/vulnerabilities"));
    d = opendir(dir);
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap ? cap * 2 : 32) * sizeof *names);
            if (nn == NULL)
                break;
            names = nn;
            cap = cap ? cap * 2 : 32;
        }
        if ((names[n] = strdup(e->d_name)) == NULL)
            break;
        n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, cmp_str);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char path[1300];
        int w;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (lmb_read_text_file(path, val, sizeof val) < 0)
            snprintf(val, sizeof val, "unreadable");
        if (o < sizeof out) {
            w = snprintf(out + o, sizeof out - o, "%s%s: %s", o ? "; " : "", names[i], val);
            if (w > 0)
                o += (size_t)w;
        }
        free(names[i]);
    }
    free(names);
    if (o > 0)
        set(c, K_MITIGATIONS, "%s", out);
}

/* --- virtualisation ---------------------------------------------------------------- */

/* The machine as DMI names it, when that is a virtual one; NULL otherwise. */
static const char *dmi_virtual(const char *vendor, const char *product)
{
    static const struct { const char *vendor, *product, *name; } t[] = {
        {"QEMU", NULL, "QEMU"},
        {"Firecracker", NULL, "Firecracker"},
        {"Cloud Hypervisor", NULL, "Cloud Hypervisor"},
        {"VMware", NULL, "VMware"},
        {"innotek GmbH", NULL, "VirtualBox"},
        {NULL, "VirtualBox", "VirtualBox"},
        {"Microsoft Corporation", "Virtual Machine", "Hyper-V"},
        {"Xen", NULL, "Xen"},
        {"Amazon EC2", NULL, "Amazon EC2"},
        {"Google", "Google Compute Engine", "Google Compute Engine"},
        {"OpenStack Foundation", NULL, "OpenStack"},
        {NULL, "OpenStack Nova", "OpenStack"},
        {"Parallels", NULL, "Parallels"},
        {"Bochs", NULL, "Bochs"},
        {"Alibaba Cloud", NULL, "Alibaba Cloud"},
        {"DigitalOcean", NULL, "DigitalOcean"},
        {NULL, "KVM", "KVM"},
        {NULL, "Bochs", "Bochs"},
        {"Apple Inc.", "Apple Virtualization", "Apple Virtualization"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (t[i].vendor != NULL && strncmp(vendor, t[i].vendor, strlen(t[i].vendor)) != 0)
            continue;
        if (t[i].product != NULL && strstr(product, t[i].product) == NULL)
            continue;
        return t[i].name;
    }
    return NULL;
}

/* The virtual machine monitor as the ACPI tables' OEM id names it (readable by
 * root only), NULL when unknown or not a virtual one. */
static const char *acpi_virtual(struct probe *p)
{
    static const struct { const char *oem, *name; } t[] = {
        {"FIRECK", "Firecracker"}, {"BOCHS ", "QEMU"}, {"VBOX  ", "VirtualBox"},
        {"VRTUAL", "Hyper-V"}, {"Xen", "Xen"}, {"AMAZON", "Amazon EC2"},
        {"CLOUDH", "Cloud Hypervisor"},
    };
    static const char *const tables[] = {"FACP", "DSDT", "APIC"};

    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
        unsigned char h[16];
        FILE *f = fopen(at(p, "/sys/firmware/acpi/tables/%s", tables[k]), "rb");
        size_t n;
        if (f == NULL)
            continue;
        n = fread(h, 1, sizeof h, f);
        fclose(f);
        if (n < sizeof h)
            continue;
        for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
            if (memcmp(h + 10, t[i].oem, strlen(t[i].oem)) == 0)
                return t[i].name;
        return NULL;
    }
    return NULL;
}

/* Does the NUL-separated list of a device-tree property hold s? */
static bool dt_has(struct probe *p, const char *prop, const char *s)
{
    char buf[1024];
    FILE *f = fopen(at(p, "/sys/firmware/devicetree/base/%s", prop), "rb");
    size_t n;

    if (f == NULL)
        return false;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
        if (strstr(buf + i, s) != NULL)
            return true;
    return false;
}

/* The hypervisor below the guest from the clock sources it offers. */
static const char *clock_hypervisor(struct probe *p)
{
    char buf[512];

    if (lmb_read_text_file(at(p, "/sys/devices/system/clocksource/clocksource0/available_clocksource"),
              buf, sizeof buf) <= 0)
        return NULL;
    if (strstr(buf, "kvm-clock") != NULL)
        return "KVM";
    if (strstr(buf, "xen") != NULL)
        return "Xen";
    if (strstr(buf, "hyperv") != NULL)
        return "Hyper-V";
    return NULL;
}

static void probe_virtualization(struct lmb_context *c, struct probe *p)
{
    char type[64], vendor[256] = "", product[256] = "";
    const char *vmm = NULL, *hv = NULL;

    if (lmb_read_text_file(at(p, "/sys/hypervisor/type"), type, sizeof type) > 0)
        hv = strcmp(type, "xen") == 0 ? "Xen" : type;
    lmb_read_text_file(at(p, "/sys/class/dmi/id/sys_vendor"), vendor, sizeof vendor);
    lmb_read_text_file(at(p, "/sys/class/dmi/id/product_name"), product, sizeof product);
    if (vendor[0] || product[0])
        vmm = dmi_virtual(vendor, product);
    if (vmm == NULL)
        vmm = acpi_virtual(p);
    if (vmm == NULL && dt_has(p, "compatible", "linux,dummy-virt"))
        vmm = "QEMU";
    if (vmm == NULL && dt_has(p, "compatible", "riscv-virtio"))
        vmm = "QEMU";
    if (hv == NULL && dt_has(p, "hypervisor/compatible", "xen"))
        hv = "Xen";
    if (hv == NULL)
        hv = clock_hypervisor(p);
    if (vmm != NULL && hv != NULL && strstr(vmm, hv) == NULL)
        set(c, K_VIRTUALIZATION, "%s (%s)", vmm, hv);
    else if (vmm != NULL)
        set(c, K_VIRTUALIZATION, "%s", vmm);
    else if (hv != NULL)
        set(c, K_VIRTUALIZATION, "%s", hv);
    else if (p->hypervisor_flag)
        set(c, K_VIRTUALIZATION, "unidentified hypervisor");
    else if (p->x86_flags)
        set(c, K_VIRTUALIZATION, "none");
}

static void probe_numa(struct lmb_context *c, struct probe *p)
{
    DIR *d = opendir(at(p, "/sys/devices/system/node"));
    struct dirent *e;
    size_t n = 0;

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "node", 4) == 0 && isdigit((unsigned char)e->d_name[4]))
            n++;
    closedir(d);
    if (n > 0)
        set(c, K_NUMA_NODES, "%zu", n);
}

static void probe_memory(struct lmb_context *c, struct probe *p)
{
    char *text = slurp_all(at(p, "/proc/meminfo"));
    const char *m = text ? strstr(text, "MemTotal:") : NULL;

    if (m != NULL) {
        char *end;
        unsigned long long kb = strtoull(m + 9, &end, 10);
        while (*end == ' ')
            end++;
        if (end != m + 9 && kb > 0 && kb < UINT64_MAX / 1024 && strncmp(end, "kB", 2) == 0)
            set(c, K_MEMORY_BYTES, "%llu", kb * 1024);
    }
    free(text);
}

/* --- the probe ------------------------------------------------------------------- */

void lmb_context_probe_at(struct lmb_context *c, const char *root)
{
    struct probe *p = calloc(1, sizeof *p);
    struct utsname u;
    char *text;
    int *cpu;
    size_t ncpu = 0;

    memset(c, 0, sizeof *c);
    for (int k = 0; k < K_COUNT; k++)
        c->items[k].key = keys[k];
    c->n = K_COUNT;
    if (p == NULL)
        return;
    p->root = root ? root : "";
    probe_cpuinfo(c, p);
    cpu = online_cpus(p, &ncpu);
    probe_topology(c, p, cpu, ncpu);
    probe_smt(c, p);
    probe_governor(c, p, cpu, ncpu);
    free(cpu);
    probe_boost(c, p);
    bracketed(c, K_THP, at(p, "/sys/kernel/mm/transparent_hugepage/enabled"));
    bracketed(c, K_THP_DEFRAG, at(p, "/sys/kernel/mm/transparent_hugepage/defrag"));
    if (uname(&u) == 0)
        set(c, K_KERNEL, "%s %s", u.release, u.version);
    text = slurp_all(at(p, "/proc/cmdline"));
    if (text != NULL)
        set(c, K_CMDLINE, "%s", text);    /* set() marks what does not fit */
    free(text);
    probe_mitigations(c, p);
    probe_virtualization(c, p);
    probe_numa(c, p);
    probe_memory(c, p);
    free(p->cpuinfo);
    free(p);
}

void lmb_context_probe(struct lmb_context *c)
{
    lmb_context_probe_at(c, NULL);
}

const char *lmb_context_get(const struct lmb_context *c, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->items[i].key != NULL && strcmp(c->items[i].key, key) == 0)
            return c->items[i].known ? c->items[i].value : NULL;
    return NULL;
}

int lmb_context_raw_lines(const struct lmb_context *c, FILE *f)
{
    for (size_t i = 0; i < c->n; i++) {
        char key[64];
        size_t k;
        if (!c->items[i].known)
            continue;
        for (k = 0; c->items[i].key[k] && k < sizeof key - 1; k++)
            key[k] = (char)toupper((unsigned char)c->items[i].key[k]);
        key[k] = '\0';
        if (fprintf(f, "[CONTEXT_%s: %s]\n", key, c->items[i].value) < 0)
            return -1;
    }
    return ferror(f) ? -1 : 0;
}

#ifdef LMB_HAVE_JANSSON
struct json_t *lmb_context_json(const struct lmb_context *c)
{
    json_t *o = json_object();

    if (o == NULL)
        return NULL;
    for (size_t i = 0; i < c->n; i++) {
        /* Values are ASCII (set() made them so): json_string cannot refuse them. */
        json_t *v = c->items[i].known ? json_string(c->items[i].value) : json_null();
        if (v == NULL || json_object_set_new(o, c->items[i].key, v) != 0) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}
#endif
