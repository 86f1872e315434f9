/* UTF-8 validation and decoding (utf8.h), by RFC 3629's table of well-formed
 * byte sequences. Needs nothing else of the library: sg-render compiles it too
 * (tools/meson.build). */
#include "utf8.h"

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

static int fail(struct sg_utf8_error *error, enum sg_utf8_fault fault, int length, size_t byte)
{
	if (error)
		*error = (struct sg_utf8_error){.fault = fault, .length = length, .byte = byte};
	return 0;
}

int sg_utf8_decode(const char *text, size_t left, uint32_t *codepoint, struct sg_utf8_error *error)
{
	const uint8_t *bytes = (const uint8_t *)text;
	uint8_t low, high;
	int count = sequence(bytes[0], &low, &high);
	if (count == 0)
		return fail(error, SG_UTF8_NOT_A_LEAD, 0, 0);
	if ((size_t)count > left)
		return fail(error, SG_UTF8_CUT_OFF, count, 0);
	uint32_t value = count == 1 ? bytes[0] : bytes[0] & (0x7fu >> count);
	for (int k = 1; k < count; k++) {
		uint8_t b = bytes[k];
		if (b < 0x80 || b > 0xbf)
			return fail(error, SG_UTF8_NO_CONTINUATION, count, (size_t)k);
		if (k == 1 && (b < low || b > high))
			return fail(error,
			            bytes[0] == 0xed   ? SG_UTF8_SURROGATE
			            : bytes[0] == 0xf4 ? SG_UTF8_PAST_MAX
			                               : SG_UTF8_OVERLONG,
			            count, 1);
		value = value << 6 | (b & 0x3f);
	}
	*codepoint = value;
	return count;
}

bool sg_utf8_next(const char *text, size_t length, size_t *offset, uint32_t *codepoint)
{
	if (*offset >= length)
		return false;
	int count = sg_utf8_decode(text + *offset, length - *offset, codepoint, NULL);
	*offset += (size_t)count;
	return count > 0;
}

bool sg_utf8_is_shown(uint32_t code)
{
	if (code < 0x20 || (code >= 0x7f && code < 0xa0))
		return false;
	return code != 0x061c && code != 0x200e && code != 0x200f && code != 0x2028 &&
	       code != 0x2029 && !(code >= 0x202a && code <= 0x202e) &&
	       !(code >= 0x2066 && code <= 0x2069);
}
