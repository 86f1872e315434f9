/* Internal: world matrices and world-space boxes, kept by their reader (each
 * renderer's traversal, and the picks) rather than by the scene, so that
 * reading a scene never writes it: several renderers may draw one scene at
 * once, each bringing its own copy up to date from the scene's journal. */
#ifndef SG_TRAVERSE_WORLD_H
#define SG_TRAVERSE_WORLD_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../graph/scene_internal.h"

/* The products of local matrices from the top down, for the groups and
 * transforms of one scene, by matrix slot (scene->payload); a model's is made
 * when needed from its parent's (sg_world_model). */
struct sg_world {
	mat4 *matrices;
	uint32_t capacity;
	/* What they are current for: the scene, its structure, and the journal
	 * read up to (matrix edits after it are not applied yet). */
	uint32_t scene;
	uint64_t structure, journal_read;
	bool valid;
	/* Scratch, per node slot: updated by this pass already (repeats of a
	 * node in the journal are skipped). All 0 between updates. */
	uint8_t *done;
	size_t done_capacity;
};

/* World-space boxes (min, max) of every attached subtree, hidden ones
 * included, for culling and picking (bounds.c), by node slot; valid for the
 * scene, structure and transform versions they were computed at. */
struct sg_bounds {
	vec3 (*boxes)[2];
	uint32_t capacity;
	uint32_t scene;
	uint64_t structure, transform;
	bool valid;
};

void sg_world_finish(struct sg_world *world);
void sg_bounds_finish(struct sg_bounds *bounds);

/* Brings world up to date with scene: only the subtrees of the matrices
 * edited since its last update, the whole tree after a structural edit (or
 * when the journal lost entries). Reads the scene alone. Returns the number
 * of matrices recomputed, or SIZE_MAX when out of memory (world is then
 * invalid, with a message set). */
size_t sg_world_update(struct sg_world *world, const struct sg_scene *scene);

/* The world matrix of group or transform index. */
static inline vec4 *sg_world_node(const struct sg_world *world, const struct sg_scene *scene,
                                  uint32_t index)
{
	return world->matrices[scene->payload[index]];
}

/* The world matrix of model n: its parent's world times the translation of
 * its position, a model's local matrix being only ever that. Models keep no
 * world matrix of their own, which the update would write for every one
 * (half a tree's nodes where each leaf holds a model): the draws, boxes and
 * picks that need it make it here, after the update, from the parent's. */
static inline void sg_world_model(const struct sg_world *world, const struct sg_scene *scene,
                                  uint32_t n, mat4 out)
{
	uint32_t parent = scene->parent[n];
	const float *p = sg_scene_model(scene, n)->position;
	if (!parent) { /* detached: drawn by nobody */
		glm_translate_make(out, (float *)p);
		return;
	}
	vec4 *pw = sg_world_node(world, scene, parent), column;
	glm_mat4_mulv(pw, (vec4){p[0], p[1], p[2], 1.0f}, column);
	glm_mat4_copy(pw, out);
	glm_vec4_copy(column, out[3]);
}

/* left (a camera's view-projection) times the world matrix of model n: the
 * matrix that takes its mesh to clip space. */
static inline void sg_world_model_matrix(const struct sg_world *world,
                                         const struct sg_scene *scene, uint32_t n, mat4 left,
                                         mat4 out)
{
	mat4 m;
	sg_world_model(world, scene, n, m);
	glm_mat4_mul(left, m, out);
}

#endif
