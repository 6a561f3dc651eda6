// SPDX-License-Identifier: MIT
/* Text for messages: what the user typed, quoted safely; a word for a shell. */
#ifndef LMB_TEXT_H
#define LMB_TEXT_H

#include <stddef.h>

/* At most this many bytes of user input are shown in a message. */
#define LMB_QUOTE_MAX 64
/* A buffer that always holds a quoted value: every byte may become \xNN. */
#define LMB_QUOTE_BUF (LMB_QUOTE_MAX * 4 + 8)

/* Writes s into buf for a message: control bytes and DEL as \xNN (tab and
 * newline included), a backslash as \\, and cut after LMB_QUOTE_MAX bytes
 * with "..." appended. Bytes >= 0x80 pass (UTF-8 names stay readable). Returns
 * buf, so that it can be an argument: "bad size '%s'", lmb_quote(s, q, sizeof q). */
const char *lmb_quote(const char *s, char *buf, size_t len);

/* Writes s into buf for an output line that must show it whole (a label the
 * user chose, a file name in a classic line): control bytes and DEL as \xNN,
 * every other byte as it is, cut only where buf is full. Returns buf. */
const char *lmb_escape(const char *s, char *buf, size_t len);

/* s in single quotes for a POSIX shell (a ' as '\''), into out. Returns 0,
 * or -1 when out (len bytes) cannot hold it all: never a truncated word. */
int lmb_shell_quote(const char *s, char *out, size_t len);

#endif
