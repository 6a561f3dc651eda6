// SPDX-License-Identifier: MIT
/* libFuzzer target: lmb_rs_load(), the one entry through which see, compare,
 * graph and import read a results file (lmbench 3 raw files, our JSON and
 * JSONL). The input is handed over as a memfd, a regular file, so that the
 * sniffing and every reader behind it see what a user's file would give. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>

#include "suite/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("lmbench-fuzz", 0);
    char path[64], err[512];
    struct lmb_rs_file f;

    if (fd < 0)
        abort();
    if (size > 0 && write(fd, data, size) != (ssize_t)size)
        abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (lmb_rs_load(path, &f, err, sizeof err) == 0)
        lmb_rs_free(&f);
    close(fd);
    return 0;
}
