/* World matrices: world = parent world * local, in preorder, so that each
 * parent is current before its children need it. Iterative: the preorder
 * successor comes from the links alone. Each reader keeps its own (world.h)
 * and reads the scene's journal for the matrices edited since its last
 * update. */
#include "world.h"

#include "../base/alloc.h"
#include "../base/error.h"

/* Groups and transforms: world = parent world * local, in the matrix arrays
 * (payload gives a node's slot; a parent is never a model). Models are left
 * out (sg_world_model). */
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
static size_t update_subtree(mat4 *world, const struct sg_scene *scene, uint32_t top)
{
	size_t count = 0;
	for (uint32_t n = top; n; n = sg_scene_next_preorder(scene, top, n)) {
		if (scene->kind[n] == SG_NODE_MODEL)
			continue;
		update_node(n, scene->parent[n], scene->payload, scene->local, world);
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
static inline size_t update_range(mat4 *world, const struct sg_scene *scene, uint32_t first,
                                  uint32_t stop)
{
	const uint32_t *parent = scene->parent;
	const uint8_t *kind = scene->kind;
	const uint32_t *payload = scene->payload;
	mat4 *local = scene->local;
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

static size_t update_dirty(mat4 *world, const struct sg_scene *scene, uint32_t n)
{
	if (!scene->preorder)
		return update_subtree(world, scene, n);
	update_node(n, scene->parent[n], scene->payload, scene->local, world);
	return 1 + update_range(world, scene, n + 1, n);
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
	if (n >= scene->node_pool.used)
		return;
	__builtin_prefetch(&scene->kind[n]);
	__builtin_prefetch(&scene->parent[n]);
	__builtin_prefetch(&scene->payload[n]);
	/* the parent's slot, often on the line before */
	if (n >= 16)
		__builtin_prefetch(&scene->payload[n - 16]);
}

static inline void prefetch_matrices(const mat4 *world, uint32_t slots,
                                     const struct sg_scene *scene, uint32_t n)
{
	/* A listed node may have been freed since (its slot then holds
	 * anything), and a prefetch cannot fault; still, no address past the
	 * arrays is formed, whatever a slot holds. */
	if (n >= scene->node_pool.used)
		return;
	uint32_t own = scene->payload[n], up = scene->payload[scene->parent[n]];
	if (up < slots)
		__builtin_prefetch(&world[up]);
	if (own < slots)
		__builtin_prefetch(&world[own], 1);
}

/* The matrix entries of the journal after w->journal_read: each edited
 * group's or transform's subtree, once however often it was edited. */
static size_t update_edited(struct sg_world *w, const struct sg_scene *scene)
{
	const struct sg_scene_journal *j = &scene->journal;
	size_t updated = 0;
	/* A node under another edited node may be done twice, in either order;
	 * the ancestor's pass covers it, so the result is right. */
	for (uint64_t s = w->journal_read; s < j->head; s++) {
		if (scene->preorder) {
			if (s + AHEAD < j->head)
				prefetch_link(scene, sg_journal_node(sg_scene_journal_at(j, s + AHEAD)));
			if (s + AHEAD / 2 < j->head)
				prefetch_matrices(w->matrices, w->capacity, scene,
				                  sg_journal_node(sg_scene_journal_at(j, s + AHEAD / 2)));
		}
		uint32_t e = sg_scene_journal_at(j, s), n = sg_journal_node(e);
		if (!(e & SG_JOURNAL_MATRIX) || n >= scene->node_pool.used || w->done[n])
			continue;
		uint8_t kind = scene->kind[n];
		if (kind == SG_NODE_INVALID || kind == SG_NODE_MODEL)
			continue;
		w->done[n] = 1;
		updated += update_dirty(w->matrices, scene, n);
	}
	for (uint64_t s = w->journal_read; s < j->head; s++) {
		uint32_t n = sg_journal_node(sg_scene_journal_at(j, s));
		if (n < scene->node_pool.used)
			w->done[n] = 0;
	}
	return updated;
}

void sg_world_finish(struct sg_world *world)
{
	sg_free(world->matrices);
	sg_free(world->done);
	*world = (struct sg_world){0};
}

static bool reserve(struct sg_world *w, const struct sg_scene *scene)
{
	uint32_t slots = scene->matrix_pool.capacity;
	if (w->capacity < slots) {
		void *p = sg_realloc_array(w->matrices, slots, sizeof(*w->matrices));
		if (!p)
			return false;
		w->matrices = p;
		w->capacity = slots;
	}
	size_t old = w->done_capacity;
	if (!sg_grow_array((void **)&w->done, &w->done_capacity, scene->node_pool.used + 1u,
	                   sizeof(*w->done)))
		return false;
	for (size_t i = old; i < w->done_capacity; i++)
		w->done[i] = 0;
	return true;
}

size_t sg_world_update(struct sg_world *w, const struct sg_scene *scene)
{
	if (!reserve(w, scene)) {
		w->valid = false;
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for the world matrices of %u nodes",
		        scene->matrix_pool.used);
		return SIZE_MAX;
	}
	const struct sg_scene_journal *j = &scene->journal;
	bool current = w->valid && w->scene == scene->id && w->structure == scene->structure_version &&
	               w->journal_read >= sg_scene_journal_first(j);
	size_t count;
	if (!current)
		/* Detached subtrees are brought up to date when they are attached,
		 * since attaching is a structural edit. */
		count = scene->preorder ? update_range(w->matrices, scene, SG_ROOT_INDEX, 0)
		                        : update_subtree(w->matrices, scene, SG_ROOT_INDEX);
	else
		count = update_edited(w, scene);
	w->scene = scene->id;
	w->structure = scene->structure_version;
	w->journal_read = j->head;
	w->valid = true;
	return count;
}
