/* Duplicate keys and keys with a NUL, which json-c 0.16 takes silently.
 *
 * A scan of the text counts the keys of each object, in the order the objects
 * open; a walk of the tree in the same order compares with the number json-c
 * kept. The first object where they differ holds the first duplicate (the
 * objects before it are the same in both), and only its keys are decoded to
 * find which. */
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "json_path.h"
#include "json_text.h"

struct scan {
	const char *name, *text;
	size_t length;
	size_t *key_counts, *starts; /* per object, in the order they open */
	size_t object_count, capacity;
};

/* The end of the string literal at text[start] ('"'); *nul: it has a NUL. */
static size_t string_end(const char *text, size_t length, size_t start, bool *nul)
{
	size_t i = start + 1;
	for (; i < length && text[i] != '"'; i++) {
		if (text[i] == '\0')
			*nul = true;
		if (text[i] == '\\' && i + 1 < length) {
			i++;
			if (text[i] == 'u' && i + 4 < length &&
			    memcmp(text + i + 1, "0000", 4) == 0)
				*nul = true;
		}
	}
	return i;
}

static sg_result add_object(struct scan *s, size_t start)
{
	if (s->object_count == s->capacity) {
		size_t grown = s->capacity ? s->capacity * 2 : 64;
		size_t *counts = sg_realloc_array(s->key_counts, grown, sizeof(*counts));
		if (counts)
			s->key_counts = counts;
		size_t *starts =
		    counts ? sg_realloc_array(s->starts, grown, sizeof(*starts)) : NULL;
		if (!starts)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory checking '%s'", s->name);
		s->starts = starts;
		s->capacity = grown;
	}
	s->starts[s->object_count] = start;
	s->key_counts[s->object_count++] = 0;
	return SG_OK;
}

/* The text is valid JSON (json-c read it): a string right after '{' or after a
 * ',' in an object is a key. open_objects is a stack of object indices, -1 for
 * an array; its depth is the JSON depth. */
static sg_result count_keys(struct scan *s)
{
	size_t *open = NULL, depth = 0, capacity = 0;
	bool expect_key = false;
	sg_result result = SG_OK;
	for (size_t i = 0; !result && i < s->length; i++) {
		char c = s->text[i];
		if (c == '"') {
			bool nul = false;
			size_t end = string_end(s->text, s->length, i, &nul);
			if (expect_key) {
				s->key_counts[open[depth - 1]]++;
				if (nul)
					result =
					    sg_json_fail_at(SG_ERR_FORMAT, s->name, s->text, i,
					                    "a key with a NUL character (\\u0000)");
			}
			expect_key = false;
			i = end;
		} else if (c == '{' || c == '[') {
			if (depth == capacity) {
				capacity = capacity ? capacity * 2 : 64;
				size_t *bigger = sg_realloc_array(open, capacity, sizeof(*open));
				if (!bigger) {
					result = sg_fail(SG_ERR_NO_MEMORY,
					                 "out of memory checking '%s'", s->name);
					break;
				}
				open = bigger;
			}
			open[depth++] = c == '{' ? s->object_count : SIZE_MAX;
			expect_key = c == '{';
			if (c == '{')
				result = add_object(s, i);
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == ',') {
			expect_key = open[depth - 1] != SIZE_MAX;
		}
	}
	sg_free(open);
	return result;
}

/* The keys of the object at text[start] ('{'), decoded by json-c, until one
 * comes again. */
static sg_result find_duplicate(struct scan *s, size_t start, const char *path)
{
	struct json_object *seen = json_object_new_object();
	struct json_tokener *tokener = json_tokener_new();
	sg_result result = seen && tokener
	                       ? SG_OK
	                       : sg_fail(SG_ERR_NO_MEMORY, "out of memory checking '%s'", s->name);
	size_t depth = 0;
	bool expect_key = true;
	for (size_t i = start + 1; !result && i < s->length && s->text[i] != '\0'; i++) {
		char c = s->text[i];
		if (c == '"') {
			bool nul = false;
			size_t end = string_end(s->text, s->length, i, &nul);
			if (depth == 0 && expect_key) {
				json_tokener_reset(tokener);
				struct json_object *key =
				    json_tokener_parse_ex(tokener, s->text + i, (int)(end + 1 - i));
				const char *text = key ? json_object_get_string(key) : NULL;
				char shown[256];
				if (!text)
					result = sg_fail(SG_ERR_NO_MEMORY,
					                 "out of memory checking '%s'", s->name);
				else if (json_object_object_get_ex(seen, text, NULL))
					result = sg_json_fail_at(
					    SG_ERR_FORMAT, s->name, s->text, i,
					    "%s: duplicate key \"%s\"", path,
					    sg_escape(text, SG_ESCAPE_JSON, shown, sizeof(shown)));
				else if (json_object_object_add(seen, text, NULL))
					result = sg_fail(SG_ERR_NO_MEMORY,
					                 "out of memory checking '%s'", s->name);
				json_object_put(key);
			}
			expect_key = false;
			i = end;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (depth-- == 0)
				break;
		} else if (c == ',' && depth == 0) {
			expect_key = true;
		}
	}
	json_tokener_free(tokener);
	json_object_put(seen);
	/* Not found: the counts differ for a reason the scan does not know. */
	return result ? result
	              : sg_fail(SG_ERR_FORMAT, "%s: %s: keys json-c did not keep", s->name, path);
}

/* Objects in the order they open, as count_keys() numbered them. */
static sg_result walk(struct scan *s, struct json_object *value, size_t *next,
                      struct sg_json_path *path)
{
	sg_result result = SG_OK;
	if (json_object_is_type(value, json_type_object)) {
		size_t index = (*next)++;
		if (index >= s->object_count ||
		    (size_t)json_object_object_length(value) != s->key_counts[index])
			return find_duplicate(s, index < s->object_count ? s->starts[index] : 0,
			                      path->text);
		json_object_object_foreach (value, key, item) {
			size_t mark = sg_json_path_push_key(path, key);
			result = walk(s, item, next, path);
			sg_json_path_pop(path, mark);
			if (result)
				break;
		}
	} else if (json_object_is_type(value, json_type_array)) {
		size_t count = json_object_array_length(value);
		for (size_t i = 0; !result && i < count; i++) {
			size_t mark = sg_json_path_push_index(path, i);
			result = walk(s, json_object_array_get_idx(value, i), next, path);
			sg_json_path_pop(path, mark);
		}
	}
	return result;
}

sg_result sg_json_check_keys(const char *name, const char *text, size_t length,
                             struct json_object *root)
{
	struct scan s = {.name = name, .text = text, .length = length};
	sg_result result = count_keys(&s);
	if (!result) {
		struct sg_json_path path;
		sg_json_path_init(&path);
		size_t next = 0;
		result = walk(&s, root, &next, &path);
	}
	sg_free(s.key_counts);
	sg_free(s.starts);
	return result;
}
