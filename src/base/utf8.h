/* Internal: UTF-8 as RFC 3629 defines it, decoded in one place for every layer
 * (text nodes, scene files, messages, sg-render's output). */
#ifndef SG_BASE_UTF8_H
#define SG_BASE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

/* Why no character starts at a byte. */
enum sg_utf8_fault {
	SG_UTF8_NOT_A_LEAD,      /* a continuation byte, 0xc0, 0xc1 or 0xf5 .. 0xff */
	SG_UTF8_CUT_OFF,         /* the text ends inside the sequence */
	SG_UTF8_NO_CONTINUATION, /* a byte of the sequence is no continuation byte */
	SG_UTF8_OVERLONG,        /* a longer form of a smaller code point */
	SG_UTF8_SURROGATE,       /* U+D800 .. U+DFFF */
	SG_UTF8_PAST_MAX,        /* past U+10FFFF */
};

/* What sg_utf8_decode found wrong: the fault, the sequence's length as its lead
 * byte announces it, and the offset of the offending byte from the lead. */
struct sg_utf8_error {
	enum sg_utf8_fault fault;
	int length;
	size_t byte;
};

/* Decodes the character at text (left > 0 bytes available): its length (1 to
 * 4) and *codepoint, or 0 with *error filled (error may be NULL). */
int sg_utf8_decode(const char *text, size_t left, uint32_t *codepoint, struct sg_utf8_error *error);

/* Decodes the character at text[*offset] (length bytes in all) into *codepoint
 * and moves *offset past it. False, with *offset unchanged, where no valid
 * character starts (the end of the text included). */
bool sg_utf8_next(const char *text, size_t length, size_t *offset, uint32_t *codepoint);

/* Whether a message may show code point code as it is. Not: C0 and C1 control
 * characters and DEL (0x9b starts a CSI on some terminals), and the invisible
 * bidi controls that reorder what a terminal shows around them (U+061C,
 * U+200E, U+200F, U+202A .. U+202E, U+2066 .. U+2069: "\u202egnp.exe" shows
 * as "exe.png"), and the line and paragraph separators U+2028, U+2029. The
 * one rule of the library's escaping (escape.h) and sg-render's. */
bool sg_utf8_is_shown(uint32_t code);

/* SG_OK, or SG_ERR_FORMAT "invalid UTF-8 at byte N (...)" naming the fault,
 * checked before HarfBuzz sees a string (it would replace bad bytes silently),
 * so that a caller learns where its string is wrong. */
sg_result sg_utf8_check(const char *text, size_t length);

#endif
