/* Scene lifetime and the node pool. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "scene_internal.h"
#include "scene_live.h"

/* Scene ids make handles of one scene unusable in another. Never 0. */
static atomic_uint next_scene_id = 1;

/* The ids of live scenes, sorted, shared by all threads (scenes are created
 * and destroyed on any thread). Freed when empty, so nothing outlives the
 * last scene. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *live_ids;
static size_t live_count, live_capacity;
static atomic_uint_fast64_t destroyed_count;

/* The position of id in live_ids, or where it would go. Under live_lock. */
static size_t live_position(uint32_t id)
{
	size_t low = 0, high = live_count;
	while (low < high) {
		size_t middle = low + (high - low) / 2;
		if (live_ids[middle] < id)
			low = middle + 1;
		else
			high = middle;
	}
	return low;
}

static bool live_add(uint32_t id)
{
	pthread_mutex_lock(&live_lock);
	if (live_count == live_capacity) {
		size_t capacity = live_capacity ? live_capacity * 2 : 16;
		uint32_t *ids = sg_realloc_array(live_ids, capacity, sizeof(*ids));
		if (!ids) {
			pthread_mutex_unlock(&live_lock);
			return false;
		}
		live_ids = ids;
		live_capacity = capacity;
	}
	size_t at = live_position(id);
	memmove(live_ids + at + 1, live_ids + at, (live_count - at) * sizeof(*live_ids));
	live_ids[at] = id;
	live_count++;
	pthread_mutex_unlock(&live_lock);
	return true;
}

static void live_remove(uint32_t id)
{
	pthread_mutex_lock(&live_lock);
	size_t at = live_position(id);
	if (at < live_count && live_ids[at] == id) {
		memmove(live_ids + at, live_ids + at + 1,
		        (live_count - at - 1) * sizeof(*live_ids));
		if (--live_count == 0) {
			sg_free(live_ids);
			live_ids = NULL;
			live_capacity = 0;
		}
		atomic_fetch_add(&destroyed_count, 1);
	}
	pthread_mutex_unlock(&live_lock);
}

uint64_t sg_scene_destroyed_count(void)
{
	return atomic_load(&destroyed_count);
}

bool sg_scene_id_live(uint32_t id)
{
	pthread_mutex_lock(&live_lock);
	size_t at = live_position(id);
	bool live = at < live_count && live_ids[at] == id;
	pthread_mutex_unlock(&live_lock);
	return live;
}

static bool grow_nodes(struct sg_scene *scene, uint32_t capacity)
{
	/* Each array is grown on its own; a failure leaves the ones already grown
	 * larger than node_capacity, which is harmless. */
	void *p;
#define GROW(field)                                                                \
	if (!(p = sg_realloc_array(scene->field, capacity, sizeof(*scene->field)))) \
		return false;                                                          \
	scene->field = p;
	GROW(generation)
	GROW(kind)
	GROW(flags)
	GROW(links)
	GROW(local)
	GROW(world)
	GROW(payload)
	GROW(name)
#undef GROW
	scene->node_capacity = capacity;
	return true;
}

/* Model records live in their own pool, so that groups and transforms do not
 * pay for them. */
static bool alloc_model(struct sg_scene *scene, uint32_t *model)
{
	if (scene->free_model) {
		*model = scene->free_model;
		scene->free_model = scene->models[*model].next_free;
		return true;
	}
	if (scene->model_count == 0)
		scene->model_count = 1; /* record 0 is never used: 0 ends the free list */
	if (scene->model_count >= scene->model_capacity) {
		uint32_t capacity = scene->model_capacity ? scene->model_capacity * 2 : 64;
		void *p = sg_realloc_array(scene->models, capacity, sizeof(*scene->models));
		if (!p)
			return false;
		scene->models = p;
		scene->model_capacity = capacity;
	}
	*model = scene->model_count++;
	return true;
}

void sg_scene_mark_dirty(struct sg_scene *scene, uint32_t index)
{
	scene->transform_version++;
	if (!scene->world_valid || (scene->flags[index] & SG_NODE_DIRTY))
		return;
	if (scene->dirty_count == scene->dirty_capacity) {
		uint32_t capacity = scene->dirty_capacity ? scene->dirty_capacity * 2 : 64;
		void *p = sg_realloc_array(scene->dirty, capacity, sizeof(*scene->dirty));
		if (!p) {
			/* No room to list it: recompute everything instead, which is always right. */
			scene->world_valid = false;
			return;
		}
		scene->dirty = p;
		scene->dirty_capacity = capacity;
	}
	scene->flags[index] |= SG_NODE_DIRTY;
	scene->dirty[scene->dirty_count++] = index;
}

uint32_t sg_scene_alloc_node(struct sg_scene *scene, enum sg_node_kind kind)
{
	uint32_t model = 0;
	if (kind == SG_NODE_MODEL && !alloc_model(scene, &model)) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory growing the model pool");
		return 0;
	}
	uint32_t index = scene->free_node;
	if (index) {
		scene->free_node = scene->links[index].next_sibling;
	} else {
		bool full = scene->node_used == UINT32_MAX;
		uint32_t capacity = scene->node_capacity < UINT32_MAX / 2 ? scene->node_capacity * 2
		                                                          : UINT32_MAX;
		if (full || (scene->node_used == scene->node_capacity && !grow_nodes(scene, capacity))) {
			if (full)
				sg_fail(SG_ERR_NO_MEMORY, "scene %u: node pool exhausted", scene->id);
			else
				sg_fail(SG_ERR_NO_MEMORY, "out of memory growing the node pool to %u nodes",
				        capacity);
			if (model) { /* give back the model record taken above */
				scene->models[model].next_free = scene->free_model;
				scene->free_model = model;
			}
			return 0;
		}
		index = scene->node_used++;
		scene->generation[index] = 0;
	}
	scene->generation[index]++;
	if (scene->generation[index] == 0) /* wrapped: 0 is reserved for "no handle" */
		scene->generation[index] = 1;
	scene->kind[index] = (uint8_t)kind;
	scene->flags[index] = 0;
	memset(&scene->links[index], 0, sizeof(scene->links[index]));
	glm_mat4_identity(scene->local[index]);
	glm_mat4_identity(scene->world[index]);
	scene->payload[index] = model;
	if (model)
		memset(&scene->models[model], 0, sizeof(scene->models[model]));
	scene->name[index] = NULL;
	scene->node_live++;
	return index;
}

void sg_scene_free_node(struct sg_scene *scene, uint32_t index)
{
	sg_free(scene->name[index]);
	scene->name[index] = NULL;
	if (scene->kind[index] == SG_NODE_MODEL) {
		scene->models[scene->payload[index]].next_free = scene->free_model;
		scene->free_model = scene->payload[index];
	}
	scene->kind[index] = SG_NODE_INVALID;
	scene->generation[index]++; /* outstanding handles become stale */
	scene->links[index] = (struct sg_node_links){.next_sibling = scene->free_node};
	scene->free_node = index;
	scene->node_live--;
	sg_scene_structure_changed(scene);
}

struct sg_scene *sg_scene_create(void)
{
	struct sg_scene *scene = sg_calloc(1, sizeof(*scene));
	if (!scene) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory creating a scene");
		return NULL;
	}
	scene->id = atomic_fetch_add(&next_scene_id, 1);
	if (scene->id == 0)
		scene->id = atomic_fetch_add(&next_scene_id, 1);
	scene->node_used = SG_ROOT_INDEX;
	if (!live_add(scene->id) || !grow_nodes(scene, 64) || sg_scene_alloc_node(scene, SG_NODE_GROUP) != SG_ROOT_INDEX) {
		sg_scene_destroy(scene);
		sg_fail(SG_ERR_NO_MEMORY, "out of memory creating a scene");
		return NULL;
	}
	return scene;
}

void sg_scene_destroy(struct sg_scene *scene)
{
	if (!scene)
		return;
	live_remove(scene->id);
	if (scene->name)
		for (uint32_t i = 1; i < scene->node_used; i++)
			sg_free(scene->name[i]);
	sg_free(scene->generation);
	sg_free(scene->kind);
	sg_free(scene->flags);
	sg_free(scene->links);
	sg_free(scene->local);
	sg_free(scene->world);
	sg_free(scene->payload);
	sg_free(scene->name);
	sg_free(scene->models);
	sg_free(scene->dirty);
	for (uint32_t i = 0; i < scene->texture_count; i++)
		sg_free(scene->textures[i].pixels);
	sg_free(scene->textures);
	for (uint32_t i = 0; i < scene->mesh_count; i++) {
		sg_free(scene->meshes[i].vertices);
		sg_free(scene->meshes[i].indices);
	}
	sg_free(scene->meshes);
	sg_free(scene);
}

sg_node sg_scene_root(const struct sg_scene *scene)
{
	if (!scene)
		return SG_NODE_NONE;
	return sg_scene_handle(scene, SG_ROOT_INDEX);
}

size_t sg_scene_node_count(const struct sg_scene *scene)
{
	return scene ? scene->node_live : 0;
}

sg_result sg_scene_check_node(const struct sg_scene *scene, sg_node node, const char *what)
{
	if (!scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: scene is NULL", what);
	if (node.generation == 0)
		return sg_fail(SG_ERR_STALE_HANDLE, "%s: null node handle", what);
	if (node.scene != scene->id)
		return sg_fail(SG_ERR_FOREIGN_HANDLE, "%s: node belongs to scene %u, not to scene %u",
		               what, node.scene, scene->id);
	if (node.index == 0 || node.index >= scene->node_used ||
	    scene->generation[node.index] != node.generation ||
	    scene->kind[node.index] == SG_NODE_INVALID)
		return sg_fail(SG_ERR_STALE_HANDLE, "%s: node #%u (generation %u) was destroyed", what,
		               node.index, node.generation);
	return SG_OK;
}

const char *sg_scene_node_label(const struct sg_scene *scene, uint32_t index)
{
	static _Thread_local char label[160];
	const char *name = scene->name[index];
	if (name)
		snprintf(label, sizeof(label), "'%.150s'", name);
	else
		snprintf(label, sizeof(label), "#%u", index);
	return label;
}
