// SPDX-License-Identifier: MIT
/* Small helpers shared by the suite verbs: usage errors in the house style,
 * checked output, long options, the set-up of a forked child. */
#ifndef LMB_SUITE_UTIL_H
#define LMB_SUITE_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* Prints "lmbench VERB: <message>" and "Usage: lmbench VERB USAGE" on stderr;
 * returns 2. */
int lmb_verb_usage_error(const char *verb, const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Flushes f and reports a write error on it: returns 0, or 1 after printing
 * "lmbench VERB: cannot write <what>: <reason>". */
int lmb_verb_check_output(const char *verb, FILE *f, const char *what);

/* Matches "--name" or "--name=value" at argv[*i]; with a value, takes it from
 * after '=' or the next argument (advancing *i). Returns 1 when it matched,
 * 0 when not, -1 when the value is missing. */
int lmb_long_opt(int argc, char **argv, int *i, const char *name, const char **value);

/* The argument quoted for a message: at most 64 characters, control bytes
 * escaped. Uses a static buffer (one call per message). */
const char *lmb_quote_arg(const char *s);

/* Whether to colour what goes to out: never when out is not a terminal, when
 * NO_COLOR is set (to anything, https://no-color.org) or TERM is "dumb" or
 * unset; otherwise yes. */
bool lmb_want_colour(FILE *out);

/* The SGR sequences for a verdict when colour is wanted (else ""):
 * LMB_SGR_BAD (red), LMB_SGR_GOOD (green), LMB_SGR_DIM (faint), LMB_SGR_OFF. */
#define LMB_SGR_BAD "\033[31m"
#define LMB_SGR_GOOD "\033[32m"
#define LMB_SGR_WARN "\033[33m"
#define LMB_SGR_DIM "\033[2m"
#define LMB_SGR_BOLD "\033[1m"
#define LMB_SGR_OFF "\033[0m"

/* Writes s as the text of one Markdown (GitHub, CommonMark tables) cell: '|'
 * and '\\' escaped, control characters and newlines as spaces, leading and
 * trailing blanks kept out. */
void lmb_md_cell(FILE *out, const char *s);

/* In a child a verb has just forked (parent: the verb's pid, taken before the
 * fork): its own process group, the default action for SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE, and SIGKILL when the verb dies. False when the verb is
 * gone already (the child should _exit at once). */
bool lmb_child_setup(pid_t parent);

#endif
