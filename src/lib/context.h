// SPDX-License-Identifier: MIT
/* The context of a measurement: the facts about a machine that change what its
 * figures mean (CPU model and microcode, SMT, governor and boost, transparent
 * huge pages, kernel and its command line, mitigations, virtualisation, NUMA,
 * memory). Probed once; written into the header of every results document
 * (host.context) and shown by see and compare, which say when two differ. */
#ifndef LMB_CONTEXT_H
#define LMB_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define LMB_CONTEXT_MAX 24

struct lmb_context_item {
    const char *key;         /* static: "cpu_model", "microcode", ... (doc/results-schema.md) */
    char value[2048];        /* "" when unknown; a kernel command line and the list
                              * of mitigations need more than 512 */
    bool known;              /* false: the system did not say (JSON null) */
};

struct lmb_context {
    struct lmb_context_item items[LMB_CONTEXT_MAX];
    size_t n;                /* in a fixed order, the same on every machine */
};

/* Probes the running system. Never fails: what cannot be read is unknown. */
void lmb_context_probe(struct lmb_context *c);

/* The same, reading /proc and /sys under root (tests give a fake tree; "" or
 * NULL is the real root). Facts that come from system calls (uname) are still
 * the running system's. */
void lmb_context_probe_at(struct lmb_context *c, const char *root);

/* A small file's text (at most len - 1 bytes), trailing white space removed,
 * into buf ("" on failure). Returns its length, -1 when it cannot be read. */
long lmb_read_text_file(const char *path, char *buf, size_t len);

/* The value of key, NULL when unknown or not a key. */
const char *lmb_context_get(const struct lmb_context *c, const char *key);

/* The known items as lmbench 3 raw-file header lines, one each:
 * "[CONTEXT_CPU_MODEL: AMD EPYC]" (the key in capitals after CONTEXT_; values
 * are one line of ASCII). A reader of lmbench 3 files keeps them as header keys
 * it does not know. Returns 0, -1 when writing failed. */
int lmb_context_raw_lines(const struct lmb_context *c, FILE *f);

/* host.context as a JSON object (jansson's json_t; a build with jansson only):
 * every key in order, a string or null. NULL when out of memory. */
struct json_t;
struct json_t *lmb_context_json(const struct lmb_context *c);

#endif
