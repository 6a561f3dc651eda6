// SPDX-License-Identifier: MIT
/* The lmbench 3 raw results importer: maps each header line, classic line and
 * section of a raw results file (`make results` output, as
 * tests/fixtures/lmbench3-x86_64-linux-vm.0) to the records of
 * doc/results-schema.md, with the benchmark, case, params and unit that our
 * commands write. The values are what lmbench 3 printed (no samples); a value
 * that lmbench 3 could not measure honestly (its "0.00") is imported as
 * below_resolution, and its error lines (an RPC server that could not register)
 * as failed records. Lines it does not understand become warnings, never
 * errors, so old files with odd lines still read. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/input.h"
#include "readers.h"

enum section {
    SEC_NONE,
    SEC_MMAP,        /* "mappings: lat_mmap rows */
    SEC_FS,          /* "File system latency: lat_fs rows */
    SEC_BW_TCP,      /* Socket bandwidth using HOST: bw_tcp rows */
    SEC_BW,          /* size MB, MB/s rows of bw_mem, bw_file_rd, bw_mmap_rd */
    SEC_CTX,         /* "size=Nk ovr=X: lat_ctx rows */
    SEC_PAR_MEM,     /* Memory load parallelism */
    SEC_MEMLAT,      /* "stride=N: lat_mem_rd rows */
};

struct state {
    struct lmb_rs_file *f;
    enum section sec;
    const char *bw_bench, *bw_case;
    int bw_conflict;             /* -1: no such parameter */
    char tcp_host[128];
    long ctx_kb;
    bool memlat_random;
    long stride;
    bool in_header;
    bool pinned_unknown;         /* LMBENCH_SCHED other than DEFAULT */
    const char *file;            /* [FILE: ...] */
};

/* Titles of the bandwidth sections, in the order lmbench 3 writes them. */
static const struct {
    const char *title, *bench, *case_name;
    int conflict;
} bw_titles[] = {
    { "\"read bandwidth", "bw_file_rd", "io_only", -1 },
    { "\"read open2close bandwidth", "bw_file_rd", "open2close", -1 },
    { "\"Mmap read bandwidth", "bw_mmap_rd", "mmap_only", -1 },
    { "\"Mmap read open2close bandwidth", "bw_mmap_rd", "open2close", -1 },
    { "\"libc bcopy unaligned", "bw_mem", "bcopy", 0 },
    { "\"libc bcopy aligned", "bw_mem", "bcopy", 1 },
    { "Memory bzero bandwidth", "bw_mem", "bzero", -1 },
    { "\"unrolled bcopy unaligned", "bw_mem", "fcp", 0 },
    { "\"unrolled partial bcopy unaligned", "bw_mem", "cp", 0 },
    { "Memory read bandwidth", "bw_mem", "frd", -1 },
    { "Memory partial read bandwidth", "bw_mem", "rd", -1 },
    { "Memory write bandwidth", "bw_mem", "fwr", -1 },
    { "Memory partial write bandwidth", "bw_mem", "wr", -1 },
    { "Memory partial read/write bandwidth", "bw_mem", "rdwr", -1 },
};

/* "<prefix><number><suffix>" exactly: the number, else NAN. */
static double num_between(const char *line, const char *prefix, const char *suffix)
{
    size_t n = strlen(prefix);
    char *end;
    double v;

    if (strncmp(line, prefix, n) != 0)
        return NAN;
    line += n;
    while (*line == ' ')
        line++;
    v = strtod(line, &end);
    if (end == line || strcmp(end, suffix) != 0)
        return NAN;
    return v;
}

/* Parses exactly `count` numbers separated by blanks (spaces or tabs), with an
 * optional trailing word (e.g. "MB/sec"). Returns how many it read, -1 on junk. */
static int numbers(const char *s, double *out, int max, const char *trailer)
{
    int n = 0;

    for (;;) {
        char *end;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            return n;
        if (trailer != NULL && strcmp(s, trailer) == 0)
            return n;
        if (n == max)
            return -1;
        out[n] = strtod(s, &end);
        if (end == s || (*end != '\0' && *end != ' ' && *end != '\t'))
            return -1;
        n++;
        s = end;
    }
}

static bool is_local_host(const struct lmb_rs_file *f, const char *h)
{
    return strcmp(h, "localhost") == 0 || strncmp(h, "127.", 4) == 0 || strcmp(h, "::1") == 0 ||
           (f->hostname != NULL && strcmp(h, f->hostname) == 0);
}

/* A size printed in MB (10^6 bytes) with two decimals loses its low digits:
 * lmbench 3's sizes are powers of two, so take the power of two within 1%. */
static double mb_to_bytes(double mb)
{
    double b = mb * 1e6, p = exp2(round(log2(b)));

    if (b > 0 && fabs(b - p) <= 0.01 * p)
        return p;
    return round(b);
}

static void ends_param(struct state *s, struct lmb_rs_record *r)
{
    /* lmbench 3 pinned nothing under LMBENCH_SCHED=DEFAULT. */
    if (!s->pinned_unknown)
        lmb_rs_param_str(r, "ends", "unpinned");
}

static struct lmb_rs_record *value_rec(struct state *s, const char *bench, const char *c,
                                       const char *unit, double v)
{
    struct lmb_rs_record *r = lmb_rs_add(s->f, bench, c, unit);

    r->headline = lmb_rs_strdup(strcmp(bench, "lat_mem_rd") == 0 ? "min" : "median");
    lmb_rs_set_value(r, v);
    if (!(v > 0) && strcmp(unit, "x") != 0) {
        lmb_rs_set_status(r, LMB_RS_BELOW, "lmbench 3 printed 0: its overhead subtraction "
                                           "clamped the result at zero");
    }
    return r;
}

static const char *const simple_labels[][3] = {
    { "Simple syscall:", "lat_syscall", "null" },
    { "Simple read:", "lat_syscall", "read" },
    { "Simple write:", "lat_syscall", "write" },
    { "Simple stat:", "lat_syscall", "stat" },
    { "Simple fstat:", "lat_syscall", "fstat" },
    { "Simple open/close:", "lat_syscall", "open" },
    { "Signal handler installation:", "lat_sig", "install" },
    { "Signal handler overhead:", "lat_sig", "catch" },
    { "Protection fault:", "lat_sig", "prot" },
    { "Process fork+exit:", "lat_proc", "fork" },
    { "Process fork+execve:", "lat_proc", "exec" },
    { "Process fork+/bin/sh -c:", "lat_proc", "shell" },
    { "Procedure call:", "lat_proc", "procedure" },
    { "Pipe latency:", "lat_pipe", NULL },
    { "AF_UNIX sock stream latency:", "lat_unix", NULL },
    { "Fifo latency:", "lat_fifo", NULL },
    { "Semaphore latency:", "lat_sem", NULL },
    { "Fcntl lock latency:", "lat_fcntl", NULL },
    { "UNIX connection cost:", "lat_unix_connect", NULL },
};

static bool two_ended(const char *bench)
{
    static const char *const names[] = { "lat_pipe", "lat_unix", "lat_fifo", "lat_sem",
                                         "lat_fcntl", "lat_unix_connect" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(bench, names[i]) == 0)
            return true;
    return false;
}

/* "<host>: X microseconds" after a fixed prefix ("UDP latency using "). */
static bool host_line(const char *line, const char *prefix, char *host, size_t hlen, double *v)
{
    size_t n = strlen(prefix);
    const char *colon;
    char tail[64];

    if (strncmp(line, prefix, n) != 0)
        return false;
    colon = strrchr(line + n, ':');
    if (colon == NULL || (size_t)(colon - (line + n)) >= hlen || colon == line + n)
        return false;
    snprintf(host, hlen, "%.*s", (int)(colon - (line + n)), line + n);
    if (sscanf(colon + 1, "%lf %63s", v, tail) != 2 ||
        (strcmp(tail, "microseconds") != 0 && strcmp(tail, "MB/sec") != 0))
        return false;
    return true;
}

static void net_rec(struct state *s, const char *bench, const char *c, const char *unit,
                    const char *host, double v, bool ends)
{
    struct lmb_rs_record *r = value_rec(s, bench, c, unit, v);

    lmb_rs_param_str(r, "host", host);
    lmb_rs_param_num(r, "remote", LMB_RS_BOOL, is_local_host(s->f, host) ? 0 : 1);
    if (ends)
        ends_param(s, r);
}

/* Lines that carry one result. Returns true when the line was one. */
static bool single_line(struct state *s, const char *line)
{
    char word[32], word2[32], host[128], tail[64];
    double v, a, b, c, d;
    int n, k;

    for (size_t i = 0; i < sizeof simple_labels / sizeof simple_labels[0]; i++) {
        v = num_between(line, simple_labels[i][0], " microseconds");
        if (!isnan(v)) {
            struct lmb_rs_record *r = value_rec(s, simple_labels[i][1], simple_labels[i][2], "us", v);
            if (two_ended(simple_labels[i][1]))
                ends_param(s, r);
            return true;
        }
    }
    if (sscanf(line, "Select on %d fd's: %lf %63s", &n, &v, tail) == 3 &&
        strcmp(tail, "microseconds") == 0) {
        lmb_rs_param_num(value_rec(s, "lat_select", "file", "us", v), "nfds", LMB_RS_INT, n);
        return true;
    }
    if (sscanf(line, "Select on %d tcp fd's: %lf %63s", &n, &v, tail) == 3 &&
        strcmp(tail, "microseconds") == 0) {
        lmb_rs_param_num(value_rec(s, "lat_select", "tcp", "us", v), "nfds", LMB_RS_INT, n);
        return true;
    }
    /* lat_ops and par_ops: "integer add: 0.76 nanoseconds", "float bogomflops: ...",
     * "int64 mul parallelism: 8.97". */
    if (sscanf(line, "%31s %31[a-z]: %lf %63s", word, word2, &v, tail) == 4 &&
        strcmp(tail, "nanoseconds") == 0 &&
        (strcmp(word, "integer") == 0 || strcmp(word, "int64") == 0 ||
         strcmp(word, "float") == 0 || strcmp(word, "double") == 0 ||
         strcmp(word, "uint64") == 0)) {
        struct lmb_rs_record *r = value_rec(s, "lat_ops", word2, "ns", v);
        lmb_rs_param_str(r, "type", word);
        return true;
    }
    k = -1;
    if (sscanf(line, "%31s %31[a-z] parallelism: %lf%n", word, word2, &v, &k) == 3 && k >= 0 &&
        line[k] == '\0') {
        struct lmb_rs_record *r = value_rec(s, "par_ops", word2, "x", v);
        lmb_rs_param_str(r, "type", word);
        return true;
    }
    if (strncmp(line, "File ", 5) == 0 && strstr(line, " write bandwidth: ") != NULL) {
        const char *p = strstr(line, " write bandwidth: ");
        if (sscanf(p, " write bandwidth: %lf %63s", &v, tail) == 2 && strcmp(tail, "KB/sec") == 0) {
            struct lmb_rs_record *r = value_rec(s, "lmdd", NULL, "MB/s", v / 1e3);
            char file[256];
            snprintf(file, sizeof file, "%.*s", (int)(p - (line + 5)), line + 5);
            lmb_rs_param_str(r, "file", file);
            return true;
        }
    }
    if (strncmp(line, "Pagefaults on ", 14) == 0 && host_line(line, "Pagefaults on ", host,
                                                              sizeof host, &v)) {
        lmb_rs_param_str(value_rec(s, "lat_pagefault", NULL, "us", v), "file", host);
        return true;
    }
    if (host_line(line, "UDP latency using ", host, sizeof host, &v)) {
        net_rec(s, "lat_udp", NULL, "us", host, v, true);
        return true;
    }
    if (host_line(line, "TCP latency using ", host, sizeof host, &v)) {
        net_rec(s, "lat_tcp", NULL, "us", host, v, true);
        return true;
    }
    if (host_line(line, "RPC/udp latency using ", host, sizeof host, &v)) {
        net_rec(s, "lat_rpc", "udp", "us", host, v, false);
        return true;
    }
    if (host_line(line, "RPC/tcp latency using ", host, sizeof host, &v)) {
        net_rec(s, "lat_rpc", "tcp", "us", host, v, false);
        return true;
    }
    if (host_line(line, "TCP/IP connection cost to ", host, sizeof host, &v)) {
        net_rec(s, "lat_connect", NULL, "us", host, v, false);
        return true;
    }
    if (host_line(line, "socket UDP bandwidth using ", host, sizeof host, &v)) {
        net_rec(s, "bw_udp", NULL, "MB/s", host, v, false);
        return true;
    }
    k = -1;
    if (sscanf(line, "Avg xfer: %lfKB, %lfKB in %lf millisecs, %lf MB/sec%n", &a, &b, &c, &d, &k) == 4 &&
        k >= 0 && line[k] == '\0') {
        struct lmb_rs_record *r = value_rec(s, "lat_http", NULL, "MB/s", d);
        lmb_rs_param_num(r, "kbytes", LMB_RS_NUM, b);
        lmb_rs_param_num(r, "ms", LMB_RS_NUM, c);
        return true;
    }
    v = num_between(line, "AF_UNIX sock stream bandwidth:", " MB/sec");
    if (!isnan(v)) {
        ends_param(s, value_rec(s, "bw_unix", NULL, "MB/s", v));
        return true;
    }
    v = num_between(line, "Pipe bandwidth:", " MB/sec");
    if (!isnan(v)) {
        ends_param(s, value_rec(s, "bw_pipe", NULL, "MB/s", v));
        return true;
    }
    k = -1;
    if (sscanf(line, "tlb: %d pages%n", &n, &k) == 1 && k >= 0 &&
        (line[k] == '\0' || line[k] == ' ')) {
        value_rec(s, "tlb", NULL, "pages", n);
        return true;
    }
    if ((sscanf(line, "STREAM %31s %31[a-z]: %lf %63s", word, word2, &v, tail) == 4 ||
         sscanf(line, "STREAM2 %31s %31[a-z]: %lf %63s", word, word2, &v, tail) == 4) &&
        (strcmp(word2, "latency") == 0 || strcmp(word2, "bandwidth") == 0)) {
        bool lat = strcmp(word2, "latency") == 0;
        struct lmb_rs_record *r = value_rec(s, "stream", word, lat ? "ns" : "MB/s", v);
        lmb_rs_param_num(r, "version", LMB_RS_INT, strncmp(line, "STREAM2", 7) == 0 ? 2 : 1);
        lmb_rs_param_str(r, "quantity", word2);
        return true;
    }
    k = -1;
    if (sscanf(line, "L%d cache: %lf bytes %lf nanoseconds %lf linesize %lf parallelism%n", &n, &a,
               &b, &c, &d, &k) == 5 && k >= 0 && line[k] == '\0') {
        static const char *const q[] = { "size", "latency", "line", "parallelism" };
        static const char *const u[] = { "bytes", "ns", "bytes", "x" };
        double vals[] = { a, b, c, d };
        for (int i = 0; i < 4; i++) {
            struct lmb_rs_record *r = value_rec(s, "cache", "level", u[i], vals[i]);
            lmb_rs_param_num(r, "level", LMB_RS_INT, n);
            lmb_rs_param_str(r, "quantity", q[i]);
        }
        return true;
    }
    k = -1;
    if (sscanf(line, "Memory latency: %lf nanoseconds %lf parallelism%n", &a, &b, &k) == 2 &&
        k >= 0 && line[k] == '\0') {
        struct lmb_rs_record *r = value_rec(s, "cache", "memory", "ns", a);
        lmb_rs_param_str(r, "quantity", "latency");
        r = value_rec(s, "cache", "memory", "x", b);
        lmb_rs_param_str(r, "quantity", "parallelism");
        return true;
    }
    if (sscanf(line, "%31[a-z0-9] latency: %lf %63s", word, &v, tail) == 3 &&
        strcmp(tail, "nanoseconds") == 0 && strstr(word, "rand") != NULL) {
        value_rec(s, "lat_rand", word, "ns", v);
        return true;
    }
    v = num_between(line, "lat_cmd:", " microseconds");
    if (!isnan(v)) {
        value_rec(s, "lat_cmd", NULL, "us", v);
        return true;
    }
    /* lmbench 3's lat_rpc failing where rpcbind is missing. */
    if (strncmp(line, "unable to register (", 20) == 0 || strstr(line, ": RPC: ") != NULL) {
        const char *c2 = strstr(line, "udp") ? "udp" : strstr(line, "tcp") ? "tcp" : NULL;
        char why[320];
        struct lmb_rs_record *r = lmb_rs_add(s->f, "lat_rpc", c2, "us");
        snprintf(why, sizeof why, "lmbench 3 printed: %.280s", line);
        lmb_rs_set_status(r, LMB_RS_FAILED, why);
        return true;
    }
    return false;
}

static void header_line(struct state *s, const char *inner, long lineno)
{
    struct lmb_rs_file *f = s->f;
    const char *colon = strchr(inner, ':');
    char key[64];
    const char *val;
    double v;

    if (strncmp(inner, "lmbench", 7) == 0 && strstr(inner, " results for ") != NULL) {
        /* "[lmbench3.0 results for <uname -a>]": the host until the keys say more. */
        char sys[64], node[128], rel[128];
        if (sscanf(strstr(inner, " results for ") + 13, "%63s %127s %127s", sys, node, rel) == 3) {
            free(f->sysname);
            free(f->hostname);
            free(f->release);
            f->sysname = lmb_rs_strdup(sys);
            f->hostname = lmb_rs_strdup(node);
            f->release = lmb_rs_strdup(rel);
        }
        return;
    }
    if (strstr(inner, "load average:") != NULL) {
        lmb_rs_header_add(f, "uptime", inner);
        return;
    }
    if (colon == NULL || colon == inner || (size_t)(colon - inner) >= sizeof key) {
        /* A date line: the first is the start, a later one the end. */
        if (f->start == NULL)
            f->start = lmb_rs_strdup(inner);
        else {
            free(f->end);
            f->end = lmb_rs_strdup(inner);
        }
        return;
    }
    snprintf(key, sizeof key, "%.*s", (int)(colon - inner), inner);
    for (const char *k = key; *k; k++)
        if (!(isupper((unsigned char)*k) || *k == '_' || *k == ' ' || isdigit((unsigned char)*k))) {
            /* [net: ...], [if: ...], [mount: ...] and dates with colons. */
            if (strcmp(key, "net") == 0 || strcmp(key, "if") == 0 || strcmp(key, "mount") == 0)
                return;
            if (f->start == NULL)
                f->start = lmb_rs_strdup(inner);
            else {
                free(f->end);
                f->end = lmb_rs_strdup(inner);
            }
            return;
        }
    val = colon + 1;
    while (*val == ' ')
        val++;
    lmb_rs_header_add(f, key, val);
    if (strcmp(key, "HOSTNAME") == 0 && *val) {
        free(f->hostname);
        f->hostname = lmb_rs_strdup(val);
    } else if (strcmp(key, "SYSNAME") == 0 && *val) {
        free(f->sysname);
        f->sysname = lmb_rs_strdup(val);
    } else if (strcmp(key, "RELEASE") == 0 && *val) {
        free(f->release);
        f->release = lmb_rs_strdup(val);
    } else if (strcmp(key, "VERSION") == 0 && *val) {
        free(f->version);
        f->version = lmb_rs_strdup(val);
    } else if (strcmp(key, "MACHINE") == 0 && *val) {
        free(f->machine);
        f->machine = lmb_rs_strdup(val);
    } else if (strcmp(key, "OS") == 0 && *val) {
        free(f->platform);
        f->platform = lmb_rs_strdup(val);
    } else if (strcmp(key, "PROCESSORS") == 0 && *val) {
        f->cpus_online = atoi(val);
    } else if (strcmp(key, "SYNC_MAX") == 0 && *val) {
        f->parallel = atoi(val);
    } else if (strcmp(key, "FILE") == 0 && *val) {
        s->file = f->header[f->nheader - 1].value;
    } else if (strcmp(key, "LMBENCH_SCHED") == 0) {
        s->pinned_unknown = *val && strcmp(val, "DEFAULT") != 0;
    } else if (strcmp(key, "MHZ") == 0 && *val) {
        v = strtod(val, NULL);
        if (v > 0)
            value_rec(s, "mhz", NULL, "MHz", v);
        else
            lmb_rs_warn(f, "line %ld: MHZ not measured: %.100s", lineno, val);
    } else if (strcmp(key, "LINE_SIZE") == 0 && *val) {
        v = strtod(val, NULL);
        if (v > 0)
            value_rec(s, "line", NULL, "bytes", v);
    }
}

static bool section_title(struct state *s, const char *line)
{
    long kb, stride;
    double ovr;
    int k;

    for (size_t i = 0; i < sizeof bw_titles / sizeof bw_titles[0]; i++)
        if (strcmp(line, bw_titles[i].title) == 0) {
            s->sec = SEC_BW;
            s->bw_bench = bw_titles[i].bench;
            s->bw_case = bw_titles[i].case_name;
            s->bw_conflict = bw_titles[i].conflict;
            return true;
        }
    if (strcmp(line, "\"mappings") == 0) {
        s->sec = SEC_MMAP;
        return true;
    }
    if (strcmp(line, "\"File system latency") == 0) {
        s->sec = SEC_FS;
        return true;
    }
    if (strncmp(line, "Socket bandwidth using ", 23) == 0) {
        s->sec = SEC_BW_TCP;
        snprintf(s->tcp_host, sizeof s->tcp_host, "%s", line + 23);
        return true;
    }
    if (strcmp(line, "Memory load parallelism") == 0) {
        s->sec = SEC_PAR_MEM;
        return true;
    }
    if (strcmp(line, "Memory load latency") == 0) {
        s->memlat_random = false;
        s->sec = SEC_NONE;
        return true;
    }
    if (strcmp(line, "Random load latency") == 0) {
        s->memlat_random = true;
        s->sec = SEC_NONE;
        return true;
    }
    k = -1;
    if (sscanf(line, "\"stride=%ld%n", &stride, &k) == 1 && k >= 0 && line[k] == '\0' &&
        stride > 0) {
        s->stride = stride;
        s->sec = SEC_MEMLAT;
        return true;
    }
    k = -1;
    if (sscanf(line, "\"size=%ldk ovr=%lf%n", &kb, &ovr, &k) == 2 && k >= 0 && line[k] == '\0') {
        struct lmb_rs_record *r;
        s->sec = SEC_CTX;
        s->ctx_kb = kb;
        /* The token-passing overhead may honestly be 0.00. */
        r = lmb_rs_add(s->f, "lat_ctx", "overhead", "us");
        r->headline = lmb_rs_strdup("median");
        lmb_rs_set_value(r, ovr);
        lmb_rs_param_num(r, "size_kb", LMB_RS_INT, (double)kb);
        return true;
    }
    return false;
}

/* A row of numbers inside a section. Returns false when it is not one. */
static bool section_row(struct state *s, const char *line)
{
    double x[4];
    struct lmb_rs_record *r;
    unsigned long kb, files;
    char k;
    int n;

    switch (s->sec) {
    case SEC_NONE:
        return false;
    case SEC_MMAP:
        if (numbers(line, x, 2, NULL) != 2)
            return false;
        r = value_rec(s, "lat_mmap", NULL, "us", x[1]);
        lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, round(x[0] * 1e6));
        if (s->file)
            lmb_rs_param_str(r, "file", s->file);
        return true;
    case SEC_FS:
        n = -1;
        if (sscanf(line, "%lu%c %lu %lf %lf%n", &kb, &k, &files, &x[0], &x[1], &n) != 5 ||
            k != 'k' || n < 0 || line[n] != '\0')
            return false;
        for (int i = 0; i < 2; i++) {
            r = value_rec(s, "lat_fs", i == 0 ? "create" : "delete", "us",
                          x[i] > 0 ? 1e6 / x[i] : 0);
            lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, (double)kb * 1024);
            lmb_rs_param_num(r, "files", LMB_RS_INT, (double)files);
        }
        return true;
    case SEC_BW_TCP:
        if (numbers(line, x, 2, "MB/sec") != 2)
            return false;
        r = value_rec(s, "bw_tcp", NULL, "MB/s", x[1]);
        lmb_rs_param_str(r, "host", s->tcp_host);
        lmb_rs_param_num(r, "remote", LMB_RS_BOOL, is_local_host(s->f, s->tcp_host) ? 0 : 1);
        lmb_rs_param_num(r, "msg_bytes", LMB_RS_INT, round(x[0] * 1e6));
        return true;
    case SEC_BW:
        if (numbers(line, x, 2, NULL) != 2)
            return false;
        r = value_rec(s, s->bw_bench, s->bw_case, "MB/s", x[1]);
        lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, mb_to_bytes(x[0]));
        if (s->bw_conflict >= 0)
            lmb_rs_param_num(r, "conflict", LMB_RS_BOOL, s->bw_conflict);
        if (strcmp(s->bw_bench, "bw_mem") != 0 && s->file)
            lmb_rs_param_str(r, "file", s->file);
        return true;
    case SEC_CTX:
        if (numbers(line, x, 2, NULL) != 2 || x[0] != floor(x[0]) || x[0] < 1)
            return false;
        r = value_rec(s, "lat_ctx", NULL, "us", x[1]);
        lmb_rs_param_num(r, "size_kb", LMB_RS_INT, (double)s->ctx_kb);
        lmb_rs_param_num(r, "procs", LMB_RS_INT, x[0]);
        ends_param(s, r);
        return true;
    case SEC_PAR_MEM:
        if (numbers(line, x, 2, NULL) != 2)
            return false;
        r = value_rec(s, "par_mem", NULL, "x", x[1]);
        lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, round(x[0] * 1e6));
        return true;
    case SEC_MEMLAT:
        if (numbers(line, x, 2, NULL) != 2)
            return false;
        r = value_rec(s, "lat_mem_rd", s->memlat_random ? "random" : "stride", "ns", x[1]);
        /* Sizes are multiples of 512 bytes printed in MiB with 5 decimals. */
        lmb_rs_param_num(r, "size_bytes", LMB_RS_INT, round(x[0] * 1048576.0 / 512.0) * 512.0);
        lmb_rs_param_num(r, "stride_bytes", LMB_RS_INT, (double)s->stride);
        return true;
    }
    return false;
}

int lmb_import3(FILE *fp, const char *name, struct lmb_rs_file *f, char *err, size_t errlen)
{
    struct state s = { .f = f, .in_header = true, .bw_conflict = -1 };
    char *line = NULL, why[128];
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;

    while ((len = lmb_input_line(fp, &line, &cap, LMB_INPUT_LINE_MAX, why, sizeof why)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                           line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        if (memchr(line, '\0', (size_t)len) != NULL) {
            snprintf(err, errlen, "%s: line %ld: binary data: not an lmbench 3 results file",
                     name, lineno);
            free(line);
            return -1;
        }
        if (len == 0) {
            s.sec = SEC_NONE;
            continue;
        }
        if (line[0] == '[' && line[len - 1] == ']') {
            line[len - 1] = '\0';
            header_line(&s, line + 1, lineno);
            continue;
        }
        if (section_title(&s, line) || section_row(&s, line) || single_line(&s, line))
            continue;
        lmb_rs_warn(f, "line %ld: not understood: %.100s", lineno, line);
    }
    free(line);
    if (len == -2) {
        snprintf(err, errlen, "%s: line %ld: %s", name, lineno + 1, why);
        return -1;
    }
    if (ferror(fp)) {
        snprintf(err, errlen, "%s: read error", name);
        return -1;
    }
    if (f->nrecs == 0 && f->nheader == 0) {
        snprintf(err, errlen, "%s: no lmbench 3 header or results in this file", name);
        return -1;
    }
    return 0;
}
