// SPDX-License-Identifier: MIT
/* libFuzzer target: lmb_import3(), the lmbench 3 raw results reader, on the input as the
 * contents of a raw file (import3.c), then the summary page of what it read.
 * The input is a buffer read through fmemopen: no file system in the loop. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/readers.h"
#include "summarize.h"

static int read_it(FILE *fp, struct lmb_rs_file *f, char *err, size_t errlen)
{
    return lmb_import3(fp, "fuzz", f, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_read_and_summarize(data, size, read_it);
}
