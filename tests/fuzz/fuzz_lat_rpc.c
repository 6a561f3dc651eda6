// SPDX-License-Identifier: MIT
/* libFuzzer target: what lat_rpc's server decodes from a client: an RPC call
 * header (libtirpc's xdr_callmsg, as svc does) and the char argument of the
 * echo procedure. */
#include "../../src/bench/lat_rpc.c"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef LMB_HAVE_TIRPC
    XDR x;
    struct rpc_msg msg;
    char cred[2 * MAX_AUTH_BYTES + 1];
    char c;

    memset(&msg, 0, sizeof msg);
    msg.rm_call.cb_cred.oa_base = cred;
    msg.rm_call.cb_verf.oa_base = cred + MAX_AUTH_BYTES;
    xdrmem_create(&x, (char *)(uintptr_t)data, (u_int)size, XDR_DECODE);
    if (xdr_callmsg(&x, &msg) && msg.rm_direction == CALL &&
        msg.rm_call.cb_prog == XACT_PROG && msg.rm_call.cb_proc == RPC_XACT)
        (void)xdr_char(&x, &c);
    xdr_destroy(&x);
#else
    (void)data, (void)size;
#endif
    return 0;
}
