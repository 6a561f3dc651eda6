// SPDX-License-Identifier: MIT
/* libFuzzer target: lat_udp's server request decoder (the 24-byte header its
 * server reads before anything else), with the server's own limits. */
#include "../../src/bench/lat_udp.c"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lmb_net_req r;
    char why[128];
    int st = lmb_net_req_decode(data, size, &limits, &r, why, sizeof why);

    /* What the server goes on to serve is within its limits. */
    if (st == LMB_NS_OK && r.op != LMB_OP_HELLO && r.op != LMB_OP_STOP &&
        (r.msg < limits.msg_min || r.msg > limits.msg_max || r.total > limits.total_max ||
         !(limits.ops & (1u << r.op))))
        abort();
    (void)lmb_server_framed_req(data, size);
    return 0;
}
