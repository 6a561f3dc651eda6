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

#define LMB_CONTEXT_MAX 24

struct lmb_context_item {
    const char *key;         /* static: "cpu_model", "microcode", ... (doc/results-schema.md) */
    char value[512];         /* "" when unknown */
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

/* The value of key, NULL when unknown or not a key. */
const char *lmb_context_get(const struct lmb_context *c, const char *key);

#endif
