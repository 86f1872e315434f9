/* sg_utf8_check (utf8.h): where a string stops being UTF-8, for messages. */
#include "utf8.h"

#include "error.h"

sg_result sg_utf8_check(const char *text, size_t length)
{
	const uint8_t *bytes = (const uint8_t *)text;
	for (size_t i = 0; i < length;) {
		uint32_t codepoint;
		struct sg_utf8_error e;
		int count = sg_utf8_decode(text + i, length - i, &codepoint, &e);
		if (count > 0) {
			i += (size_t)count;
			continue;
		}
		switch (e.fault) {
		case SG_UTF8_NOT_A_LEAD:
			return sg_fail(
			    SG_ERR_FORMAT,
			    "invalid UTF-8 at byte %zu (byte 0x%02x cannot start a character)", i,
			    bytes[i]);
		case SG_UTF8_CUT_OFF:
			return sg_fail(
			    SG_ERR_FORMAT,
			    "invalid UTF-8 at byte %zu (a %d-byte sequence is cut off by the end)",
			    i, e.length);
		case SG_UTF8_NO_CONTINUATION:
			return sg_fail(SG_ERR_FORMAT,
			               "invalid UTF-8 at byte %zu (a %d-byte sequence cut short: "
			               "byte 0x%02x at %zu is no continuation byte)",
			               i, e.length, bytes[i + e.byte], i + e.byte);
		default:
			return sg_fail(SG_ERR_FORMAT, "invalid UTF-8 at byte %zu (%s)", i,
			               e.fault == SG_UTF8_SURROGATE
			                   ? "a surrogate, U+D800 .. U+DFFF"
			               : e.fault == SG_UTF8_PAST_MAX ? "past U+10FFFF"
			                                             : "an overlong form");
		}
	}
	return SG_OK;
}
