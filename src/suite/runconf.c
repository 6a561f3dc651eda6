// SPDX-License-Identifier: MIT
/* Suite run settings: defaults, the key=value config file (lmbench 3's keys),
 * checks, and writing it back. */
#include "runconf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/calibrate.h"
#include "lib/sched.h"
#include "lib/sizes.h"
#include "lib/sysinfo.h"
#include "util.h"

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
}

/* lmbench 3 keys this lmbench reads in a config file but does not use: they
 * describe lmbench 3's own machinery or what it measured itself. */
static const char *const ignored_keys[] = {
    "ALL", "HALF", "DISKS", "DISK_DESC", "FAST", "FASTMEM", "FILE", "INFO", "LINE_SIZE",
    "LOOP_O", "MHZ", "MOTHERBOARD", "NETWORKS", "OS", "PROCESSORS", "SLOWFS", "TIMING_O",
    "LMBENCH_VER", "USER", "MAIL", "OUTPUT", "RSH", "RCP", "VERSION", "BENCHMARK_DEVELOPMENT",
    "SYNC_MAX_HALF", NULL,
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

int lmb_sconf_set(struct lmb_sconf *c, const char *key, const char *v, char *err, size_t errlen)
{
    uint64_t x;
    char why[200];

    if (strcmp(key, "PROFILE") == 0) {
        if (strcmp(v, "quick") != 0 && strcmp(v, "default") != 0 && strcmp(v, "full") != 0) {
            snprintf(err, errlen, "PROFILE: expected %s, got '%s'", LMB_PROFILES, lmb_quote_arg(v));
            return -1;
        }
        snprintf(c->profile, sizeof c->profile, "%s", v);
    } else if (strcmp(key, "SYNC_MAX") == 0 || strcmp(key, "PARALLEL") == 0) {
        if (lmb_parse_uint(v, 1, 1024, &x, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", key, why);
            return -1;
        }
        c->parallel = (unsigned)x;
    } else if (strcmp(key, "LMBENCH_SCHED") == 0) {
        if (strlen(v) >= sizeof c->sched) {
            snprintf(err, errlen, "LMBENCH_SCHED: too long");
            return -1;
        }
        snprintf(c->sched, sizeof c->sched, "%s", *v ? v : "DEFAULT");
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
        if (*v == '\0' || strlen(v) >= sizeof c->fsdir) {
            snprintf(err, errlen, "FSDIR: expected a directory");
            return -1;
        }
        snprintf(c->fsdir, sizeof c->fsdir, "%s", v);
    } else if (strcmp(key, "REMOTE") == 0) {
        if (strlen(v) >= sizeof c->remote) {
            snprintf(err, errlen, "REMOTE: too long");
            return -1;
        }
        for (const char *p = v; *p; p++)
            if (!(isalnum((unsigned char)*p) || strchr(" .-_:@[]", *p))) {
                snprintf(err, errlen, "REMOTE: '%s' is not a list of host names",
                         lmb_quote_arg(v));
                return -1;
            }
        snprintf(c->remote, sizeof c->remote, "%s", v);
    } else if (strcmp(key, "BENCHMARK_HARDWARE") == 0 || strcmp(key, "BENCHMARK_OS") == 0 ||
               strcmp(key, "BENCHMARK_NETWORK") == 0) {
        bool *b = key[10] == 'H' ? &c->hardware : key[10] == 'O' ? &c->os : &c->network;
        if (yes_no(v, b) != 0) {
            snprintf(err, errlen, "%s: expected YES or NO, got '%s'", key, lmb_quote_arg(v));
            return -1;
        }
    } else if (strcmp(key, "ENOUGH") == 0) {
        if (*v && lmb_parse_uint(v, 1, 3600ULL * 1000000, &x, why, sizeof why) != 0) {
            snprintf(err, errlen, "ENOUGH: %s", why);
            return -1;
        }
        snprintf(c->enough, sizeof c->enough, "%s", v);
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

int lmb_sconf_read(struct lmb_sconf *c, const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "r");
    char *line = NULL, why[300];
    size_t cap = 0;
    ssize_t len;
    long n = 0;
    int rc = 0;

    if (fp == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    while ((len = getline(&line, &cap, fp)) >= 0) {
        char *p = line, *eq, *key, *val, *end;

        n++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '#')
            continue;
        if (strncmp(p, "export ", 7) == 0)
            p += 7;
        eq = strchr(p, '=');
        if (eq == NULL) {
            snprintf(err, errlen, "%s:%ld: expected KEY=VALUE", path, n);
            rc = -1;
            break;
        }
        *eq = '\0';
        key = p;
        for (end = eq; end > key && (end[-1] == ' ' || end[-1] == '\t'); end--)
            end[-1] = '\0';
        val = eq + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        end = val + strlen(val);
        while (end > val && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (end - val >= 2 && (val[0] == '"' || val[0] == '\'') && end[-1] == val[0]) {
            end[-1] = '\0';
            val++;
        } else if (*val == '"' || *val == '\'') {
            snprintf(err, errlen, "%s:%ld: %s: unbalanced quote", path, n, key);
            rc = -1;
            break;
        }
        if (lmb_sconf_set(c, key, val, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s:%ld: %s", path, n, why);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && ferror(fp)) {
        snprintf(err, errlen, "%s: read error", path);
        rc = -1;
    }
    free(line);
    fclose(fp);
    return rc;
}

int lmb_sconf_check(const struct lmb_sconf *c, char *err, size_t errlen)
{
    struct lmb_sched s;
    struct stat st;
    char why[300];

    if (lmb_sched_setup(&s, c->sched, c->cpus[0] ? c->cpus : NULL, why, sizeof why) != 0) {
        snprintf(err, errlen, "placement: %s", why);
        return -1;
    }
    if (stat(c->fsdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "FSDIR %s: not a directory", lmb_quote_arg(c->fsdir));
        return -1;
    }
    if (access(c->fsdir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "FSDIR %s: not writable", lmb_quote_arg(c->fsdir));
        return -1;
    }
    if (c->enough[0]) {
        /* The harness's own rule for ENOUGH. */
        struct lmb_clock clk = { .overhead_ns = 1, .granularity_ns = 1 };
        uint64_t ns;
        if (lmb_interval_ns(&clk, 0.0, c->enough, &ns, why, sizeof why) != 0) {
            snprintf(err, errlen, "ENOUGH: %s", why);
            return -1;
        }
    }
    if (!c->hardware && !c->os && !c->network) {
        snprintf(err, errlen, "no group of benchmarks chosen (hardware, OS, network)");
        return -1;
    }
    return 0;
}

int lmb_sconf_write(const struct lmb_sconf *c, FILE *f, const char *comment)
{
    fprintf(f, "# lmbench configuration: lmbench run -c THIS_FILE\n");
    if (comment)
        fprintf(f, "# %s\n", comment);
    fprintf(f, "# Keys are lmbench 3's where it had one. See lmbench-config(1).\n");
    fprintf(f, "PROFILE=%s\n", c->profile);
    fprintf(f, "SYNC_MAX=%u\n", c->parallel);
    fprintf(f, "LMBENCH_SCHED=\"%s\"\n", c->sched);
    fprintf(f, "CPUS=%s\n", c->cpus);
    if (c->mb)
        fprintf(f, "MB=%llu\n", (unsigned long long)c->mb);
    else
        fprintf(f, "MB=\n");
    fprintf(f, "FSDIR=%s\n", c->fsdir);
    fprintf(f, "REMOTE=\"%s\"\n", c->remote);
    fprintf(f, "BENCHMARK_HARDWARE=%s\n", c->hardware ? "YES" : "NO");
    fprintf(f, "BENCHMARK_OS=%s\n", c->os ? "YES" : "NO");
    fprintf(f, "BENCHMARK_NETWORK=%s\n", c->network ? "YES" : "NO");
    fprintf(f, "ENOUGH=%s\n", c->enough);
    if (c->repetitions)
        fprintf(f, "REPETITIONS=%u\n", c->repetitions);
    if (c->timeout_s > 0)
        fprintf(f, "TIMEOUT=%g\n", c->timeout_s);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

uint64_t lmb_sconf_mb(const struct lmb_sconf *c)
{
    uint64_t mb = c->mb, phys = lmb_physical_memory() >> 20;

    if (mb == 0)
        mb = strcmp(c->profile, "quick") == 0 ? 64 : strcmp(c->profile, "full") == 0 ? 512 : 256;
    if (phys > 0 && mb > phys / 2 && c->mb == 0)
        mb = phys / 2 > 8 ? phys / 2 : 8;
    return mb;
}
