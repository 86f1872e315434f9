#include "error.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"

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

void sg_error_save(struct sg_error_state *state)
{
	_Static_assert(sizeof(state->message) == sizeof(last_error), "the whole message");
	memcpy(state->message, last_error, sizeof(last_error));
	state->result = last_result;
}

void sg_error_restore(const struct sg_error_state *state)
{
	memcpy(last_error, state->message, sizeof(last_error));
	last_result = state->result;
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

static bool continues(const char *text, size_t i)
{
	return ((unsigned char)text[i] & 0xc0) == 0x80;
}

size_t sg_cut_middle(char *text, size_t length, size_t limit)
{
	if (length <= limit)
		return length;
	/* head bytes, "...", and the end from tail: at most limit in all */
	size_t head = (limit - 3) / 2;
	while (head > 0 && continues(text, head))
		head--;
	size_t tail = length - (limit - 3 - head);
	while (tail < length && continues(text, tail))
		tail++;
	memmove(text + head + 3, text + tail, length - tail + 1);
	memcpy(text + head, "...", 3);
	return head + 3 + (length - tail);
}

/* length, less a last UTF-8 sequence that a cut at length left incomplete. */
static size_t whole_characters(const char *text, size_t length)
{
	size_t lead = length;
	while (lead > 0 && continues(text, lead - 1))
		lead--;
	if (lead == 0)
		return length;
	unsigned char c = (unsigned char)text[lead - 1];
	size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	return length - (lead - 1) < need ? lead - 1 : length;
}

sg_result sg_fail_prefix(sg_result result, const char *format, ...)
{
	char previous[sizeof(last_error)], small[2 * sizeof(last_error)];
	memcpy(previous, last_error, sizeof(previous));

	va_list args, again;
	va_start(args, format);
	va_copy(again, args);
	int n = vsnprintf(small, sizeof(small), format, args);
	va_end(args);
	/* A longer one (a path of 4000 bytes) is made whole, so that its end
	 * (": ") is kept; without the memory, it is cut at a character. */
	char *prefix = small, *large = NULL;
	size_t length = n < 0 ? 0 : (size_t)n;
	if (length >= sizeof(small)) {
		if ((large = sg_malloc(length + 1))) {
			vsnprintf(large, length + 1, format, again);
			prefix = large;
		} else {
			length = whole_characters(small, sizeof(small) - 1);
			small[length] = '\0';
		}
	}
	va_end(again);
	/* Too long for both (a path of 1000 bytes): the prefix loses its middle,
	 * not the message its end, which says what went wrong. */
	size_t room = sizeof(last_error) - 1 - strlen(previous);
	if (room >= 16)
		length = sg_cut_middle(prefix, length, room);
	/* Whatever is left over still ends at the buffer, as snprintf would. */
	size_t cap = sizeof(last_error) - 1, used = length < cap ? length : cap;
	memcpy(last_error, prefix, used);
	size_t rest = strlen(previous);
	rest = rest < cap - used ? rest : cap - used;
	memcpy(last_error + used, previous, rest);
	last_error[used + rest] = '\0';
	sg_free(large);
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
