/* World-space bounding boxes of every attached subtree, computed bottom-up in
 * one stackless postorder pass and kept by their reader until the scene changes
 * (structure or any matrix): a static scene seen through a moving camera, or
 * picked many times, pays for them once. Boxes include hidden subtrees, so
 * that showing and hiding do not make them stale: a box may be larger than
 * what is drawn, never smaller. */
#include <float.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"
#include "bounds.h"

static void empty_box(vec3 box[2])
{
	glm_vec3_fill(box[0], FLT_MAX);
	glm_vec3_fill(box[1], -FLT_MAX);
}

bool sg_box_is_empty(vec3 box[2])
{
	return box[0][0] > box[1][0];
}

/* The box of a model: its mesh's box through its world matrix. */
static void model_box(const struct sg_world *w, const struct sg_scene *scene, uint32_t n,
                      vec3 box[2])
{
	const struct sg_mesh_data *mesh = sg_scene_model_mesh(scene, n);
	empty_box(box);
	if (!mesh)
		return; /* reported when the walk reaches it */
	mat4 world;
	sg_world_model(w, scene, n, world);
	for (int corner = 0; corner < 8; corner++) {
		vec4 p = {mesh->bounds[corner & 1][0], mesh->bounds[(corner >> 1) & 1][1],
		          mesh->bounds[corner >> 2][2], 1.0f};
		vec4 w;
		glm_mat4_mulv(world, p, w);
		glm_vec3_minv(box[0], w, box[0]);
		glm_vec3_maxv(box[1], w, box[1]);
	}
}

void sg_bounds_finish(struct sg_bounds *bounds)
{
	sg_free(bounds->boxes);
	*bounds = (struct sg_bounds){0};
}

sg_result sg_bounds_update(struct sg_bounds *b, struct sg_world *w, const struct sg_scene *scene)
{
	if (sg_world_update(w, scene) == SIZE_MAX)
		return SG_ERR_NO_MEMORY;
	if (b->valid && b->scene == scene->id && b->structure == scene->structure_version &&
	    b->transform == scene->transform_version)
		return SG_OK;
	b->valid = false;
	if (b->capacity < scene->node_pool.used) {
		void *p = sg_realloc_array(b->boxes, scene->node_pool.used, sizeof(vec3[2]));
		if (!p)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %u bounding boxes",
			               scene->node_pool.used);
		b->boxes = p;
		b->capacity = scene->node_pool.used;
	}
	vec3(*bounds)[2] = b->boxes;
	/* Postorder: children before their parent, so a parent merges finished boxes. */
	for (uint32_t n = sg_scene_leftmost_leaf(scene, SG_ROOT_INDEX);;) {
		if (scene->kind[n] == SG_NODE_MODEL) {
			model_box(w, scene, n, bounds[n]);
		} else {
			empty_box(bounds[n]);
			for (uint32_t c = sg_scene_first_child(scene, n); c; c = scene->links[c].next_sibling) {
				if (sg_box_is_empty(bounds[c]))
					continue;
				glm_vec3_minv(bounds[n][0], bounds[c][0], bounds[n][0]);
				glm_vec3_maxv(bounds[n][1], bounds[c][1], bounds[n][1]);
			}
		}
		if (n == SG_ROOT_INDEX)
			break;
		uint32_t next = scene->links[n].next_sibling;
		n = next ? sg_scene_leftmost_leaf(scene, next) : scene->parent[n];
	}
	b->valid = true;
	b->scene = scene->id;
	b->structure = scene->structure_version;
	b->transform = scene->transform_version;
	return SG_OK;
}

