// SPDX-License-Identifier: MIT
/* lmbench run's progress line, its computations: the ETA (the plan's estimates
 * corrected by the steps done so far), its format, and a text fitted to the
 * terminal's width at a word boundary. */
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double lmb_eta_left(double est_total, double est_done, double time_done)
{
    double left, ratio, prior;

    if (!(est_done > 0))
        est_done = 0;
    if (!(time_done > 0))
        time_done = 0;
    left = est_total - est_done;
    if (!(left > 0))
        return 0;
    prior = LMB_ETA_PRIOR_SHARE * est_total > 1 ? LMB_ETA_PRIOR_SHARE * est_total : 1;
    ratio = (time_done + prior) / (est_done + prior);
    return left * ratio;
}

const char *lmb_eta_format(double s, char *buf, size_t len)
{
    long t = !(s > 0) ? 0 : s > 1e7 ? 10000000L : lround(s);

    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t % 3600 / 60);
    else if (t >= 60)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%lds", t);
    return buf;
}

/* Columns of s[0..n): its bytes but UTF-8 continuation bytes. */
static size_t columns(const char *s, size_t n)
{
    size_t c = 0;

    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

/* The bytes of s that take at most cols columns (not ending inside a character). */
static size_t bytes_for(const char *s, size_t cols)
{
    size_t i = 0, c = 0;

    while (s[i]) {
        if (((unsigned char)s[i] & 0xc0) != 0x80) {
            if (c == cols)
                break;
            c++;
        }
        i++;
    }
    return i;
}

char *lmb_fit_words(const char *s, size_t width, char *out, size_t len)
{
    size_t n = strlen(s), keep;

    if (len == 0)
        return out;
    if (columns(s, n) <= width) {
        snprintf(out, len, "%s", s);
        return out;
    }
    if (width <= 3) {
        snprintf(out, len, "%.*s", (int)(width < len ? width : len - 1), "...");
        return out;
    }
    /* The words that fit with "..." after them. */
    keep = bytes_for(s, width - 3);
    if (s[keep] != ' ') {
        size_t b = keep;
        while (b > 0 && s[b - 1] != ' ')
            b--;
        if (b > 0)
            keep = b;   /* up to the blank: the word it cut goes */
    }
    while (keep > 0 && s[keep - 1] == ' ')
        keep--;
    if (keep == 0)
        keep = bytes_for(s, width - 3);   /* one long word: cut it */
    snprintf(out, len, "%.*s...", (int)keep, s);
    return out;
}
