// SPDX-License-Identifier: MIT
/* lmbench scale: a benchmark command run at -P 1, 2, 4 ... (or a list), its
 * scaling curve (throughput, per-copy figure, efficiency against linear) and
 * the point where it stops scaling. The verb is in scale.c; the plain
 * computations below are in scalecurve.c, which tests/unit/test_scale.c checks
 * on synthetic data.
 * doc/lmbench-scale.1 states the stopping rule. */
#ifndef LMB_SUITE_SCALE_H
#define LMB_SUITE_SCALE_H

#include <stdbool.h>
#include <stddef.h>

/* lmbench scale [OPTIONS] CMD [ARGS...] */
int lmb_suite_scale(int argc, char **argv);

/* The efficiency under which a point no longer counts as scaling, unless
 * --min-efficiency says otherwise. */
#define LMB_SCALE_MIN_EFFICIENCY 0.5

/* The most points of one curve (--copies entries). */
#define LMB_SCALE_MAX_POINTS 64

/* One point of a curve: the throughput of all copies together, and the
 * interval the record's spread gives it (its 95% confidence interval of the
 * median, else its quartiles p25 to p75, else the value alone). */
struct lmb_scale_point {
    unsigned copies;
    bool ok;            /* measured (status ok, a bandwidth or a latency) */
    double thr;         /* MB/s summed, or operations per second over all copies */
    double thr_lo, thr_hi;
    double efficiency;  /* filled by lmb_scale_stop: NAN when not ok */
};

/* The throughput of a record at `copies` copies, from its headline value and
 * interval [lo, hi] in its unit: a bandwidth ("MB/s") is already summed over
 * the copies; a latency per operation (unit "ns", "us", "ms" or "s") becomes
 * copies / latency operations per second, its interval reversed. Returns 0, or
 * -1 for another unit or a value that is not positive and finite. */
int lmb_scale_throughput(const char *metric, const char *unit, unsigned copies, double value,
                         double lo, double hi, struct lmb_scale_point *p);

/* The stopping rule, over points sorted by copies (increasing). The base is
 * the first point that is ok; each ok point's efficiency is
 * (thr / copies) / (thr_base / copies_base), which is thr / (copies * thr(1))
 * when the base is -P 1. The curve stops scaling at the first ok point after
 * the base whose throughput interval is not above the previous ok point's
 * (thr_lo <= previous thr_hi: more copies gave nothing the spread could not
 * explain), or whose efficiency is under min_eff. Returns that point's index
 * (why: the reason, in words), or -1 when every point scales (or fewer than
 * two are ok; why says which). */
int lmb_scale_stop(struct lmb_scale_point *p, size_t n, double min_eff, char *why, size_t len);

/* Parses a --copies list "1,2,3,8" (counts 1 .. max, at most
 * LMB_SCALE_MAX_POINTS of them) into out, sorted, duplicates dropped. Returns
 * the count, or -1 with a message in err. */
int lmb_scale_parse_copies(const char *s, unsigned max, unsigned *out, char *err, size_t errlen);

/* The default list for ncpus usable CPUs: 1, 2, 4 ... up to ncpus, and ncpus
 * itself when it is not a power of two. Returns the count. */
int lmb_scale_default_copies(unsigned ncpus, unsigned *out);

#endif
