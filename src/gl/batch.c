/* Sorting the draw list into batches of one texture and one mesh, and the
 * per-instance data those batches read. */
#include "batch.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"
#include "check.h"
#include "depth.h"

#define FLOATS_PER_INSTANCE 18 /* mat4, depth, colour (4 bytes) */

/* A draw's key in one counting pass: its mesh, or its texture with no texture
 * last (key_count - 1); the two passes give sg_gl_sort_rank's order. */
static inline uint32_t sort_key(const struct sg_draw *d, bool by_texture, uint32_t key_count)
{
	if (!by_texture)
		return d->mesh;
	return d->texture == SG_DRAW_NO_TEXTURE ? key_count - 1 : d->texture;
}

/* One stable counting pass: order[0, count) into out by key, keys below
 * key_count (counts has key_count + 1 entries). */
static void count_sort(const uint32_t *order, uint32_t *out, size_t count,
                       const struct sg_draw *draws, bool by_texture, uint32_t key_count,
                       uint32_t *counts)
{
	memset(counts, 0, ((size_t)key_count + 1) * sizeof(*counts));
	for (size_t i = 0; i < count; i++)
		counts[sort_key(&draws[order[i]], by_texture, key_count) + 1]++;
	for (uint32_t k = 0; k < key_count; k++)
		counts[k + 1] += counts[k];
	for (size_t i = 0; i < count; i++)
		out[counts[sort_key(&draws[order[i]], by_texture, key_count)]++] = order[i];
}

/* Sorts order[0, count) (indices into draws) by (texture, mesh, order on
 * entry): by mesh, then stably by texture. O(draws + resources), where a
 * comparison sort of a whole tree's draws cost more than the frame's other
 * CPU work each time the drawn list changed (a visibility toggle). */
sg_result sg_gl_sort_draws(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                           const struct sg_draw *draws, uint32_t *order, size_t count)
{
	uint32_t textures = scene->texture_pool.used + 1; /* the last: no texture */
	uint32_t meshes = scene->mesh_pool.used;
	size_t keys = (textures > meshes ? textures : meshes) + 1;
	if (!sg_grow_array((void **)&gl->sort_scratch, &gl->sort_capacity, count, sizeof(uint32_t)) ||
	    !sg_grow_array((void **)&gl->sort_counts, &gl->count_capacity, keys, sizeof(uint32_t)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory sorting %zu draws", count);
	count_sort(order, gl->sort_scratch, count, draws, false, meshes, gl->sort_counts);
	count_sort(gl->sort_scratch, order, count, draws, true, textures, gl->sort_counts);
	return SG_OK;
}

sg_result sg_gl_batch_order(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                            const struct sg_draw_list *list, const struct sg_paint *paint)
{
	if (gl->order_serial == list->serial && gl->order_classes == paint->classes && gl->order)
		return SG_OK;
	if (!sg_grow_array((void **)&gl->order, &gl->order_capacity, list->count, sizeof(uint32_t)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory sorting %zu draws", list->count);
	size_t translucent_count = 0;
	if (paint->translucent_count)
		for (size_t i = 0; i < list->count; i++)
			translucent_count += paint->translucent[sg_draw_origin(list, i)];
	gl->reordered = list->count <= SG_GL_MAX_REORDER;
	gl->blend_all = !gl->reordered && translucent_count;
	if (!gl->reordered || !translucent_count) {
		for (size_t i = 0; i < list->count; i++)
			gl->order[i] = (uint32_t)i;
		gl->opaque_count = list->count;
	} else {
		/* Opaque draws first (sorted below), then the translucent ones in
		 * traversal order: blending needs what is below drawn first. */
		size_t opaque = 0, translucent = list->count - translucent_count;
		for (size_t i = 0; i < list->count; i++)
			gl->order[paint->translucent[sg_draw_origin(list, i)] ? translucent++ : opaque++] =
				(uint32_t)i;
		gl->opaque_count = opaque;
	}
	sg_result result;
	if (gl->reordered && gl->opaque_count > 1 &&
	    (result = sg_gl_sort_draws(gl, scene, list->draws, gl->order, gl->opaque_count))) {
		gl->order_serial = 0; /* sorted again next time */
		return result;
	}
	gl->order_serial = list->serial;
	gl->order_classes = paint->classes;
	gl->order_version++;
	gl->instances_valid = false;
	gl->blend.valid = false;
	return SG_OK;
}

sg_result sg_gl_batch_instances(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                                const struct sg_draw_list *list, const struct sg_paint *paint,
                                mat4 view_projection)
{
	if (gl->instances_valid && gl->instance_serial == list->serial &&
	    gl->instance_paint == paint->serial &&
	    gl->instance_scene == scene->id && gl->instance_transform == scene->transform_version &&
	    memcmp(gl->instance_view_projection, view_projection, sizeof(mat4)) == 0)
		return SG_OK; /* nothing moved: the buffer already holds this frame */
	size_t floats = list->count * FLOATS_PER_INSTANCE;
	if (gl->instance_capacity < floats) {
		float *instances = sg_realloc_array(gl->instances, floats, sizeof(float));
		if (!instances)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu instances", list->count);
		gl->instances = instances;
		gl->instance_capacity = floats;
	}
	for (size_t k = 0; k < list->count; k++) {
		uint32_t i = gl->order[k];
		float *instance = gl->instances + k * FLOATS_PER_INSTANCE;
		mat4 matrix; /* aligned for cglm's SIMD; instances are packed at 68 bytes */
		sg_scene_model_matrix(scene, list->draws[i].node, view_projection, matrix);
		memcpy(instance, matrix, sizeof(matrix));
		instance[16] = sg_gl_draw_depth(gl->reordered, i, list->count);
		memcpy(&instance[17], &paint->colors[sg_draw_origin(list, i)], sizeof(uint32_t));
	}
	glBindBuffer(GL_ARRAY_BUFFER, gl->instance_buffer);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(floats * sizeof(float)), gl->instances,
	             GL_STREAM_DRAW);
	sg_result result = sg_gl_check("uploading instance data");
	if (result)
		return result;
	gl->instances_valid = true;
	gl->instance_serial = list->serial;
	gl->instance_scene = scene->id;
	gl->instance_paint = paint->serial;
	gl->instance_transform = scene->transform_version;
	glm_mat4_copy(view_projection, gl->instance_view_projection);
	return SG_OK;
}

void sg_gl_batch_point_instances(const struct sg_gl_drawer *gl, size_t first)
{
	const GLsizei stride = FLOATS_PER_INSTANCE * sizeof(float);
	const char *base = (const char *)(first * (size_t)stride);
	glBindBuffer(GL_ARRAY_BUFFER, gl->instance_buffer);
	for (GLuint column = 0; column < 4; column++) {
		glEnableVertexAttribArray(2 + column);
		glVertexAttribPointer(2 + column, 4, GL_FLOAT, GL_FALSE, stride,
		                      base + column * 4 * sizeof(float));
		glVertexAttribDivisor(2 + column, 1);
	}
	glEnableVertexAttribArray(6);
	glVertexAttribPointer(6, 1, GL_FLOAT, GL_FALSE, stride, base + 16 * sizeof(float));
	glVertexAttribDivisor(6, 1);
	glEnableVertexAttribArray(7);
	glVertexAttribPointer(7, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, base + 17 * sizeof(float));
	glVertexAttribDivisor(7, 1);
}
