/* Text nodes: {"type": "text", "font": name, "string": ...}, their string
 * constant or keyframed (shown from its keyframe on, never interpolated). */
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "read.h"
#include "../base/utf8.h"
#include "../text/budget.h"

/* Box widths and line heights in pixels: generous, but finite for the layout. */
#define MAX_TEXT_LENGTH 1e6
#define MAX_TEXT_LINES 1000000 /* max_lines: any count a string could have */

/* A string that sg_node_new_text takes: valid UTF-8 with no NUL. */
static sg_result read_string(struct sg_parse *p, struct json_object *value, const char **out)
{
	const char *text = NULL;
	sg_result result = sg_read_string_value(p, value, &text);
	if (result)
		return result;
	size_t length = strlen(text);
	size_t offset = 0;
	uint32_t c;
	while (offset < length)
		if (!sg_utf8_next(text, length, &offset, &c))
			return sg_parse_fail(p, "invalid UTF-8 at byte %zu", offset);
	/* At load, for keyframed strings too, not when a frame shows one. */
	if (sg_text_check_marks(text, length))
		return sg_parse_fail_prefix(p, SG_ERR_LIMIT);
	*out = text;
	return SG_OK;
}

void sg_text_track_finish(struct sg_text_track *track)
{
	for (size_t i = 0; track->strings && i < track->key_count; i++)
		sg_free(track->strings[i]);
	sg_free(track->strings);
	sg_keys_finish(&track->keys);
	*track = (struct sg_text_track){.node = track->node};
}

sg_result sg_text_track_apply(struct sg_scene *scene, const struct sg_text_track *track,
                              struct sg_moment at)
{
	size_t i = sg_keys_find(&track->keys, track->key_count, at, NULL);
	/* An unchanged string is no edit: sg_text_set_string returns at once. */
	return sg_text_set_string(scene, track->node, track->strings[i]);
}

/* {"keyframes": [{"frame": F, "value": "..."}, ...]}, each string counted
 * against the budget with the font. */
static sg_result read_keyframes(struct sg_parse *p, struct json_object *json,
                                struct sg_named_font *font, struct sg_text_track *track)
{
	static const char *const keys[] = {"keyframes", NULL};
	sg_result result = sg_read_keys(p, json, keys);
	if (result)
		return result;
	struct json_object *list = sg_read_field(json, "keyframes");
	size_t count =
	    json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
	size_t mark = sg_json_path_push_key(&p->path, "keyframes");
	if (count == 0) {
		result = sg_parse_fail(p, "expected an array of keyframes "
		                          "{\"frame\": F, \"value\": \"string\"}");
	} else {
		track->strings = sg_calloc(count, sizeof(*track->strings));
		track->key_count = count;
		if (!sg_keys_alloc(&track->keys, count) || !track->strings)
			result = sg_parse_no_memory(p);
	}
	for (size_t i = 0; !result && i < count; i++) {
		size_t index_mark = sg_json_path_push_index(&p->path, i);
		struct json_object *value = NULL;
		const char *text = NULL;
		result = sg_read_keyframe(p, json_object_array_get_idx(list, i), &track->keys, i,
		                          false, &value);
		if (!result) {
			sg_json_path_push_key(&p->path, "value");
			result = read_string(p, value, &text);
		}
		if (!result)
			result = sg_font_count_glyphs(p, font, text);
		if (!result && !(track->strings[i] = sg_strdup(text)))
			result = sg_parse_no_memory(p);
		sg_json_path_pop(&p->path, index_mark); /* and "value" */
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* "string": a constant (one key, frame 0) or keyframes. */
static sg_result read_strings(struct sg_parse *p, struct json_object *desc,
                              struct sg_named_font *font, struct sg_text_track *track)
{
	struct json_object *json = sg_read_field(desc, "string");
	if (!json)
		return SG_OK; /* no string: "" */
	size_t mark = sg_json_path_push_key(&p->path, "string");
	sg_result result;
	if (json_object_is_type(json, json_type_object)) {
		result = read_keyframes(p, json, font, track);
	} else {
		const char *text = NULL;
		track->strings = sg_calloc(1, sizeof(*track->strings));
		track->key_count = 1;
		result = track->strings ? read_string(p, json, &text) : sg_parse_no_memory(p);
		if (!result)
			result = sg_font_count_glyphs(p, font, text);
		if (!result && !(track->strings[0] = sg_strdup(text)))
			result = sg_parse_no_memory(p);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* Keeps track in the file when the string changes over the frames. */
static sg_result keep_animated(struct sg_parse *p, struct sg_text_track *track)
{
	struct sg_scene_file *file = p->out;
	if (track->key_count < 2) {
		sg_text_track_finish(track);
		return SG_OK;
	}
	if (!sg_grow_array((void **)&file->text_tracks, &file->text_track_capacity,
	                   file->text_track_count + 1, sizeof(*file->text_tracks))) {
		sg_text_track_finish(track);
		return sg_parse_no_memory(p);
	}
	file->text_tracks[file->text_track_count++] = *track;
	return SG_OK;
}

static sg_result read_layout(struct sg_parse *p, struct json_object *desc,
                             struct sg_text_desc *text)
{
	static const char *const aligns[] = {"left", "center", "right", NULL};
	int align = SG_TEXT_ALIGN_LEFT;
	sg_result result =
	    sg_read_number(p, desc, "max_width", false, 0, MAX_TEXT_LENGTH, &text->max_width);
	if (!result)
		result = sg_read_int(p, desc, "max_lines", false, 0, MAX_TEXT_LINES, &text->max_lines);
	if (!result)
		result = sg_read_choice(p, desc, "align", aligns, &align);
	if (!result)
		result = sg_read_number(p, desc, "line_height", false, 0, MAX_TEXT_LENGTH,
		                        &text->line_height);
	if (!result)
		result = sg_read_vector(p, desc, "position", false, 3, text->position);
	text->align = (enum sg_text_align)align;
	return result;
}

sg_result sg_make_text(struct sg_parse *p, struct json_object *desc, const char *name,
                       sg_node *node)
{
	static const char *const keys[] = {"type",  "name",        "visible",  "opacity",
	                                   "color", "font",        "string",   "max_width",
	                                   "max_lines", "align",   "line_height", "position",
	                                   NULL};
	if (!sg_text_available())
		return sg_fail(SG_ERR_UNSUPPORTED,
		               "%s: %s: a text node, but this libsg was built without text "
		               "(FreeType and HarfBuzz, the meson option \"text\")",
		               p->file_name, p->path.text);
	if (sg_read_field(desc, "children"))
		return sg_parse_fail(p, "a text node cannot have children (put both in a group)");
	struct sg_text_desc text = {.name = name};
	struct sg_named_font *font = NULL;
	struct sg_text_track track = {0};
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = read_layout(p, desc, &text);
	if (!result)
		result = sg_find_font(p, desc, &font);
	if (!result)
		result = read_strings(p, desc, font, &track);
	if (result) {
		sg_text_track_finish(&track);
		return result;
	}
	text.font = font->font;
	text.utf8 = track.key_count ? track.strings[0] : "";
	if ((result = sg_fonts_charge_atlas(p))) {
		sg_text_track_finish(&track);
		return sg_parse_fail_prefix(p, result);
	}
	*node = sg_node_new_text(p->out->scene, &text);
	if (!node->generation) {
		sg_text_track_finish(&track);
		return sg_parse_fail_escaped(p); /* it may quote the string */
	}
	if ((result = sg_fonts_charge_atlas(p))) {
		sg_text_track_finish(&track);
		return sg_parse_fail_prefix(p, result);
	}
	track.node = *node;
	return keep_animated(p, &track);
}
