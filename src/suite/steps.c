// SPDX-License-Identifier: MIT
/* The table of `lmbench run`'s steps and its expansion into a plan: one entry
 * per lmbench 3 benchmark invocation (or sweep of invocations), in the order of
 * lmbench 3's results file, with the profiles it belongs to and its arguments.
 * Tokens in the arguments: $MB (the memory size in MiB), $FSZ (the file size in
 * MiB), $FILE (the scratch file in FSDIR), $LABEL (lmdd's label naming it),
 * $FSDIR, $HOST (localhost or a remote host), $PEER ("-l" locally: the other
 * end as the harness's partner; a remote host's name), $X (the value of the
 * entry's sweep). */
#include "steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/report.h"
#include "lib/sched.h"
#include "lib/sizes.h"
#include "registry.h"

enum { Q = 1, D = 2, F = 4, ALLP = Q | D | F };

enum sweep {
    SW_NONE,
    SW_MEM,        /* bw_mem sizes */
    SW_MEM_AUX,    /* bw_mem sizes of the operations the summary does not show: in
                      the default profile at most 64 MiB, to keep it short */
    SW_FILE,       /* bw_file_rd, bw_mmap_rd sizes */
    SW_MMAP,       /* lat_mmap sizes */
    SW_SELECT,     /* lat_select -n */
    SW_CTX,        /* lat_ctx -s SIZE procs... */
    SW_TCP,        /* bw_tcp -m */
};

struct entry {
    unsigned profiles;
    const char *group;
    const char *before;        /* section line before the (first) step */
    bool blank_after;          /* blank line after the (last) step */
    const char *args;          /* command and arguments, blank-separated */
    enum sweep sweep;
    const char *header_key;
    bool server;
    double weight;             /* seconds, for the ETA: see est_seconds */
    bool placements;           /* two-ended: measured with both ends on one CPU and on
                                  two (when the run leaves placement to the suite) */
};

#define HW "hardware"
#define OS "os"
#define NET "network"

static const struct entry table[] = {
    /* The header's MHZ and LINE_SIZE lines come from these two. */
    { ALLP, HW, NULL, false, "mhz", SW_NONE, "MHZ", false, 3.92, false },
    { ALLP, HW, NULL, false, "line", SW_NONE, "LINE_SIZE", false, 1.34, false },
    { ALLP, OS, NULL, false, "lat_syscall null", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_syscall read", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_syscall write", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_syscall stat", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_syscall fstat", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_syscall open", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_select -n $X file", SW_SELECT, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_select -n $X tcp", SW_SELECT, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_sig install", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_sig catch", SW_NONE, NULL, false, 0.11, false },
    { ALLP, OS, NULL, false, "lat_pipe", SW_NONE, NULL, false, 0.11, true },
    { ALLP, OS, NULL, false, "lat_unix", SW_NONE, NULL, false, 0.11, true },
    { ALLP, OS, NULL, false, "lat_proc fork", SW_NONE, NULL, false, 0.22, false },
    { ALLP, OS, NULL, false, "lat_proc exec", SW_NONE, NULL, false, 0.22, false },
    { ALLP, OS, NULL, false, "lat_proc shell", SW_NONE, NULL, false, 0.34, false },
    { ALLP, HW, NULL, false, "lat_ops", SW_NONE, NULL, false, 1.12, false },
    { D | F, HW, NULL, false, "par_ops", SW_NONE, NULL, false, 1.68, false },
    /* Makes $FILE, which the file and mapping benchmarks read. */
    { ALLP, OS, NULL, false, "lmdd label=$LABEL of=$FILE move=$FSZm fsync=1 print=3",
      SW_NONE, NULL, false, 0.56, false },
    /* A protection fault on a mapping of $FILE, as lmbench 3 measured it (so
     * after lmdd, which makes the file). */
    { ALLP, OS, NULL, false, "lat_sig prot $FILE", SW_NONE, NULL, false, 0.22, false },
    { ALLP, OS, NULL, false, "lat_pagefault $FILE", SW_NONE, NULL, false, 1.34, false },
    { ALLP, OS, "\"mappings", true, "lat_mmap $X $FILE", SW_MMAP, NULL, false, 0.17, false },
    { Q | F, OS, "\"File system latency", true, "lat_fs $FSDIR", SW_NONE, NULL, false, 8.96, false },
    /* The default profile: one size a step, so that the sizes the summary shows
     * (0k, 10k) have their launches and 1k and 4k one. */
    { D, OS, "\"File system latency", false, "lat_fs -s 0k $FSDIR", SW_NONE, NULL, false, 1.12, false },
    { D, OS, NULL, false, "lat_fs -s 1k $FSDIR", SW_NONE, NULL, false, 2.02, false },
    { D, OS, NULL, false, "lat_fs -s 4k $FSDIR", SW_NONE, NULL, false, 2.24, false },
    { D, OS, NULL, true, "lat_fs -s 10k $FSDIR", SW_NONE, NULL, false, 4.48, false },
    /* $PEER: "-l" on this machine (no server: the harness starts the other end
     * as a partner and places both), the host's name against a remote host
     * (its server started there over ssh). */
    { ALLP, NET, NULL, false, "lat_udp $PEER", SW_NONE, NULL, true, 0.17, true },
    { ALLP, NET, NULL, false, "lat_tcp $PEER", SW_NONE, NULL, true, 0.17, true },
    { ALLP, NET, NULL, false, "lat_rpc $HOST", SW_NONE, NULL, true, 0.67, false },
    { ALLP, NET, NULL, false, "lat_connect $PEER", SW_NONE, NULL, true, 0.17, true },
    { ALLP, NET, "Socket bandwidth using $HOST", true, "bw_tcp -m $X $PEER", SW_TCP, NULL, true, 0.17,
      true },
    { ALLP, OS, NULL, false, "bw_unix", SW_NONE, NULL, false, 0.17, true },
    { ALLP, OS, NULL, false, "bw_pipe", SW_NONE, NULL, false, 0.17, true },
    { ALLP, OS, "\"read bandwidth", true, "bw_file_rd $X io_only $FILE",
      SW_FILE, NULL, false, 0.11, false },
    { D | F, OS, "\"read open2close bandwidth", true, "bw_file_rd $X open2close $FILE", SW_FILE,
      NULL, false, 0.11, false },
    { ALLP, OS, "\"Mmap read bandwidth", true, "bw_mmap_rd $X mmap_only $FILE", SW_FILE, NULL,
      false, 0.11, false },
    { D | F, OS, "\"Mmap read open2close bandwidth", true, "bw_mmap_rd $X open2close $FILE",
      SW_FILE, NULL, false, 0.11, false },
    { ALLP, HW, "\"libc bcopy unaligned", true, "bw_mem $X bcopy", SW_MEM, NULL, false, 0.11, false },
    { D | F, HW, "\"libc bcopy aligned", true, "bw_mem $X bcopy conflict",
      SW_MEM_AUX, NULL, false, 0.11, false },
    { D | F, HW, "Memory bzero bandwidth", true, "bw_mem $X bzero",
      SW_MEM_AUX, NULL, false, 0.11, false },
    { ALLP, HW, "\"unrolled bcopy unaligned", true, "bw_mem $X fcp",
      SW_MEM, NULL, false, 0.11, false },
    { D | F, HW, "\"unrolled partial bcopy unaligned", true, "bw_mem $X cp",
      SW_MEM_AUX, NULL, false, 0.11, false },
    { ALLP, HW, "Memory read bandwidth", true, "bw_mem $X frd", SW_MEM, NULL, false, 0.11, false },
    { D | F, HW, "Memory partial read bandwidth", true, "bw_mem $X rd",
      SW_MEM_AUX, NULL, false, 0.11, false },
    { ALLP, HW, "Memory write bandwidth", true, "bw_mem $X fwr", SW_MEM, NULL, false, 0.11, false },
    { D | F, HW, "Memory partial write bandwidth", true, "bw_mem $X wr",
      SW_MEM_AUX, NULL, false, 0.11, false },
    { D | F, HW, "Memory partial read/write bandwidth", true, "bw_mem $X rdwr", SW_MEM_AUX, NULL,
      false, 0.11, false },
    /* lmbench 3's report script ends the context-switch blocks and the tlb
     * line at a blank line: without it the next section is read into them. */
    { ALLP, OS, NULL, true, "lat_ctx -s $X", SW_CTX, NULL, false, 1.12, true },
    { ALLP, HW, NULL, true, "tlb", SW_NONE, NULL, false, 6.72, false },
    { ALLP, HW, "Memory load parallelism", true, "par_mem -M $MBm", SW_NONE, NULL, false, 13.44, false },
    { D | F, HW, NULL, false, "stream", SW_NONE, NULL, false, 4.48, false },
    { D | F, HW, NULL, false, "stream -v 2", SW_NONE, NULL, false, 3.92, false },
    { Q, HW, "Memory load latency", false, "lat_mem_rd $MB 128", SW_NONE, NULL, false, 5.6, false },
    /* The default profile's curves: lmbench 3's sizes up to 8 MiB, then two per
     * doubling (-c), each point measured as in the full sweep. */
    { D, HW, "Memory load latency", false, "lat_mem_rd -c 8m $MB 128", SW_NONE, NULL, false, 8.96, false },
    { F, HW, "Memory load latency", false, "lat_mem_rd $MB 16 32 64 128 256 512 1024", SW_NONE,
      NULL, false, 67.2, false },
    /* Rand mem is the random chase at stride 16 (lmbench 3's report takes the
     * "stride=16 block after this line). */
    { Q | F, HW, "Random load latency", false, "lat_mem_rd -t $MB 16",
      SW_NONE, NULL, false, 6.72, false },
    { D, HW, "Random load latency", false, "lat_mem_rd -c 8m -t $MB 16",
      SW_NONE, NULL, false, 6.72, false },
    /* Beyond lmbench 3's results file: the other benchmarks of its suite. */
    { F, OS, NULL, false, "lat_fifo", SW_NONE, NULL, false, 0.11, true },
    { F, OS, NULL, false, "lat_sem", SW_NONE, NULL, false, 0.11, true },
    { F, OS, NULL, false, "lat_fcntl", SW_NONE, NULL, false, 0.11, true },
    { F, HW, NULL, false, "cache -M $MBm", SW_NONE, NULL, false, 16.8, false },
    /* Beyond lmbench 3's suite: the modern kernel primitives (each command's
     * cases, thread and process partners), core-to-core (every pair in full,
     * the representative set above 8 CPUs otherwise), NUMA (one local pair on
     * one node), latency under load, and huge pages (the random curve again
     * on transparent huge pages, beside the 4 KiB one above). */
    { D | F, OS, NULL, false, "lat_futex", SW_NONE, NULL, false, 0.22, true },
    { D | F, OS, NULL, false, "lat_eventfd", SW_NONE, NULL, false, 0.22, true },
    { D | F, OS, NULL, false, "lat_pthread", SW_NONE, NULL, false, 0.34, true },
    { D | F, OS, NULL, false, "lat_epoll", SW_NONE, NULL, false, 0.11, false },
    { D | F, OS, NULL, false, "lat_io_uring nop", SW_NONE, NULL, false, 0.11, false },
    { D | F, OS, NULL, false, "lat_io_uring read $FSDIR", SW_NONE, NULL, false, 0.11, false },
    { D | F, OS, NULL, false, "lat_proc vfork", SW_NONE, NULL, false, 0.22, false },
    { D | F, OS, NULL, false, "lat_proc spawn", SW_NONE, NULL, false, 0.22, false },
    { D | F, OS, NULL, false, "lat_mprotect mprotect", SW_NONE, NULL, false, 0.11, false },
    { D | F, OS, NULL, false, "lat_mprotect madvise", SW_NONE, NULL, false, 0.11, false },
    { D, HW, NULL, false, "lat_c2c", SW_NONE, NULL, false, 0.22, false },
    { F, HW, NULL, false, "lat_c2c -a cas", SW_NONE, NULL, false, 0.22, false },
    { F, HW, NULL, false, "lat_c2c -a store", SW_NONE, NULL, false, 0.22, false },
    { D | F, HW, NULL, false, "lat_numa -s $MBm", SW_NONE, NULL, false, 1.12, false },
    { D | F, HW, NULL, false, "bw_numa -s $MBm", SW_NONE, NULL, false, 1.12, false },
    { D | F, HW, NULL, false, "lat_loaded -s $MBm", SW_NONE, NULL, false, 1.12, false },
    { D, HW, NULL, false, "lat_mem_rd -c 8m -t --pages thp $MB 16", SW_NONE, NULL, false, 6.72,
      false },
    { F, HW, NULL, false, "lat_mem_rd -t --pages thp $MB 16", SW_NONE, NULL, false, 6.72, false },
};

/* The estimates of the steps' durations, for the ETA (progress.c). An entry's
 * weight is the seconds one launch of one of its steps takes in the default
 * profile (-N 3, ENOUGH automatic: 5 ms intervals on a usual clock) on an
 * idle two-CPU VM, at its sweep's smallest value; the memory or file a step
 * measures adds its cost per MiB (size_cost); the timed part (EST_TIMED of the
 * whole) scales with -N and ENOUGH. Set from run.steps[].elapsed_s of
 * default runs on a two-CPU VM (AMD EPYC) at load 1 to 4 (266 s and
 * 303 s; these add up to 251 s) and of quick runs. */
#define EST_ENOUGH_US 5000.0
#define EST_N 3.0
#define EST_TIMED 0.4

static const struct {
    const char *prefix;        /* the entry's args start so */
    double per_mib;            /* seconds per MiB measured */
} size_cost[] = {
    { "bw_mem ", 0.0065 },     { "bw_file_rd ", 0.0032 }, { "bw_mmap_rd ", 0.0032 },
    { "lat_mmap ", 0.0025 },   { "lmdd ", 0.011 },       { "lat_mem_rd ", 0.0032 },
    { "par_mem ", 0.0032 },    { "cache ", 0.011 },
};

/* MiB of a size argument ("4k", "8m", "512"), 0 when it is none. */
static double size_mib(const char *x)
{
    uint64_t b;
    char err[80];

    if (x == NULL || *x == '\0' || lmb_parse_size(x, &b, err, sizeof err) != 0)
        return 0;
    return (double)b / (1 << 20);
}

/* Seconds one launch of the step of entry e with sweep value x takes. */
static double est_seconds(const struct entry *e, const struct lmb_plan *p, const char *x,
                          unsigned long long fsz)
{
    double s = e->weight, mib = 0, per = 0, enough = EST_ENOUGH_US, v;
    char *end;

    switch (e->sweep) {
    case SW_MEM:
    case SW_MEM_AUX:
    case SW_FILE:
    case SW_MMAP:
        mib = size_mib(x);
        break;
    case SW_CTX: {
        /* Its points: the process counts after the size. */
        size_t words = 0;
        for (const char *q = x; *q; q++)
            words += *q != ' ' && (q == x || q[-1] == ' ');
        s *= words > 1 ? (double)(words - 1) / 4 : 1;
        break;
    }
    default:
        mib = strstr(e->args, "$MB") ? (double)p->mb : strstr(e->args, "$FSZ") ? (double)fsz : 0;
        break;
    }
    for (size_t i = 0; i < sizeof size_cost / sizeof size_cost[0]; i++)
        if (strncmp(e->args, size_cost[i].prefix, strlen(size_cost[i].prefix)) == 0)
            per = size_cost[i].per_mib;
    if (p->enough[0] && (v = strtod(p->enough, &end)) > 0 && *end == '\0')
        enough = v;
    s *= (1 - EST_TIMED) + EST_TIMED * (p->repetitions / EST_N) * (enough / EST_ENOUGH_US);
    return s + per * mib * (p->repetitions / EST_N);
}

static unsigned profile_bit(const char *p)
{
    return strcmp(p, "quick") == 0 ? Q : strcmp(p, "full") == 0 ? F : D;
}

/* Sizes from `from` bytes, `step` times larger each, below top MiB, then top
 * MiB itself: "512", "4k", "1m" ... into v[]. Returns the count. */
static size_t size_list(unsigned long long from, unsigned long long step, unsigned long long top,
                        char v[][64], size_t max)
{
    size_t n = 0;

    for (unsigned long long b = from; b < top << 20 && n + 1 < max; b *= step) {
        if (b < 1024)
            snprintf(v[n++], 64, "%llu", b);
        else if (b < 1 << 20)
            snprintf(v[n++], 64, "%lluk", b >> 10);
        else
            snprintf(v[n++], 64, "%llum", b >> 20);
    }
    snprintf(v[n++], 64, "%llum", top);
    return n;
}

/* The values of a sweep for a profile, as strings, into v[]. */
static size_t sweep_values(enum sweep s, unsigned prof, unsigned long long mb,
                           unsigned long long fsz, char v[][64], size_t max)
{
    size_t n = 0;

#define PUT(...) do { if (n < max) snprintf(v[n++], 64, __VA_ARGS__); } while (0)
    switch (s) {
    case SW_NONE:
        PUT("%s", "");
        break;
    case SW_MEM_AUX:
        if (prof == D && mb > 64) {
            n = size_list(1024, 4, 64, v, max);
            break;
        }
        /* fall through */
    case SW_MEM:
        if (prof == Q) {
            if (4 < mb * 1024)
                PUT("4k");
            if (256 < mb * 1024)
                PUT("256k");
            if (8 < mb)
                PUT("8m");
            PUT("%llum", mb);
        } else {
            /* default: every 4x from 1k; full: every 2x from 512 bytes, as lmbench 3. */
            n = size_list(prof == F ? 512 : 1024, prof == F ? 2 : 4, mb, v, max);
        }
        break;
    case SW_FILE:
    case SW_MMAP:
        if (prof == Q) {
            PUT("%llum", fsz);
        } else {
            n = size_list(s == SW_MMAP ? 512 << 10 : prof == F ? 512 : 4096, prof == F ? 2 : 4,
                          fsz, v, max);
        }
        break;
    case SW_SELECT:
        if (prof == Q) {
            PUT("100");
        } else if (prof == D) {
            PUT("10");
            PUT("100");
        } else {
            PUT("10");
            PUT("100");
            PUT("250");
            PUT("500");
        }
        break;
    case SW_CTX:
        if (prof == F) {
            static const int sz[] = { 0, 4, 8, 16, 32, 64 };
            for (size_t i = 0; i < 6; i++)
                PUT("%d 2 4 8 16 24 32 64 96", sz[i]);
        } else {
            static const int sz[] = { 0, 16, 64 };
            for (size_t i = 0; i < 3; i++)
                PUT(prof == Q ? "%d 2 8 16" : "%d 2 4 8 16", sz[i]);
        }
        break;
    case SW_TCP:
        if (prof == Q) {
            PUT("1m");
        } else if (prof == D) {
            PUT("64");
            PUT("1k");
            PUT("64k");
            PUT("10m");
        } else {
            static const char *const m[] = { "1", "64", "128", "256", "512", "1k", "1437", "10m" };
            for (size_t i = 0; i < 8; i++)
                PUT("%s", m[i]);
        }
        break;
    }
#undef PUT
    return n;
}

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (p == NULL) {
        fputs("lmbench run: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Replaces the tokens of one word. */
static void expand_word(const char *w, char *out, size_t len, const struct lmb_plan *p,
                        const struct lmb_sconf *c, unsigned long long fsz, const char *x,
                        const char *host)
{
    size_t o = 0;

    char label[1300];

    while (*w && o + 1 < len) {
        const char *val = NULL;
        char num[32];
        size_t skip = 0;
        if (*w == '$') {
            if (strncmp(w, "$MB", 3) == 0) {
                snprintf(num, sizeof num, "%llu", p->mb);
                val = num;
                skip = 3;
            } else if (strncmp(w, "$FSZ", 4) == 0) {
                snprintf(num, sizeof num, "%llu", fsz);
                val = num;
                skip = 4;
            } else if (strncmp(w, "$LABEL", 6) == 0) {
                /* lmdd's label, as lmbench 3 wrote it. */
                snprintf(label, sizeof label, "File %s write bandwidth: ", p->file);
                val = label;
                skip = 6;
            } else if (strncmp(w, "$FILE", 5) == 0) {
                val = p->file;
                skip = 5;
            } else if (strncmp(w, "$FSDIR", 6) == 0) {
                val = c->fsdir;
                skip = 6;
            } else if (strncmp(w, "$HOST", 5) == 0) {
                val = host;
                skip = 5;
            } else if (strncmp(w, "$PEER", 5) == 0) {
                val = host != NULL && strcmp(host, "localhost") == 0 ? "-l" : host;
                skip = 5;
            } else if (strncmp(w, "$X", 2) == 0) {
                val = x;
                skip = 2;
            }
        }
        if (val != NULL) {
            o += (size_t)snprintf(out + o, len - o, "%s", val);
            if (o >= len)
                o = len - 1;
            w += skip;
        } else {
            out[o++] = *w;
            w++;
        }
    }
    out[o] = '\0';
}

static struct lmb_step *new_step(struct lmb_plan *p)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        struct lmb_step *v = realloc(p->v, cap * sizeof *v);
        if (v == NULL)
            return NULL;
        p->v = v;
        p->cap = cap;
    }
    memset(&p->v[p->n], 0, sizeof p->v[0]);
    return &p->v[p->n++];
}

/* Which steps of an entry feed a cell of the summary page (summary.c looks
 * them up): all its steps, only its largest size (the last of its sweep), or
 * the step of one sweep value. */
enum feeds { FEEDS_NONE, FEEDS_ALL, FEEDS_LAST, FEEDS_VALUE };

static const struct {
    const char *args;          /* the entry's args */
    enum feeds how;
    const char *value;         /* FEEDS_VALUE: the sweep value */
} cell_feeds[] = {
    { "mhz", FEEDS_ALL, NULL },
    { "line", FEEDS_ALL, NULL },
    { "lat_syscall null", FEEDS_ALL, NULL },
    { "lat_syscall read", FEEDS_ALL, NULL },
    { "lat_syscall write", FEEDS_ALL, NULL },
    { "lat_syscall stat", FEEDS_ALL, NULL },
    { "lat_syscall open", FEEDS_ALL, NULL },
    { "lat_select -n $X file", FEEDS_VALUE, "100" },
    { "lat_select -n $X tcp", FEEDS_VALUE, "100" },
    { "lat_sig install", FEEDS_ALL, NULL },
    { "lat_sig catch", FEEDS_ALL, NULL },
    { "lat_sig prot $FILE", FEEDS_ALL, NULL },
    { "lat_pipe", FEEDS_ALL, NULL },
    { "lat_unix", FEEDS_ALL, NULL },
    { "lat_proc fork", FEEDS_ALL, NULL },
    { "lat_proc exec", FEEDS_ALL, NULL },
    { "lat_proc shell", FEEDS_ALL, NULL },
    { "lat_ops", FEEDS_ALL, NULL },
    { "lat_pagefault $FILE", FEEDS_ALL, NULL },
    { "lat_mmap $X $FILE", FEEDS_LAST, NULL },
    { "lat_fs $FSDIR", FEEDS_ALL, NULL },
    { "lat_fs -s 0k $FSDIR", FEEDS_ALL, NULL },
    { "lat_fs -s 10k $FSDIR", FEEDS_ALL, NULL },
    { "lat_udp $PEER", FEEDS_ALL, NULL },
    { "lat_tcp $PEER", FEEDS_ALL, NULL },
    { "lat_rpc $HOST", FEEDS_ALL, NULL },
    { "lat_connect $PEER", FEEDS_ALL, NULL },
    { "bw_tcp -m $X $PEER", FEEDS_LAST, NULL },
    { "bw_unix", FEEDS_ALL, NULL },
    { "bw_pipe", FEEDS_ALL, NULL },
    { "bw_file_rd $X io_only $FILE", FEEDS_LAST, NULL },
    { "bw_mmap_rd $X mmap_only $FILE", FEEDS_LAST, NULL },
    { "bw_mem $X bcopy", FEEDS_LAST, NULL },
    { "bw_mem $X fcp", FEEDS_LAST, NULL },
    { "bw_mem $X frd", FEEDS_LAST, NULL },
    { "bw_mem $X fwr", FEEDS_LAST, NULL },
    { "lat_ctx -s $X", FEEDS_ALL, NULL },
    { "tlb", FEEDS_ALL, NULL },
    { "par_mem -M $MBm", FEEDS_ALL, NULL },
    { "lat_mem_rd $MB 128", FEEDS_ALL, NULL },
    { "lat_mem_rd $MB 16 32 64 128 256 512 1024", FEEDS_ALL, NULL },
    { "lat_mem_rd -t $MB 16", FEEDS_ALL, NULL },
    { "lat_mem_rd -c 8m $MB 128", FEEDS_ALL, NULL },
    { "lat_mem_rd -c 8m -t $MB 16", FEEDS_ALL, NULL },
};

/* Whether the step of sweep value k (of nv) of entry e feeds a summary cell. */
static bool feeds_cell(const struct entry *e, size_t k, size_t nv, const char *value)
{
    for (size_t i = 0; i < sizeof cell_feeds / sizeof cell_feeds[0]; i++) {
        if (strcmp(cell_feeds[i].args, e->args) != 0)
            continue;
        switch (cell_feeds[i].how) {
        case FEEDS_ALL:
            return true;
        case FEEDS_LAST:
            return k + 1 == nv;
        case FEEDS_VALUE:
            return strcmp(value, cell_feeds[i].value) == 0;
        case FEEDS_NONE:
            return false;
        }
    }
    return false;
}

static void add_common(struct lmb_step *s, const struct lmb_bench *b, const struct lmb_sconf *c,
                       const struct lmb_plan *p)
{
    char num[32];

    /* Common options go right after the command name. */
    if (b == NULL)
        return;
#ifdef LMB_NO_LAUNCHES
    if (s->launches > 1 && !(b->common & LMB_NO_LAUNCHES) && s->argc + 2 < LMB_STEP_MAX_ARGS) {
        snprintf(num, sizeof num, "%u", s->launches);
        s->argv[s->argc++] = xstrdup("--launches");
        s->argv[s->argc++] = xstrdup(num);
    } else {
        s->launches = 1;
    }
#else
    s->launches = 1;   /* a harness without --launches */
#endif
    if ((b->common & LMB_USE_N) && s->argc + 2 < LMB_STEP_MAX_ARGS) {
        snprintf(num, sizeof num, "%u", p->repetitions);
        s->argv[s->argc++] = xstrdup("-N");
        s->argv[s->argc++] = xstrdup(num);
    }
    if ((b->common & LMB_USE_P) && c->parallel > 1 && !s->server &&
        s->argc + 2 < LMB_STEP_MAX_ARGS) {
        snprintf(num, sizeof num, "%u", c->parallel);
        s->argv[s->argc++] = xstrdup("-P");
        s->argv[s->argc++] = xstrdup(num);
    }
    if (c->cpus[0] && s->argc + 2 < LMB_STEP_MAX_ARGS) {
        s->argv[s->argc++] = xstrdup("--cpus");
        s->argv[s->argc++] = xstrdup(c->cpus);
    }
}

/* How many placements a two-ended entry is measured in, here: both ends on
 * one CPU and on two different CPUs when the run leaves placement to the suite
 * (LMBENCH_SCHED DEFAULT) and at least two CPUs may be used; else once, as the
 * run says. Remote measurements have no partner to place. */
static int placements_of(const struct entry *e, const struct lmb_sconf *c, bool remote)
{
    struct lmb_sched sc;
    char why[200];

    if (!e->placements || remote || strcasecmp(c->sched, "DEFAULT") != 0)
        return 1;
    if (lmb_sched_setup(&sc, NULL, c->cpus[0] ? c->cpus : NULL, why, sizeof why) != 0)
        return 1;
    return sc.ncpus >= 2 ? 2 : 1;
}

static void add_entry(struct lmb_plan *p, const struct entry *e, const struct lmb_sconf *c,
                      unsigned prof, unsigned long long fsz, const char *host, bool remote)
{
    static const char *const sched_of[] = { "SINGLE", "UNIQUE" };
    static const char *const where[] = { " [one CPU]", " [two CPUs]" };
    char vals[64][64], words[LMB_STEP_MAX_ARGS][1200], cmd[64];
    size_t nv = sweep_values(e->sweep, prof, p->mb, fsz, vals, 64), nw = 0;
    const char *a = e->args;
    const struct lmb_bench *b;
    int npl = placements_of(e, c, remote);
    const char *at = remote ? strrchr(host, '@') : NULL;
    const char *target = at ? at + 1 : host;   /* what the client connects to */
    bool peer_local = strstr(a, "$PEER") != NULL && !remote;

    sscanf(a, "%63s", cmd);
    b = lmb_find_bench(cmd);
    for (size_t k = 0; k < nv; k++)
    for (int pl = 0; pl < npl; pl++) {
        struct lmb_step *s = new_step(p);
        char expanded[1024], *tok, *save = NULL;
        size_t o = 0;

        if (s == NULL)
            return;
        s->group = e->group;
        s->header_key = e->header_key;
        s->server = e->server && !peer_local;   /* -l needs no server */
        s->host = host;
        s->remote = remote;
        s->weight = est_seconds(e, p, vals[k], fsz);
        s->launches = feeds_cell(e, k, nv, vals[k]) ? p->launches : 1;
        if (e->placements && !remote && strcasecmp(c->sched, "DEFAULT") == 0) {
            /* One CPU even when only one may be used: the figure is then one. */
            s->sched = sched_of[pl];
            s->json_only = pl == 1;
        }
        /* Expand word by word; a sweep value of several words (lat_ctx) splits. */
        nw = 0;
        snprintf(expanded, sizeof expanded, "%s", a);
        for (tok = strtok_r(expanded, " ", &save); tok && nw < LMB_STEP_MAX_ARGS;
             tok = strtok_r(NULL, " ", &save)) {
            char w[1200];
            expand_word(tok, w, sizeof w, p, c, fsz, vals[k], target);
            if (strcmp(tok, "$X") == 0) {
                char *t2, *s2 = NULL;
                for (t2 = strtok_r(w, " ", &s2); t2 && nw < LMB_STEP_MAX_ARGS;
                     t2 = strtok_r(NULL, " ", &s2))
                    snprintf(words[nw++], sizeof words[0], "%s", t2);
            } else {
                snprintf(words[nw++], sizeof words[0], "%s", w);
            }
        }
        s->argv[s->argc++] = xstrdup(words[0]);
        s->bench = s->argv[0];
        add_common(s, b, c, p);
        s->weight *= s->launches;
        for (size_t i = 1; i < nw && s->argc + 1 < LMB_STEP_MAX_ARGS; i++) {
            s->argv[s->argc++] = xstrdup(words[i]);
        }
        s->argv[s->argc] = NULL;
        /* The name shows the scratch file as $FILE: it is the same from run to run. */
        for (int i = 0; i < s->argc && o < sizeof s->name; i++) {
            const char *w = s->argv[i], *f = p->file[0] ? strstr(w, p->file) : NULL;
            if (f != NULL)
                o += (size_t)snprintf(s->name + o, sizeof s->name - o, "%s%.*s$FILE%s",
                                      i ? " " : "", (int)(f - w), w, f + strlen(p->file));
            else
                o += (size_t)snprintf(s->name + o, sizeof s->name - o, "%s%s", i ? " " : "", w);
        }
        if (s->sched != NULL && o < sizeof s->name)
            snprintf(s->name + o, sizeof s->name - o, "%s", where[pl]);
        if (k == 0 && pl == 0 && e->before) {
            /* The section line, with its host for the socket bandwidth section. */
            static char sections[8][160];
            static int ns;
            if (strstr(e->before, "$HOST")) {
                char *sec = sections[ns++ % 8];
                snprintf(sec, 160, "Socket bandwidth using %s", target);
                s->before = sec;
            } else {
                s->before = e->before;
            }
        }
        /* The blank line closes the raw file's section: after the last step whose
         * lines go there. */
        s->blank_after = e->blank_after && k + 1 == nv && pl == 0;
        if (b == NULL) {
            snprintf(s->skip, sizeof s->skip, "%s is not built in this lmbench yet", cmd);
        } else if (b->supported != NULL && b->supported() != NULL) {
            snprintf(s->skip, sizeof s->skip, "%s: %s", cmd, b->supported());
        }
        if (s->skip[0])
            s->weight = 0;   /* a skipped step takes no time */
    }
}

/* The lmbench 3 switch (BENCHMARK_<name>) an entry belongs to, or NULL. */
static const char *switch_of(const struct entry *e)
{
    static const struct { const char *prefix, *name; } map[] = {
        { "lat_syscall ", "SYSCALL" }, { "lat_select ", "SELECT" }, { "lat_sig ", "SIG" },
        { "lat_pipe", "PIPE" },        { "bw_pipe", "PIPE" },       { "lat_unix", "UNIX" },
        { "bw_unix", "UNIX" },         { "lat_proc ", "PROC" },     { "lat_ops", "OPS" },
        { "par_ops", "OPS" },          { "lmdd ", "FILE" },         { "lat_fs ", "FILE" },
        { "bw_file_rd ", "FILE" },     { "lat_pagefault ", "PAGEFAULT" },
        { "lat_mmap ", "MMAP" },       { "bw_mmap_rd ", "MMAP" },   { "lat_udp ", "UDP" },
        { "lat_tcp ", "TCP" },         { "bw_tcp ", "TCP" },        { "lat_rpc ", "RPC" },
        { "lat_connect ", "CONNECT" }, { "lat_ctx ", "CTX" },       { "lat_mem_rd ", "MEM" },
        { "par_mem ", "MEM" },
    };
    static const char *const copies[] = { " bcopy", " fcp", " cp", " bzero" };

    if (strncmp(e->args, "bw_mem ", 7) == 0) {
        for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
            if (strstr(e->args, copies[i]) != NULL)
                return "BCOPY";
        return "MEM";
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strncmp(e->args, map[i].prefix, strlen(map[i].prefix)) == 0)
            return map[i].name;
    return NULL;
}

/* Whether an entry is in the plan: its profile, its group, its switch. The
 * entry that makes $FILE runs whenever a step that reads $FILE does. */
static bool entry_on(const struct entry *e, const struct lmb_sconf *c, unsigned prof)
{
    if (!(e->profiles & prof))
        return false;
    if ((strcmp(e->group, HW) == 0 && !c->hardware) || (strcmp(e->group, OS) == 0 && !c->os) ||
        (strcmp(e->group, NET) == 0 && !c->network))
        return false;
    if (lmb_sconf_bench_on(c, switch_of(e)))
        return true;
    if (strstr(e->args, "of=$FILE") == NULL)
        return false;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (&table[i] != e && strstr(table[i].args, "$FILE") != NULL &&
            entry_on(&table[i], c, prof))
            return true;
    return false;
}

int lmb_plan_build(struct lmb_plan *p, const struct lmb_sconf *c, unsigned launches,
                   const char *file)
{
    unsigned prof = profile_bit(c->profile);
    unsigned long long fsz;
    char remotes[512], *h, *save = NULL;

    memset(p, 0, sizeof *p);
    p->mb = lmb_sconf_mb(c);
    p->launches = launches ? launches : prof == Q ? 1 : 3;
    /* Launches are pooled through JSON: a build without jansson (a board's
     * static build) measures every step in one launch rather than skip it. */
    if (!lmb_have_json())
        p->launches = 1;
    /* Per launch: the default profile's 3 launches of 3 pool 9 samples (it had 7
     * from one launch), so that it still ends in a few minutes. */
    p->repetitions = c->repetitions ? c->repetitions : prof == Q ? 3 : prof == D ? 3 : 11;
    p->timeout_s = c->timeout_s > 0 ? c->timeout_s : prof == Q ? 60 : prof == D ? 300 : 1800;
    snprintf(p->enough, sizeof p->enough, "%s", c->enough[0] ? c->enough : prof == Q ? "1000" : "");
    snprintf(p->file, sizeof p->file, "%s", file);
    fsz = prof == Q ? 8 : prof == D ? 64 : p->mb;
    if (fsz > p->mb)
        fsz = p->mb;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const struct entry *e = &table[i];
        if (!entry_on(e, c, prof))
            continue;
        if (strcmp(e->group, NET) != 0) {
            add_entry(p, e, c, prof, fsz, NULL, false);
            continue;
        }
        add_entry(p, e, c, prof, fsz, "localhost", false);
    }
    /* The network steps again against each remote host. */
    snprintf(remotes, sizeof remotes, "%s", c->remote);
    if (c->network) {
        static char hosts[LMB_REMOTE_MAX_HOSTS][128];
        int nh = 0;
        for (h = strtok_r(remotes, " ", &save); h && nh < LMB_REMOTE_MAX_HOSTS;
             h = strtok_r(NULL, " ", &save)) {
            snprintf(hosts[nh], sizeof hosts[0], "%s", h);
            for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
                if (strcmp(table[i].group, NET) == 0 && entry_on(&table[i], c, prof))
                    add_entry(p, &table[i], c, prof, fsz, hosts[nh], true);
            nh++;
        }
        /* The benchmarks' clients get the host without its user@ (ssh's
         * part); the runner gives them the address ssh reaches the host at
         * once it has been there (runremote.c). */
    }
    return 0;
}

void lmb_plan_free(struct lmb_plan *p)
{
    for (size_t i = 0; i < p->n; i++)
        for (int k = 0; k < p->v[i].argc; k++)
            free(p->v[i].argv[k]);
    free(p->v);
    memset(p, 0, sizeof *p);
}

void lmb_plan_print(const struct lmb_plan *p, FILE *out)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct lmb_step *s = &p->v[i];
        fprintf(out, "%4zu  %-8s  %s", i + 1, s->group, s->name);
        if (s->remote)
            fprintf(out, "  (server on %s over ssh)", s->host);
        if (s->skip[0])
            fprintf(out, "  [skipped: %s]", s->skip);
        fputc('\n', out);
    }
}
