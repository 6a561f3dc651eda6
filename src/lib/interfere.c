// SPDX-License-Identifier: MIT
/* Interference accounting (interfere.h): a snapshot of the machine's CPU time
 * (/proc/stat), our own (getrusage), load, frequency and throttling, and what
 * two snapshots say about the CPU time other processes took between them.
 *
 * Our own CPU time is getrusage(RUSAGE_SELF) + getrusage(RUSAGE_CHILDREN): the
 * children's part counts only children that were reaped (waited for) by then,
 * and theirs only the grandchildren they reaped. So the caller takes the
 * "after" snapshot once every child of the step has been reaped; a child still
 * running then has its CPU time counted as another process's. /proc/stat counts
 * in clock ticks (sysconf(_SC_CLK_TCK), usually 100 a second): over a short
 * step the shares carry an error of about one tick per CPU. */
#include "lib/interfere.h"
#include "lib/context.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* user + system of this process and of its reaped children; 0 when unknown. */
static double own_cpu_s(void)
{
    struct rusage self, kids;
    double s = 0;

    if (getrusage(RUSAGE_SELF, &self) == 0)
        s += tv_s(self.ru_utime) + tv_s(self.ru_stime);
    if (getrusage(RUSAGE_CHILDREN, &kids) == 0)
        s += tv_s(kids.ru_utime) + tv_s(kids.ru_stime);
    return s;
}

/* The "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal
 * (guest time is part of user already). */
static int read_stat(const char *root, struct lmb_cpu_snapshot *s)
{
    char path[1024], buf[512];
    unsigned long long v[8] = {0};
    long tck = sysconf(_SC_CLK_TCK);
    const char *p;
    int n = 0;

    snprintf(path, sizeof path, "%s/proc/stat", root);
    if (lmb_read_text_file(path, buf, sizeof buf) < 0 || strncmp(buf, "cpu ", 4) != 0)
        return -1;
    if (tck <= 0)
        tck = 100;
    p = buf + 4;
    while (n < 8) {
        char *end;
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            break;
        v[n++] = strtoull(p, &end, 10);
        p = end;
    }
    if (n < 4)   /* user nice system idle: what every kernel writes */
        return -1;
    s->busy_s = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)tck;
    s->idle_s = (double)(v[3] + v[4]) / (double)tck;
    s->steal_s = (double)v[7] / (double)tck;
    return 0;
}

/* The online CPUs' numbers from a list "0-3,8"; calls fn for each. At most 65536. */
static void each_online(const char *root, void (*fn)(const char *root, int cpu, void *arg), void *arg)
{
    char path[1024], buf[4096];
    const char *s = buf;

    snprintf(path, sizeof path, "%s/sys/devices/system/cpu/online", root);
    if (lmb_read_text_file(path, buf, sizeof buf) < 0)
        return;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b;
        if (end == s || a < 0)
            return;
        b = a;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a || b > 65535)
                return;
            s = end;
        }
        for (long i = a; i <= b; i++)
            fn(root, (int)i, arg);
        if (*s != ',')
            return;
        s++;
    }
}

static void freq_one(const char *root, int cpu, void *arg)
{
    struct lmb_cpu_snapshot *s = arg;
    char path[1024], buf[64];
    double mhz;
    char *end;

    snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
             root, cpu);
    if (lmb_read_text_file(path, buf, sizeof buf) < 0)
        return;
    mhz = strtod(buf, &end) / 1000.0;   /* kHz */
    if (end == buf || !(mhz > 0))
        return;
    if (s->mhz_min == 0 || mhz < s->mhz_min)
        s->mhz_min = mhz;
    if (mhz > s->mhz_max)
        s->mhz_max = mhz;
}

static void throttle_one(const char *root, int cpu, void *arg)
{
    static const char *const names[] = {"core_throttle_count", "package_throttle_count"};
    struct lmb_cpu_snapshot *s = arg;

    for (int i = 0; i < 2; i++) {
        char path[1024], buf[64], *end;
        long long v;
        snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d/thermal_throttle/%s",
                 root, cpu, names[i]);
        if (lmb_read_text_file(path, buf, sizeof buf) < 0)
            continue;
        v = strtoll(buf, &end, 10);
        if (end == buf || v < 0)
            continue;
        s->throttle = (s->throttle < 0 ? 0 : s->throttle) + v;
    }
}

int lmb_cpu_snapshot_take_at(struct lmb_cpu_snapshot *s, const char *root)
{
    struct timespec ts;
    char path[1024], buf[256];

    if (root == NULL || strcmp(root, "/") == 0)
        root = "";
    memset(s, 0, sizeof *s);
    s->throttle = -1;
    /* Our time first and the system's after: what we used is inside the
     * system's count at both ends. */
    s->own_s = own_cpu_s();
    if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
        s->wall_s = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    s->ok = read_stat(root, s) == 0;
    snprintf(path, sizeof path, "%s/proc/loadavg", root);
    if (lmb_read_text_file(path, buf, sizeof buf) >= 0 &&
        sscanf(buf, "%lf %lf %lf", &s->load[0], &s->load[1], &s->load[2]) != 3)
        memset(s->load, 0, sizeof s->load);
    each_online(root, freq_one, s);
    each_online(root, throttle_one, s);
    return s->ok ? 0 : -1;
}

int lmb_cpu_snapshot_take(struct lmb_cpu_snapshot *s)
{
    return lmb_cpu_snapshot_take_at(s, NULL);
}

static double lowest(double a, double b)
{
    if (a > 0 && b > 0)
        return a < b ? a : b;
    return a > 0 ? a : b;
}

void lmb_interference_between(const struct lmb_cpu_snapshot *a, const struct lmb_cpu_snapshot *b,
                              int cpus, double threshold, struct lmb_interference *out)
{
    double cap;

    memset(out, 0, sizeof *out);
    if (cpus <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cpus = n > 0 ? (int)n : 1;
    }
    if (!isfinite(threshold) || threshold < 0)
        threshold = LMB_DISTURBED_SHARE;
    out->cpus = cpus;
    memcpy(out->load_before, a->load, sizeof out->load_before);
    memcpy(out->load_after, b->load, sizeof out->load_after);
    out->mhz_min = lowest(a->mhz_min, b->mhz_min);
    out->mhz_max = a->mhz_max > b->mhz_max ? a->mhz_max : b->mhz_max;
    out->throttle_events = a->throttle >= 0 && b->throttle >= a->throttle
                               ? b->throttle - a->throttle : -1;
    out->wall_s = b->wall_s - a->wall_s;
    out->own_cpu_s = b->own_s - a->own_s;
    if (out->own_cpu_s < 0)
        out->own_cpu_s = 0;
    if (!a->ok || !b->ok || !(out->wall_s > 0)) {
        out->wall_s = out->wall_s > 0 ? out->wall_s : 0;
        return;
    }
    out->known = true;
    out->other_cpu_s = (b->busy_s - a->busy_s) - out->own_cpu_s;
    if (out->other_cpu_s < 0)
        out->other_cpu_s = 0;
    out->steal_s = b->steal_s - a->steal_s;
    if (out->steal_s < 0)
        out->steal_s = 0;
    cap = out->wall_s * (double)cpus;
    /* /proc/stat counts whole clock ticks: over a short step the difference
     * of two snapshots can exceed what the CPUs could do in the wall time.
     * No more than all of it was used. */
    if (out->other_cpu_s > cap)
        out->other_cpu_s = cap;
    if (out->steal_s > cap)
        out->steal_s = cap;
    out->other_share = out->other_cpu_s / cap;
    out->steal_share = out->steal_s / cap;
    out->disturbed = out->other_share > threshold || out->steal_share > threshold;
    if (out->disturbed && threshold > 0) {
        /* /proc/stat counts clock ticks: each snapshot may be up to a tick per
         * CPU off. Less than twice that of others' time is no evidence. */
        long hz = sysconf(_SC_CLK_TCK);
        double floor_s = 2.0 * (double)cpus / (double)(hz > 0 ? hz : 100);
        if (out->other_cpu_s <= floor_s && out->steal_s <= floor_s)
            out->disturbed = false;
    }
}

void lmb_interference_describe(const struct lmb_interference *x, char *buf, size_t len)
{
    size_t o = 0;
    int n;

    if (len == 0)
        return;
    if (!x->known) {
        snprintf(buf, len, "interference unknown (/proc/stat not read)");
        return;
    }
    n = snprintf(buf, len, "other processes used %.0f%% of the %d CPU%s, steal %.0f%%, load %.2f -> %.2f",
                 100 * x->other_share, x->cpus, x->cpus == 1 ? "" : "s", 100 * x->steal_share,
                 x->load_before[0], x->load_after[0]);
    if (n < 0 || (size_t)n >= len)
        return;
    o = (size_t)n;
    if (x->mhz_max > 0) {
        if (x->mhz_min > 0 && x->mhz_max - x->mhz_min >= 0.5)
            n = snprintf(buf + o, len - o, ", %.0f-%.0f MHz", x->mhz_min, x->mhz_max);
        else
            n = snprintf(buf + o, len - o, ", %.0f MHz", x->mhz_max);
        if (n < 0 || (size_t)n >= len - o)
            return;
        o += (size_t)n;
    }
    if (x->throttle_events > 0) {
        n = snprintf(buf + o, len - o, ", %lld throttling event%s", x->throttle_events,
                     x->throttle_events == 1 ? "" : "s");
        if (n < 0 || (size_t)n >= len - o)
            return;
        o += (size_t)n;
    }
    if (x->disturbed)
        snprintf(buf + o, len - o, ": disturbed");
}

#ifdef LMB_HAVE_JANSSON
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

struct json_t *lmb_interference_json(const struct lmb_interference *x)
{
    json_t *o;

    if (!x->known)
        return json_null();
    o = json_pack("{s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:[ooo], s:[ooo], s:o, s:o, s:o, s:b}",
                  "wall_s", num(x->wall_s), "cpus", (json_int_t)x->cpus,
                  "own_cpu_s", num(x->own_cpu_s), "other_cpu_s", num(x->other_cpu_s),
                  "steal_s", num(x->steal_s), "other_share", num(x->other_share),
                  "steal_share", num(x->steal_share),
                  "load_before", num(x->load_before[0]), num(x->load_before[1]),
                  num(x->load_before[2]),
                  "load_after", num(x->load_after[0]), num(x->load_after[1]),
                  num(x->load_after[2]),
                  "mhz_min", x->mhz_min > 0 ? json_real(x->mhz_min) : json_null(),
                  "mhz_max", x->mhz_max > 0 ? json_real(x->mhz_max) : json_null(),
                  "throttle_events", x->throttle_events >= 0
                                         ? json_integer((json_int_t)x->throttle_events)
                                         : json_null(),
                  "disturbed", (int)x->disturbed);
    return o;
}
#endif
