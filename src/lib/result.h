// SPDX-License-Identifier: MIT
/* The bottom floor: what a measurement returns (struct lmb_result), its status,
 * and the exit codes of every command. It depends on nothing else of the
 * project, so that measuring (benchmp.c) and reporting (report.c) both build on
 * it without including each other. */
#ifndef LMB_RESULT_H
#define LMB_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses of every command. */
enum {
    LMB_EXIT_OK = 0,
    LMB_EXIT_FAILED = 1,    /* a measurement failed or timed out; an output could not be written */
    LMB_EXIT_USAGE = 2,     /* bad command line or environment */
    LMB_EXIT_SKIPPED = 3,   /* cannot run here */
};

enum lmb_status {
    LMB_OK,
    LMB_SKIPPED,            /* cannot run here (reason says why) */
    LMB_BELOW_RESOLUTION,   /* too fast or too short to time honestly */
    LMB_TIMEOUT,            /* --timeout passed; copies killed */
    LMB_FAILED,             /* an error while running */
};
#define LMB_NSTATUS (LMB_FAILED + 1)

const char *lmb_status_name(enum lmb_status s);

#define LMB_REASON_LEN 256
#define LMB_MAX_RESULT_WARNINGS 4
#define LMB_WARNING_LEN 200
#define LMB_MAX_FACTS 4

/* Something a copy found out about its own set-up and reports back (the page
 * size its buffer really got ...); it becomes a parameter of the record. */
struct lmb_fact {
    char key[32];
    bool is_int;
    long long ival;
    char sval[64];
};

/* When each copy's timed interval of one repetition ran, in ns since the
 * measurement started: released from the start barrier, timed interval ended,
 * and stopped loading the machine (after every copy had ended). */
struct lmb_span {
    uint64_t start, end, release;
};

/* What lmb_measure returns. Samples are per timed repetition, in SI: nanoseconds
 * per operation (latency, mean over copies) or bytes per second (bandwidth, summed
 * over copies). Derived results (a ratio, a frequency) carry values a benchmark
 * computed from other results, in the unit's base (see lmb_result_set_values). */
struct lmb_result {
    enum lmb_status status;
    char reason[LMB_REASON_LEN];
    size_t n;
    double *samples;
    uint64_t iters;           /* iterations per interval, the same for every copy */
    double elapsed_s;         /* wall time of the whole measurement */
    double warmup_s;          /* of which warm-up (-W, and the untimed interval) */
    unsigned copies;
    const char *policy;       /* placement policy name */
    int *cpu_assigned;        /* per copy; -1 = not pinned */
    int *cpu_ran;             /* per copy; CPU it was on when it finished, -1 unknown */
    unsigned partners;        /* partner processes (or threads) per copy */
    bool partner_threads;     /* partners are threads of the copy */
    int *partner_assigned;    /* copies * partners; -1 = not pinned */
    int *partner_ran;         /* copies * partners; -1 unknown */
    struct lmb_span *spans;   /* copies * n, copy-major; NULL when not kept */
    char warnings[LMB_MAX_RESULT_WARNINGS][LMB_WARNING_LEN];
    unsigned nwarnings;
    struct lmb_fact facts[LMB_MAX_FACTS];
    unsigned nfacts;
};

void lmb_result_free(struct lmb_result *r);

/* Status and reason: the result says why it has no value. */
void lmb_result_set_status(struct lmb_result *r, enum lmb_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A warning about an otherwise valid result (shown on stderr, kept in the JSON).
 * Warnings past LMB_MAX_RESULT_WARNINGS are dropped, the last one kept saying so. */
void lmb_result_warn(struct lmb_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A fact as a parameter of the record; a key already present is replaced. */
void lmb_result_fact_int(struct lmb_result *r, const char *key, long long v);
void lmb_result_fact_str(struct lmb_result *r, const char *key, const char *v);

/* A derived result: n values computed by the benchmark (in the base of the
 * record's unit: ns for latencies, bytes/s for bandwidths, Hz, bytes, a plain
 * number). The values are copied; status becomes ok. Returns 0, or -1 when
 * memory is short (status failed). */
int lmb_result_set_values(struct lmb_result *r, const double *values, size_t n);

/* Moves *from into *to (freeing what *to held) and clears *from. */
void lmb_result_move(struct lmb_result *to, struct lmb_result *from);

#endif
