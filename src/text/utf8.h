/* Internal: UTF-8 checked before HarfBuzz sees it, which would silently
 * replace bad bytes, so that a caller learns where its string is wrong. */
#ifndef SG_TEXT_UTF8_H
#define SG_TEXT_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

/* SG_OK, or SG_ERR_FORMAT "invalid UTF-8 at byte N (...)": overlong forms,
 * surrogates, code points past U+10FFFF, stray or missing continuation bytes. */
sg_result sg_text_utf8_check(const char *text, size_t length);
/* The code point at *at of valid UTF-8, moving *at past it. */
uint32_t sg_text_utf8_next(const char *text, size_t *at);

#endif
