// SPDX-License-Identifier: MIT
/* The earlier launches of --launches K: each a fresh process of this program
 * started with fork and exec, its stdout (the JSON document) and stderr caught
 * in temporary files, its document read into the launch pool; and the
 * messages of all launches passed on once. */
#include "lib/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>
#endif

#include "lib/cleanup.h"
#include "lib/result.h"

/* What is kept of a launch's stderr: its end. */
#define TEXT_MAX (64 * 1024)
/* The lines of a lost launch's stderr shown with the message that it was lost. */
#define TAIL_LINES 5

void lmb_launcher_init(struct lmb_launcher *L, const char *prog, unsigned k, FILE *messages)
{
    memset(L, 0, sizeof *L);
    L->prog = prog;
    L->k = k;
    L->messages = messages;
    L->progress = messages != NULL && isatty(fileno(messages));
}

/* --- the messages ---------------------------------------------------------------- */

/* Whether `line` (len bytes, no newline) is a whole line of text. */
static bool has_line(const char *text, const char *line, size_t len)
{
    for (const char *s = text; s != NULL && *s;) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == len && memcmp(s, line, len) == 0)
            return true;
        s = e ? e + 1 : NULL;
    }
    return false;
}

struct distinct {
    char *line;
    unsigned *launches;
    unsigned n;
};

int lmb_launch_distinct_lines(char *const *texts, unsigned n, const char *own,
                              void (*emit)(const char *line, const unsigned *launches,
                                           unsigned nlaunches, void *arg),
                              void *arg)
{
    struct distinct *d = NULL;
    size_t nd = 0, cap = 0;
    int rc = 0;

    for (unsigned i = 0; i < n && rc == 0; i++) {
        for (const char *s = texts[i]; s != NULL && *s && rc == 0;) {
            const char *e = strchr(s, '\n');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            size_t j;
            const char *line = s;
            s = e ? e + 1 : NULL;
            if (len == 0 || (own != NULL && has_line(own, line, len)))
                continue;
            for (j = 0; j < nd; j++)
                if (strlen(d[j].line) == len && memcmp(d[j].line, line, len) == 0)
                    break;
            if (j == nd) {
                if (nd == cap) {
                    size_t nc = cap ? cap * 2 : 16;
                    struct distinct *p = realloc(d, nc * sizeof *p);
                    if (p == NULL) {
                        rc = -1;
                        break;
                    }
                    d = p;
                    cap = nc;
                }
                d[nd].line = strndup(line, len);
                d[nd].launches = calloc(n, sizeof *d[nd].launches);
                d[nd].n = 0;
                if (d[nd].line == NULL || d[nd].launches == NULL) {
                    free(d[nd].line);
                    free(d[nd].launches);
                    rc = -1;
                    break;
                }
                nd++;
            }
            if (d[j].n == 0 || d[j].launches[d[j].n - 1] != i + 1)
                d[j].launches[d[j].n++] = i + 1;
        }
    }
    for (size_t j = 0; j < nd; j++) {
        if (rc == 0)
            emit(d[j].line, d[j].launches, d[j].n, arg);
        free(d[j].line);
        free(d[j].launches);
    }
    free(d);
    return rc;
}

struct emit_arg {
    const struct lmb_launcher *L;
};

static void emit_line(const char *line, const unsigned *launches, unsigned n, void *arg)
{
    const struct emit_arg *a = arg;
    char list[256];

    lmb_launch_list_text(launches, n, list, sizeof list);
    fprintf(a->L->messages, "launch%s %s of %u: %s\n", n > 1 ? "es" : "", list, a->L->k, line);
}

/* The tee: writes through, keeping a copy (at most TEXT_MAX bytes are kept). */
static ssize_t tee_write(void *cookie, const char *buf, size_t size)
{
    struct lmb_launcher *L = cookie;

    if (L->ownlen + size + 1 > L->owncap && L->ownlen + size < TEXT_MAX) {
        size_t cap = L->owncap ? L->owncap : 1024;
        while (cap < L->ownlen + size + 1)
            cap *= 2;
        char *p = realloc(L->own, cap);
        if (p != NULL) {
            L->own = p;
            L->owncap = cap;
        }
    }
    if (L->ownlen + size + 1 <= L->owncap) {
        memcpy(L->own + L->ownlen, buf, size);
        L->ownlen += size;
        L->own[L->ownlen] = '\0';
    } else {
        L->own_short = true;
    }
    if (size > 0 && (fwrite(buf, 1, size, L->messages) != size || fflush(L->messages) != 0))
        return -1;
    return (ssize_t)size;
}

static int tee_close(void *cookie)
{
    (void)cookie;
    return 0;
}

FILE *lmb_launcher_tee(struct lmb_launcher *L)
{
    cookie_io_functions_t fns = { .read = NULL, .write = tee_write, .seek = NULL,
                                  .close = tee_close };

    if (L->messages == NULL)
        return NULL;
    L->tee = fopencookie(L, "w", fns);
    if (L->tee != NULL)
        setvbuf(L->tee, NULL, _IONBF, 0);
    return L->tee;
}

void lmb_launcher_finish(struct lmb_launcher *L)
{
    struct emit_arg a = { L };

    if (L->tee != NULL) {
        fclose(L->tee);
        L->tee = NULL;
    }
    if (L->messages != NULL && L->text != NULL) {
        if (lmb_launch_distinct_lines(L->text, L->k - 1, L->own_short ? NULL : L->own,
                                      emit_line, &a) != 0)
            fprintf(L->messages, "%s: out of memory passing on the launches' messages\n",
                    L->prog);
        fflush(L->messages);
    }
    for (unsigned i = 0; L->text != NULL && i + 1 < L->k; i++)
        free(L->text[i]);
    free(L->text);
    free(L->own);
    L->text = NULL;
    L->own = NULL;
    L->ownlen = L->owncap = 0;
}

/* --- one launch -------------------------------------------------------------------- */

#ifdef LMB_HAVE_JANSSON

/* The contents of fd from its start (at most max bytes: the last ones when
 * tail, else the first), NUL-terminated, into *out; 0 or -1. */
static int slurp(int fd, size_t max, bool tail, char **out, size_t *outlen)
{
    struct stat st;
    off_t from = 0;
    size_t size, got = 0;
    char *buf;

    *out = NULL;
    *outlen = 0;
    if (fstat(fd, &st) != 0)
        return -1;
    size = (size_t)st.st_size;
    if (max > 0 && size > max) {
        if (tail)
            from = (off_t)(size - max);
        size = max;
    }
    buf = malloc(size + 1);
    if (buf == NULL)
        return -1;
    while (got < size) {
        ssize_t n = pread(fd, buf + got, size - got, from + (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    buf[got] = '\0';
    *out = buf;
    *outlen = got;
    return 0;
}

/* The last TAIL_LINES lines of text, each as "launch i of K: LINE". */
static void say_tail(const struct lmb_launcher *L, unsigned i, const char *text)
{
    const char *starts[TAIL_LINES];
    unsigned n = 0;

    if (text == NULL)
        return;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        if (e != s) {
            if (n == TAIL_LINES) {
                memmove(starts, starts + 1, (TAIL_LINES - 1) * sizeof *starts);
                n--;
            }
            starts[n++] = s;
        }
        if (e == NULL)
            break;
        s = e + 1;
    }
    for (unsigned j = 0; j < n; j++) {
        const char *e = strchr(starts[j], '\n');
        int len = e ? (int)(e - starts[j]) : (int)strlen(starts[j]);
        fprintf(L->messages, "launch %u of %u: %.*s\n", i, L->k, len, starts[j]);
    }
}

static enum lmb_status status_of(const char *name)
{
    for (int s = 0; name != NULL && s < LMB_NSTATUS; s++)
        if (strcmp(lmb_status_name((enum lmb_status)s), name) == 0)
            return (enum lmb_status)s;
    return LMB_FAILED;
}

/* A parameter's value as the text lmb_launch_key compares. */
static void param_text(json_t *v, char *buf, size_t len)
{
    switch (json_typeof(v)) {
    case JSON_INTEGER: snprintf(buf, len, "%lld", (long long)json_integer_value(v)); break;
    case JSON_REAL: snprintf(buf, len, "%.10g", json_real_value(v)); break;
    case JSON_TRUE: snprintf(buf, len, "true"); break;
    case JSON_FALSE: snprintf(buf, len, "false"); break;
    case JSON_STRING: snprintf(buf, len, "%s", json_string_value(v)); break;
    default: snprintf(buf, len, "null"); break;
    }
}

/* Adds launch i's records from its document to the pool: 0, -1 when the
 * document is not a results document (why in err), -2 when memory is short. */
static int read_document(struct lmb_launch_pool *pool, unsigned i, const char *text, char *err,
                         size_t errlen)
{
    json_error_t je;
    json_t *doc = json_loads(text, 0, &je), *results, *rec;
    size_t idx;
    int rc = 0;

    if (doc == NULL) {
        snprintf(err, errlen, "its output is not a JSON document (%s)", je.text);
        return -1;
    }
    results = json_object_get(doc, "results");
    if (!json_is_array(results)) {
        snprintf(err, errlen, "its document has no results");
        json_decref(doc);
        return -1;
    }
    json_array_foreach(results, idx, rec) {
        const char *keys[64], *vals[64];
        char text_v[64][160], key[4096];
        const char *pk, *bench = json_string_value(json_object_get(rec, "benchmark"));
        const char *cs = json_string_value(json_object_get(rec, "case"));
        const char *reason = json_string_value(json_object_get(rec, "reason"));
        json_t *params = json_object_get(rec, "params"), *pv, *samples, *s;
        json_t *it = json_object_get(rec, "iterations_per_sample");
        size_t np = 0, ns = 0, si;
        double *vals_d = NULL;

        json_object_foreach(params, pk, pv) {
            if (np == 64)
                break;
            keys[np] = pk;
            param_text(pv, text_v[np], sizeof text_v[np]);
            vals[np] = text_v[np];
            np++;
        }
        if (bench == NULL ||
            lmb_launch_key(key, sizeof key, bench, cs, keys, vals, np) != 0)
            continue;
        samples = json_object_get(rec, "samples");
        if (json_array_size(samples) > 0) {
            vals_d = malloc(json_array_size(samples) * sizeof *vals_d);
            if (vals_d == NULL) {
                rc = -2;
                break;
            }
            json_array_foreach(samples, si, s)
                if (json_is_number(s))
                    vals_d[ns++] = json_number_value(s);
        }
        if (lmb_launch_pool_add(pool, i, key,
                                status_of(json_string_value(json_object_get(rec, "status"))),
                                reason, vals_d, ns,
                                json_is_integer(it) ? (uint64_t)json_integer_value(it) : 0) != 0)
            rc = -2;
        free(vals_d);
        if (rc != 0)
            break;
    }
    json_decref(doc);
    return rc;
}

/* Starts the launch with stdout and stderr on the given files; its pid, or -1. */
static pid_t start(unsigned i, char **argv, int outfd, int errfd)
{
    pid_t parent = getpid(), pid;

    fflush(NULL);
    pid = fork();
    if (pid != 0)
        return pid;
    /* The launch dies with us (PR_SET_PDEATHSIG survives exec), with default
     * signal actions and nothing of ours to clean up. */
    if (lmb_cleanup_child(parent) != 0)
        _exit(127);
    if (dup2(outfd, STDOUT_FILENO) < 0 || dup2(errfd, STDERR_FILENO) < 0)
        _exit(127);
    close(outfd);
    close(errfd);
    {
        char num[16];
        snprintf(num, sizeof num, "%u", i);
        if (setenv(LMB_LAUNCH_ENV, num, 1) != 0)
            _exit(127);
    }
    /* LMBENCH_SELF: the program that is this lmbench, where /proc/self/exe
     * cannot be run again (under qemu-user without binfmt_misc it names the
     * emulated file: a wrapper that starts the emulator is given instead). */
    const char *self = getenv(LMB_SELF_ENV);
    if (self == NULL || *self == '\0')
        self = "/proc/self/exe";
    execv(self, argv);
    {
        char msg[4200];
        int n = snprintf(msg, sizeof msg, "cannot run %s: %s\n", self, strerror(errno));
        if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
            _exit(127);
    }
    _exit(127);
}

/* Waits for pid; its wait status, or -1. */
static int reap(pid_t pid)
{
    int st;

    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            lmb_child_untrack(pid);
            return -1;
        }
    }
    lmb_child_untrack(pid);
    return st;
}

/* One launch: 0 (its records pooled, or it is noted lost), or an exit status
 * for the whole command (LMB_EXIT_USAGE, LMB_EXIT_FAILED). */
static int one_launch(struct lmb_launcher *L, unsigned i, char **argv,
                      struct lmb_launch_pool *pool)
{
    char outpath[4096], errpath[4096], why[LMB_REASON_LEN] = "";
    char *out = NULL, *err = NULL;
    size_t outlen = 0, errlen = 0;
    int outfd, errfd, st, rc = 0;
    pid_t pid;

    outfd = lmb_tmpfile("lmbench-launch", outpath, sizeof outpath);
    if (outfd < 0) {
        fprintf(L->messages, "%s: cannot make a temporary file for launch %u: %s\n", L->prog, i,
                strerror(errno));
        return LMB_EXIT_FAILED;
    }
    errfd = lmb_tmpfile("lmbench-launch", errpath, sizeof errpath);
    if (errfd < 0) {
        fprintf(L->messages, "%s: cannot make a temporary file for launch %u: %s\n", L->prog, i,
                strerror(errno));
        close(outfd);
        lmb_tmpfile_remove(outpath);
        return LMB_EXIT_FAILED;
    }
    if (L->progress) {
        fprintf(L->messages, "%s: launch %u of %u\n", L->prog, i, L->k);
        fflush(L->messages);
    }
    pid = start(i, argv, outfd, errfd);
    if (pid < 0) {
        fprintf(L->messages, "%s: cannot start launch %u: %s\n", L->prog, i, strerror(errno));
        rc = LMB_EXIT_FAILED;
        goto out;
    }
    lmb_child_track(pid);
    st = reap(pid);
    if (slurp(outfd, 0, false, &out, &outlen) != 0 || slurp(errfd, TEXT_MAX, true, &err, &errlen) != 0) {
        fprintf(L->messages, "%s: cannot read what launch %u wrote: %s\n", L->prog, i,
                strerror(errno ? errno : ENOMEM));
        rc = LMB_EXIT_FAILED;
        goto out;
    }
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == LMB_EXIT_USAGE) {
        /* The command line was refused: as the command itself would say it. */
        fputs(err, L->messages);
        rc = LMB_EXIT_USAGE;
        goto out;
    }
    if (st == -1)
        snprintf(why, sizeof why, "could not be waited for");
    else if (WIFSIGNALED(st))
        snprintf(why, sizeof why, "killed by signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else if (WEXITSTATUS(st) != LMB_EXIT_OK && WEXITSTATUS(st) != LMB_EXIT_FAILED &&
             WEXITSTATUS(st) != LMB_EXIT_SKIPPED)
        snprintf(why, sizeof why, "exited with status %d", WEXITSTATUS(st));
    if (why[0] == '\0') {
        char perr[200];
        int r = read_document(pool, i, out, perr, sizeof perr);
        if (r == -2) {
            fprintf(L->messages, "%s: out of memory reading launch %u\n", L->prog, i);
            rc = LMB_EXIT_FAILED;
            goto out;
        }
        if (r != 0)
            snprintf(why, sizeof why, "exited with status %d: %s", WEXITSTATUS(st), perr);
    }
    if (why[0] != '\0') {
        /* Lost: said now, with the end of what it wrote on stderr. */
        snprintf(pool->lost[i - 1], sizeof pool->lost[i - 1], "%s", why);
        L->lost++;
        fprintf(L->messages, "%s: launch %u of %u: %s%s\n", L->prog, i, L->k, why,
                err[0] ? "; the end of its messages:" : " (it wrote no messages)");
        say_tail(L, i, err);
        fflush(L->messages);
    } else {
        L->text[i - 1] = err;
        err = NULL;
    }
out:
    free(out);
    free(err);
    close(outfd);
    close(errfd);
    lmb_tmpfile_remove(outpath);
    lmb_tmpfile_remove(errpath);
    return rc;
}

/* The i-th (from 1) path of the colon-separated list, into buf: true when
 * there is one. */
static bool nth_path(const char *list, unsigned i, char *buf, size_t len)
{
    const char *p = list;

    for (unsigned k = 1; k < i; k++) {
        p = strchr(p, ':');
        if (p == NULL)
            return false;
        p++;
    }
    size_t n = strcspn(p, ":");
    if (n == 0 || n >= len)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return true;
}

/* Launch i from a document measured earlier (LMBENCH_LAUNCH_FROM): true when
 * its file could be read as a results document and its records were pooled;
 * false (nothing pooled) to run the launch now instead. */
static bool launch_from_file(struct lmb_launcher *L, const char *list, unsigned i,
                             struct lmb_launch_pool *pool)
{
    char path[4096], err[200];
    char *text = NULL;
    size_t len = 0;
    bool ok = false;
    int fd;

    if (list == NULL || !nth_path(list, i, path, sizeof path))
        return false;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    if (slurp(fd, 0, false, &text, &len) == 0 && len > 0)
        ok = read_document(pool, i, text, err, sizeof err) == 0;
    free(text);
    close(fd);
    if (ok && strlen(path) + 5 <= sizeof path) {
        /* What that launch wrote on stderr, beside it (<path>.err), passed on
         * once at the end as a launch's messages are. */
        strcat(path, ".err");
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (slurp(fd, TEXT_MAX, true, &text, &len) == 0)
                L->text[i - 1] = text;
            close(fd);
        }
    }
    return ok;
}

int lmb_launcher_run(struct lmb_launcher *L, const char *bench, char **args, int nargs,
                     struct lmb_launch_pool *pool)
{
    const char *from = getenv(LMB_LAUNCH_FROM_ENV);
    char **argv;
    int rc = 0;

    L->text = calloc(L->k, sizeof *L->text);
    argv = calloc((size_t)nargs + 4, sizeof *argv);
    if (L->text == NULL || argv == NULL) {
        free(argv);
        fprintf(L->messages, "%s: out of memory\n", L->prog);
        return LMB_EXIT_FAILED;
    }
    /* --json first: after a "--" among the arguments it would be an operand. */
    argv[0] = (char *)"lmbench";
    argv[1] = (char *)bench;
    argv[2] = (char *)"--json";
    for (int i = 0; i < nargs; i++)
        argv[3 + i] = args[i];
    argv[3 + nargs] = NULL;
    for (unsigned i = 1; i < L->k && rc == 0; i++)
        if (!launch_from_file(L, from, i, pool))
            rc = one_launch(L, i, argv, pool);
    free(argv);
    if (rc == 0 && L->progress) {
        fprintf(L->messages, "%s: launch %u of %u\n", L->prog, L->k, L->k);
        fflush(L->messages);
    }
    return rc;
}

#else /* !LMB_HAVE_JANSSON */

int lmb_launcher_run(struct lmb_launcher *L, const char *bench, char **args, int nargs,
                     struct lmb_launch_pool *pool)
{
    (void)bench;
    (void)args;
    (void)nargs;
    (void)pool;
    fprintf(L->messages, "%s: --launches: this lmbench was built without jansson\n", L->prog);
    return LMB_EXIT_SKIPPED;
}

#endif
