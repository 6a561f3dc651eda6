// SPDX-License-Identifier: MIT
/* The interface between a benchmark file and the harness.
 *
 * A benchmark file (src/bench/NAME.c) holds its state struct, its timed loops,
 * its variant table and one `const struct lmb_bench lmb_bench_NAME` descriptor at
 * the end; everything else in it is static. It never parses -P/-W/-N, never reads
 * the clock and never prints a result line: it hands loops to lmb_measure() and
 * results to lmb_report_add(). See src/registry.h for how to add one.
 */
#ifndef LMB_BENCH_H
#define LMB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/calibrate.h"
#include "lib/clock.h"
#include "lib/report.h"
#include "lib/sched.h"

struct lmb_ctx;

/* Exit statuses of every command. */
enum {
    LMB_EXIT_OK = 0,
    LMB_EXIT_FAILED = 1,    /* a measurement failed or timed out */
    LMB_EXIT_USAGE = 2,     /* bad command line or environment */
    LMB_EXIT_SKIPPED = 3,   /* cannot run here */
};

enum lmb_category {
    LMB_CAT_HARDWARE,     /* processor and memory */
    LMB_CAT_OS,           /* operating system */
    LMB_CAT_NETWORK,
    LMB_CAT_CALIBRATION,  /* helpers the runner calls */
};

const char *lmb_category_name(enum lmb_category c);

/* Which common options a command accepts. */
#define LMB_USE_P 1u
#define LMB_USE_W 2u
#define LMB_USE_N 4u
#define LMB_USE_PWN (LMB_USE_P | LMB_USE_W | LMB_USE_N)

/* One variant of a command (bw_mem's rd, lat_syscall's null ...). */
struct lmb_variant {
    const char *name;
    const char *description;   /* one line, for --help and --list */
    lmb_run_fn run;            /* the timed loop */
    const char *label;         /* classic line label, if the command has one */
    unsigned flags;            /* meaning private to the benchmark */
};

/* A command-specific option: -t, -L <line> ... */
struct lmb_optdef {
    char flag;
    const char *arg;           /* argument name, or NULL for a switch */
    const char *help;
};

struct lmb_bench {
    const char *name;
    const char *summary;                    /* one line */
    enum lmb_category category;
    unsigned common;                        /* LMB_USE_* */
    const char *args;                       /* positional usage; "{variants}" expands to a|b|c */
    const char *help;                       /* more text for --help, or NULL */
    const struct lmb_optdef *options;
    size_t noptions;
    const struct lmb_variant *variants;
    size_t nvariants;
    const char *(*supported)(void);         /* NULL when it can run here, else why not */
    int (*main)(struct lmb_ctx *ctx, int argc, char **argv);
    bool classic_on_stdout;                 /* classic lines on stdout (mhz, line ...), not stderr */
};

/* Options every command shares, parsed once by the harness. */
struct lmb_common {
    unsigned parallel;       /* -P: copies run at once */
    uint64_t warmup_us;      /* -W */
    unsigned repetitions;    /* -N */
    bool json;               /* --json */
    double timeout_s;        /* --timeout: per measurement; 0 = none */
    double min_time_s;       /* --min-time: overrides ENOUGH when > 0 */
};

#define LMB_DEFAULT_REPETITIONS 11
#define LMB_DEFAULT_TIMEOUT_S 300.0
#define LMB_MAX_PARALLEL 1024
#define LMB_MAX_REPETITIONS 1000

struct lmb_optval {
    unsigned count;          /* times given */
    const char *arg;         /* last argument */
};

struct lmb_ctx {
    const struct lmb_bench *bench;
    const char *prog;             /* the name the command was called by */
    struct lmb_common opt;
    struct lmb_optval optv[16];   /* parallel to bench->options */
    struct lmb_clock clock;
    uint64_t interval_ns;         /* target length of one timed interval */
    struct lmb_sched sched;
    struct lmb_report report;
};

/* --- options ------------------------------------------------------------- */

/* Whether the command-specific switch `flag` was given, and its argument. */
bool lmb_opt_given(const struct lmb_ctx *ctx, char flag);
const char *lmb_opt_arg(const struct lmb_ctx *ctx, char flag);

/* Prints "<prog>: <message>" and the usage line on stderr; returns 2, the exit
 * status of a usage error: `return lmb_usage_error(ctx, "bad mode '%s'", m);` */
int lmb_usage_error(const struct lmb_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Finds a variant by name, or NULL. */
const struct lmb_variant *lmb_find_variant(const struct lmb_bench *b, const char *name);

/* --- measuring ----------------------------------------------------------- */

enum lmb_metric {
    LMB_METRIC_LATENCY,      /* time per operation */
    LMB_METRIC_BANDWIDTH,    /* bytes per second, summed over copies */
};

/* What to measure. Each copy (-P) forks, calls init on its own copy of *state,
 * waits on the start barrier, warms up, calibrates, then times -N intervals of
 * run(iters). cleanup runs in the copy afterwards. */
struct lmb_timed {
    int (*init)(void *state, char *err, size_t errlen);   /* may be NULL; 0 = ok */
    lmb_run_fn run;
    void (*cleanup)(void *state);                         /* may be NULL */
    void *state;
    enum lmb_metric metric;
    double per_iter;     /* operations (latency) or bytes (bandwidth) per iteration */
};

/* Runs the measurement. Never returns without reaping every copy. The result
 * must be handed to lmb_report_add (which takes its memory) or freed with
 * lmb_result_free. */
void lmb_measure(struct lmb_ctx *ctx, const struct lmb_timed *t, struct lmb_result *res);

/* Reports rec as not measured: status s (LMB_FAILED, LMB_SKIPPED ...) with the
 * reason, for a benchmark that fails before it measures (a file that cannot be
 * made, a size that does not fit). Returns LMB_EXIT_OK so that a main function
 * can `return lmb_report_unmeasured(...)`: the exit status then follows from the
 * records. */
int lmb_report_unmeasured(struct lmb_ctx *ctx, struct lmb_record *rec, enum lmb_status s,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* From a timed loop, in a copy, when an operation fails: the measurement ends
 * with status failed and this reason. Does not return. */
void lmb_abort_copy(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
