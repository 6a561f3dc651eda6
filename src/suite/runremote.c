// SPDX-License-Identifier: MIT
/* lmbench run, remote hosts (--remote): everything done over ssh. Before a
 * host's first step, one preflight: `SSH -G HOST` for the address ssh reaches
 * it at (the benchmarks' clients connect there), then `SSH HOST REMOTE_LMBENCH
 * --version`; when that fails, one message says why (connection refused, no
 * answer, unreachable, unknown name, host key unknown or changed, login
 * refused, no lmbench there) and what to do, and the host's steps fail
 * without trying again. A step's server is started by an ssh session held
 * open while the step runs: the remote shell starts `BENCH -s -b ANY`, says it
 * is ready, waits for the end of its stdin, then runs `BENCH -S LOOPBACK`.
 * Closing the session's stdin is the stop; a session that ends otherwise (the
 * run killed, ssh gone) stops the server too. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/net.h"
#include "lib/text.h"
#include "run.h"
#include "util.h"

/* The remote shell's part of a server step: $0 lmbench, $1 the benchmark, $2
 * the address to listen on, $3 the one to stop it at. SIGHUP and SIGPIPE are
 * ignored so that the stop still runs when the session is cut. */
static const char server_script[] =
    "trap \"\" HUP PIPE; \"$0\" \"$1\" -s -b \"$2\" || exit; echo lmbench-server-ready; "
    "read x; exec \"$0\" \"$1\" -S \"$3\"";
#define READY_LINE "lmbench-server-ready\n"

/* Seconds the preflight and a server's start or stop may take. */
#define SSH_WAIT_S 30.0
#define SSH_WAIT_STOPPING_S 5.0

/* The ssh command's words (SSH split on blanks) into argv, from a copy in buf;
 * returns how many. */
static int ssh_words(const struct run *r, char *buf, size_t len, char **argv, int max)
{
    int n = 0;
    char *save = NULL;

    snprintf(buf, len, "%s", r->conf.ssh);
    for (char *w = strtok_r(buf, " ", &save); w && n < max; w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    return n;
}

/* What the client connects to: the host without its user@. */
static const char *target_of(const char *host)
{
    const char *at = strrchr(host, '@');
    return at ? at + 1 : host;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Starts argv (ssh) in a process group of its own that dies with the runner:
 * its stdin a pipe of ours (hold) or /dev/null. 0, or -1 with why (the program
 * could not be run here). */
static int spawn(char **argv, bool hold, struct lmb_remote_server *p, char *why, size_t len)
{
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, ex[2] = { -1, -1 };
    pid_t parent = getpid();
    int e = 0;
    ssize_t got;

    memset(p, 0, sizeof *p);
    p->in = p->out = p->err = -1;
    p->status = -1;
    if ((hold && pipe2(in, O_CLOEXEC) != 0) || pipe2(out, O_CLOEXEC) != 0 ||
        pipe2(err, O_CLOEXEC) != 0 || pipe2(ex, O_CLOEXEC) != 0) {
        snprintf(why, len, "cannot make a pipe: %s", strerror(errno));
        goto fail;
    }
    fflush(NULL);
    p->pid = fork();
    if (p->pid < 0) {
        snprintf(why, len, "cannot fork: %s", strerror(errno));
        p->pid = 0;
        goto fail;
    }
    if (p->pid == 0) {
        int nul = hold ? in[0] : open("/dev/null", O_RDONLY);
        if (!lmb_child_setup(parent))
            _exit(1);
        if (nul < 0 || dup2(nul, STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0 ||
            dup2(err[1], STDERR_FILENO) < 0)
            e = errno;
        else
            execvp(argv[0], argv);
        e = e ? e : errno;
        if (write(ex[1], &e, sizeof e) != (ssize_t)sizeof e)
            _exit(126);
        _exit(127);
    }
    setpgid(p->pid, p->pid);   /* also here, so that killpg works at once */
    close_fd(&in[0]);
    close_fd(&out[1]);
    close_fd(&err[1]);
    close_fd(&ex[1]);
    /* exec succeeded when the pipe closes with nothing in it. */
    while ((got = read(ex[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close_fd(&ex[0]);
    if (got == (ssize_t)sizeof e) {
        snprintf(why, len, "cannot run the ssh program '%s' here (%s): install OpenSSH's client, "
                 "or give the ssh command with --ssh CMD", argv[0], strerror(e));
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        p->pid = 0;
        goto fail;
    }
    p->in = in[1];
    p->out = out[0];
    p->err = err[0];
    fcntl(p->out, F_SETFL, O_NONBLOCK);
    fcntl(p->err, F_SETFL, O_NONBLOCK);
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        close_fd(&in[i]);
        close_fd(&out[i]);
        close_fd(&err[i]);
        close_fd(&ex[i]);
    }
    return -1;
}

enum { PUMP_EXITED, PUMP_UNTIL, PUMP_DEADLINE, PUMP_STOPPED };

/* Collects what the session writes until: it has ended (PUMP_EXITED, status
 * set), stdout holds the line `until` (PUMP_UNTIL), the deadline passes, or
 * the run is stopped (when stoppable). */
static int pump(struct lmb_remote_server *p, double deadline, const char *until, bool stoppable)
{
    for (;;) {
        struct pollfd pfd[2];
        int n = 0, idx[2];
        int *fds[2] = { &p->out, &p->err };
        struct lmb_buf *bufs[2] = { &p->said, &p->errs };

        for (int i = 0; i < 2; i++)
            if (*fds[i] >= 0) {
                pfd[n].fd = *fds[i];
                pfd[n].events = POLLIN;
                idx[n++] = i;
            }
        if (n > 0)
            (void)poll(pfd, (nfds_t)n, 50);
        else
            usleep(20000);
        for (int k = 0; k < n; k++) {
            char chunk[4096];
            ssize_t got;
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            got = read(pfd[k].fd, chunk, sizeof chunk);
            if (got > 0)
                (void)lmb_buf_add(bufs[idx[k]], chunk, (size_t)got);
            else if (got == 0 || (errno != EAGAIN && errno != EINTR))
                close_fd(fds[idx[k]]);
        }
        if (until != NULL && p->said.n > 0 && strstr(p->said.p, until) != NULL)
            return PUMP_UNTIL;
        if (p->status < 0 && p->pid > 0) {
            int st;
            if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
                p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                /* What its own children may still hold open is not waited
                 * for long. */
                if (deadline > lmb_run_now() + 1)
                    deadline = lmb_run_now() + 1;
            }
        }
        if (p->status >= 0 && p->out < 0 && p->err < 0)
            return PUMP_EXITED;
        if (stoppable && lmb_run_stop)
            return PUMP_STOPPED;
        if (lmb_run_now() > deadline)
            return p->status >= 0 ? PUMP_EXITED : PUMP_DEADLINE;
    }
}

/* Ends a session: its stdin closed, then it may end within wait_s; after that
 * its process group is killed. Always reaped; its group killed at the end. */
static void end_session(struct lmb_remote_server *p, double wait_s)
{
    close_fd(&p->in);
    if (p->pid > 0) {
        if (p->status < 0 && pump(p, lmb_run_now() + wait_s, NULL, false) != PUMP_EXITED) {
            killpg(p->pid, SIGTERM);
            if (pump(p, lmb_run_now() + 1, NULL, false) != PUMP_EXITED)
                killpg(p->pid, SIGKILL);
        }
        if (p->status < 0) {
            int st;
            while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
                ;
            p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        killpg(p->pid, SIGKILL);
    }
    p->pid = 0;
    close_fd(&p->out);
    close_fd(&p->err);
}

static void session_free(struct lmb_remote_server *p)
{
    lmb_buf_free(&p->said);
    lmb_buf_free(&p->errs);
}

/* The line of b holding needle (without its newline) into out: 1, or 0. */
static int line_with(const struct lmb_buf *b, const char *needle, char *out, size_t len)
{
    const char *hit = b->n ? strstr(b->p, needle) : NULL, *start, *end;

    if (hit == NULL)
        return 0;
    start = hit;
    while (start > b->p && start[-1] != '\n')
        start--;
    end = strchr(hit, '\n');
    if (end == NULL)
        end = b->p + b->n;
    while (end > start && (end[-1] == '\r' || end[-1] == ' '))
        end--;
    snprintf(out, len, "%.*s", (int)(end - start), start);
    return 1;
}

/* Why ssh itself failed (exit status 255), from its messages: what happened
 * and what to do, into out. */
static void ssh_failure(const char *host, const struct lmb_buf *errs, char *out, size_t len)
{
    char line[300];

    if (line_with(errs, "REMOTE HOST IDENTIFICATION HAS CHANGED", line, sizeof line) ||
        line_with(errs, "has changed and you have requested strict checking", line, sizeof line)) {
        if (!line_with(errs, "has changed and you have requested strict checking", line,
                       sizeof line))
            snprintf(line, sizeof line, "Host key verification failed.");
        snprintf(out, len, "its host key has changed since it was recorded in known_hosts (%s): "
                 "if %s was reinstalled, remove the old key with 'ssh-keygen -R %s' and connect "
                 "once with ssh to check and accept the new one; if not, someone may be "
                 "intercepting the connection", line, host, target_of(host));
    } else if (line_with(errs, "Host key verification failed", line, sizeof line)) {
        (void)(line_with(errs, "host key is known for", line, sizeof line) ||
               line_with(errs, "Host key verification failed", line, sizeof line));
        snprintf(out, len, "its host key is not known here (%s): lmbench runs ssh with "
                 "BatchMode=yes, which cannot ask; connect once with 'ssh %s' to check and "
                 "accept it (or add it to known_hosts with ssh-keyscan)", line, host);
    } else if (line_with(errs, "Permission denied", line, sizeof line)) {
        snprintf(out, len, "ssh could not log in (%s): lmbench logs in without questions "
                 "(BatchMode=yes), with a key: install yours there (ssh-copy-id %s) or load it "
                 "into ssh-agent, or give the user (--remote USER@%s) or the key "
                 "(--ssh 'ssh -i KEY')", line, host, target_of(host));
    } else if (line_with(errs, "Connection refused", line, sizeof line)) {
        snprintf(out, len, "no ssh server answers there (%s): start sshd on it, or give the port "
                 "its sshd listens on with --ssh 'ssh -p PORT'", line);
    } else if (line_with(errs, "timed out", line, sizeof line)) {
        snprintf(out, len, "ssh got no answer (%s): check that it is up and that this machine "
                 "reaches it (its address, a firewall)", line);
    } else if (line_with(errs, "No route to host", line, sizeof line) ||
               line_with(errs, "Network is unreachable", line, sizeof line)) {
        snprintf(out, len, "it is unreachable from here (%s): check its address and the network",
                 line);
    } else if (line_with(errs, "Could not resolve hostname", line, sizeof line)) {
        snprintf(out, len, "ssh does not know this name (%s): check it, or give an address or an "
                 "alias of your ssh configuration (--ssh 'ssh -F FILE')", line);
    } else {
        lmb_buf_last_line(errs, line, sizeof line);
        snprintf(out, len, "ssh failed (%s): try 'ssh %s true' by hand",
                 line[0] ? line : "exit status 255, no message", host);
    }
}

/* Why REMOTE_LMBENCH could not be run there (exit status 126 or 127). */
static void lmbench_missing(const struct run *r, int status, const struct lmb_buf *errs,
                            char *out, size_t len)
{
    const char *lmb = r->conf.remote_lmbench;
    bool path = strchr(lmb, '/') != NULL;
    char line[300];

    lmb_buf_last_line(errs, line, sizeof line);
    if (status == 126)
        snprintf(out, len, "'%.300s' cannot be run there (%s): give the path of lmbench there with "
                 "--remote-lmbench PATH", lmb, line[0] ? line : "exit status 126");
    else
        snprintf(out, len, "no lmbench there: %s '%.300s' (%s): install lmbench on it (the static "
                 "binary will do) or give its path there with --remote-lmbench PATH",
                 path ? "there is no program" : "its PATH has no", lmb,
                 line[0] ? line : "exit status 127");
}

/* The host's entry, made on first use. */
static struct lmb_remote *host_entry(struct run *r, const char *host)
{
    for (size_t i = 0; i < r->nremotes; i++)
        if (strcmp(r->remotes[i].host, host) == 0)
            return &r->remotes[i];
    if (r->nremotes == LMB_RUN_MAX_REMOTES)
        return NULL;
    memset(&r->remotes[r->nremotes], 0, sizeof r->remotes[0]);
    r->remotes[r->nremotes].host = host;
    return &r->remotes[r->nremotes++];
}

/* The hostname `SSH -G HOST` says ssh connects to, into out; else the host
 * without its user@. */
static void ssh_hostname(struct run *r, const char *host, char *out, size_t len)
{
    char words[sizeof r->conf.ssh], *argv[LMB_SSH_MAX_WORDS + 4], why[300];
    int n = ssh_words(r, words, sizeof words, argv, LMB_SSH_MAX_WORDS);
    struct lmb_remote_server p;

    snprintf(out, len, "%s", target_of(host));
    argv[n++] = "-G";
    argv[n++] = (char *)host;
    argv[n] = NULL;
    if (spawn(argv, false, &p, why, sizeof why) != 0)
        return;
    (void)pump(&p, lmb_run_now() + 10, NULL, true);
    end_session(&p, 1);
    if (p.status == 0 && p.said.n > 0) {
        /* One "keyword value" line per option, the first "hostname ...". */
        for (const char *l = p.said.p; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
            if (strncmp(l, "hostname ", 9) == 0) {
                size_t k = strcspn(l + 9, "\r\n ");
                if (k > 0 && k < len)
                    snprintf(out, len, "%.*s", (int)k, l + 9);
                break;
            }
    }
    session_free(&p);
}

/* How many steps of the plan are the host's. */
static unsigned steps_of(const struct run *r, const char *host)
{
    unsigned n = 0;

    for (size_t i = 0; i < r->plan.n; i++)
        n += r->plan.v[i].remote && strcmp(r->plan.v[i].host, host) == 0;
    return n;
}

struct lmb_remote *lmb_run_remote_check(struct run *r, const struct lmb_step *s)
{
    struct lmb_remote *h = host_entry(r, s->host);
    char words[sizeof r->conf.ssh], *argv[LMB_SSH_MAX_WORDS + 6], cmd[1200], why[400];
    char what[1600];
    struct lmb_remote_server p;
    struct lmb_addr a;
    bool reached = false;
    int n, rc;

    if (h == NULL) {
        static struct lmb_remote too_many = { .state = -1 };
        snprintf(too_many.why, sizeof too_many.why, "more than %d remote hosts",
                 LMB_RUN_MAX_REMOTES);
        return &too_many;
    }
    if (h->state != 0)
        return h;
    ssh_hostname(r, s->host, h->addr, sizeof h->addr);
    n = ssh_words(r, words, sizeof words, argv, LMB_SSH_MAX_WORDS);
    argv[n++] = "-o";
    argv[n++] = "BatchMode=yes";
    argv[n++] = (char *)s->host;
    if (lmb_shell_quote(r->conf.remote_lmbench, cmd, sizeof cmd - 16) != 0) {
        snprintf(what, sizeof what, "--remote-lmbench: the path is too long");
        goto bad;
    }
    strcat(cmd, " --version");
    argv[n++] = cmd;
    argv[n] = NULL;
    if (spawn(argv, false, &p, why, sizeof why) != 0) {
        snprintf(what, sizeof what, "%s", why);
        goto bad;
    }
    rc = pump(&p, lmb_run_now() + SSH_WAIT_S, NULL, true);
    end_session(&p, 1);
    if (rc == PUMP_STOPPED) {
        session_free(&p);
        return NULL;
    }
    if (rc == PUMP_DEADLINE) {
        snprintf(what, sizeof what, "no answer over ssh in %g s: check that it is up and that "
                 "this machine reaches it (its address, a firewall)", SSH_WAIT_S);
    } else if (p.status == 255) {
        ssh_failure(s->host, &p.errs, what, sizeof what);
    } else if (p.status == 126 || p.status == 127) {
        lmbench_missing(r, p.status, &p.errs, what, sizeof what);
    } else if (p.status != 0 || p.said.n < 8 || strncmp(p.said.p, "lmbench ", 8) != 0) {
        char line[200];
        lmb_buf_last_line(p.status != 0 ? &p.errs : &p.said, line, sizeof line);
        snprintf(what, sizeof what, "'%.300s --version' there %s (%s): give the path of lmbench "
                 "there with --remote-lmbench PATH", r->conf.remote_lmbench,
                 p.status != 0 ? "failed" : "is not lmbench's answer",
                 line[0] ? line : p.status != 0 ? "no message" : "nothing printed");
        if (p.status != 0) {
            char st[32];
            snprintf(st, sizeof st, " (exit status %d)", p.status);
            strncat(what, st, sizeof what - strlen(what) - 1);
        }
    } else {
        reached = true;   /* and lmbench answered */
    }
    session_free(&p);
    if (!reached)
        goto bad;
    /* The servers listen on every address of that family there (the address
     * ssh reaches may not be one of the host's own, behind NAT), the clients
     * connect to the address ssh reaches. */
    if (lmb_net_resolve(h->addr, 1, SOCK_STREAM, &a, why, sizeof why) != LMB_RESOLVE_OK) {
        snprintf(what, sizeof what, "ssh reaches it as '%.255s', which the benchmarks here cannot "
                 "connect to (%s): give --remote a name or an address this machine resolves",
                 h->addr, why);
        goto bad;
    }
    snprintf(h->bind, sizeof h->bind, "%s", a.ss.ss_family == AF_INET6 ? "::" : "0.0.0.0");
    snprintf(h->stop, sizeof h->stop, "%s", a.ss.ss_family == AF_INET6 ? "::1" : "127.0.0.1");
    /* The clients of the host's steps connect to that address. */
    if (strcmp(h->addr, target_of(s->host)) != 0)
        for (size_t i = 0; i < r->plan.n; i++) {
            struct lmb_step *t = &r->plan.v[i];
            if (!t->remote || strcmp(t->host, s->host) != 0)
                continue;
            for (int k = 1; k < t->argc; k++)
                if (strcmp(t->argv[k], target_of(s->host)) == 0) {
                    char *copy = strdup(h->addr);
                    if (copy == NULL)
                        continue;
                    free(t->argv[k]);
                    t->argv[k] = copy;
                }
        }
    h->state = 1;
    return h;
bad:
    h->state = -1;
    {
        unsigned k = steps_of(r, s->host);
        snprintf(h->why, sizeof h->why, "remote host %s: %s; its %u network step%s not run",
                 s->host, what, k, k == 1 ? " is" : "s are");
    }
    lmb_run_msg(r, "%s", h->why);
    return h;
}

/* The ssh command that runs the server script for s on h (words into argv). */
static int server_argv(struct run *r, const struct lmb_step *s, const struct lmb_remote *h,
                       char *words, size_t wlen, char *cmd, size_t clen, char **argv)
{
    const char *parts[] = { server_script, r->conf.remote_lmbench, s->bench, h->bind, h->stop };
    size_t o;
    int n = ssh_words(r, words, wlen, argv, LMB_SSH_MAX_WORDS);

    argv[n++] = "-o";
    argv[n++] = "BatchMode=yes";
    argv[n++] = (char *)s->host;
    o = (size_t)snprintf(cmd, clen, "sh -c");
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (o + 2 >= clen)
            return -1;
        cmd[o++] = ' ';
        if (lmb_shell_quote(parts[i], cmd + o, clen - o) != 0)
            return -1;
        o += strlen(cmd + o);
    }
    argv[n++] = cmd;
    argv[n] = NULL;
    return 0;
}

/* Why a server session ended badly, into why. */
static void session_failure(struct run *r, const struct lmb_step *s,
                            const struct lmb_remote_server *p, const char *doing, char *why,
                            size_t len)
{
    char what[1600];

    if (p->status == 255) {
        ssh_failure(s->host, &p->errs, what, sizeof what);
    } else if (p->status == 126 || p->status == 127) {
        lmbench_missing(r, p->status, &p->errs, what, sizeof what);
    } else {
        lmb_buf_last_line(&p->errs, what, sizeof what);
        if (what[0] == '\0')
            snprintf(what, sizeof what, "exit status %d", p->status);
    }
    snprintf(why, len, "could not %s its server on %s: %s", doing, s->host, what);
}

int lmb_run_remote_start(struct run *r, const struct lmb_step *s, struct lmb_remote *h,
                         struct lmb_remote_server *srv, char *why, size_t len)
{
    char words[sizeof r->conf.ssh], *argv[LMB_SSH_MAX_WORDS + 6], cmd[2400], err[400];
    int rc;

    memset(srv, 0, sizeof *srv);
    srv->in = srv->out = srv->err = -1;
    srv->status = -1;
    if (server_argv(r, s, h, words, sizeof words, cmd, sizeof cmd, argv) != 0) {
        snprintf(why, len, "could not start its server on %s: --remote-lmbench: the path is too "
                 "long", s->host);
        return -1;
    }
    if (spawn(argv, true, srv, err, sizeof err) != 0) {
        snprintf(why, len, "could not start its server on %s: %s", s->host, err);
        return -1;
    }
    rc = pump(srv, lmb_run_now() + SSH_WAIT_S, READY_LINE, true);
    if (rc == PUMP_UNTIL)
        return 0;
    /* Not started, or not known to be: the session goes (which stops a server
     * it did start). */
    end_session(srv, SSH_WAIT_STOPPING_S);
    if (rc == PUMP_STOPPED)
        snprintf(why, len, "could not start its server on %s: the run was stopped", s->host);
    else if (rc == PUMP_DEADLINE)
        snprintf(why, len, "could not start its server on %s: no answer over ssh in %g s",
                 s->host, SSH_WAIT_S);
    else
        session_failure(r, s, srv, "start", why, len);
    if (srv->status == 255) {
        /* ssh itself failed (the host went away): its other steps are not
         * tried, each for ssh's timeout. */
        unsigned k = steps_of(r, s->host);
        h->state = -1;
        snprintf(h->why, sizeof h->why, "remote host %s: %s; its later network steps (of %u) "
                 "are not run", s->host, why, k);
    }
    session_free(srv);
    return -1;
}

int lmb_run_remote_stop(struct run *r, const struct lmb_step *s, struct lmb_remote_server *srv,
                        char *why, size_t len)
{
    double wait = lmb_run_stop ? SSH_WAIT_STOPPING_S : SSH_WAIT_S;
    int rc = 0;

    if (srv->pid == 0)
        return 0;
    close_fd(&srv->in);
    if (pump(srv, lmb_run_now() + wait, NULL, false) != PUMP_EXITED) {
        snprintf(why, len, "could not stop its server on %s: no answer over ssh in %g s (the "
                 "session is closed, which stops it there)", s->host, wait);
        rc = -1;
    } else if (srv->status != 0) {
        session_failure(r, s, srv, "stop", why, len);
        rc = -1;
    }
    end_session(srv, 0);
    session_free(srv);
    return rc;
}
