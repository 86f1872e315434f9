/* The draw list: every attached model in depth-first, left-to-right order,
 * cached until the scene's structure changes; visible.c cuts the hidden
 * subtrees out of it. */
#include "traverse.h"

#include <string.h>
#include <time.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"
#include "clips.h"
#include "cull.h"
#include "paint.h"
#include "visible.h"
#include "world.h"

void sg_traversal_init(struct sg_traversal *traversal)
{
	*traversal = (struct sg_traversal){0};
	traversal->all.world = traversal->shown.world = &traversal->world;
	traversal->visible.world = traversal->visible_previous.world = &traversal->world;
}

void sg_traversal_finish(struct sg_traversal *traversal)
{
	sg_free(traversal->all.draws);
	sg_free(traversal->ranges);
	sg_free(traversal->stale);
	sg_free(traversal->views);
	sg_free(traversal->shown.draws);
	sg_free(traversal->shown.origin);
	sg_free(traversal->hidden);
	sg_free(traversal->visible.draws);
	sg_free(traversal->visible_previous.draws);
	sg_paint_finish(&traversal->paint);
	sg_clips_finish(&traversal->clips);
	sg_world_finish(&traversal->world);
	sg_bounds_finish(&traversal->bounds);
	sg_traversal_init(traversal);
}

/* A model without a texture (SG_TEXTURE_NONE) draws its colour: nothing
 * stale. A shape filled by an image needs the image too. */
static bool texture_live(const struct sg_scene *scene, sg_texture texture)
{
	if (sg_texture_is_none(texture))
		return true;
	const struct sg_texture_data *t = sg_scene_texture(scene, texture);
	return t && (!t->shape || sg_texture_is_none(t->shape->image) ||
	             sg_scene_texture(scene, t->shape->image));
}

sg_result sg_draw_check_model(const struct sg_scene *scene, uint32_t n)
{
	bool mesh = sg_scene_model_mesh(scene, n) != NULL;
	if (!mesh || !texture_live(scene, sg_model_texture(scene, sg_scene_model(scene, n))))
		return sg_fail(SG_ERR_STALE_HANDLE, "model %s uses a destroyed %s",
		               sg_scene_node_label(scene, n), mesh ? "texture" : "mesh");
	return SG_OK;
}

sg_result sg_draw_list_append(struct sg_draw_list *list, const struct sg_scene *scene, uint32_t n)
{
	const struct sg_model_data *model = sg_scene_model(scene, n);
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? list->capacity * 2 : 64;
		struct sg_draw *draws = sg_realloc_array(list->draws, capacity, sizeof(*draws));
		if (!draws)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory growing the draw list to %zu",
			               capacity);
		list->draws = draws;
		list->capacity = capacity;
	}
	uint32_t texture =
		model->texture.generation ? model->texture.index : SG_DRAW_NO_TEXTURE;
	list->draws[list->count++] = (struct sg_draw){n, model->mesh.index, texture};
	return SG_OK;
}

sg_result sg_draw_list_push(struct sg_draw_list *list, const struct sg_scene *scene, uint32_t n)
{
	sg_result result = sg_draw_check_model(scene, n);
	return result ? result : sg_draw_list_append(list, scene, n);
}

static bool model_is_stale(const struct sg_scene *scene, uint32_t n)
{
	return !sg_scene_model_mesh(scene, n) ||
	       !texture_live(scene, sg_model_texture(scene, sg_scene_model(scene, n)));
}

static sg_result note_stale(struct sg_traversal *traversal, uint32_t position)
{
	if (traversal->stale_count == traversal->stale_capacity) {
		size_t capacity = traversal->stale_capacity ? traversal->stale_capacity * 2 : 16;
		uint32_t *stale = sg_realloc_array(traversal->stale, capacity, sizeof(*stale));
		if (!stale)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory listing %zu stale models",
			               capacity);
		traversal->stale = stale;
		traversal->stale_capacity = capacity;
	}
	traversal->stale[traversal->stale_count++] = position;
	return SG_OK;
}

static sg_result note_view(struct sg_traversal *traversal, uint32_t n)
{
	if (!sg_grow_array((void **)&traversal->views, &traversal->views_capacity,
	                   traversal->views_count + 1, sizeof(*traversal->views)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory listing %zu 3D views",
		               traversal->views_count + 1);
	traversal->views[traversal->views_count++] = n;
	return SG_OK;
}

static sg_result reserve_ranges(struct sg_traversal *traversal, uint32_t count)
{
	if (traversal->ranges_capacity < count) {
		void *p = sg_realloc_array(traversal->ranges, count, sizeof(*traversal->ranges));
		if (!p)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %u subtree ranges", count);
		traversal->ranges = p;
		traversal->ranges_capacity = count;
	}
	/* nodes the walk does not reach (detached) keep an empty range */
	memset(traversal->ranges, 0, count * sizeof(*traversal->ranges));
	traversal->ranges_count = count;
	return SG_OK;
}

/* Every attached model, hidden or not, so that showing and hiding need no new
 * walk; with each node's range of entries and the positions of stale models. */
static sg_result build_all(struct sg_traversal *traversal, const struct sg_scene *scene)
{
	struct sg_draw_list *list = &traversal->all;
	const struct sg_node_links *links = scene->links;
	sg_result result;
	traversal->all_valid = false;
	traversal->full_walks++;
	list->count = 0;
	list->serial = ++traversal->next_serial;
	traversal->stale_count = 0;
	traversal->views_count = 0;
	if ((result = reserve_ranges(traversal, scene->node_pool.used)))
		return result;
	struct sg_draw_range *ranges = traversal->ranges;
	for (uint32_t n = SG_ROOT_INDEX; n;) {
		traversal->visited++;
		ranges[n].first = (uint32_t)list->count;
		if (scene->kind[n] == SG_NODE_MODEL) {
			if (model_is_stale(scene, n) && (result = note_stale(traversal, (uint32_t)list->count)))
				return result;
			if ((result = sg_draw_list_append(list, scene, n)))
				return result;
		}
		/* A 3D view's subtree is drawn by the view (views3d.c), not in all. */
		uint32_t first = 0;
		if (scene->kind[n] == SG_NODE_VIEW3D && n != SG_ROOT_INDEX) {
			if ((result = note_view(traversal, n)))
				return result;
		} else {
			first = sg_scene_first_child(scene, n);
		}
		if (first) {
			n = first;
			continue;
		}
		/* n's subtree is done; so are those of the ancestors it is the last of */
		for (;;) {
			ranges[n].end = (uint32_t)list->count;
			if (n == SG_ROOT_INDEX) {
				n = 0;
				break;
			}
			if (links[n].next_sibling) {
				n = links[n].next_sibling;
				break;
			}
			n = scene->parent[n];
		}
	}
	traversal->all_valid = true;
	traversal->all_scene = scene->id;
	traversal->all_structure = scene->structure_version;
	return SG_OK;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

sg_result sg_traverse(struct sg_traversal *traversal, const struct sg_scene *scene,
                      const mat4 view_projection)
{
	traversal->visited = 0;
	/* Timed apart so that the world update can be compared with a flat loop
	 * over the same matrices (bench/), without the draw-list work. */
	uint64_t start = now_ns();
	size_t updates = sg_world_update(&traversal->world, scene);
	traversal->world_ns = now_ns() - start;
	if (updates == SIZE_MAX)
		return SG_ERR_NO_MEMORY;
	traversal->world_updates = updates;
	sg_result result;
	/* The 3D views and their places are found in all, culled or not. */
	bool all_current = traversal->all_valid && traversal->all_scene == scene->id &&
	                   traversal->all_structure == scene->structure_version;
	if (scene->view_count && !all_current && (result = build_all(traversal, scene)))
		return result;
	if (view_projection) {
		traversal->list = &traversal->visible;
		result = sg_cull(traversal, scene, view_projection);
	} else {
		if (!traversal->all_valid || traversal->all_scene != scene->id ||
		    traversal->all_structure != scene->structure_version)
			if ((result = build_all(traversal, scene)))
				return result;
		result = sg_traverse_shown(traversal, scene);
	}
	if (result)
		return result;
	return sg_paint_update(&traversal->paint, scene, sg_draw_source(traversal->list),
	                       &traversal->next_serial);
}

sg_result sg_traverse_frame(struct sg_traversal *traversal, const struct sg_scene *scene,
                            const mat4 cull, const mat4 view_projection, int width, int height)
{
	sg_result result = sg_traverse(traversal, scene, cull);
	return result ? result
	              : sg_clips_update(&traversal->clips, scene, sg_draw_source(traversal->list),
	                                view_projection, width, height);
}
