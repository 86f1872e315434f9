/* sg-render: terminal-safe output (escape.h). */
#include "escape.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../src/base/utf8.h"

/* Length of the valid UTF-8 sequence at s that is not a C1 control (U+0080 ..
 * U+009F, which some terminals obey like ESC [), or 0. */
static size_t printable_utf8_length(const unsigned char *s)
{
	uint32_t code;
	int length = sg_utf8_decode((const char *)s, strnlen((const char *)s, 4), &code, NULL);
	return length > 0 && code >= 0xa0 ? (size_t)length : 0;
}

void escape_write(FILE *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	while (*s) {
		size_t length;
		if (*s >= 0x20 && *s < 0x7f) {
			fputc(*s++, out);
		} else if (*s == '\n' || *s == '\t' || *s == '\r') {
			fputc('\\', out);
			fputc(*s == '\n' ? 'n' : *s == '\t' ? 't' : 'r', out);
			s++;
		} else if (*s >= 0x80 && (length = printable_utf8_length(s))) {
			fwrite(s, 1, length, out);
			s += length;
		} else {
			fprintf(out, "\\x%02x", *s++);
		}
	}
}

void escape_printf(FILE *out, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	char small[1024];
	int length = vsnprintf(small, sizeof(small), format, args);
	va_end(args);
	char *text = small;
	if (length >= (int)sizeof(small) && (text = malloc((size_t)length + 1))) {
		va_start(args, format);
		vsnprintf(text, (size_t)length + 1, format, args);
		va_end(args);
	}
	/* out of memory: the message cut to what fits */
	escape_write(out, text ? text : small);
	fputc('\n', out);
	if (text != small)
		free(text);
}
