// SPDX-License-Identifier: MIT
/* libFuzzer target: lmb_rs_read_json() on the input as one JSON results document (our
 * --json output, read_json.c), then the summary page of what it read.
 * The input is a buffer read through fmemopen: no file system in the loop. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/readers.h"
#include "summarize.h"

static int read_it(FILE *fp, struct lmb_rs_file *f, char *err, size_t errlen)
{
    return lmb_rs_read_json(fp, "fuzz.json", f, false, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_read_and_summarize(data, size, read_it);
}
