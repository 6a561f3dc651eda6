// SPDX-License-Identifier: MIT
/* lmbench run: the whole suite, non-interactively, as lmbench 3's `make results`.
 *
 * Settings come from the profile, a config file (-c, lmbench 3's keys), the
 * environment (ENOUGH, LMBENCH_SCHED) and the options, checked once before
 * anything runs (runopts.c). The plan (steps.c) is run step by step, each step
 * in its own process group with a timeout (runexec.c); a failure, skip or
 * timeout is recorded with its reason and the run goes on. Three files are
 * left in the results directory (runfiles.c, doc/results-schema.md):
 * <host>.<n>.jsonl appended step by step (a header line, one line per record,
 * one line per finished step), <host>.<n> the classic raw results text with
 * lmbench 3's header and section lines, and at the end <host>.<n>.json, the
 * whole document, written atomically. SIGINT and SIGTERM stop the run
 * cleanly: the step's processes are killed, the scratch file removed, and what
 * was measured is kept (.jsonl and .json); --resume continues an interrupted
 * run from its .jsonl. A results write that fails (a full disk) stops the run
 * the same way, each file whole up to the last step kept, said once at the
 * end with the --resume line (exit 1). This file holds the order of it all: options, plan,
 * execute, record, report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/text.h"
#include "progress.h"
#include "run.h"
#include "stepexec.h"
#include "suite.h"
#include "util.h"

/* The run's counts, from a step's verdict. */
static void count(struct run *r, const char *status)
{
    if (!strcmp(status, "ok"))
        r->ok++;
    else if (!strcmp(status, "skipped"))
        r->skipped++;
    else if (!strcmp(status, "timeout"))
        r->timeouts++;
    else
        r->failed++;
}

/* How much other work shared the CPUs with an attempt: -1 unknown. */
static double disturbance(const struct lmb_interference *x)
{
    if (!x->known)
        return -1;
    return x->other_share > x->steal_share ? x->other_share : x->steal_share;
}

static void note_attempt(struct lmb_step_state *st, const struct lmb_outcome *o, int attempts)
{
    st->attempts = attempts;
    st->ok = strcmp(o->verdict, "ok") == 0;
    st->disturbed = o->interference.disturbed;
    st->disturbance = disturbance(&o->interference);
}

/* Runs step i and records it. Returns false when the run must stop. */
static bool do_step(struct run *r, size_t i)
{
    struct lmb_step *s = &r->plan.v[i];
    struct lmb_outcome o;

    lmb_run_progress(r, i, s);
    lmb_run_launch_from(r, i);
    if (!lmb_run_step_execute(r, s, &o)) {
        r->launch_from[0] = '\0';
        lmb_outcome_free(&o);
        return false;
    }
    r->launch_from[0] = '\0';
    if (strcmp(o.verdict, "ok") != 0 && strcmp(o.verdict, "skipped") != 0) {
        /* Once: the command's own "mhz: failed: " before its reason goes (the
         * line says both); the reason is whole in run.steps. */
        const char *why = o.reason[0] ? o.reason : "(no reason given)";
        size_t bl = strlen(s->bench), vl = strlen(o.verdict);
        if (strncmp(why, s->bench, bl) == 0 && strncmp(why + bl, ": ", 2) == 0 &&
            strncmp(why + bl + 2, o.verdict, vl) == 0 && strncmp(why + bl + 2 + vl, ": ", 2) == 0 &&
            why[bl + vl + 4] != '\0')
            why += bl + vl + 4;
        lmb_run_msg(r, "%s: %s: %s", s->name, o.verdict, why);
    }
    note_attempt(&r->state[i], &o, 1);
    r->state[i].elapsed = o.elapsed;
    lmb_run_record_raw(r, i, &o);
#ifdef LMB_HAVE_JANSSON
    lmb_run_record_json(r, i, &o);
#endif
    if (r->write_failed) {
        /* Its results could not be written (a full disk): the step is not
         * kept, and the run stops here; the files end at the step before. */
        r->state[i].attempts = 0;
        r->state[i].ok = r->state[i].disturbed = false;
        r->state[i].disturbance = -1;
        r->state[i].raw_start = r->state[i].raw_end = -1;
        lmb_outcome_free(&o);
        return false;
    }
    count(r, o.verdict);
    r->weight_done += s->weight - r->state[i].weight_pre;
    r->time_done += o.elapsed;
    lmb_outcome_free(&o);
    return lmb_run_stop == 0;
}

/* Interleaved launches: a step of K launches has launches 1 .. K-1 run in
 * rounds before the steps run in order (round j: launch j of every step that
 * has more than j), so that its launches are spread over the run and sample
 * what changes during it, not only what changes between two processes started
 * back to back. The last launch is the step itself, which pools the earlier
 * ones' documents (LMBENCH_LAUNCH_FROM). Steps with a server, and a resumed
 * run, run their launches back to back inside the step. */
static bool prelaunch(struct run *r)
{
    unsigned most = 1;

    if (!r->json || r->first > 0)
        return true;
    for (size_t i = 0; i < r->plan.n; i++)
        if (lmb_run_interleaves(r, i) && r->plan.v[i].launches > most)
            most = r->plan.v[i].launches;
    if (most < 2 || lmb_run_launch_dir(r) != 0)
        return true;
    for (unsigned j = 1; j < most; j++)
        for (size_t i = 0; i < r->plan.n; i++) {
            const struct lmb_step *s = &r->plan.v[i];
            if (!lmb_run_interleaves(r, i) || s->launches <= j)
                continue;
            lmb_run_progress_launch(r, i, s, j);
            if (!lmb_run_prelaunch(r, i, j))
                return false;
            r->state[i].weight_pre += s->weight / s->launches;
            r->weight_done += s->weight / s->launches;
        }
    return lmb_run_stop == 0;
}

/* --list: the plan and its settings on stdout. */
static int list_plan(struct run *r)
{
    double est = 0;
    char t[32];

    snprintf(r->file, sizeof r->file, "%s/lmbench.XXXXXX", r->conf.fsdir);
    lmb_plan_build(&r->plan, &r->conf, r->opts.launches, r->file);
    lmb_plan_print(&r->plan, stdout);
    for (size_t i = 0; i < r->plan.n; i++)
        est += r->plan.v[i].weight;
    /* One line, the last: the settings. */
    printf("%zu steps; profile %s, -N %u, ENOUGH %s, MB %llu, step timeout %g s; launches %u "
           "for each step that feeds a summary cell, 1 for the others; a step during which "
           "other processes used over %g%% of the CPUs is disturbed%s; estimated time %s (the "
           "first ETA)\n", r->plan.n,
           r->conf.profile, r->plan.repetitions, r->plan.enough[0] ? r->plan.enough : "automatic",
           r->plan.mb, r->plan.timeout_s, r->plan.launches, r->opts.disturbed_pct,
           r->opts.retry ? " and run again once at the end" : " (not run again: --no-retry)",
           lmb_eta_format(est, t, sizeof t));
    return lmb_verb_check_output("run", stdout, "the plan");
}

#ifdef LMB_HAVE_JANSSON
/* After a resume: the steps done before count, and must be this plan's. 0 or -1. */
static int resume_check(struct run *r)
{
    size_t k;
    json_t *st;

    json_array_foreach(r->steps, k, st) {
        const char *nm = json_string_value(json_object_get(st, "name"));
        size_t idx = (size_t)json_integer_value(json_object_get(st, "step"));
        const char *sst = json_string_value(json_object_get(st, "status"));
        if (idx < 1 || idx > r->plan.n || nm == NULL || strcmp(nm, r->plan.v[idx - 1].name) != 0) {
            lmb_run_msg(r, "--resume: step %zu of %s.jsonl is not step %zu of this lmbench's plan "
                           "(was lmbench changed since?): cannot continue it", idx, r->base, idx);
            return -1;
        }
        /* The steps done before the interruption count in the run's outcome,
         * and may be retried at its end. */
        count(r, sst ? sst : "ok");
        {
            struct lmb_step_state *ss = &r->state[idx - 1];
            json_t *x = json_object_get(st, "interference");
            json_t *rs = json_object_get(st, "raw_start");
            ss->attempts = json_is_integer(json_object_get(st, "attempts"))
                               ? (int)json_integer_value(json_object_get(st, "attempts")) : 1;
            ss->ok = sst == NULL || strcmp(sst, "ok") == 0;
            ss->disturbed = json_is_true(json_object_get(st, "disturbed"));
            if (json_is_object(x)) {
                double a = json_number_value(json_object_get(x, "other_share"));
                double b = json_number_value(json_object_get(x, "steal_share"));
                ss->disturbance = a > b ? a : b;
            }
            ss->raw_end = (long)json_integer_value(json_object_get(st, "raw_bytes"));
            /* Without raw_start (an older lmbench): its lines follow the step before. */
            ss->raw_start = json_is_integer(rs) ? (long)json_integer_value(rs)
                            : idx >= 2 && r->state[idx - 2].raw_end >= 0 ? r->state[idx - 2].raw_end
                                                                         : 0;
        }
    }
    if (r->first >= r->plan.n)
        lmb_run_msg(r, "resuming %s: its %zu steps are done; writing the rest of its files",
                    r->base, r->plan.n);
    else
        lmb_run_msg(r, "resuming %s at step %zu of %zu", r->base, r->first + 1, r->plan.n);
    return 0;
}
#endif

/* A new run or a resumed one: its id, its files, its scratch file and plan.
 * 0, or the exit status. */
static int prepare(struct run *r, bool resume)
{
    char err[800];
    struct stat st;

    if (resume) {
        /* Nothing to continue where there is no directory, and nothing is made. */
        bool there = stat(r->outdir, &st) == 0;
        if (!there || !S_ISDIR(st.st_mode)) {
            char q[LMB_QUOTE_BUF];
            const char *why = there ? "not a directory" : strerror(errno);
            lmb_run_msg(r, "--resume: no results directory %s: %s",
                        lmb_quote(r->outdir, q, sizeof q), why);
            return 2;
        }
    }
    if (lmb_run_mkdir_p(r->outdir) != 0 || access(r->outdir, W_OK) != 0) {
        lmb_run_msg(r, "cannot use the results directory %s: %s", r->outdir, strerror(errno));
        return 1;
    }
    r->tty = isatty(STDERR_FILENO);
    lmb_run_catch_signals();
    if (resume) {
#ifdef LMB_HAVE_JANSSON
        if (lmb_run_resume_load(r, err, sizeof err) != 0 ||
            lmb_sconf_check(&r->conf, err, sizeof err) != 0) {
            lmb_run_msg(r, "--resume: %s", err);
            return 1;
        }
#else
        (void)err;
        lmb_run_msg(r, "--resume: skipped: built without jansson");
        return 3;
#endif
    } else {
        lmb_run_make_id(r->id, sizeof r->id);
        lmb_run_iso_now(r->start, sizeof r->start);
        lmb_run_choose_base(r);
    }
    if (lmb_run_make_scratch(r) != 0)
        return 1;
    lmb_plan_build(&r->plan, &r->conf, r->opts.launches, r->file);
    r->state = calloc(r->plan.n ? r->plan.n : 1, sizeof *r->state);
    if (r->state == NULL) {
        lmb_run_msg(r, "out of memory");
        return 1;
    }
    for (size_t i = 0; i < r->plan.n; i++) {
        r->state[i].raw_start = r->state[i].raw_end = -1;
        r->state[i].disturbance = -1;
    }
    if (resume) {
#ifdef LMB_HAVE_JANSSON
        if (resume_check(r) != 0)
            return 1;
#endif
    } else if (lmb_run_open_files(r) != 0) {
        return 1;
    }
    return 0;
}

#ifdef LMB_HAVE_JANSSON
/* Replaces step i's records in the run's array (in place: the records stay in
 * step order) with recs, and its step line with line. */
static void replace_step(struct run *r, size_t i, json_t *recs, json_t *line)
{
    json_t *out = json_array(), *rec, *st;
    json_int_t n = (json_int_t)i + 1;
    bool put = false;
    size_t k;

    json_array_foreach(r->records, k, rec) {
        if (json_integer_value(json_object_get(rec, "step")) == n) {
            if (!put)
                json_array_extend(out, recs);
            put = true;
            continue;
        }
        json_array_append(out, rec);
    }
    if (!put)
        json_array_extend(out, recs);
    json_decref(r->records);
    r->records = out;
    json_array_foreach(r->steps, k, st)
        if (json_integer_value(json_object_get(st, "step")) == n) {
            json_array_set(r->steps, k, line);
            break;
        }
}

/* Sets attempts (and nothing else) in step i's line. */
static void set_attempts(struct run *r, size_t i, int attempts)
{
    json_t *st;
    size_t k;

    json_array_foreach(r->steps, k, st)
        if (json_integer_value(json_object_get(st, "step")) == (json_int_t)i + 1)
            json_object_set_new(st, "attempts", json_integer(attempts));
}
#endif


/* The raw file rewritten with the retried attempts kept (chunks[i] for step
 * i; their header values from kept[i]): 0, or -1 when it could not be (the
 * failed write noted; r->state's offsets and the header values as they were,
 * the raw file untouched). */
static int rebuild_raw(struct run *r, struct lmb_buf *const *chunks,
                       const struct lmb_outcome *kept)
{
    char vals[sizeof r->header_vals];
    long *saved;
    size_t any = 0;

    for (size_t i = 0; i < r->plan.n; i++)
        any += chunks[i] != NULL;
    if (any == 0)
        return 0;
    saved = malloc(2 * r->plan.n * sizeof *saved);
    if (saved == NULL) {
        errno = ENOMEM;
        lmb_run_write_failed(r, r->base);
        return -1;
    }
    memcpy(vals, r->header_vals, sizeof vals);
    for (size_t i = 0; i < r->plan.n; i++) {
        saved[2 * i] = r->state[i].raw_start;
        saved[2 * i + 1] = r->state[i].raw_end;
        if (chunks[i] != NULL && r->plan.v[i].header_key)
            lmb_run_raw_header_value(r, i, &kept[i]);
    }
    if (lmb_run_raw_rebuild(r, chunks) != 0) {
        lmb_run_write_failed(r, r->base);
        memcpy(r->header_vals, vals, sizeof vals);
        for (size_t i = 0; i < r->plan.n; i++) {
            r->state[i].raw_start = saved[2 * i];
            r->state[i].raw_end = saved[2 * i + 1];
        }
        free(saved);
        return -1;
    }
    free(saved);
    return 0;
}

/* Each step that was ok but disturbed is run once more, now that the others
 * are done (what disturbed it may have passed), in plan order while the
 * retries have taken less than LMB_RUN_RETRY_SHARE of the time the steps took (a busy
 * machine does not double the run); the less disturbed attempt
 * is kept: its records, its raw lines, its step line (attempts 2). The raw
 * file and the .jsonl were written step by step with the first attempts; they
 * are rewritten once, in plan order, when a second attempt was kept, so that
 * each holds one attempt of each step, the same as the .json. A run stopped
 * during the retries keeps its first attempts everywhere (--resume retries
 * again). */
static void retry_disturbed(struct run *r)
{
    struct lmb_buf **chunks = calloc(r->plan.n ? r->plan.n : 1, sizeof *chunks);
    struct lmb_outcome *kept = calloc(r->plan.n ? r->plan.n : 1, sizeof *kept);
    size_t todo = 0, n = 0, replaced = 0;
    /* The retries may take an eighth of the time the steps took (no limit with
     * --disturbed 0, which asks for every step again). */
    double budget = LMB_RUN_RETRY_SHARE * (lmb_run_now() - r->t0), spent = 0;

    if (chunks == NULL || kept == NULL) {
        free(chunks);
        free(kept);
        return;
    }
    for (size_t i = 0; i < r->plan.n; i++)
        todo += r->state[i].attempts == 1 && r->state[i].ok && r->state[i].disturbed &&
                r->state[i].raw_start >= 0;
    for (size_t i = 0; i < r->plan.n && !lmb_run_stop; i++) {
        struct lmb_step_state *st = &r->state[i];
        double d;
        if (!(st->attempts == 1 && st->ok && st->disturbed && st->raw_start >= 0))
            continue;
        if (r->opts.disturbed_pct > 0 && spent + st->elapsed > budget) {
            st->over_budget = true;
            continue;
        }
        lmb_run_msg(r, "retry %zu of %zu (disturbed): %s", ++n, todo, r->plan.v[i].name);
        if (!lmb_run_step_execute(r, &r->plan.v[i], &kept[i])) {
            lmb_outcome_free(&kept[i]);
            break;
        }
        d = disturbance(&kept[i].interference);
        spent += kept[i].elapsed;
        r->retried++;
        if (strcmp(kept[i].verdict, "ok") == 0 && d >= 0 &&
            (st->disturbance < 0 || d < st->disturbance)) {
            chunks[i] = calloc(1, sizeof *chunks[i]);
            if (chunks[i] != NULL)
                lmb_run_raw_chunk(r, i, &kept[i], chunks[i]);
        } else {
            lmb_outcome_free(&kept[i]);
            memset(&kept[i], 0, sizeof kept[i]);
        }
        st->attempts = 2;
    }
    if (lmb_run_stop || rebuild_raw(r, chunks, kept) != 0) {
        /* Stopped, or the raw file could not be rewritten (a full disk): the
         * first attempts stay, as the files have them. */
        for (size_t i = 0; i < r->plan.n; i++) {
            if (r->state[i].attempts == 2)
                r->state[i].attempts = 1;
            lmb_outcome_free(&kept[i]);
            if (chunks[i])
                lmb_buf_free(chunks[i]);
            free(chunks[i]);
        }
        r->retried = 0;
        free(chunks);
        free(kept);
        return;
    }
    for (size_t i = 0; i < r->plan.n; i++)
        if (chunks[i] != NULL) {
            note_attempt(&r->state[i], &kept[i], 2);
            r->state[i].retried_better = true;
            replaced++;
        }
    r->retry_better = (unsigned)replaced;
#ifdef LMB_HAVE_JANSSON
    for (size_t i = 0; r->json && i < r->plan.n; i++) {
        if (chunks[i] != NULL) {
            json_t *recs = lmb_run_step_records(r, i, &kept[i]);
            json_t *line = lmb_run_step_line(r, i, &kept[i], 2);
            replace_step(r, i, recs, line);
            json_decref(recs);
            json_decref(line);
            continue;
        }
        if (r->state[i].attempts == 2)
            set_attempts(r, i, 2);
        if (replaced > 0) {
            /* Its bytes in the rewritten raw file. */
            json_t *st;
            size_t k;
            json_array_foreach(r->steps, k, st)
                if (json_integer_value(json_object_get(st, "step")) == (json_int_t)i + 1 &&
                    r->state[i].raw_start >= 0) {
                    json_object_set_new(st, "raw_start", json_integer(r->state[i].raw_start));
                    json_object_set_new(st, "raw_bytes", json_integer(r->state[i].raw_end));
                }
        }
    }
    /* When the new .jsonl cannot be made beside the old one (a full disk),
     * the old one (its first attempts, the raw file's old layout) is
     * rewritten where it is, step by step: what --resume reads then agrees
     * with the raw file, however far it got. */
    if (r->json && r->retried > 0 && lmb_run_jsonl_rewrite(r) != 0)
        (void)lmb_run_jsonl_rewrite_in_place(r);
#endif
    for (size_t i = 0; i < r->plan.n; i++) {
        lmb_outcome_free(&kept[i]);
        if (chunks[i])
            lmb_buf_free(chunks[i]);
        free(chunks[i]);
    }
    free(chunks);
    free(kept);
}

/* Every step of the plan from r->first, until the end or a stop; then the
 * disturbed ones again. */
static void execute(struct run *r)
{
    bool stopped = false;

    r->t0 = lmb_run_now();
    /* The ETA: the estimates of the steps this process runs (a resumed run's
     * earlier steps took no time here), corrected as they are done. */
    for (size_t i = r->first; i < r->plan.n; i++)
        r->weight_total += r->plan.v[i].weight;
    stopped = !prelaunch(r);
    for (size_t i = r->first; i < r->plan.n && !stopped; i++)
        stopped = !do_step(r, i);
    lmb_run_launch_dir_remove(r);
    if (!stopped && r->opts.retry)
        retry_disturbed(r);
}

/* The end of the files: the raw file's date line, the .json. 0 or 1 (a
 * results file could not be written: said once, by lmb_run_report_end). A run
 * whose writes failed is left as an interrupted one (no date line, the .json
 * says interrupted, if it can be written at all), for --resume. */
static int finish(struct run *r)
{
    char date[64], line[80];

    if (!r->write_failed) {
        /* A run resumed after its header steps has its header already. */
        if (!r->header_written)
            lmb_run_raw_header(r);
        lmb_run_date_line(date, sizeof date);
        snprintf(line, sizeof line, "[%s]\n", date);
        lmb_run_raw_put(r, line, strlen(line));
    }
    if (r->tty && r->progress_shown)
        fputs("\r\033[K", stderr);
    lmb_run_remove_scratch(r);
#ifdef LMB_HAVE_JANSSON
    if (lmb_run_write_final_json(r, lmb_run_stop || r->write_failed ? "interrupted"
                                     : r->failed || r->timeouts ? "failed" : "ok") != 0) {
        char path[2400];
        snprintf(path, sizeof path, "%s.json", r->base);
        lmb_run_write_failed(r, path);   /* unless an earlier write failed */
        r->json_failed = true;
    }
#endif
    return r->write_failed ? 1 : 0;
}

static void release(struct run *r)
{
    lmb_run_remove_scratch(r);
    if (r->raw)
        fclose(r->raw);
    if (r->jsonl)
        fclose(r->jsonl);
    lmb_plan_free(&r->plan);
    free(r->state);
#ifdef LMB_HAVE_JANSSON
    json_decref(r->records);
    json_decref(r->steps);
    json_decref(r->tool);
    json_decref(r->timer);
#endif
    free(r);
}

int lmb_suite_runner(int argc, char **argv)
{
    struct run *r = calloc(1, sizeof *r);
    struct lmb_run_args a;
    int rc;

    if (r == NULL)
        return 1;
    /* Options: the command line, then the settings, checked before anything runs. */
    if ((rc = lmb_run_parse(r, &a, argc, argv)) >= 0 || (rc = lmb_run_settings(r, &a)) >= 0) {
        free(r);
        return rc;
    }
    lmb_host_probe(&r->host);   /* before anything runs: the load is not ours */
#ifdef LMB_HAVE_JANSSON
    r->json = true;
    r->records = json_array();
    r->steps = json_array();
#endif
    /* Plan. */
    if (a.list) {
        rc = list_plan(r);
        release(r);
        return rc;
    }
    if ((rc = prepare(r, a.resume)) != 0) {
        release(r);
        return rc;
    }
    if (!lmb_step_exec_both)
        lmb_run_msg(r, "note: the raw file %s gets the header and section lines only", r->base);
    lmb_run_msg(r, "%s: profile %s, %zu steps, results in %s.*", r->id, r->conf.profile,
                r->plan.n, r->base);
    /* Execute and record, step by step. */
    execute(r);
    rc = finish(r);
    /* Report. */
    lmb_run_report_end(r);
    if (lmb_run_stop)
        rc = 128 + lmb_run_stop;
    else if (rc == 0 && (r->failed || r->timeouts))
        rc = 1;
    release(r);
    return rc;
}
