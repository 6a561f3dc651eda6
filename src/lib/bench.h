// SPDX-License-Identifier: MIT
/* The interface between a benchmark file and the harness.
 *
 * A benchmark file (src/bench/NAME.c) holds its state struct, its timed loops,
 * its variant table and one `const struct lmb_bench lmb_bench_NAME` descriptor at
 * the end; everything else in it is static. It never parses -P/-W/-N, never reads
 * the clock and never prints a result line: it hands loops to lmb_measure() and
 * results to lmb_report_add(). src/registry.h says how to add one and shows a
 * complete minimal benchmark.
 */
#ifndef LMB_BENCH_H
#define LMB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/calibrate.h"
#include "lib/clock.h"
#include "lib/report.h"
#include "lib/result.h"
#include "lib/sched.h"

struct lmb_ctx;

enum lmb_category {
    LMB_CAT_HARDWARE,     /* processor and memory */
    LMB_CAT_OS,           /* operating system */
    LMB_CAT_NETWORK,
    LMB_CAT_CALIBRATION,  /* helpers the runner calls */
};

const char *lmb_category_name(enum lmb_category c);

/* Which common options a command accepts (the others are refused). */
#define LMB_USE_P 1u          /* -P: copies make sense */
#define LMB_USE_W 2u          /* -W */
#define LMB_USE_N 4u          /* -N */
#define LMB_USE_THREADS 8u    /* --threads: its partners can be threads */
#define LMB_USE_PWN (LMB_USE_P | LMB_USE_W | LMB_USE_N)
/* Refuses --launches: the command is not a measurement (a server, a tool);
 * every other command accepts it. */
#define LMB_NO_LAUNCHES 16u
#define LMB_USE_PAGES 32u     /* --pages: its buffers can be put on chosen pages (lib/mem.h) */

/* One variant of a command (bw_mem's rd, lat_syscall's null ...). */
struct lmb_variant {
    const char *name;
    const char *description;   /* one line, for --help and --list */
    lmb_run_fn run;            /* the timed loop */
    const char *label;         /* classic line label, if the command has one */
    unsigned flags;            /* meaning private to the benchmark (what set-up it needs) */
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

/* Options every command shares, parsed once by the harness (one table in
 * command.c drives their parsing, usage, help and the JSON run.config). */
struct lmb_common {
    unsigned parallel;       /* -P: copies run at once */
    uint64_t warmup_us;      /* -W */
    unsigned repetitions;    /* -N */
    bool json;               /* --json */
    bool threads;            /* --threads: partners are threads, not processes */
    int pages;               /* --pages: an enum lmb_pages (lib/mem.h); LMB_PAGES_NORMAL (0)
                                when not given: base pages, named "4k" */
    double timeout_s;        /* --timeout as given (LMB_DEFAULT_TIMEOUT_S when not); 0 = none */
    double deadline_s;       /* --timeout given: when the whole command's time runs out, in
                                seconds of ctx->clock (CLOCK_MONOTONIC); 0 = no such bound
                                (lib/deadline.h) */
    double min_time_s;       /* --min-time: overrides ENOUGH when > 0 */
    const char *cpus;        /* --cpus, as given */
    unsigned launches;       /* --launches K: fresh processes that measure (1: this one) */
    unsigned launch;         /* this process is launch i (1 .. K-1) of another's --launches
                                (LMBENCH_LAUNCH); 0 otherwise */
};

#define LMB_DEFAULT_REPETITIONS 11
/* The internal bound of one measurement; --timeout SEC bounds the whole command. */
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
    struct lmb_optval *optv;      /* bench->noptions entries, parallel to bench->options */
    struct lmb_clock clock;
    uint64_t interval_ns;         /* target length of one timed interval */
    struct lmb_sched sched;
    struct lmb_report report;
};

/* --- options ------------------------------------------------------------- */

/* Whether the command-specific switch `flag` was given, and its argument. */
bool lmb_opt_given(const struct lmb_ctx *ctx, char flag);
const char *lmb_opt_arg(const struct lmb_ctx *ctx, char flag);

/* Prints "<prog>: <message>" and the usage line on the messages stream; returns
 * 2, the exit status of a usage error: `return lmb_usage_error(ctx, "bad mode
 * '%s'", lmb_quote(m, q, sizeof q));` Quote what the user typed with lmb_quote
 * (report.h). */
int lmb_usage_error(const struct lmb_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* For a command whose arguments start SIZE VARIANT: when argv[0] is no size
 * but a variant's name and argv[1] is a size (bw_mem rd 64k), prints the
 * usage error "bad size 'rd': the size comes first; did you mean 'bw_mem 64k
 * rd'?" and returns 2; otherwise prints nothing and returns 0. */
int lmb_swapped_size_error(const struct lmb_ctx *ctx, int argc, char **argv);

/* Finds a variant by name, or NULL. */
const struct lmb_variant *lmb_find_variant(const struct lmb_bench *b, const char *name);

/* --- measuring ----------------------------------------------------------- */

enum lmb_metric {
    LMB_METRIC_LATENCY,      /* time per operation */
    LMB_METRIC_BANDWIDTH,    /* bytes per second, summed over copies */
};

/* What a partner is told when it starts. */
struct lmb_partner_ctx {
    unsigned index;          /* 0 .. partners-1 */
    bool thread;             /* a thread of the copy (shares its memory and fds), not a process */
    char *err;               /* where to put the reason when it fails */
    size_t errlen;
};

/* What to measure.
 *
 * Each copy (-P) is a forked process. It calls init on its own copy of *state,
 * then, for a two-ended benchmark, starts `partners` partners (processes forked
 * from the copy after init, or threads with --threads) that each run
 * partner(state, pc) until the copy's side goes away, and calls
 * after_partners(state, threads) (e.g. to close the partners' ends of pipes
 * when they are processes). Then the copies run in lockstep: an optional -W
 * warm-up, calibration to one common iteration count, one untimed interval,
 * and -N timed intervals of run(iters), each started together on a barrier,
 * with copies that finish early kept running until the last one has finished.
 * cleanup runs in the copy at the end; partners must then leave (return from
 * partner) within a second or are killed. Where each end was placed and ran is
 * recorded, and a two-ended result gets the parameter "ends". */
struct lmb_timed {
    int (*init)(void *state, char *err, size_t errlen);   /* may be NULL; 0 = ok */
    lmb_run_fn run;
    void (*cleanup)(void *state);                         /* may be NULL */
    void *state;
    enum lmb_metric metric;
    double per_iter;     /* operations (latency) or bytes (bandwidth) per iteration */
    /* Two-ended benchmarks and rings: */
    unsigned partners;   /* partners per copy; 0 for a one-ended benchmark */
    /* In the partner: serve until the copy's end goes away; 0 when it ended
     * normally, -1 with a reason in pc->err on an error (the measurement then
     * fails with it). A partner that returns before the copy's cleanup fails
     * the measurement. */
    int (*partner)(void *state, const struct lmb_partner_ctx *pc);
    void (*after_partners)(void *state, bool threads);    /* may be NULL */
};

/* Runs the measurement. Never returns without reaping every copy and partner.
 * The result must be handed to lmb_report_add (which takes its memory) or freed
 * with lmb_result_free. */
void lmb_measure(struct lmb_ctx *ctx, const struct lmb_timed *t, struct lmb_result *res);

/* From a timed loop or init, in a copy, when an operation fails: the
 * measurement ends with status failed and this reason. Does not return. */
void lmb_abort_copy(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* From init, in a copy: a fact about its set-up that becomes a parameter of
 * the record (copy 1's, e.g. the page size the buffer really got). */
void lmb_copy_fact_int(const char *key, long long v);
void lmb_copy_fact_str(const char *key, const char *v);

/* In a copy: its number (0-based) and how many copies run. */
unsigned lmb_copy_index(void);
unsigned lmb_copy_count(void);

/* Seconds left before the command's --timeout runs out (0 when it has);
 * INFINITY when no --timeout was given. For waits and loops a benchmark runs
 * itself, outside lmb_measure, which keeps to the deadline on its own. */
double lmb_time_left(const struct lmb_ctx *ctx);

/* Whether the command's --timeout has run out; then res, when not NULL, is
 * set to status timeout with the reason "not measured: the command's
 * --timeout of S s had run out", for a step (a sweep point, a round) that is
 * not started. */
bool lmb_out_of_time(const struct lmb_ctx *ctx, struct lmb_result *res);

/* Reports rec as not measured: status s (LMB_FAILED, LMB_SKIPPED ...) with the
 * reason, for a benchmark that fails before it measures (a file that cannot be
 * made, a size that does not fit). Returns LMB_EXIT_OK so that a main function
 * can `return lmb_report_unmeasured(...)`: the exit status then follows from the
 * records. */
int lmb_report_unmeasured(struct lmb_ctx *ctx, struct lmb_record *rec, enum lmb_status s,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
