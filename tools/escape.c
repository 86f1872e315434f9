/* sg-render: terminal-safe output (escape.h). */
#include "escape.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../src/base/utf8.h"

void escape_write(FILE *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	while (*s) {
		uint32_t code = 0;
		int length = *s < 0x80 ? 1
		                       : sg_utf8_decode((const char *)s,
		                                        strnlen((const char *)s, 4), &code, NULL);
		if (*s < 0x80)
			code = *s;
		if (*s == '\n' || *s == '\t' || *s == '\r') {
			fputc('\\', out);
			fputc(*s == '\n' ? 'n' : *s == '\t' ? 't' : 'r', out);
		} else if (length > 0 && sg_utf8_is_shown(code)) {
			fwrite(s, 1, (size_t)length, out);
		} else if (length > 0 && code >= 0x100) {
			/* a bidi control, as libsg shows it */
			fprintf(out, "\\u%04x", (unsigned)code);
		} else {
			fprintf(out, "\\x%02x", *s); /* C0, DEL, C1, or a byte that is not UTF-8 */
			length = 1;
		}
		s += length;
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
