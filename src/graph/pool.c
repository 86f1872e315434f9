/* The pool of slots behind every scene object (pool.h). */
#include "pool.h"

#include <stdint.h>
#include <stdlib.h>

#include "../base/alloc.h"
#include "../base/error.h"

void sg_pool_init(struct sg_pool *pool, const char *kind, uint32_t first, uint32_t initial,
                  bool handles)
{
	*pool = (struct sg_pool){
		.kind = kind,
		.first = first,
		.initial = initial,
		.used = first,
		.handles = handles,
	};
}

void sg_pool_finish(struct sg_pool *pool)
{
	sg_free(pool->generation);
	free(pool->free); /* grown by plain realloc (sg_pool_free) */
	pool->generation = pool->free = NULL;
	pool->capacity = pool->free_count = pool->free_capacity = 0;
}

static bool grow(struct sg_pool *pool, sg_pool_grow_fn grow_owner, void *owner)
{
	if (pool->capacity >= SG_POOL_MAX) {
		sg_fail(SG_ERR_NO_MEMORY, "the %s pool is full (%u slots)", pool->kind,
		        pool->capacity);
		return false;
	}
	uint32_t capacity = pool->initial;
	if (pool->capacity)
		capacity = pool->capacity < SG_POOL_MAX / 2 ? pool->capacity * 2 : SG_POOL_MAX;
	if (pool->handles) {
		void *p = sg_realloc_array(pool->generation, capacity, sizeof(*pool->generation));
		if (!p)
			goto out_of_memory;
		pool->generation = p;
	}
	if (!grow_owner(owner, capacity))
		goto out_of_memory;
	pool->capacity = capacity;
	return true;

out_of_memory:
	sg_fail(SG_ERR_NO_MEMORY, "out of memory growing the %s pool to %u %ss", pool->kind,
	        capacity, pool->kind);
	return false;
}

bool sg_pool_alloc(struct sg_pool *pool, sg_pool_grow_fn grow_owner, void *owner, uint32_t *index)
{
	if (pool->free_count) {
		*index = pool->free[--pool->free_count];
		if (pool->handles) /* even to odd: in use again, under a new generation */
			pool->generation[*index]++;
	} else {
		if (pool->used >= pool->capacity && !grow(pool, grow_owner, owner))
			return false;
		*index = pool->used++;
		if (pool->handles)
			pool->generation[*index] = 1;
	}
	pool->live++;
	return true;
}

void sg_pool_free(struct sg_pool *pool, uint32_t index)
{
	/* odd to even: outstanding handles are stale. After 2^31 uses of one
	 * slot the count wraps to 0, which its next use makes 1 again. */
	if (pool->handles)
		pool->generation[index]++;
	pool->live--;
	if (pool->free_count == pool->free_capacity) {
		/* Plain realloc, around alloc.c's failure hook: whoever frees
		 * cannot fail (a destroy, or a text edit that already succeeded),
		 * and failing here is harmless, the slot is just not reused. */
		size_t capacity = pool->free_capacity ? pool->free_capacity * 2 : 64;
		uint32_t *grown = capacity < SIZE_MAX / sizeof(*grown)
		                      ? realloc(pool->free, capacity * sizeof(*grown))
		                      : NULL;
		if (!grown)
			return;
		pool->free = grown;
		pool->free_capacity = capacity;
	}
	pool->free[pool->free_count++] = index;
}

sg_result sg_pool_check(const struct sg_pool *pool, uint32_t scene_id, uint32_t handle_scene,
                        uint32_t index, uint32_t generation, const char *what)
{
	if (generation == 0)
		return sg_fail(SG_ERR_STALE_HANDLE, "%s: null %s handle", what, pool->kind);
	if (handle_scene != scene_id)
		return sg_fail(SG_ERR_FOREIGN_HANDLE, "%s: %s belongs to scene %u, not to scene %u",
		               what, pool->kind, handle_scene, scene_id);
	if (!sg_pool_holds(pool, index, generation))
		return sg_fail(SG_ERR_STALE_HANDLE, "%s: %s #%u (generation %u) was destroyed", what,
		               pool->kind, index, generation);
	return SG_OK;
}
