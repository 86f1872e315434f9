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

/* A sparse edit's nodes are far apart, so each one's update starts with a
 * chain of cache misses: its parent link, then the parent's world matrix.
 * Touched AHEAD nodes early (the link) and AHEAD / 2 early (the matrices, the
 * link having arrived), the misses of several nodes overlap instead of
 * following one another: bench's sparse update of tree-1048576 (10486 dirty
 * leaves) takes about a quarter less. Only where the arrays are in preorder,
 * which is what puts a parent's slot near its child's. */
enum { AHEAD = 16 };

static inline void prefetch_link(const struct sg_scene *scene, uint32_t n)
{
	__builtin_prefetch(&scene->kind[n]);
	__builtin_prefetch(&scene->parent[n]);
	__builtin_prefetch(&scene->payload[n]);
	/* the parent's slot, often on the line before */
	if (n >= 16)
		__builtin_prefetch(&scene->payload[n - 16]);
}

static inline void prefetch_matrices(const struct sg_scene *scene, uint32_t n)
{
	/* Every listed node is live (removing one ends world_valid, and with it
	 * this path), and a prefetch cannot fault; still, no address past the
	 * arrays is formed, whatever a slot holds. */
	uint32_t slots = scene->matrix_pool.capacity;
	uint32_t own = scene->payload[n], up = scene->payload[scene->parent[n]];
	if (up < slots)
		__builtin_prefetch(&scene->world[up]);
	if (own < slots)
		__builtin_prefetch(&scene->world[own], 1);
}

static size_t update_dirty_list(struct sg_scene *scene)
{
	const uint32_t *dirty = scene->dirty;
	uint32_t count = scene->dirty_count;
	size_t updated = 0;
	/* A dirty node under another dirty node may be done twice, in either
	 * order; the ancestor's pass covers it, so the result is right. */
	for (uint32_t i = 0; i < count; i++) {
		if (scene->preorder) {
			if (i + AHEAD < count)
				prefetch_link(scene, dirty[i + AHEAD]);
			if (i + AHEAD / 2 < count)
				prefetch_matrices(scene, dirty[i + AHEAD / 2]);
		}
		uint32_t n = dirty[i];
		bool is_dirty = scene->flags[n] & SG_NODE_DIRTY;
		scene->flags[n] &= (uint8_t)~SG_NODE_DIRTY;
		if (is_dirty && scene->kind[n] != SG_NODE_INVALID)
			updated += update_dirty(scene, n);
	}
	return updated;
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
		count = update_dirty_list(scene);
	}
	scene->dirty_count = 0;
	scene->world_valid = true;
	return count;
}
