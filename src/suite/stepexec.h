// SPDX-License-Identifier: MIT
/* Running one benchmark command inside a step's process, its outputs on given
 * file descriptors: the one place the runner touches the harness's entry point,
 * so that moving to another entry point is a change here only. */
#ifndef LMB_SUITE_STEPEXEC_H
#define LMB_SUITE_STEPEXEC_H

#include "lib/bench.h"

/* Runs b with argv (argv[0] its name) in this process, a child of the runner:
 * classic lines and section lines to classic_fd, the JSON document to json_fd
 * (-1: none), status messages and warnings to msg_fd. Returns the exit status.
 * The descriptors are closed on return. */
int lmb_step_exec(const struct lmb_bench *b, int argc, char **argv, int classic_fd, int json_fd,
                  int msg_fd);

/* Whether the classic lines reach classic_fd together with a JSON document
 * (false while the harness can write only one of them). */
extern const int lmb_step_exec_both;

#endif
