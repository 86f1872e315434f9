/* Shape nodes: {"type": "shape", "width": W, "height": H, "radius": ...,
 * "fill": colour, "border": {...}, "gradient": {...}, "blur": s, "image":
 * texture name}: a model of a shape texture (sg/shape.h) on its own
 * sg_mesh_create_shape quad. */
#include <string.h>

#include <sg/shape.h>

#include "../base/error.h"
#include "read.h"

#define MAX_SHAPE_UNITS 1e6

static void unit_color(const uint8_t rgba[4], float out[4])
{
	for (int i = 0; i < 4; i++)
		out[i] = (float)rgba[i] / 255.0f;
}

/* "radius": one number for every corner, or [top-left, top-right,
 * bottom-right, bottom-left]. */
static sg_result read_radii(struct sg_parse *p, struct json_object *desc, float radii[4])
{
	struct json_object *value = sg_read_field(desc, "radius");
	if (!value)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "radius");
	sg_result result;
	if (json_object_is_type(value, json_type_array)) {
		result = sg_read_vector_value(p, value, 4, radii);
		for (int i = 0; !result && i < 4; i++)
			if (!(radii[i] >= 0 && radii[i] <= MAX_SHAPE_UNITS))
				result = sg_parse_fail(p, "corner %d's radius %g is outside 0 .. 1e6", i,
				                       (double)radii[i]);
	} else {
		result = sg_read_number_value(p, value, 0, MAX_SHAPE_UNITS, &radii[0]);
		radii[1] = radii[2] = radii[3] = radii[0];
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result read_border(struct sg_parse *p, struct json_object *border,
                             struct sg_shape_desc *shape)
{
	static const char *const keys[] = {"width", "color", NULL};
	uint8_t rgba[4] = {0, 0, 0, 255};
	sg_result result = sg_read_object(p, border);
	if (!result)
		result = sg_read_keys(p, border, keys);
	if (!result)
		result = sg_read_number(p, border, "width", true, 0, MAX_SHAPE_UNITS,
		                        &shape->border_width);
	if (!result)
		result = sg_read_color(p, border, "color", rgba);
	unit_color(rgba, shape->border_color);
	return result;
}

static sg_result read_stop(struct sg_parse *p, struct json_object *stop,
                           struct sg_gradient_stop *out)
{
	static const char *const keys[] = {"offset", "color", NULL};
	uint8_t rgba[4];
	sg_result result = sg_read_object(p, stop);
	if (!result)
		result = sg_read_keys(p, stop, keys);
	if (!result)
		result = sg_read_number(p, stop, "offset", true, 0, 1, &out->offset);
	if (!result && !sg_read_field(stop, "color"))
		result = sg_parse_fail(p, "\"color\" is missing");
	if (!result)
		result = sg_read_color(p, stop, "color", rgba);
	if (!result)
		unit_color(rgba, out->color);
	return result;
}

static sg_result read_gradient(struct sg_parse *p, struct json_object *gradient,
                               struct sg_shape_desc *shape)
{
	static const char *const keys[] = {"type", "start", "end", "stops", NULL};
	static const char *const types[] = {"linear", "radial", NULL};
	int type = 0;
	sg_result result = sg_read_object(p, gradient);
	if (!result)
		result = sg_read_keys(p, gradient, keys);
	if (!result)
		result = sg_read_required_choice(p, gradient, "type", types, &type);
	if (!result)
		result = sg_read_vector(p, gradient, "start", true, 2, shape->gradient_start);
	if (!result)
		result = sg_read_vector(p, gradient, "end", true, 2, shape->gradient_end);
	if (result)
		return result;
	shape->gradient = type == 0 ? SG_GRADIENT_LINEAR : SG_GRADIENT_RADIAL;
	struct json_object *stops = sg_read_field(gradient, "stops");
	size_t mark = sg_json_path_push_key(&p->path, "stops");
	size_t count = json_object_is_type(stops, json_type_array) ? json_object_array_length(stops)
	                                                            : 0;
	if (count < 2 || count > SG_SHAPE_MAX_STOPS)
		result = sg_parse_fail(p, "expected an array of 2 .. %d stops {\"offset\": o, "
		                          "\"color\": c}",
		                       SG_SHAPE_MAX_STOPS);
	for (size_t i = 0; !result && i < count; i++) {
		size_t index_mark = sg_json_path_push_index(&p->path, i);
		result = read_stop(p, json_object_array_get_idx(stops, i), &shape->stops[i]);
		if (!result && i > 0 && shape->stops[i].offset < shape->stops[i - 1].offset)
			result = sg_parse_fail(p, "offset %g is below the stop before's",
			                       (double)shape->stops[i].offset);
		sg_json_path_pop(&p->path, index_mark);
	}
	sg_json_path_pop(&p->path, mark);
	shape->stop_count = (int)count;
	return result;
}

/* The optional object at key, read by reader. */
static sg_result read_part(struct sg_parse *p, struct json_object *desc, const char *key,
                           sg_result (*reader)(struct sg_parse *, struct json_object *,
                                               struct sg_shape_desc *),
                           struct sg_shape_desc *shape)
{
	struct json_object *value = sg_read_field(desc, key);
	if (!value)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, key);
	sg_result result = reader(p, value, shape);
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* A refusal of sg_texture_create_shape or sg_mesh_create_shape, named at the
 * node. Every number of the desc was read from the file, so an invalid
 * argument is the file's fault: malformed input (SG_ERR_FORMAT), as the
 * keys' own checks give, and sg-render's exit status 3. */
static sg_result refused(struct sg_parse *p)
{
	if (sg_last_result() == SG_ERR_INVALID_ARGUMENT)
		sg_fail_prefix(SG_ERR_FORMAT, "%s", "");
	return sg_parse_fail_escaped(p);
}

sg_result sg_make_shape(struct sg_parse *p, struct json_object *desc, const char *name,
                        sg_node *node)
{
	static const char *const keys[] = {"type",   "name",   "visible", "opacity",
	                                   "color",  "width",  "height",  "radius",
	                                   "fill",   "border", "gradient", "blur",
	                                   "image",  "position", NULL};
	if (sg_read_field(desc, "children"))
		return sg_parse_fail(p, "a shape cannot have children (put both in a group)");
	struct sg_shape_desc shape = {0};
	uint8_t fill[4] = {0, 0, 0, 0};
	float position[3] = {0, 0, 0};
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_number(p, desc, "width", true, 1e-3, MAX_SHAPE_UNITS, &shape.width);
	if (!result)
		result = sg_read_number(p, desc, "height", true, 1e-3, MAX_SHAPE_UNITS, &shape.height);
	if (!result)
		result = read_radii(p, desc, shape.radii);
	if (!result)
		result = sg_read_color(p, desc, "fill", fill);
	if (!result)
		result = read_part(p, desc, "border", read_border, &shape);
	if (!result)
		result = read_part(p, desc, "gradient", read_gradient, &shape);
	if (!result)
		result = sg_read_number(p, desc, "blur", false, 0, MAX_SHAPE_UNITS, &shape.blur);
	if (!result)
		result = sg_read_vector(p, desc, "position", false, 3, position);
	if (!result)
		result = sg_find_texture_at(p, desc, "image", &shape.image);
	if (result)
		return result;
	if (shape.image.generation && !sg_read_field(desc, "fill"))
		memset(fill, 255, sizeof(fill)); /* the image as it is */
	unit_color(fill, shape.fill);
	struct sg_scene *scene = p->out->scene;
	/* sg_texture_create_shape's checks that the keys alone do not make:
	 * a shadow with a border or gradient, a gradient's end at its start */
	sg_texture texture = sg_texture_create_shape(scene, &shape);
	if (!texture.generation)
		return refused(p);
	sg_mesh mesh = sg_mesh_create_shape(scene, &shape);
	if (!mesh.generation) {
		sg_result result = refused(p);
		sg_texture_destroy(scene, texture);
		return result;
	}
	*node = sg_node_new_model(scene, &(struct sg_model_desc){.name = name,
	                                                          .mesh = mesh,
	                                                          .texture = texture,
	                                                          .position = {position[0],
	                                                                       position[1],
	                                                                       position[2]}});
	if (!node->generation) {
		sg_mesh_destroy(scene, mesh);
		sg_texture_destroy(scene, texture);
		return sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
	}
	return SG_OK;
}
