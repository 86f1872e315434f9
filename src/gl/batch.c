/* Sorting the draw list into batches of one texture and one mesh, and the
 * per-instance data those batches read. */
#include "batch.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
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
sg_result sg_gl_sort_draws(struct sg_gl_sort *sort, const struct sg_scene_versions *versions,
                           const struct sg_draw *draws, uint32_t *order, size_t count)
{
	uint32_t textures = versions->texture_slots + 1; /* the last: no texture */
	uint32_t meshes = versions->mesh_slots;
	size_t keys = (textures > meshes ? textures : meshes) + 1;
	if (!sg_grow_array((void **)&sort->scratch, &sort->scratch_capacity, count,
	                   sizeof(uint32_t)) ||
	    !sg_grow_array((void **)&sort->counts, &sort->count_capacity, keys, sizeof(uint32_t)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory sorting %zu draws", count);
	count_sort(order, sort->scratch, count, draws, false, meshes, sort->counts);
	count_sort(sort->scratch, order, count, draws, true, textures, sort->counts);
	return SG_OK;
}

sg_result sg_gl_batch_order(struct sg_gl_order *order, struct sg_gl_sort *sort,
                            const struct sg_gl_input *in)
{
	const struct sg_draw_list *list = in->list;
	const struct sg_paint *paint = in->paint;
	if (order->serial == list->serial && order->classes == paint->classes && order->draws)
		return SG_OK;
	if (!sg_grow_array((void **)&order->draws, &order->capacity, list->count, sizeof(uint32_t)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory sorting %zu draws", list->count);
	size_t translucent_count = 0;
	if (paint->translucent_count)
		for (size_t i = 0; i < list->count; i++)
			translucent_count += paint->translucent[sg_draw_origin(list, i)];
	order->reordered = list->count <= SG_GL_MAX_REORDER;
	order->blend_all = !order->reordered && translucent_count;
	if (!order->reordered || !translucent_count) {
		for (size_t i = 0; i < list->count; i++)
			order->draws[i] = (uint32_t)i;
		order->opaque_count = list->count;
	} else {
		/* Opaque draws first (sorted below), then the translucent ones in
		 * traversal order: blending needs what is below drawn first. */
		size_t opaque = 0, translucent = list->count - translucent_count;
		for (size_t i = 0; i < list->count; i++) {
			bool blended = paint->translucent[sg_draw_origin(list, i)];
			order->draws[blended ? translucent++ : opaque++] = (uint32_t)i;
		}
		order->opaque_count = opaque;
	}
	/* Caches of the order (instances, translucent batches, indices, the
	 * depth decision) compare its version. */
	order->version++;
	sg_result result;
	if (order->reordered && order->opaque_count > 1 &&
	    (result = sg_gl_sort_draws(sort, &in->versions, list->draws, order->draws,
	                               order->opaque_count))) {
		order->serial = 0; /* sorted again next time */
		return result;
	}
	order->serial = list->serial;
	order->classes = paint->classes;
	return SG_OK;
}

sg_result sg_gl_batch_instances(struct sg_gl_instances *instances, const struct sg_gl_order *order,
                                const struct sg_gl_input *in)
{
	const struct sg_draw_list *list = in->list;
	const struct sg_paint *paint = in->paint;
	struct sg_gl_instances *x = instances;
	if (x->valid && x->serial == list->serial && x->paint == paint->serial &&
	    x->order_version == order->version && x->scene == in->versions.scene &&
	    x->transform == in->versions.transform &&
	    memcmp(x->view_projection, in->view_projection, sizeof(mat4)) == 0)
		return SG_OK; /* nothing moved: the buffer already holds this frame */
	size_t floats = list->count * FLOATS_PER_INSTANCE;
	if (x->capacity < floats) {
		float *data = sg_realloc_array(x->data, floats, sizeof(float));
		if (!data)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu instances", list->count);
		x->data = data;
		x->capacity = floats;
	}
	for (size_t k = 0; k < list->count; k++) {
		uint32_t i = order->draws[k];
		float *instance = x->data + k * FLOATS_PER_INSTANCE;
		mat4 matrix; /* aligned for cglm's SIMD; instances are packed at 68 bytes */
		sg_draw_model_matrix(in->scene, list, list->draws[i].node, in->view_projection, matrix);
		memcpy(instance, matrix, sizeof(matrix));
		instance[16] = sg_gl_draw_depth(order->reordered, i, list->count);
		memcpy(&instance[17], &paint->colors[sg_draw_origin(list, i)], sizeof(uint32_t));
	}
	glBindBuffer(GL_ARRAY_BUFFER, x->buffer);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(floats * sizeof(float)), x->data,
	             GL_STREAM_DRAW);
	sg_result result = sg_gl_check("uploading instance data");
	if (result)
		return result;
	x->valid = true;
	x->serial = list->serial;
	x->scene = in->versions.scene;
	x->paint = paint->serial;
	x->order_version = order->version;
	x->transform = in->versions.transform;
	glm_mat4_copy(in->view_projection, x->view_projection);
	return SG_OK;
}

void sg_gl_batch_point_instances(const struct sg_gl_instances *instances, size_t first)
{
	const GLsizei stride = FLOATS_PER_INSTANCE * sizeof(float);
	const char *base = (const char *)(first * (size_t)stride);
	glBindBuffer(GL_ARRAY_BUFFER, instances->buffer);
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

void sg_gl_batch_finish(struct sg_gl_order *order, struct sg_gl_sort *sort,
                        struct sg_gl_instances *instances)
{
	if (instances->buffer)
		glDeleteBuffers(1, &instances->buffer);
	sg_free(instances->data);
	sg_free(order->draws);
	sg_free(sort->scratch);
	sg_free(sort->counts);
	*instances = (struct sg_gl_instances){0};
	*order = (struct sg_gl_order){0};
	*sort = (struct sg_gl_sort){0};
}
