/* How models look without changing what is drawn: node opacities and model
 * colours. Both only bump appearance_version, so the cached traversal order
 * and draw lists stay; the renderer recomputes each draw's colour from them. */
#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "scene_internal.h"

sg_result sg_node_set_opacity(struct sg_scene *scene, sg_node node, float opacity)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_set_opacity");
	if (result)
		return result;
	if (!sg_float_unit(opacity))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_node_set_opacity: opacity %g of node %s is not in [0, 1]",
		               (double)opacity, sg_scene_node_label(scene, node.index));
	if (sg_scene_opacity(scene, node.index) == opacity)
		return SG_OK; /* an animation holding a value: nothing to redo */
	if (!scene->opacity) { /* the first below 1: every other node's is 1 */
		uint32_t slots = scene->node_pool.capacity;
		float *column = sg_realloc_array(NULL, slots, sizeof(*column));
		if (!column)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the opacities of %u nodes",
			               slots);
		for (uint32_t i = 0; i < slots; i++)
			column[i] = 1.0f;
		scene->opacity = column;
	}
	scene->opacity[node.index] = opacity;
	scene->opacity_used |= opacity < 1.0f;
	scene->appearance_version++;
	sg_scene_journal(scene, node.index);
	return SG_OK;
}

sg_result sg_node_get_opacity(const struct sg_scene *scene, sg_node node, float *opacity)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_get_opacity");
	if (result)
		return result;
	if (!opacity)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_get_opacity: opacity is NULL");
	*opacity = sg_scene_opacity(scene, node.index);
	return SG_OK;
}

sg_result sg_model_set_color(struct sg_scene *scene, sg_node node, float r, float g, float b,
                             float a)
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_MODEL, "sg_model_set_color");
	if (result)
		return result;
	const float color[4] = {r, g, b, a};
	static const char names[] = "rgba";
	for (int i = 0; i < 4; i++)
		if (!sg_float_unit(color[i]))
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "sg_model_set_color: %c = %g of model %s is not in [0, 1]",
			               names[i], (double)color[i], sg_scene_node_label(scene, node.index));
	struct sg_model_data *model = sg_scene_model(scene, node.index);
	bool same = true;
	for (int i = 0; i < 4; i++) {
		same &= model->color[i] == color[i];
		model->color[i] = color[i];
	}
	if (!same) {
		scene->appearance_version++;
		sg_scene_journal(scene, node.index);
	}
	return SG_OK;
}

sg_result sg_model_get_color(const struct sg_scene *scene, sg_node node, float rgba[4])
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_MODEL, "sg_model_get_color");
	if (result)
		return result;
	if (!rgba)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_model_get_color: rgba is NULL");
	for (int i = 0; i < 4; i++)
		rgba[i] = sg_scene_model(scene, node.index)->color[i];
	return SG_OK;
}
