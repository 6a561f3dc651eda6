// SPDX-License-Identifier: MIT
/* libFuzzer target: bw_tcp's server decoders: the 24-byte request header and
 * the 8-byte batch header that announces each batch of data. */
#include "../../src/bench/bw_tcp.c"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lmb_net_req r;
    char why[128];
    uint64_t count;
    int st = lmb_net_req_decode(data, size, &limits, &r, why, sizeof why);

    if (st == LMB_NS_OK && r.op == LMB_OP_SINK && (r.msg < 1 || r.msg > MSG_MAX))
        abort();
    if (size >= 8 && batch_decode(data, &count) == 0 && (count == 0 || count > BATCH_MAX))
        abort();
    return 0;
}
