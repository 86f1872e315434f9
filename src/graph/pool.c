/* The pool of slots behind every scene object (pool.h). */
#include "pool.h"

#include "alloc.h"
#include "error.h"

void sg_pool_init(struct sg_pool *pool, const char *kind, uint32_t first, uint32_t initial)
{
	*pool = (struct sg_pool){
		.kind = kind,
		.first = first,
		.initial = initial,
		.used = first,
		.free_head = SG_POOL_END,
	};
}

void sg_pool_finish(struct sg_pool *pool)
{
	sg_free(pool->generation);
	sg_free(pool->next_free);
	pool->generation = pool->next_free = NULL;
	pool->capacity = 0;
}

static bool grow(struct sg_pool *pool, sg_pool_grow_fn grow_owner, void *owner)
{
	/* The two top values of an index are the free list's markers. */
	if (pool->capacity >= SG_POOL_END) {
		sg_fail(SG_ERR_NO_MEMORY, "the %s pool is full (%u slots)", pool->kind,
		        pool->capacity);
		return false;
	}
	uint32_t capacity = pool->initial;
	if (pool->capacity)
		capacity = pool->capacity < SG_POOL_END / 2 ? pool->capacity * 2 : SG_POOL_END;
	void *p;
	if (!(p = sg_realloc_array(pool->generation, capacity, sizeof(*pool->generation))))
		goto out_of_memory;
	pool->generation = p;
	if (!(p = sg_realloc_array(pool->next_free, capacity, sizeof(*pool->next_free))))
		goto out_of_memory;
	pool->next_free = p;
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
	if (pool->free_head != SG_POOL_END) {
		*index = pool->free_head;
		pool->free_head = pool->next_free[*index];
	} else {
		if (pool->used >= pool->capacity && !grow(pool, grow_owner, owner))
			return false;
		*index = pool->used++;
		pool->generation[*index] = 1;
	}
	pool->next_free[*index] = SG_POOL_IN_USE;
	pool->live++;
	return true;
}

void sg_pool_free(struct sg_pool *pool, uint32_t index)
{
	if (++pool->generation[index] == 0) /* wrapped: 0 is reserved for "no handle" */
		pool->generation[index] = 1;
	pool->next_free[index] = pool->free_head;
	pool->free_head = index;
	pool->live--;
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
