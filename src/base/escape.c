/* Escaping of untrusted text for messages. */
#include "escape.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "utf8.h"

/* The escape of one byte or code point below 0xa0 that must not be shown raw. */
static void escape_one(uint32_t code, enum sg_escape_style style, char piece[8])
{
	static const char named[] = "\b\bb\t\tt\n\nn\f\ff\r\rr";
	for (size_t i = 0; i + 2 < sizeof(named); i += 3) {
		if ((uint32_t)(unsigned char)named[i] == code) {
			snprintf(piece, 8, "\\%c", named[i + 2]);
			return;
		}
	}
	if (style == SG_ESCAPE_JSON)
		snprintf(piece, 8, "\\u%04x", (unsigned)code);
	else
		snprintf(piece, 8, "\\x%02x", (unsigned)code);
}

char *sg_escape(const char *text, enum sg_escape_style style, char *out, size_t size)
{
	const unsigned char *c = (const unsigned char *)text;
	size_t used = 0;
	while (*c) {
		char piece[12]; /* a backslash-u escape of 6 bytes, or a character */
		size_t take = 1;
		uint32_t code = 0;
		if (*c >= 0x20 && *c < 0x7f) {
			bool quote = *c == '\\' || (style == SG_ESCAPE_JSON && *c == '"');
			snprintf(piece, sizeof(piece), quote ? "\\%c" : "%c", *c);
		} else if (*c < 0x80) {
			escape_one(*c, style, piece); /* C0 control or DEL */
		} else if ((take = (size_t)sg_utf8_decode(
		                (const char *)c, strnlen((const char *)c, 4), &code, NULL)) == 0) {
			/* Not UTF-8: this byte alone, the next ones are looked at again. */
			escape_one(*c, SG_ESCAPE_TEXT, piece);
			take = 1;
		} else if (!sg_utf8_is_shown(code)) {
			/* a C1 control (0x9b starts a CSI), or a bidi control */
			if (code < 0x100)
				escape_one(code, style, piece);
			else
				snprintf(piece, sizeof(piece), "\\u%04x", (unsigned)code);
		} else {
			memcpy(piece, c, take);
			piece[take] = '\0';
		}
		size_t length = strlen(piece);
		if (used + length + 4 > size) {
			memcpy(out + (used < size - 4 ? used : size - 4), "...", 4);
			return out;
		}
		memcpy(out + used, piece, length);
		used += length;
		c += take;
	}
	out[used] = '\0';
	return out;
}

char *sg_escape_path(const char *path, char *out, size_t size)
{
	char full[4096]; /* a longer escape ends in "..." here already */
	sg_escape(path, SG_ESCAPE_TEXT, full, sizeof(full));
	size_t length = sg_cut_middle(full, strlen(full), size - 1);
	memcpy(out, full, length + 1);
	return out;
}
