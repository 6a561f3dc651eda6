// SPDX-License-Identifier: MIT
/* The readers behind lmb_rs_load(): our JSON and JSONL (read_json.c, needs
 * jansson) and lmbench 3 raw results files (import3.c). */
#ifndef LMB_SUITE_READERS_H
#define LMB_SUITE_READERS_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/* Fills f from a JSON document (lines == false) or a JSONL file. Returns 0, -1
 * with a message, or -2 when built without jansson. */
int lmb_rs_read_json(const char *path, struct lmb_rs_file *f, bool lines, char *err,
                     size_t errlen);

/* Fills f from an lmbench 3 raw results file. Lines it does not understand are
 * kept as warnings ("line N: ..."), never an error. Returns 0 or -1. */
int lmb_import3(const char *path, struct lmb_rs_file *f, char *err, size_t errlen);

#endif
