// SPDX-License-Identifier: MIT
/* The summary page's tables as data, and each cell looked up from the records of
 * doc/results-schema.md (benchmark, case, params): the same lookup for our JSON
 * and for imported lmbench 3 raw files. The header lines reproduce lmbench 3's
 * layout (tests/fixtures/lmbench3-x86_64-linux-vm.0.summary) so that people and
 * scripts that know it find every column where it was. */
#include "summary.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memlat.h"

enum col_id {
    C_DESC, C_MHZ, C_TLB, C_LINE, C_MEMPAR, C_SCAL,
    C_NULLCALL, C_NULLIO, C_STAT, C_OPEN, C_SLCT_TCP, C_SIG_INST, C_SIG_HNDL,
    C_FORK, C_EXEC, C_SHELL,
    /* lat_ops: type in the high part, op in the low part */
    C_OPS = 100,
    C_CTX_2_0 = 200, C_CTX_2_16, C_CTX_2_64, C_CTX_8_16, C_CTX_8_64, C_CTX_16_16, C_CTX_16_64,
    /* communication latencies; + 50 for the remote table */
    C_LAT_PIPE = 300, C_LAT_UNIX, C_LAT_UDP, C_LAT_RPC_UDP, C_LAT_TCP, C_LAT_RPC_TCP,
    C_LAT_CONNECT,
    C_REMOTE = 50,
    C_FS_0C = 400, C_FS_0D, C_FS_10C, C_FS_10D, C_MMAP, C_PROT, C_PAGEFAULT, C_SLCT_FILE,
    C_BW_PIPE = 500, C_BW_UNIX, C_BW_TCP, C_BW_FILE, C_BW_MMAP, C_BW_BCOPY, C_BW_FCP,
    C_BW_FRD, C_BW_FWR,
    C_ML_MHZ = 600, C_ML_L1, C_ML_L2, C_ML_L3, C_ML_MAIN, C_ML_RAND, C_ML_GUESS,
};

enum { OP_BIT, OP_ADD, OP_MUL, OP_DIV, OP_MOD, OP_BOGO };
enum { T_INT, T_INT64, T_FLOAT, T_DOUBLE };
#define OPS(t, op) (C_OPS + (t) * 10 + (op))

static const char *const op_names[] = { "bit", "add", "mul", "div", "mod", "bogomflops" };
static const char *const type_names[] = { "integer", "int64", "float", "double" };

#define HOST_OS_HEAD "Host                 OS"
#define HOST_OS_DASH "--------- -------------"

const struct lmb_sum_table lmb_sum_tables[] = {
    { "basic", "Basic system parameters", NULL, "", false, false, 78,
      { "Host                 OS Description              Mhz  tlb  cache  mem   scal",
        "                                                     pages line   par   load",
        "                                                           bytes  " },
      "--------- ------------- ----------------------- ---- ----- ----- ------ ----",
      { { "description", "Description", 23, 0, LMB_CELL_DESC, C_DESC },
        { "mhz", "Mhz", 4, 0, LMB_CELL_INT, C_MHZ },
        { "tlb_pages", "tlb pages", 5, 0, LMB_CELL_INT, C_TLB },
        { "cache_line_bytes", "cache line bytes", 5, 0, LMB_CELL_INT, C_LINE },
        { "mem_par", "mem par", 6, 0, LMB_CELL_NUM, C_MEMPAR },
        { "scal_load", "scal load", 4, 0, LMB_CELL_INT, C_SCAL } }, 6 },
    { "processes", "Processor, Processes - times in microseconds - smaller is better", NULL,
      "us", false, true, 78,
      { "Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  ",
        "                             call  I/O stat clos TCP  inst hndl proc proc proc" },
      "--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----",
      { { "mhz", "Mhz", 4, 0, LMB_CELL_INT, C_MHZ },
        { "null_call", "null call", 4, 0, LMB_CELL_NUM, C_NULLCALL },
        { "null_io", "null I/O", 4, 0, LMB_CELL_NUM, C_NULLIO },
        { "stat", "stat", 4, 0, LMB_CELL_NUM, C_STAT },
        { "open_close", "open clos", 4, 0, LMB_CELL_NUM, C_OPEN },
        { "select_tcp", "slct TCP", 4, 0, LMB_CELL_NUM, C_SLCT_TCP },
        { "sig_install", "sig inst", 4, 0, LMB_CELL_NUM, C_SIG_INST },
        { "sig_handler", "sig hndl", 4, 0, LMB_CELL_NUM, C_SIG_HNDL },
        { "fork", "fork proc", 4, 0, LMB_CELL_NUM, C_FORK },
        { "exec", "exec proc", 4, 0, LMB_CELL_NUM, C_EXEC },
        { "shell", "sh proc", 4, 0, LMB_CELL_NUM, C_SHELL } }, 11 },
    { "integer", "Basic integer operations - times in nanoseconds - smaller is better", NULL,
      "ns", false, true, 67,
      { "Host                 OS  intgr intgr  intgr  intgr  intgr  ",
        "                          bit   add    mul    div    mod   " },
      "--------- ------------- ------ ------ ------ ------ ------ ",
      { { "bit", "integer bit", 6, 0, LMB_CELL_NUM, OPS(T_INT, OP_BIT) },
        { "add", "integer add", 6, 0, LMB_CELL_NUM, OPS(T_INT, OP_ADD) },
        { "mul", "integer mul", 6, 0, LMB_CELL_NUM, OPS(T_INT, OP_MUL) },
        { "div", "integer div", 6, 0, LMB_CELL_NUM, OPS(T_INT, OP_DIV) },
        { "mod", "integer mod", 6, 0, LMB_CELL_NUM, OPS(T_INT, OP_MOD) } }, 5 },
    { "uint64", "Basic uint64 operations - times in nanoseconds - smaller is better", NULL,
      "ns", false, true, 66,
      { "Host                 OS  int64  int64  int64  int64  int64  ",
        "                          bit    add    mul    div    mod   " },
      "--------- ------------- ------ ------ ------ ------ ------ ",
      { { "bit", "int64 bit", 6, 0, LMB_CELL_NUM, OPS(T_INT64, OP_BIT) },
        { "add", "int64 add", 6, 0, LMB_CELL_NUM, OPS(T_INT64, OP_ADD) },
        { "mul", "int64 mul", 6, 0, LMB_CELL_NUM, OPS(T_INT64, OP_MUL) },
        { "div", "int64 div", 6, 0, LMB_CELL_NUM, OPS(T_INT64, OP_DIV) },
        { "mod", "int64 mod", 6, 0, LMB_CELL_NUM, OPS(T_INT64, OP_MOD) } }, 5 },
    { "float", "Basic float operations - times in nanoseconds - smaller is better", NULL,
      "ns", false, true, 65,
      { "Host                 OS  float  float  float  float",
        "                         add    mul    div    bogo" },
      "--------- ------------- ------ ------ ------ ------ ",
      { { "add", "float add", 6, 0, LMB_CELL_NUM, OPS(T_FLOAT, OP_ADD) },
        { "mul", "float mul", 6, 0, LMB_CELL_NUM, OPS(T_FLOAT, OP_MUL) },
        { "div", "float div", 6, 0, LMB_CELL_NUM, OPS(T_FLOAT, OP_DIV) },
        { "bogo", "float bogomflops", 6, 0, LMB_CELL_NUM, OPS(T_FLOAT, OP_BOGO) } }, 4 },
    { "double", "Basic double operations - times in nanoseconds - smaller is better", NULL,
      "ns", false, true, 66,
      { "Host                 OS  double double double double",
        "                         add    mul    div    bogo" },
      "--------- ------------- ------  ------ ------ ------ ",
      { { "add", "double add", 6, 0, LMB_CELL_NUM, OPS(T_DOUBLE, OP_ADD) },
        { "mul", "double mul", 6, 0, LMB_CELL_NUM, OPS(T_DOUBLE, OP_MUL) },
        { "div", "double div", 6, 0, LMB_CELL_NUM, OPS(T_DOUBLE, OP_DIV) },
        { "bogo", "double bogomflops", 6, 0, LMB_CELL_NUM, OPS(T_DOUBLE, OP_BOGO) } }, 4 },
    { "context", "Context switching - times in microseconds - smaller is better", NULL,
      "us", false, true, 73,
      { "Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K",
        "                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw" },
      "--------- ------------- ------ ------ ------ ------ ------ ------- -------",
      { { "2p_0k", "2p/0K ctxsw", 6, 0, LMB_CELL_NUM, C_CTX_2_0 },
        { "2p_16k", "2p/16K ctxsw", 6, 0, LMB_CELL_NUM, C_CTX_2_16 },
        { "2p_64k", "2p/64K ctxsw", 6, 0, LMB_CELL_NUM, C_CTX_2_64 },
        { "8p_16k", "8p/16K ctxsw", 6, 0, LMB_CELL_NUM, C_CTX_8_16 },
        { "8p_64k", "8p/64K ctxsw", 6, 0, LMB_CELL_NUM, C_CTX_8_64 },
        { "16p_16k", "16p/16K ctxsw", 7, 0, LMB_CELL_NUM, C_CTX_16_16 },
        { "16p_64k", "16p/64K ctxsw", 7, 0, LMB_CELL_NUM, C_CTX_16_64 } }, 7 },
    { "local_latency", "*Local* Communication latencies in microseconds - smaller is better",
      NULL, "us", false, true, 69,
      { "Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP",
        "                        ctxsw       UNIX         UDP         TCP conn" },
      "--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----",
      { { "2p_0k", "2p/0K ctxsw", 5, 0, LMB_CELL_NUM, C_CTX_2_0 },
        { "pipe", "Pipe", 5, 0, LMB_CELL_NUM, C_LAT_PIPE },
        { "af_unix", "AF UNIX", 4, 0, LMB_CELL_NUM, C_LAT_UNIX },
        { "udp", "UDP", 5, 0, LMB_CELL_NUM, C_LAT_UDP },
        { "rpc_udp", "RPC/UDP", 5, 0, LMB_CELL_NUM, C_LAT_RPC_UDP },
        { "tcp", "TCP", 5, 0, LMB_CELL_NUM, C_LAT_TCP },
        { "rpc_tcp", "RPC/TCP", 5, 0, LMB_CELL_NUM, C_LAT_RPC_TCP },
        /* lmbench 3 printed this figure 3 wide in its 4-wide column. */
        { "tcp_conn", "TCP conn", 4, 3, LMB_CELL_NUM, C_LAT_CONNECT } }, 8 },
    { "remote_latency", "*Remote* Communication latencies in microseconds - smaller is better",
      NULL, "us", false, true, 70,
      { "Host                 OS   UDP  RPC/   TCP  RPC/ TCP",
        "                               UDP         TCP conn" },
      "--------- ------------- ----- ----- ----- ----- ----",
      { { "udp", "UDP", 5, 0, LMB_CELL_NUM, C_LAT_UDP + C_REMOTE },
        { "rpc_udp", "RPC/UDP", 5, 0, LMB_CELL_NUM, C_LAT_RPC_UDP + C_REMOTE },
        { "tcp", "TCP", 5, 0, LMB_CELL_NUM, C_LAT_TCP + C_REMOTE },
        { "rpc_tcp", "RPC/TCP", 5, 0, LMB_CELL_NUM, C_LAT_RPC_TCP + C_REMOTE },
        { "tcp_conn", "TCP conn", 4, 0, LMB_CELL_NUM, C_LAT_CONNECT + C_REMOTE } }, 5 },
    { "file_vm", "File & VM system latencies in microseconds - smaller is better", NULL,
      "us", false, true, 79,
      { "Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd",
        "                        Create Delete Create Delete Latency Fault  Fault  selct" },
      "--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----",
      { { "0k_create", "0K File Create", 6, 0, LMB_CELL_NUM, C_FS_0C },
        { "0k_delete", "0K File Delete", 6, 0, LMB_CELL_NUM, C_FS_0D },
        { "10k_create", "10K File Create", 6, 0, LMB_CELL_NUM, C_FS_10C },
        { "10k_delete", "10K File Delete", 6, 0, LMB_CELL_NUM, C_FS_10D },
        { "mmap", "Mmap Latency", 7, 0, LMB_CELL_NUM, C_MMAP },
        { "prot_fault", "Prot Fault", 5, 0, LMB_CELL_NUM, C_PROT },
        { "page_fault", "Page Fault", 7, 0, LMB_CELL_NUM, C_PAGEFAULT },
        { "select_100fd", "100fd selct", 5, 0, LMB_CELL_NUM, C_SLCT_FILE } }, 8 },
    { "local_bandwidth", "*Local* Communication bandwidths in MB/s - bigger is better", NULL,
      "MB/s", true, true, 77,
      { "Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem",
        "                             UNIX      reread reread (libc) (hand) read write" },
      "--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----",
      { { "pipe", "Pipe", 4, 0, LMB_CELL_NUM, C_BW_PIPE },
        { "af_unix", "AF UNIX", 4, 0, LMB_CELL_NUM, C_BW_UNIX },
        { "tcp", "TCP", 4, 0, LMB_CELL_NUM, C_BW_TCP },
        { "file_reread", "File reread", 6, 0, LMB_CELL_NUM, C_BW_FILE },
        { "mmap_reread", "Mmap reread", 6, 0, LMB_CELL_NUM, C_BW_MMAP },
        { "bcopy_libc", "Bcopy (libc)", 6, 0, LMB_CELL_NUM, C_BW_BCOPY },
        { "bcopy_hand", "Bcopy (hand)", 6, 0, LMB_CELL_NUM, C_BW_FCP },
        { "mem_read", "Mem read", 4, 0, LMB_CELL_NUM, C_BW_FRD },
        { "mem_write", "Mem write", 5, 0, LMB_CELL_NUM, C_BW_FWR } }, 9 },
    { "memory", "Memory latencies in nanoseconds - smaller is better",
      "    (cache levels found on the stride curve; Rand mem: random chase)", "ns", false, true,
      78,
      { "Host                 OS   Mhz   L1 $   L2 $   L3 $   Main mem   Rand mem  Guesses" },
      "--------- ------------- ----- ------ ------ ------ ---------- ----------  -------",
      { { "mhz", "Mhz", 5, 0, LMB_CELL_INT, C_ML_MHZ },
        { "l1", "L1 $", 6, 0, LMB_CELL_NUM, C_ML_L1 },
        { "l2", "L2 $", 6, 0, LMB_CELL_NUM, C_ML_L2 },
        { "l3", "L3 $", 6, 0, LMB_CELL_NUM, C_ML_L3 },
        { "main_mem", "Main mem", 10, 6, LMB_CELL_NUM, C_ML_MAIN },
        { "rand_mem", "Rand mem", 10, 6, LMB_CELL_NUM, C_ML_RAND },
        { "guesses", "Guesses", 0, 0, LMB_CELL_TEXT, C_ML_GUESS } }, 7 },
};

const size_t lmb_sum_ntables = sizeof lmb_sum_tables / sizeof lmb_sum_tables[0];

/* --- finding records ------------------------------------------------------ */

struct want {
    const char *key;
    double num;          /* wanted number (bool: 0/1) when str is NULL */
    const char *str;
};

static bool matches(const struct lmb_rs_record *r, const struct want *w, size_t nw)
{
    for (size_t i = 0; i < nw; i++) {
        const struct lmb_rs_param *p = lmb_rs_param(r, w[i].key);
        if (p == NULL)
            return false;
        if (w[i].str != NULL) {
            if (p->type != LMB_RS_STR || strcmp(p->str, w[i].str) != 0)
                return false;
        } else if (p->type == LMB_RS_STR || p->num != w[i].num) {
            return false;
        }
    }
    return true;
}

/* The ok record of benchmark b, case c (NULL: null case) with the wanted
 * parameters; with maxkey, the one with the largest such parameter. Two-ended
 * records prefer the placement o->ends when the file has it. The last of equals
 * wins (a later measurement of the same thing). */
static const struct lmb_rs_record *find(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                                        const char *b, const char *c, const struct want *w,
                                        size_t nw, const char *maxkey)
{
    const struct lmb_rs_record *best = NULL;

    for (int pass = 0; pass < 2 && best == NULL; pass++) {
        for (size_t i = 0; i < f->nrecs; i++) {
            const struct lmb_rs_record *r = &f->recs[i];
            const char *ends;
            /* The tables are lmbench 3's: a figure that is not its quantity
             * (compat other than "same") never fills one of their cells. */
            if (r->status != LMB_RS_OK || !r->has_value || r->compat != NULL ||
                !lmb_rs_is(r, b, c) || !matches(r, w, nw))
                continue;
            ends = lmb_rs_pstr(r, "ends");
            if (pass == 0) {
                /* First pass: only the preferred placement (or records without one). */
                if (ends != NULL && o->ends != NULL && strcmp(ends, o->ends) != 0)
                    continue;
            }
            if (best != NULL && maxkey != NULL &&
                !(lmb_rs_pnum(r, maxkey) >= lmb_rs_pnum(best, maxkey)))
                continue;
            best = r;
        }
    }
    return best;
}

static double val(const struct lmb_rs_record *r)
{
    return r ? r->value : NAN;
}

#define W(k, v) { k, v, NULL }
#define WS(k, s) { k, 0, s }

static double simple(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *b,
                     const char *c)
{
    return val(find(o, f, b, c, NULL, 0, NULL));
}

static double net_lat(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *b,
                      const char *c, bool remote)
{
    struct want w[] = { W("remote", remote ? 1 : 0) };
    return val(find(o, f, b, c, w, 1, NULL));
}

static double ctx(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, int procs, int kb)
{
    struct want w[] = { W("procs", procs), W("size_kb", kb) };
    return val(find(o, f, "lat_ctx", NULL, w, 2, NULL));
}

/* lat_fs at a file size: us per file. */
static double fs(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *c,
                 double size)
{
    struct want w[] = { W("size_bytes", size) };
    return val(find(o, f, "lat_fs", c, w, 1, NULL));
}

static double largest(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *b,
                      const char *c, const char *key, const struct want *w, size_t nw)
{
    return val(find(o, f, b, c, w, nw, key));
}

static double header_int(const struct lmb_rs_file *f, const char *bench)
{
    const struct lmb_sum_opts o = { NULL };
    return simple(&o, f, bench, NULL);
}

void lmb_sum_os(const struct lmb_rs_file *f, char *out, size_t len)
{
    snprintf(out, len, "%s %s", f->sysname ? f->sysname : "?", f->release ? f->release : "?");
}

void lmb_sum_platform(const struct lmb_rs_file *f, char *out, size_t len)
{
    size_t n;

    if (f->platform != NULL && *f->platform) {
        snprintf(out, len, "%s", f->platform);
        return;
    }
    /* Ours: the machine and the system, as lmbench 3's OS key ("x86_64-linux-gnu"). */
    snprintf(out, len, "%s-%s", f->machine ? f->machine : "", f->sysname ? f->sysname : "");
    for (n = 0; out[n]; n++)
        out[n] = (char)tolower((unsigned char)out[n]);
}

double lmb_sum_cell(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                    const struct lmb_sum_col *c, char *text, size_t textlen)
{
    int id = c->id;
    bool remote = false;

    if (text && textlen)
        text[0] = '\0';
    if ((c->kind == LMB_CELL_DESC || c->kind == LMB_CELL_TEXT) && (text == NULL || textlen == 0))
        return NAN;
    if (id >= C_OPS && id < C_CTX_2_0) {
        int t = (id - C_OPS) / 10, op = (id - C_OPS) % 10;
        struct want w[] = { WS("type", type_names[t]) };
        return val(find(o, f, "lat_ops", op_names[op], w, 1, NULL));
    }
    if (id >= C_LAT_PIPE + C_REMOTE && id < C_FS_0C) {
        id -= C_REMOTE;
        remote = true;
    }
    switch (id) {
    case C_DESC:
        lmb_sum_platform(f, text, textlen);
        return NAN;
    case C_MHZ:
    case C_ML_MHZ:
        return header_int(f, "mhz");
    case C_TLB:
        return header_int(f, "tlb");
    case C_LINE:
        return header_int(f, "line");
    case C_MEMPAR:
        return largest(o, f, "par_mem", NULL, "size_bytes", NULL, 0);
    case C_SCAL:
        return f->parallel > 0 ? f->parallel : NAN;
    case C_NULLCALL:
        return simple(o, f, "lat_syscall", "null");
    case C_NULLIO: {
        double r = simple(o, f, "lat_syscall", "read"), w = simple(o, f, "lat_syscall", "write");
        if (isnan(r))
            return w;
        return isnan(w) ? r : (r + w) / 2;
    }
    case C_STAT:
        return simple(o, f, "lat_syscall", "stat");
    case C_OPEN:
        return simple(o, f, "lat_syscall", "open");
    case C_SLCT_TCP:
    case C_SLCT_FILE: {
        struct want w[] = { W("nfds", 100) };
        return val(find(o, f, "lat_select", id == C_SLCT_TCP ? "tcp" : "file", w, 1, NULL));
    }
    case C_SIG_INST:
        return simple(o, f, "lat_sig", "install");
    case C_SIG_HNDL:
        return simple(o, f, "lat_sig", "catch");
    case C_PROT:
        return simple(o, f, "lat_sig", "prot");
    case C_FORK:
        return simple(o, f, "lat_proc", "fork");
    case C_EXEC:
        return simple(o, f, "lat_proc", "exec");
    case C_SHELL:
        return simple(o, f, "lat_proc", "shell");
    case C_CTX_2_0: return ctx(o, f, 2, 0);
    case C_CTX_2_16: return ctx(o, f, 2, 16);
    case C_CTX_2_64: return ctx(o, f, 2, 64);
    case C_CTX_8_16: return ctx(o, f, 8, 16);
    case C_CTX_8_64: return ctx(o, f, 8, 64);
    case C_CTX_16_16: return ctx(o, f, 16, 16);
    case C_CTX_16_64: return ctx(o, f, 16, 64);
    case C_LAT_PIPE:
        return simple(o, f, "lat_pipe", NULL);
    case C_LAT_UNIX:
        return simple(o, f, "lat_unix", NULL);
    case C_LAT_UDP:
        return net_lat(o, f, "lat_udp", NULL, remote);
    case C_LAT_RPC_UDP:
        return net_lat(o, f, "lat_rpc", "udp", remote);
    case C_LAT_TCP:
        return net_lat(o, f, "lat_tcp", NULL, remote);
    case C_LAT_RPC_TCP:
        return net_lat(o, f, "lat_rpc", "tcp", remote);
    case C_LAT_CONNECT:
        return net_lat(o, f, "lat_connect", NULL, remote);
    case C_FS_0C: return fs(o, f, "create", 0);
    case C_FS_0D: return fs(o, f, "delete", 0);
    case C_FS_10C: return fs(o, f, "create", 10240);
    case C_FS_10D: return fs(o, f, "delete", 10240);
    case C_MMAP:
        return largest(o, f, "lat_mmap", NULL, "size_bytes", NULL, 0);
    case C_PAGEFAULT:
        return simple(o, f, "lat_pagefault", NULL);
    case C_BW_PIPE:
        return simple(o, f, "bw_pipe", NULL);
    case C_BW_UNIX:
        return simple(o, f, "bw_unix", NULL);
    case C_BW_TCP: {
        struct want w[] = { W("remote", 0) };
        return largest(o, f, "bw_tcp", NULL, "msg_bytes", w, 1);
    }
    case C_BW_FILE:
        return largest(o, f, "bw_file_rd", "io_only", "size_bytes", NULL, 0);
    case C_BW_MMAP:
        return largest(o, f, "bw_mmap_rd", "mmap_only", "size_bytes", NULL, 0);
    case C_BW_BCOPY: {
        /* lmbench 3's "libc bcopy unaligned": no conflict placement. */
        struct want w[] = { W("conflict", 0) };
        double v = largest(o, f, "bw_mem", "bcopy", "size_bytes", w, 1);
        return isnan(v) ? largest(o, f, "bw_mem", "bcopy", "size_bytes", NULL, 0) : v;
    }
    case C_BW_FCP: {
        struct want w[] = { W("conflict", 0) };
        double v = largest(o, f, "bw_mem", "fcp", "size_bytes", w, 1);
        return isnan(v) ? largest(o, f, "bw_mem", "fcp", "size_bytes", NULL, 0) : v;
    }
    case C_BW_FRD:
        return largest(o, f, "bw_mem", "frd", "size_bytes", NULL, 0);
    case C_BW_FWR:
        return largest(o, f, "bw_mem", "fwr", "size_bytes", NULL, 0);
    case C_ML_L1:
    case C_ML_L2:
    case C_ML_L3:
    case C_ML_MAIN:
    case C_ML_RAND:
    case C_ML_GUESS: {
        struct lmb_memlat m;
        lmb_memlat_summarize(f, &m);
        if (id == C_ML_GUESS) {
            snprintf(text, textlen, "%s", m.guesses);
            return NAN;
        }
        if (id == C_ML_MAIN)
            return m.main_ns;
        if (id == C_ML_RAND)
            return m.rand_ns;
        return (size_t)(id - C_ML_L1) < m.nlevels ? m.level_ns[id - C_ML_L1] : NAN;
    }
    }
    return NAN;
}

/* --- numbers ------------------------------------------------------------------ */

static void fit(double x, int width, char *out, size_t outlen)
{
    char buf[64];
    int d;

    if (width < 1)
        width = 1;
    if (x < 10) {
        d = width - 2;
        if (d < 0)
            d = 0;
        snprintf(buf, sizeof buf, "%.*f", d, x);
        /* Too small to show in the width: 3 significant digits, wider. */
        if (x > 0 && strspn(buf, "0.") == strlen(buf)) {
            snprintf(out, outlen, "%.3g", x);
            return;
        }
    } else {
        snprintf(buf, sizeof buf, "%.1f", x);
    }
    if ((int)strlen(buf) > width)
        buf[width] = '\0';
    snprintf(out, outlen, "%s", buf);
}

void lmb_sum_format(double v, int width, char *out, size_t outlen)
{
    static const char suffix[] = "KMGT";
    char num[64];
    int k = -1;

    if (!isfinite(v)) {
        snprintf(out, outlen, "%s", "");
        return;
    }
    if (v < 0) {
        /* Not expected of any summary figure; shown plainly rather than hidden. */
        snprintf(out, outlen, "%.3g", v);
        return;
    }
    while (v >= 10000 && k < 3) {
        v /= 1000;
        k++;
    }
    if (k < 0) {
        fit(v, width, out, outlen);
        return;
    }
    fit(v, width - 1, num, sizeof num);
    snprintf(out, outlen, "%s%c", num, suffix[k]);
}
