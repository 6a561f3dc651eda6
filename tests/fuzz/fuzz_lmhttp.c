// SPDX-License-Identifier: MIT
/* libFuzzer target: lmhttp's request reader (where a request ends) and
 * parser (method, path, version). A path it accepts stays inside the tree. */
#include "../../src/bench/lmhttp.c"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lmb_http_req r;
    long n = lmb_http_framed(data, size);

    if (n > (long)size)
        abort();
    if (n > 0 && lmb_http_parse(data, (size_t)n, &r) == 200) {
        /* No absolute path, no empty component, no component starting with
         * a dot (so no "..": "a..b" is a plain name). */
        if (r.path[0] == '/' || r.path[0] == '.' || strstr(r.path, "/.") != NULL ||
            strstr(r.path, "//") != NULL || strlen(r.path) >= LMB_HTTP_PATH_MAX)
            abort();
    }
    return 0;
}
