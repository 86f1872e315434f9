/* Node constructors and per-node properties. */
#include <string.h>

#include <sg/scene.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "scene_internal.h"
#include "../base/sized.h"

static sg_node new_node(struct sg_scene *scene, enum sg_node_kind kind, const char *name)
{
	char *copy = NULL;
	if (name && !(copy = sg_strdup(name))) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory copying node name '%.100s'", name);
		return SG_NODE_NONE;
	}
	if (copy && !sg_index_map_reserve(&scene->names)) {
		sg_free(copy);
		sg_fail(SG_ERR_NO_MEMORY, "out of memory naming node '%.100s'", name);
		return SG_NODE_NONE;
	}
	uint32_t index = sg_scene_alloc_node(scene, kind);
	if (!index) {
		sg_free(copy);
		return SG_NODE_NONE;
	}
	sg_scene_set_name(scene, index, copy); /* room reserved above: cannot fail */
	return sg_scene_handle(scene, index);
}

sg_node sg_scene_new_recorded_node(struct sg_scene *scene, enum sg_node_kind kind,
                                   const char *name, struct sg_index_map *map, void *record,
                                   const char *what)
{
	char *copy = NULL;
	if (!record || (name && !(copy = sg_strdup(name))) || !sg_index_map_reserve(map) ||
	    (copy && !sg_index_map_reserve(&scene->names))) {
		sg_free(record);
		sg_free(copy);
		sg_fail(SG_ERR_NO_MEMORY, "out of memory making %s '%.100s'", what, name ? name : "");
		return SG_NODE_NONE;
	}
	uint32_t index = sg_scene_alloc_node(scene, kind);
	if (!index) {
		sg_free(record);
		sg_free(copy);
		return SG_NODE_NONE;
	}
	sg_scene_set_name(scene, index, copy); /* room reserved above */
	sg_index_map_put(map, index, record);
	return sg_scene_handle(scene, index);
}

sg_node sg_node_new_group(struct sg_scene *scene, const char *name)
{
	if (!scene) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_new_group: scene is NULL");
		return SG_NODE_NONE;
	}
	return new_node(scene, SG_NODE_GROUP, name);
}

sg_node sg_node_new_transform_sized(struct sg_scene *scene, const struct sg_transform_desc *desc,
                                    size_t size)
{
	struct sg_transform_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_transform_desc, matrix),
	                                 "sg_node_new_transform")))
		return (sg_node){0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_new_transform: %s is NULL",
		        scene ? "desc" : "scene");
		return SG_NODE_NONE;
	}
	if (desc->matrix && !sg_floats_finite(desc->matrix, 16)) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "transform '%.100s': matrix has NaN or infinite entries",
		        desc->name ? desc->name : "");
		return SG_NODE_NONE;
	}
	sg_node node = new_node(scene, SG_NODE_TRANSFORM, desc->name);
	if (node.generation && desc->matrix)
		memcpy(sg_scene_local(scene, node.index), desc->matrix, sizeof(mat4));
	return node;
}

sg_node sg_node_new_model_sized(struct sg_scene *scene, const struct sg_model_desc *desc,
                                size_t size)
{
	struct sg_model_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_model_desc, position),
	                                 "sg_node_new_model")))
		return (sg_node){0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_new_model: %s is NULL", scene ? "desc" : "scene");
		return SG_NODE_NONE;
	}
	const char *label = desc->name ? desc->name : "";
	sg_result result;
	if ((result = sg_scene_check_mesh(scene, desc->mesh, "mesh")) ||
	    (!sg_texture_is_none(desc->texture) &&
	     (result = sg_scene_check_texture(scene, desc->texture, "texture")))) {
		sg_fail_prefix(result, "model '%.100s': ", label);
		return SG_NODE_NONE;
	}
	if (!sg_floats_finite(desc->position, 3)) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "model '%.100s': position is not finite", label);
		return SG_NODE_NONE;
	}
	sg_node node = new_node(scene, SG_NODE_MODEL, desc->name);
	if (!node.generation)
		return node;
	struct sg_model_data *model = sg_scene_model(scene, node.index);
	model->mesh = SG_RESOURCE_REF(desc->mesh);
	model->texture = SG_RESOURCE_REF(desc->texture);
	glm_vec3_copy((float *)desc->position, model->position);
	return node;
}

bool sg_node_exists(const struct sg_scene *scene, sg_node node)
{
	return scene && node.scene == scene->id &&
	       sg_pool_holds(&scene->node_pool, node.index, node.generation);
}

enum sg_node_kind sg_node_get_kind(const struct sg_scene *scene, sg_node node)
{
	if (sg_scene_check_node(scene, node, "sg_node_get_kind"))
		return SG_NODE_INVALID;
	enum sg_node_kind kind = (enum sg_node_kind)scene->kind[node.index];
	if (sg_scene_text(scene, node.index))
		return SG_NODE_TEXT; /* stored as a model, so that everything below draws it as one */
	return kind;
}

const char *sg_node_get_name(const struct sg_scene *scene, sg_node node)
{
	if (sg_scene_check_node(scene, node, "sg_node_get_name"))
		return NULL;
	const char *name = sg_scene_name(scene, node.index);
	return name ? name : "";
}

sg_result sg_node_set_name(struct sg_scene *scene, sg_node node, const char *name)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_set_name");
	if (result)
		return result;
	const char *old = sg_scene_name(scene, node.index);
	if (old == name || (old && name && strcmp(old, name) == 0))
		return SG_OK; /* the same name: no copy to make */
	char *copy = NULL;
	if (name && !(copy = sg_strdup(name)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory copying node name '%.100s'", name);
	if (!sg_scene_set_name(scene, node.index, copy))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory naming node '%.100s'", name);
	return SG_OK;
}

/* Sizes hidden_slot for every node slot the pool has: grown here rather than
 * with the node arrays, so that scenes that never hide a node do not pay for it. */
static bool hidden_reserve(struct sg_scene *scene)
{
	uint32_t slots = scene->node_pool.capacity;
	if (scene->hidden_slot_capacity < slots) {
		void *p = sg_realloc_array(scene->hidden_slot, slots, sizeof(*scene->hidden_slot));
		if (!p)
			return false;
		scene->hidden_slot = p;
		scene->hidden_slot_capacity = slots;
	}
	if (scene->hidden_count == scene->hidden_capacity) {
		uint32_t capacity = scene->hidden_capacity ? scene->hidden_capacity * 2 : 16;
		void *p = sg_realloc_array(scene->hidden, capacity, sizeof(*scene->hidden));
		if (!p)
			return false;
		scene->hidden = p;
		scene->hidden_capacity = capacity;
	}
	return true;
}

void sg_scene_forget_hidden(struct sg_scene *scene, uint32_t index)
{
	if (!(scene->flags[index] & SG_NODE_HIDDEN))
		return;
	uint32_t at = scene->hidden_slot[index], last = scene->hidden[--scene->hidden_count];
	scene->hidden[at] = last;
	scene->hidden_slot[last] = at;
	scene->flags[index] &= (uint8_t)~SG_NODE_HIDDEN;
}

sg_result sg_node_set_visible(struct sg_scene *scene, sg_node node, bool visible)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_set_visible");
	if (result)
		return result;
	uint32_t n = node.index;
	if (!(scene->flags[n] & SG_NODE_HIDDEN) == visible)
		return SG_OK; /* already so: the cached lists stay */
	if (visible) {
		sg_scene_forget_hidden(scene, n);
	} else {
		if (!hidden_reserve(scene))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory hiding node %s",
			               sg_scene_node_label(scene, n));
		scene->hidden_slot[n] = scene->hidden_count;
		scene->hidden[scene->hidden_count++] = n;
		scene->flags[n] |= SG_NODE_HIDDEN;
	}
	scene->visibility_version++;
	sg_scene_journal(scene, n);
	return SG_OK;
}

sg_result sg_node_get_visible(const struct sg_scene *scene, sg_node node, bool *visible)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_get_visible");
	if (result)
		return result;
	if (!visible)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_get_visible: visible is NULL");
	*visible = !(scene->flags[node.index] & SG_NODE_HIDDEN);
	return SG_OK;
}

sg_result sg_node_set_pickable(struct sg_scene *scene, sg_node node, bool pickable)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_set_pickable");
	if (result)
		return result;
	if (pickable)
		scene->flags[node.index] &= (uint8_t)~SG_NODE_UNPICKABLE;
	else
		scene->flags[node.index] |= SG_NODE_UNPICKABLE;
	return SG_OK;
}

sg_result sg_node_get_pickable(const struct sg_scene *scene, sg_node node, bool *pickable)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_get_pickable");
	if (result)
		return result;
	if (!pickable)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_get_pickable: pickable is NULL");
	*pickable = !(scene->flags[node.index] & SG_NODE_UNPICKABLE);
	return SG_OK;
}
