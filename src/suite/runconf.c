// SPDX-License-Identifier: MIT
/* Suite run settings: defaults, the key=value config file (lmbench 3's keys),
 * checks, and writing it back. */
#include "runconf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/calibrate.h"
#include "lib/input.h"
#include "lib/sched.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"
#include "util.h"

const char *const lmb_sconf_switch_names[LMB_SWITCHES] = {
    "SYSCALL", "SELECT", "PROC", "CTX", "PAGEFAULT", "FILE", "MMAP", "PIPE", "UNIX",
    "UDP", "TCP", "CONNECT", "RPC", "BCOPY", "MEM", "OPS", "SIG",
};

/* The group each switch belongs to: 'h'ardware, 'o's, 'n'etwork (the order of
 * lmb_sconf_switch_names). */
static const char switch_group[LMB_SWITCHES + 1] = "ooooooooonnnnhhho";

void lmb_sconf_defaults(struct lmb_sconf *c)
{
    const char *tmp = getenv("TMPDIR");

    memset(c, 0, sizeof *c);
    snprintf(c->profile, sizeof c->profile, "default");
    c->parallel = 1;
    snprintf(c->sched, sizeof c->sched, "DEFAULT");
    /* lmbench 3 defaulted FSDIR to /usr/tmp, then /var/tmp: a disk, not tmpfs. */
    snprintf(c->fsdir, sizeof c->fsdir, "%s",
             access("/var/tmp", W_OK) == 0 ? "/var/tmp" : tmp && *tmp ? tmp : "/tmp");
    c->hardware = c->os = c->network = true;
    memset(c->bench, -1, sizeof c->bench);
    snprintf(c->ssh, sizeof c->ssh, "ssh");
    snprintf(c->remote_lmbench, sizeof c->remote_lmbench, "lmbench");
}

/* Whether v holds a control character (a tab aside). */
static bool has_control(const char *v)
{
    for (const char *p = v; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\t')
            return true;
    return false;
}

/* lmbench 3 keys this lmbench reads in a config file but does not use: they
 * describe lmbench 3's own machinery, the machine as lmbench 3 measured it
 * (TOTAL_MEM, MHZ, LINE_SIZE: measured again here), or a benchmark the suite
 * does not run (BENCHMARK_HTTP). */
static const char *const ignored_keys[] = {
    "ALL", "HALF", "DISKS", "DISK_DESC", "FAST", "FASTMEM", "INFO", "LINE_SIZE",
    "LOOP_O", "MHZ", "MOTHERBOARD", "NETWORKS", "OS", "PROCESSORS", "SLOWFS", "TIMING_O",
    "TOTAL_MEM", "LMBENCH_VER", "USER", "MAIL", "OUTPUT", "RSH", "RCP", "VERSION",
    "BENCHMARK_DEVELOPMENT", "BENCHMARK_HTTP", "SYNC_MAX_HALF", NULL,
};

static int yes_no(const char *v, bool *out)
{
    if (strcasecmp(v, "yes") == 0 || strcasecmp(v, "y") == 0 || strcmp(v, "1") == 0 ||
        strcasecmp(v, "true") == 0) {
        *out = true;
        return 0;
    }
    if (strcasecmp(v, "no") == 0 || strcasecmp(v, "n") == 0 || strcmp(v, "0") == 0 ||
        strcasecmp(v, "false") == 0) {
        *out = false;
        return 0;
    }
    return -1;
}

/* The index of BENCHMARK_<name>'s switch, or -1. */
static int switch_index(const char *name)
{
    for (int i = 0; i < LMB_SWITCHES; i++)
        if (strcmp(name, lmb_sconf_switch_names[i]) == 0)
            return i;
    return -1;
}

bool lmb_sconf_bench_on(const struct lmb_sconf *c, const char *name)
{
    int i = name ? switch_index(name) : -1;

    return i < 0 || c->bench[i] != 0;
}

static int set_path(char *dst, size_t len, const char *key, const char *v, char *err,
                    size_t errlen)
{
    if (strlen(v) >= len) {
        snprintf(err, errlen, "%s: too long", key);
        return -1;
    }
    snprintf(dst, len, "%s", v);
    return 0;
}

int lmb_sconf_set(struct lmb_sconf *c, const char *key, const char *v, char *err, size_t errlen)
{
    uint64_t x;
    char why[200];
    int sw = strncmp(key, "BENCHMARK_", 10) == 0 ? switch_index(key + 10) : -1;

    if (strcmp(key, "PROFILE") == 0) {
        if (*v == '\0')
            v = "default";
        if (strcmp(v, "quick") != 0 && strcmp(v, "default") != 0 && strcmp(v, "full") != 0) {
            snprintf(err, errlen, "PROFILE: expected %s, got '%s'", LMB_PROFILES, lmb_quote_arg(v));
            return -1;
        }
        snprintf(c->profile, sizeof c->profile, "%s", v);
    } else if (strcmp(key, "SYNC_MAX") == 0 || strcmp(key, "PARALLEL") == 0) {
        if (*v == '\0') {
            c->parallel = 1;
        } else if (lmb_parse_uint(v, 1, 1024, &x, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", key, why);
            return -1;
        } else {
            c->parallel = (unsigned)x;
        }
    } else if (strcmp(key, "LMBENCH_SCHED") == 0) {
        if (strlen(v) >= sizeof c->sched) {
            snprintf(err, errlen, "LMBENCH_SCHED: too long");
            return -1;
        }
        snprintf(c->sched, sizeof c->sched, "%s", *v ? v : "DEFAULT");
        c->line[LMB_SCL_SCHED] = 0;
    } else if (strcmp(key, "CPUS") == 0) {
        if (strlen(v) >= sizeof c->cpus) {
            snprintf(err, errlen, "CPUS: too long");
            return -1;
        }
        snprintf(c->cpus, sizeof c->cpus, "%s", v);
    } else if (strcmp(key, "MB") == 0) {
        if (*v == '\0') {
            c->mb = 0;
        } else if (lmb_parse_uint(v, 1, 1ULL << 30, &x, why, sizeof why) != 0) {
            snprintf(err, errlen, "MB: %s", why);
            return -1;
        } else {
            c->mb = x;
        }
    } else if (strcmp(key, "FSDIR") == 0) {
        if (*v == '\0') {
            struct lmb_sconf d;
            lmb_sconf_defaults(&d);
            v = d.fsdir;
            snprintf(c->fsdir, sizeof c->fsdir, "%s", d.fsdir);
        } else if (set_path(c->fsdir, sizeof c->fsdir, key, v, err, errlen) != 0) {
            return -1;
        }
        c->line[LMB_SCL_FSDIR] = 0;
    } else if (strcmp(key, "FILE") == 0) {
        if (set_path(c->file, sizeof c->file - 32, key, v, err, errlen) != 0)
            return -1;
        c->line[LMB_SCL_FILE] = 0;
    } else if (strcmp(key, "REMOTE") == 0) {
        if (strlen(v) >= sizeof c->remote) {
            snprintf(err, errlen, "REMOTE: too long");
            return -1;
        }
        for (const char *p = v; *p; p++)
            if (!(isalnum((unsigned char)*p) || strchr(" \t.-_:@[]", *p))) {
                snprintf(err, errlen, "REMOTE: '%s' is not a list of host names",
                         lmb_quote_arg(v));
                return -1;
            }
        {
            unsigned hosts = 0;
            bool in = false;
            for (const char *p = v; *p; p++) {
                bool blank = *p == ' ' || *p == '\t';
                hosts += !blank && !in;
                in = !blank;
            }
            /* A word that ssh would take for an option is not a host. */
            for (const char *p = v; *p; p++)
                if (*p == '-' && (p == v || p[-1] == ' ' || p[-1] == '\t')) {
                    snprintf(err, errlen, "REMOTE: '%s' is not a host name (it starts with '-')",
                             lmb_quote_arg(p));
                    return -1;
                }
            if (hosts > LMB_REMOTE_MAX_HOSTS) {
                snprintf(err, errlen, "REMOTE: more than %d hosts", LMB_REMOTE_MAX_HOSTS);
                return -1;
            }
        }
        snprintf(c->remote, sizeof c->remote, "%s", v);
        for (char *p = c->remote; *p; p++)
            if (*p == '\t')
                *p = ' ';
    } else if (strcmp(key, "SSH") == 0) {
        /* Words split on blanks: the program, then its options. */
        unsigned words = 0;
        bool in = false;
        if (strlen(v) >= sizeof c->ssh) {
            snprintf(err, errlen, "SSH: too long");
            return -1;
        }
        if (has_control(v)) {
            snprintf(err, errlen, "SSH: '%s' holds a control character", lmb_quote_arg(v));
            return -1;
        }
        for (const char *p = v; *p; p++) {
            bool blank = *p == ' ' || *p == '\t';
            words += !blank && !in;
            in = !blank;
        }
        if (words > LMB_SSH_MAX_WORDS) {
            snprintf(err, errlen, "SSH: more than %d words in '%s'", LMB_SSH_MAX_WORDS,
                     lmb_quote_arg(v));
            return -1;
        }
        snprintf(c->ssh, sizeof c->ssh, "%s", words ? v : "ssh");
        for (char *p = c->ssh; *p; p++)
            if (*p == '\t')
                *p = ' ';
    } else if (strcmp(key, "REMOTE_LMBENCH") == 0) {
        if (strlen(v) >= sizeof c->remote_lmbench) {
            snprintf(err, errlen, "REMOTE_LMBENCH: too long");
            return -1;
        }
        if (has_control(v)) {
            snprintf(err, errlen, "REMOTE_LMBENCH: '%s' holds a control character",
                     lmb_quote_arg(v));
            return -1;
        }
        snprintf(c->remote_lmbench, sizeof c->remote_lmbench, "%s", *v ? v : "lmbench");
    } else if (strcmp(key, "BENCHMARK_HARDWARE") == 0 || strcmp(key, "BENCHMARK_OS") == 0 ||
               strcmp(key, "BENCHMARK_NETWORK") == 0) {
        bool *b = key[10] == 'H' ? &c->hardware : key[10] == 'O' ? &c->os : &c->network;
        if (*v == '\0') {
            *b = true;
        } else if (yes_no(v, b) != 0) {
            snprintf(err, errlen, "%s: expected YES or NO, got '%s'", key, lmb_quote_arg(v));
            return -1;
        }
    } else if (sw >= 0) {
        bool on;
        if (*v == '\0') {
            c->bench[sw] = -1;
        } else if (yes_no(v, &on) != 0) {
            snprintf(err, errlen, "%s: expected YES, NO or nothing, got '%s'", key,
                     lmb_quote_arg(v));
            return -1;
        } else {
            c->bench[sw] = on;
        }
    } else if (strcmp(key, "ENOUGH") == 0) {
        if (*v && lmb_parse_uint(v, 1, 3600ULL * 1000000, &x, why, sizeof why) != 0) {
            snprintf(err, errlen, "ENOUGH: %s", why);
            return -1;
        }
        snprintf(c->enough, sizeof c->enough, "%s", v);
        c->line[LMB_SCL_ENOUGH] = 0;
    } else if (strcmp(key, "REPETITIONS") == 0) {
        if (*v == '\0') {
            c->repetitions = 0;
        } else if (lmb_parse_uint(v, 1, 1000, &x, why, sizeof why) != 0) {
            snprintf(err, errlen, "REPETITIONS: %s", why);
            return -1;
        } else {
            c->repetitions = (unsigned)x;
        }
    } else if (strcmp(key, "TIMEOUT") == 0) {
        double d;
        if (*v == '\0') {
            c->timeout_s = 0;
        } else if (lmb_parse_nonneg_double(v, &d, why, sizeof why) != 0 || d > 86400) {
            snprintf(err, errlen, "TIMEOUT: expected seconds from 0 to 86400, got '%s'",
                     lmb_quote_arg(v));
            return -1;
        } else {
            c->timeout_s = d;
        }
    } else {
        for (size_t i = 0; ignored_keys[i]; i++)
            if (strcmp(key, ignored_keys[i]) == 0)
                return 1;
        snprintf(err, errlen, "unknown key '%s'", lmb_quote_arg(key));
        return -1;
    }
    return 0;
}

/* --- reading a config file: a shell fragment of assignments ----------------- */

/* The file's path for a message: control bytes and DEL as \xNN, so that a name
 * sends no escape code to a terminal; whole, unless buf is full. */
static const char *show_path(const char *s, char *buf, size_t len)
{
    size_t o = 0;

    for (; *s && o + 5 < len; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == 0x7f)
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", ch);
        else
            buf[o++] = (char)ch;
    }
    if (*s && o + 4 <= len) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

struct var {
    char *name, *value;
};

struct reader {
    struct lmb_sconf *c;
    char path[sizeof ((struct lmb_sconf *)0)->source * 2];   /* escaped, for messages */
    long n;                    /* the line */
    char errs[2048];           /* the problems, "; "-separated */
    size_t elen;
    unsigned nerr;
    struct var *v;             /* what the file assigned, for $KEY */
    size_t nv, cap;
    bool set_os, set_net;
};

#define MAX_SHOWN_ERRORS 6

static void rd_err(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rd_err(struct reader *r, const char *fmt, ...)
{
    char m[400];
    va_list ap;
    int w;

    if (r->nerr++ >= MAX_SHOWN_ERRORS)
        return;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    w = snprintf(r->errs + r->elen, sizeof r->errs - r->elen, "%s%s:%ld: %s",
                 r->elen ? "; " : "", r->path, r->n, m);
    if (w > 0)
        r->elen = r->elen + (size_t)w < sizeof r->errs ? r->elen + (size_t)w : sizeof r->errs - 1;
}

static const char *rd_lookup(const struct reader *r, const char *name)
{
    for (size_t i = r->nv; i-- > 0;)
        if (strcmp(r->v[i].name, name) == 0)
            return r->v[i].value;
    return getenv(name);
}

static int rd_remember(struct reader *r, const char *name, const char *value)
{
    char *n, *v;

    for (size_t i = 0; i < r->nv; i++)
        if (strcmp(r->v[i].name, name) == 0) {
            v = strdup(value);
            if (v == NULL)
                return -1;
            free(r->v[i].value);
            r->v[i].value = v;
            return 0;
        }
    if (r->nv == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 32;
        struct var *nvv = realloc(r->v, cap * sizeof *nvv);
        if (nvv == NULL)
            return -1;
        r->v = nvv;
        r->cap = cap;
    }
    n = strdup(name);
    v = strdup(value);
    if (n == NULL || v == NULL) {
        free(n);
        free(v);
        return -1;
    }
    r->v[r->nv].name = n;
    r->v[r->nv].value = v;
    r->nv++;
    return 0;
}

static bool name_start(char ch)
{
    return ch == '_' || isalpha((unsigned char)ch);
}

static bool name_char(char ch)
{
    return ch == '_' || isalnum((unsigned char)ch);
}

/* Reads one shell word at *pp (a value, quotes removed, $KEY replaced) into
 * out; stops at an unquoted blank, ';' or the end. Returns 0, or -1 after
 * saying why. */
static int rd_word(struct reader *r, const char *key, const char **pp, char *out, size_t len)
{
    const char *p = *pp;
    size_t o = 0;

#define PUT(ch)                          \
    do {                                 \
        if (o + 1 >= len)                \
            goto too_long;               \
        out[o++] = (ch);                 \
    } while (0)
    while (*p && *p != ' ' && *p != '\t' && *p != ';') {
        char q = 0;
        if (*p == '\'') {
            for (p++; *p && *p != '\''; p++)
                PUT(*p);
            if (*p == '\0')
                goto unbalanced;
            p++;
            continue;
        }
        if (*p == '"') {
            q = '"';
            p++;
        }
        for (;;) {
            if (q && *p == '"') {
                p++;
                break;
            }
            if (*p == '\0') {
                if (q)
                    goto unbalanced;
                break;
            }
            if (!q && (*p == ' ' || *p == '\t' || *p == ';' || *p == '\'' || *p == '"'))
                break;
            if (*p == '`' || (*p == '$' && p[1] == '(')) {
                rd_err(r, "%s: command substitution is not read (lmbench runs no command "
                          "of a config file)", key);
                return -1;
            }
            if (!q && strchr("|&<>()", *p)) {
                rd_err(r, "%s: '%c' is shell syntax, not part of a value (quote it)", key, *p);
                return -1;
            }
            if (*p == '\\') {
                if (p[1] == '\0') {
                    p++;
                    continue;
                }
                if (!q || strchr("$`\"\\", p[1]))
                    p++;
                PUT(*p);
                p++;
                continue;
            }
            if (*p == '$' && (name_start(p[1]) || p[1] == '{')) {
                char name[128];
                size_t k = 0;
                bool brace = p[1] == '{';
                const char *val;
                p += brace ? 2 : 1;
                while (name_char(*p) && k + 1 < sizeof name)
                    name[k++] = *p++;
                name[k] = '\0';
                if (brace && *p++ != '}') {
                    rd_err(r, "%s: ${...} is read only as ${KEY}", key);
                    return -1;
                }
                val = rd_lookup(r, name);
                for (; val && *val; val++)
                    PUT(*val);
                continue;
            }
            PUT(*p);
            p++;
        }
    }
    out[o] = '\0';
    *pp = p;
    return 0;
#undef PUT
unbalanced:
    rd_err(r, "%s: unbalanced quote", key);
    return -1;
too_long:
    rd_err(r, "%s: value too long", key);
    return -1;
}

static void list_add(char *list, size_t len, const char *key)
{
    size_t n = strlen(key), l = strlen(list);

    for (const char *p = list; (p = strstr(p, key)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return;
    if (l + n + 3 < len)
        snprintf(list + l, len - l, "%s%s", l ? ", " : "", key);
}

/* One assignment of the file. */
static void rd_assign(struct reader *r, const char *key, const char *value)
{
    struct lmb_sconf *c = r->c;
    char why[300];
    int rc;

    /* The file's bytes are text; a value made of $KEY of the environment is too. */
    for (const char *p = value; *p; p++)
        if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f) {
            rd_err(r, "%s: a control character (\\x%02x) in its value", key, (unsigned char)*p);
            return;
        }
    if (rd_remember(r, key, value) != 0) {
        rd_err(r, "out of memory");
        return;
    }
    rc = lmb_sconf_set(c, key, value, why, sizeof why);
    if (rc < 0) {
        rd_err(r, "%s", why);
        return;
    }
    if (rc == 1) {
        list_add(c->ignored, sizeof c->ignored, key);
        return;
    }
    {
        size_t l = strlen(c->used);
        if (l + strlen(key) + strlen(value) + 3 < sizeof c->used)
            snprintf(c->used + l, sizeof c->used - l, "%s=%s\n", key, value);
    }
    if (strcmp(key, "LMBENCH_SCHED") == 0)
        c->line[LMB_SCL_SCHED] = (unsigned)r->n;
    else if (strcmp(key, "FSDIR") == 0)
        c->line[LMB_SCL_FSDIR] = (unsigned)r->n;
    else if (strcmp(key, "FILE") == 0)
        c->line[LMB_SCL_FILE] = (unsigned)r->n;
    else if (strcmp(key, "ENOUGH") == 0)
        c->line[LMB_SCL_ENOUGH] = (unsigned)r->n;
    else if (strcmp(key, "BENCHMARK_OS") == 0)
        r->set_os = true;
    else if (strcmp(key, "BENCHMARK_NETWORK") == 0)
        r->set_net = true;
    if (strcmp(key, "LMBENCH_SCHED") == 0) {
        /* The policy's name and CPUs now, so that a mistake names its line. */
        struct lmb_sched s;
        if (lmb_sched_setup(&s, c->sched, NULL, why, sizeof why) != 0)
            rd_err(r, "%s", why);
    }
}

/* One line: statements separated by ';', each assignments (KEY=VALUE ...),
 * optionally after `export` (which may also name keys alone). */
static void rd_line(struct reader *r, const char *p)
{
    bool exporting = false;
    char key[128], *value = malloc(4096);

    if (value == NULL) {
        rd_err(r, "out of memory");
        return;
    }
    for (;;) {
        size_t k = 0;
        const char *q;

        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '#')
            break;
        if (*p == ';') {
            exporting = false;
            p++;
            continue;
        }
        if (!name_start(*p)) {
            rd_err(r, "expected KEY=VALUE");
            break;
        }
        for (q = p; name_char(*q) && k + 1 < sizeof key; q++)
            key[k++] = *q;
        key[k] = '\0';
        if (*q == '=') {
            p = q + 1;
            if (rd_word(r, key, &p, value, 4096) != 0)
                break;
            rd_assign(r, key, value);
            if (*p == ' ' || *p == '\t') {
                const char *n = p;
                while (*n == ' ' || *n == '\t')
                    n++;
                /* After a value: the end, a comment, ';', or another assignment. */
                if (!exporting && *n && *n != '#' && *n != ';') {
                    const char *e = n;
                    while (name_char(*e))
                        e++;
                    if (!name_start(*n) || *e != '=') {
                        rd_err(r, "%s: the value ends at a blank (quote a value with blanks)",
                               key);
                        break;
                    }
                }
            }
            continue;
        }
        if ((strcmp(key, "export") == 0 || strcmp(key, "readonly") == 0) && !exporting &&
            (*q == ' ' || *q == '\t' || *q == '\0' || *q == ';')) {
            exporting = true;
            p = q;
            continue;
        }
        if (exporting && (*q == ' ' || *q == '\t' || *q == '\0' || *q == ';' || *q == '#')) {
            p = q;   /* export KEY: nothing to read */
            continue;
        }
        rd_err(r, "'%s' is not an assignment (lmbench reads KEY=VALUE lines; it runs no "
                  "command of a config file)", lmb_quote_arg(key));
        break;
    }
    free(value);
}

/* After the file: its group and per-benchmark switches as lmbench 3 meant them. */
static void rd_switches(struct reader *r)
{
    struct lmb_sconf *c = r->c;
    static const char groups[] = "hon";

    if (r->set_os && !r->set_net)
        c->network = c->os;
    for (int g = 0; g < 3; g++) {
        bool *on = groups[g] == 'h' ? &c->hardware : groups[g] == 'o' ? &c->os : &c->network;
        bool some = false;
        if (*on)
            continue;
        for (int i = 0; i < LMB_SWITCHES; i++)
            some |= switch_group[i] == groups[g] && c->bench[i] == 1;
        if (!some)
            continue;
        /* The group runs the benchmarks switched on, only. */
        *on = true;
        for (int i = 0; i < LMB_SWITCHES; i++)
            if (switch_group[i] == groups[g] && c->bench[i] < 0)
                c->bench[i] = 0;
    }
}

/* The first byte of line[0, len) that is not text: a control character other
 * than a tab (a NUL included), or DEL; -1 when there is none. */
static long not_text(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)line[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
            return (long)i;
    }
    return -1;
}

int lmb_sconf_read(struct lmb_sconf *c, const char *path, char *err, size_t errlen)
{
    struct reader r = { .c = c };
    FILE *fp;
    char *line = NULL, why[300];
    size_t cap = 0;
    ssize_t len;
    long bad;
    bool bad_read;

    show_path(path, r.path, sizeof r.path);
    if (strlen(path) >= sizeof c->source) {
        snprintf(err, errlen, "%s: the path is too long (%zu bytes; at most %zu)", r.path,
                 strlen(path), sizeof c->source - 1);
        return -1;
    }
    /* A regular file, of a config's size: /dev/zero or a FIFO is refused at once. */
    fp = lmb_input_open(path, LMB_INPUT_CONFIG_MAX, err, errlen);
    if (fp == NULL)
        return -1;
    snprintf(c->source, sizeof c->source, "%s", path);
    c->used[0] = c->ignored[0] = '\0';
    while ((len = lmb_input_line(fp, &line, &cap, LMB_SCONF_LINE_MAX, why, sizeof why)) != -1) {
        r.n++;
        if (len == -2) {
            rd_err(&r, "%s", why);
            break;
        }
        while (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        if (len > 0 && line[len - 1] == '\r')   /* a CRLF line end */
            line[--len] = '\0';
        if ((bad = not_text(line, (size_t)len)) >= 0) {
            if (line[bad] == '\0') {
                rd_err(&r, "a NUL byte: not a text file");
                break;
            }
            rd_err(&r, "a control character (\\x%02x) at column %ld: not text",
                   (unsigned char)line[bad], bad + 1);
            continue;
        }
        rd_line(&r, line);
    }
    bad_read = ferror(fp) != 0;
    free(line);
    fclose(fp);
    for (size_t i = 0; i < r.nv; i++) {
        free(r.v[i].name);
        free(r.v[i].value);
    }
    free(r.v);
    if (bad_read) {
        snprintf(err, errlen, "%s: read error", r.path);
        return -1;
    }
    if (r.nerr > 0) {
        if (r.nerr > MAX_SHOWN_ERRORS)
            snprintf(err, errlen, "%s; and %u more", r.errs, r.nerr - MAX_SHOWN_ERRORS);
        else
            snprintf(err, errlen, "%s", r.errs);
        return -1;
    }
    rd_switches(&r);
    return 0;
}

void lmb_sconf_report(const struct lmb_sconf *c, const char *prog, FILE *f)
{
    char p[sizeof c->source * 2];

    if (c->source[0] && c->ignored[0])
        fprintf(f, "%s: %s: ignored (no equivalent): %s\n", prog,
                show_path(c->source, p, sizeof p), c->ignored);
}

/* "FILE:LINE: " for a key whose value came from the config file, else "". */
static const char *from(const struct lmb_sconf *c, int k, char *buf, size_t len)
{
    char p[sizeof c->source * 2];

    if (c->line[k] == 0 || c->source[0] == '\0')
        return "";
    snprintf(buf, len, "%s:%u: ", show_path(c->source, p, sizeof p), c->line[k]);
    return buf;
}

int lmb_sconf_check(const struct lmb_sconf *c, char *err, size_t errlen)
{
    struct lmb_sched s;
    struct stat st;
    char why[300], at[sizeof c->source * 2 + 32];

    if (lmb_sched_setup(&s, c->sched, c->cpus[0] ? c->cpus : NULL, why, sizeof why) != 0) {
        snprintf(err, errlen, "%splacement: %s", from(c, LMB_SCL_SCHED, at, sizeof at), why);
        return -1;
    }
    if (stat(c->fsdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%sFSDIR %s: not a directory", from(c, LMB_SCL_FSDIR, at, sizeof at),
                 lmb_quote_arg(c->fsdir));
        return -1;
    }
    if (access(c->fsdir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "%sFSDIR %s: not writable", from(c, LMB_SCL_FSDIR, at, sizeof at),
                 lmb_quote_arg(c->fsdir));
        return -1;
    }
    if (c->file[0]) {
        /* The scratch file is made beside FILE's path: its directory must take it. */
        char dir[sizeof c->file];
        char *slash;
        snprintf(dir, sizeof dir, "%s", c->file);
        slash = strrchr(dir, '/');
        if (slash == NULL)
            snprintf(dir, sizeof dir, ".");
        else if (slash == dir)
            dir[1] = '\0';
        else
            *slash = '\0';
        if (c->file[strlen(c->file) - 1] == '/' ||
            (stat(c->file, &st) == 0 && S_ISDIR(st.st_mode))) {
            snprintf(err, errlen, "%sFILE %s: a directory, not a file's path",
                     from(c, LMB_SCL_FILE, at, sizeof at), lmb_quote_arg(c->file));
            return -1;
        }
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
            snprintf(err, errlen, "%sFILE %s: its directory is not a writable directory",
                     from(c, LMB_SCL_FILE, at, sizeof at), lmb_quote_arg(c->file));
            return -1;
        }
    }
    if (c->enough[0]) {
        /* The harness's own rule for ENOUGH. */
        struct lmb_clock clk = { .overhead_ns = 1, .granularity_ns = 1 };
        uint64_t ns;
        if (lmb_interval_ns(&clk, 0.0, c->enough, &ns, why, sizeof why) != 0) {
            snprintf(err, errlen, "%sENOUGH: %s", from(c, LMB_SCL_ENOUGH, at, sizeof at), why);
            return -1;
        }
    }
    if (!c->hardware && !c->os && !c->network) {
        snprintf(err, errlen, "no group of benchmarks chosen (hardware, OS, network)");
        return -1;
    }
    return 0;
}

/* KEY=VALUE as the shell reads it back: VALUE bare when it is made of safe
 * characters and `quote` is false, else in double quotes, or in single quotes
 * when it holds a character double quotes would change. */
static void put(FILE *f, const char *key, const char *v, bool quote)
{
    bool safe = true, dq = true;

    for (const char *p = v; *p; p++) {
        if (!(isalnum((unsigned char)*p) || strchr("/._,:@%+-=", *p)))
            safe = false;
        if (strchr("\"$`\\", *p))
            dq = false;
    }
    if (safe && !quote) {
        fprintf(f, "%s=%s\n", key, v);
    } else if (dq) {
        fprintf(f, "%s=\"%s\"\n", key, v);
    } else {
        fprintf(f, "%s='", key);
        for (const char *p = v; *p; p++)
            fputs(*p == '\'' ? "'\\''" : (char[2]){ *p, 0 }, f);
        fputs("'\n", f);
    }
}

int lmb_sconf_write(const struct lmb_sconf *c, FILE *f, const char *comment)
{
    char num[32];

    fprintf(f, "# lmbench configuration: lmbench run -c THIS_FILE\n");
    if (comment)
        fprintf(f, "# %s\n", comment);
    fprintf(f, "# Keys are lmbench 3's where it had one. See lmbench-config(1).\n");
    put(f, "PROFILE", c->profile, false);
    snprintf(num, sizeof num, "%u", c->parallel);
    put(f, "SYNC_MAX", num, false);
    put(f, "LMBENCH_SCHED", c->sched, true);
    put(f, "CPUS", c->cpus, false);
    if (c->mb)
        snprintf(num, sizeof num, "%llu", (unsigned long long)c->mb);
    else
        num[0] = '\0';
    put(f, "MB", num, false);
    put(f, "FSDIR", c->fsdir, false);
    if (c->file[0])
        put(f, "FILE", c->file, false);
    put(f, "REMOTE", c->remote, true);
    /* How the remote hosts are reached, when it is not the default. */
    if (strcmp(c->ssh, "ssh") != 0)
        put(f, "SSH", c->ssh, true);
    if (strcmp(c->remote_lmbench, "lmbench") != 0)
        put(f, "REMOTE_LMBENCH", c->remote_lmbench, true);
    put(f, "BENCHMARK_HARDWARE", c->hardware ? "YES" : "NO", false);
    put(f, "BENCHMARK_OS", c->os ? "YES" : "NO", false);
    put(f, "BENCHMARK_NETWORK", c->network ? "YES" : "NO", false);
    fprintf(f, "# lmbench 3's per-benchmark switches: NO skips that benchmark's steps,\n"
               "# YES or nothing leaves it to its group.\n");
    for (int i = 0; i < LMB_SWITCHES; i++) {
        char key[64];
        snprintf(key, sizeof key, "BENCHMARK_%s", lmb_sconf_switch_names[i]);
        put(f, key, c->bench[i] < 0 ? "" : c->bench[i] ? "YES" : "NO", false);
    }
    put(f, "ENOUGH", c->enough, false);
    if (c->repetitions)
        fprintf(f, "REPETITIONS=%u\n", c->repetitions);
    if (c->timeout_s > 0) {
        /* The shortest plain decimal (TIMEOUT has no exponent) that reads back
         * as the same number. */
        char t[400];
        for (int prec = 0; prec <= 340; prec++) {
            snprintf(t, sizeof t, "%.*f", prec, c->timeout_s);
            if (strtod(t, NULL) == c->timeout_s)
                break;
        }
        fprintf(f, "TIMEOUT=%s\n", t);
    }
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

#ifdef LMB_HAVE_JANSSON
void lmb_sconf_json_put(const struct lmb_sconf *c, json_t *o)
{
    json_t *off = json_array(), *cf, *used, *ign;

    json_object_set_new(o, "file", c->file[0] ? json_string(c->file) : json_null());
    json_object_set_new(o, "ssh", json_string(c->ssh));
    json_object_set_new(o, "remote_lmbench", json_string(c->remote_lmbench));
    for (int i = 0; i < LMB_SWITCHES; i++)
        if (c->bench[i] == 0)
            json_array_append_new(off, json_string(lmb_sconf_switch_names[i]));
    json_object_set_new(o, "benchmarks_off", off);
    if (c->source[0] == '\0') {
        json_object_set_new(o, "config_file", json_null());
        return;
    }
    cf = json_object();
    used = json_object();
    ign = json_array();
    {
        /* Where it is, whatever the directory the run was started from. */
        char *abs = realpath(c->source, NULL);
        json_object_set_new(cf, "path", json_string(abs ? abs : c->source));
        free(abs);
    }
    for (const char *p = c->used, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
        const char *eq = memchr(p, '=', (size_t)(nl - p));
        char key[128];
        if (eq == NULL || eq - p >= (long)sizeof key)
            continue;
        snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
        json_object_set_new(used, key, json_stringn(eq + 1, (size_t)(nl - eq - 1)));
    }
    for (const char *p = c->ignored; *p;) {
        size_t n = strcspn(p, ",");
        json_array_append_new(ign, json_stringn(p, n));
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    json_object_set_new(cf, "used", used);
    json_object_set_new(cf, "ignored", ign);
    json_object_set_new(o, "config_file", cf);
}

void lmb_sconf_json_get(struct lmb_sconf *c, const json_t *o)
{
    const json_t *off = json_object_get(o, "benchmarks_off"), *cf = json_object_get(o, "config_file");
    const char *file = json_string_value(json_object_get(o, "file"));
    const char *key;
    json_t *v;
    size_t i;

    if (file != NULL && strlen(file) < sizeof c->file - 32)
        snprintf(c->file, sizeof c->file, "%s", file);
    /* Absent in the files of an older lmbench: the defaults. */
    {
        const char *ssh = json_string_value(json_object_get(o, "ssh"));
        const char *rl = json_string_value(json_object_get(o, "remote_lmbench"));
        char why[200];
        if (ssh != NULL)
            (void)lmb_sconf_set(c, "SSH", ssh, why, sizeof why);
        if (rl != NULL)
            (void)lmb_sconf_set(c, "REMOTE_LMBENCH", rl, why, sizeof why);
    }
    json_array_foreach(off, i, v) {
        int k = json_is_string(v) ? switch_index(json_string_value(v)) : -1;
        if (k >= 0)
            c->bench[k] = 0;
    }
    if (!json_is_object(cf) || !json_is_string(json_object_get(cf, "path")))
        return;
    snprintf(c->source, sizeof c->source, "%s", json_string_value(json_object_get(cf, "path")));
    c->used[0] = c->ignored[0] = '\0';
    json_object_foreach((json_t *)json_object_get(cf, "used"), key, v) {
        size_t l = strlen(c->used);
        if (json_is_string(v) && l + strlen(key) + strlen(json_string_value(v)) + 3 < sizeof c->used)
            snprintf(c->used + l, sizeof c->used - l, "%s=%s\n", key, json_string_value(v));
    }
    json_array_foreach(json_object_get(cf, "ignored"), i, v)
        if (json_is_string(v))
            list_add(c->ignored, sizeof c->ignored, json_string_value(v));
}
#endif

uint64_t lmb_sconf_mb(const struct lmb_sconf *c)
{
    uint64_t mb = c->mb, phys = lmb_physical_memory() >> 20;

    if (mb == 0)
        mb = strcmp(c->profile, "quick") == 0 ? 64 : strcmp(c->profile, "full") == 0 ? 512 : 256;
    if (phys > 0 && mb > phys / 2 && c->mb == 0)
        mb = phys / 2 > 8 ? phys / 2 : 8;
    return mb;
}
