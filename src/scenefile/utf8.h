/* Internal: UTF-8 as RFC 3629 defines it, for the strings of text nodes. */
#ifndef SG_SCENEFILE_UTF8_H
#define SG_SCENEFILE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the character at text[*offset] (length bytes in all) into
 * *codepoint and moves *offset past it. False, with *offset unchanged, for a
 * byte that starts no valid character: a stray continuation byte, a sequence
 * cut short, an overlong form, a surrogate (U+D800 .. U+DFFF) or a value past
 * U+10FFFF. */
bool sg_utf8_next(const char *text, size_t length, size_t *offset, uint32_t *codepoint);

#endif
