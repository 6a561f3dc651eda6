// SPDX-License-Identifier: MIT
/* The plausibility judgements of the hardware benchmarks (par_ops, par_mem,
 * memsize, lat_dram_page): pure functions of the numbers measured, so that
 * each rule can be tested on synthetic data with a known answer
 * (tests/unit/test_judge.c). A figure a rule refuses gets a non-ok status and
 * the rule's reason, never a number. */
#ifndef LMB_JUDGE_H
#define LMB_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- parallelism (par_ops, par_mem) ---------------------------------------------- */

/* k independent chains can overlap at most k operations, and interleaving them
 * cannot make one operation slower than in a single chain: a ratio is
 * plausible from 1 / LMB_JUDGE_PAR_SLACK to LMB_JUDGE_PAR_SLACK * k. */
#define LMB_JUDGE_PAR_SLACK 1.15

/* Whether a parallelism `ratio` measured with `chains` chains is possible.
 * When it is not, why (if not NULL) gets a sentence starting "too noisy: ". */
bool lmb_judge_parallelism(double ratio, unsigned chains, char *why, size_t len);

/* Rounds of one measurement agree when the largest of their figures is at
 * most LMB_JUDGE_ROUNDS_AGREE times the smallest. */
#define LMB_JUDGE_ROUNDS_AGREE 1.25

/* Whether n (> 0) figures of independent rounds of the same measurement
 * agree; when they do not, why gets "too noisy: the rounds disagree: a, b, c". */
bool lmb_judge_rounds(const double *v, size_t n, char *why, size_t len);

/* A row of a curve (par_mem: one value per working-set size, doubling) is
 * inconsistent with its neighbours when it has a neighbour with a value on
 * each side (the next row, or the one after it when the next has none), the
 * two agree with each other (the larger at most LMB_JUDGE_NEIGHBOURS_AGREE
 * times the smaller), and the row is below the smaller divided by
 * LMB_JUDGE_ROW_JUMP or above the larger times LMB_JUDGE_ROW_JUMP: a single
 * dip or spike that no cache boundary explains (at a boundary the row lies
 * between its neighbours). The first and last rows, and rows without such a
 * neighbour on a side, are never judged: that is not decidable. */
#define LMB_JUDGE_NEIGHBOURS_AGREE 1.5
#define LMB_JUDGE_ROW_JUMP 2.0

/* v[i] is row i's value, known[i] whether it has one. Sets odd[i] for each
 * inconsistent row and returns how many there are. */
size_t lmb_judge_rows(const double *v, const bool *known, size_t n, bool *odd);

/* The reason for odd row i of v: "too noisy: 2.22 between neighbours of 15.10
 * and 17.00, which agree". */
void lmb_judge_row_reason(const double *v, const bool *known, size_t n, size_t i, char *why,
                          size_t len);

/* --- memsize ------------------------------------------------------------------ */

/* One step of memsize's touching: its wall time, whether the system swapped
 * while it ran (pages swapped out, or a major fault of the process), and
 * whether that could be observed at all (known: /proc/vmstat was readable). */
struct lmb_touch_step {
    uint64_t wall_ns;
    bool swapped;
    bool known;
};

/* A step is slow when its wall time is over LMB_TOUCH_SLOW_FACTOR times the
 * fastest step's and over LMB_TOUCH_SLOW_NS. */
#define LMB_TOUCH_SLOW_FACTOR 20
#define LMB_TOUCH_SLOW_NS 50000000ULL
/* Slow steps right after a slow one that confirm it where swapping cannot be
 * observed. */
#define LMB_TOUCH_CONFIRM 2

/* memsize's decision on the steps so far (steps[0..n)). A slow step means the
 * memory ran out (the touching stops before it) only when the system swapped
 * during it; where swapping cannot be observed (known false), when the
 * LMB_TOUCH_CONFIRM steps after it are all slow as well. A slow step without
 * that is a preemption (another process ran) or a first touch that costs more
 * for another reason (a virtual machine's host providing the page), and its
 * memory counts. Returns true when the touching must stop; *counted gets the
 * number of leading steps that count (for a slow step still waiting for the
 * steps that would confirm it, those before it). `final` says that no more
 * steps will come (the end of the memory, or the time budget): a step still
 * waiting then counts. */
bool lmb_touch_judge(const struct lmb_touch_step *steps, size_t n, bool final, size_t *counted);

/* --- lat_dram_page ---------------------------------------------------------------- */

/* A difference d of two latencies is a figure only when it is positive and
 * larger than the noise: at least LMB_JUDGE_DIFF_NOISE times `spread` (half
 * the width of the interquartile ranges of the two latencies, added) and at
 * least LMB_JUDGE_DIFF_MIN of the smaller latency `base`. Else why gets
 * "too noisy: ..." (or "not positive: ..."). */
#define LMB_JUDGE_DIFF_NOISE 1.0
#define LMB_JUDGE_DIFF_MIN 0.01
bool lmb_judge_difference(double d, double spread, double base, char *why, size_t len);

#endif
