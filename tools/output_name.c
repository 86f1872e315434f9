/* sg-render: the -o pattern language (output_name.h). */
#include "output_name.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* passed as a %s argument: it is full of % */
static const char syntax[] = "a pattern holds one %d, %Nd or %0Nd (N 1..9) and %% for a "
                             "literal %";

/* The conversion at c (just after a '%'): its length up to and including 'd',
 * or 0 when it is not %d, %Nd or %0Nd. */
static size_t conversion_length(const char *c, bool *zero_pad, int *width)
{
	size_t n = 0;
	*zero_pad = c[n] == '0';
	if (*zero_pad)
		n++;
	*width = 0;
	if (c[n] >= '1' && c[n] <= '9')
		*width = c[n++] - '0';
	return c[n] == 'd' ? n + 1 : 0;
}

bool output_name_parse(const char *pattern, struct output_name *name, char *error, size_t size)
{
	*name = (struct output_name){.pattern = pattern};
	for (const char *c = pattern; *c; c++) {
		if (*c != '%')
			continue;
		if (c[1] == '%') {
			c++;
			continue;
		}
		bool zero_pad;
		int width;
		size_t length = conversion_length(c + 1, &zero_pad, &width);
		if (!length) {
			/* name only what follows the %, up to a few bytes: the rest
			 * may be long (a width of 2147483648) */
			snprintf(error, size, "'%%%.4s%s' is not allowed: %s", c + 1,
			         strlen(c + 1) > 4 ? "..." : "", syntax);
			return false;
		}
		if (name->has_number) {
			snprintf(error, size, "two frame-number conversions: %s", syntax);
			return false;
		}
		*name = (struct output_name){pattern, true, zero_pad, width};
		c += length;
	}
	return true;
}

/* Appends text (length bytes) at *at; false when it does not fit with the final NUL. */
static bool put(char *path, size_t size, size_t *at, const char *text, size_t length)
{
	if (length >= size - *at)
		return false;
	memcpy(path + *at, text, length);
	*at += length;
	path[*at] = '\0';
	return true;
}

/* frame in decimal, padded to width with zeros or spaces, as printf would. */
static bool put_number(char *path, size_t size, size_t *at, int frame, int width, bool zero_pad)
{
	char digits[16];
	int count = 0;
	unsigned value = (unsigned)frame;
	do
		digits[count++] = (char)('0' + value % 10);
	while ((value /= 10) != 0);
	for (int pad = count; pad < width; pad++)
		if (!put(path, size, at, zero_pad ? "0" : " ", 1))
			return false;
	while (count > 0)
		if (!put(path, size, at, &digits[--count], 1))
			return false;
	return true;
}

bool output_name_format(const struct output_name *name, int frame_count, int frame, char *path,
                        size_t size)
{
	size_t at = 0;
	path[0] = '\0';
	for (const char *c = name->pattern; *c; c++) {
		bool zero_pad;
		int width;
		size_t length;
		if (*c != '%') {
			length = strcspn(c, "%");
			if (!put(path, size, &at, c, length))
				return false;
			c += length - 1;
		} else if (c[1] == '%') {
			if (!put(path, size, &at, "%", 1))
				return false;
			c++;
		} else if ((length = conversion_length(c + 1, &zero_pad, &width))) {
			if (!put_number(path, size, &at, frame, width, zero_pad))
				return false;
			c += length;
		}
	}
	if (name->has_number || frame_count == 1)
		return true;
	/* No conversion: -NNNN before .png keeps the frames apart. */
	size_t stem = at >= 4 && strcasecmp(path + at - 4, ".png") == 0 ? at - 4 : at;
	char suffix[8];
	memcpy(suffix, path + stem, at - stem + 1);
	at = stem;
	path[at] = '\0';
	return put(path, size, &at, "-", 1) && put_number(path, size, &at, frame, 4, true) &&
	       put(path, size, &at, suffix, strlen(suffix));
}
