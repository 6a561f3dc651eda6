// SPDX-License-Identifier: MIT
/* Small helpers for the two-ended benchmarks. */
#include "lib/partner.h"

#include <signal.h>
#include <time.h>

#include "lib/bench.h"

void lmb_partner_gone(const char *what)
{
    const struct timespec ms = { 0, 1000000 };

    /* When the partner died, the harness's SIGCHLD handler ends this copy with
     * the partner's own reason; give the signal a moment to arrive. */
    for (int i = 0; i < 100; i++)
        nanosleep(&ms, NULL);
    lmb_abort_copy("%s: the partner is gone", what);
}

void lmb_ignore_sigpipe(void)
{
    signal(SIGPIPE, SIG_IGN);
}
