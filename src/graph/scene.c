/* Scene lifetime and the node pool. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "dmabuf.h"
#include "resource.h"
#include "node_kind.h"
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

/* The node arrays, grown by the node pool (pool.h). */
static bool grow_nodes(void *owner, uint32_t capacity)
{
	struct sg_scene *scene = owner;
	void *p;
#define GROW(field)                                                                \
	if (!(p = sg_realloc_array(scene->field, capacity, sizeof(*scene->field)))) \
		return false;                                                          \
	scene->field = p;
	GROW(kind)
	GROW(flags)
	GROW(parent)
	GROW(links)
	GROW(payload)
	if (scene->opacity) {
		GROW(opacity)
	}
#undef GROW
	return true;
}

static bool grow_matrices(void *owner, uint32_t capacity)
{
	struct sg_scene *scene = owner;
	void *p;
	if (!(p = sg_realloc_array(scene->local, capacity, sizeof(*scene->local))))
		return false;
	scene->local = p;
	if (!(p = sg_realloc_array(scene->children, capacity, sizeof(*scene->children))))
		return false;
	scene->children = p;
	return true;
}

static bool grow_models(void *owner, uint32_t capacity)
{
	struct sg_scene *scene = owner;
	void *p = sg_realloc_array(scene->models, capacity, sizeof(*scene->models));
	if (p)
		scene->models = p;
	return p != NULL;
}

void sg_scene_mark_dirty(struct sg_scene *scene, uint32_t index)
{
	scene->transform_version++;
	/* A model has no world matrix for a reader to update: its readers make
	 * it from its parent's. */
	sg_scene_journal_entry(scene, index, scene->kind[index] != SG_NODE_MODEL);
}

uint32_t sg_scene_alloc_node(struct sg_scene *scene, enum sg_node_kind kind)
{
	/* a model record, or matrices */
	uint32_t payload = 0, index;
	bool model = kind == SG_NODE_MODEL;
	struct sg_pool *payloads = model ? &scene->model_pool : &scene->matrix_pool;
	if (!sg_pool_alloc(payloads, model ? grow_models : grow_matrices, scene, &payload))
		return 0;
	if (!sg_pool_alloc(&scene->node_pool, grow_nodes, scene, &index)) {
		sg_pool_free(payloads, payload); /* give back what was taken above */
		return 0;
	}
	scene->kind[index] = (uint8_t)kind;
	scene->flags[index] = 0;
	scene->parent[index] = 0;
	memset(&scene->links[index], 0, sizeof(scene->links[index]));
	scene->payload[index] = payload;
	if (scene->opacity)
		scene->opacity[index] = 1.0f;
	if (model) {
		scene->models[payload] = (struct sg_model_data){.color = {1.0f, 1.0f, 1.0f, 1.0f}};
	} else {
		glm_mat4_identity(scene->local[payload]);
		scene->children[payload] = (struct sg_child_links){0};
	}
	return index;
}

bool sg_scene_set_name(struct sg_scene *scene, uint32_t index, char *name)
{
	if (name && !(scene->flags[index] & SG_NODE_NAMED) && !sg_index_map_reserve(&scene->names)) {
		sg_free(name);
		return false;
	}
	if (scene->flags[index] & SG_NODE_NAMED) {
		sg_free(sg_index_map_take(&scene->names, index));
		scene->flags[index] &= (uint8_t)~SG_NODE_NAMED;
	}
	if (name) {
		sg_index_map_put(&scene->names, index, name);
		scene->flags[index] |= SG_NODE_NAMED;
	}
	return true;
}

void sg_scene_free_node(struct sg_scene *scene, uint32_t index)
{
	sg_scene_journal(scene, index); /* what it drew is to be painted over */
	sg_scene_set_name(scene, index, NULL);
	if (scene->flags[index] & SG_NODE_TEXT_RECORD)
		scene->text_ops->node_freed(scene, index);
	sg_scene_free_node3d(scene, index);
	sg_scene_free_clip(scene, index);
	sg_pool_free(scene->kind[index] == SG_NODE_MODEL ? &scene->model_pool : &scene->matrix_pool,
	             scene->payload[index]);
	scene->kind[index] = SG_NODE_INVALID;
	scene->parent[index] = 0;
	scene->links[index] = (struct sg_node_links){0};
	sg_pool_free(&scene->node_pool, index); /* outstanding handles become stale */
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
	/* Index 0 of nodes and models means "none"; resource handles start at 0. */
	sg_pool_init(&scene->node_pool, "node", SG_ROOT_INDEX, 64, true);
	sg_pool_init(&scene->model_pool, "model", 1, 64, false);
	sg_pool_init(&scene->matrix_pool, "matrix", 1, 64, false);
	sg_pool_init(&scene->texture_pool, "texture", 0, 16, true);
	sg_pool_init(&scene->mesh_pool, "mesh", 0, 16, true);
	sg_pool_init(&scene->material_pool, "material", 0, 16, true);
	if (!live_add(scene->id) || !sg_scene_journal_init(scene) ||
	    sg_scene_alloc_node(scene, SG_NODE_GROUP) != SG_ROOT_INDEX) {
		sg_scene_destroy(scene);
		sg_fail(SG_ERR_NO_MEMORY, "out of memory creating a scene");
		return NULL;
	}
	scene->preorder = true; /* the root alone */
	return scene;
}

void sg_scene_destroy(struct sg_scene *scene)
{
	if (!scene)
		return;
	live_remove(scene->id);
	if (scene->text_ops)
		scene->text_ops->scene_destroyed(scene);
	if (scene->query_free)
		scene->query_free(scene->query);
	sg_pool_finish(&scene->node_pool);
	sg_free(scene->kind);
	sg_free(scene->flags);
	sg_free(scene->parent);
	sg_free(scene->links);
	sg_free(scene->payload);
	sg_free(scene->opacity);
	sg_index_map_finish(&scene->names, sg_free);
	sg_index_map_finish(&scene->texts, NULL); /* the text layer freed the records */
	sg_pool_finish(&scene->model_pool);
	sg_free(scene->models);
	sg_pool_finish(&scene->matrix_pool);
	sg_free(scene->local);
	sg_free(scene->children);
	sg_free(scene->journal.nodes);
	sg_free(scene->hidden);
	sg_free(scene->hidden_slot);
	/* A destroyed resource's arrays are already freed and NULL. */
	for (uint32_t i = 0; i < scene->texture_pool.used; i++) {
		sg_free(scene->textures[i].pixels);
		sg_texture_import_free(scene->textures[i].import); /* closes its fds */
		sg_free(scene->textures[i].shape);
	}
	sg_pool_finish(&scene->texture_pool);
	sg_free(scene->textures);
	for (uint32_t i = 0; i < scene->mesh_pool.used; i++) {
		sg_free(scene->meshes[i].vertices);
		sg_free(scene->meshes[i].indices);
		sg_mesh_solid_free(scene->meshes[i].solid);
	}
	sg_scene_free_materials(scene);
	sg_index_map_finish(&scene->model_materials, sg_free);
	sg_index_map_finish(&scene->nodes3d, sg_free);
	sg_index_map_finish(&scene->clips, sg_free);
	sg_pool_finish(&scene->mesh_pool);
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
	return scene ? scene->node_pool.live : 0;
}

sg_result sg_scene_check_node(const struct sg_scene *scene, sg_node node, const char *what)
{
	if (!scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: scene is NULL", what);
	return sg_pool_check(&scene->node_pool, scene->id, node.scene, node.index, node.generation,
	                     what);
}

sg_result sg_scene_check_kind(const struct sg_scene *scene, sg_node node, enum sg_node_kind kind,
                             const char *function)
{
	sg_result result = sg_scene_check_node(scene, node, function);
	if (result)
		return result;
	if (scene->kind[node.index] != kind)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: node %s is not a %s", function,
		               sg_scene_node_label(scene, node.index), sg_node_kind_info(kind)->name);
	return SG_OK;
}

const char *sg_scene_node_label(const struct sg_scene *scene, uint32_t index)
{
	static _Thread_local char label[160];
	const char *name = sg_scene_name(scene, index);
	if (name)
		snprintf(label, sizeof(label), "'%.150s'", name);
	else
		snprintf(label, sizeof(label), "#%u", index);
	return label;
}
