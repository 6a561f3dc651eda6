// SPDX-License-Identifier: MIT
/* Quoting user input for messages. */
#include "lib/text.h"

#include <stdio.h>
#include <string.h>

const char *lmb_quote(const char *s, char *buf, size_t len)
{
    size_t o = 0, i;

    if (len == 0)
        return "";
    if (s == NULL)
        s = "(null)";
    for (i = 0; s[i] != '\0' && i < LMB_QUOTE_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        char piece[8];
        size_t n;

        if (c < 0x20 || c == 0x7f)
            n = (size_t)snprintf(piece, sizeof piece, "\\x%02x", c);
        else if (c == '\\')
            n = (size_t)snprintf(piece, sizeof piece, "\\\\");
        else {
            piece[0] = (char)c;
            n = 1;
        }
        if (o + n + 4 >= len)
            break;
        memcpy(buf + o, piece, n);
        o += n;
    }
    if (s[i] != '\0' && o + 4 <= len) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

const char *lmb_escape(const char *s, char *buf, size_t len)
{
    size_t o = 0;

    if (len == 0)
        return "";
    if (s == NULL)
        s = "(null)";
    for (size_t i = 0; s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x20 || c == 0x7f) {
            if (o + 4 > len - 1)
                break;
            snprintf(buf + o, 5, "\\x%02x", c);
            o += 4;
        } else {
            if (o + 1 > len - 1)
                break;
            buf[o++] = (char)c;
        }
    }
    buf[o] = '\0';
    return buf;
}

int lmb_shell_quote(const char *s, char *out, size_t len)
{
    size_t o = 0;

    if (len < 3)
        return -1;
    out[o++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t n = piece ? 4 : 1;
        if (o + n + 2 > len)
            return -1;
        if (piece)
            memcpy(out + o, piece, n);
        else
            out[o] = *s;
        o += n;
    }
    out[o++] = '\'';
    out[o] = '\0';
    return 0;
}
