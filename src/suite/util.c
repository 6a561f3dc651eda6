// SPDX-License-Identifier: MIT
/* Helpers shared by the suite verbs. */
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int lmb_verb_usage_error(const char *verb, const char *usage, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "lmbench %s: ", verb);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nUsage: lmbench %s %s\n", verb, usage);
    return 2;
}

int lmb_verb_check_output(const char *verb, FILE *f, const char *what)
{
    int bad = fflush(f) != 0 || ferror(f);
    int e = errno;

    if (!bad)
        return 0;
    fprintf(stderr, "lmbench %s: cannot write %s: %s\n", verb, what, strerror(e ? e : EIO));
    return 1;
}

int lmb_long_opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);

    if (strncmp(a, name, n) != 0 || (a[n] != '\0' && a[n] != '='))
        return 0;
    if (value == NULL)
        return a[n] == '\0' ? 1 : 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

const char *lmb_quote_arg(const char *s)
{
    static char buf[300];
    size_t o = 0, n = 0;

    for (; *s && n < 64 && o + 5 < sizeof buf; s++, n++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02x", c);
        else
            buf[o++] = (char)c;
    }
    if (*s && o + 4 < sizeof buf) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

bool lmb_want_colour(FILE *out)
{
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

    if (nc != NULL && nc[0] != '\0')
        return false;
    if (term == NULL || term[0] == '\0' || strcmp(term, "dumb") == 0)
        return false;
    return isatty(fileno(out)) == 1;
}

void lmb_md_cell(FILE *out, const char *s)
{
    const char *e;

    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
        e--;
    for (; s < e; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '|' || c == '\\')
            fputc('\\', out);
        fputc(c < 0x20 || c == 0x7f ? ' ' : (int)c, out);
    }
}

bool lmb_child_setup(pid_t parent)
{
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return getppid() == parent;
}
