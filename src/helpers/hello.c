// SPDX-License-Identifier: MIT
/* hello: the smallest program, the exec target lat_proc measures. */
#include <unistd.h>

int main(void)
{
    static const char msg[] = "Hello world\n";

    return write(STDOUT_FILENO, msg, sizeof msg - 1) == (ssize_t)(sizeof msg - 1) ? 0 : 1;
}
