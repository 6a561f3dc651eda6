// SPDX-License-Identifier: MIT
/* Reading outside data safely: files the suite verbs read (results files,
 * config files) are opened without blocking, must be regular files, and are
 * read with a limit on their size and on the length of a line, so that
 * /dev/zero, a FIFO or a file of one endless line is refused at once with a
 * message that names the user's path. */
#ifndef LMB_INPUT_H
#define LMB_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Limits for the suite's inputs: a results file (JSON, JSONL, lmbench 3 raw)
 * and a config file. A line longer than LMB_INPUT_LINE_MAX is refused. */
/* 64 MiB: a default run's .jsonl is under 1 MiB, and an lmbench 3 raw file
 * is read into records at some 25 times its size. */
#define LMB_INPUT_RESULTS_MAX (64ull << 20)   /* 64 MiB */
#define LMB_INPUT_CONFIG_MAX (1ull << 20)     /* 1 MiB */
#define LMB_INPUT_LINE_MAX (16u << 20)        /* 16 MiB: one JSON document per line in JSONL */

/* Opens path for reading: it must be (after following links) a regular file of
 * at most max_bytes bytes. Never blocks (a FIFO is refused, not opened for
 * good). Returns the stream, or NULL with err set to a message that starts with
 * the quoted path: "'x': Permission denied", "'x' is a FIFO, not a regular
 * file", "'x' is 3.0 GiB; the limit for this file is 64.0 MiB". */
FILE *lmb_input_open(const char *path, uint64_t max_bytes, char *err, size_t errlen);

/* Like getline(3) on a stream from lmb_input_open, with a line-length limit:
 * returns the line's length (the newline included when there is one), -1 at the
 * end of the file (or a read error: ferror(fp) then tells), -2 when the line is
 * longer than max_line bytes (err then says so; the stream should be given up). */
ssize_t lmb_input_line(FILE *fp, char **line, size_t *cap, size_t max_line, char *err,
                       size_t errlen);

#endif
