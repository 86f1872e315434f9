/* Transform and model properties: all edits of local matrices. */
#include <math.h>
#include <string.h>

#include "../base/error.h"
#include "../base/floats.h"
#include "scene_internal.h"

static sg_result refuse_nonfinite(const struct sg_scene *scene, sg_node node, const char *function)
{
	return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: NaN or infinite value for node %s", function,
	               sg_scene_node_label(scene, node.index));
}

/* Stores a new local matrix. One that is bit for bit the one the node has
 * changes nothing (an animation holding a value, translate by 0): nothing is
 * marked dirty, so that no world matrix or cache above is recomputed. */
static sg_result set_local(struct sg_scene *scene, uint32_t index, mat4 local)
{
	vec4 *stored = sg_scene_local(scene, index);
	if (memcmp(stored, local, sizeof(mat4)) == 0)
		return SG_OK;
	glm_mat4_copy(local, stored);
	sg_scene_mark_dirty(scene, index);
	return SG_OK;
}

/* Applies op to the local matrix, refusing a result that is not finite (an
 * overflowing scale, say). Products of finite local matrices down a deep tree
 * can still overflow: the renderer draws what they give. */
static sg_result edit_transform(struct sg_scene *scene, sg_node node, const char *function,
                                const float *args, int arg_count, void (*op)(mat4, const float *))
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_TRANSFORM, function);
	if (result)
		return result;
	if (!sg_floats_finite(args, (size_t)arg_count))
		return refuse_nonfinite(scene, node, function);
	mat4 edited;
	glm_mat4_copy(sg_scene_local(scene, node.index), edited);
	op(edited, args);
	if (!sg_floats_finite((const float *)edited, 16))
		return refuse_nonfinite(scene, node, function);
	return set_local(scene, node.index, edited);
}

static void op_set(mat4 m, const float *a)
{
	memcpy(m, a, sizeof(mat4));
}
static void op_identity(mat4 m, const float *a)
{
	(void)a;
	glm_mat4_identity(m);
}
static void op_translate(mat4 m, const float *a)
{
	glm_translate(m, (float *)a);
}
static void op_rotate(mat4 m, const float *a)
{
	vec3 axis = {a[1], a[2], a[3]};
	glm_rotate(m, a[0], axis); /* the axis is not zero: sg_transform_rotate refuses that */
}
static void op_scale(mat4 m, const float *a)
{
	glm_scale(m, (float *)a);
}

sg_result sg_transform_set_matrix(struct sg_scene *scene, sg_node node, const float matrix[16])
{
	if (!matrix)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_transform_set_matrix: matrix is NULL");
	return edit_transform(scene, node, "sg_transform_set_matrix", matrix, 16, op_set);
}

sg_result sg_transform_get_matrix(const struct sg_scene *scene, sg_node node, float matrix[16])
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_TRANSFORM, "sg_transform_get_matrix");
	if (result)
		return result;
	if (!matrix)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_transform_get_matrix: matrix is NULL");
	memcpy(matrix, sg_scene_local(scene, node.index), sizeof(mat4));
	return SG_OK;
}

sg_result sg_transform_set_identity(struct sg_scene *scene, sg_node node)
{
	return edit_transform(scene, node, "sg_transform_set_identity", NULL, 0, op_identity);
}

sg_result sg_transform_translate(struct sg_scene *scene, sg_node node, float x, float y, float z)
{
	const float args[] = {x, y, z};
	return edit_transform(scene, node, "sg_transform_translate", args, 3, op_translate);
}

sg_result sg_transform_rotate(struct sg_scene *scene, sg_node node, float angle, float x, float y,
                              float z)
{
	const float args[] = {angle, x, y, z};
	vec3 axis = {x, y, z};
	/* A zero axis (or one whose length underflows) has no direction: refused
	 * rather than doing nothing, which would hide the caller's mistake. */
	if (sg_floats_finite(axis, 3) && glm_vec3_norm(axis) == 0.0f) {
		sg_result result =
			sg_scene_check_kind(scene, node, SG_NODE_TRANSFORM, "sg_transform_rotate");
		if (result)
			return result;
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_transform_rotate: the axis for node %s is (0, 0, 0)",
		               sg_scene_node_label(scene, node.index));
	}
	return edit_transform(scene, node, "sg_transform_rotate", args, 4, op_rotate);
}

sg_result sg_transform_scale(struct sg_scene *scene, sg_node node, float x, float y, float z)
{
	const float args[] = {x, y, z};
	return edit_transform(scene, node, "sg_transform_scale", args, 3, op_scale);
}

sg_result sg_model_set_position(struct sg_scene *scene, sg_node node, float x, float y, float z)
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_MODEL, "sg_model_set_position");
	if (result)
		return result;
	const float position[] = {x, y, z};
	if (!sg_floats_finite(position, 3))
		return refuse_nonfinite(scene, node, "sg_model_set_position");
	/* the same position, bit for bit, changes nothing (as set_local) */
	float *stored = sg_scene_model(scene, node.index)->position;
	if (memcmp(stored, position, sizeof(position)) == 0)
		return SG_OK;
	memcpy(stored, position, sizeof(position));
	sg_scene_mark_dirty(scene, node.index);
	return SG_OK;
}

/* A text node's mesh and texture are its glyphs, which the text layer makes. */
static sg_result refuse_text(const struct sg_scene *scene, sg_node node, const char *function)
{
	return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: node %s is a text node (its glyphs are its mesh)",
	               function, sg_scene_node_label(scene, node.index));
}

sg_result sg_model_set_texture(struct sg_scene *scene, sg_node node, sg_texture texture)
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_MODEL, "sg_model_set_texture");
	if (result)
		return result;
	if (sg_scene_text(scene, node.index))
		return refuse_text(scene, node, "sg_model_set_texture");
	if (!sg_texture_is_none(texture) &&
	    (result = sg_scene_check_texture(scene, texture, "sg_model_set_texture")))
		return result;
	struct sg_model_data *model = sg_scene_model(scene, node.index);
	if (model->texture.index == texture.index &&
	    model->texture.generation == texture.generation)
		return SG_OK; /* the same texture: nothing drawn changes */
	model->texture = SG_RESOURCE_REF(texture);
	sg_scene_structure_changed(scene);
	sg_scene_journal(scene, node.index);
	return SG_OK;
}

sg_result sg_model_set_mesh(struct sg_scene *scene, sg_node node, sg_mesh mesh)
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_MODEL, "sg_model_set_mesh");
	if (result)
		return result;
	if (sg_scene_text(scene, node.index))
		return refuse_text(scene, node, "sg_model_set_mesh");
	if ((result = sg_scene_check_mesh(scene, mesh, "sg_model_set_mesh")))
		return result;
	struct sg_model_data *model = sg_scene_model(scene, node.index);
	if (model->mesh.index == mesh.index && model->mesh.generation == mesh.generation)
		return SG_OK; /* the same mesh: nothing drawn changes */
	model->mesh = SG_RESOURCE_REF(mesh);
	sg_scene_structure_changed(scene);
	sg_scene_journal(scene, node.index);
	return SG_OK;
}
