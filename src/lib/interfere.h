// SPDX-License-Identifier: MIT
/* Interference accounting: what else used the machine while a measurement ran.
 * A snapshot before and after a step (the system's CPU time from /proc/stat,
 * our own children's from getrusage, steal time, load average, CPU frequency and
 * thermal throttling where readable) gives the CPU time other processes took,
 * as a share of the CPUs, and whether the step was disturbed beyond a
 * threshold. */
#ifndef LMB_INTERFERE_H
#define LMB_INTERFERE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The share of the machine's CPU time (other_cpu_s / (wall_s * cpus)) above
 * which a step is disturbed; also a steal share above it. */
#define LMB_DISTURBED_SHARE 0.10

struct lmb_cpu_snapshot {
    bool ok;                 /* /proc/stat was read */
    double wall_s;           /* CLOCK_MONOTONIC */
    double busy_s;           /* all CPUs: user+nice+system+irq+softirq, seconds */
    double steal_s;          /* all CPUs: steal, seconds */
    double idle_s;           /* all CPUs: idle+iowait, seconds */
    double own_s;            /* getrusage: self + reaped children, user + system */
    double load[3];          /* /proc/loadavg */
    double mhz_min, mhz_max; /* scaling_cur_freq over online CPUs (MHz); 0 unknown */
    long long throttle;      /* thermal_throttle counts summed; -1 unknown */
};

struct lmb_interference {
    bool known;              /* both snapshots were read */
    double wall_s;
    int cpus;                /* online CPUs */
    double own_cpu_s;        /* CPU time of this process and its reaped children */
    double other_cpu_s;      /* busy_s delta minus own_cpu_s, at least 0 */
    double steal_s;
    double other_share;      /* other_cpu_s / (wall_s * cpus) */
    double steal_share;      /* steal_s / (wall_s * cpus) */
    double load_before[3], load_after[3];
    double mhz_min, mhz_max; /* the lowest and highest seen in either snapshot; 0 unknown */
    long long throttle_events; /* delta; -1 unknown */
    bool disturbed;          /* other_share or steal_share above the threshold */
};

/* Takes a snapshot now. Returns 0, -1 when /proc/stat could not be read (s->ok
 * false; the other fields as far as known). own_s counts only children that
 * were reaped: take the "after" snapshot of a step once its children are
 * reaped, or their CPU time is counted as other processes'. */
int lmb_cpu_snapshot_take(struct lmb_cpu_snapshot *s);

/* The same, reading /proc and /sys under root (for tests; NULL is "/"). */
int lmb_cpu_snapshot_take_at(struct lmb_cpu_snapshot *s, const char *root);

/* What happened between a and b on a machine of cpus CPUs: threshold is the
 * share (LMB_DISTURBED_SHARE, or what the user asked for). */
void lmb_interference_between(const struct lmb_cpu_snapshot *a, const struct lmb_cpu_snapshot *b,
                              int cpus, double threshold, struct lmb_interference *out);

/* "other processes used 34% of the CPUs, steal 2%, load 1.2 -> 3.4" into buf. */
void lmb_interference_describe(const struct lmb_interference *x, char *buf, size_t len);

/* run.steps[].interference as doc/results-schema.md describes it (jansson's
 * json_t; a build with jansson only): JSON null when x is not known; mhz_min,
 * mhz_max and throttle_events null when unknown. NULL when out of memory. */
struct json_t;
struct json_t *lmb_interference_json(const struct lmb_interference *x);

#endif
