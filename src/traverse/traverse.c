/* The depth-first walk: world = parent world * local, in preorder, so each
 * parent's world matrix is ready before its children need it. Iterative: the
 * preorder successor comes from the sibling and parent links alone. */
#include "traverse.h"

#include "../graph/alloc.h"
#include "../graph/error.h"
#include "../graph/scene_internal.h"

void sg_traversal_init(struct sg_traversal *traversal)
{
	*traversal = (struct sg_traversal){0};
}

void sg_traversal_finish(struct sg_traversal *traversal)
{
	sg_free(traversal->world);
	sg_free(traversal->list.draws);
	*traversal = (struct sg_traversal){0};
}

static sg_result reserve_world(struct sg_traversal *traversal, size_t count)
{
	if (count <= traversal->world_capacity)
		return SG_OK;
	mat4 *world = sg_realloc_array(traversal->world, count, sizeof(mat4));
	if (!world)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu world matrices", count);
	traversal->world = world;
	traversal->world_capacity = count;
	return SG_OK;
}

static struct sg_draw *push_draw(struct sg_draw_list *list)
{
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? list->capacity * 2 : 64;
		struct sg_draw *draws = sg_realloc_array(list->draws, capacity, sizeof(*draws));
		if (!draws)
			return NULL;
		list->draws = draws;
		list->capacity = capacity;
	}
	return &list->draws[list->count++];
}

static sg_result add_model(struct sg_traversal *traversal, const struct sg_scene *scene,
                           uint32_t n)
{
	const struct sg_model_data *model = &scene->model[n];
	if (!sg_scene_mesh(scene, model->mesh) || !sg_scene_texture(scene, model->texture))
		return sg_fail(SG_ERR_STALE_HANDLE, "model %s uses a destroyed %s",
		               sg_scene_node_label(scene, n),
		               sg_scene_mesh(scene, model->mesh) ? "texture" : "mesh");
	struct sg_draw *draw = push_draw(&traversal->list);
	if (!draw)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory growing the draw list");
	glm_mat4_copy(traversal->world[n], draw->world);
	draw->node = n;
	draw->mesh = model->mesh.index;
	draw->texture = model->texture.index;
	return SG_OK;
}

sg_result sg_traverse(struct sg_traversal *traversal, const struct sg_scene *scene)
{
	sg_result result = reserve_world(traversal, scene->node_used);
	if (result)
		return result;
	traversal->list.count = 0;
	traversal->visited = 0;

	const struct sg_node_links *links = scene->links;
	for (uint32_t n = SG_ROOT_INDEX; n; n = sg_scene_next_preorder(scene, SG_ROOT_INDEX, n)) {
		uint32_t parent = links[n].parent;
		if (parent)
			glm_mat4_mul(traversal->world[parent], (vec4 *)scene->local[n], traversal->world[n]);
		else
			glm_mat4_copy((vec4 *)scene->local[n], traversal->world[n]);
		traversal->visited++;
		if (scene->kind[n] == SG_NODE_MODEL && (result = add_model(traversal, scene, n)))
			return result;
	}
	return SG_OK;
}
