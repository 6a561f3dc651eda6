// SPDX-License-Identifier: MIT
/* lat_cmd: the time to run a command to completion.
 *
 * One operation: fork(), execv() of the command's file in the child with its
 * standard input from /dev/null and its standard output to /dev/null, and
 * waitpid() until it has exited. The file is found once, before timing (a bare
 * name in PATH, as execvp would), so the children do not search PATH; opening
 * /dev/null is kept out of the timing too. A file that execv refuses as not a
 * program (ENOEXEC) is run by /bin/sh, as execvp does. A command that exits
 * with a status other than 0, or dies of a signal, ends the measurement as
 * failed. The mappings of the process that forks are counted in init (the
 * parameter "maps"), as lat_proc does. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/text.h"
#include "lib/files.h"
#include "lib/procmaps.h"

extern char **environ;

struct cmd_state {
    char **argv;     /* the command and its arguments */
    int argc;
    char path[PATH_MAX];   /* the command's file, found before timing */
    int devnull_r, devnull_w;
};

/* In the child: execv of the file; one that is not a program (ENOEXEC) runs
 * under /bin/sh, as execvp would run it. */
static void exec_cmd(const struct cmd_state *st)
{
    execv(st->path, st->argv);
    if (errno == ENOEXEC && st->argc < 254) {
        char *sh[256];
        sh[0] = "sh";
        sh[1] = (char *)st->path;
        for (int i = 1; i <= st->argc; i++)
            sh[i + 1] = st->argv[i];
        execve("/bin/sh", sh, environ);
    }
}

static void run_cmd(uint64_t n, void *s)
{
    struct cmd_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        int ws;
        pid_t pid = fork();
        if (pid < 0)
            lmb_abort_copy("fork: %s", strerror(errno));
        if (pid == 0) {
            if (dup2(st->devnull_r, STDIN_FILENO) < 0 || dup2(st->devnull_w, STDOUT_FILENO) < 0)
                _exit(126);
            exec_cmd(st);
            _exit(127);
        }
        while (waitpid(pid, &ws, 0) < 0)
            if (errno != EINTR)
                lmb_abort_copy("waitpid: %s", strerror(errno));
        if (WIFSIGNALED(ws))
            lmb_abort_copy("the command was killed by signal %d (%s)", WTERMSIG(ws),
                           strsignal(WTERMSIG(ws)));
        if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
            lmb_abort_copy("the command exited with status %d%s", WEXITSTATUS(ws),
                           WEXITSTATUS(ws) == 127 ? " (it could not be run)" : "");
    }
}

static int cmd_init(void *s, char *err, size_t errlen)
{
    struct cmd_state *st = s;
    long long maps = lmb_count_maps();

    if (maps >= 0)
        lmb_copy_fact_int("maps", maps);
    st->devnull_r = open("/dev/null", O_RDONLY | O_CLOEXEC);
    st->devnull_w = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (st->devnull_r < 0 || st->devnull_w < 0) {
        snprintf(err, errlen, "open /dev/null: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void cmd_cleanup(void *s)
{
    struct cmd_state *st = s;

    if (st->devnull_r >= 0)
        close(st->devnull_r);
    if (st->devnull_w >= 0)
        close(st->devnull_w);
    st->devnull_r = st->devnull_w = -1;
}

/* The file execvp would run for name, into out: a path with a slash must be an
 * executable file; a bare name is looked for in PATH. False when there is none. */
static bool find_cmd(const char *name, char *out, size_t outlen)
{
    const char *path;
    char buf[PATH_MAX];
    struct stat sb;

    if (strchr(name, '/') != NULL) {
        if (strlen(name) >= outlen || stat(name, &sb) != 0 || !S_ISREG(sb.st_mode) ||
            access(name, X_OK) != 0)
            return false;
        snprintf(out, outlen, "%s", name);
        return true;
    }
    path = getenv("PATH");
    if (path == NULL || *path == '\0')
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len == 0)
            snprintf(buf, sizeof buf, "./%s", name);
        else
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, name);
        if (strlen(buf) < outlen && stat(buf, &sb) == 0 && S_ISREG(sb.st_mode) &&
            access(buf, X_OK) == 0) {
            snprintf(out, outlen, "%s", buf);
            return true;
        }
        if (end == NULL)
            break;
        path = end + 1;
    }
    return false;
}

static int lat_cmd_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    struct cmd_state st = { .argv = argv, .argc = argc, .devnull_r = -1, .devnull_w = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    char cmd[128], q[300];
    size_t o = 0;

    if (argc < 1)
        return lmb_usage_error(ctx, "which command?");
    if (argv[0][0] == '\0')
        return lmb_usage_error(ctx, "the command is an empty string");

    /* The command line as a parameter, shortened to what a record holds. */
    for (int i = 0; i < argc && o + 1 < sizeof cmd; i++)
        o += (size_t)snprintf(cmd + o, sizeof cmd - o, "%s%s", i ? " " : "", argv[i]);
    lmb_record_init(&rec, ctx->bench->name, "", LMB_UNIT_US);
    lmb_record_param_str(&rec, "command", cmd);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "lat_cmd");

    if (!find_cmd(argv[0], st.path, sizeof st.path))
        return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "cannot run '%s': no such executable%s",
                                     lmb_quote(argv[0], q, sizeof q),
                                     strchr(argv[0], '/') ? "" : " in PATH");

    t = (struct lmb_timed){
        .init = cmd_init,
        .run = run_cmd,
        .cleanup = cmd_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_cmd = {
    .name = "lat_cmd",
    .summary = "Time to run a command to completion",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "command [argument...]",
    .help = "Runs the command (looked up in PATH) again and again, its standard input\n"
            "and output on /dev/null, and prints the microseconds from fork() to its\n"
            "exit. Put -- before a command whose arguments start with '-'.\n",
    .main = lat_cmd_main,
};
