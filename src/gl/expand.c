/* Expanded batches: every model's vertices transformed on the CPU into one
 * vertex buffer, so that a batch of one texture is one plain indexed draw
 * call. For small meshes on llvmpipe this beats instancing, whose per-instance
 * set-up in the draw module dominates. The vertex shader is the same: its
 * Matrix attribute reads an identity from a buffer of its own (see
 * sg_gl_expand_buffers). */
#include "expand.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "batch.h"
#include "check.h"
#include "depth.h"
#include "expand_vertex.h"
#include "stream.h"

/* Indices staged per reservation: a mesh may have any number. */
#define INDEX_BLOCK 1024u
/* Streamed drawing (sg_gl_expand_streams): above 16 MiB of vertices (131072
 * quads) a list is drawn a chunk of 32768 vertices (1 MiB) at a time. */
#define STREAM_ABOVE_BYTES ((size_t)16 << 20)
#define CHUNK_VERTICES ((size_t)32768)

bool sg_gl_expand_fits(struct sg_gl_expanded *x, const struct sg_gl_input *in)
{
	const struct sg_draw_list *source = sg_draw_source(in->list);
	if (x->fits_serial == source->serial && x->fits_scene == in->versions.scene)
		return x->fits; /* meshes are immutable: the same list has the same answer */
	x->fits = true;
	x->source_vertices = x->most_indices = 0;
	for (size_t i = 0; i < source->count && x->fits; i++) {
		const struct sg_mesh_data *m = sg_scene_mesh_slot(in->scene, source->draws[i].mesh);
		size_t indices = sg_mesh_draw_count(m);
		x->fits = m->vertex_count <= SG_GL_EXPAND_MAX_VERTICES;
		x->source_vertices += m->vertex_count;
		x->most_indices = indices > x->most_indices ? indices : x->most_indices;
	}
	x->fits_serial = source->serial;
	x->fits_scene = in->versions.scene;
	return x->fits;
}

void sg_gl_expand_buffers(struct sg_gl_expanded *x)
{
	if (x->vertex_array)
		return;
	glGenVertexArrays(1, &x->vertex_array);
	glGenBuffers(1, &x->vertex_buffer);
	glGenBuffers(1, &x->index_buffer);
	glGenBuffers(1, &x->identity_buffer);
	glBindVertexArray(x->vertex_array);
	/* Matrix (locations 2 to 5): an identity, the vertices being in clip
	 * space already, as a per-instance array of one instance rather than as
	 * generic values (glVertexAttrib4f). Mesa keeps those in a vertex buffer
	 * it makes at the first call and uploads them into a stream buffer of its
	 * own at each draw: on llvmpipe, buffers made and zero-filled, and page
	 * faults, even in a process as small as three-rects (bench/README.md). */
	static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
	glBindBuffer(GL_ARRAY_BUFFER, x->identity_buffer);
	glBufferData(GL_ARRAY_BUFFER, sizeof(identity), identity, GL_STATIC_DRAW);
	for (GLuint column = 0; column < 4; column++) {
		glEnableVertexAttribArray(2 + column);
		glVertexAttribPointer(2 + column, 4, GL_FLOAT, GL_FALSE, sizeof(identity),
		                      (const void *)(column * 4 * sizeof(float)));
		glVertexAttribDivisor(2 + column, 1);
	}
	glBindBuffer(GL_ARRAY_BUFFER, x->vertex_buffer);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, x->index_buffer);
	const GLsizei stride = FLOATS_PER_VERTEX * sizeof(float);
	static const struct {
		GLuint location;
		GLint size;
		GLenum type;
		size_t offset;
	} attributes[] = {{0, 4, GL_FLOAT, 0},
	                  {1, 2, GL_FLOAT, 4},
	                  {6, 1, GL_FLOAT, 6},
	                  {7, 4, GL_UNSIGNED_BYTE, 7}};
	for (size_t a = 0; a < sizeof(attributes) / sizeof(attributes[0]); a++) {
		glEnableVertexAttribArray(attributes[a].location);
		glVertexAttribPointer(attributes[a].location, attributes[a].size, attributes[a].type,
		                      attributes[a].type == GL_UNSIGNED_BYTE, stride,
		                      (const void *)(attributes[a].offset * sizeof(float)));
	}
	glBindVertexArray(0);
}

/* Sources of up to this many draws have their vertices laid out sorted. */
#define PLACE_SORTED_MAX 16384u

/* x->placement (where placement_sorted): source's draws sorted as its
 * batches are drawn (texture, mesh, source order), so that each batch's
 * indices climb through one stretch of the vertex buffer. In source order a
 * batch of one texture out of eight interleaved ones spans the whole buffer,
 * and llvmpipe's vertex fetch takes such scattered indices at a cost
 * (flat-1000 repainted whole is faster sorted). Larger sources keep source
 * order: there the transform, done in sorted order, jumps through scene
 * arrays larger than the caches, and costs more than llvmpipe gives back
 * (tree-32768). The figures are in bench/README.md. */
static sg_result place_vertices(struct sg_gl_expanded *x, struct sg_gl_sort *sort,
                                const struct sg_scene_versions *versions,
                                const struct sg_draw_list *source)
{
	x->placement_sorted = source->count <= PLACE_SORTED_MAX;
	if (!x->placement_sorted || (x->placement && x->placement_serial == source->serial &&
	                             x->placement_scene == versions->scene))
		return SG_OK;
	if (!sg_grow_array((void **)&x->placement, &x->placement_capacity, source->count,
	                   sizeof(uint32_t)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory expanding %zu draws", source->count);
	for (size_t i = 0; i < source->count; i++)
		x->placement[i] = (uint32_t)i;
	sg_result result =
	    sg_gl_sort_draws(sort, versions, source->draws, x->placement, source->count);
	x->placement_serial = result ? 0 : source->serial;
	x->placement_scene = versions->scene;
	return result;
}

/* Every vertex of source's draws, in x->placement's order, transformed to clip
 * space with its draw's depth and colour; vertex_first[j] is draw j's first vertex.
 * Kept while the source, the paint, the transforms and the view stay: a
 * visibility toggle (a new list cut from the same source) only changes the
 * index buffer. A transient list (a damage repaint's few draws) is expanded
 * alone, so that a frame that moved one model does not transform the whole
 * source again; its draws keep their source's depths and colours. */
static sg_result expand_vertices(struct sg_gl_expanded *x, struct sg_gl_sort *sort, bool reordered,
                                 const struct sg_gl_input *in)
{
	const struct sg_scene *scene = in->scene;
	const struct sg_draw_list *list = in->list;
	const struct sg_paint *paint = in->paint;
	vec4 *view_projection = in->view_projection;
	const struct sg_draw_list *source = list->transient ? list : sg_draw_source(list);
	size_t depth_count = sg_draw_source(list)->count;
	if (x->vertices_valid && x->vertex_serial == source->serial && x->paint == paint->serial &&
	    x->scene == in->versions.scene && x->transform == in->versions.transform &&
	    x->reordered == reordered &&
	    memcmp(x->view_projection, view_projection, sizeof(mat4)) == 0)
		return SG_OK;
	x->vertices_valid = false;
	size_t vertices = 0;
	for (size_t i = 0; i < source->count; i++)
		vertices += sg_scene_mesh_slot(scene, source->draws[i].mesh)->vertex_count;
	if (vertices > UINT32_MAX ||
	    !sg_grow_array((void **)&x->vertex_first, &x->first_capacity, source->count,
	                   sizeof(uint32_t)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory expanding %zu draws", source->count);
	sg_result result = place_vertices(x, sort, &in->versions, source);
	if (result)
		return result;
	sg_gl_expand_buffers(x);
	result = sg_gl_stream_begin(&x->stream, GL_ARRAY_BUFFER, x->vertex_buffer,
	                            vertices * VERTEX_BYTES, &x->vertex_bytes);
	if (result)
		return result;
	uint32_t base = 0;
	for (size_t k = 0; k < source->count; k++) {
		uint32_t i = x->placement_sorted ? x->placement[k] : (uint32_t)k;
		const struct sg_draw *draw = &source->draws[i];
		const struct sg_mesh_data *m = sg_scene_mesh_slot(scene, draw->mesh);
		x->vertex_first[i] = base;
		mat4 matrix;
		sg_draw_model_matrix(scene, list, draw->node, view_projection, matrix);
		size_t origin = list->transient ? sg_draw_origin(list, i) : i;
		float depth = sg_gl_draw_depth(reordered, origin, depth_count);
		float *v = sg_gl_stream_reserve(&x->stream, m->vertex_count * VERTEX_BYTES);
		sg_gl_write_vertices(v, m, matrix, depth, paint->colors[origin]);
		base += m->vertex_count;
	}
	if ((result = sg_gl_stream_end(&x->stream, "uploading expanded vertices")))
		return result;
	x->vertices_valid = true;
	x->vertex_serial = source->serial;
	x->paint = paint->serial;
	x->scene = in->versions.scene;
	x->transform = in->versions.transform;
	x->reordered = reordered;
	glm_mat4_copy(view_projection, x->view_projection);
	x->vertex_builds++;
	return SG_OK;
}

/* The indices of the list's draws in order, and its runs of one texture and
 * pass; kept while the order and the vertices' layout stay. */
static sg_result expand_indices(struct sg_gl_expanded *x, const struct sg_gl_order *order,
                                const struct sg_gl_input *in)
{
	const struct sg_draw_list *list = in->list;
	if (x->indices_valid && x->index_order == order->version &&
	    x->index_vertex_serial == x->vertex_serial && x->index_scene == in->versions.scene)
		return SG_OK;
	x->indices_valid = false;
	size_t indices = 0;
	for (size_t i = 0; i < list->count; i++) {
		indices += sg_mesh_draw_count(sg_scene_mesh_slot(in->scene, list->draws[i].mesh));
	}
	x->run_count = 0;
	glBindVertexArray(x->vertex_array);
	sg_result result = sg_gl_stream_begin(&x->stream, GL_ELEMENT_ARRAY_BUFFER, x->index_buffer,
	                                      indices * sizeof(uint32_t), &x->index_bytes);
	size_t at = 0; /* indices written */
	for (size_t k = 0; k < list->count && !result; k++) {
		uint32_t i = order->draws[k];
		const struct sg_draw *draw = &list->draws[i];
		const struct sg_mesh_data *m = sg_scene_mesh_slot(in->scene, draw->mesh);
		/* a run ends where the texture changes, and where the blended draws begin */
		if (!x->run_count || x->runs[x->run_count - 1].texture != draw->texture ||
		    k == order->opaque_count) {
			if (!sg_grow_array((void **)&x->runs, &x->run_capacity, x->run_count + 1,
			                   sizeof(*x->runs))) {
				result = sg_fail(SG_ERR_NO_MEMORY, "out of memory expanding %zu draws",
				                 list->count);
				break;
			}
			x->runs[x->run_count++] =
			    (struct sg_gl_run){draw->texture, at, 0, k >= order->opaque_count};
		}
		uint32_t base = x->vertex_first[list->transient ? i : sg_draw_origin(list, i)];
		uint32_t count = sg_mesh_draw_count(m);
		for (uint32_t j = 0; j < count;) {
			uint32_t block = count - j < INDEX_BLOCK ? count - j : INDEX_BLOCK;
			uint32_t *ix = sg_gl_stream_reserve(&x->stream, block * sizeof(uint32_t));
			sg_gl_write_indices(ix, m, j, block, base);
			j += block;
		}
		x->runs[x->run_count - 1].count += count;
		at += count;
	}
	sg_result ended = sg_gl_stream_end(&x->stream, "uploading expanded indices");
	glBindVertexArray(0);
	if (result || (result = ended))
		return result;
	x->indices_valid = true;
	x->index_order = order->version;
	x->index_vertex_serial = x->vertex_serial;
	x->index_scene = in->versions.scene;
	return SG_OK;
}

sg_result sg_gl_expand(struct sg_gl_expanded *expanded, struct sg_gl_sort *sort,
                       const struct sg_gl_order *order, const struct sg_gl_input *in)
{
	sg_result result = expand_vertices(expanded, sort, order->reordered, in);
	return result ? result : expand_indices(expanded, order, in);
}

bool sg_gl_expand_streams(const struct sg_gl_expanded *x)
{
	size_t above = x->stream_above ? x->stream_above : STREAM_ABOVE_BYTES;
	return x->source_vertices > above / VERTEX_BYTES;
}

/* The staging chunk: room for chunk_vertices, and for one draw of the most
 * vertices a draw has here when chunk_vertices is less (only tests make it
 * so); for the indices of as many draws, and at least those of the list's
 * largest one. */
static sg_result chunk_ready(struct sg_gl_expanded *x)
{
	size_t vertices = x->chunk_vertices ? x->chunk_vertices : CHUNK_VERTICES;
	if (vertices < SG_GL_EXPAND_MAX_VERTICES)
		vertices = SG_GL_EXPAND_MAX_VERTICES;
	size_t indices = vertices * 3 > x->most_indices ? vertices * 3 : x->most_indices;
	if (!x->chunk_ready) {
		sg_free(x->chunk);
		if (!(x->chunk = sg_malloc(vertices * VERTEX_BYTES)))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a %zu-vertex chunk", vertices);
		x->chunk_ready = true;
	}
	return sg_gl_index_room(&x->chunk_indices, &x->chunk_index_capacity, indices, "chunk");
}

sg_result sg_gl_index_room(uint32_t **indices, size_t *capacity, size_t needed, const char *what)
{
	if (*capacity >= needed)
		return SG_OK;
	sg_free(*indices);
	*capacity = 0;
	if (!(*indices = sg_malloc(needed * sizeof(uint32_t))))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a %zu-index %s", needed, what);
	*capacity = needed;
	return SG_OK;
}

sg_result sg_gl_expand_chunk(struct sg_gl_expanded *x, const struct sg_gl_order *order,
                             const struct sg_gl_input *in, size_t *k)
{
	const struct sg_draw_list *list = in->list;
	sg_result result = chunk_ready(x);
	if (result)
		return result;
	size_t vertex_room = x->chunk_vertices ? x->chunk_vertices : CHUNK_VERTICES;
	size_t depth_count = sg_draw_source(list)->count;
	size_t end = *k < order->opaque_count ? order->opaque_count : list->count;
	size_t vertices = 0, indices = 0;
	x->run_count = 0;
	for (; *k < end; ++*k) {
		uint32_t i = order->draws[*k];
		const struct sg_draw *draw = &list->draws[i];
		const struct sg_mesh_data *m = sg_scene_mesh_slot(in->scene, draw->mesh);
		uint32_t count = sg_mesh_draw_count(m);
		if (vertices && (vertices + m->vertex_count > vertex_room ||
		                 indices + count > x->chunk_index_capacity))
			break; /* full: the next chunk begins with this draw */
		if (!x->run_count || x->runs[x->run_count - 1].texture != draw->texture) {
			if (!sg_grow_array((void **)&x->runs, &x->run_capacity, x->run_count + 1,
			                   sizeof(*x->runs)))
				return sg_fail(SG_ERR_NO_MEMORY, "out of memory streaming %zu draws",
				               list->count);
			x->runs[x->run_count++] = (struct sg_gl_run){draw->texture, indices, 0,
			                                             *k >= order->opaque_count};
		}
		mat4 matrix;
		sg_draw_model_matrix(in->scene, in->list, draw->node, in->view_projection, matrix);
		size_t origin = sg_draw_origin(list, i);
		sg_gl_write_vertices(x->chunk + vertices * FLOATS_PER_VERTEX, m, matrix,
		                     sg_gl_draw_depth(order->reordered, origin, depth_count),
		                     in->paint->colors[origin]);
		sg_gl_write_indices(x->chunk_indices + indices, m, 0, count, (uint32_t)vertices);
		x->runs[x->run_count - 1].count += count;
		vertices += m->vertex_count;
		indices += count;
	}
	return sg_gl_expand_upload(x, x->chunk, vertices, x->chunk_indices, indices,
	                           "uploading a chunk of streamed draws");
}

sg_result sg_gl_expand_upload(struct sg_gl_expanded *x, const float *vertices,
                              size_t vertex_count, const uint32_t *indices, size_t index_count,
                              const char *what)
{
	sg_gl_expand_buffers(x);
	/* The kept buffers are given up: their storage is replaced here. */
	x->vertices_valid = x->indices_valid = false;
	x->vertex_bytes = x->index_bytes = 0;
	glBindVertexArray(x->vertex_array);
	glBindBuffer(GL_ARRAY_BUFFER, x->vertex_buffer);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(vertex_count * VERTEX_BYTES), vertices,
	             GL_STREAM_DRAW);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(index_count * sizeof(uint32_t)),
	             indices, GL_STREAM_DRAW);
	return sg_gl_check(what);
}

void sg_gl_expand_finish(struct sg_gl_expanded *x)
{
	if (x->vertex_array) {
		glDeleteVertexArrays(1, &x->vertex_array);
		glDeleteBuffers(1, &x->vertex_buffer);
		glDeleteBuffers(1, &x->index_buffer);
		glDeleteBuffers(1, &x->identity_buffer);
	}
	sg_gl_stream_finish(&x->stream);
	sg_free(x->vertex_first);
	sg_free(x->placement);
	sg_free(x->runs);
	sg_free(x->chunk);
	sg_free(x->chunk_indices);
	sg_gl_expand_bins_finish(x);
	*x = (struct sg_gl_expanded){0};
}
