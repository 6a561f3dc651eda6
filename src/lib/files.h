// SPDX-License-Identifier: MIT
/* Files for the file and VM benchmarks: checking what the user named, copies
 * of a file per -P copy (-C), summing data read, whole reads and writes, and
 * the limit on open descriptors. */
#ifndef LMB_FILES_H
#define LMB_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Checks that path is something a benchmark can read: it exists, is a regular
 * file (or a block device when allow_dev), can be opened for reading and holds
 * at least `need` bytes. Its size goes to *size. Returns 0, or -1 with a message
 * for people in err ("'x' is a directory, not a file" ...). */
int lmb_check_input(const char *path, uint64_t need, bool allow_dev, uint64_t *size,
                    char *err, size_t errlen);

/* Checks that path is a directory the command can create files in. */
int lmb_check_dir(const char *path, char *err, size_t errlen);

/* The size of an open regular file or block device, or -1. */
int64_t lmb_fd_size(int fd);

/* -C: `count` copies of the first `bytes` bytes of path, named 0, 1 ... in a
 * temporary directory created beside path (registered for removal, also on
 * signals). The directory goes to dir. Returns 0, or -1 with a message. */
int lmb_clones_make(const char *path, uint64_t bytes, unsigned count, char *dir, size_t dirlen,
                    char *err, size_t errlen);

/* The path of clone i in dir. */
void lmb_clone_path(const char *dir, unsigned i, char *out, size_t len);

/* The file a file benchmark reads, checked, and with -C one copy of it per -P
 * copy. Prepared in the command, before measuring; each copy takes its path in
 * its set-up. */
struct lmb_input {
    const char *path;         /* as the user gave it */
    bool cloned;
    char clonedir[4096];
};

/* Checks path (lmb_check_input with need bytes, its size to *size) and, when
 * clone, makes `copies` copies of its first `clone_bytes` bytes. */
int lmb_input_prepare(struct lmb_input *in, const char *path, uint64_t need, bool clone,
                      uint64_t clone_bytes, unsigned copies, uint64_t *size, char *err,
                      size_t errlen);

/* In a copy's set-up: the file this copy reads (its clone with -C, by
 * lmb_copy_index()). */
const char *lmb_input_take(struct lmb_input *in, char *buf, size_t len);

/* Removes the clones. */
void lmb_input_release(struct lmb_input *in);

/* Raises the soft limit on open files to at least `need` (up to the hard limit).
 * Returns 0, or -1 with a message when the hard limit is lower. */
int lmb_want_fds(uint64_t need, char *err, size_t errlen);

/* Reads exactly len bytes (retrying short reads and EINTR): 0 when done, 1 at
 * end of file before that, -1 on an error (errno set). */
int lmb_read_all(int fd, void *buf, size_t len);

/* Writes exactly len bytes: 0, or -1 on an error (errno set; EPIPE when the
 * reader is gone). */
int lmb_write_all(int fd, const void *buf, size_t len);

/* The whole of bw_file_rd and bw_mmap_rd but their loops: the operands "size
 * mode file" (mode one of the command's variants), -C, the record (case the
 * mode, size_bytes, file; MB/s as bw_mem), the input prepared and released.
 * setup(state, size, in) gives the state what it needs; t holds init, cleanup
 * and state, and gets the mode's loop. `mapped`: the size must fit in the
 * address space. */
struct lmb_ctx;
struct lmb_timed;
int lmb_file_bw_main(struct lmb_ctx *ctx, int argc, char **argv, const char *modes, bool mapped,
                     struct lmb_timed *t, void (*setup)(void *state, uint64_t size,
                                                        struct lmb_input *in));

/* Reads every byte of p (as 64-bit words, then the tail) and returns their sum,
 * so that the compiler cannot drop the reads. */
uint64_t lmb_sum_bytes(const void *p, size_t len);

/* lat_mmap's touches, lmbench 3's pattern: one byte every 16 KiB over the
 * first tenth of a mapping of `size` bytes, or with `whole` every 160 KiB over
 * all of it; offset k is k * *step. At least one touch (offset 0), also where
 * the tenth is empty. Returns the number of touches. */
#define LMB_MMAP_STEP (16u * 1024u)
size_t lmb_mmap_touches(uint64_t size, bool whole, size_t *step);

/* disk's seek walk: 4 KiB reads `distance` bytes apart, each at a position not
 * read before until every block of the walk has been read once. Laps of reads
 * `distance` apart go up and down the device, each lap shifted one block from
 * the last, so that a move is distance (or distance +- block between laps);
 * with distance == block the reads are sequential. After the last lap it
 * starts again at 0. Needs 2 * distance + block <= size and distance a
 * multiple of block. */
struct lmb_seek_walk {
    uint64_t size, distance, block;
    uint64_t lap;          /* its offset is lap * block */
    uint64_t k;            /* the position in the lap: offset + k * distance */
    bool started;
};
void lmb_seek_walk_init(struct lmb_seek_walk *w, uint64_t size, uint64_t distance,
                        uint64_t block);
/* The offset of the next read. */
uint64_t lmb_seek_walk_next(struct lmb_seek_walk *w);

#endif
