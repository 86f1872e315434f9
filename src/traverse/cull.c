/* Culling: the walk skips every subtree whose box (src/traverse/bounds.c) is
 * wholly outside one plane of the view volume, and every hidden subtree. */
#include <math.h>
#include <string.h>

#include "../base/error.h"
#include "../graph/scene_internal.h"
#include "bounds.h"
#include "cull.h"

/* True when the box lies wholly outside one clip plane (-w <= x, y, z <= w). */
bool sg_cull_box_outside(const mat4 view_projection, vec3 box[2])
{
	if (sg_box_is_empty(box))
		return true;
	/* Each clip plane (x >= -w, x <= w, and so for y and z) is a linear
	 * function of the point: the box is outside one when the function's
	 * largest value over the box, at its centre plus the extents weighted
	 * by the function's coefficients' sizes, is below 0. Six such tests
	 * cost a third of transforming the eight corners. */
	const vec4 *m = (const vec4 *)view_projection;
	float centre[3], half[3];
	for (int i = 0; i < 3; i++) {
		centre[i] = (box[0][i] + box[1][i]) * 0.5f;
		half[i] = (box[1][i] - box[0][i]) * 0.5f;
	}
	for (int axis = 0; axis < 3; axis++)
		for (int side = -1; side <= 1; side += 2) {
			/* w - side * axis >= 0 inside */
			float at = m[3][3] - (float)side * m[3][axis], reach = 0.0f;
			for (int j = 0; j < 3; j++) {
				float c = m[j][3] - (float)side * m[j][axis];
				at += c * centre[j];
				reach += fabsf(c) * half[j];
			}
			if (at + reach < 0.0f)
				return true;
		}
	return false;
}

sg_result sg_cull(struct sg_traversal *traversal, const struct sg_scene *scene,
                  const mat4 view_projection)
{
	sg_result result = sg_bounds_update(&traversal->bounds, &traversal->world, scene);
	if (result)
		return result;
	/* The last frame's list is kept aside: an identical new one keeps its
	 * serial, so that the caches above (sorting, colours, vertices) stay. */
	struct sg_draw_list *list = &traversal->visible, *previous = &traversal->visible_previous;
	struct sg_draw_list swap = *previous;
	*previous = *list;
	*list = swap;
	list->count = 0;
	list->serial = 0; /* until complete: a failed walk leaves no list to match */
	for (uint32_t n = SG_ROOT_INDEX; n;) {
		/* hidden: as if detached, neither visited nor checked; a 3D view
		 * draws its subtree itself (views3d.c) */
		if ((scene->flags[n] & SG_NODE_HIDDEN) ||
		    (scene->kind[n] == SG_NODE_VIEW3D && n != SG_ROOT_INDEX)) {
			n = sg_scene_skip_subtree(scene, n);
			continue;
		}
		bool model = scene->kind[n] == SG_NODE_MODEL;
		bool outside = sg_cull_box_outside(view_projection, traversal->bounds.boxes[n]);
		if (outside && !model) {
			n = sg_scene_skip_subtree(scene, n);
			continue;
		}
		traversal->visited++;
		if (model && !outside && (result = sg_draw_list_push(list, scene, n)))
			return result;
		/* a visited model out of view is still checked, as the unculled walk would */
		if (model && outside && (result = sg_draw_check_model(scene, n)))
			return result;
		n = sg_scene_next_preorder(scene, SG_ROOT_INDEX, n);
	}
	/* Same entries of the same scene structure (indices name the same meshes
	 * and textures): the same list. */
	bool same = previous->serial && traversal->visible_scene == scene->id &&
	            traversal->visible_structure == scene->structure_version &&
	            previous->count == list->count &&
	            (!list->count ||
	             memcmp(previous->draws, list->draws, list->count * sizeof(*list->draws)) == 0);
	list->serial = same ? previous->serial : ++traversal->next_serial;
	traversal->visible_scene = scene->id;
	traversal->visible_structure = scene->structure_version;
	return SG_OK;
}
