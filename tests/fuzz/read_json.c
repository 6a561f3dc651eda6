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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lmb_rs_file f;
    char err[512], *copy;
    FILE *fp;

    if (size == 0)
        return 0;
    fp = fuzz_stream(data, size, &copy);
    memset(&f, 0, sizeof f);
    f.cpus_online = -1;
    if (lmb_rs_read_json(fp, "fuzz.json", &f, false, err, sizeof err) == 0) {
        /* As lmb_rs_load() leaves it. */
        f.path = lmb_rs_strdup("fuzz");
        if (f.hostname == NULL)
            f.hostname = lmb_rs_strdup("unknown");
        fuzz_summarize(&f);
    }
    lmb_rs_free(&f);
    fclose(fp);
    free(copy);
    return 0;
}
