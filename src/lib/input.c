// SPDX-License-Identifier: MIT
/* Reading outside data safely: non-blocking open of regular files only, with
 * limits on size and line length (see input.h). */
#include "lib/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/text.h"

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

static void size_text(uint64_t b, char *buf, size_t len)
{
    if (b >= (1ull << 30))
        snprintf(buf, len, "%.1f GiB", (double)b / (double)(1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(buf, len, "%.1f MiB", (double)b / (double)(1ull << 20));
    else
        snprintf(buf, len, "%llu bytes", (unsigned long long)b);
}

FILE *lmb_input_open(const char *path, uint64_t max_bytes, char *err, size_t errlen)
{
    char q[256], a[32], b[32];
    struct stat st;
    int fd, flags;
    FILE *fp;

    lmb_quote(path, q, sizeof q);
    /* O_NONBLOCK: opening a FIFO with no writer would wait for one. */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", q, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", q, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        const char *k = kind_of(st.st_mode);
        snprintf(err, errlen, "%s is %s%s", q, k,
                 strncmp(k, "not ", 4) == 0 ? "" : ", not a regular file");
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        size_text((uint64_t)st.st_size, a, sizeof a);
        size_text(max_bytes, b, sizeof b);
        snprintf(err, errlen, "%s is %s; the limit for this file is %s", q, a, b);
        close(fd);
        return NULL;
    }
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
        (fp = fdopen(fd, "r")) == NULL) {
        snprintf(err, errlen, "%s: %s", q, strerror(errno));
        close(fd);
        return NULL;
    }
    return fp;
}

ssize_t lmb_input_line(FILE *fp, char **line, size_t *cap, size_t max_line, char *err,
                       size_t errlen)
{
    size_t n = 0;
    int c;

    for (;;) {
        c = getc(fp);
        if (c == EOF)
            break;
        if (n >= max_line) {
            snprintf(err, errlen, "a line is longer than %zu bytes", max_line);
            return -2;
        }
        if (n + 2 > *cap) {
            size_t ncap = *cap < 256 ? 256 : *cap * 2;
            char *p = realloc(*line, ncap);
            if (p == NULL) {
                snprintf(err, errlen, "out of memory");
                return -2;
            }
            *line = p;
            *cap = ncap;
        }
        (*line)[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return -1;
    (*line)[n] = '\0';
    return (ssize_t)n;
}
