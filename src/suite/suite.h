// SPDX-License-Identifier: MIT
/* Suite verbs of the lmbench binary. */
#ifndef LMB_SUITE_H
#define LMB_SUITE_H

/* lmbench run: argv[0] is "run". Returns the exit status. */
int lmb_suite_run(int argc, char **argv);

#endif
