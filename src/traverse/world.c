/* World matrices: world = parent world * local, in preorder, so that each
 * parent is current before its children need it. Iterative: the preorder
 * successor comes from the links alone. */
#include "world.h"

#include "../graph/scene_internal.h"

/* Groups and transforms: world = parent world * local, in the matrix arrays
 * (payload gives a node's slot; a parent is never a model). Models are left
 * out (sg_scene_model_world). */
static inline void update_node(uint32_t n, uint32_t parent, const uint32_t *payload, mat4 *local,
                               mat4 *world)
{
	uint32_t m = payload[n];
	if (!parent)
		glm_mat4_copy(local[m], world[m]);
	else
		glm_mat4_mul(world[payload[parent]], local[m], world[m]);
}

/* Through the links: any layout. */
static size_t update_subtree(struct sg_scene *scene, uint32_t top)
{
	size_t count = 0;
	for (uint32_t n = top; n; n = sg_scene_next_preorder(scene, top, n)) {
		if (scene->kind[n] == SG_NODE_MODEL)
			continue;
		update_node(n, scene->parent[n], scene->payload, scene->local, scene->world);
		count++;
	}
	return count;
}

/* Slots from first on in index order, for a scene in preorder: each parent
 * comes before its children, so this is one forward pass through the arrays,
 * with no dependent loads between nodes. Free slots and models are skipped.
 * stop 0: to the end of the pool; a detached node there gets a world nobody
 * reads (attaching recomputes it). stop n, for the rest of dirty node n's
 * subtree: up to the first node whose parent comes before n, found from the
 * parent column the pass reads anyway rather than from n's sibling links (a
 * cache miss of its own on each of a sparse edit's nodes). Detached tops
 * (parent 0) are stepped over then; a detached node reached this way gets a
 * world nobody reads, and an attached one its parent's world times its local,
 * which is right whenever the parent's is, or is redone with it. A detached
 * node with a parent before n could end the scan early; none can sit in the
 * subtree's range, since linking a node under a detached subtree ends the
 * preorder layout (keeps_preorder() in src/graph/tree.c). */
static inline size_t update_range(struct sg_scene *scene, uint32_t first, uint32_t stop)
{
	const uint32_t *parent = scene->parent;
	const uint8_t *kind = scene->kind;
	const uint32_t *payload = scene->payload;
	mat4 *world = scene->world, *local = scene->local;
	size_t count = 0;
	for (uint32_t n = first, end = scene->node_pool.used; n < end; n++) {
		if (kind[n] == SG_NODE_INVALID)
			continue;
		uint32_t p = parent[n];
		if (p < stop) {
			if (p)
				break;
			continue;
		}
		if (kind[n] == SG_NODE_MODEL)
			continue;
		update_node(n, p, payload, local, world);
		count++;
	}
	return count;
}

static size_t update_dirty(struct sg_scene *scene, uint32_t n)
{
	if (!scene->preorder)
		return update_subtree(scene, n);
	update_node(n, scene->parent[n], scene->payload, scene->local, scene->world);
	return 1 + update_range(scene, n + 1, n);
}


size_t sg_traverse_update_world(struct sg_scene *scene)
{
	size_t count = 0;
	if (!scene->world_valid) {
		count = scene->preorder ? update_range(scene, SG_ROOT_INDEX, 0)
		                        : update_subtree(scene, SG_ROOT_INDEX);
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
				count += update_dirty(scene, n);
		}
	}
	scene->dirty_count = 0;
	scene->world_valid = true;
	return count;
}
