/* The colours of the 3D keys: linear, as glTF and sg/scene3d.h take them. A
 * "#rrggbb" string is what a colour picker shows, sRGB-encoded, and is decoded
 * here, so that "#808080" means the grey it looks like (0.216 linear), not
 * 0.502. */
#include <math.h>

#include "read.h"

/* The exact piecewise sRGB transfer function (IEC 61966-2-1), as docs/3d.md
 * encodes with. */
static float srgb_to_linear(float encoded)
{
	return encoded <= 0.04045f ? encoded / 12.92f : powf((encoded + 0.055f) / 1.055f, 2.4f);
}

static sg_result read_hex(struct sg_parse *p, struct json_object *value, int components, float *out)
{
	uint8_t rgba[4];
	sg_result result = sg_read_color_value(p, value, rgba);
	if (!result && components == 3 && rgba[3] != 255)
		result = sg_parse_fail(p, "expected \"#rrggbb\": this colour has no alpha");
	for (int i = 0; !result && i < components; i++)
		out[i] = i < 3 ? srgb_to_linear((float)rgba[i] / 255.0f) : (float)rgba[i] / 255.0f;
	return result;
}

static sg_result read_linear_color_value(struct sg_parse *p, struct json_object *value,
                                         int components, float *out)
{
	if (json_object_is_type(value, json_type_string))
		return read_hex(p, value, components, out);
	size_t length =
	    json_object_is_type(value, json_type_array) ? json_object_array_length(value) : 0;
	if (length != 3 && length != (size_t)components)
		return sg_parse_fail(
		    p, "%s",
		    components == 4 ? "expected a linear colour [r, g, b] or [r, g, b, a] "
		                      "(numbers 0 .. 1), or an sRGB \"#rrggbb\" / \"#rrggbbaa\""
		                    : "expected a linear colour [r, g, b] (numbers 0 .. 1), or "
		                      "an sRGB \"#rrggbb\"");
	if (components == 4)
		out[3] = 1.0f;
	for (size_t i = 0; i < length; i++) {
		size_t mark = sg_json_path_push_index(&p->path, i);
		sg_result result =
		    sg_read_number_value(p, json_object_array_get_idx(value, i), 0, 1, &out[i]);
		sg_json_path_pop(&p->path, mark);
		if (result)
			return result;
	}
	return SG_OK;
}

sg_result sg_read_linear_color(struct sg_parse *p, struct json_object *object, const char *key,
                               int components, float *out)
{
	struct json_object *value = sg_read_field(object, key);
	if (!value)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, key);
	sg_result result = read_linear_color_value(p, value, components, out);
	sg_json_path_pop(&p->path, mark);
	return result;
}
