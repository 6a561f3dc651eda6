// SPDX-License-Identifier: MIT
/* Suite verbs of the lmbench binary: each takes argv[0] = its name and returns
 * the exit status (0 ok, 1 failed, 2 bad usage, 3 skipped). */
#ifndef LMB_SUITE_H
#define LMB_SUITE_H

/* lmbench run: the whole suite, results files, resume (runner.c). */
int lmb_suite_runner(int argc, char **argv);
/* lmbench import FILE: a results file as one JSON document (import.c). */
int lmb_suite_import(int argc, char **argv);

/* lmbench see [FILES|DIRS]: the summary page (see.c). */
int lmb_suite_see(int argc, char **argv);

/* lmbench compare BASE NEW...: measurements side by side (compare.c). */
int lmb_suite_compare(int argc, char **argv);

/* lmbench graph FILES... -o report.html: plots in one HTML page (graph.c). */
int lmb_suite_graph(int argc, char **argv);

/* lmbench config: the configuration questions, a file for run -c (config.c). */
int lmb_suite_config(int argc, char **argv);

/* The JSON "metric" of a unit: "latency", "bandwidth", "frequency", "ratio",
 * "size". */
const char *lmb_rs_metric_of_unit(const char *unit);

#endif
