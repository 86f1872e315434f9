/* The draw list: every attached model in depth-first, left-to-right order,
 * cached until the scene's structure changes. */
#include "traverse.h"

#include "../graph/alloc.h"
#include "../graph/error.h"
#include "../graph/scene_internal.h"
#include "cull.h"
#include "world.h"

void sg_traversal_init(struct sg_traversal *traversal)
{
	*traversal = (struct sg_traversal){0};
}

void sg_traversal_finish(struct sg_traversal *traversal)
{
	sg_free(traversal->all.draws);
	sg_free(traversal->visible.draws);
	sg_free(traversal->bounds);
	*traversal = (struct sg_traversal){0};
}

sg_result sg_draw_check_model(const struct sg_scene *scene, uint32_t n)
{
	const struct sg_model_data *model = sg_scene_model(scene, n);
	if (!sg_scene_mesh(scene, model->mesh) || !sg_scene_texture(scene, model->texture))
		return sg_fail(SG_ERR_STALE_HANDLE, "model %s uses a destroyed %s",
		               sg_scene_node_label(scene, n),
		               sg_scene_mesh(scene, model->mesh) ? "texture" : "mesh");
	return SG_OK;
}

sg_result sg_draw_list_push(struct sg_draw_list *list, const struct sg_scene *scene, uint32_t n)
{
	sg_result result = sg_draw_check_model(scene, n);
	if (result)
		return result;
	const struct sg_model_data *model = sg_scene_model(scene, n);
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? list->capacity * 2 : 64;
		struct sg_draw *draws = sg_realloc_array(list->draws, capacity, sizeof(*draws));
		if (!draws)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory growing the draw list to %zu",
			               capacity);
		list->draws = draws;
		list->capacity = capacity;
	}
	list->draws[list->count++] = (struct sg_draw){n, model->mesh.index, model->texture.index};
	return SG_OK;
}

static sg_result build_all(struct sg_traversal *traversal, const struct sg_scene *scene)
{
	struct sg_draw_list *list = &traversal->all;
	traversal->all_valid = false;
	list->count = 0;
	list->serial = ++traversal->next_serial;
	for (uint32_t n = SG_ROOT_INDEX; n; n = sg_scene_next_preorder(scene, SG_ROOT_INDEX, n)) {
		traversal->visited++;
		if (scene->kind[n] == SG_NODE_MODEL) {
			sg_result result = sg_draw_list_push(list, scene, n);
			if (result)
				return result;
		}
	}
	traversal->all_valid = true;
	traversal->all_scene = scene->id;
	traversal->all_structure = scene->structure_version;
	return SG_OK;
}

sg_result sg_traverse(struct sg_traversal *traversal, struct sg_scene *scene,
                      const mat4 view_projection)
{
	traversal->visited = 0;
	traversal->world_updates = sg_traverse_update_world(scene);
	if (view_projection) {
		traversal->list = &traversal->visible;
		return sg_cull(traversal, scene, view_projection);
	}
	traversal->list = &traversal->all;
	if (traversal->all_valid && traversal->all_scene == scene->id &&
	    traversal->all_structure == scene->structure_version)
		return SG_OK;
	return build_all(traversal, scene);
}
