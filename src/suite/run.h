// SPDX-License-Identifier: MIT
/* The parts of `lmbench run`, inside the suite only: the run's state and the
 * units the entry function (runner.c) calls in order: options (runopts.c),
 * plan (steps.c), execute (runexec.c: a step's processes, its server, its
 * outputs), record (runfiles.c: the raw file, the .jsonl, the .json, resume)
 * and report (runreport.c: progress, messages, the run's warnings). */
#ifndef LMB_SUITE_RUN_H
#define LMB_SUITE_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/interfere.h"
#include "lib/sysinfo.h"
#include "runconf.h"
#include "steps.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

/* SIGINT, SIGTERM or SIGHUP received (0 none): the run stops at the next
 * chance. The one global of the runner, set by its signal handler. */
extern volatile sig_atomic_t lmb_run_stop;

/* A growing buffer for what a step writes. */
struct lmb_buf {
    char *p;
    size_t n, cap;
};

int lmb_buf_add(struct lmb_buf *b, const char *s, size_t n);
void lmb_buf_free(struct lmb_buf *b);
/* The last non-empty line of b into out (trailing blanks, CR and LF left out). */
void lmb_buf_last_line(const struct lmb_buf *b, char *out, size_t len);

/* The share of the steps' time the retries of disturbed steps may take: an
 * eighth, so that a default run on a busy 2-CPU machine still ends within its
 * few minutes. */
#define LMB_RUN_RETRY_SHARE 0.125

/* What became of one step of the plan. */
struct lmb_step_state {
    int attempts;                 /* 0 not run (yet), 1, 2 (retried) */
    bool ok;                      /* its status is ok */
    bool disturbed;               /* the kept attempt's interference was over the threshold */
    bool retried_better;          /* retried, and the second attempt was kept */
    double disturbance;           /* the kept attempt's max(other_share, steal_share); -1 unknown */
    long raw_start, raw_end;      /* its bytes in the raw file; -1 unknown */
    double elapsed;               /* seconds its first attempt took */
    bool over_budget;             /* disturbed, not retried: the retries' time was spent */
    double weight_pre;            /* the part of its weight its earlier launches did */
};

/* A remote host of --remote, as the run found it over ssh (runremote.c). */
struct lmb_remote {
    const char *host;             /* as given: [user@]host or an ssh alias (the plan's) */
    int state;                    /* 0 not tried yet, 1 usable, -1 not usable */
    char addr[256];               /* where ssh reaches it (ssh -G's hostname): the clients' */
    char bind[16];                /* the servers' -b there: 0.0.0.0 or :: */
    char stop[16];                /* their -S there: 127.0.0.1 or ::1 */
    char why[1900];               /* state -1: the one message said about it */
};

/* A step's server on a remote host: the ssh session that started it, held
 * open while the step runs. Closing its stdin stops the server (the remote
 * shell runs `lmbench BENCH -S` then), and so does the session's end however
 * it ends: a server never outlives the run that started it. */
struct lmb_remote_server {
    pid_t pid;                    /* ssh, in a process group of its own; 0 none */
    int in, out, err;             /* its stdin (ours to close), stdout, stderr; -1 closed */
    struct lmb_buf said, errs;    /* what it wrote */
    int status;                   /* its exit status once it ended, else -1 */
};

#define LMB_RUN_MAX_REMOTES LMB_REMOTE_MAX_HOSTS

/* The suite's own settings beyond lmb_sconf (kept in run.config for --resume). */
struct lmb_run_opts {
    double disturbed_pct;         /* --disturbed PCT: the threshold, percent of the CPUs */
    bool retry;                   /* a disturbed step is retried once at the end (--no-retry) */
    unsigned launches;            /* --launches K; 0: the profile's */
};

struct run {
    struct lmb_sconf conf;
    struct lmb_run_opts opts;
    struct lmb_plan plan;
    struct lmb_host host;
    char outdir[2048];
    char base[2320];              /* <dir>/<host>.<n> */
    char id[64];
    char start[32];
    char file[1200];              /* the scratch file */
    bool file_made;
    FILE *raw, *jsonl;
    bool tty;
    bool progress_shown;
    size_t first;                 /* first step to run (after a resume) */
    bool header_written;
    char header_vals[2][200];     /* MHZ, LINE_SIZE */
    unsigned failed, skipped, ok, timeouts;
    double t0;
    double weight_done, weight_total, time_done;
    char **argv;
    int argc;
    bool json;                    /* JSON output (built with jansson) */
    struct lmb_step_state *state; /* one per step of the plan */
    unsigned retried, retry_better;
    /* The first results write that failed (a full disk): the run stops there,
     * keeping each file whole up to its last whole step, and says it once at
     * its end (lmb_run_report_end). */
    bool write_failed;
    bool json_failed;             /* the .json could not be written (besides) */
    int write_errno;
    char write_path[2400];
    /* Interleaved launches (runner.c prelaunch): */
    char launch_dir[2400];        /* where the earlier launches' documents are; "" none */
    char launch_from[8192];       /* LMBENCH_LAUNCH_FROM of the next command run; "" none */
    unsigned launch_num;          /* LMBENCH_LAUNCH of the next command run; 0 none */
    struct lmb_remote remotes[LMB_RUN_MAX_REMOTES];   /* the hosts of --remote met so far */
    size_t nremotes;
#ifdef LMB_HAVE_JANSSON
    json_t *records;              /* every record, for the .json */
    json_t *steps;                /* every step's outcome */
    json_t *tool;                 /* from the first step's document */
    json_t *timer;
#endif
};

/* --- options (runopts.c) --------------------------------------------------- */

/* What the command line asks besides the settings. */
struct lmb_run_args {
    const char *cfile;
    bool resume, list;
    bool suite_opts;                   /* --launches, --disturbed or --no-retry given */
    const char *keys[32], *vals[32];   /* settings, applied after the config file */
    int n;
    char remotes[512];
};

/* Parses argv into r (outdir, opts) and a (settings to apply). Returns -1 to go
 * on, else the exit status (help printed, or a usage error). */
int lmb_run_parse(struct run *r, struct lmb_run_args *a, int argc, char **argv);

/* The settings from the defaults, the config file, the environment and the
 * options, checked. Returns -1 to go on, else the exit status. */
int lmb_run_settings(struct run *r, const struct lmb_run_args *a);

/* --- execute (runexec.c) --------------------------------------------------- */

struct lmb_outcome {
    int status;            /* exit status, or -1 */
    int signal;            /* killed by, 0 none */
    bool timed_out;
    bool interrupted;
    struct lmb_buf classic, json, messages;
    double elapsed;
    pid_t group;           /* the process group it ran in */
    char verdict[16];      /* "ok", "skipped", "failed", "timeout" */
    char reason[400];
    struct lmb_interference interference;   /* .known false: not measured */
};

double lmb_run_now(void);
void lmb_run_catch_signals(void);

/* Runs step s (its server around it) into o: the verdict, its reason, the
 * outputs and the interference while it ran. Returns false when the run was
 * stopped while it ran (o is then to be freed and nothing recorded). */
bool lmb_run_step_execute(struct run *r, const struct lmb_step *s, struct lmb_outcome *o);

/* Interleaved launches (runner.c prelaunch). Whether step i's earlier launches
 * may run apart from it (more than one launch, no server, a command of ours
 * that was given --launches). */
bool lmb_run_interleaves(const struct run *r, size_t i);
/* Makes the directory for the earlier launches' documents (<dir>/.<host>.<n>.launches):
 * 0, -1 (said why; the launches then run inside their steps). */
int lmb_run_launch_dir(struct run *r);
/* Removes it and what it holds. */
void lmb_run_launch_dir_remove(struct run *r);
/* Runs launch j of step i (its command line without --launches, LMBENCH_LAUNCH=j)
 * and keeps its document and messages. False when the run was stopped. */
bool lmb_run_prelaunch(struct run *r, size_t i, unsigned j);
/* Sets r->launch_from for step i: its earlier launches' documents. */
void lmb_run_launch_from(struct run *r, size_t i);
void lmb_outcome_free(struct lmb_outcome *o);

/* --- remote hosts (runremote.c) --------------------------------------------- */

/* Before the first step of a remote host: one preflight over ssh (ssh -G for
 * the address, then `REMOTE_LMBENCH --version` there). Returns the host's
 * state (its message said once, when it is not usable), or NULL when the run
 * was stopped meanwhile. */
struct lmb_remote *lmb_run_remote_check(struct run *r, const struct lmb_step *s);
/* Starts s's server on its remote host over ssh and waits until it serves. 0,
 * or -1 with why (the session ended, nothing left running there; when ssh
 * itself failed, the host is marked not usable for its later steps). */
int lmb_run_remote_start(struct run *r, const struct lmb_step *s, struct lmb_remote *h,
                         struct lmb_remote_server *srv, char *why, size_t len);
/* Stops it (closes the session's stdin: `BENCH -S` runs there) and waits for
 * the session's end (30 s, 5 s when the run is being stopped). 0, or -1 with why. */
int lmb_run_remote_stop(struct run *r, const struct lmb_step *s, struct lmb_remote_server *srv,
                        char *why, size_t len);

/* --- record (runfiles.c) --------------------------------------------------- */

int lmb_run_mkdir_p(const char *dir);
/* Notes that writing path failed (errno now): the first such failure is kept
 * and stops the run (the files hold whole steps, for --resume). */
void lmb_run_write_failed(struct run *r, const char *path);
/* Appends n bytes to the raw file in one piece: 0, or -1 (noted, and the file
 * cut back to what it held before). */
int lmb_run_raw_put(struct run *r, const char *p, size_t n);
void lmb_run_choose_base(struct run *r);
int lmb_run_make_scratch(struct run *r);
void lmb_run_remove_scratch(struct run *r);
void lmb_run_make_id(char *buf, size_t len);
void lmb_run_iso_now(char *buf, size_t len);
void lmb_run_date_line(char *buf, size_t len);

/* Opens the three files of a new run and writes the .jsonl header. 0 or -1. */
int lmb_run_open_files(struct run *r);
void lmb_run_raw_header(struct run *r);

/* The raw file's part of step i: a header step's value, or the step's section
 * and classic lines (their byte range into r->state[i]); a failed write is
 * noted (r->write_failed) and leaves nothing of the step in the file. */
void lmb_run_record_raw(struct run *r, size_t i, const struct lmb_outcome *o);
/* A header step's (MHZ, LINE_SIZE) value for the raw file's header. */
void lmb_run_raw_header_value(struct run *r, size_t i, const struct lmb_outcome *o);
/* Step i's chunk of the raw file as lmb_run_record_raw writes it, into b. */
void lmb_run_raw_chunk(const struct run *r, size_t i, const struct lmb_outcome *o,
                       struct lmb_buf *b);
/* Rewrites the raw file in plan order: chunks[i] for a step whose attempt was
 * replaced, its old bytes for the others (r->state[].raw_* updated). 0 or -1. */
int lmb_run_raw_rebuild(struct run *r, struct lmb_buf *const *chunks);

#ifdef LMB_HAVE_JANSSON
/* The step's records and its step line, into the run's arrays and the .jsonl,
 * all or nothing: a failed write is noted (r->write_failed), the .jsonl and
 * the raw file cut back to the step before, the arrays left without it. */
void lmb_run_record_json(struct run *r, size_t i, const struct lmb_outcome *o);
/* The records of an attempt of step i (an array), and its step line. */
json_t *lmb_run_step_records(struct run *r, size_t i, const struct lmb_outcome *o);
json_t *lmb_run_step_line(const struct run *r, size_t i, const struct lmb_outcome *o,
                          int attempts);
/* Rewrites the .jsonl from the run's arrays (after retries replaced some). 0 or -1. */
int lmb_run_jsonl_rewrite(struct run *r);
/* The same in the file itself (when there is no room for a second one): cut
 * to nothing, then its header and each step in one piece. 0, or -1 (noted as a
 * failed write: the file holds the steps before the one that failed). */
int lmb_run_jsonl_rewrite_in_place(struct run *r);
int lmb_run_write_final_json(struct run *r, const char *status);
int lmb_run_resume_load(struct run *r, char *err, size_t errlen);
#endif

/* --- report (runreport.c) -------------------------------------------------- */

void lmb_run_msg(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lmb_run_progress(struct run *r, size_t i, const struct lmb_step *s);
/* The same for launch j of step i run ahead of it. */
void lmb_run_progress_launch(struct run *r, size_t i, const struct lmb_step *s, unsigned j);
/* Passes a step's own messages on to stderr. */
void lmb_run_pass_messages(struct run *r, const struct lmb_buf *m);
#ifdef LMB_HAVE_JANSSON
/* The run's warnings (after the host's) into warn. */
void lmb_run_warnings(const struct run *r, json_t *warn);
#endif
/* The last lines of the run on stderr: its counts, then what people should
 * know of its figures (load, disturbed steps, spread, failures), a few lines. */
void lmb_run_report_end(struct run *r);

#endif
