/* Culling. Bounds are computed bottom-up in one stackless postorder pass and
 * kept until the scene changes (structure or any matrix): a static scene seen
 * through a moving camera pays for them once. The walk then skips every
 * subtree whose box is wholly outside one plane of the view volume, and every
 * hidden subtree. Boxes include hidden subtrees, so that showing and hiding do
 * not make them stale: a box may be larger than what is drawn, never smaller. */
#include <float.h>

#include "../graph/alloc.h"
#include "../graph/error.h"
#include "../graph/scene_internal.h"
#include "cull.h"

static void empty_box(vec3 box[2])
{
	glm_vec3_fill(box[0], FLT_MAX);
	glm_vec3_fill(box[1], -FLT_MAX);
}

static bool box_is_empty(vec3 box[2])
{
	return box[0][0] > box[1][0];
}

/* The box of a model: its mesh's box through its world matrix. */
static void model_box(const struct sg_scene *scene, uint32_t n, vec3 box[2])
{
	const struct sg_mesh_data *mesh = sg_scene_mesh(scene, sg_scene_model(scene, n)->mesh);
	empty_box(box);
	if (!mesh)
		return; /* reported when the walk reaches it */
	for (int corner = 0; corner < 8; corner++) {
		vec4 p = {mesh->bounds[corner & 1][0], mesh->bounds[(corner >> 1) & 1][1],
		          mesh->bounds[corner >> 2][2], 1.0f};
		vec4 w;
		glm_mat4_mulv(scene->world[n], p, w);
		glm_vec3_minv(box[0], w, box[0]);
		glm_vec3_maxv(box[1], w, box[1]);
	}
}

static sg_result compute_bounds(struct sg_traversal *traversal, const struct sg_scene *scene)
{
	if (traversal->bounds_capacity < scene->node_pool.used) {
		void *p = sg_realloc_array(traversal->bounds, scene->node_pool.used, sizeof(vec3[2]));
		if (!p)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %u bounding boxes",
			               scene->node_pool.used);
		traversal->bounds = p;
		traversal->bounds_capacity = scene->node_pool.used;
	}
	vec3(*bounds)[2] = traversal->bounds;
	/* Postorder: children before their parent, so a parent merges finished boxes. */
	for (uint32_t n = sg_scene_leftmost_leaf(scene, SG_ROOT_INDEX);;) {
		if (scene->kind[n] == SG_NODE_MODEL) {
			model_box(scene, n, bounds[n]);
		} else {
			empty_box(bounds[n]);
			for (uint32_t c = scene->links[n].first_child; c; c = scene->links[c].next_sibling) {
				if (box_is_empty(bounds[c]))
					continue;
				glm_vec3_minv(bounds[n][0], bounds[c][0], bounds[n][0]);
				glm_vec3_maxv(bounds[n][1], bounds[c][1], bounds[n][1]);
			}
		}
		if (n == SG_ROOT_INDEX)
			break;
		uint32_t next = scene->links[n].next_sibling;
		n = next ? sg_scene_leftmost_leaf(scene, next) : scene->links[n].parent;
	}
	traversal->bounds_valid = true;
	traversal->bounds_scene = scene->id;
	traversal->bounds_structure = scene->structure_version;
	traversal->bounds_transform = scene->transform_version;
	return SG_OK;
}

/* True when all 8 corners lie outside one clip plane (-w <= x, y, z <= w). */
static bool box_outside(const mat4 view_projection, vec3 box[2])
{
	if (box_is_empty(box))
		return true;
	int outside[6] = {0};
	for (int corner = 0; corner < 8; corner++) {
		vec4 p = {box[corner & 1][0], box[(corner >> 1) & 1][1], box[corner >> 2][2], 1.0f};
		vec4 c;
		glm_mat4_mulv((vec4 *)view_projection, p, c);
		for (int axis = 0; axis < 3; axis++) {
			outside[axis * 2] += c[axis] < -c[3];
			outside[axis * 2 + 1] += c[axis] > c[3];
		}
	}
	for (int plane = 0; plane < 6; plane++)
		if (outside[plane] == 8)
			return true;
	return false;
}

sg_result sg_cull(struct sg_traversal *traversal, const struct sg_scene *scene,
                  const mat4 view_projection)
{
	sg_result result;
	if (!traversal->bounds_valid || traversal->bounds_scene != scene->id ||
	    traversal->bounds_structure != scene->structure_version ||
	    traversal->bounds_transform != scene->transform_version)
		if ((result = compute_bounds(traversal, scene)))
			return result;
	struct sg_draw_list *list = &traversal->visible;
	list->count = 0;
	list->serial = ++traversal->next_serial;
	for (uint32_t n = SG_ROOT_INDEX; n;) {
		/* hidden: as if detached, neither visited nor checked */
		if (scene->flags[n] & SG_NODE_HIDDEN) {
			n = sg_scene_skip_subtree(scene, n);
			continue;
		}
		bool model = scene->kind[n] == SG_NODE_MODEL;
		bool outside = box_outside(view_projection, traversal->bounds[n]);
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
	return SG_OK;
}
