// SPDX-License-Identifier: MIT
/* LMBENCH_SCHED and --cpus: where each process of a measurement runs. */
#include "lib/sched.h"

#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/sizes.h"
#include "lib/text.h"

static const char *const policy_names[] = {
    [LMB_SCHED_DEFAULT] = "DEFAULT",
    [LMB_SCHED_SINGLE] = "SINGLE",
    [LMB_SCHED_BALANCED] = "BALANCED",
    [LMB_SCHED_UNIQUE] = "UNIQUE",
    [LMB_SCHED_CUSTOM] = "CUSTOM",
};

const char *lmb_sched_policy_name(enum lmb_sched_policy p)
{
    return policy_names[p];
}

static bool in_set(const int *set, int n, int cpu)
{
    for (int i = 0; i < n; i++)
        if (set[i] == cpu)
            return true;
    return false;
}

/* CUSTOM's list keeps its order (process g goes to the g-th CPU listed) and
 * may repeat CPUs: "0 2 1", "0,0,1", "0-3", quoted or not. */
static int parse_custom(const char *list, struct lmb_sched *s, char *err, size_t errlen)
{
    char buf[4096], *save = NULL;
    size_t quotes = 0;

    for (const char *c = list; *c; c++)
        quotes += *c == '"';
    if (quotes % 2 != 0) {
        snprintf(err, errlen, "unbalanced quotes in the CPU list");
        return -1;
    }
    if (quotes > 2) {
        snprintf(err, errlen, "the CPU list takes one pair of quotes");
        return -1;
    }
    if (strlen(list) >= sizeof buf) {
        snprintf(err, errlen, "CPU list too long");
        return -1;
    }
    {
        /* A comma needs an element on both sides, as in --cpus. */
        bool element = false, comma = false;
        for (const char *c = list; *c; c++) {
            if (*c == ',') {
                if (!element) {
                    snprintf(err, errlen, "empty element in the CPU list");
                    return -1;
                }
                element = false;
                comma = true;
            } else if (*c != ' ' && *c != '\t' && *c != '"') {
                element = true;
            }
        }
        if (comma && !element) {
            snprintf(err, errlen, "the CPU list ends with a comma");
            return -1;
        }
    }
    snprintf(buf, sizeof buf, "%s", list);
    s->ncustom = 0;
    for (char *tok = strtok_r(buf, " ,\"\t", &save); tok != NULL;
         tok = strtok_r(NULL, " ,\"\t", &save)) {
        int range[LMB_MAX_CPUS], n;
        /* One token is one CPU or one range "a-b", expanded in order. */
        if (lmb_parse_cpulist(tok, range, LMB_MAX_CPUS, &n, err, errlen) != 0)
            return -1;
        for (int i = 0; i < n; i++) {
            if (s->ncustom >= LMB_MAX_CPUS) {
                snprintf(err, errlen, "list too long");
                return -1;
            }
            s->custom[s->ncustom++] = range[i];
        }
    }
    if (s->ncustom == 0) {
        snprintf(err, errlen, "empty CPU list");
        return -1;
    }
    return 0;
}

int lmb_sched_setup(struct lmb_sched *s, const char *env, const char *cpus_opt,
                    char *err, size_t errlen)
{
    cpu_set_t set;
    int avail[LMB_MAX_CPUS], navail = 0;
    char why[160];

    memset(s, 0, sizeof *s);
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE && navail < LMB_MAX_CPUS; c++)
            if (CPU_ISSET(c, &set))
                avail[navail++] = c;
    }
    if (navail == 0)
        avail[navail++] = 0;

    if (cpus_opt != NULL) {
        if (lmb_parse_cpulist(cpus_opt, s->cpus, LMB_MAX_CPUS, &s->ncpus, why, sizeof why) != 0) {
            snprintf(err, errlen, "--cpus: %s", why);
            return -1;
        }
        for (int i = 0; i < s->ncpus; i++)
            if (!in_set(avail, navail, s->cpus[i])) {
                snprintf(err, errlen, "--cpus: CPU %d is not online or not allowed here",
                         s->cpus[i]);
                return -1;
            }
        s->restricted = true;
    } else {
        memcpy(s->cpus, avail, (size_t)navail * sizeof avail[0]);
        s->ncpus = navail;
    }

    if (env == NULL)
        return 0;
    while (isspace((unsigned char)*env))
        env++;
    /* Trailing blanks are as insignificant as leading ones. */
    char name[4096];
    snprintf(name, sizeof name, "%s", env);
    for (size_t n = strlen(name); n > 0 && isspace((unsigned char)name[n - 1]); n--)
        name[n - 1] = '\0';
    env = name;
    if (*env == '\0' || strcasecmp(env, "DEFAULT") == 0)
        s->policy = LMB_SCHED_DEFAULT;
    else if (strcasecmp(env, "SINGLE") == 0)
        s->policy = LMB_SCHED_SINGLE;
    else if (strcasecmp(env, "BALANCED") == 0)
        s->policy = LMB_SCHED_BALANCED;
    else if (strcasecmp(env, "UNIQUE") == 0)
        s->policy = LMB_SCHED_UNIQUE;
    else if (strncasecmp(env, "CUSTOM", 6) == 0 && (env[6] == ' ' || env[6] == '\0')) {
        if (parse_custom(env + 6, s, why, sizeof why) != 0) {
            snprintf(err, errlen, "LMBENCH_SCHED=CUSTOM: %s", why);
            return -1;
        }
        for (int i = 0; i < s->ncustom; i++)
            if (!in_set(s->cpus, s->ncpus, s->custom[i])) {
                snprintf(err, errlen, "LMBENCH_SCHED=CUSTOM: CPU %d is not %s",
                         s->custom[i], s->restricted ? "in --cpus" : "online or allowed here");
                return -1;
            }
        s->policy = LMB_SCHED_CUSTOM;
    } else {
        char q[LMB_QUOTE_BUF];
        snprintf(err, errlen,
                 "LMBENCH_SCHED='%s' (expected DEFAULT, SINGLE, BALANCED, UNIQUE or CUSTOM \"list\")",
                 lmb_quote(env, q, sizeof q));
        return -1;
    }
    return 0;
}

int lmb_sched_cpu_for(const struct lmb_sched *s, unsigned copy, unsigned proc,
                      unsigned procs_per_copy)
{
    unsigned g = copy * (procs_per_copy ? procs_per_copy : 1) + proc;

    switch (s->policy) {
    case LMB_SCHED_DEFAULT:
        return -1;
    case LMB_SCHED_SINGLE:
        return s->cpus[0];
    case LMB_SCHED_BALANCED:
        return s->cpus[copy % (unsigned)s->ncpus];
    case LMB_SCHED_UNIQUE:
        return s->cpus[g % (unsigned)s->ncpus];
    case LMB_SCHED_CUSTOM:
        return s->custom[g % (unsigned)s->ncustom];
    }
    return -1;
}

int lmb_sched_apply(const struct lmb_sched *s, int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    if (cpu >= 0) {
        CPU_SET(cpu, &set);
    } else if (s->restricted) {
        for (int i = 0; i < s->ncpus; i++)
            CPU_SET(s->cpus[i], &set);
    } else {
        return 0;
    }
    return sched_setaffinity(0, sizeof set, &set);
}
