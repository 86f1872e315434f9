/* World matrices: world = parent world * local, in preorder, so that each
 * parent is current before its children need it. Iterative: the preorder
 * successor comes from the links alone. */
#include "world.h"

#include "../graph/scene_internal.h"

static size_t update_subtree(struct sg_scene *scene, uint32_t top)
{
	const struct sg_node_links *links = scene->links;
	mat4 *world = scene->world, *local = scene->local;
	size_t count = 0;
	for (uint32_t n = top; n; n = sg_scene_next_preorder(scene, top, n), count++) {
		uint32_t parent = links[n].parent;
		if (parent)
			glm_mat4_mul(world[parent], local[n], world[n]);
		else
			glm_mat4_copy(local[n], world[n]);
	}
	return count;
}

size_t sg_traverse_update_world(struct sg_scene *scene)
{
	size_t count = 0;
	if (!scene->world_valid) {
		count = update_subtree(scene, SG_ROOT_INDEX);
		/* Detached subtrees are brought up to date when they are attached,
		 * since attaching is a structural edit. */
		for (uint32_t i = 0; i < scene->dirty_count; i++)
			scene->flags[scene->dirty[i]] &= (uint8_t)~SG_NODE_DIRTY;
	} else {
		/* A dirty node under another dirty node may be done twice, in either
		 * order; the ancestor's pass covers it, so the result is right. */
		for (uint32_t i = 0; i < scene->dirty_count; i++) {
			uint32_t n = scene->dirty[i];
			bool dirty = scene->flags[n] & SG_NODE_DIRTY;
			scene->flags[n] &= (uint8_t)~SG_NODE_DIRTY;
			if (dirty && scene->kind[n] != SG_NODE_INVALID)
				count += update_subtree(scene, n);
		}
	}
	scene->dirty_count = 0;
	scene->world_valid = true;
	return count;
}
