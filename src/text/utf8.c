/* UTF-8 validation and decoding (utf8.h), by RFC 3629's table of well-formed
 * byte sequences. */
#include "utf8.h"

#include <stdbool.h>

#include "../graph/error.h"

/* Bytes of the sequence a lead byte starts (0: not a lead byte) and the range
 * of its second byte, which is where overlongs, surrogates and code points past
 * U+10FFFF are told apart. */
static int sequence(uint8_t lead, uint8_t *low, uint8_t *high)
{
	*low = 0x80;
	*high = 0xbf;
	if (lead < 0x80)
		return 1;
	if (lead < 0xc2) /* continuation, or an overlong two-byte form */
		return 0;
	if (lead < 0xe0)
		return 2;
	if (lead < 0xf0) {
		if (lead == 0xe0)
			*low = 0xa0; /* below: overlong */
		else if (lead == 0xed)
			*high = 0x9f; /* above: surrogates U+D800..DFFF */
		return 3;
	}
	if (lead < 0xf5) {
		if (lead == 0xf0)
			*low = 0x90; /* below: overlong */
		else if (lead == 0xf4)
			*high = 0x8f; /* above: past U+10FFFF */
		return 4;
	}
	return 0;
}

sg_result sg_text_utf8_check(const char *text, size_t length)
{
	const uint8_t *bytes = (const uint8_t *)text;
	for (size_t i = 0; i < length;) {
		uint8_t low, high;
		int count = sequence(bytes[i], &low, &high);
		if (count == 0)
			return sg_fail(
			    SG_ERR_FORMAT,
			    "invalid UTF-8 at byte %zu (byte 0x%02x cannot start a character)", i,
			    bytes[i]);
		if ((size_t)count > length - i)
			return sg_fail(
			    SG_ERR_FORMAT,
			    "invalid UTF-8 at byte %zu (a %d-byte sequence is cut off by the end)",
			    i, count);
		for (int k = 1; k < count; k++) {
			uint8_t b = bytes[i + (size_t)k];
			if (b < 0x80 || b > 0xbf)
				return sg_fail(
				    SG_ERR_FORMAT,
				    "invalid UTF-8 at byte %zu (a %d-byte sequence cut short: "
				    "byte 0x%02x at %zu is no continuation byte)",
				    i, count, b, i + (size_t)k);
			if (k == 1 && (b < low || b > high))
				return sg_fail(SG_ERR_FORMAT, "invalid UTF-8 at byte %zu (%s)", i,
				               bytes[i] == 0xed   ? "a surrogate, U+D800 .. U+DFFF"
				               : bytes[i] == 0xf4 ? "past U+10FFFF"
				                                  : "an overlong form");
		}
		i += (size_t)count;
	}
	return SG_OK;
}

uint32_t sg_text_utf8_next(const char *text, size_t *at)
{
	const uint8_t *b = (const uint8_t *)text + *at;
	if (b[0] < 0x80) {
		*at += 1;
		return b[0];
	}
	if (b[0] < 0xe0) {
		*at += 2;
		return (uint32_t)(b[0] & 0x1f) << 6 | (b[1] & 0x3f);
	}
	if (b[0] < 0xf0) {
		*at += 3;
		return (uint32_t)(b[0] & 0x0f) << 12 | (uint32_t)(b[1] & 0x3f) << 6 | (b[2] & 0x3f);
	}
	*at += 4;
	return (uint32_t)(b[0] & 0x07) << 18 | (uint32_t)(b[1] & 0x3f) << 12 |
	       (uint32_t)(b[2] & 0x3f) << 6 | (b[3] & 0x3f);
}
