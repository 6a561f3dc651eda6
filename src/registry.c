// SPDX-License-Identifier: MIT
/* The table of benchmark commands, generated from src/bench/. */
#include "registry.h"

#include <string.h>

const struct lmb_bench *const lmb_benches[] = {
#define LMB_BENCH(name) &lmb_bench_##name,
#include "registry.inc"
#undef LMB_BENCH
    NULL,
};

const struct lmb_bench *lmb_find_bench(const char *name)
{
    for (size_t i = 0; lmb_benches[i] != NULL; i++)
        if (strcmp(lmb_benches[i]->name, name) == 0)
            return lmb_benches[i];
    return NULL;
}
