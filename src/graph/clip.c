/* Clip nodes: attribute nodes with matrices like groups (the transforms above
 * place their rectangles), and a record each in scene->clips. What they cut
 * is worked out per frame below the graph (src/traverse/clips.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sg/scene.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "scene_internal.h"
#include "../base/sized.h"

void sg_scene_free_clip(struct sg_scene *scene, uint32_t index)
{
	if (scene->kind[index] != SG_NODE_CLIP)
		return;
	sg_free(sg_index_map_take(&scene->clips, index));
	scene->clip_count--;
}

static sg_result check_clip(const struct sg_clip_desc *d, const char *label)
{
	const float values[5] = {d->x, d->y, d->width, d->height, d->radius};
	static const char *const names[5] = {"x", "y", "width", "height", "radius"};
	for (int i = 0; i < 5; i++)
		if (!isfinite(values[i]) || (i >= 2 && values[i] < 0.0f))
			return sg_fail(SG_ERR_INVALID_ARGUMENT, "clip %s: %s is %g, %s", label,
			               names[i], (double)values[i],
			               i >= 2 ? "not a finite value >= 0" : "not finite");
	return SG_OK;
}

static void fill(struct sg_clip_data *c, const struct sg_clip_desc *d)
{
	*c = (struct sg_clip_data){{d->x, d->y, d->width, d->height}, d->radius};
}

sg_node sg_node_new_clip_sized(struct sg_scene *scene, const struct sg_clip_desc *desc, size_t size)
{
	struct sg_clip_desc sized_desc;
	if (desc &&
	    !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                         SG_SIZE_THROUGH(struct sg_clip_desc, radius), "sg_node_new_clip")))
		return (sg_node){0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_new_clip: %s is NULL", scene ? "desc" : "scene");
		return SG_NODE_NONE;
	}
	char label[112];
	snprintf(label, sizeof(label), "'%.100s'", desc->name ? desc->name : "");
	if (check_clip(desc, label))
		return SG_NODE_NONE;
	struct sg_clip_data *record = sg_malloc(sizeof(*record));
	if (record)
		fill(record, desc);
	sg_node node =
	    sg_scene_new_recorded_node(scene, SG_NODE_CLIP, desc->name, &scene->clips, record, "clip");
	if (node.generation)
		scene->clip_count++;
	return node;
}

sg_result sg_clip_set_sized(struct sg_scene *scene, sg_node clip, const struct sg_clip_desc *desc,
                            size_t size)
{
	struct sg_clip_desc sized_desc;
	if (desc &&
	    !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                         SG_SIZE_THROUGH(struct sg_clip_desc, radius), "sg_clip_set")))
		return sg_last_result();
	sg_result result = sg_scene_check_kind(scene, clip, SG_NODE_CLIP, "sg_clip_set");
	if (result)
		return result;
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_clip_set: desc is NULL");
	if ((result = check_clip(desc, sg_scene_node_label(scene, clip.index))))
		return result;
	struct sg_clip_data *c = sg_index_map_get(&scene->clips, clip.index);
	struct sg_clip_data now;
	fill(&now, desc);
	if (memcmp(c, &now, sizeof(now)) == 0)
		return SG_OK; /* an animation holding a value: nothing to redo */
	*c = now;
	/* What the subtree shows changes: its models' pixels are damaged
	 * (src/traverse/damage.c); the renderer maps every clip each frame. */
	sg_scene_journal(scene, clip.index);
	return SG_OK;
}

static sg_result clip_get(const struct sg_scene *scene, sg_node clip, struct sg_clip_desc *desc)
{
	sg_result result = sg_scene_check_kind(scene, clip, SG_NODE_CLIP, "sg_clip_get");
	if (result)
		return result;
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_clip_get: desc is NULL");
	const struct sg_clip_data *c = sg_scene_clip(scene, clip.index);
	*desc = (struct sg_clip_desc){NULL, c->rect[0], c->rect[1], c->rect[2], c->rect[3],
	                              c->radius};
	return SG_OK;
}

sg_result sg_clip_get_sized(const struct sg_scene *scene, sg_node clip, struct sg_clip_desc *desc,
                            size_t size)
{
	if (desc &&
	    !sg_sized_out_fits(size, SG_SIZE_THROUGH(struct sg_clip_desc, radius), "sg_clip_get"))
		return sg_last_result();
	struct sg_clip_desc full;
	sg_result result = clip_get(scene, clip, desc ? &full : NULL);
	if (desc && result == SG_OK)
		sg_sized_out(desc, size, &full, sizeof full);
	return result;
}
