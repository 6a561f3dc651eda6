// SPDX-License-Identifier: MIT
/* Writing a file the user named (-o FILE, the run's results files) safely:
 * nothing that is not a regular file is ever replaced, no name another user
 * could plant is followed, and a file is either wholly the new one or still the
 * old one.
 *
 *   - FILE names an open descriptor (/dev/stdout, /dev/stderr, /dev/fd/N,
 *     /proc/self/fd/N, or a symbolic link that leads to one of them): the output
 *     goes to that descriptor (a duplicate of it), as a shell's `>FILE` would.
 *   - FILE is a character device (/dev/null, /dev/full, a tty) or a FIFO: it is
 *     opened for writing (never created) and written through. A FIFO that no
 *     process reads is refused at once rather than waited on.
 *   - A directory, a block device or a socket is refused.
 *   - Otherwise (FILE absent, a regular file, or a symbolic link to a regular
 *     file, which is written where it leads, as shell redirection does): the
 *     output goes to a new temporary file made with O_EXCL and a random name
 *     ending in ".tmp", in the directory of the file it replaces; it is
 *     fsync'ed and renamed over that file. An existing file keeps its
 *     permission bits (and, where we may, its owner); a new one gets 0666 less
 *     the umask. The temporary file is registered with lib/cleanup.h (removed on
 *     SIGINT, SIGTERM, SIGHUP and exit, once lmb_cleanup_init has run) and
 *     removed on every error. A file with other hard links is replaced by a new
 *     inode: the other names keep the old contents.
 *
 * Messages name the user's path (quoted with lmb_quote, so a long path is cut),
 * never the temporary one: "cannot write 'x': No space left on device". */
#ifndef LMB_OUTFILE_H
#define LMB_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest path written through a temporary file. */
#define LMB_OUTFILE_PATH_MAX 4096

struct lmb_outfile {
    FILE *fp;                            /* the stream to write */
    const char *path;                    /* the user's path, for messages */
    bool direct;                         /* written straight through, no temporary file */
    char tmp[LMB_OUTFILE_PATH_MAX];      /* the temporary file ("" when direct) */
    char dest[LMB_OUTFILE_PATH_MAX];     /* the file it is renamed over */
};

/* The stream can be read too (fopen's "w+"). */
#define LMB_OUTFILE_READ 1

/* Opens path for writing by the rules above. Returns 0, or -1 with err set to
 * "cannot write 'path': why" (nothing is left behind). o->path keeps the pointer
 * path: it must live until the file is committed or aborted. */
int lmb_outfile_open(struct lmb_outfile *o, const char *path, int flags, char *err,
                     size_t errlen);

/* Flushes the stream, and for a temporary file fsyncs it and renames it over
 * its destination; then closes the stream. Returns 0, or -1 with err set (the
 * temporary file is removed, the destination left as it was). */
int lmb_outfile_commit(struct lmb_outfile *o, char *err, size_t errlen);

/* lmb_outfile_commit without the close: on success the stream stays open (for
 * writing on, now into the file at its destination) and the caller fcloses
 * o->fp. On failure the stream is closed. */
int lmb_outfile_publish(struct lmb_outfile *o, char *err, size_t errlen);

/* Gives the output up: closes the stream and removes the temporary file. */
void lmb_outfile_abort(struct lmb_outfile *o);

/* Gives the output up after a write to o->fp failed: lmb_outfile_abort, and err
 * set to "cannot write 'path': why" from errno (EIO when it is not set).
 * Returns -1. */
int lmb_outfile_fail(struct lmb_outfile *o, char *err, size_t errlen);

#endif
