// SPDX-License-Identifier: MIT
/* The readers behind lmb_rs_load(): our JSON and JSONL (read_json.c, needs
 * jansson) and lmbench 3 raw results files (import3.c). */
#ifndef LMB_SUITE_READERS_H
#define LMB_SUITE_READERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* Both read fp from where it is to its end, within lib/input.h's limits (the
 * document's size, a line's length); name (a path made fit for messages, as
 * lmb_quote writes it) starts their messages. fp may be a file from
 * lmb_input_open or a buffer (fmemopen): the fuzz targets read them so. */

/* Fills f from a JSON document (lines == false) or a JSONL file. Returns 0, -1
 * with a message, or -2 when built without jansson. */
int lmb_rs_read_json(FILE *fp, const char *name, struct lmb_rs_file *f, bool lines, char *err,
                     size_t errlen);

/* Fills f from an lmbench 3 raw results file. Lines it does not understand are
 * kept as warnings ("line N: ..."), never an error. Returns 0 or -1. */
int lmb_import3(FILE *fp, const char *name, struct lmb_rs_file *f, char *err, size_t errlen);

#endif
