#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Per thread, so that two renderers on two threads keep their own messages. */
static _Thread_local char last_error[1024];
static _Thread_local sg_result last_result;

const char *sg_last_error(void)
{
	return last_error;
}

sg_result sg_last_result(void)
{
	return last_result;
}

sg_result sg_fail(sg_result result, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(last_error, sizeof(last_error), format, args);
	va_end(args);
	last_result = result;
	return result;
}

/* Where a cut at i would split a UTF-8 sequence, the start of that sequence. */
static size_t sequence_start(const char *text, size_t i)
{
	while (i > 0 && ((unsigned char)text[i] & 0xc0) == 0x80)
		i--;
	return i;
}

sg_result sg_fail_prefix(sg_result result, const char *format, ...)
{
	char previous[sizeof(last_error)], prefix[2 * sizeof(last_error)];
	memcpy(previous, last_error, sizeof(previous));

	va_list args;
	va_start(args, format);
	int n = vsnprintf(prefix, sizeof(prefix), format, args);
	va_end(args);
	size_t length = n < 0 ? 0 : (size_t)n < sizeof(prefix) ? (size_t)n : sizeof(prefix) - 1;
	/* Too long for both (a path of 1000 bytes): the prefix loses its middle,
	 * not the message its end, which says what went wrong. */
	size_t room = sizeof(last_error) - 1 - strlen(previous);
	if (length > room && room >= 16) {
		size_t head = sequence_start(prefix, (room - 3) / 2);
		size_t tail = length - (room - 3 - head);
		while (tail < length && ((unsigned char)prefix[tail] & 0xc0) == 0x80)
			tail++;
		memmove(prefix + head + 3, prefix + tail, length - tail + 1);
		memcpy(prefix + head, "...", 3);
		length = head + 3 + (length - tail);
	}
	/* Whatever is left over still ends at the buffer, as snprintf would. */
	size_t cap = sizeof(last_error) - 1, used = length < cap ? length : cap;
	memcpy(last_error, prefix, used);
	size_t rest = strlen(previous);
	rest = rest < cap - used ? rest : cap - used;
	memcpy(last_error + used, previous, rest);
	last_error[used + rest] = '\0';
	last_result = result;
	return result;
}

const char *sg_result_name(sg_result result)
{
	switch (result) {
	case SG_OK: return "SG_OK";
	case SG_ERR_INVALID_ARGUMENT: return "SG_ERR_INVALID_ARGUMENT";
	case SG_ERR_STALE_HANDLE: return "SG_ERR_STALE_HANDLE";
	case SG_ERR_FOREIGN_HANDLE: return "SG_ERR_FOREIGN_HANDLE";
	case SG_ERR_CYCLE: return "SG_ERR_CYCLE";
	case SG_ERR_BUSY: return "SG_ERR_BUSY";
	case SG_ERR_NOT_FOUND: return "SG_ERR_NOT_FOUND";
	case SG_ERR_NO_MEMORY: return "SG_ERR_NO_MEMORY";
	case SG_ERR_DEVICE: return "SG_ERR_DEVICE";
	case SG_ERR_EGL: return "SG_ERR_EGL";
	case SG_ERR_GL: return "SG_ERR_GL";
	case SG_ERR_SHADER: return "SG_ERR_SHADER";
	case SG_ERR_IO: return "SG_ERR_IO";
	case SG_ERR_FORMAT: return "SG_ERR_FORMAT";
	case SG_ERR_UNSUPPORTED: return "SG_ERR_UNSUPPORTED";
	case SG_ERR_LIMIT: return "SG_ERR_LIMIT";
	}
	return "SG_ERR_UNKNOWN";
}
