/* Internal: the one pool behind every kind of object a scene hands out (nodes,
 * textures, meshes) or keeps for itself (model records, matrices), in the
 * manner of sokol_gfx: a slot index, a generation per slot and the free slots
 * live here; the kind's own data stays in its own arrays (struct of arrays for
 * nodes), grown by a callback to the same capacity. A handle is (scene, index,
 * generation): a slot's generation is odd while it is in use and even while
 * it is free, so that an old handle is refused even after the slot is reused.
 * Pools without handles keep no generations, and no pool keeps a word per
 * slot for its free list (a stack of the free slots, empty in a scene that
 * never destroys): 8 bytes of every node, matrix and model record before. */
#ifndef SG_GRAPH_POOL_H
#define SG_GRAPH_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

/* The most slots a pool has. */
#define SG_POOL_MAX (UINT32_MAX - 1)

struct sg_pool {
	const char *kind;     /* "node", "texture", ...: for messages */
	uint32_t first;       /* 1 where index 0 means "none" (nodes, models), else 0 */
	uint32_t initial;     /* capacity of the first growth */
	uint32_t used;        /* slots [first, used) have been handed out */
	uint32_t capacity;    /* slots that this and the kind's arrays have room for */
	uint32_t live;        /* slots in use */
	/* per slot, odd while in use (so never 0, which means "no handle");
	 * NULL for a pool without handles */
	uint32_t *generation;
	bool handles;
	uint32_t *free; /* the free slots, the most recently freed last */
	size_t free_count, free_capacity;
};

/* Grows the kind's own arrays to capacity slots; false if out of memory. A
 * failure may leave some arrays grown: harmless, they are grown again. */
typedef bool (*sg_pool_grow_fn)(void *owner, uint32_t capacity);

/* handles: slots are named by handles, which the pool checks (generations). */
void sg_pool_init(struct sg_pool *pool, const char *kind, uint32_t first, uint32_t initial,
                  bool handles);
void sg_pool_finish(struct sg_pool *pool);

/* Takes a slot: the last freed one, else a new one at the end (growing the pool
 * and, through grow, the owner's arrays). Its generation is set; the kind's data
 * is left for the caller to fill. Returns false with a message when full or out
 * of memory. */
bool sg_pool_alloc(struct sg_pool *pool, sg_pool_grow_fn grow, void *owner, uint32_t *index);
/* Gives back a slot in use: outstanding handles to it become stale. Out of
 * memory for the free stack, the slot is not reused: that costs its memory
 * and nothing else. */
void sg_pool_free(struct sg_pool *pool, uint32_t index);

/* True when (index, generation) names a slot in use: the lookup of every handle. */
static inline bool sg_pool_holds(const struct sg_pool *pool, uint32_t index, uint32_t generation)
{
	return (generation & 1) && index >= pool->first && index < pool->used &&
	       pool->generation[index] == generation;
}

/* Checks a handle of a scene: SG_OK, or SG_ERR_STALE_HANDLE / SG_ERR_FOREIGN_HANDLE
 * with a message that starts with what ("child: node #3 (generation 1) was destroyed"). */
sg_result sg_pool_check(const struct sg_pool *pool, uint32_t scene_id, uint32_t handle_scene,
                        uint32_t index, uint32_t generation, const char *what);

#endif
