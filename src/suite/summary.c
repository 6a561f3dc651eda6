// SPDX-License-Identifier: MIT
/* The summary page's tables as data, and each cell looked up from the records of
 * doc/results-schema.md (benchmark, case, params): the same lookup for our JSON
 * and for imported lmbench 3 raw files. The header lines reproduce lmbench 3's
 * layout (tests/fixtures/lmbench3-x86_64-linux-vm.0.summary) so that people and
 * scripts that know it find every column where it was. */
#include "summary.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/judge.h"
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
    /* the Modern tables */
    C_C2C_PAIRS = 700, C_C2C_MIN, C_C2C_MIN_REL, C_C2C_MED, C_C2C_MAX, C_C2C_MAX_REL,
    C_LD_IDLE = 720, C_LD_LAT, C_NUMA_LAT_LOCAL, C_NUMA_LAT_REMOTE, C_HP_4K, C_HP_HUGE,
    C_LD_BW = 740, C_NUMA_BW_LOCAL, C_NUMA_BW_REMOTE,
    C_FUTEX_T = 760, C_FUTEX_P, C_EVFD_T, C_EVFD_P, C_EPOLL, C_PT_CREATE, C_PT_MUTEX,
    C_PT_COND, C_URING_NOP, C_URING_READ,
    C_VFORK = 780, C_SPAWN, C_MPROTECT, C_MADVISE,
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
    /* The Modern tables (lmbench 3 has none of these figures): left out when no
     * file has one, with only the columns some file has. */
    { "modern_c2c", "Modern: core-to-core round trip in nanoseconds - smaller is better",
      "    (a cache line there and back between two CPUs, over the pairs measured)", "ns",
      false, true, 0, { NULL }, NULL,
      { { "pairs", "pairs", 5, 0, LMB_CELL_INT, C_C2C_PAIRS },
        { "min", "c2c min", 6, 0, LMB_CELL_NUM, C_C2C_MIN },
        { "min_relation", "min pair", 6, 0, LMB_CELL_DESC, C_C2C_MIN_REL },
        { "median", "c2c median", 6, 0, LMB_CELL_NUM, C_C2C_MED },
        { "max", "c2c max", 6, 0, LMB_CELL_NUM, C_C2C_MAX },
        { "max_relation", "max pair", 6, 0, LMB_CELL_DESC, C_C2C_MAX_REL } }, 6 },
    { "modern_memory", "Modern: memory latencies in nanoseconds - smaller is better",
      "    (under load, across NUMA nodes, and by page size)", "ns", false, true, 0, { NULL },
      NULL,
      { { "idle", "idle latency", 7, 6, LMB_CELL_NUM, C_LD_IDLE },
        { "loaded", "loaded latency", 7, 6, LMB_CELL_NUM, C_LD_LAT },
        { "numa_local", "NUMA local", 6, 0, LMB_CELL_NUM, C_NUMA_LAT_LOCAL },
        { "numa_remote", "NUMA remote", 8, 6, LMB_CELL_NUM, C_NUMA_LAT_REMOTE },
        { "pages_4k", "4K pages", 6, 0, LMB_CELL_NUM, C_HP_4K },
        { "pages_huge", "huge pages", 6, 0, LMB_CELL_NUM, C_HP_HUGE } }, 6 },
    { "modern_bandwidth", "Modern: memory bandwidths in MB/s - bigger is better", NULL, "MB/s",
      true, true, 0, { NULL }, NULL,
      { { "loaded", "loaded bandwidth", 9, 0, LMB_CELL_NUM, C_LD_BW },
        { "numa_local", "NUMA local", 7, 0, LMB_CELL_NUM, C_NUMA_BW_LOCAL },
        { "numa_remote", "NUMA remote", 8, 0, LMB_CELL_NUM, C_NUMA_BW_REMOTE } }, 3 },
    { "modern_threads", "Modern: threads and events - times in microseconds - smaller is better",
      NULL, "us", false, true, 0, { NULL }, NULL,
      { { "futex_thread", "futex thread", 6, 5, LMB_CELL_NUM, C_FUTEX_T },
        { "futex_process", "futex process", 7, 5, LMB_CELL_NUM, C_FUTEX_P },
        { "eventfd_thread", "eventfd thread", 7, 5, LMB_CELL_NUM, C_EVFD_T },
        { "eventfd_process", "eventfd process", 7, 5, LMB_CELL_NUM, C_EVFD_P },
        { "epoll", "epoll wait", 5, 0, LMB_CELL_NUM, C_EPOLL },
        { "pthread_create", "thread create", 6, 5, LMB_CELL_NUM, C_PT_CREATE },
        { "pthread_mutex", "mutex hand-off", 8, 5, LMB_CELL_NUM, C_PT_MUTEX },
        { "pthread_cond", "cond var", 5, 0, LMB_CELL_NUM, C_PT_COND },
        { "io_uring_nop", "uring nop", 5, 0, LMB_CELL_NUM, C_URING_NOP },
        { "io_uring_read", "uring read", 5, 0, LMB_CELL_NUM, C_URING_READ } }, 10 },
    { "modern_processes",
      "Modern: processes and memory protection - times in microseconds - smaller is better",
      NULL, "us", false, true, 0, { NULL }, NULL,
      { { "fork", "fork proc", 5, 0, LMB_CELL_NUM, C_FORK },
        { "vfork", "vfork proc", 5, 0, LMB_CELL_NUM, C_VFORK },
        { "exec", "exec proc", 5, 0, LMB_CELL_NUM, C_EXEC },
        { "spawn", "spawn proc", 5, 0, LMB_CELL_NUM, C_SPAWN },
        { "mprotect", "mprotect per page", 8, 5, LMB_CELL_NUM, C_MPROTECT },
        { "madvise", "madvise per page", 8, 5, LMB_CELL_NUM, C_MADVISE } }, 6 },
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

static bool has_place(const struct lmb_rs_file *f, const char *ends)
{
    for (size_t i = 0; i < f->nrecs; i++) {
        const char *e = lmb_rs_pstr(&f->recs[i], "ends");
        if (e != NULL && strcmp(e, ends) == 0)
            return true;
    }
    return false;
}

const char *lmb_sum_placement(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                              bool *only)
{
    static const char *const order[] = { "same_cpu", "unpinned", "two_cpus" };
    const char *first = NULL;
    int n = 0;

    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (has_place(f, order[i])) {
            if (first == NULL)
                first = order[i];
            n++;
        }
    if (only != NULL)
        *only = n == 1 && (o == NULL || o->ends == NULL || strcmp(o->ends, first) == 0);
    if (o != NULL && o->ends != NULL)
        return o->ends;
    return first;
}

/* What the file holds for one cell: the record shown, and what explains a
 * blank or substituted cell. */
struct pick {
    const char *ends;                   /* the placement asked for (NULL: any) */
    const struct lmb_rs_record *rec;    /* ok, lmbench 3's quantity, the asked placement */
    const struct lmb_rs_record *top;    /* the same, any status (with maxkey: the largest) */
    const struct lmb_rs_record *miss;   /* the same, not ok */
    const struct lmb_rs_record *alien;  /* ok, the asked placement, another quantity */
    const struct lmb_rs_record *other;  /* ok, lmbench 3's quantity, another placement */
};

/* Keeps r in *slot when it is the last of equals or, with maxkey, the largest. */
static void keep(const struct lmb_rs_record **slot, const struct lmb_rs_record *r,
                 const char *maxkey)
{
    if (*slot == NULL || maxkey == NULL || lmb_rs_pnum(r, maxkey) >= lmb_rs_pnum(*slot, maxkey))
        *slot = r;
}

/* The records of benchmark b, case c (NULL: null case) with the wanted
 * parameters; with maxkey, the one with the largest such parameter. A record
 * of another placement than the one asked never fills the cell (p->other says
 * it is there); records without a placement (one-ended benchmarks) always may.
 * The last of equals wins (a later measurement of the same thing). The tables
 * are lmbench 3's: a figure that is not its quantity (compat other than
 * "same") never fills one of their cells. */
static const struct lmb_rs_record *find_c(const struct lmb_sum_opts *o,
                                          const struct lmb_rs_file *f, const char *b,
                                          const char *c, const struct want *w, size_t nw,
                                          const char *maxkey, struct pick *p, bool any_compat)
{
    struct pick local;

    if (p == NULL)
        p = &local;
    memset(p, 0, sizeof *p);
    p->ends = lmb_sum_placement(o, f, NULL);
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        const char *ends;
        bool good;
        if (!lmb_rs_is(r, b, c) || !matches(r, w, nw))
            continue;
        good = r->status == LMB_RS_OK && r->has_value;
        ends = lmb_rs_pstr(r, "ends");
        if (ends != NULL && p->ends != NULL && strcmp(ends, p->ends) != 0) {
            if (good && (r->compat == NULL || any_compat))
                keep(&p->other, r, maxkey);
            continue;
        }
        if (r->compat != NULL && !any_compat) {
            if (good)
                keep(&p->alien, r, maxkey);
            continue;
        }
        keep(&p->top, r, maxkey);
        keep(good ? &p->rec : &p->miss, r, maxkey);
    }
    return p->rec;
}

static const struct lmb_rs_record *find(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                                        const char *b, const char *c, const struct want *w,
                                        size_t nw, const char *maxkey, struct pick *p)
{
    return find_c(o, f, b, c, w, nw, maxkey, p, false);
}

#define W(k, v) { k, v, NULL }
#define WS(k, s) { k, 0, s }

void lmb_sum_title(const struct lmb_sum_table *t, bool percent, char *out, size_t len)
{
    static const char *const units[] = { " in microseconds", " in nanoseconds", " in MB/s" };
    static const char pct[] = " in percent of the best in each column";

    if (len == 0)
        return;
    if (!percent || !t->percent) {
        snprintf(out, len, "%s", t->title);
        return;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        const char *p = strstr(t->title, units[i]);
        if (p != NULL) {
            snprintf(out, len, "%.*s%s%s", (int)(p - t->title), t->title, pct,
                     p + strlen(units[i]));
            return;
        }
    }
    snprintf(out, len, "%s (%s)", t->title, pct + 4);
}

void lmb_sum_size_text(double b, char *out, size_t len)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int u = 0;

    while (b >= 1024 && u < 4 && fmod(b, 1024) == 0) {
        b /= 1024;
        u++;
    }
    snprintf(out, len, "%.0f %s", b, unit[u]);
}

/* "below resolution", "failed: why" ... of a record that is not ok. */
static void status_text(const struct lmb_rs_record *r, char *out, size_t len)
{
    static const char *const human[] = {
        [LMB_RS_OK] = "ok", [LMB_RS_SKIPPED] = "skipped", [LMB_RS_BELOW] = "below resolution",
        [LMB_RS_TIMEOUT] = "timed out", [LMB_RS_FAILED] = "failed",
    };
    const char *s = r->status <= LMB_RS_FAILED ? human[r->status] : "?";

    if (r->status == LMB_RS_OK && !r->has_value)
        s = "no value";
    if (r->reason != NULL && *r->reason)
        snprintf(out, len, "%s (%.120s)", s, r->reason);
    else
        snprintf(out, len, "%s", s);
}

static void say(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends a sentence to buf ("; " between two). */
static void say(char *buf, size_t len, const char *fmt, ...)
{
    size_t o = strlen(buf);
    va_list ap;

    if (o + 3 >= len)
        return;
    if (o > 0) {
        memcpy(buf + o, "; ", 3);
        o += 2;
    }
    va_start(ap, fmt);
    vsnprintf(buf + o, len - o, fmt, ap);
    va_end(ap);
}

/* The cell from a pick: its record's value, or blank and why. */
static void take(struct lmb_sum_cellx *x, const struct pick *p, const char *maxkey)
{
    char st[200];

    if (p->rec != NULL) {
        x->rec = p->rec;
        x->value = p->rec->value;
        if (maxkey != NULL && p->top != NULL &&
            lmb_rs_pnum(p->top, maxkey) > lmb_rs_pnum(p->rec, maxkey)) {
            char a[32], b[32];
            lmb_sum_size_text(lmb_rs_pnum(p->rec, maxkey), a, sizeof a);
            lmb_sum_size_text(lmb_rs_pnum(p->top, maxkey), b, sizeof b);
            status_text(p->top, st, sizeof st);
            say(x->subst, sizeof x->subst, "at %s, not the largest size %s: %s", a, b, st);
        }
        return;
    }
    if (p->miss != NULL) {
        status_text(p->miss, st, sizeof st);
        x->below = p->miss->status == LMB_RS_BELOW;
        say(x->blank, sizeof x->blank, "%s%s%s", p->ends && lmb_rs_pstr(p->miss, "ends") ? p->ends : "",
            p->ends && lmb_rs_pstr(p->miss, "ends") ? " " : "", st);
    } else if (p->alien != NULL) {
        say(x->blank, sizeof x->blank, "only a figure of another quantity (%.120s)", p->alien->compat);
    }
    if (p->other != NULL) {
        const char *e = lmb_rs_pstr(p->other, "ends");
        if (p->miss == NULL)
            say(x->blank, sizeof x->blank, "no %s figure", p->ends);
        say(x->blank, sizeof x->blank, "--ends %s shows the %s one", e, e);
    }
}

static void simple(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *b,
                   const char *c, struct lmb_sum_cellx *x)
{
    struct pick p;
    find(o, f, b, c, NULL, 0, NULL, &p);
    take(x, &p, NULL);
}

static void net_lat(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *b,
                    const char *c, bool remote, struct lmb_sum_cellx *x)
{
    struct want w[] = { W("remote", remote ? 1 : 0) };
    struct pick p;
    find(o, f, b, c, w, 1, NULL, &p);
    take(x, &p, NULL);
}

static void ctx(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, int procs, int kb,
                struct lmb_sum_cellx *x)
{
    struct want w[] = { W("procs", procs), W("size_kb", kb) };
    struct pick p;
    find(o, f, "lat_ctx", NULL, w, 2, NULL, &p);
    take(x, &p, NULL);
}

/* lat_fs at a file size: us per file. */
static void fs(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *c,
               double size, struct lmb_sum_cellx *x)
{
    struct want w[] = { W("size_bytes", size) };
    struct pick p;
    find(o, f, "lat_fs", c, w, 1, NULL, &p);
    take(x, &p, NULL);
}

static void largest(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *b,
                    const char *c, const char *key, const struct want *w, size_t nw,
                    struct lmb_sum_cellx *x)
{
    struct pick p;
    find(o, f, b, c, w, nw, key, &p);
    take(x, &p, key);
}

/* Bcopy: lmbench 3's "libc bcopy unaligned" (no conflict placement); a copy
 * of another placement only in its absence, said so. */
static void copy_cell(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *c,
                  struct lmb_sum_cellx *x)
{
    struct want w[] = { W("conflict", 0) };
    struct pick p, any;

    find(o, f, "bw_mem", c, w, 1, "size_bytes", &p);
    if (p.rec == NULL && find(o, f, "bw_mem", c, NULL, 0, "size_bytes", &any) != NULL) {
        const struct lmb_rs_param *cf = lmb_rs_param(any.rec, "conflict");
        take(x, &any, "size_bytes");
        say(x->subst, sizeof x->subst, "%s, not lmbench 3's unaligned copy (none ok in the file)",
            cf && cf->num ? "the aligned copy (conflict)" : "a copy of unknown alignment");
        return;
    }
    take(x, &p, "size_bytes");
}

static double header_int(const struct lmb_rs_file *f, const char *bench)
{
    const struct lmb_rs_record *r = find(NULL, f, bench, NULL, NULL, 0, NULL, NULL);
    return r ? r->value : NAN;
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

/* --- the Modern tables ------------------------------------------------------------ */

/* The Modern tables are ours, not lmbench 3's: their figures are records of
 * any compat ("new: " for a benchmark lmbench 3 lacks), one benchmark and case
 * a cell. */
static bool usable(const struct lmb_rs_record *r)
{
    return r->status == LMB_RS_OK && r->has_value && isfinite(r->value);
}

/* The only placement of the ok records of b/c, NULL when none or several. */
static const char *only_placement(const struct lmb_rs_file *f, const char *b, const char *c)
{
    const char *one = NULL;

    for (size_t i = 0; i < f->nrecs; i++) {
        const char *e = lmb_rs_pstr(&f->recs[i], "ends");
        if (!lmb_rs_is(&f->recs[i], b, c) || e == NULL || f->recs[i].status != LMB_RS_OK)
            continue;
        if (one != NULL && strcmp(one, e) != 0)
            return NULL;
        one = e;
    }
    return one;
}

/* A Modern cell of one record. Placement: the file's (or --ends'), as in
 * lmbench 3's tables; without --ends, a benchmark that measured none of the
 * file's placement but one other (lat_futex unpinned beside lat_ctx's
 * same_cpu) shows that one, said under the table. */
static void modern_pick(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *b,
                        const char *c, const struct want *w, size_t nw, const char *maxkey,
                        struct pick *p)
{
    const char *own;

    find_c(o, f, b, c, w, nw, maxkey, p, true);
    if (p->rec == NULL && p->miss == NULL && p->other != NULL && (o == NULL || o->ends == NULL) &&
        (own = only_placement(f, b, c)) != NULL) {
        struct lmb_sum_opts mine = { .ends = own };
        find_c(&mine, f, b, c, w, nw, maxkey, p, true);
    }
}

static void modern_simple(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                          const char *b, const char *c, struct lmb_sum_cellx *x)
{
    struct pick p;
    const char *asked = lmb_sum_placement(o, f, NULL), *e;

    modern_pick(o, f, b, c, NULL, 0, NULL, &p);
    take(x, &p, NULL);
    if (p.rec != NULL && (e = lmb_rs_pstr(p.rec, "ends")) != NULL && asked != NULL &&
        strcmp(e, asked) != 0)
        say(x->info, sizeof x->info, "ends %s (its only placement; the file's two-ended cells: "
            "%s)", e, asked);
}

static bool has_bench(const struct lmb_rs_file *f, const char *b)
{
    for (size_t i = 0; i < f->nrecs; i++)
        if (lmb_rs_is(&f->recs[i], b, "*"))
            return true;
    return false;
}

static int cmp_rec_value(const void *a, const void *b)
{
    const struct lmb_rs_record *x = *(const struct lmb_rs_record *const *)a;
    const struct lmb_rs_record *y = *(const struct lmb_rs_record *const *)b;
    return (x->value > y->value) - (x->value < y->value);
}

/* The ok records of benchmark b, case c, sorted by value (malloc'd, *n of
 * them; NULL when none), and the first record that is not ok in *miss and
 * their count in *nmiss. keyfn, when given, keeps only the records it
 * accepts. */
static const struct lmb_rs_record **gather(const struct lmb_rs_file *f, const char *b,
                                           const char *c,
                                           bool (*keyfn)(const struct lmb_rs_record *, const void *),
                                           const void *arg, size_t *n,
                                           const struct lmb_rs_record **miss, size_t *nmiss)
{
    const struct lmb_rs_record **v = malloc((f->nrecs ? f->nrecs : 1) * sizeof *v);

    *n = 0;
    *miss = NULL;
    *nmiss = 0;
    if (v == NULL)
        return NULL;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        if (!lmb_rs_is(r, b, c) || (keyfn != NULL && !keyfn(r, arg)))
            continue;
        if (usable(r)) {
            v[(*n)++] = r;
        } else {
            if (*miss == NULL)
                *miss = r;
            (*nmiss)++;
        }
    }
    if (*n == 0) {
        free(v);
        return NULL;
    }
    qsort(v, *n, sizeof *v, cmp_rec_value);
    return v;
}

/* The case of lat_c2c a file's cells show: the compare-and-swap ping-pong
 * when the file has it, else the load/store one. */
static const char *c2c_case(const struct lmb_rs_file *f)
{
    for (size_t i = 0; i < f->nrecs; i++)
        if (lmb_rs_is(&f->recs[i], "lat_c2c", "cas"))
            return "cas";
    return "store";
}

/* The record of the fastest (max false) or slowest pair of lat_c2c, NULL none. */
static const struct lmb_rs_record *c2c_end(const struct lmb_rs_file *f, bool max, size_t *pairs)
{
    const struct lmb_rs_record *miss, *r = NULL;
    size_t n, nmiss;
    const struct lmb_rs_record **v = gather(f, "lat_c2c", c2c_case(f), NULL, NULL, &n, &miss,
                                            &nmiss);
    if (v != NULL)
        r = v[max ? n - 1 : 0];
    if (pairs != NULL)
        *pairs = n;
    free(v);
    return r;
}

static void c2c_cell(const struct lmb_rs_file *f, int id, struct lmb_sum_cellx *x)
{
    const char *c = c2c_case(f);
    const struct lmb_rs_record *miss, **v;
    size_t n, nmiss;
    char st[200], also[300] = "";

    if (!has_bench(f, "lat_c2c"))
        return;
    v = gather(f, "lat_c2c", c, NULL, NULL, &n, &miss, &nmiss);
    if (miss != NULL) {
        status_text(miss, st, sizeof st);
        snprintf(also, sizeof also, "%zu pair%s unmeasured (%s%s)", nmiss, nmiss > 1 ? "s" : "",
                 nmiss > 1 ? "the first: " : "", st);
    }
    if (v == NULL) {
        if (miss != NULL)
            say(x->blank, sizeof x->blank, "%s", also);
        return;
    }
    if (id == C_C2C_PAIRS) {
        x->value = (double)n;
    } else if (id == C_C2C_MIN || id == C_C2C_MAX) {
        const struct lmb_rs_record *r = v[id == C_C2C_MIN ? 0 : n - 1];
        const char *rel = lmb_rs_pstr(r, "relation");
        x->rec = r;
        x->value = r->value;
        say(x->info, sizeof x->info, "CPUs %.0f and %.0f (%s), the %s of %zu pair%s", 
            lmb_rs_pnum(r, "cpu_a"), lmb_rs_pnum(r, "cpu_b"), rel ? rel : "relation unknown",
            id == C_C2C_MIN ? "fastest" : "slowest", n, n > 1 ? "s" : "");
    } else {
        x->value = n % 2 ? v[n / 2]->value : (v[n / 2 - 1]->value + v[n / 2]->value) / 2;
        x->rec = n % 2 ? v[n / 2] : NULL;
        if (strcmp(c, "store") == 0)
            say(x->info, sizeof x->info, "the load/store ping-pong (the file has no cas records)");
        if (also[0])
            say(x->info, sizeof x->info, "the median of %zu pairs; %s", n, also);
    }
    free(v);
}

/* lat_loaded: the load kind shown (reads where the file has them). */
static const char *loaded_kind(const struct lmb_rs_file *f)
{
    for (size_t i = 0; i < f->nrecs; i++) {
        const char *l = lmb_rs_pstr(&f->recs[i], "load");
        if (lmb_rs_is(&f->recs[i], "lat_loaded", "*") && l != NULL && strcmp(l, "rd") == 0)
            return "rd";
    }
    return "wr";
}

struct point_want {
    const char *load;
    double point;       /* NAN: any point but 0 */
};

static bool point_is(const struct lmb_rs_record *r, const void *arg)
{
    const struct point_want *w = arg;
    const char *l = lmb_rs_pstr(r, "load");
    double p = lmb_rs_pnum(r, "point");

    return l != NULL && strcmp(l, w->load) == 0 && (isnan(w->point) ? p > 0 : p == w->point);
}

static void loaded_info(const struct lmb_rs_record *r, const struct lmb_rs_record *bw,
                        char *buf, size_t len)
{
    const char *rate = lmb_rs_pstr(r, "rate");
    const struct lmb_rs_param *rp = lmb_rs_param(r, "rate");
    char rt[48];

    if (rate != NULL)
        snprintf(rt, sizeof rt, "%s%s", rate, strcmp(rate, "max") == 0 ? "" : " MB/s each");
    else if (rp != NULL)
        snprintf(rt, sizeof rt, "%g MB/s each", rp->num);
    else
        snprintf(rt, sizeof rt, "?");
    say(buf, len, "point %.0f: %.0f %s loader%s, rate %s, %.0f MB/s delivered",
        lmb_rs_pnum(r, "point"), lmb_rs_pnum(r, "loaders"), lmb_rs_pstr(r, "load"),
        lmb_rs_pnum(r, "loaders") == 1 ? "" : "s", rt, bw ? bw->value : NAN);
}

static void loaded_cell(const struct lmb_rs_file *f, int id, struct lmb_sum_cellx *x)
{
    struct point_want w = { loaded_kind(f), id == C_LD_IDLE ? 0 : NAN };
    const struct lmb_rs_record **bw, **lat, *miss, *bmiss;
    size_t nb, nl, nmiss, nbmiss;
    char st[200];

    if (!has_bench(f, "lat_loaded"))
        return;
    lat = gather(f, "lat_loaded", "latency", point_is, &w, &nl, &miss, &nmiss);
    if (id == C_LD_IDLE) {
        if (lat != NULL) {
            x->rec = lat[nl - 1];
            x->value = x->rec->value;
        } else if (miss != NULL) {
            status_text(miss, st, sizeof st);
            say(x->blank, sizeof x->blank, "no load, %s: %s", w.load, st);
        }
        free(lat);
        return;
    }
    bw = gather(f, "lat_loaded", "bandwidth", point_is, &w, &nb, &bmiss, &nbmiss);
    if (bw == NULL) {
        if (bmiss != NULL || miss != NULL) {
            status_text(bmiss ? bmiss : miss, st, sizeof st);
            say(x->blank, sizeof x->blank, "no loaded point measured (%s): %s", w.load, st);
        }
    } else {
        const struct lmb_rs_record *top = bw[nb - 1], *l = NULL;
        for (size_t i = 0; i < nl; i++)
            if (lmb_rs_pnum(lat[i], "point") == lmb_rs_pnum(top, "point"))
                l = lat[i];
        if (id == C_LD_BW) {
            x->rec = top;
            x->value = top->value;
            loaded_info(top, top, x->info, sizeof x->info);
        } else if (l != NULL) {
            x->rec = l;
            x->value = l->value;
            loaded_info(l, top, x->info, sizeof x->info);
        } else {
            say(x->blank, sizeof x->blank, "the latency at point %.0f (the highest bandwidth) "
                "was not measured", lmb_rs_pnum(top, "point"));
        }
    }
    free(bw);
    free(lat);
}

struct numa_want {
    bool local;
};

static bool numa_is(const struct lmb_rs_record *r, const void *arg)
{
    const struct numa_want *w = arg;
    double a = lmb_rs_pnum(r, "cpu_node"), b = lmb_rs_pnum(r, "mem_node");
    return !isnan(a) && !isnan(b) && (a == b) == w->local;
}

/* Whether the file's machine has one NUMA node: its context says so, or its
 * NUMA records name one node only. */
static bool one_node(const struct lmb_rs_file *f, const char *b)
{
    const char *nn = lmb_rs_context(f, "numa_nodes");
    double first = NAN;

    if (nn != NULL && strcmp(nn, "1") == 0)
        return true;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        double a = lmb_rs_pnum(r, "cpu_node"), m = lmb_rs_pnum(r, "mem_node");
        if (!lmb_rs_is(r, b, "*") || isnan(a) || isnan(m))
            continue;
        if (isnan(first))
            first = a;
        if (a != first || m != first)
            return false;
    }
    return !isnan(first);
}

/* NUMA cells: local, the median over the nodes of memory on the CPU's own
 * node; remote, the worst pair of different nodes (the highest latency, the
 * lowest bandwidth); "one node" where there is no remote memory. */
static void numa_cell(const struct lmb_rs_file *f, const char *b, bool local, bool higher,
                      struct lmb_sum_cellx *x)
{
    struct numa_want w = { local };
    const struct lmb_rs_record **v, *miss;
    size_t n, nmiss;
    char st[200];

    if (!has_bench(f, b))
        return;
    v = gather(f, b, "*", numa_is, &w, &n, &miss, &nmiss);
    if (v == NULL) {
        if (!local && one_node(f, b)) {
            snprintf(x->word, sizeof x->word, "one node");
            say(x->blank, sizeof x->blank, "one NUMA node: no remote memory to measure");
        } else if (miss != NULL) {
            status_text(miss, st, sizeof st);
            say(x->blank, sizeof x->blank, "%s", st);
        }
        return;
    }
    if (local) {
        x->value = n % 2 ? v[n / 2]->value : (v[n / 2 - 1]->value + v[n / 2]->value) / 2;
        x->rec = n % 2 ? v[n / 2] : NULL;
        if (n > 1)
            say(x->info, sizeof x->info, "the median of %zu nodes", n);
    } else {
        const struct lmb_rs_record *r = v[higher ? 0 : n - 1];
        x->rec = r;
        x->value = r->value;
        say(x->info, sizeof x->info, "CPU on node %.0f, memory on node %.0f: the worst of %zu "
            "remote pair%s", lmb_rs_pnum(r, "cpu_node"), lmb_rs_pnum(r, "mem_node"), n,
            n > 1 ? "s" : "");
    }
    if (miss != NULL) {
        status_text(miss, st, sizeof st);
        say(x->info, sizeof x->info, "%zu pair%s unmeasured (%s)", nmiss, nmiss > 1 ? "s" : "",
            st);
    }
    free(v);
}

/* Huge pages: lat_mem_rd at the largest size measured with 4 KiB pages and
 * with huge ones (thp, else 2m, else 1g), on the same curve (the random
 * chase where both have it, else the stride curve at the largest stride both
 * have). */
static const char *const huge_kinds[] = { "thp", "2m", "1g" };

static const struct lmb_rs_record *mem_at(const struct lmb_rs_file *f, const char *pages,
                                          const char *c, double stride, double size)
{
    const struct lmb_rs_record *best = NULL;

    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        const char *pg = lmb_rs_pstr(r, "pages");
        if (!usable(r) || !lmb_rs_is(r, "lat_mem_rd", c) || pg == NULL || strcmp(pg, pages) != 0 ||
            lmb_rs_pnum(r, "stride_bytes") != stride)
            continue;
        if (size > 0 ? lmb_rs_pnum(r, "size_bytes") == size
                     : best == NULL || lmb_rs_pnum(r, "size_bytes") >= lmb_rs_pnum(best, "size_bytes"))
            best = r;
    }
    return best;
}

/* The pair of records (4 KiB, huge) to compare; false when the file has no such pair. */
static bool huge_pair(const struct lmb_rs_file *f, const struct lmb_rs_record **small,
                      const struct lmb_rs_record **huge)
{
    static const char *const cases[] = { "random", "stride" };

    for (size_t k = 0; k < 3; k++)
        for (size_t c = 0; c < 2; c++) {
            double stride = NAN, size = NAN;
            /* The largest stride both have, then the largest size both have. */
            for (size_t i = 0; i < f->nrecs; i++) {
                const struct lmb_rs_record *r = &f->recs[i];
                const char *pg = lmb_rs_pstr(r, "pages");
                double s = lmb_rs_pnum(r, "stride_bytes");
                if (!usable(r) || !lmb_rs_is(r, "lat_mem_rd", cases[c]) || pg == NULL ||
                    strcmp(pg, "4k") != 0 || !(isnan(stride) || s > stride))
                    continue;
                if (mem_at(f, huge_kinds[k], cases[c], s, 0) != NULL)
                    stride = s;
            }
            if (isnan(stride))
                continue;
            for (size_t i = 0; i < f->nrecs; i++) {
                const struct lmb_rs_record *r = &f->recs[i];
                const char *pg = lmb_rs_pstr(r, "pages");
                double z = lmb_rs_pnum(r, "size_bytes");
                if (usable(r) && lmb_rs_is(r, "lat_mem_rd", cases[c]) && pg != NULL &&
                    strcmp(pg, "4k") == 0 && lmb_rs_pnum(r, "stride_bytes") == stride &&
                    (isnan(size) || z > size) && mem_at(f, huge_kinds[k], cases[c], stride, z))
                    size = z;
            }
            if (isnan(size))
                continue;
            *small = mem_at(f, "4k", cases[c], stride, size);
            *huge = mem_at(f, huge_kinds[k], cases[c], stride, size);
            return *small != NULL && *huge != NULL;
        }
    return false;
}

static void huge_cell(const struct lmb_rs_file *f, bool huge, struct lmb_sum_cellx *x)
{
    const struct lmb_rs_record *a = NULL, *b = NULL, *r, *miss = NULL;
    bool small_seen = false, huge_seen = false;
    char sz[32], st[200];

    for (size_t i = 0; i < f->nrecs; i++) {
        const char *pg = lmb_rs_pstr(&f->recs[i], "pages");
        if (!lmb_rs_is(&f->recs[i], "lat_mem_rd", "*") || pg == NULL)
            continue;
        if (strcmp(pg, "4k") == 0)
            small_seen = true;
        for (size_t k = 0; k < 3; k++)
            if (strcmp(pg, huge_kinds[k]) == 0) {
                huge_seen = true;
                if (!usable(&f->recs[i]) && miss == NULL)
                    miss = &f->recs[i];
            }
    }
    if (!huge_pair(f, &a, &b)) {
        /* One kind alone is nothing to compare: the huge-page cell says why. */
        if (huge && miss != NULL && small_seen) {
            status_text(miss, st, sizeof st);
            say(x->blank, sizeof x->blank, "%s pages: %s", lmb_rs_pstr(miss, "pages"), st);
        } else if (huge && small_seen) {
            say(x->blank, sizeof x->blank, "%s", huge_seen ? "no huge-page point on a 4K curve's "
                "sizes" : "no huge-page record (pages thp, 2m or 1g) beside the 4K one");
        } else if (huge && huge_seen) {
            say(x->blank, sizeof x->blank, "no 4K-page record (pages 4k) beside the huge-page one");
        }
        return;
    }
    r = huge ? b : a;
    x->rec = r;
    x->value = r->value;
    lmb_sum_size_text(lmb_rs_pnum(r, "size_bytes"), sz, sizeof sz);
    say(x->info, sizeof x->info, "pages %s: lat_mem_rd %s, stride %.0f, at %s",
        lmb_rs_pstr(r, "pages"), r->case_name ? r->case_name : "", lmb_rs_pnum(r, "stride_bytes"),
        sz);
    if (huge) {
        double pct = lmb_rs_pnum(r, "huge_percent");
        if (!isnan(pct) && pct < 50)
            say(x->subst, sizeof x->subst, "%s pages asked, %.0f%% of the buffer obtained in huge "
                "pages", lmb_rs_pstr(r, "pages"), pct);
        else if (!isnan(pct))
            say(x->info, sizeof x->info, "%.0f%% in huge pages", pct);
    }
}

/* epoll_wait among the most descriptors the file measured (lat_epoll's
 * default is 200), said under the table. */
static void epoll_cell(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                       struct lmb_sum_cellx *x)
{
    struct pick p;
    char st[200];

    modern_pick(o, f, "lat_epoll", NULL, NULL, 0, "fds", &p);
    take(x, &p, NULL);
    if (p.rec != NULL && p.top != NULL && lmb_rs_pnum(p.top, "fds") > lmb_rs_pnum(p.rec, "fds")) {
        status_text(p.top, st, sizeof st);
        say(x->subst, sizeof x->subst, "among %.0f descriptors, not the most, %.0f: %s",
            lmb_rs_pnum(p.rec, "fds"), lmb_rs_pnum(p.top, "fds"), st);
    } else if (p.rec != NULL) {
        say(x->info, sizeof x->info, "among %.0f descriptors", lmb_rs_pnum(p.rec, "fds"));
    }
}

/* mprotect, madvise per page at the most pages measured. */
static void pages_cell(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, const char *c,
                       struct lmb_sum_cellx *x)
{
    struct pick p;
    char st[200];

    modern_pick(o, f, "lat_mprotect", c, NULL, 0, "pages", &p);
    take(x, &p, NULL);
    if (p.rec != NULL && p.top != NULL && lmb_rs_pnum(p.top, "pages") > lmb_rs_pnum(p.rec, "pages")) {
        status_text(p.top, st, sizeof st);
        say(x->subst, sizeof x->subst, "over %.0f pages, not the most, %.0f: %s",
            lmb_rs_pnum(p.rec, "pages"), lmb_rs_pnum(p.top, "pages"), st);
    }
}

/* The text of a Modern table's text cells (the relation of a pair). */
static void modern_text(const struct lmb_rs_file *f, int id, char *text, size_t len)
{
    const struct lmb_rs_record *r = c2c_end(f, id == C_C2C_MAX_REL, NULL);
    const char *rel = r ? lmb_rs_pstr(r, "relation") : NULL;

    snprintf(text, len, "%s", rel ? rel : r ? "?" : "");
}

static bool modern_lookup(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, int id,
                          struct lmb_sum_cellx *x)
{
    switch (id) {
    case C_C2C_PAIRS: case C_C2C_MIN: case C_C2C_MED: case C_C2C_MAX:
        c2c_cell(f, id, x);
        return true;
    case C_LD_IDLE: case C_LD_LAT: case C_LD_BW:
        loaded_cell(f, id, x);
        return true;
    case C_NUMA_LAT_LOCAL: numa_cell(f, "lat_numa", true, false, x); return true;
    case C_NUMA_LAT_REMOTE: numa_cell(f, "lat_numa", false, false, x); return true;
    case C_NUMA_BW_LOCAL: numa_cell(f, "bw_numa", true, true, x); return true;
    case C_NUMA_BW_REMOTE: numa_cell(f, "bw_numa", false, true, x); return true;
    case C_HP_4K: huge_cell(f, false, x); return true;
    case C_HP_HUGE: huge_cell(f, true, x); return true;
    case C_FUTEX_T: modern_simple(o, f, "lat_futex", "thread", x); return true;
    case C_FUTEX_P: modern_simple(o, f, "lat_futex", "process", x); return true;
    case C_EVFD_T: modern_simple(o, f, "lat_eventfd", "thread", x); return true;
    case C_EVFD_P: modern_simple(o, f, "lat_eventfd", "process", x); return true;
    case C_EPOLL: epoll_cell(o, f, x); return true;
    case C_PT_CREATE: modern_simple(o, f, "lat_pthread", "create", x); return true;
    case C_PT_MUTEX: modern_simple(o, f, "lat_pthread", "mutex", x); return true;
    case C_PT_COND: modern_simple(o, f, "lat_pthread", "cond", x); return true;
    case C_URING_NOP: modern_simple(o, f, "lat_io_uring", "nop", x); return true;
    case C_URING_READ: modern_simple(o, f, "lat_io_uring", "read", x); return true;
    case C_VFORK: modern_simple(o, f, "lat_proc", "vfork", x); return true;
    case C_SPAWN: modern_simple(o, f, "lat_proc", "spawn", x); return true;
    case C_MPROTECT: pages_cell(o, f, "mprotect", x); return true;
    case C_MADVISE: pages_cell(o, f, "madvise", x); return true;
    }
    return false;
}

/* The cell's figure: value, record and what explains it, before judging. */
static void lookup(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, int id,
                   struct lmb_sum_cellx *x)
{
    bool remote = false;

    if (id >= C_OPS && id < C_CTX_2_0) {
        int t = (id - C_OPS) / 10, op = (id - C_OPS) % 10;
        struct want w[] = { WS("type", type_names[t]) };
        struct pick p;
        find(o, f, "lat_ops", op_names[op], w, 1, NULL, &p);
        take(x, &p, NULL);
        return;
    }
    if (modern_lookup(o, f, id, x))
        return;
    if (id >= C_LAT_PIPE + C_REMOTE && id < C_FS_0C) {
        id -= C_REMOTE;
        remote = true;
    }
    switch (id) {
    case C_MHZ:
    case C_ML_MHZ:
        x->value = header_int(f, "mhz");
        return;
    case C_TLB:
        x->value = header_int(f, "tlb");
        return;
    case C_LINE:
        x->value = header_int(f, "line");
        return;
    case C_MEMPAR:
        largest(o, f, "par_mem", NULL, "size_bytes", NULL, 0, x);
        return;
    case C_SCAL:
        x->value = f->parallel > 0 ? f->parallel : NAN;
        return;
    case C_NULLCALL:
        simple(o, f, "lat_syscall", "null", x);
        return;
    case C_NULLIO: {
        struct lmb_sum_cellx r, w;
        memset(&r, 0, sizeof r);
        memset(&w, 0, sizeof w);
        r.value = w.value = r.spread = w.spread = NAN;
        simple(o, f, "lat_syscall", "read", &r);
        simple(o, f, "lat_syscall", "write", &w);
        if (r.rec != NULL && w.rec != NULL) {
            *x = r;
            x->value = (r.value + w.value) / 2;
            x->disturbed = r.rec->disturbed || w.rec->disturbed;
            /* The noisier of the two. */
            if (lmb_sum_spread(w.rec, NULL) > lmb_sum_spread(r.rec, NULL))
                x->rec = w.rec;
        } else if (r.rec != NULL || w.rec != NULL) {
            const struct lmb_sum_cellx *has = r.rec ? &r : &w, *lacks = r.rec ? &w : &r;
            *x = *has;
            say(x->subst, sizeof x->subst, "%s only (lmbench 3's is the mean of read and write); "
                "%s: %s", r.rec ? "read" : "write", r.rec ? "write" : "read",
                lacks->blank[0] ? lacks->blank : "not measured");
        } else {
            *x = r.blank[0] ? r : w;
        }
        return;
    }
    case C_STAT:
        simple(o, f, "lat_syscall", "stat", x);
        return;
    case C_OPEN:
        simple(o, f, "lat_syscall", "open", x);
        return;
    case C_SLCT_TCP:
    case C_SLCT_FILE: {
        struct want w[] = { W("nfds", 100) };
        struct pick p;
        find(o, f, "lat_select", id == C_SLCT_TCP ? "tcp" : "file", w, 1, NULL, &p);
        take(x, &p, NULL);
        return;
    }
    case C_SIG_INST:
        simple(o, f, "lat_sig", "install", x);
        return;
    case C_SIG_HNDL:
        simple(o, f, "lat_sig", "catch", x);
        return;
    case C_PROT:
        simple(o, f, "lat_sig", "prot", x);
        return;
    case C_FORK:
        simple(o, f, "lat_proc", "fork", x);
        return;
    case C_EXEC:
        simple(o, f, "lat_proc", "exec", x);
        return;
    case C_SHELL:
        simple(o, f, "lat_proc", "shell", x);
        return;
    case C_CTX_2_0: ctx(o, f, 2, 0, x); return;
    case C_CTX_2_16: ctx(o, f, 2, 16, x); return;
    case C_CTX_2_64: ctx(o, f, 2, 64, x); return;
    case C_CTX_8_16: ctx(o, f, 8, 16, x); return;
    case C_CTX_8_64: ctx(o, f, 8, 64, x); return;
    case C_CTX_16_16: ctx(o, f, 16, 16, x); return;
    case C_CTX_16_64: ctx(o, f, 16, 64, x); return;
    case C_LAT_PIPE:
        simple(o, f, "lat_pipe", NULL, x);
        return;
    case C_LAT_UNIX:
        simple(o, f, "lat_unix", NULL, x);
        return;
    case C_LAT_UDP:
        net_lat(o, f, "lat_udp", NULL, remote, x);
        return;
    case C_LAT_RPC_UDP:
        net_lat(o, f, "lat_rpc", "udp", remote, x);
        return;
    case C_LAT_TCP:
        net_lat(o, f, "lat_tcp", NULL, remote, x);
        return;
    case C_LAT_RPC_TCP:
        net_lat(o, f, "lat_rpc", "tcp", remote, x);
        return;
    case C_LAT_CONNECT:
        net_lat(o, f, "lat_connect", NULL, remote, x);
        return;
    case C_FS_0C: fs(o, f, "create", 0, x); return;
    case C_FS_0D: fs(o, f, "delete", 0, x); return;
    case C_FS_10C: fs(o, f, "create", 10240, x); return;
    case C_FS_10D: fs(o, f, "delete", 10240, x); return;
    case C_MMAP:
        largest(o, f, "lat_mmap", NULL, "size_bytes", NULL, 0, x);
        return;
    case C_PAGEFAULT:
        simple(o, f, "lat_pagefault", NULL, x);
        return;
    case C_BW_PIPE:
        simple(o, f, "bw_pipe", NULL, x);
        return;
    case C_BW_UNIX:
        simple(o, f, "bw_unix", NULL, x);
        return;
    case C_BW_TCP: {
        struct want w[] = { W("remote", 0) };
        largest(o, f, "bw_tcp", NULL, "msg_bytes", w, 1, x);
        return;
    }
    case C_BW_FILE:
        largest(o, f, "bw_file_rd", "io_only", "size_bytes", NULL, 0, x);
        return;
    case C_BW_MMAP:
        largest(o, f, "bw_mmap_rd", "mmap_only", "size_bytes", NULL, 0, x);
        return;
    case C_BW_BCOPY:
        copy_cell(o, f, "bcopy", x);
        return;
    case C_BW_FCP:
        copy_cell(o, f, "fcp", x);
        return;
    case C_BW_FRD:
        largest(o, f, "bw_mem", "frd", "size_bytes", NULL, 0, x);
        return;
    case C_BW_FWR:
        largest(o, f, "bw_mem", "fwr", "size_bytes", NULL, 0, x);
        return;
    case C_ML_L1:
    case C_ML_L2:
    case C_ML_L3:
    case C_ML_MAIN:
    case C_ML_RAND: {
        struct lmb_memlat m;
        lmb_memlat_summarize(f, &m);
        if (id == C_ML_MAIN)
            x->value = m.main_ns;
        else if (id == C_ML_RAND)
            x->value = m.rand_ns;
        else
            x->value = (size_t)(id - C_ML_L1) < m.nlevels ? m.level_ns[id - C_ML_L1] : NAN;
        return;
    }
    }
}

/* --- judging ---------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cv_percent(const double *v, size_t n)
{
    double mean = 0, ss = 0;

    if (n < 2)
        return NAN;
    for (size_t i = 0; i < n; i++)
        mean += v[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    if (!(mean > 0))
        return NAN;
    return 100.0 * sqrt(ss / (double)(n - 1)) / mean;
}

double lmb_sum_spread(const struct lmb_rs_record *r, size_t *launches)
{
    if (launches != NULL)
        *launches = 0;
    if (r == NULL)
        return NAN;
    if (r->nlaunches >= 2 && r->launch_n != NULL) {
        double med[128], buf[4096];
        size_t n = 0, at = 0;
        for (size_t l = 0; l < r->nlaunches && n < 128; l++) {
            size_t k = r->launch_n[l];
            if (k == 0 || at + k > r->nsamples || k > 4096)
                break;
            memcpy(buf, r->samples + at, k * sizeof *buf);
            qsort(buf, k, sizeof *buf, cmp_double);
            med[n++] = k % 2 ? buf[k / 2] : (buf[k / 2 - 1] + buf[k / 2]) / 2;
            at += k;
        }
        if (n >= 2) {
            if (launches != NULL)
                *launches = n;
            return cv_percent(med, n);
        }
    }
    return cv_percent(r->samples, r->nsamples);
}

/* The column whose figure a context switch with more data is compared with:
 * the same number of processes with less data; 0 none. */
static int ctx_less_data(int id)
{
    switch (id) {
    case C_CTX_2_16: return C_CTX_2_0;
    case C_CTX_2_64: return C_CTX_2_16;
    case C_CTX_8_64: return C_CTX_8_16;
    case C_CTX_16_64: return C_CTX_16_16;
    }
    return 0;
}

static const char *ctx_name(int id)
{
    static const char *const n[] = { "2p/0K", "2p/16K", "2p/64K", "8p/16K", "8p/64K",
                                     "16p/16K", "16p/64K" };
    return id >= C_CTX_2_0 && id <= C_CTX_16_64 ? n[id - C_CTX_2_0] : "?";
}

static bool same_str(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The best bandwidth of the records of r's curve (its benchmark, case and
 * conflict placement) at sizes of at most r's size / 16: the caches, when r is
 * at a size beyond them. NAN when there is none. */
static double bw_cache_best(const struct lmb_rs_file *f, const struct lmb_rs_record *r)
{
    double size = lmb_rs_pnum(r, "size_bytes"), cf = lmb_rs_pnum(r, "conflict"), best = NAN;

    if (!(size > 0))
        return NAN;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *q = &f->recs[i];
        double qs = lmb_rs_pnum(q, "size_bytes"), qc = lmb_rs_pnum(q, "conflict");
        if (q->status != LMB_RS_OK || !q->has_value || q->compat != NULL ||
            !lmb_rs_is(q, r->benchmark, r->case_name) || !(qs <= size / 16) ||
            !(qc == cf || (isnan(qc) && isnan(cf))))
            continue;
        if (isnan(best) || q->value > best)
            best = q->value;
    }
    return best;
}

/* The rules a figure of the summary must pass to be shown plainly. */
static void judge(const struct lmb_sum_opts *o, const struct lmb_rs_file *f, int id,
                  struct lmb_sum_cellx *x)
{
    char why[200];
    int less = ctx_less_data(id);

    if (isnan(x->value))
        return;
    if (!(x->value > 0))
        say(x->doubt, sizeof x->doubt, "%.3g is not positive", x->value);
    x->noisy = x->spread > LMB_SUM_SPREAD_DOUBT;
    if (id == C_MEMPAR && x->rec != NULL) {
        double k = lmb_rs_pnum(x->rec, "chains");
        /* Without the chain count only the lower bound can be judged. */
        if (!lmb_judge_parallelism(x->value, k >= 1 ? (unsigned)k : 1u << 20, why, sizeof why))
            say(x->doubt, sizeof x->doubt, "%s", why);
    }
    if (less && x->rec != NULL) {
        struct lmb_sum_cellx y;
        memset(&y, 0, sizeof y);
        y.value = NAN;
        lookup(o, f, less, &y);
        if (y.rec != NULL &&
            same_str(lmb_rs_pstr(x->rec, "ends"), lmb_rs_pstr(y.rec, "ends")) &&
            x->value < y.value * (1 - LMB_SUM_CTX_SLACK))
            say(x->doubt, sizeof x->doubt, "%.3g with more data is faster than %s's %.3g "
                "(both %s)", x->value, ctx_name(less), y.value,
                lmb_rs_pstr(x->rec, "ends") ? lmb_rs_pstr(x->rec, "ends") : "of one placement");
    }
    if (id >= C_ML_L2 && id <= C_ML_RAND) {
        /* Each level at least as slow as the one before; the random chase at
         * least as slow as the stride's memory. */
        struct lmb_sum_cellx y;
        int prev = id == C_ML_RAND ? C_ML_MAIN : id - 1;
        static const char *const name[] = { "L1 $", "L2 $", "L3 $", "Main mem", "Rand mem" };
        memset(&y, 0, sizeof y);
        y.value = NAN;
        lookup(o, f, prev, &y);
        /* Main mem follows the last level found. */
        while (isnan(y.value) && prev > C_ML_L1 && id == C_ML_MAIN) {
            prev--;
            lookup(o, f, prev, &y);
        }
        if (!isnan(y.value) && x->value < y.value * (1 - LMB_SUM_LEVEL_SLACK))
            say(x->doubt, sizeof x->doubt, "%.3g ns is faster than %s's %.3g ns", x->value,
                name[prev - C_ML_L1], y.value);
    }
    if (x->rec != NULL && lmb_rs_is(x->rec, "bw_mem", "*")) {
        double best = bw_cache_best(f, x->rec);
        if (!isnan(best) && x->value > best * (1 + LMB_SUM_BW_SLACK)) {
            char a[32];
            lmb_sum_size_text(lmb_rs_pnum(x->rec, "size_bytes"), a, sizeof a);
            say(x->doubt, sizeof x->doubt, "%.0f MB/s at %s is faster than any size that fits "
                "a cache (at most %.0f MB/s)", x->value, a, best);
        }
    }
}

void lmb_sum_cell_ex(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                     const struct lmb_sum_col *c, struct lmb_sum_cellx *x)
{
    memset(x, 0, sizeof *x);
    x->value = NAN;
    x->spread = NAN;
    if (c->kind == LMB_CELL_DESC || c->kind == LMB_CELL_TEXT)
        return;
    lookup(o, f, c->id, x);
    if (x->rec != NULL) {
        x->disturbed = x->disturbed || x->rec->disturbed;
        x->spread = lmb_sum_spread(x->rec, &x->spread_launches);
    }
    if (c->kind == LMB_CELL_NUM)
        judge(o, f, c->id, x);
    x->mark = x->doubt[0] || x->noisy ? LMB_SUM_MARK_DOUBT : x->subst[0] ? LMB_SUM_MARK_SUBST : 0;
}

double lmb_sum_cell(const struct lmb_sum_opts *o, const struct lmb_rs_file *f,
                    const struct lmb_sum_col *c, char *text, size_t textlen)
{
    struct lmb_sum_cellx x;

    if (text && textlen)
        text[0] = '\0';
    if (c->kind == LMB_CELL_DESC || c->kind == LMB_CELL_TEXT) {
        if (text == NULL || textlen == 0)
            return NAN;
        if (c->id == C_DESC) {
            lmb_sum_platform(f, text, textlen);
        } else if (c->id == C_C2C_MIN_REL || c->id == C_C2C_MAX_REL) {
            modern_text(f, c->id, text, textlen);
        } else if (c->id == C_ML_GUESS) {
            struct lmb_memlat m;
            lmb_memlat_summarize(f, &m);
            snprintf(text, textlen, "%s", m.guesses);
        }
        return NAN;
    }
    lmb_sum_cell_ex(o, f, c, &x);
    return x.value;
}

/* --- context ------------------------------------------------------------------- */

/* Whether s starts a new entry of the mitigations list: a lower-case name and
 * ": " (the states' own parts, "IBPB: conditional", are capitalised). */
static bool entry_start(const char *s)
{
    const char *p = s;

    if (!islower((unsigned char)*p))
        return false;
    while (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_')
        p++;
    return p[0] == ':' && p[1] == ' ';
}

void lmb_sum_mitigations(const char *v, char *out, size_t len)
{
    int n = 0, mitigated = 0, vulnerable = 0, unaffected = 0, other = 0;
    char vuln[160] = "", name[64];
    const char *s = v;

    while (s != NULL && *s) {
        const char *colon = strstr(s, ": "), *next = s, *state;
        size_t nl;
        /* The entry ends where the next one starts. */
        for (next = strstr(s, "; "); next != NULL && !entry_start(next + 2);
             next = strstr(next + 2, "; "))
            ;
        if (colon == NULL || (next != NULL && colon > next))
            break;
        nl = (size_t)(colon - s);
        snprintf(name, sizeof name, "%.*s", (int)(nl < sizeof name ? nl : sizeof name - 1), s);
        state = colon + 2;
        n++;
        if (strncmp(state, "Not affected", 12) == 0)
            unaffected++;
        else if (strncmp(state, "Vulnerable", 10) == 0) {
            vulnerable++;
            say(vuln, sizeof vuln, "%s", name);
        } else if (strstr(state, "Mitigation") != NULL && (next == NULL || strstr(state, "Mitigation") < next))
            mitigated++;
        else
            other++;
        s = next ? next + 2 : NULL;
    }
    if (n == 0) {
        snprintf(out, len, "%s", v && *v ? "not understood" : "unknown");
        return;
    }
    for (char *c = vuln; *c; c++)
        if (*c == ';')
            *c = ',';
    snprintf(out, len, "%d of %d mitigated, %d vulnerable%s%s%s, %d not affected", mitigated, n,
             vulnerable, vulnerable ? " (" : "", vuln, vulnerable ? ")" : "", unaffected);
    if (other > 0) {
        size_t o = strlen(out);
        if (o < len)
            snprintf(out + o, len - o, ", %d other", other);
    }
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

/* --- the Modern tables' columns and matrices --------------------------------------- */

bool lmb_sum_dynamic(const struct lmb_sum_table *t)
{
    return t->dashes == NULL;
}

bool lmb_sum_repeated(const struct lmb_sum_table *t, int c)
{
    for (const struct lmb_sum_table *u = lmb_sum_tables; u < t; u++)
        for (int i = 0; i < u->ncols; i++)
            if (u->cols[i].id == t->cols[c].id)
                return true;
    return false;
}

/* Whether some file has something to show in column c: a figure (or text),
 * or, unless figure_only, a blank cell to explain. */
static bool col_has(const struct lmb_sum_opts *o, const struct lmb_rs_file *files, int nfiles,
                    const struct lmb_sum_col *c, bool figure_only)
{
    for (int r = 0; r < nfiles; r++) {
        struct lmb_sum_cellx x;
        char text[200];
        if (c->kind == LMB_CELL_DESC || c->kind == LMB_CELL_TEXT) {
            lmb_sum_cell(o, &files[r], c, text, sizeof text);
            if (text[0])
                return true;
            continue;
        }
        lmb_sum_cell_ex(o, &files[r], c, &x);
        if (!isnan(x.value) || (!figure_only && (x.blank[0] || x.word[0])))
            return true;
    }
    return false;
}

int lmb_sum_shown_cols(const struct lmb_sum_opts *o, const struct lmb_rs_file *files,
                       int nfiles, const struct lmb_sum_table *t, int *idx)
{
    int n = 0, own = 0;

    if (!lmb_sum_dynamic(t)) {
        for (int c = 0; c < t->ncols; c++)
            idx[n++] = c;
        return n;
    }
    for (int c = 0; c < t->ncols; c++)
        if (t->cols[c].kind == LMB_CELL_NUM && !lmb_sum_repeated(t, c) &&
            col_has(o, files, nfiles, &t->cols[c], false))
            own++;
    if (own == 0)
        return 0;
    for (int c = 0; c < t->ncols; c++)
        if (col_has(o, files, nfiles, &t->cols[c], lmb_sum_repeated(t, c) ||
                                                    t->cols[c].kind != LMB_CELL_NUM))
            idx[n++] = c;
    return n;
}

int lmb_sum_dynamic_head(const struct lmb_sum_table *t, const int *idx, int n, char head[3][512],
                         char *dashes, size_t len)
{
    int lines = 1;
    size_t at[3];

    for (int l = 0; l < 3; l++) {
        at[l] = (size_t)snprintf(head[l], 512, "%s", l == 0 ? HOST_OS_HEAD : "");
        if (l > 0)
            at[l] = (size_t)snprintf(head[l], 512, "%23s", "");
    }
    snprintf(dashes, len, "%s", HOST_OS_DASH);
    for (int k = 0; k < n; k++) {
        const struct lmb_sum_col *c = &t->cols[idx[k]];
        char words[3][64] = { "", "", "" };
        const char *s = c->label;
        int l = 0, w = c->width > 0 ? c->width : 8;
        size_t o = strlen(dashes);
        /* The label's words, as many on a line as the width holds. */
        while (*s && l < 3) {
            size_t wl = strcspn(s, " "), have = strlen(words[l]);
            if (have > 0 && have + 1 + wl > (size_t)w) {
                if (++l == 3)
                    break;
                have = 0;
            }
            snprintf(words[l] + have, sizeof words[l] - have, "%s%.*s", have ? " " : "", (int)wl,
                     s);
            s += wl;
            while (*s == ' ')
                s++;
        }
        if (l + 1 > lines)
            lines = l + 1 > 3 ? 3 : l + 1;
        for (int i = 0; i < 3; i++)
            if (at[i] < 512)
                at[i] += (size_t)snprintf(head[i] + at[i], 512 - at[i], " %-*.*s", w, w, words[i]);
        if (o + 1 < len) {
            dashes[o++] = ' ';
            for (int i = 0; i < w && o + 1 < len; i++)
                dashes[o++] = '-';
            dashes[o] = '\0';
        }
    }
    for (int i = 0; i < 3; i++) {
        size_t e = strlen(head[i]);
        while (e > 0 && head[i][e - 1] == ' ')
            head[i][--e] = '\0';
    }
    return lines;
}

char lmb_sum_relation_letter(const char *relation)
{
    if (relation == NULL)
        return 0;
    if (strcmp(relation, "smt") == 0)
        return 's';
    if (strcmp(relation, "core") == 0)
        return 'c';
    if (strcmp(relation, "socket") == 0)
        return 'S';
    return 'u';
}

void lmb_sum_matrices_free(struct lmb_sum_matrix *m, int n)
{
    for (int i = 0; m != NULL && i < n; i++) {
        free(m[i].ids);
        free(m[i].v);
        free(m[i].rel);
        free(m[i].why);
    }
    free(m);
}

static int id_index(const int *ids, int n, int id)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return i;
    return -1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* One matrix of the records of benchmark b, case c (NULL: any), with row and
 * column from the parameters ka and kb; symmetric fills both halves. Returns
 * 0, 1 when there is no such record, -1 on a lack of memory. */
static int matrix_of(const struct lmb_rs_file *f, const char *b, const char *c, const char *ka,
                     const char *kb, bool symmetric, struct lmb_sum_matrix *m)
{
    int n = 0;

    memset(m, 0, sizeof *m);
    m->ids = malloc((2 * f->nrecs + 1) * sizeof *m->ids);
    if (m->ids == NULL)
        return -1;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        double a = lmb_rs_pnum(r, ka), z = lmb_rs_pnum(r, kb);
        if (!lmb_rs_is(r, b, c ? c : "*") || isnan(a) || isnan(z))
            continue;
        if (id_index(m->ids, n, (int)a) < 0)
            m->ids[n++] = (int)a;
        if (id_index(m->ids, n, (int)z) < 0)
            m->ids[n++] = (int)z;
    }
    if (n == 0) {
        free(m->ids);
        m->ids = NULL;
        return 1;
    }
    qsort(m->ids, (size_t)n, sizeof *m->ids, cmp_int);
    m->n = n;
    m->v = malloc((size_t)n * (size_t)n * sizeof *m->v);
    m->rel = calloc((size_t)n * (size_t)n, 1);
    m->why = calloc((size_t)n * (size_t)n, sizeof *m->why);
    if (m->v == NULL || m->rel == NULL || m->why == NULL)
        return -1;
    for (int i = 0; i < n * n; i++)
        m->v[i] = NAN;
    for (size_t i = 0; i < f->nrecs; i++) {
        const struct lmb_rs_record *r = &f->recs[i];
        double a = lmb_rs_pnum(r, ka), z = lmb_rs_pnum(r, kb);
        int ia, iz;
        if (!lmb_rs_is(r, b, c ? c : "*") || isnan(a) || isnan(z))
            continue;
        ia = id_index(m->ids, n, (int)a);
        iz = id_index(m->ids, n, (int)z);
        for (int k = 0; k < (symmetric && ia != iz ? 2 : 1); k++) {
            size_t at = k == 0 ? (size_t)ia * (size_t)n + (size_t)iz
                               : (size_t)iz * (size_t)n + (size_t)ia;
            m->rel[at] = lmb_sum_relation_letter(lmb_rs_pstr(r, "relation"));
            if (usable(r)) {
                m->v[at] = r->value;
                m->why[at] = NULL;
            } else {
                m->v[at] = NAN;
                m->why[at] = r->reason && *r->reason ? r->reason : lmb_rs_status_name(r->status);
            }
        }
        if (usable(r))
            m->measured++;
        else
            m->unmeasured++;
    }
    return 0;
}

int lmb_sum_matrices(const struct lmb_rs_file *f, struct lmb_sum_matrix **out)
{
    static const struct {
        const char *key, *bench, *c, *ka, *kb, *title, *unit, *axis;
        bool sym, higher;
    } kinds[] = {
        { "c2c_cas", "lat_c2c", "cas", "cpu_a", "cpu_b",
          "Core-to-core round trip (lat_c2c cas)", "ns", "CPU", true, false },
        { "c2c_store", "lat_c2c", "store", "cpu_a", "cpu_b",
          "Core-to-core round trip (lat_c2c store)", "ns", "CPU", true, false },
        { "numa_latency", "lat_numa", NULL, "cpu_node", "mem_node",
          "NUMA latency (lat_numa; rows: the CPU's node, columns: the memory's)", "ns", "node",
          false, false },
        { "numa_bandwidth", "bw_numa", NULL, "cpu_node", "mem_node",
          "NUMA bandwidth (bw_numa rd; rows: the CPU's node, columns: the memory's)", "MB/s",
          "node", false, true },
    };
    const size_t nk = sizeof kinds / sizeof kinds[0];
    struct lmb_sum_matrix *m = calloc(nk, sizeof *m);
    int n = 0;

    *out = NULL;
    if (m == NULL)
        return -1;
    for (size_t k = 0; k < nk; k++) {
        int rc = matrix_of(f, kinds[k].bench, kinds[k].c, kinds[k].ka, kinds[k].kb, kinds[k].sym,
                           &m[n]);
        if (rc < 0) {
            lmb_sum_matrices_free(m, n + 1);
            return -1;
        }
        if (rc > 0)
            continue;
        snprintf(m[n].key, sizeof m[n].key, "%s", kinds[k].key);
        snprintf(m[n].title, sizeof m[n].title, "%s", kinds[k].title);
        m[n].unit = kinds[k].unit;
        m[n].axis = kinds[k].axis;
        m[n].higher_better = kinds[k].higher;
        n++;
    }
    if (n == 0) {
        free(m);
        return 0;
    }
    *out = m;
    return n;
}
