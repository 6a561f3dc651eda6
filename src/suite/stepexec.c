// SPDX-License-Identifier: MIT
/* lmb_step_exec on the harness's lmb_command_run: the command writes its classic
 * lines, its JSON document and its messages to the streams it is given, all at
 * once, so the raw results file and the JSON files come from the same
 * measurement.
 *
 * The step's process is a fork of the runner, so the last launch of a step
 * (and the only one of a step in one launch) runs in a copy of the runner's
 * address space: its heap holds the records of the steps done so far, and a
 * fork inside the benchmark (lat_proc fork) copies those page tables too. With
 * --launches, launches 1 .. K-1 are fresh processes (exec of /proc/self/exe,
 * lib/launch.c). Making every step such an exec would need the classic and
 * JSON streams passed on descriptors named in the environment; not done until
 * it is shown to narrow lat_proc fork's spread between runs. */
#include "stepexec.h"

#include <stdio.h>
#include <unistd.h>

#include "lib/command.h"

const int lmb_step_exec_both = 1;

int lmb_step_exec(const struct lmb_bench *b, int argc, char **argv, int classic_fd, int json_fd,
                  int msg_fd)
{
    FILE *classic = fdopen(classic_fd, "w"), *json = json_fd >= 0 ? fdopen(json_fd, "w") : NULL;
    FILE *messages = fdopen(msg_fd, "w");
    struct lmb_streams io;
    int rc;

    if (classic == NULL || messages == NULL || (json_fd >= 0 && json == NULL))
        return 1;
    /* Help and --list (not asked by the runner) would go with the messages. */
    io = (struct lmb_streams){ .out = messages, .classic = classic, .messages = messages,
                               .json = json };
    rc = lmb_command_run(b, b->name, argc, argv, &io);
    if (fclose(classic) != 0 || (json != NULL && fclose(json) != 0))
        rc = rc ? rc : 1;
    fclose(messages);
    return rc;
}
