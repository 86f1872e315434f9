/* Internal: the one pool behind every kind of object a scene hands out (nodes,
 * model records, textures, meshes), in the manner of sokol_gfx: a slot index,
 * a generation per slot and a free list live here; the kind's own data stays in
 * its own arrays (struct of arrays for nodes), grown by a callback to the same
 * capacity. A handle is (scene, index, generation): destroying bumps the slot's
 * generation, so that an old handle is refused even after the slot is reused. */
#ifndef SG_GRAPH_POOL_H
#define SG_GRAPH_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include <sg/error.h>

/* next_free of a slot in use; SG_POOL_END ends the free list. */
#define SG_POOL_IN_USE UINT32_MAX
#define SG_POOL_END (UINT32_MAX - 1)

struct sg_pool {
	const char *kind;     /* "node", "texture", ...: for messages */
	uint32_t first;       /* 1 where index 0 means "none" (nodes, models), else 0 */
	uint32_t initial;     /* capacity of the first growth */
	uint32_t used;        /* slots [first, used) have been handed out */
	uint32_t capacity;    /* slots that this and the kind's arrays have room for */
	uint32_t live;        /* slots in use */
	uint32_t free_head;   /* most recently freed slot, or SG_POOL_END */
	uint32_t *generation; /* per slot; never 0, which means "no handle" */
	uint32_t *next_free;  /* per slot: SG_POOL_IN_USE, or the next free slot */
};

/* Grows the kind's own arrays to capacity slots; false if out of memory. A
 * failure may leave some arrays grown: harmless, they are grown again. */
typedef bool (*sg_pool_grow_fn)(void *owner, uint32_t capacity);

void sg_pool_init(struct sg_pool *pool, const char *kind, uint32_t first, uint32_t initial);
void sg_pool_finish(struct sg_pool *pool);

/* Takes a slot: the last freed one, else a new one at the end (growing the pool
 * and, through grow, the owner's arrays). Its generation is set; the kind's data
 * is left for the caller to fill. Returns false with a message when full or out
 * of memory. */
bool sg_pool_alloc(struct sg_pool *pool, sg_pool_grow_fn grow, void *owner, uint32_t *index);
/* Gives back a slot in use: outstanding handles to it become stale. */
void sg_pool_free(struct sg_pool *pool, uint32_t index);

/* True when (index, generation) names a slot in use: the lookup of every handle. */
static inline bool sg_pool_holds(const struct sg_pool *pool, uint32_t index, uint32_t generation)
{
	return generation && index >= pool->first && index < pool->used &&
	       pool->next_free[index] == SG_POOL_IN_USE && pool->generation[index] == generation;
}

/* Checks a handle of a scene: SG_OK, or SG_ERR_STALE_HANDLE / SG_ERR_FOREIGN_HANDLE
 * with a message that starts with what ("child: node #3 (generation 1) was destroyed"). */
sg_result sg_pool_check(const struct sg_pool *pool, uint32_t scene_id, uint32_t handle_scene,
                        uint32_t index, uint32_t generation, const char *what);

#endif
