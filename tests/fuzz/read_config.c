// SPDX-License-Identifier: MIT
/* libFuzzer target: lmb_sconf_read(), the reader of `lmbench run -c FILE` (a
 * config file as lmbench 3's config-run or lmbench config wrote it). The input
 * is handed over as a memfd, a regular file, as a user's file would be. A file
 * that reads is also written back with lmb_sconf_write (what lmbench config
 * writes) and read again: that must give the same settings, or the writer made
 * a file run -c refuses or reads otherwise. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "suite/runconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A memfd holding size bytes of data; its path into path. */
static int memfd_with(const void *data, size_t size, char *path, size_t len)
{
    int fd = memfd_create("lmbench-fuzz-config", 0);

    if (fd < 0)
        abort();
    if (size > 0 && write(fd, data, size) != (ssize_t)size)
        abort();
    snprintf(path, len, "/proc/self/fd/%d", fd);
    return fd;
}

static void same_settings(const struct lmb_sconf *a, const struct lmb_sconf *b)
{
    if (strcmp(a->profile, b->profile) != 0 || a->parallel != b->parallel ||
        strcmp(a->sched, b->sched) != 0 || strcmp(a->cpus, b->cpus) != 0 || a->mb != b->mb ||
        strcmp(a->fsdir, b->fsdir) != 0 || strcmp(a->file, b->file) != 0 ||
        strcmp(a->remote, b->remote) != 0 || a->hardware != b->hardware || a->os != b->os ||
        a->network != b->network || memcmp(a->bench, b->bench, sizeof a->bench) != 0 ||
        strcmp(a->enough, b->enough) != 0 || a->repetitions != b->repetitions ||
        a->timeout_s != b->timeout_s) {
        fprintf(stderr, "read_config: the file written back reads otherwise\n");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[4096];
    struct lmb_sconf c, d;
    int fd = memfd_with(data, size, path, sizeof path);

    lmb_sconf_defaults(&c);
    if (lmb_sconf_read(&c, path, err, sizeof err) == 0) {
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        int fd2;

        if (m == NULL || lmb_sconf_write(&c, m, "fuzz") != 0 || fclose(m) != 0)
            abort();
        fd2 = memfd_with(text, len, path, sizeof path);
        lmb_sconf_defaults(&d);
        if (lmb_sconf_read(&d, path, err, sizeof err) != 0) {
            fprintf(stderr, "read_config: the file written back is refused: %s\n%s", err, text);
            abort();
        }
        same_settings(&c, &d);
        close(fd2);
        free(text);
    }
    close(fd);
    return 0;
}
