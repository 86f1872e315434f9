/* How a node looks: "opacity" on any node and "color" on a model, constant or
 * keyframed, set with sg_node_set_opacity / sg_model_set_color. */
#include <math.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "read.h"

static sg_result read_opacity(struct sg_parse *p, struct json_object *json, float *out)
{
	return sg_read_number_value(p, json, 0, 1, out);
}

static sg_result read_color_component(struct sg_parse *p, struct json_object *json, float *out)
{
	bool number =
	    json_object_is_type(json, json_type_double) || json_object_is_type(json, json_type_int);
	double value = number ? json_object_get_double(json) : NAN;
	/* "background" and the textures write a colour as integers 0 .. 255: a
	 * file that does so here is told why its value is refused. */
	if (value > 1 && value <= 255 && value == floor(value))
		return sg_parse_fail(p,
		                     "%g is outside 0 .. 1 (a node's colour takes numbers 0 .. 1, "
		                     "not 0 .. 255)",
		                     value);
	return sg_read_number_value(p, json, 0, 1, out);
}

/* [r, g, b] or [r, g, b, a] of numbers 0 .. 1, straight alpha, a 1 when left
 * out; or "#rrggbb" / "#rrggbbaa" as "background" takes it. */
static sg_result read_color(struct sg_parse *p, struct json_object *json, float *out)
{
	static const char expected[] =
		"expected [r, g, b] or [r, g, b, a] (numbers 0 .. 1), or \"#rrggbb\" / \"#rrggbbaa\"";
	if (json_object_is_type(json, json_type_string)) {
		uint8_t rgba[4];
		sg_result result = sg_read_color_value(p, json, rgba);
		for (int i = 0; i < 4 && !result; i++)
			out[i] = (float)rgba[i] / 255.0f;
		return result;
	}
	if (!json_object_is_type(json, json_type_array))
		return sg_parse_fail(p, "%s", expected);
	size_t length = json_object_array_length(json);
	if (length != 3 && length != 4)
		return sg_parse_fail(p, "%s, not an array of %zu", expected, length);
	out[3] = 1;
	for (size_t i = 0; i < length; i++) {
		size_t mark = sg_json_path_push_index(&p->path, i);
		sg_result result =
		    read_color_component(p, json_object_array_get_idx(json, i), &out[i]);
		sg_json_path_pop(&p->path, mark);
		if (result)
			return result;
	}
	return SG_OK;
}

/* Between two keyframes in [0, 1] the interpolation can round a last bit past
 * them, which the setters would refuse. */
static float unit(float value)
{
	return fminf(fmaxf(value, 0.0f), 1.0f);
}

sg_result sg_appearance_apply(struct sg_scene *scene, const struct sg_node_appearance *appearance,
                              struct sg_moment frame)
{
	sg_result result = SG_OK;
	if (appearance->has_opacity) {
		float opacity;
		sg_track_value(&appearance->opacity, frame, &opacity);
		result = sg_node_set_opacity(scene, appearance->node, unit(opacity));
	}
	if (!result && appearance->has_color) {
		float c[4];
		sg_track_value(&appearance->color, frame, c);
		result = sg_model_set_color(scene, appearance->node, unit(c[0]), unit(c[1]),
		                            unit(c[2]), unit(c[3]));
	}
	return result;
}

void sg_appearance_finish(struct sg_node_appearance *appearance)
{
	sg_track_finish(&appearance->opacity);
	sg_track_finish(&appearance->color);
}

/* Keeps the keyframed properties of appearance, and frees the rest: a constant
 * is set once by the load, so that apply_frame edits only what moves. */
static sg_result keep_animated(struct sg_parse *p, struct sg_node_appearance *appearance)
{
	if (appearance->opacity.key_count < 2) {
		sg_track_finish(&appearance->opacity);
		appearance->has_opacity = false;
	}
	if (appearance->color.key_count < 2) {
		sg_track_finish(&appearance->color);
		appearance->has_color = false;
	}
	if (!appearance->has_opacity && !appearance->has_color)
		return SG_OK;
	struct sg_scene_file *file = p->out;
	if (file->appearance_count == file->appearance_capacity) {
		size_t capacity = file->appearance_capacity ? file->appearance_capacity * 2 : 8;
		struct sg_node_appearance *grown =
		    sg_realloc_array(file->appearances, capacity, sizeof(*grown));
		if (!grown) {
			sg_appearance_finish(appearance);
			return sg_parse_no_memory(p);
		}
		file->appearances = grown;
		file->appearance_capacity = capacity;
	}
	file->appearances[file->appearance_count++] = *appearance;
	return SG_OK;
}

sg_result sg_parse_appearance(struct sg_parse *p, struct json_object *desc, sg_node node,
                              bool is_model)
{
	struct sg_node_appearance appearance = {
	    .node = node,
	    .opacity = {.components = 1},
	    .color = {.components = 4},
	};
	sg_result result = sg_read_track(p, desc, "opacity", read_opacity, &appearance.opacity,
	                                 &appearance.has_opacity);
	if (!result && is_model)
		result = sg_read_track(p, desc, "color", read_color, &appearance.color,
		                       &appearance.has_color);
	sg_result applied;
	if (!result && (applied = sg_appearance_apply(p->out->scene, &appearance, (struct sg_moment){0, 0, p->out->fps})))
		result = sg_parse_fail_prefix(p, applied);
	if (result) {
		sg_appearance_finish(&appearance);
		return result;
	}
	return keep_animated(p, &appearance);
}
