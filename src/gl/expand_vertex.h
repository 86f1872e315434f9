/* Internal: the expanded path's vertex, shared by the kept buffers and the
 * streamed chunks (expand.c) and the streamed opaque batches (expand_bins.c). */
#ifndef SG_GL_EXPAND_VERTEX_H
#define SG_GL_EXPAND_VERTEX_H

#include <string.h>

#include "drawer.h"

#define FLOATS_PER_VERTEX 8 /* clip-space position 4, uv 2, depth 1, colour (4 bytes) 1 */
#define VERTEX_BYTES (FLOATS_PER_VERTEX * sizeof(float))

/* The vertices of one draw, transformed by matrix to clip space, with its
 * depth and colour. */
static inline void sg_gl_write_vertices(float *v, const struct sg_mesh_data *m, mat4 matrix,
                                        float depth, uint32_t color)
{
	for (uint32_t j = 0; j < m->vertex_count; j++, v += FLOATS_PER_VERTEX) {
		const float *p = m->vertices[j].position;
		for (int r = 0; r < 4; r++)
			v[r] = matrix[0][r] * p[0] + matrix[1][r] * p[1] + matrix[2][r] * p[2] +
			       matrix[3][r];
		memcpy(v + 4, m->vertices[j].uv, 2 * sizeof(float));
		v[6] = depth;
		memcpy(v + 7, &color, sizeof(uint32_t));
	}
}

/* Indices [first, first + count) of a draw of mesh m (its vertices in
 * order when it has none) at ix, offset by base, the draw's first vertex. */
static inline void sg_gl_write_indices(uint32_t *ix, const struct sg_mesh_data *m, uint32_t first,
                                       uint32_t count, uint32_t base)
{
	for (uint32_t j = 0; j < count; j++)
		ix[j] = base + (m->indices ? m->indices[first + j] : first + j);
}

/* Uploads vertices and indices as the expanded buffers' whole contents (fresh
 * storage each time, orphaning: a GPU may still read the last), leaving the
 * vertex array bound; the kept buffers' contents are then gone. what names
 * them in a GL error. */
sg_result sg_gl_expand_upload(struct sg_gl_expanded *x, const float *vertices,
                              size_t vertex_count, const uint32_t *indices, size_t index_count,
                              const char *what);
/* Makes *indices (of *capacity) hold at least needed indices; its contents
 * are not kept. what names the staging in the message. */
sg_result sg_gl_index_room(uint32_t **indices, size_t *capacity, size_t needed, const char *what);
/* The GL objects of the expanded path, made at first use. */
void sg_gl_expand_buffers(struct sg_gl_expanded *x);

#endif
