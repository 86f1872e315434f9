/* JSON paths for error messages, in the JSONPath notation users can paste into jq. */
#include "json_path.h"

#include "../base/escape.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void sg_json_path_init(struct sg_json_path *path)
{
	snprintf(path->text, sizeof(path->text), "$");
	path->length = 1;
}

static size_t append(struct sg_json_path *path, const char *format, ...)
{
	size_t previous = path->length;
	size_t room = sizeof(path->text) - previous;
	va_list args;
	va_start(args, format);
	int n = vsnprintf(path->text + previous, room, format, args);
	va_end(args);
	if (n < 0 || (size_t)n >= room) {
		/* Cut but keep the path recognisable: the start says where it begins. */
		memcpy(path->text + sizeof(path->text) - 4, "...", 4);
		path->length = sizeof(path->text) - 1;
	} else {
		path->length += (size_t)n;
	}
	return previous;
}

static bool is_identifier(const char *key)
{
	if (!*key || isdigit((unsigned char)*key))
		return false;
	for (const char *c = key; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return false;
	return true;
}

size_t sg_json_path_push_key(struct sg_json_path *path, const char *key)
{
	if (is_identifier(key))
		return append(path, ".%s", key);
	/* Escaped as in a JSON string, so that the path pastes into jq. */
	char escaped[sizeof(path->text)];
	return append(path, "[\"%s\"]", sg_escape(key, SG_ESCAPE_JSON, escaped, sizeof(escaped)));
}

size_t sg_json_path_push_index(struct sg_json_path *path, size_t index)
{
	return append(path, "[%zu]", index);
}

void sg_json_path_pop(struct sg_json_path *path, size_t length)
{
	if (length < sizeof(path->text)) {
		path->length = length;
		path->text[length] = '\0';
	}
}
