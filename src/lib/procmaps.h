// SPDX-License-Identifier: MIT
/* procmaps: what the process that calls it has mapped (/proc/self/maps), for
 * benchmarks whose figure depends on the size of the process (lat_proc,
 * lat_cmd: fork copies the mappings). */
#ifndef LMB_PROCMAPS_H
#define LMB_PROCMAPS_H

/* The number of mappings (lines of /proc/self/maps) of this process; -1 when
 * they cannot be read (no /proc). */
long long lmb_count_maps(void);

#endif
