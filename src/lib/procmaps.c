// SPDX-License-Identifier: MIT
/* procmaps: the number of mappings of this process, read from /proc/self/maps. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "lib/procmaps.h"

long long lmb_count_maps(void)
{
    char buf[4096];
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    long long lines = 0;
    ssize_t r;

    if (fd < 0)
        return -1;
    while ((r = read(fd, buf, sizeof buf)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        for (ssize_t i = 0; i < r; i++)
            lines += buf[i] == '\n';
    }
    close(fd);
    return lines;
}
