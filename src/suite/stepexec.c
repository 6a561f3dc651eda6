// SPDX-License-Identifier: MIT
/* lmb_step_exec on the harness's lmb_command_main: the JSON document on
 * stdout and messages on stderr of this step process, so the classic lines are
 * not available at the same time (the raw results file gets its header and
 * section lines only). */
#include "stepexec.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/command.h"

const int lmb_step_exec_both = 0;

int lmb_step_exec(const struct lmb_bench *b, int argc, char **argv, int classic_fd, int json_fd,
                  int msg_fd)
{
    char **av = calloc((size_t)argc + 2, sizeof *av);
    int n = 0, rc;

    if (av == NULL)
        return 1;
    av[n++] = argv[0];
    if (json_fd >= 0) {
        av[n++] = "--json";
        dup2(json_fd, STDOUT_FILENO);
        dup2(msg_fd, STDERR_FILENO);
    } else {
        dup2(classic_fd, b->classic_on_stdout ? STDOUT_FILENO : STDERR_FILENO);
        dup2(b->classic_on_stdout ? msg_fd : classic_fd,
             b->classic_on_stdout ? STDERR_FILENO : STDOUT_FILENO);
    }
    for (int i = 1; i < argc; i++)
        av[n++] = argv[i];
    av[n] = NULL;
    close(classic_fd);
    if (json_fd >= 0)
        close(json_fd);
    close(msg_fd);
    rc = lmb_command_main(b, b->name, n, av);
    fflush(NULL);
    free(av);
    return rc;
}
