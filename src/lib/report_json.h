// SPDX-License-Identifier: MIT
/* The JSON rendering of one record (for tests and the suite; needs jansson). */
#ifndef LMB_REPORT_JSON_H
#define LMB_REPORT_JSON_H

#include "lib/report.h"

#ifdef LMB_HAVE_JANSSON
#include <jansson.h>

/* A new JSON object for the record, or NULL when memory is short. */
json_t *lmb_record_json(const struct lmb_record *r);
#endif

#endif
