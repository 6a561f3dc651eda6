// SPDX-License-Identifier: MIT
/* Records, and the one module that renders them: the classic lmbench 3 lines,
 * status messages and warnings here; the JSON document in report_json.c. A
 * record is one measured quantity with its parameters, unit and result. */
#ifndef LMB_REPORT_H
#define LMB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/clock.h"
#include "lib/launchpool.h"
#include "lib/result.h"
#include "lib/stats.h"
#include "lib/sysinfo.h"
#include "lib/text.h"

enum lmb_unit {
    LMB_UNIT_US,      /* latency in microseconds */
    LMB_UNIT_NS,      /* latency in nanoseconds */
    LMB_UNIT_MBS,     /* bandwidth in 10^6 bytes per second */
    /* Units of the processor and memory benchmarks. Their samples are computed
     * (lmb_result_derive, lmb_result_values) in the unit's base, as the other
     * units' samples are: Hz, bytes, a plain number. */
    LMB_UNIT_MHZ,     /* a clock rate in MHz (metric "frequency"; samples in Hz) */
    LMB_UNIT_BYTES,   /* a size in bytes (metric "size") */
    LMB_UNIT_PAGES,   /* a count of pages (metric "size"; samples a plain number) */
    LMB_UNIT_MB,      /* a size in MB of 2^20 bytes, as memsize prints it (metric "size";
                         samples in bytes) */
    LMB_UNIT_RATIO,   /* a dimensionless ratio, "x" (metric "parallelism") */
};

/* The statistic shown in the classic line. */
enum lmb_headline {
    LMB_HEAD_MEDIAN,
    LMB_HEAD_MIN,
    LMB_HEAD_MAX,     /* the best of a bandwidth's repetitions (stream at -P 1) */
};

/* The shape of the classic line. */
enum lmb_classic {
    LMB_CLASSIC_NONE,
    LMB_CLASSIC_LABEL_US,    /* "<label>: %.4f microseconds" */
    LMB_CLASSIC_SIZE_MBS,    /* "%.6f %.2f" (size < 1 MB) or "%.2f %.2f": size MB, MB/s */
    LMB_CLASSIC_MEMLAT,      /* "%.5f %.3f": size MiB, ns */
    /* Shapes of the network benchmarks: */
    LMB_CLASSIC_SIZE_MBSEC,  /* "%.6f %.2f MB/sec": size MB (classic_x bytes), MB/s */
    LMB_CLASSIC_LABEL_MBSEC, /* "<label>: %.2f MB/sec" */
    LMB_CLASSIC_HTTP,        /* "Avg xfer: %.1fKB, %.1fKB in %.4f millisecs, %.2f MB/sec":
                                classic_x bytes in classic_n files, at the value's MB/s */
    /* Shapes of the processor and memory benchmarks (STREAM's bandwidth lines
     * use LMB_CLASSIC_LABEL_MBSEC above). classic_extra holds the other numbers
     * of a line that shows several (cache, tlb -c). */
    LMB_CLASSIC_LABEL_NS,    /* "<label>: %.2f nanoseconds" (lat_ops, STREAM, lat_rand) */
    LMB_CLASSIC_LABEL_VALUE, /* "<label>: %.2f" (par_ops) */
    LMB_CLASSIC_MHZ,         /* "%d MHz, %.4f nanosec clock": MHz, 1000 / MHz */
    LMB_CLASSIC_PERIOD,      /* "%.4f": 1000 / value, the period in ns of a MHz value */
    LMB_CLASSIC_INT,         /* "%d": the value rounded (line, memsize) */
    LMB_CLASSIC_LABEL_INT,   /* "<label>: %d <unit>" ("tlb: 64 pages", "cache line size: 64 bytes") */
    LMB_CLASSIC_TLB_NS,      /* "<label>: %d <unit> %.5f nanoseconds": extra[0] ns */
    LMB_CLASSIC_CACHE,       /* "L%d cache: %d bytes %.2f nanoseconds %d linesize %.2f parallelism":
                                level classic_x, size value, extra[0..2] ns, line, parallelism */
    LMB_CLASSIC_CACHE_MEM,   /* "Memory latency: %.2f nanoseconds %.2f parallelism": extra[0] */
    LMB_CLASSIC_SIZE_VALUE,  /* "%.6f %.2f": size MB (10^6 bytes, classic_x), value (par_mem) */
    LMB_CLASSIC_FLOAT,       /* "%f" (lat_dram_page) */

    /* --- shapes of the operating-system benchmarks ------------------------- */
    LMB_CLASSIC_MB_US,       /* lat_mmap: "%.6f %.3f" (under 10 us) or "%.6f %.0f": MB, us */
    LMB_CLASSIC_LMDD,        /* lmdd: "<label>" then the print= form (classic_mode) */
    LMB_CLASSIC_COUNT_2F,    /* lat_ctx rows: "%.0f %.2f": classic_x (a count), value */
    LMB_CLASSIC_CTX_OVR,     /* lat_ctx marker: blank line, "\"size=%.0fk ovr=%.2f", classic_x KB */
    LMB_CLASSIC_FS_PAIR,     /* lat_fs: "%.0fk\t%.0f\t%.0f\t%.0f" from two records, see
                                lmb_report_add_pair */
};

/* lmdd's print= forms (LMB_CLASSIC_LMDD). */
enum lmb_lmdd_print {
    LMB_LMDD_SENTENCE = 0,   /* "%.4f MB in %.4f secs, %.4f MB/sec" */
    LMB_LMDD_MBS = 1,        /* "%.2f MB/sec" */
    LMB_LMDD_SECS = 2,       /* "%.4f secs" */
    LMB_LMDD_KBS = 3,        /* "%.0f KB/sec" */
};

enum lmb_param_type { LMB_PARAM_INT, LMB_PARAM_STR, LMB_PARAM_BOOL, LMB_PARAM_DOUBLE };

struct lmb_param {
    char key[32];
    enum lmb_param_type type;
    long long ival;
    char sval[128];
    double dval;               /* LMB_PARAM_DOUBLE */
};

#define LMB_MAX_PARAMS 12

struct lmb_record {
    const char *benchmark;
    char case_name[48];
    struct lmb_param params[LMB_MAX_PARAMS];
    size_t nparams;
    enum lmb_unit unit;
    enum lmb_headline headline;
    enum lmb_classic classic;
    char label[256];           /* LMB_CLASSIC_LABEL_US, LMB_CLASSIC_LABEL_MBSEC, LMB_CLASSIC_LMDD */
    double classic_x;          /* bytes, for SIZE_MBS, MEMLAT, SIZE_MBSEC, HTTP */
    double classic_n;          /* files, for HTTP */
    double classic_extra[3];   /* more numbers of a compound line (CACHE, TLB_NS ...) */
    double classic_y;          /* FS_PAIR: files per sample */
    int classic_mode;          /* LMDD: enum lmb_lmdd_print */
    /* Whether the figure is the quantity of lmbench 3's line of the same
     * benchmark, case and parameters: NULL means it is ("same" in the JSON);
     * otherwise a static string saying how it differs ("differs: ...") or that
     * lmbench 3 had no such figure ("new: ..."). see, compare and import never
     * put two records of different compat in one cell. */
    const char *compat;
    struct lmb_result result;  /* owned by the record once added */
    /* Filled by lmb_record_finish: */
    double *values;            /* samples in `unit` */
    bool has_stats;
    struct lmb_stats stats;    /* of values */
    double value;              /* the headline statistic */
    /* With --launches K (K > 1), set by lmb_report_add: every launch's outcome,
     * the last this process's; result.samples, values, stats and value are then
     * of the pooled samples (the ok launches', in order). NULL: one launch. */
    struct lmb_launches *launches;
};

void lmb_record_init(struct lmb_record *r, const char *benchmark, const char *case_name,
                     enum lmb_unit unit);
void lmb_record_param_int(struct lmb_record *r, const char *key, long long v);
void lmb_record_param_str(struct lmb_record *r, const char *key, const char *v);
void lmb_record_param_bool(struct lmb_record *r, const char *key, bool v);
void lmb_record_param_double(struct lmb_record *r, const char *key, double v);

/* Takes ownership of *res (zeroes it), adds its facts to the parameters,
 * converts the samples to the record's unit, computes statistics and the
 * headline. Statistics are kept whenever there are samples (a below_resolution
 * result has them), but only an ok record has a headline value that is shown.
 * Returns 0, or -1 when memory is short (status becomes failed). */
int lmb_record_finish(struct lmb_record *r, struct lmb_result *res);
void lmb_record_free(struct lmb_record *r);

const char *lmb_unit_name(enum lmb_unit u);
const char *lmb_metric_name(enum lmb_unit u);
bool lmb_unit_higher_is_better(enum lmb_unit u);

/* The classic line for a finished ok record, with its newline, into buf.
 * Returns its length, 0 when the record has no classic line or is not ok. */
size_t lmb_render_classic(const struct lmb_record *r, char *buf, size_t len);

/* Where a command writes. The command line gives classic = stderr (stdout for
 * the few commands that print there), messages = stderr, json = stdout with
 * --json (classic then NULL). The suite gives its own streams: a command never
 * swaps file descriptors. */
struct lmb_streams {
    FILE *out;        /* help, --list */
    FILE *classic;    /* classic lines and section markers; NULL: none */
    FILE *messages;   /* usage errors, status messages, warnings */
    FILE *json;       /* the JSON document at the end; NULL: none */
};

/* One setting of the invocation, for the JSON document's run.config. */
struct lmb_setting {
    const char *key;
    enum { LMB_SET_INT, LMB_SET_REAL, LMB_SET_STR, LMB_SET_BOOL, LMB_SET_NULL } type;
    long long ival;
    double dval;
    const char *sval;
};

#define LMB_MAX_SETTINGS 16

/* The collection of one invocation's records and where they are shown. */
struct lmb_report {
    const char *prog;            /* prefix of messages */
    FILE *classic;               /* NULL: no classic lines */
    FILE *messages;
    FILE *json;                  /* NULL: no JSON document; else records are kept for it */
    struct lmb_record *records;  /* kept when json is set */
    size_t nrecords, cap;
    unsigned counts[LMB_NSTATUS];
    const struct lmb_clock *clock;   /* for the JSON host.timer */
    struct lmb_setting settings[LMB_MAX_SETTINGS];
    size_t nsettings;
    int64_t start_time;              /* seconds since the epoch */
    char run_id[48];
    struct lmb_host host;            /* probed at open when json is set */
    int write_errno;                 /* first error writing classic lines or the document */
    /* --launches K: what the earlier launches measured, merged into each record
     * added (NULL: this is the only launch). Not owned. */
    struct lmb_launch_pool *pool;
};

void lmb_report_open(struct lmb_report *rep, const char *prog, const struct lmb_streams *io);
void lmb_report_close(struct lmb_report *rep);

/* A setting for run.config, in the order added. Strings are not copied. */
void lmb_report_setting(struct lmb_report *rep, struct lmb_setting s);

/* Finishes *r with *res and shows it: the classic line now (or nothing), kept
 * for the JSON document when there is one; a message on the messages stream for
 * any status but ok, and each warning of the result. With a launch pool
 * (rep->pool) the record first takes the earlier launches' outcomes of its
 * identity: its values become the ok launches' samples followed by its own,
 * its statistics and headline (so the classic line) are of that pool, and a
 * warning says which launches were not ok; its own status stays. */
void lmb_report_add(struct lmb_report *rep, struct lmb_record *r, struct lmb_result *res);

/* Two records shown as one classic line (lat_fs's create and delete rates of one
 * size, LMB_CLASSIC_FS_PAIR in a): each is finished and counted as by
 * lmb_report_add, and the line is printed only when both are ok; otherwise each
 * record that is not ok gets its status message. Both are kept for the JSON
 * document when there is one. */
void lmb_report_add_pair(struct lmb_report *rep, struct lmb_record *a, struct lmb_result *ra,
                         struct lmb_record *b, struct lmb_result *rb);

/* A section line of the classic output ('"stride=64', a blank line ...). */
void lmb_report_marker(struct lmb_report *rep, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "<prog>: warning: ..." on the messages stream. */
void lmb_report_warn(struct lmb_report *rep, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The exit status the records call for: 1 if any failed or timed out, or a
 * result could not be written; 3 if all were skipped; else 0. */
int lmb_report_exit_status(const struct lmb_report *rep);

/* Writes the JSON document (tool, run, host, results) to rep->json. Returns 0,
 * -1 on error (rep->write_errno set when it was a write), -2 when built without
 * jansson. */
int lmb_report_print_json(struct lmb_report *rep, const char *argv0, int argc, char **argv);

/* Whether this build can write JSON. */
bool lmb_have_json(void);

/* Flushes f and tells whether everything written to it so far arrived; on
 * failure *err (if not NULL and still 0) receives the errno. */
bool lmb_stream_ok(FILE *f, int *err);


/* --- results computed from results (the processor and memory benchmarks) ------
 * For quantities that are not one timed loop: an operation's latency as the
 * difference of two chain lengths, a parallelism as the ratio of two
 * latencies, a clock rate from a period, a cache size read off a curve. */

/* One sample per repetition: out->samples[i] = f(a->samples[i], b->samples[i],
 * arg) (b may be NULL: f gets 0 for it). a and b must have the same number of
 * samples, and are left as they are. out takes a's copies, placement,
 * iterations and warnings, the summed elapsed and warm-up times, and the first
 * status of a, b that is not ok (with its reason); when both are ok it is ok.
 * Returns 0, or -1 with out failed (memory short, or a and b of different
 * lengths). */
int lmb_result_derive(struct lmb_result *out, const struct lmb_result *a,
                      const struct lmb_result *b, double (*f)(double a, double b, void *arg),
                      void *arg);

/* A result holding n computed values (a level's size, the latencies of the
 * points of a plateau ...; see lmb_result_set_values): status ok, copies and
 * placement from `from` when given (else none), elapsed 0. Returns 0, or -1
 * with out failed. */
int lmb_result_values(struct lmb_result *out, const double *v, size_t n,
                      const struct lmb_result *from);

/* The smallest sample (the least disturbed time), +infinity when there is none. */
double lmb_result_min(const struct lmb_result *r);

/* Sorts the samples in increasing order (for pairing two results by rank). */
void lmb_result_sort(struct lmb_result *r);

/* The median of the samples (sorting them), NAN when there are none. */
double lmb_result_sort_median(struct lmb_result *r);

#endif
