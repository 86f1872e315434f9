/* Reading a scene file and parsing it with json-c, with its limits. */
#include "json_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/open_regular.h"
#include "read.h"

static sg_result too_large(const char *name, uint64_t bytes, bool at_least, uint64_t max_bytes)
{
	return sg_fail(
	    SG_ERR_LIMIT,
	    "%s: %s%llu bytes is over the limit of %llu bytes for a scene file " SG_LIMIT_HOW(
	        "max_file_bytes", "file-bytes"),
	    name, at_least ? "more than " : "", (unsigned long long)bytes,
	    (unsigned long long)max_bytes);
}

/* Reads up to max_bytes + 1, whatever the size said: the file may grow, and
 * a file that is exactly max_bytes long is allowed. */
static sg_result read_all(int fd, const char *name, uint64_t max_bytes, char *buffer, size_t *used)
{
	*used = 0;
	for (;;) {
		ssize_t n = read(fd, buffer + *used, (size_t)max_bytes + 1 - *used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sg_fail(SG_ERR_IO, "cannot read '%s': %s", name, strerror(errno));
		if (n == 0)
			return SG_OK;
		*used += (size_t)n;
		if (*used > max_bytes)
			return too_large(name, max_bytes, true, max_bytes);
	}
}

sg_result sg_json_read_file(const char *path, const char *name, uint64_t max_bytes, char **text,
                            size_t *length)
{
	int fd = -1;
	struct stat st;
	sg_result result = sg_open_regular(path, name, 0, SG_ERR_IO, &fd, &st);
	if (result)
		return result;
	/* Refused from its size first, before any allocation. */
	if ((uint64_t)st.st_size > max_bytes) {
		close(fd);
		return too_large(name, (uint64_t)st.st_size, false, max_bytes);
	}
	/* The file is read into a buffer of its stated size (plus the byte that
	 * tells it grew); the limit is what bounds that. */
	size_t capacity = (size_t)st.st_size + 2;
	char *buffer = sg_malloc(capacity);
	uint64_t limit = (uint64_t)st.st_size < max_bytes ? (uint64_t)st.st_size + 1 : max_bytes;
	if (!buffer)
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory reading '%s'", name);
	else
		result = read_all(fd, name, limit, buffer, length);
	/* Grown past its size while read: the limit still holds, checked again. */
	if (result == SG_ERR_LIMIT && limit < max_bytes)
		result = sg_fail(SG_ERR_IO, "cannot read '%s': it changed while read", name);
	close(fd);
	if (result) {
		sg_free(buffer);
		return result;
	}
	buffer[*length] = '\0';
	*text = buffer;
	return SG_OK;
}

sg_result sg_json_fail_at(sg_result result, const char *name, const char *text, size_t offset,
                          const char *format, ...)
{
	int line = 1, column = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n')
			line++, column = 1;
		else
			column++;
	}
	char message[512];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	return sg_fail(result, "%s:%d:%d: %s", name, line, column, message);
}

/* A failed parse: json-c 0.16 has no error code for a failed allocation (0.17
 * adds json_tokener_error_memory); it stops with no error set, or "continue",
 * before the end of the text, where a text that is only cut short is read to
 * its end. */
static sg_result parse_failure(const char *name, const char *text, size_t length,
                               enum json_tokener_error error, size_t end, int max_depth)
{
	bool stopped_early = end < length;
	if (error == json_tokener_success || (error == json_tokener_continue && stopped_early))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory parsing '%s'", name);
	if (error == json_tokener_continue)
		return sg_json_fail_at(SG_ERR_FORMAT, name, text, length, "unexpected end of file");
	if (error == json_tokener_error_depth)
		return sg_json_fail_at(
		    SG_ERR_LIMIT, name, text, end,
		    "nesting deeper than the limit of %d JSON levels " SG_LIMIT_HOW(
		        "max_json_depth", "json-depth"),
		    max_depth);
	return sg_json_fail_at(SG_ERR_FORMAT, name, text, end, "%s",
	                       json_tokener_error_desc(error));
}

sg_result sg_json_parse(const char *name, const char *text, size_t length, int max_depth,
                        struct json_object **root)
{
	*root = NULL;
	if (length > INT32_MAX) /* json_tokener_parse_ex() takes an int */
		return sg_fail(SG_ERR_LIMIT, "%s: more than %d bytes cannot be parsed", name,
		               INT32_MAX);
	struct json_tokener *tokener = json_tokener_new_ex(max_depth);
	if (!tokener)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory parsing '%s'", name);
	/* Strict: a scene file is plain JSON that any other tool can read too. */
	json_tokener_set_flags(tokener, JSON_TOKENER_STRICT);
	*root = json_tokener_parse_ex(tokener, text, (int)length);
	enum json_tokener_error error = json_tokener_get_error(tokener);
	size_t end = json_tokener_get_parse_end(tokener);
	json_tokener_free(tokener);
	if (!*root)
		return parse_failure(name, text, length, error, end, max_depth);
	end += strspn(text + end, " \t\r\n");
	sg_result result = SG_OK;
	if (end < length)
		result = sg_json_fail_at(SG_ERR_FORMAT, name, text, end,
		                         "unexpected text after the scene");
	else if (!json_object_is_type(*root, json_type_object))
		result = sg_json_fail_at(SG_ERR_FORMAT, name, text, 0,
		                         "the scene must be a JSON object");
	else
		result = sg_json_check_keys(name, text, length, *root);
	if (result) {
		json_object_put(*root);
		*root = NULL;
	}
	return result;
}
