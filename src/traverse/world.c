/* World matrices: world = parent world * local, in preorder, so that each
 * parent is current before its children need it. Iterative: the preorder
 * successor comes from the links alone. */
#include "world.h"

#include "../graph/scene_internal.h"

/* world = parent * translate(t) for a model, whose local matrix is only ever
 * its position's translation: three columns copied and one computed, a
 * quarter of a full product's arithmetic. */
static inline void mul_translation(mat4 parent, mat4 local, mat4 world)
{
	const float x = local[3][0], y = local[3][1], z = local[3][2];
	glm_vec4_copy(parent[0], world[0]);
	glm_vec4_copy(parent[1], world[1]);
	glm_vec4_copy(parent[2], world[2]);
	for (int r = 0; r < 4; r++)
		world[3][r] = parent[0][r] * x + parent[1][r] * y + parent[2][r] * z + parent[3][r];
}

static size_t update_subtree(struct sg_scene *scene, uint32_t top)
{
	const struct sg_node_links *links = scene->links;
	const uint8_t *kind = scene->kind;
	mat4 *world = scene->world, *local = scene->local;
	size_t count = 0;
	for (uint32_t n = top; n; n = sg_scene_next_preorder(scene, top, n), count++) {
		uint32_t parent = links[n].parent;
		if (!parent)
			glm_mat4_copy(local[n], world[n]);
		else if (kind[n] == SG_NODE_MODEL)
			mul_translation(world[parent], local[n], world[n]);
		else
			glm_mat4_mul(world[parent], local[n], world[n]);
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
