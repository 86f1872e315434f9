/* UTF-8 decoding: json-c keeps the bytes of a string as the file has them,
 * so a scene file can hold any byte sequence in a text node's string. */
#include "utf8.h"

bool sg_utf8_next(const char *text, size_t length, size_t *offset, uint32_t *codepoint)
{
	const unsigned char *bytes = (const unsigned char *)text + *offset;
	size_t left = length - *offset;
	unsigned char lead = bytes[0];
	size_t count;
	uint32_t value, least;
	if (lead < 0x80) {
		*codepoint = lead;
		*offset += 1;
		return true;
	} else if (lead >= 0xc2 && lead <= 0xdf) {
		count = 2, value = lead & 0x1f, least = 0x80;
	} else if (lead >= 0xe0 && lead <= 0xef) {
		count = 3, value = lead & 0x0f, least = 0x800;
	} else if (lead >= 0xf0 && lead <= 0xf4) {
		count = 4, value = lead & 0x07, least = 0x10000;
	} else {
		return false; /* a continuation byte, 0xc0, 0xc1 (overlong) or 0xf5 .. 0xff */
	}
	if (left < count)
		return false;
	for (size_t i = 1; i < count; i++) {
		if ((bytes[i] & 0xc0) != 0x80)
			return false;
		value = (value << 6) | (bytes[i] & 0x3f);
	}
	if (value < least || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
		return false;
	*codepoint = value;
	*offset += count;
	return true;
}
