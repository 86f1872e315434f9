/* Typed reads of JSON values: the only place that turns json-c types into ours. */
#include "read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/error.h"
#include "../base/escape.h"

sg_result sg_parse_fail(struct sg_parse *p, const char *format, ...)
{
	char message[512];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	return sg_fail(SG_ERR_FORMAT, "%s: %s: %s", p->file_name, p->path.text, message);
}

sg_result sg_parse_limit(struct sg_parse *p, const char *format, ...)
{
	char message[512];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	return sg_fail(SG_ERR_LIMIT, "%s: %s: %s", p->file_name, p->path.text, message);
}

sg_result sg_parse_fail_prefix(struct sg_parse *p, sg_result result)
{
	return sg_fail_prefix(result, "%s: %s: ", p->file_name, p->path.text);
}

sg_result sg_parse_fail_escaped(struct sg_parse *p)
{
	sg_result result = sg_last_result();
	char shown[512];
	sg_escape(sg_last_error(), SG_ESCAPE_TEXT, shown, sizeof(shown));
	return sg_fail(result, "%s: %s: %s", p->file_name, p->path.text, shown);
}

sg_result sg_parse_no_memory(struct sg_parse *p)
{
	sg_fail(SG_ERR_NO_MEMORY, "out of memory");
	return sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
}

struct json_object *sg_read_field(struct json_object *object, const char *key)
{
	struct json_object *value = NULL;
	return json_object_object_get_ex(object, key, &value) ? value : NULL;
}

sg_result sg_read_keys(struct sg_parse *p, struct json_object *object, const char *const *allowed)
{
	json_object_object_foreach (object, key, value) {
		(void)value;
		bool known = strcmp(key, "comment") == 0;
		for (const char *const *name = allowed; !known && *name; name++)
			known = strcmp(key, *name) == 0;
		if (!known) {
			size_t mark = sg_json_path_push_key(&p->path, key);
			sg_result result = sg_parse_fail(p, "unknown key");
			sg_json_path_pop(&p->path, mark);
			return result;
		}
	}
	return SG_OK;
}

sg_result sg_read_object(struct sg_parse *p, struct json_object *value)
{
	if (!json_object_is_type(value, json_type_object))
		return sg_parse_fail(p, "expected an object");
	return SG_OK;
}

static bool is_number(struct json_object *value)
{
	return json_object_is_type(value, json_type_double) ||
	       json_object_is_type(value, json_type_int);
}

sg_result sg_read_number_value(struct sg_parse *p, struct json_object *value, double min,
                               double max, float *out)
{
	if (!is_number(value))
		return sg_parse_fail(p, "expected a number");
	double number = json_object_get_double(value);
	/* Checked as a double first: a float cast of 1e300 is undefined. */
	if (!isfinite(number) || number < min || number > max)
		return sg_parse_fail(p, "%g is outside %g .. %g", number, min, max);
	*out = (float)number;
	return SG_OK;
}

sg_result sg_read_int_value(struct sg_parse *p, struct json_object *value, long min, long max,
                            int *out)
{
	double number = is_number(value) ? json_object_get_double(value) : NAN;
	if (!isfinite(number) || number != floor(number))
		return sg_parse_fail(p, "expected an integer");
	if (number < (double)min || number > (double)max)
		return sg_parse_fail(p, "%.0f is outside %ld .. %ld", number, min, max);
	*out = (int)number;
	return SG_OK;
}

sg_result sg_read_vector_value(struct sg_parse *p, struct json_object *value, int count, float *out)
{
	bool shaped = json_object_is_type(value, json_type_array) &&
	              json_object_array_length(value) == (size_t)count;
	for (int i = 0; shaped && i < count; i++)
		shaped = is_number(json_object_array_get_idx(value, (size_t)i));
	if (!shaped)
		return sg_parse_fail(p, "expected an array of %d numbers", count);
	for (int i = 0; i < count; i++) {
		size_t mark = sg_json_path_push_index(&p->path, (size_t)i);
		sg_result result = sg_read_number_value(
		    p, json_object_array_get_idx(value, (size_t)i), -1e30, 1e30, &out[i]);
		sg_json_path_pop(&p->path, mark);
		if (result)
			return result;
	}
	return SG_OK;
}

/* The body of each keyed reader: runs call (which reads `value`) on object[key]
 * with key on the path, and returns its result. */
#define READ_FIELD(p, object, key, required, call)                                                 \
	do {                                                                                       \
		struct json_object *value = sg_read_field(object, key);                            \
		size_t mark = sg_json_path_push_key(&(p)->path, key);                              \
		sg_result result = value        ? (call)                                           \
		                   : (required) ? sg_parse_fail(p, "missing")                      \
		                                : SG_OK;                                           \
		sg_json_path_pop(&(p)->path, mark);                                                \
		return result;                                                                     \
	} while (0)

sg_result sg_read_number(struct sg_parse *p, struct json_object *object, const char *key,
                         bool required, double min, double max, float *out)
{
	READ_FIELD(p, object, key, required, sg_read_number_value(p, value, min, max, out));
}

sg_result sg_read_int(struct sg_parse *p, struct json_object *object, const char *key,
                      bool required, long min, long max, int *out)
{
	READ_FIELD(p, object, key, required, sg_read_int_value(p, value, min, max, out));
}

sg_result sg_read_vector(struct sg_parse *p, struct json_object *object, const char *key,
                         bool required, int count, float *out)
{
	READ_FIELD(p, object, key, required, sg_read_vector_value(p, value, count, out));
}

sg_result sg_read_string_value(struct sg_parse *p, struct json_object *value, const char **out)
{
	if (!json_object_is_type(value, json_type_string))
		return sg_parse_fail(p, "expected a string");
	const char *text = json_object_get_string(value);
	/* json-c keeps "\u0000" in the string's length, but every reader of a C
	 * string stops there: "q\u0000zzz" would name mesh "q", silently. */
	size_t length = strlen(text);
	if (length != (size_t)json_object_get_string_len(value))
		return sg_parse_fail(p, "a NUL character (\\u0000) at byte %zu", length);
	*out = text;
	return SG_OK;
}

sg_result sg_read_string(struct sg_parse *p, struct json_object *object, const char *key,
                         bool required, const char **out)
{
	READ_FIELD(p, object, key, required, sg_read_string_value(p, value, out));
}

/* "\"a\", \"b\", \"c\"" for messages. */
static void list_names(const char *const *names, char *out, size_t size)
{
	out[0] = '\0';
	for (int i = 0; names[i]; i++) {
		size_t used = strlen(out);
		snprintf(out + used, size - used, "%s\"%s\"", i ? ", " : "", names[i]);
	}
}

static sg_result read_choice_value(struct sg_parse *p, struct json_object *value,
                                   const char *const *names, int *out)
{
	const char *text = NULL;
	sg_result result = sg_read_string_value(p, value, &text);
	if (result)
		return result;
	for (int i = 0; names[i]; i++) {
		if (strcmp(text, names[i]) == 0) {
			*out = i;
			return SG_OK;
		}
	}
	char expected[256], shown[128];
	list_names(names, expected, sizeof(expected));
	return sg_parse_fail(p, "unknown value \"%s\" (expected one of %s)",
	                     sg_escape(text, SG_ESCAPE_JSON, shown, sizeof(shown)), expected);
}

sg_result sg_read_choice(struct sg_parse *p, struct json_object *object, const char *key,
                         const char *const *names, int *out)
{
	READ_FIELD(p, object, key, false, read_choice_value(p, value, names, out));
}

sg_result sg_read_required_choice(struct sg_parse *p, struct json_object *object, const char *key,
                                  const char *const *names, int *out)
{
	if (!sg_read_field(object, key)) {
		char expected[256];
		list_names(names, expected, sizeof(expected));
		return sg_parse_fail(p, "missing \"%s\" (one of %s)", key, expected);
	}
	return sg_read_choice(p, object, key, names, out);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool parse_hex_color(const char *text, uint8_t rgba[4])
{
	size_t length = strlen(text);
	if (text[0] != '#' || (length != 7 && length != 9))
		return false;
	rgba[3] = 255;
	for (size_t i = 0; i < (length - 1) / 2; i++) {
		int high = hex_digit(text[1 + 2 * i]), low = hex_digit(text[2 + 2 * i]);
		if (high < 0 || low < 0)
			return false;
		rgba[i] = (uint8_t)(high * 16 + low);
	}
	return true;
}

sg_result sg_read_color_value(struct sg_parse *p, struct json_object *value, uint8_t rgba[4])
{
	if (json_object_is_type(value, json_type_string)) {
		const char *text = NULL;
		sg_result result = sg_read_string_value(p, value, &text);
		if (!result && !parse_hex_color(text, rgba))
			result = sg_parse_fail(p, "expected a colour \"#rrggbb\" or \"#rrggbbaa\"");
		return result;
	}
	size_t length =
	    json_object_is_type(value, json_type_array) ? json_object_array_length(value) : 0;
	if (length != 3 && length != 4)
		return sg_parse_fail(p,
		                     "expected a colour: [r, g, b], [r, g, b, a] or \"#rrggbb\"");
	rgba[3] = 255;
	for (size_t i = 0; i < length; i++) {
		size_t mark = sg_json_path_push_index(&p->path, i);
		int component = 0;
		struct json_object *item = json_object_array_get_idx(value, i);
		sg_result result = sg_read_int_value(p, item, 0, 255, &component);
		sg_json_path_pop(&p->path, mark);
		if (result)
			return result;
		rgba[i] = (uint8_t)component;
	}
	return SG_OK;
}

sg_result sg_read_color(struct sg_parse *p, struct json_object *object, const char *key,
                        uint8_t rgba[4])
{
	READ_FIELD(p, object, key, false, sg_read_color_value(p, value, rgba));
}

static sg_result read_bool_value(struct sg_parse *p, struct json_object *value, bool *out)
{
	if (!json_object_is_type(value, json_type_boolean))
		return sg_parse_fail(p, "expected true or false");
	*out = json_object_get_boolean(value);
	return SG_OK;
}

sg_result sg_read_bool(struct sg_parse *p, struct json_object *object, const char *key,
                       bool *out)
{
	READ_FIELD(p, object, key, false, read_bool_value(p, value, out));
}
