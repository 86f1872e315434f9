/* The 3D node types of $.nodes: "view3d", whose subtree is drawn depth-tested
 * and lit, and "light" (sg/scene3d.h, docs/3d.md). */
#include <math.h>

#include "read.h"

/* "viewport": [x, y, width, height] in the view's own coordinates, a size
 * above 0; absent, the whole output. */
static sg_result read_viewport(struct sg_parse *p, struct json_object *desc, float viewport[4])
{
	sg_result result = sg_read_vector(p, desc, "viewport", false, 4, viewport);
	for (int i = 2; !result && i < 4 && sg_read_field(desc, "viewport"); i++) {
		if (viewport[i] > 0)
			continue;
		size_t mark = sg_json_path_push_key(&p->path, "viewport");
		sg_json_path_push_index(&p->path, (size_t)i);
		result = sg_parse_fail(p,
		                       "the %s is %g: it must be above 0 (leave \"viewport\" "
		                       "out for the whole output)",
		                       i == 2 ? "width" : "height", (double)viewport[i]);
		sg_json_path_pop(&p->path, mark);
	}
	return result;
}

/* "camera": a camera object as $.camera. Its default units and aspect are
 * the viewport's size, else the file's output size. */
static sg_result read_view_camera(struct sg_parse *p, struct json_object *json,
                                  const float viewport[4], struct sg_camera *camera)
{
	struct sg_camera_file c;
	size_t mark = sg_json_path_push_key(&p->path, "camera");
	sg_result result = sg_parse_camera_value(p, json, &c);
	sg_json_path_pop(&p->path, mark);
	if (result)
		return result;
	float width = viewport[2] > 0 ? viewport[2] : (float)p->out->width;
	float height = viewport[3] > 0 ? viewport[3] : (float)p->out->height;
	sg_camera_file_build(&c, width, height, width / height, camera);
	return SG_OK;
}

sg_result sg_make_view3d(struct sg_parse *p, struct json_object *desc, const char *name,
                         sg_node *node)
{
	static const char *const keys[] = {"type",     "name",    "visible",  "opacity", "camera",
	                                   "viewport", "ambient", "children", NULL};
	struct sg_view3d_desc view = {.name = name};
	struct sg_camera camera;
	struct json_object *camera_json = sg_read_field(desc, "camera");
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = read_viewport(p, desc, view.viewport);
	if (!result && camera_json)
		result = read_view_camera(p, camera_json, view.viewport, &camera);
	if (!result)
		result = sg_read_linear_color(p, desc, "ambient", 3, view.ambient);
	if (result)
		return result;
	view.camera = camera_json ? &camera : NULL;
	*node = sg_node_new_view3d(p->out->scene, &view);
	return node->generation ? SG_OK : sg_parse_fail_escaped(p);
}

/* A key only some kinds of light have. */
static sg_result refuse_key(struct sg_parse *p, struct json_object *desc, const char *key,
                            const char *why)
{
	if (!sg_read_field(desc, key))
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, key);
	sg_result result = sg_parse_fail(p, "%s", why);
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* "inner_cone" and "outer_cone" in degrees, 0 <= inner < outer <= 90. */
static sg_result read_cones(struct sg_parse *p, struct json_object *desc,
                            struct sg_light_desc *light)
{
	float inner = 0, outer = 45; /* glTF's defaults: 0 and pi / 4 */
	sg_result result = sg_read_number(p, desc, "inner_cone", false, 0, 90, &inner);
	if (!result)
		result = sg_read_number(p, desc, "outer_cone", false, 0, 90, &outer);
	if (!result && !(inner < outer)) {
		size_t mark = sg_json_path_push_key(
		    &p->path, sg_read_field(desc, "inner_cone") ? "inner_cone" : "outer_cone");
		result = sg_parse_fail(p, "inner_cone (%g) must be less than outer_cone (%g)",
		                       (double)inner, (double)outer);
		sg_json_path_pop(&p->path, mark);
	}
	light->inner_cone = inner * (float)M_PI / 180.0f;
	light->outer_cone = outer * (float)M_PI / 180.0f;
	return result;
}

static sg_result read_light(struct sg_parse *p, struct json_object *desc,
                            struct sg_light_desc *light)
{
	static const char *const kinds[] = {"directional", "point", "spot", NULL};
	int kind = SG_LIGHT_DIRECTIONAL;
	sg_result result = sg_read_required_choice(p, desc, "light", kinds, &kind);
	light->type = (enum sg_light_type)kind;
	if (!result)
		result = sg_read_linear_color(p, desc, "color", 3, light->color);
	if (!result)
		result = sg_read_number(p, desc, "intensity", false, 0, 1e9, &light->intensity);
	if (!result && kind == SG_LIGHT_DIRECTIONAL)
		result =
		    refuse_key(p, desc, "range",
		               "a directional light has no range (only point and spot lights)");
	if (!result)
		result = sg_read_number(p, desc, "range", false, 0, 1e30, &light->range);
	if (!result && kind != SG_LIGHT_SPOT)
		result = refuse_key(p, desc, "inner_cone", "only a spot light has cones");
	if (!result && kind != SG_LIGHT_SPOT)
		result = refuse_key(p, desc, "outer_cone", "only a spot light has cones");
	if (!result && kind == SG_LIGHT_SPOT)
		result = read_cones(p, desc, light);
	return result;
}

sg_result sg_make_light(struct sg_parse *p, struct json_object *desc, const char *name,
                        sg_node *node)
{
	static const char *const keys[] = {"type",       "name",      "visible", "light",
	                                   "color",      "intensity", "range",   "inner_cone",
	                                   "outer_cone", NULL};
	struct sg_light_desc light = {.name = name, .color = {1, 1, 1}, .intensity = 1};
	if (sg_read_field(desc, "children"))
		return sg_parse_fail(p, "a light cannot have children (put both in a group)");
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result && p->view_depth == 0)
		result =
		    sg_parse_fail(p, "a light outside any 3D view lights nothing: put it in "
		                     "the children of a \"view3d\" (under transforms if need be)");
	if (!result && p->view_lights == SG_VIEW3D_MAX_LIGHTS)
		result = sg_parse_fail(p, "a 3D view has at most %d lights, and this is one more",
		                       SG_VIEW3D_MAX_LIGHTS);
	if (!result)
		result = read_light(p, desc, &light);
	if (result)
		return result;
	*node = sg_node_new_light(p->out->scene, &light);
	if (!node->generation)
		return sg_parse_fail_escaped(p);
	p->view_lights++;
	return SG_OK;
}
