// SPDX-License-Identifier: MIT
/* Nothing outlives the command: temporary files and System V semaphore sets
 * are removed and child processes killed on exit and on SIGINT, SIGTERM and SIGHUP. */
#ifndef LMB_CLEANUP_H
#define LMB_CLEANUP_H

#include <stddef.h>
#include <sys/types.h>

/* Installs the signal handlers and the exit hook. Call once, early. */
void lmb_cleanup_init(void);

/* In a freshly forked child: default signal actions, nothing of the parent's to
 * clean up, and death when the parent dies. Returns -1 if the parent is gone. */
int lmb_cleanup_child(pid_t parent);

/* Creates an empty temporary file named from `stem` in $TMPDIR (or /tmp) and
 * registers it for removal. Writes its path to path. Returns an open fd, or -1
 * with errno set. */
int lmb_tmpfile(const char *stem, char *path, size_t len);

/* Removes a registered temporary file now. */
void lmb_tmpfile_remove(const char *path);

/* Like lmb_tmpfile, in the directory dir, named "<dir>/<stem>.XXXXXX<suffix>"
 * (random, made with O_EXCL and O_CLOEXEC, mode 0600). Used by lib/outfile.c
 * for the temporary copy of an output file. */
int lmb_tmpfile_in(const char *dir, const char *stem, const char *suffix, char *path,
                   size_t len);

/* Forgets a registered temporary file without removing it (it was renamed). */
void lmb_tmpfile_forget(const char *path);

/* Creates an empty temporary directory named from `stem` in `parent` (or, when
 * parent is NULL, in $TMPDIR or /tmp) and registers it for removal with all it
 * holds, files and subdirectories down to LMB_TMPDIR_DEPTH levels. Writes its
 * path to path. Returns 0, or -1 with errno set. */
#define LMB_TMPDIR_DEPTH 4
int lmb_tmpdir(const char *parent, const char *stem, char *path, size_t len);

/* Removes a registered temporary directory and its contents now. */
void lmb_tmpdir_remove(const char *path);

/* Removes the directory at path with everything in it, LMB_TMPDIR_DEPTH levels
 * deep (registered or not). Uses only system calls. */
void lmb_remove_tree(const char *path);

/* Registers a System V semaphore set (semget's id) for removal (IPC_RMID) on
 * exit and on signals, as temporary files are (-1: too many sets to track);
 * lmb_semset_remove removes it now
 * and forgets it. */
int lmb_semset_track(int id);   /* 0, or -1 when no slot is free */
void lmb_semset_remove(int id);

/* Tracks children the signal handler must kill. */
void lmb_child_track(pid_t pid);

/* fork(), with the child tracked before SIGINT, SIGTERM or SIGHUP can reach
 * the parent's handler (which would otherwise miss a child forked just before
 * it ran). In the child those signals stay held: it restores its mask once
 * lmb_cleanup_child has reset their actions. */
pid_t lmb_fork_tracked(void);
void lmb_child_untrack(pid_t pid);

#endif
