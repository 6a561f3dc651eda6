// SPDX-License-Identifier: MIT
/* The suite's model of a results file, and its readers.
 *
 * A results file is our JSON document (doc/results-schema.md; `lmbench run`
 * writes the same document with many records and a run id), a `.jsonl` file
 * (a header line, then one record per line, as `lmbench run` appends them), or
 * an lmbench 3 raw results file (import3.c maps its classic lines to the same
 * records). `see`, `compare` and `graph` read all three through lmb_rs_load()
 * and look records up by benchmark, case and parameters, never by prose. */
#ifndef LMB_SUITE_RESULTS_H
#define LMB_SUITE_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum lmb_rs_format {
    LMB_RS_JSON,       /* one lmbench-results document */
    LMB_RS_JSONL,      /* header line + one record per line */
    LMB_RS_RAW3,       /* lmbench 3 raw results text */
};

enum lmb_rs_ptype { LMB_RS_INT, LMB_RS_NUM, LMB_RS_STR, LMB_RS_BOOL };

/* One parameter of a record: numbers keep their value, strings their text. */
struct lmb_rs_param {
    char *key;
    enum lmb_rs_ptype type;
    double num;        /* INT, NUM, BOOL (0/1) */
    char *str;         /* STR */
};

enum lmb_rs_status { LMB_RS_OK, LMB_RS_SKIPPED, LMB_RS_BELOW, LMB_RS_TIMEOUT, LMB_RS_FAILED };

struct lmb_rs_record {
    char *benchmark;
    char *case_name;                 /* NULL for a null case */
    struct lmb_rs_param *params;
    size_t nparams;
    char *unit;                      /* "us", "ns", "MB/s", "MHz", "x", ... */
    bool higher_better;
    enum lmb_rs_status status;
    char *reason;                    /* NULL when ok */
    bool has_value;
    double value;                    /* the headline, when ok */
    char *headline;                  /* "median", "min" */
    double *samples;                 /* finite samples only; may be empty */
    size_t nsamples;
    bool has_ci;
    double ci_lo, ci_hi;             /* 95% CI of the median, from the file */
    int step;                        /* the run step that wrote it, -1 if unknown */
    char *compat;                    /* NULL: lmbench 3's quantity ("same", or a file
                                        without the key); else how it differs */
    /* Launches (--launches K): the samples of each fresh process that measured
     * the record, in launch order, launch_n[i] of them each (their sum is
     * nsamples). nlaunches 0: the file did not say (one launch, or an older
     * file); only launches whose status was ok are counted. */
    size_t *launch_n;
    size_t nlaunches;
    size_t launches_asked;           /* the "launches" array's length (all statuses); 0 unknown */
    bool disturbed;                  /* its step shared the CPUs beyond the threshold */
};

/* One step of a run (run.steps, or a .jsonl step line). */
struct lmb_rs_step {
    int step;
    char *name;
    char *status;
    bool disturbed;                  /* interference.disturbed of its last attempt */
    int attempts;                    /* 1, or 2 when it was retried; 0 unknown */
    double other_share;              /* interference.other_share; NAN unknown */
    double steal_share;              /* NAN unknown */
};

/* Whether a and b hold the same quantity (the same compat), so that one cell
 * or one ratio may hold both. */
bool lmb_rs_same_quantity(const struct lmb_rs_record *a, const struct lmb_rs_record *b);

struct lmb_rs_cache {
    int level;
    char type[16];
    uint64_t size;
    int line;
};

/* A key and value of the lmbench 3 header ("[MB: 512]"). */
struct lmb_rs_kv {
    char *key, *value;
};

struct lmb_rs_file {
    char *path;
    enum lmb_rs_format format;
    char *hostname;
    char *sysname, *release, *version, *machine;
    char *platform;                  /* "x86_64-linux-gnu" (lmbench 3's OS) */
    char *run_id;                    /* NULL if none */
    char *start, *end;               /* ISO 8601 or the raw date line; may be NULL */
    char *status;                    /* run.status, may be NULL */
    char *profile;                   /* run.config.profile, may be NULL */
    int parallel;                    /* -P of the run (scal load); 0 unknown */
    int cpus_online;                 /* -1 unknown */
    struct lmb_rs_cache caches[8];
    int ncaches;
    char **warnings;                 /* host warnings and import notes */
    size_t nwarnings;
    struct lmb_rs_kv *header;        /* raw files: the [KEY: value] lines */
    size_t nheader;
    struct lmb_rs_kv *context;       /* host.context, values as text; unknown ones left out */
    size_t ncontext;
    struct lmb_rs_step *steps;       /* run.steps (or the .jsonl step lines), in order */
    size_t nsteps;
    struct lmb_rs_record *recs;
    size_t nrecs, cap;
};

/* Reads a results file of any of the three formats (detected from its content;
 * a name ending in .jsonl is read line by line). Returns 0; -1 with a message in
 * err for a file that is not a results file or is damaged; -2 when the file is
 * JSON and this build has no jansson ("built without jansson" in err). */
int lmb_rs_load(const char *path, struct lmb_rs_file *f, char *err, size_t errlen);
void lmb_rs_free(struct lmb_rs_file *f);

/* lmb_rs_load() on a stream already open (lmb_input_open's, or fmemopen's for a
 * buffer) that can seek back to its start; path names it in f and in messages,
 * and its .jsonl suffix chooses JSONL. Reads within the limits of
 * lib/input.h. The caller closes fp. */
int lmb_rs_load_stream(FILE *fp, const char *path, struct lmb_rs_file *f, char *err,
                       size_t errlen);

/* Which format a file looks like from its first bytes: 0 JSON, 1 JSONL, 2 raw,
 * -1 none of them. */
int lmb_rs_sniff(const char *path);

/* Expands the command line's files and directories into the results files to
 * read, in order: a file as given; a directory recursively, one file per run
 * stem (<host>.<n>): the .json, else the .jsonl (an interrupted run), else the
 * raw file. Returns the count, or -1 (message in err). *out is a malloc'd array
 * of malloc'd paths. */
int lmb_rs_expand(int nargs, char **args, char ***out, char *err, size_t errlen);
void lmb_rs_free_paths(char **paths, int n);

/* Expands args (or ./results when nargs is 0) and reads every file, saying on
 * stderr ("lmbench VERB: ...") what could not be read. *files receives the
 * files read (free each with lmb_rs_free, then the array), *n their count.
 * Returns 0 when all were read; 1 when some file or the expansion failed; 3
 * when nothing failed but some JSON was skipped (built without jansson). */
int lmb_rs_load_args(const char *verb, int nargs, char **args, struct lmb_rs_file **files, int *n);

/* --- building (readers) ------------------------------------------------------ */

struct lmb_rs_record *lmb_rs_add(struct lmb_rs_file *f, const char *benchmark,
                                 const char *case_name, const char *unit);
void lmb_rs_param_num(struct lmb_rs_record *r, const char *key, enum lmb_rs_ptype t, double v);
void lmb_rs_param_str(struct lmb_rs_record *r, const char *key, const char *v);
void lmb_rs_set_value(struct lmb_rs_record *r, double v);
void lmb_rs_set_status(struct lmb_rs_record *r, enum lmb_rs_status s, const char *reason);
void lmb_rs_warn(struct lmb_rs_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lmb_rs_header_add(struct lmb_rs_file *f, const char *key, const char *value);
const char *lmb_rs_header(const struct lmb_rs_file *f, const char *key);
void lmb_rs_context_add(struct lmb_rs_file *f, const char *key, const char *value);
/* host.context's value of key, NULL when the file does not say. */
const char *lmb_rs_context(const struct lmb_rs_file *f, const char *key);
struct lmb_rs_step *lmb_rs_step_add(struct lmb_rs_file *f);
char *lmb_rs_strdup(const char *s);   /* aborts on out of memory */

/* --- looking up -------------------------------------------------------------- */

const struct lmb_rs_param *lmb_rs_param(const struct lmb_rs_record *r, const char *key);
/* The numeric parameter, or NAN when absent or not a number. */
double lmb_rs_pnum(const struct lmb_rs_record *r, const char *key);
/* The string parameter, or NULL. */
const char *lmb_rs_pstr(const struct lmb_rs_record *r, const char *key);

/* Whether r is of benchmark b and case c (c NULL: the null case; "*": any). */
bool lmb_rs_is(const struct lmb_rs_record *r, const char *b, const char *c);

const char *lmb_rs_status_name(enum lmb_rs_status s);
int lmb_rs_status_parse(const char *s, enum lmb_rs_status *out);

/* A short identity of a record for people and for matching across files:
 * "bw_mem frd size_bytes=65536 vector=avx2". Writes into buf. */
void lmb_rs_describe(const struct lmb_rs_record *r, char *buf, size_t len);

#endif
