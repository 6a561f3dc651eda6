// SPDX-License-Identifier: MIT
/* lat_sig: the cost of signals.
 *
 * One operation: sigaction() installing a handler (install); the handling of a
 * signal (catch: kill() of SIGUSR1 to oneself and the run of its handler, minus
 * kill(self, 0), lmbench 3's "Signal handler overhead"); a write to a read-only
 * page, the protection fault, the SIGSEGV it raises and the handler's return
 * (prot).
 *
 * catch measures two loops, kill(self, 0) alone and kill(self, SIGUSR1) with
 * its handler, and reports three records: kill0 (the first), catch_raw (the
 * second, nothing subtracted) and catch, each sample of catch_raw minus the
 * smallest kill0 sample (lmb_baseline_low: noise only adds time, so the least
 * disturbed kill0 run is the estimate of what kill() costs). A catch that is
 * not positive is below_resolution with both figures.
 *
 * prot likewise measures kill(self, 0), kill() with its handler and the fault,
 * and reports prot_raw (the whole fault), prot_handler (the signal handler
 * overhead: the smallest kill()+handler sample minus the smallest kill(self, 0)
 * sample) and prot, each prot_raw sample minus that overhead: lmbench 3's
 * "Protection fault", the fault without the handling of a signal.
 *
 * Kept out of the timing: installing the handlers, mapping the page and faulting
 * it in for reading. The fault loop has no loop overhead to remove: the
 * handler resumes the program after the faulting store by moving the program
 * counter past it (x86-64 and AArch64), so an iteration is a store, the fault
 * and the signal delivery and return, and nothing else. Elsewhere the handler leaves by
 * siglongjmp(), whose small cost is then included. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/difference.h"
#include "lib/files.h"
#include "lib/text.h"

enum { USES_FILE = 1 };

struct sig_state {
    const char *file;     /* prot: the file to map, or NULL for anonymous memory */
    char *page;
    size_t pagelen;
    int fd;
    pid_t self;
};

/* What the signal handlers see. A handler cannot be given a pointer, so the
 * little it needs is here: per process, never a result. */
static volatile sig_atomic_t caught;
static char *volatile prot_page;
static size_t prot_pagelen;

/* --- prot: a store that faults, and where to resume after it -------------- */

#if defined(__x86_64__)
#define PROT_SKIP 1
__asm__(".text\n"
        ".p2align 4\n"
        ".globl lmb_prot_touch\n"
        ".hidden lmb_prot_touch\n"
        ".type lmb_prot_touch, @function\n"
        "lmb_prot_touch:\n"
        ".globl lmb_prot_fault\n"
        ".hidden lmb_prot_fault\n"
        "lmb_prot_fault:\n"
        "    movb $1, (%rdi)\n"
        ".globl lmb_prot_resume\n"
        ".hidden lmb_prot_resume\n"
        "lmb_prot_resume:\n"
        "    ret\n"
        ".size lmb_prot_touch, .-lmb_prot_touch\n");
#define PC_OF(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__aarch64__)
#define PROT_SKIP 1
__asm__(".text\n"
        ".p2align 4\n"
        ".globl lmb_prot_touch\n"
        ".hidden lmb_prot_touch\n"
        ".type lmb_prot_touch, %function\n"
        "lmb_prot_touch:\n"
        "    mov w1, #1\n"
        ".globl lmb_prot_fault\n"
        ".hidden lmb_prot_fault\n"
        "lmb_prot_fault:\n"
        "    strb w1, [x0]\n"
        ".globl lmb_prot_resume\n"
        ".hidden lmb_prot_resume\n"
        "lmb_prot_resume:\n"
        "    ret\n"
        ".size lmb_prot_touch, .-lmb_prot_touch\n");
#define PC_OF(uc) ((uc)->uc_mcontext.pc)
#else
#define PROT_SKIP 0
#endif

#if PROT_SKIP
void lmb_prot_touch(volatile char *p);
extern const char lmb_prot_fault[], lmb_prot_resume[];
#else
static sigjmp_buf prot_jump;
#endif

static bool in_prot_page(const void *addr)
{
    const char *a = addr, *p = prot_page;

    return p != NULL && a >= p && a < p + prot_pagelen;
}

static void on_prot(int sig, siginfo_t *si, void *ctx)
{
    if (!in_prot_page(si->si_addr)) {
        /* Not our fault: let it happen again with the default action. */
        signal(sig, SIG_DFL);
        return;
    }
    caught++;
#if PROT_SKIP
    ucontext_t *uc = ctx;
    if ((uintptr_t)PC_OF(uc) != (uintptr_t)lmb_prot_fault) {
        signal(sig, SIG_DFL);
        return;
    }
    PC_OF(uc) = (__typeof__(PC_OF(uc)))(uintptr_t)lmb_prot_resume;
#else
    (void)ctx;
    siglongjmp(prot_jump, 1);
#endif
}

static void on_usr1(int sig)
{
    (void)sig;
    caught++;
}

/* --- the loops -------------------------------------------------------------- */

static void run_install(uint64_t n, void *s)
{
    struct sigaction sa;

    (void)s;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    for (uint64_t i = 0; i < n; i++)
        if (sigaction(SIGUSR1, &sa, NULL) != 0)
            lmb_abort_copy("sigaction: %s", strerror(errno));
}

static void run_catch(uint64_t n, void *s)
{
    struct sig_state *st = s;
    sig_atomic_t before = caught;

    for (uint64_t i = 0; i < n; i++)
        if (kill(st->self, SIGUSR1) != 0)
            lmb_abort_copy("kill: %s", strerror(errno));
    if ((uint64_t)(sig_atomic_t)(caught - before) != (uint64_t)(sig_atomic_t)n)
        lmb_abort_copy("%llu signals sent, %lld handled", (unsigned long long)n,
                       (long long)(caught - before));
}

/* The part of catch that is not the signal: kill() of signal 0 to oneself (the
 * system call and its permission check, no delivery). */
static void run_kill0(uint64_t n, void *s)
{
    struct sig_state *st = s;

    for (uint64_t i = 0; i < n; i++)
        if (kill(st->self, 0) != 0)
            lmb_abort_copy("kill: %s", strerror(errno));
}

#if !PROT_SKIP
/* One write to the protected page; the handler jumps back here. A function of
 * its own, so that no variable of the caller's loop lives across the jump
 * (the compiler cannot keep it in a register the jump clobbers). */
__attribute__((noinline)) static void prot_write(char *page)
{
    if (sigsetjmp(prot_jump, 0) == 0)
        *(volatile char *)page = 1;
}
#endif

static void run_prot(uint64_t n, void *s)
{
    struct sig_state *st = s;
    sig_atomic_t before = caught;

    for (uint64_t i = 0; i < n; i++) {
#if PROT_SKIP
        lmb_prot_touch(st->page);
#else
        prot_write(st->page);
#endif
    }
    if ((uint64_t)(sig_atomic_t)(caught - before) != (uint64_t)(sig_atomic_t)n)
        lmb_abort_copy("%llu writes, %lld protection faults", (unsigned long long)n,
                       (long long)(caught - before));
}

static const struct lmb_variant variants[] = {
    { "install", "sigaction() installing a handler of SIGUSR1", run_install,
      "Signal handler installation", 0 },
    { "catch", "kill() of SIGUSR1 to oneself and the run of its handler, minus kill(self, 0)",
      run_catch, "Signal handler overhead", 0 },
    { "prot", "a write to a read-only page: the fault, SIGSEGV and the handler, minus the "
      "signal handler overhead", run_prot,
      "Protection fault", USES_FILE },
};

static int sig_init(void *s, char *err, size_t errlen)
{
    struct sig_state *st = s;
    struct sigaction sa;

    st->self = getpid();
    st->fd = -1;
    st->page = NULL;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_usr1;
    if (sigaction(SIGUSR1, &sa, NULL) != 0) {
        snprintf(err, errlen, "sigaction: %s", strerror(errno));
        return -1;
    }
    if (st->pagelen == 0)
        return 0;

    /* prot: one read-only page, of the file or anonymous, read once so that the
     * timed faults are protection faults, not the first touch. */
    if (st->file != NULL) {
        st->fd = open(st->file, O_RDONLY | O_CLOEXEC);
        if (st->fd < 0) {
            char q[LMB_QUOTE_BUF];
            snprintf(err, errlen, "open %s: %s", lmb_quote(st->file, q, sizeof q), strerror(errno));
            return -1;
        }
        st->page = mmap(NULL, st->pagelen, PROT_READ, MAP_SHARED, st->fd, 0);
    } else {
        st->page = mmap(NULL, st->pagelen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (st->page == MAP_FAILED) {
        st->page = NULL;
        snprintf(err, errlen, "mmap: %s", strerror(errno));
        return -1;
    }
    caught += *(volatile char *)st->page != 0;
    prot_page = st->page;
    prot_pagelen = st->pagelen;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_prot;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    if (sigaction(SIGSEGV, &sa, NULL) != 0 || sigaction(SIGBUS, &sa, NULL) != 0) {
        snprintf(err, errlen, "sigaction: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void sig_cleanup(void *s)
{
    struct sig_state *st = s;

    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    prot_page = NULL;
    if (st->page != NULL)
        munmap(st->page, st->pagelen);
    if (st->fd >= 0)
        close(st->fd);
    st->page = NULL;
    st->fd = -1;
}

static double identity(double a, double b, void *arg)
{
    (void)b;
    (void)arg;
    return a;
}

/* catch: kill(self, 0), then kill(self, SIGUSR1) and its handler; three
 * records, the last lmbench 3's quantity (the handler: the second minus the
 * first's low estimate). */
static int catch_main(struct lmb_ctx *ctx, struct lmb_timed *t, struct lmb_record *rec)
{
    struct lmb_record kill0_rec, raw_rec;
    struct lmb_result kill0, raw, handler;
    double kill0_ns;

    lmb_record_init(&kill0_rec, ctx->bench->name, "kill0", LMB_UNIT_US);
    kill0_rec.headline = LMB_HEAD_MIN;   /* the figure subtracted */
    kill0_rec.compat = "new: kill(self, 0), the part of catch_raw that catch takes away";
    lmb_record_init(&raw_rec, ctx->bench->name, "catch_raw", LMB_UNIT_US);
    raw_rec.compat = "new: kill() of SIGUSR1 to oneself and its handler, nothing subtracted";

    t->run = run_kill0;
    lmb_measure(ctx, t, &kill0);
    kill0_ns = lmb_baseline_low(&kill0);
    t->run = run_catch;
    if (kill0_ns >= 0) {
        lmb_measure(ctx, t, &raw);
    } else if (!lmb_out_of_time(ctx, &raw)) {
        memset(&raw, 0, sizeof raw);
        lmb_result_set_status(&raw, LMB_FAILED, "not measured: kill(self, 0) could not be");
    }
    if (lmb_result_derive(&handler, &raw, NULL, identity, NULL) == 0)
        lmb_result_subtract(&handler, kill0_ns, "kill() of SIGUSR1 and its handler",
                            "kill(self, 0)",
                            "the handler is not measurably longer than the system call");
    lmb_report_add(&ctx->report, &kill0_rec, &kill0);
    lmb_report_add(&ctx->report, &raw_rec, &raw);
    lmb_report_add(&ctx->report, rec, &handler);
    return LMB_EXIT_OK;
}

/* prot: the whole fault (prot_raw), the signal handler overhead taken away
 * (prot_handler: the smallest kill()+handler sample minus the smallest
 * kill(self, 0) sample, the least disturbed of each), and prot, each prot_raw
 * sample minus that: lmbench 3's "Protection fault". */
static int prot_main(struct lmb_ctx *ctx, struct lmb_timed *t, struct lmb_record *rec)
{
    struct lmb_record raw_rec, handler_rec;
    struct lmb_result kill0, sig, raw, handler, fault;
    double h = -1;

    lmb_record_init(&raw_rec, ctx->bench->name, "prot_raw", LMB_UNIT_US);
    raw_rec.compat = "new: the whole protection fault with its SIGSEGV handler, nothing "
                     "subtracted";
    lmb_record_init(&handler_rec, ctx->bench->name, "prot_handler", LMB_UNIT_US);
    handler_rec.compat = "new: the signal handler overhead that prot takes away (least "
                         "disturbed kill()+handler minus least disturbed kill(self, 0))";
    /* The same parameters (the file) as prot. */
    memcpy(raw_rec.params, rec->params, sizeof rec->params);
    raw_rec.nparams = rec->nparams;
    memcpy(handler_rec.params, rec->params, sizeof rec->params);
    handler_rec.nparams = rec->nparams;

    t->run = run_kill0;
    lmb_measure(ctx, t, &kill0);
    t->run = run_catch;
    lmb_measure(ctx, t, &sig);
    if (lmb_baseline_low(&kill0) >= 0 && lmb_baseline_low(&sig) >= 0)
        h = lmb_baseline_low(&sig) - lmb_baseline_low(&kill0);
    t->run = run_prot;
    lmb_measure(ctx, t, &raw);
    if (h > 0) {
        lmb_result_values(&handler, &h, 1, &sig);
    } else if (!lmb_out_of_time(ctx, &handler)) {
        memset(&handler, 0, sizeof handler);
        lmb_result_set_status(&handler, LMB_FAILED, "%s",
                              kill0.status != LMB_OK ? kill0.reason
                              : sig.status != LMB_OK ? sig.reason
                              : "kill() with a handler was not measurably longer than "
                                "kill(self, 0)");
    }
    if (handler.status != LMB_OK) {
        if (!lmb_out_of_time(ctx, &fault)) {
            memset(&fault, 0, sizeof fault);
            lmb_result_set_status(&fault, LMB_FAILED, "not measured: the signal handler "
                                  "overhead could not be");
        }
    } else if (lmb_result_derive(&fault, &raw, NULL, identity, NULL) == 0) {
        lmb_result_subtract(&fault, h, "a protection fault and its handler",
                            "the signal handler overhead",
                            "the fault is not measurably longer than the handling of a signal");
    }
    lmb_result_free(&kill0);
    lmb_result_free(&sig);
    lmb_report_add(&ctx->report, &raw_rec, &raw);
    lmb_report_add(&ctx->report, &handler_rec, &handler);
    lmb_report_add(&ctx->report, rec, &fault);
    return LMB_EXIT_OK;
}

static int lat_sig_main(struct lmb_ctx *ctx, int argc, char **argv)
{
    const struct lmb_variant *v;
    struct sig_state st = { .fd = -1 };
    struct lmb_record rec;
    struct lmb_result res;
    struct lmb_timed t;
    char q[300], err[600];

    if (argc < 1)
        return lmb_usage_error(ctx, "which signal operation?");
    if (argc > 2)
        return lmb_usage_error(ctx, "too many arguments");
    v = lmb_find_variant(ctx->bench, argv[0]);
    if (v == NULL)
        return lmb_usage_error(ctx, "unknown signal operation '%s'",
                               lmb_quote(argv[0], q, sizeof q));

    lmb_record_init(&rec, ctx->bench->name, v->name, LMB_UNIT_US);
    rec.classic = LMB_CLASSIC_LABEL_US;
    snprintf(rec.label, sizeof rec.label, "%s", v->label);

    if (v->flags & USES_FILE) {
        st.pagelen = (size_t)sysconf(_SC_PAGESIZE);
        if (argc == 2) {
            st.file = argv[1];
            lmb_record_param_str(&rec, "file", argv[1]);
            if (lmb_check_input(argv[1], 1, false, NULL, err, sizeof err) != 0)
                return lmb_report_unmeasured(ctx, &rec, LMB_FAILED, "%s", err);
        }
    } else if (argc == 2) {
        lmb_report_warn(&ctx->report, "%s does not use a file; '%s' ignored", v->name,
                        lmb_quote(argv[1], q, sizeof q));
    }

    t = (struct lmb_timed){
        .init = sig_init,
        .run = v->run,
        .cleanup = sig_cleanup,
        .state = &st,
        .metric = LMB_METRIC_LATENCY,
        .per_iter = 1.0,
    };
    if (v->run == run_catch)
        return catch_main(ctx, &t, &rec);
    if (v->flags & USES_FILE) {
        if (st.file == NULL)
            rec.compat = "differs: a page of anonymous memory (lmbench 3 faulted on a mapping "
                         "of a file)";
        return prot_main(ctx, &t, &rec);
    }
    lmb_measure(ctx, &t, &res);
    lmb_report_add(&ctx->report, &rec, &res);
    return LMB_EXIT_OK;
}

const struct lmb_bench lmb_bench_lat_sig = {
    .name = "lat_sig",
    .summary = "Latency of installing and catching signals and of protection faults",
    .category = LMB_CAT_OS,
    .common = LMB_USE_PWN,
    .args = "{variants} [file]",
    .help = "Times one signal operation in a loop and prints microseconds per operation.\n"
            "catch is the handling of a signal: kill() of SIGUSR1 to oneself with its\n"
            "handler, minus kill(self, 0) (the raw figure and kill(self, 0) are records\n"
            "of their own in the JSON: catch_raw, kill0).\n"
            "prot writes to a read-only page of file (mapped shared), or of anonymous\n"
            "memory without a file; the figure is the fault, the SIGSEGV and its handler\n"
            "minus the signal handler overhead, as lmbench 3's (the whole fault is the\n"
            "JSON record prot_raw).\n",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .main = lat_sig_main,
};
