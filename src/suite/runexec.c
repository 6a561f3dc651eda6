// SPDX-License-Identifier: MIT
/* lmbench run, execute: one step in a child process of its own group (the
 * benchmark in-process through lmb_step_exec; a remote server's ssh session is
 * runremote.c's),
 * its outputs collected from pipes, a timeout, SIGINT/SIGTERM passed on, a
 * server started before and stopped after, and the step's verdict (ok,
 * skipped, failed, timeout) with its reason. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/launch.h"
#include "registry.h"
#include "run.h"
#include "util.h"
#include "stepexec.h"

volatile sig_atomic_t lmb_run_stop;

static void on_stop(int sig)
{
    lmb_run_stop = sig;
}

void lmb_run_catch_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

double lmb_run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int lmb_buf_add(struct lmb_buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *q;
        while (cap < b->n + n + 1)
            cap *= 2;
        q = realloc(b->p, cap);
        if (q == NULL)
            return -1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
    return 0;
}

void lmb_buf_free(struct lmb_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* Runs argv in a child process of its own group: the benchmark in-process
 * (lmb_step_exec). */
static pid_t spawn(struct run *r, const struct lmb_step *s, char **argv, int argc, int fds[3][2],
                   bool with_json)
{
    pid_t parent = getpid(), pid;

    fflush(NULL);
    pid = fork();
    if (pid != 0)
        return pid;
    /* Child: its own process group, default signals, dies with the runner. */
    if (!lmb_child_setup(parent))
        _exit(1);
    for (int i = 0; i < 3; i++)
        if (fds[i][0] >= 0)
            close(fds[i][0]);
    {
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) {
            dup2(nul, STDIN_FILENO);
            close(nul);
        }
    }
    if (r->plan.enough[0])
        setenv("ENOUGH", r->plan.enough, 1);
    else
        unsetenv("ENOUGH");
    setenv("LMBENCH_SCHED", s->sched ? s->sched : r->conf.sched, 1);
    setenv("TMPDIR", r->conf.fsdir, 1);
    if (r->launch_from[0])
        setenv(LMB_LAUNCH_FROM_ENV, r->launch_from, 1);
    else
        unsetenv(LMB_LAUNCH_FROM_ENV);
    if (r->launch_num > 0) {
        char num[16];
        snprintf(num, sizeof num, "%u", r->launch_num);
        setenv(LMB_LAUNCH_ENV, num, 1);
    } else {
        unsetenv(LMB_LAUNCH_ENV);
    }
    {
        const struct lmb_bench *b = lmb_find_bench(s->bench);
        int rc = b ? lmb_step_exec(b, argc, argv, fds[0][1], with_json ? fds[1][1] : -1, fds[2][1])
                   : 1;
        fflush(NULL);
        _exit(rc);
    }
}

/* Runs one command of a step and collects its outputs until it ends, the step's
 * deadline passes or the run is stopped (unless finish is set: the command that
 * stops a server must run even then). Its process group is killed at the end,
 * unless leave is set (a server it started goes on running in it: the caller
 * kills o->group when the server is done). */
static void run_command(struct run *r, const struct lmb_step *s, char **argv, int argc,
                        double deadline, bool leave, bool finish, struct lmb_outcome *o)
{
    int fds[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
    bool with_json = r->json;
    struct pollfd pfd[3];
    pid_t pid;
    int wst = 0, open_fds = 0;
    bool exited = false, killed = false;
    double t0 = lmb_run_now(), kill_at = 0;

    memset(o, 0, sizeof *o);
    o->status = -1;
    for (int i = 0; i < 3; i++) {
        if (i == 1 && !with_json)
            continue;
        if (pipe2(fds[i], O_CLOEXEC) != 0) {
            lmb_buf_add(&o->messages, "cannot make a pipe", 18);
            goto fail;
        }
    }
    pid = spawn(r, s, argv, argc, fds, with_json);
    if (pid < 0) {
        lmb_buf_add(&o->messages, "cannot fork", 11);
        goto fail;
    }
    setpgid(pid, pid);   /* also here, so that killpg works at once */
    o->group = pid;
    for (int i = 0; i < 3; i++) {
        if (fds[i][1] >= 0)
            close(fds[i][1]);
        fds[i][1] = -1;
        if (fds[i][0] >= 0) {
            fcntl(fds[i][0], F_SETFL, O_NONBLOCK);
            open_fds++;
        }
    }
    while (open_fds > 0 || !exited) {
        int n = 0, idx[3];
        for (int i = 0; i < 3; i++)
            if (fds[i][0] >= 0) {
                pfd[n].fd = fds[i][0];
                pfd[n].events = POLLIN;
                idx[n++] = i;
            }
        poll(pfd, (nfds_t)n, 100);
        for (int k = 0; k < n; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[8192];
            ssize_t got = read(pfd[k].fd, chunk, sizeof chunk);
            struct lmb_buf *b = idx[k] == 0 ? &o->classic : idx[k] == 1 ? &o->json : &o->messages;
            if (got > 0) {
                lmb_buf_add(b, chunk, (size_t)got);
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(fds[idx[k]][0]);
                fds[idx[k]][0] = -1;
                open_fds--;
            }
        }
        if (!exited && waitpid(pid, &wst, WNOHANG) == pid)
            exited = true;
        if (exited && open_fds > 0 && kill_at == 0) {
            /* The step is gone; what its own children still hold open is not waited
             * for long (a server keeps running by design). */
            kill_at = lmb_run_now() + (leave ? 0.2 : 2);
        }
        if (lmb_run_stop && !finish && !killed) {
            /* SIGTERM first: a benchmark removes its temporary files (in FSDIR,
             * its TMPDIR) on SIGTERM; what is still there after a second is
             * killed. */
            o->interrupted = true;
            killpg(pid, SIGTERM);
            kill_at = lmb_run_now() + 1;
            killed = true;
        } else if (!killed && deadline > 0 && lmb_run_now() > deadline) {
            o->timed_out = true;
            killpg(pid, SIGTERM);
            kill_at = lmb_run_now() + 1;
            killed = true;
        }
        if (kill_at > 0 && lmb_run_now() > kill_at) {
            if (!leave || !exited)
                killpg(pid, SIGKILL);
            for (int i = 0; i < 3; i++)
                if (fds[i][0] >= 0) {
                    close(fds[i][0]);
                    fds[i][0] = -1;
                }
            open_fds = 0;
            kill_at = 0;
        }
    }
    /* Nothing of the step outlives it (but a server asked for). */
    if (!leave || killed)
        killpg(pid, SIGKILL);
    if (WIFEXITED(wst))
        o->status = WEXITSTATUS(wst);
    else if (WIFSIGNALED(wst))
        o->signal = WTERMSIG(wst);
    o->elapsed = lmb_run_now() - t0;
    return;
fail:
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++)
            if (fds[i][k] >= 0)
                close(fds[i][k]);
    o->elapsed = lmb_run_now() - t0;
}

void lmb_outcome_free(struct lmb_outcome *o)
{
    lmb_buf_free(&o->classic);
    lmb_buf_free(&o->json);
    lmb_buf_free(&o->messages);
}

/* The last non-empty line of b (trailing blanks, CR and LF left out). */
void lmb_buf_last_line(const struct lmb_buf *b, char *out, size_t len)
{
    const char *end, *start;

    out[0] = '\0';
    if (b->n == 0)
        return;
    end = b->p + b->n;
    while (end > b->p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    start = end;
    while (start > b->p && start[-1] != '\n')
        start--;
    snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* The length of the messages without their last non-empty line (the one
 * lmb_buf_last_line takes). */
static size_t without_last_message(const struct lmb_buf *m)
{
    const char *end = m->p + m->n;

    if (m->n == 0)
        return 0;
    while (end > m->p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    while (end > m->p && end[-1] != '\n')
        end--;
    return (size_t)(end - m->p);
}

/* Starts or stops a step's server here: `bench -s`, then `bench -S host`
 * (a remote host's: runremote.c). Returns 0 when it worked. A started server's
 * process group goes into *group, to be killed once it has been asked to stop. */
static int server(struct run *r, const struct lmb_step *s, bool start, pid_t *group, char *why,
                  size_t len)
{
    char *argv[12];
    int argc = 0;
    struct lmb_outcome o;

    argv[argc++] = (char *)s->bench;
    argv[argc++] = start ? "-s" : "-S";
    if (!start)
        argv[argc++] = (char *)s->host;
    argv[argc] = NULL;
    /* Stopping a server is done even when the run is being stopped (a server
     * detaches from the step's process group: only -S reaches it), within a
     * shorter time then. */
    run_command(r, s, argv, argc, lmb_run_now() + (lmb_run_stop ? 5 : 30), start, !start, &o);
    if (start)
        *group = o.group;
    if (o.status != 0) {
        char last[200];
        lmb_buf_last_line(&o.messages, last, sizeof last);
        snprintf(why, len, "%s its server: %s", start ? "could not start" : "could not stop",
                 last[0] ? last : o.timed_out ? "no answer in 30 s" : "it failed");
        lmb_outcome_free(&o);
        return -1;
    }
    lmb_outcome_free(&o);
    return 0;
}

/* The verdict of a command that ran to its end (or was stopped by the deadline). */
static void judge(const struct run *r, struct lmb_outcome *o)
{
    if (o->timed_out) {
        snprintf(o->verdict, sizeof o->verdict, "timeout");
        snprintf(o->reason, sizeof o->reason, "no result within %g s; the step's processes were killed",
                 r->plan.timeout_s);
    } else if (o->signal) {
        snprintf(o->verdict, sizeof o->verdict, "failed");
        snprintf(o->reason, sizeof o->reason, "killed by signal %d (%s)", o->signal,
                 strsignal(o->signal));
    } else if (o->status == 3) {
        snprintf(o->verdict, sizeof o->verdict, "skipped");
    } else if (o->status != 0) {
        snprintf(o->verdict, sizeof o->verdict, "failed");
        lmb_buf_last_line(&o->messages, o->reason, sizeof o->reason);
        if (o->status == 2 && o->reason[0] == '\0')
            snprintf(o->reason, sizeof o->reason, "the command rejected its arguments");
    }
}

/* What else used the machine between before and now: the step and its server
 * are reaped (their CPU time is ours). --disturbed 0 counts every step that was
 * measured as disturbed. */
static void interference(const struct run *r, const struct lmb_cpu_snapshot *before,
                         struct lmb_outcome *o)
{
    struct lmb_cpu_snapshot after;
    int cpus = r->host.cpus_online > 0 ? (int)r->host.cpus_online : 1;

    (void)lmb_cpu_snapshot_take(&after);
    lmb_interference_between(before, &after, cpus, r->opts.disturbed_pct / 100, &o->interference);
    if (r->opts.disturbed_pct <= 0 && o->interference.known)
        o->interference.disturbed = true;
}

bool lmb_run_step_execute(struct run *r, const struct lmb_step *s, struct lmb_outcome *o)
{
    double deadline = lmb_run_now() + r->plan.timeout_s;
    pid_t server_group = 0;
    struct lmb_cpu_snapshot before;
    struct lmb_remote_server remote = { .pid = 0, .in = -1, .out = -1, .err = -1, .status = -1 };

    memset(o, 0, sizeof *o);
    snprintf(o->verdict, sizeof o->verdict, "ok");
    if (s->skip[0]) {
        snprintf(o->verdict, sizeof o->verdict, "skipped");
        snprintf(o->reason, sizeof o->reason, "%s", s->skip);
        o->status = 3;
        return true;
    }
    if (s->remote) {
        /* The host was reached over ssh once (or said why it cannot be). */
        struct lmb_remote *h = lmb_run_remote_check(r, s);
        if (h == NULL) {
            o->interrupted = true;
            return false;
        }
        if (h->state < 0) {
            snprintf(o->verdict, sizeof o->verdict, "failed");
            snprintf(o->reason, sizeof o->reason, "remote host %s cannot be used over ssh "
                     "(said above)", s->host);
            o->status = 1;
            return true;
        }
        (void)lmb_cpu_snapshot_take(&before);
        if (s->server && lmb_run_remote_start(r, s, h, &remote, o->reason, sizeof o->reason) != 0) {
            snprintf(o->verdict, sizeof o->verdict, "failed");
            o->status = 1;
            interference(r, &before, o);
            return true;
        }
    } else {
        (void)lmb_cpu_snapshot_take(&before);
    }
    if (s->server && !s->remote &&
        server(r, s, true, &server_group, o->reason, sizeof o->reason) != 0) {
        snprintf(o->verdict, sizeof o->verdict, "failed");
        o->status = 1;
        if (lmb_run_stop) {
            /* Interrupted while it started: it may be serving already. */
            char why[300];
            (void)server(r, s, false, NULL, why, sizeof why);
        }
        if (server_group > 0)
            killpg(server_group, SIGKILL);
        interference(r, &before, o);
        return true;
    }
    run_command(r, s, (char **)s->argv, s->argc, deadline, false, false, o);
    snprintf(o->verdict, sizeof o->verdict, "ok");
    if (s->server && s->remote) {
        char why[900];
        if (lmb_run_remote_stop(r, s, &remote, why, sizeof why) != 0 && !lmb_run_stop)
            lmb_run_msg(r, "%s: %s", s->name, why);
    } else if (s->server) {
        char why[300];
        if (server(r, s, false, NULL, why, sizeof why) != 0 && !lmb_run_stop)
            lmb_run_msg(r, "%s: %s", s->name, why);
        /* Whatever of the server is still in its group goes now. */
        if (server_group > 0)
            killpg(server_group, SIGKILL);
    }
    if (o->interrupted)
        return false;
    interference(r, &before, o);
    judge(r, o);
    /* Messages (warnings, statuses) go on to the user; a failed step's last
     * one is its reason, which the runner prints with the step's name: not
     * twice. */
    if (strcmp(o->verdict, "failed") == 0 && o->signal == 0 && o->reason[0]) {
        struct lmb_buf m = o->messages;
        m.n = without_last_message(&o->messages);
        lmb_run_pass_messages(r, &m);
    } else {
        lmb_run_pass_messages(r, &o->messages);
    }
    return true;
}

/* --- interleaved launches ---------------------------------------------------- */

/* Where the index of "--launches" is in step s's command line, or -1. */
static int launches_at(const struct lmb_step *s)
{
    for (int k = 1; k + 1 < s->argc; k++)
        if (strcmp(s->argv[k], "--launches") == 0)
            return k;
    return -1;
}

bool lmb_run_interleaves(const struct run *r, size_t i)
{
    const struct lmb_step *s = &r->plan.v[i];

    return s->launches > 1 && !s->server && !s->skip[0] && lmb_find_bench(s->bench) != NULL &&
           launches_at(s) > 0;
}

int lmb_run_launch_dir(struct run *r)
{
    const char *stem = strrchr(r->base, '/');
    int n;

    stem = stem ? stem + 1 : r->base;
    n = snprintf(r->launch_dir, sizeof r->launch_dir, "%s/.%s.launches", r->outdir, stem);
    if (n < 0 || (size_t)n >= sizeof r->launch_dir || mkdir(r->launch_dir, 0700) != 0) {
        lmb_run_msg(r, "cannot make %s (%s): the launches of each step run one after another",
                    r->launch_dir, n < 0 || (size_t)n >= sizeof r->launch_dir ? "name too long"
                                                                              : strerror(errno));
        r->launch_dir[0] = '\0';
        return -1;
    }
    return 0;
}

static void launch_path(const struct run *r, size_t i, unsigned j, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%zu-%u.json", r->launch_dir, i + 1, j);
}

void lmb_run_launch_dir_remove(struct run *r)
{
    char path[2600];

    if (!r->launch_dir[0])
        return;
    for (size_t i = 0; i < r->plan.n; i++)
        for (unsigned j = 1; j < r->plan.v[i].launches; j++) {
            launch_path(r, i, j, path, sizeof path);
            unlink(path);
            strcat(path, ".err");
            unlink(path);
        }
    if (rmdir(r->launch_dir) != 0 && errno != ENOENT)
        lmb_run_msg(r, "cannot remove %s: %s", r->launch_dir, strerror(errno));
    r->launch_dir[0] = '\0';
}

/* Writes the n bytes of p to path (made afresh, mode 0600): 0 or -1. */
static int put_file(const char *path, const char *p, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    size_t done = 0;

    if (fd < 0)
        return -1;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    if (close(fd) != 0 || done < n) {
        unlink(path);
        return -1;
    }
    return 0;
}

bool lmb_run_prelaunch(struct run *r, size_t i, unsigned j)
{
    const struct lmb_step *s = &r->plan.v[i];
    char *argv[LMB_STEP_MAX_ARGS + 1], path[2600];
    int at = launches_at(s), argc = 0;
    struct lmb_outcome o;

    if (!r->launch_dir[0] || at < 0)
        return lmb_run_stop == 0;
    for (int k = 0; k < s->argc; k++)
        if (k != at && k != at + 1)
            argv[argc++] = (char *)s->argv[k];
    argv[argc] = NULL;
    r->launch_num = j;
    run_command(r, s, argv, argc, lmb_run_now() + r->plan.timeout_s, false, false, &o);
    r->launch_num = 0;
    r->time_done += o.elapsed;
    /* A document (exit 0, 1 or 3) is kept for the step; anything else is not,
     * and the step runs that launch itself. */
    if (!o.interrupted && !o.timed_out && o.signal == 0 &&
        (o.status == 0 || o.status == 1 || o.status == 3) && o.json.n > 0) {
        launch_path(r, i, j, path, sizeof path);
        if (put_file(path, o.json.p, o.json.n) == 0 && o.messages.n > 0) {
            strcat(path, ".err");
            (void)put_file(path, o.messages.p, o.messages.n);
        }
    }
    bool stopped = o.interrupted || lmb_run_stop != 0;
    lmb_outcome_free(&o);
    return !stopped;
}

void lmb_run_launch_from(struct run *r, size_t i)
{
    const struct lmb_step *s = &r->plan.v[i];
    size_t used = 0;

    r->launch_from[0] = '\0';
    if (!r->launch_dir[0] || !lmb_run_interleaves(r, i))
        return;
    for (unsigned j = 1; j < s->launches; j++) {
        char path[2600];
        launch_path(r, i, j, path, sizeof path);
        if (used + strlen(path) + 2 > sizeof r->launch_from) {
            r->launch_from[0] = '\0';   /* too long: launches run inside the step */
            return;
        }
        used += (size_t)snprintf(r->launch_from + used, sizeof r->launch_from - used, "%s%s",
                                 j > 1 ? ":" : "", path);
    }
}
