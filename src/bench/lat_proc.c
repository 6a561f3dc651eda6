// SPDX-License-Identifier: MIT
/* lat_proc: the cost of creating processes.
 *
 * One operation: a procedure call (procedure); fork() of a child that exits at
 * once, and waitpid() for it (fork); the same with the child calling execve() of
 * the hello helper (exec); the same with the child running /bin/sh -c hello
 * (shell). Finding the helper, opening /dev/null for the children's output and
 * building their argument lists happen before timing.
 *
 * Ours, beside those (lmbench 3 has neither): vfork() of a child that calls
 * _exit(0) at once, and waitpid() (vfork: the parent sleeps until the child
 * has exited, no address space is copied); posix_spawn() of the hello helper,
 * its stdout to /dev/null as exec's, and waitpid() (spawn: glibc makes the
 * child with clone(CLONE_VM | CLONE_VFORK), so no page tables are copied
 * either). The file actions of spawn are made in init, before timing.
 *
 * The process that forks is the harness's measuring copy: the lmbench binary,
 * libc and libm (jansson too only where the build found no libjansson.a to link
 * in; libtirpc is loaded by lat_rpc alone), a small heap, the harness's shared
 * pages.
 * Its number of mappings (lines of /proc/self/maps, counted in init) becomes
 * the parameter "maps" of the fork, exec and shell records. A child of fork
 * calls _exit(0) at once. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/text.h"
#include "lib/files.h"
#include "lib/procmaps.h"

extern char **environ;

enum { NEEDS_HELLO = 1, FORKS = 2, NEW = 4, SPAWNS = 8 };

struct proc_state {
    char hello[PATH_MAX];       /* the exec target */
    char shell_cmd[2 * PATH_MAX + 8];
    char *exec_argv[4];
    int devnull;                /* the children's stdout */
    bool forks;                 /* the operation forks: count the mappings */
    bool spawns;                /* spawn: its file actions are set up */
    bool have_actions;
    posix_spawn_file_actions_t actions;   /* spawn: stdout to /dev/null */
    unsigned sink;
};

/* A call the compiler can neither inline nor drop. */
__attribute__((noinline)) static unsigned procedure(unsigned x)
{
    __asm__ __volatile__("" : "+r"(x));
    return x + 1;
}

static void run_procedure(uint64_t n, void *s)
{
    struct proc_state *st = s;
    unsigned x = st->sink;

    for (uint64_t i = 0; i < n; i++)
        x = procedure(x);
    st->sink = x;
}

/* Waits for child pid, which must exit with status 0. */
static void reap(pid_t pid, const char *what)
{
    int ws;

    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR)
            lmb_abort_copy("waitpid: %s", strerror(errno));
    if (WIFSIGNALED(ws))
        lmb_abort_copy("%s: the child was killed by signal %d (%s)", what, WTERMSIG(ws),
                       strsignal(WTERMSIG(ws)));
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        lmb_abort_copy("%s: the child exited with status %d", what, WEXITSTATUS(ws));
}

static void run_fork(uint64_t n, void *s)
{
    (void)s;
    for (uint64_t i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0)
            lmb_abort_copy("fork: %s", strerror(errno));
        if (pid == 0)
            _exit(0);
        reap(pid, "fork");
    }
}

/* fork, then in the child: stdout to /dev/null and execve of argv[0]. */
static void fork_exec(struct proc_state *st, const char *path, char *const argv[], const char *what)
{
    pid_t pid = fork();

    if (pid < 0)
        lmb_abort_copy("fork: %s", strerror(errno));
    if (pid == 0) {
        if (dup2(st->devnull, STDOUT_FILENO) < 0)
            _exit(126);
        execve(path, argv, environ);
        _exit(127);
    }
    reap(pid, what);
}

static void run_exec(uint64_t n, void *s)
{
    struct proc_state *st = s;

    for (uint64_t i = 0; i < n; i++)
        fork_exec(st, st->hello, st->exec_argv, st->hello);
}

static void run_shell(uint64_t n, void *s)
{
    struct proc_state *st = s;
    char *argv[] = { "sh", "-c", st->shell_cmd, NULL };

    for (uint64_t i = 0; i < n; i++)
        fork_exec(st, "/bin/sh", argv, "/bin/sh -c hello");
}

/* vfork() of a child that calls _exit(0), the only thing it may do: in a
 * function of its own, so that no variable of the loop lives across vfork. */
__attribute__((noinline)) static pid_t vfork_exit(void)
{
    pid_t pid = vfork();

    if (pid == 0)
        _exit(0);
    return pid;
}

static void run_vfork(uint64_t n, void *s)
{
    (void)s;
    for (uint64_t i = 0; i < n; i++) {
        pid_t pid = vfork_exit();
        if (pid < 0)
            lmb_abort_copy("vfork: %s", strerror(errno));
        reap(pid, "vfork");
    }
}

static void run_spawn(uint64_t n, void *s)
{
    struct proc_state *st = s;

    for (uint64_t i = 0; i < n; i++) {
        pid_t pid;
        int e = posix_spawn(&pid, st->hello, &st->actions, NULL, st->exec_argv, environ);
        if (e != 0)
            lmb_abort_copy("posix_spawn %s: %s", st->hello, strerror(e));
        reap(pid, st->hello);
    }
}

static const struct lmb_variant variants[] = {
    { "procedure", "a call of a function that does almost nothing", run_procedure,
      "Procedure call", 0 },
    { "fork", "fork() of a child that exits at once, and waitpid() for it", run_fork,
      "Process fork+exit", FORKS },
    { "exec", "fork(), execve() of the hello helper in the child, waitpid()", run_exec,
      "Process fork+execve", NEEDS_HELLO | FORKS },
    { "shell", "fork(), /bin/sh -c hello in the child, waitpid()", run_shell,
      "Process fork+/bin/sh -c", NEEDS_HELLO | FORKS },
    { "vfork", "vfork() of a child that exits at once, and waitpid() for it", run_vfork,
      "Process vfork+exit", FORKS | NEW },
    { "spawn", "posix_spawn() of the hello helper, waitpid()", run_spawn,
      "Process posix_spawn", NEEDS_HELLO | FORKS | NEW | SPAWNS },
};

static int proc_init(void *s, char *err, size_t errlen)
{
    struct proc_state *st = s;
    long long maps = st->forks ? lmb_count_maps() : -1;

    if (maps >= 0)
        lmb_copy_fact_int("maps", maps);
    st->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (st->devnull < 0) {
        snprintf(err, errlen, "open /dev/null: %s", strerror(errno));
        return -1;
    }
    if (st->spawns) {
        int e = posix_spawn_file_actions_init(&st->actions);
        if (e == 0) {
            st->have_actions = true;
            e = posix_spawn_file_actions_adddup2(&st->actions, st->devnull, STDOUT_FILENO);
        }
        if (e != 0) {
            snprintf(err, errlen, "posix_spawn_file_actions: %s", strerror(e));
            return -1;
        }
    }
    return 0;
}

static void proc_cleanup(void *s)
{
    struct proc_state *st = s;

    if (st->have_actions)
        posix_spawn_file_actions_destroy(&st->actions);
    st->have_actions = false;
    if (st->devnull >= 0)
        close(st->devnull);
    st->devnull = -1;
}

/* The hello helper: beside the binary (the build tree keeps it in
 * ../libexec/lmbench, an installation in $(PREFIX)/libexec/lmbench). Writes
 * where it looked to err when it is not found. */
static int find_hello(char *out, size_t len, char *err, size_t errlen)
{
    char exe[PATH_MAX], *slash;
    const char *const rel[] = { "hello", "../libexec/lmbench/hello" };
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    size_t o = 0;

    if (n <= 0) {
        snprintf(err, errlen, "cannot find the hello helper: readlink /proc/self/exe: %s",
                 n < 0 ? strerror(errno) : "empty");
        return -1;
    }
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (slash == NULL) {
        snprintf(err, errlen, "cannot find the hello helper: odd executable path '%s'", exe);
        return -1;
    }
    *slash = '\0';
    o = (size_t)snprintf(err, errlen, "cannot find the hello helper (an executable file):");
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char cand[2 * PATH_MAX], real[PATH_MAX];
        snprintf(cand, sizeof cand, "%s/%s", exe, rel[i]);
        if (realpath(cand, real) != NULL && access(real, X_OK) == 0) {
            int fd = open(real, O_RDONLY | O_CLOEXEC);
            int64_t sz = fd >= 0 ? lmb_fd_size(fd) : -1;
            if (fd >= 0)
                close(fd);
            if (sz > 0 && strlen(real) < len) {
                snprintf(out, len, "%s", real);
                return 0;
            }
        }
        if (o < errlen)
            o += (size_t)snprintf(err + o, errlen - o, "%s %s", i ? " nor" : " not", cand);
    }
    return -1;
}

static int lat_proc_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v;
    struct proc_state st = { .devnull = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    char err[PATH_MAX * 2 + 200], q[300];

    if (argc < 1)
        return lmb_usage_error(ctx, "which operation?");
    if (argc > 1)
        return lmb_usage_error(ctx, "too many arguments");
    v = lmb_find_variant(ctx->bench, argv[0]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown operation '%s'", lmb_quote(argv[0], q, sizeof q));

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "%s", v->label);
    st.forks = (v->flags & FORKS) != 0;
    st.spawns = (v->flags & SPAWNS) != 0;
    if (v->flags & NEW)
        rec.compat = "new: lmbench 3 has no vfork or posix_spawn case";

    if (v->flags & NEEDS_HELLO) {
        if (find_hello(st.hello, sizeof st.hello, err, sizeof err) != 0)
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
        st.exec_argv[0] = "hello";
        st.exec_argv[1] = NULL;
        if (lmb_shell_quote(st.hello, st.shell_cmd, sizeof st.shell_cmd) != 0)
            return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "the hello helper's path is too "
                                         "long for a shell command");
    }

    t = (struct lmb_timed){
        .init = proc_init,
        .run = v->run,
        .cleanup = proc_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_proc = {
    .name = "lat_proc",
    .summary = "Latency of procedure calls and of creating processes",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "{variants}",
    .help = "Times one operation in a loop and prints microseconds per operation. exec\n"
            "and shell run the hello helper installed beside lmbench (in\n"
            "libexec/lmbench); its output goes to /dev/null. Ours: vfork (vfork() and\n"
            "_exit(0)) and spawn (posix_spawn() of the hello helper), beside fork and\n"
            "exec.\n",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_proc_main,
};
