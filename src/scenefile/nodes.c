/* $.nodes: the tree of groups, transforms, models, text, 3D views and lights
 * under the scene's root. */
#include <string.h>

#include "../base/error.h"
#include "read.h"

static sg_result parse_node_list(struct sg_parse *p, struct json_object *list, sg_node parent);

static sg_result parse_children(struct sg_parse *p, struct json_object *desc, sg_node node)
{
	struct json_object *children = sg_read_field(desc, "children");
	if (!children)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "children");
	sg_result result = parse_node_list(p, children, node);
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result make_model(struct sg_parse *p, struct json_object *desc, const char *name,
                            sg_node *node)
{
	static const char *const keys[] = {"type",    "name",     "visible",  "opacity", "color",
	                                   "mesh",    "texture",  "material", "position", NULL};
	struct sg_model_desc model = {.name = name};
	sg_material material = SG_MATERIAL_NONE;
	if (sg_read_field(desc, "children"))
		return sg_parse_fail(p, "a model cannot have children (put both in a group)");
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_parse_mesh_ref(p, desc, &model.mesh);
	if (!result)
		result = sg_find_texture(p, desc, &model.texture);
	if (!result)
		result = sg_find_material(p, desc, &material);
	if (!result)
		result = sg_read_vector(p, desc, "position", false, 3, model.position);
	if (result)
		return result;
	*node = sg_node_new_model(p->out->scene, &model);
	if (!node->generation)
		return sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
	if (material.generation && sg_model_set_material(p->out->scene, *node, material))
		return sg_parse_fail_escaped(p);
	return SG_OK;
}

/* "color" on a group or transform: a common slip, told apart from a typo. */
static sg_result refuse_color(struct sg_parse *p, struct json_object *desc, const char *kind)
{
	if (!sg_read_field(desc, "color"))
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "color");
	sg_result result = sg_parse_fail(p,
	                                 "a %s has no \"color\" (only models have one: give the "
	                                 "models below it a colour, or the %s an \"opacity\")",
	                                 kind, kind);
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result parse_local(struct sg_parse *p, struct json_object *transform, sg_node node)
{
	static const char *const keys[] = {"translate", "rotate", "scale", "matrix", NULL};
	sg_result result = sg_read_object(p, transform);
	if (!result)
		result = sg_read_keys(p, transform, keys);
	if (result)
		return result;
	if (!sg_read_field(transform, "matrix"))
		return sg_parse_trs(p, transform, node);
	if (sg_read_field(transform, "translate") || sg_read_field(transform, "rotate") ||
	    sg_read_field(transform, "scale"))
		return sg_parse_fail(
			p, "\"matrix\" cannot be combined with translate, rotate or scale");
	float matrix[16];
	result = sg_read_vector(p, transform, "matrix", true, 16, matrix);
	if (!result && sg_transform_set_matrix(p->out->scene, node, matrix)) {
		size_t mark = sg_json_path_push_key(&p->path, "matrix");
		result = sg_parse_fail(p, "the matrix is not usable: %s", sg_last_error());
		sg_json_path_pop(&p->path, mark);
	}
	return result;
}

static sg_result make_transform(struct sg_parse *p, struct json_object *desc, const char *name,
                                sg_node *node)
{
	static const char *const keys[] = {"type",      "name",     "visible", "opacity",
	                                   "transform", "children", NULL};
	sg_result result = refuse_color(p, desc, "transform");
	if (!result)
		result = sg_read_keys(p, desc, keys);
	if (result)
		return result;
	*node = sg_node_new_transform(p->out->scene, &(struct sg_transform_desc){.name = name});
	if (!node->generation)
		return sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
	return sg_parse_transform_key(p, desc, *node);
}

sg_result sg_parse_transform_key(struct sg_parse *p, struct json_object *desc, sg_node node)
{
	struct json_object *transform = sg_read_field(desc, "transform");
	if (!transform)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "transform");
	sg_result result = parse_local(p, transform, node);
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result make_group(struct sg_parse *p, struct json_object *desc, const char *name,
                            sg_node *node)
{
	static const char *const keys[] = {"type", "name", "visible", "opacity", "children", NULL};
	sg_result result = refuse_color(p, desc, "group");
	if (!result)
		result = sg_read_keys(p, desc, keys);
	if (result)
		return result;
	*node = sg_node_new_group(p->out->scene, name);
	return node->generation ? SG_OK : sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
}

/* {"type": "clip", "rect": [x, y, width, height], "radius": r, "children": [...]}:
 * a clip node (sg_node_new_clip). */
static sg_result make_clip(struct sg_parse *p, struct json_object *desc, const char *name,
                           sg_node *node)
{
	static const char *const keys[] = {"type",   "name",   "visible", "opacity",
	                                   "rect",   "radius", "children", NULL};
	float rect[4], radius = 0;
	sg_result result = refuse_color(p, desc, "clip");
	if (!result)
		result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_vector(p, desc, "rect", true, 4, rect);
	if (!result && (rect[2] < 0 || rect[3] < 0)) {
		size_t mark = sg_json_path_push_key(&p->path, "rect");
		result = sg_parse_fail(p, "width and height must be >= 0");
		sg_json_path_pop(&p->path, mark);
	}
	if (!result)
		result = sg_read_number(p, desc, "radius", false, 0, 1e6, &radius);
	if (result)
		return result;
	*node = sg_node_new_clip(p->out->scene,
	                         &(struct sg_clip_desc){name, rect[0], rect[1], rect[2], rect[3], radius});
	return node->generation ? SG_OK : sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
}

/* "visible": false hides the node and its subtree (sg_node_set_visible). */
static sg_result parse_visible(struct sg_parse *p, struct json_object *desc, sg_node node)
{
	struct json_object *value = sg_read_field(desc, "visible");
	if (!value)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "visible");
	sg_result result = SG_OK, hidden;
	if (!json_object_is_type(value, json_type_boolean))
		result = sg_parse_fail(p, "expected true or false");
	else if (!json_object_get_boolean(value) &&
	         (hidden = sg_node_set_visible(p->out->scene, node, false)))
		result = sg_parse_fail_prefix(p, hidden);
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result parse_node(struct sg_parse *p, struct json_object *desc, sg_node parent)
{
	enum { GROUP, TRANSFORM, MODEL, TEXT, SHAPE, VIEW3D, LIGHT, MODEL_FILE, CLIP };
	static const char *const types[] = {[GROUP] = "group",        [TRANSFORM] = "transform",
	                                    [MODEL] = "model",        [TEXT] = "text",
	                                    [SHAPE] = "shape",        [VIEW3D] = "view3d",
	                                    [LIGHT] = "light",        [MODEL_FILE] = "model_file",
	                                    [CLIP] = "clip",          NULL};
	static sg_result (*const makers[])(struct sg_parse *, struct json_object *, const char *,
	                                   sg_node *) = {[GROUP] = make_group,
	                                                 [TRANSFORM] = make_transform,
	                                                 [MODEL] = make_model,
	                                                 [TEXT] = sg_make_text,
	                                                 [SHAPE] = sg_make_shape,
	                                                 [VIEW3D] = sg_make_view3d,
	                                                 [LIGHT] = sg_make_light,
	                                                 [MODEL_FILE] = sg_make_model_file,
	                                                 [CLIP] = make_clip};
	int type = -1;
	const char *name = NULL;
	sg_result result = sg_read_object(p, desc);
	if (!result)
		result = sg_read_required_choice(p, desc, "type", types, &type);
	if (!result)
		result = sg_read_string(p, desc, "name", false, &name);
	if (result)
		return result;
	sg_node node = SG_NODE_NONE;
	result = makers[type](p, desc, name, &node);
	/* Attached at once: a failure further down leaves no detached node behind. */
	sg_result attached;
	if (node.generation && (attached = sg_node_add_child(p->out->scene, parent, node)))
		return sg_parse_fail_prefix(p, attached);
	if (!result)
		result = parse_visible(p, desc, node);
	if (!result)
		result = sg_parse_appearance(p, desc, node,
		                             type == MODEL || type == TEXT || type == SHAPE);
	if (result)
		return result;
	/* the lights below a view are its own, counted against its maximum */
	int view_lights = p->view_lights;
	if (type == VIEW3D) {
		p->view_depth++;
		p->view_lights = 0;
	}
	result = parse_children(p, desc, node);
	if (type == VIEW3D) {
		p->view_depth--;
		p->view_lights = view_lights;
	}
	return result;
}

static sg_result parse_node_list(struct sg_parse *p, struct json_object *list, sg_node parent)
{
	if (!json_object_is_type(list, json_type_array))
		return sg_parse_fail(p, "expected an array of nodes");
	size_t count = json_object_array_length(list);
	for (size_t i = 0; i < count; i++) {
		size_t mark = sg_json_path_push_index(&p->path, i);
		sg_result result = parse_node(p, json_object_array_get_idx(list, i), parent);
		sg_json_path_pop(&p->path, mark);
		if (result)
			return result;
	}
	return SG_OK;
}

sg_result sg_parse_nodes(struct sg_parse *p, struct json_object *root)
{
	struct json_object *nodes = sg_read_field(root, "nodes");
	if (!nodes)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "nodes");
	sg_result result = parse_node_list(p, nodes, sg_scene_root(p->out->scene));
	sg_json_path_pop(&p->path, mark);
	return result;
}
