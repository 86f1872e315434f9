/* Sorting the draw list into batches of one texture and one mesh, and the
 * per-instance data those batches read. */
#include "batch.h"

#include <stdlib.h>
#include <string.h>

#include "../graph/alloc.h"
#include "../graph/error.h"
#include "../graph/scene_internal.h"
#include "check.h"
#include "depth.h"

#define FLOATS_PER_INSTANCE 18 /* mat4, depth, colour (4 bytes) */

static _Thread_local const struct sg_draw *sorting; /* qsort has no context argument */

static int by_state(const void *a, const void *b)
{
	const struct sg_draw *x = &sorting[*(const uint32_t *)a], *y = &sorting[*(const uint32_t *)b];
	if (x->texture != y->texture)
		return x->texture < y->texture ? -1 : 1;
	if (x->mesh != y->mesh)
		return x->mesh < y->mesh ? -1 : 1;
	/* then traversal order, so equal states keep it (qsort is not stable) */
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	return i < j ? -1 : i > j;
}

sg_result sg_gl_batch_order(struct sg_gl_renderer *gl, const struct sg_draw_list *list,
                            const struct sg_paint *paint)
{
	if (gl->order_serial == list->serial && gl->order_classes == paint->classes && gl->order)
		return SG_OK;
	if (gl->order_capacity < list->count) {
		uint32_t *order = sg_realloc_array(gl->order, list->count, sizeof(*order));
		if (!order)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory sorting %zu draws", list->count);
		gl->order = order;
		gl->order_capacity = list->count;
	}
	gl->reordered = list->count <= SG_GL_MAX_REORDER;
	gl->blend_all = !gl->reordered && paint->translucent_count;
	if (!gl->reordered || !paint->translucent_count) {
		for (size_t i = 0; i < list->count; i++)
			gl->order[i] = (uint32_t)i;
		gl->opaque_count = list->count;
	} else {
		/* Opaque draws first (sorted below), then the translucent ones in
		 * traversal order: blending needs what is below drawn first. */
		size_t opaque = 0, translucent = list->count - paint->translucent_count;
		for (size_t i = 0; i < list->count; i++)
			gl->order[paint->translucent[i] ? translucent++ : opaque++] = (uint32_t)i;
		gl->opaque_count = opaque;
	}
	if (gl->reordered && gl->opaque_count > 1) {
		sorting = list->draws;
		qsort(gl->order, gl->opaque_count, sizeof(*gl->order), by_state);
	}
	gl->order_serial = list->serial;
	gl->order_classes = paint->classes;
	gl->instances_valid = false;
	gl->expanded.valid = false;
	gl->blend.valid = false;
	return SG_OK;
}

sg_result sg_gl_batch_instances(struct sg_gl_renderer *gl, const struct sg_scene *scene,
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
		glm_mat4_mul(view_projection, scene->world[list->draws[i].node], matrix);
		memcpy(instance, matrix, sizeof(matrix));
		instance[16] = sg_gl_draw_depth(gl->reordered, i, list->count);
		memcpy(&instance[17], &paint->colors[i], sizeof(uint32_t));
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

void sg_gl_batch_point_instances(const struct sg_gl_renderer *gl, size_t first)
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
