// SPDX-License-Identifier: MIT
/* The plausibility judgements of par_ops, par_mem, memsize and lat_dram_page:
 * which figures a rule refuses, and why. See judge.h. */
#include "lib/judge.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((format(printf, 3, 4))) static void say(char *why, size_t len, const char *fmt,
                                                      ...)
{
    va_list ap;

    if (why == NULL || len == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

bool lmb_judge_parallelism(double ratio, unsigned chains, char *why, size_t len)
{
    if (!isfinite(ratio) || ratio <= 0) {
        say(why, len, "too noisy: a parallelism of %g cannot be measured", ratio);
        return false;
    }
    if (ratio > LMB_JUDGE_PAR_SLACK * chains) {
        say(why, len, "too noisy: %.2f is more than %u chains can overlap", ratio, chains);
        return false;
    }
    if (ratio < 1 / LMB_JUDGE_PAR_SLACK) {
        say(why, len, "too noisy: %.2f, below 1: %u independent chains cannot make one "
            "operation slower", ratio, chains);
        return false;
    }
    return true;
}

bool lmb_judge_rounds(const double *v, size_t n, char *why, size_t len)
{
    double lo = INFINITY, hi = -INFINITY;

    for (size_t i = 0; i < n; i++) {
        if (!(v[i] > 0))
            lo = -INFINITY;
        if (v[i] < lo)
            lo = v[i];
        if (v[i] > hi)
            hi = v[i];
    }
    if (n == 0 || (lo > 0 && hi <= LMB_JUDGE_ROUNDS_AGREE * lo))
        return true;
    if (why != NULL && len > 0) {
        size_t at = (size_t)snprintf(why, len, "too noisy: the rounds disagree:");
        for (size_t i = 0; i < n && at < len; i++)
            at += (size_t)snprintf(why + at, len - at, "%s %.2f", i ? "," : "", v[i]);
    }
    return false;
}

/* The nearest row with a value on one side of i (dir -1 or +1), skipping at
 * most one without: its index, or -1. */
static long neighbour(const bool *known, size_t n, size_t i, int dir)
{
    for (long j = (long)i + dir, hops = 0; j >= 0 && j < (long)n && hops < 2; j += dir, hops++)
        if (known[j])
            return j;
    return -1;
}

size_t lmb_judge_rows(const double *v, const bool *known, size_t n, bool *odd)
{
    size_t nodd = 0;

    for (size_t i = 0; i < n; i++) {
        odd[i] = false;
        if (!known[i])
            continue;
        long l = neighbour(known, n, i, -1), r = neighbour(known, n, i, +1);
        if (l < 0 || r < 0)
            continue;
        double lo = fmin(v[l], v[r]), hi = fmax(v[l], v[r]);
        if (!(lo > 0) || hi > LMB_JUDGE_NEIGHBOURS_AGREE * lo)
            continue;   /* the neighbours disagree: a transition, not decidable */
        if (v[i] < lo / LMB_JUDGE_ROW_JUMP || v[i] > hi * LMB_JUDGE_ROW_JUMP) {
            odd[i] = true;
            nodd++;
        }
    }
    return nodd;
}

void lmb_judge_row_reason(const double *v, const bool *known, size_t n, size_t i, char *why,
                          size_t len)
{
    long l = neighbour(known, n, i, -1), r = neighbour(known, n, i, +1);

    if (l < 0 || r < 0) {
        say(why, len, "too noisy: %.2f, inconsistent with its neighbours", v[i]);
        return;
    }
    say(why, len, "too noisy: %.2f between neighbours of %.2f and %.2f, which agree", v[i],
        v[l], v[r]);
}

/* --- memsize ------------------------------------------------------------------ */

static bool slow(uint64_t t, uint64_t best)
{
    return t > LMB_TOUCH_SLOW_FACTOR * best && t > LMB_TOUCH_SLOW_NS;
}

bool lmb_touch_judge(const struct lmb_touch_step *steps, size_t n, bool final, size_t *counted)
{
    uint64_t best = UINT64_MAX;

    for (size_t i = 0; i < n; i++)
        if (steps[i].wall_ns < best)
            best = steps[i].wall_ns;
    *counted = 0;
    for (size_t i = 0; i < n; i++) {
        if (!slow(steps[i].wall_ns, best)) {
            *counted = i + 1;
            continue;
        }
        /* Slow: the memory ran out if something confirms it. */
        if (steps[i].swapped)
            return true;
        if (!steps[i].known) {
            size_t after = 0, slow_after = 0;
            for (size_t j = i + 1; j < n && after < LMB_TOUCH_CONFIRM; j++, after++)
                if (slow(steps[j].wall_ns, best))
                    slow_after++;
            if (after == LMB_TOUCH_CONFIRM && slow_after == LMB_TOUCH_CONFIRM)
                return true;       /* slow again and again: not one preemption */
            if (slow_after == after && !final)
                return false;      /* waiting for the steps that would confirm it */
        }
        /* Nothing confirms it: a preemption, and its memory counts. */
        *counted = i + 1;
    }
    return final;
}

/* --- lat_dram_page ---------------------------------------------------------------- */

bool lmb_judge_difference(double d, double spread, double base, char *why, size_t len)
{
    if (!(d > 0)) {
        say(why, len, "not positive: the difference is %.2f ns; the loads that find their "
            "page open were not faster", d);
        return false;
    }
    if (d < LMB_JUDGE_DIFF_NOISE * spread || d < LMB_JUDGE_DIFF_MIN * base) {
        say(why, len, "too noisy: the difference, %.2f ns, is within the noise (%.2f ns) or "
            "under 1%% of the latency (%.2f ns)", d, spread, base);
        return false;
    }
    return true;
}
