// SPDX-License-Identifier: MIT
/* libFuzzer target: bw_udp's server decoders: the session request on the
 * server's port and each datagram of the data phase. */
#include "../../src/bench/bw_udp.c"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lmb_net_req r;
    char why[128];

    (void)lmb_net_req_decode(data, size, &limits, &r, why, sizeof why);
    if (datagram_decode(data, size, &r) == 0 &&
        !((r.op == LMB_OP_UDATA && r.msg == size) || r.op == LMB_OP_UEND))
        abort();
    return 0;
}
