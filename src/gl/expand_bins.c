/* Streamed opaque draws gathered per texture. A list too large to keep
 * expanded is drawn a chunk at a time (expand.c); taken in the order, sorted
 * by texture, each draw's parent world matrix and model record lie far from
 * the last one's, lines the world update wrote and the frame evicted since:
 * on tree-1048576 those misses were a third of the chunks' time. Opaque draws
 * may be drawn in any order, the depth test keeping painter's order (each
 * draw has a depth of its own, and a draw's triangles stay together, in
 * order): here they are taken in list order, which walks the scene's arrays
 * forwards, and each is appended to its texture's bin, a batch drawn once
 * full. With more textures than bins the fullest bin is drawn to make room. */
#include "expand.h"

#include "../base/alloc.h"
#include "../base/error.h"
#include "depth.h"
#include "expand_vertex.h"

/* A bin's vertices (512 KiB): 8 textures' bins take 5.6 MiB with indices. */
#define BIN_VERTICES ((size_t)16384)

static size_t bin_room(const struct sg_gl_expanded *x)
{
	size_t room = x->chunk_vertices ? x->chunk_vertices : BIN_VERTICES;
	return room < SG_GL_EXPAND_MAX_VERTICES ? SG_GL_EXPAND_MAX_VERTICES : room;
}

/* Storage for bin b: vertices, and indices for as many draws or the
 * largest one. */
static sg_result bin_storage(struct sg_gl_expanded *x, struct sg_gl_bin *b)
{
	size_t room = bin_room(x), indices = room * 3;
	if (indices < x->most_indices)
		indices = x->most_indices;
	if (!b->v && !(b->v = sg_malloc(room * VERTEX_BYTES)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a %zu-vertex batch", room);
	return sg_gl_index_room(&b->ix, &b->index_capacity, indices, "batch");
}

static size_t slot_of(const struct sg_scene_versions *versions, uint32_t texture)
{
	return texture == SG_DRAW_NO_TEXTURE ? versions->texture_slots : texture;
}

/* Frees every bin of its texture (the map is all 0 after) and empties it. */
static void reset_bins(struct sg_gl_expanded *x)
{
	for (int b = 0; b < SG_GL_BINS; b++) {
		struct sg_gl_bin *bin = &x->bins[b];
		if (bin->texture != SG_GL_BIN_FREE && x->bin_of && bin->slot < x->bin_of_capacity)
			x->bin_of[bin->slot] = 0;
		bin->texture = SG_GL_BIN_FREE;
		bin->vertices = bin->indices = 0;
	}
}

/* Uploads bin b as the one run to draw, and empties it; freed: it no longer
 * holds its texture. */
static sg_result emit(struct sg_gl_expanded *x, int b, bool freed)
{
	struct sg_gl_bin *bin = &x->bins[b];
	if (!sg_grow_array((void **)&x->runs, &x->run_capacity, 1, sizeof(*x->runs)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a run");
	x->runs[0] = (struct sg_gl_run){bin->texture, 0, bin->indices, false};
	x->run_count = 1;
	sg_result result = sg_gl_expand_upload(x, bin->v, bin->vertices, bin->ix, bin->indices,
	                                       "uploading a batch of streamed draws");
	bin->vertices = bin->indices = 0;
	if (freed) {
		x->bin_of[bin->slot] = 0;
		bin->texture = SG_GL_BIN_FREE;
	}
	return result;
}

/* The bin for texture: its own, a free one, or none (-1: the fullest is to
 * be drawn first, *victim). */
static int bin_for(struct sg_gl_expanded *x, const struct sg_scene_versions *versions,
                   uint32_t texture, int *victim)
{
	size_t slot = slot_of(versions, texture);
	if (x->bin_of[slot])
		return x->bin_of[slot] - 1;
	int fullest = 0;
	for (int b = 0; b < SG_GL_BINS; b++) {
		if (x->bins[b].texture == SG_GL_BIN_FREE) {
			x->bins[b].texture = texture;
			x->bins[b].slot = slot;
			x->bin_of[slot] = (uint8_t)(b + 1);
			return b;
		}
		if (x->bins[b].vertices > x->bins[fullest].vertices)
			fullest = b;
	}
	*victim = fullest;
	return -1;
}

sg_result sg_gl_expand_bin(struct sg_gl_expanded *x, const struct sg_gl_input *in,
                           struct sg_gl_bin_cursor *cursor, bool *ready)
{
	const struct sg_draw_list *list = in->list;
	const struct sg_paint *paint = in->paint;
	*ready = false;
	size_t slots = (size_t)in->versions.texture_slots + 1;
	if (!cursor->next && !cursor->emptying) { /* a new pass */
		if (!x->bin_of || x->bin_of_capacity < slots) {
			reset_bins(x);
			sg_free(x->bin_of);
			x->bin_of_capacity = 0;
			if (!(x->bin_of = sg_calloc(slots, 1)))
				return sg_fail(SG_ERR_NO_MEMORY, "out of memory batching %zu textures",
				               slots);
			x->bin_of_capacity = slots;
		}
		reset_bins(x);
	}
	size_t room = bin_room(x), depth_count = sg_draw_source(list)->count;
	bool some_translucent = paint->translucent_count > 0;
	for (; cursor->next < list->count; cursor->next++) {
		size_t i = cursor->next, origin = sg_draw_origin(list, i);
		if (some_translucent && paint->translucent[origin])
			continue; /* drawn afterwards, in order */
		const struct sg_draw *draw = &list->draws[i];
		const struct sg_mesh_data *m = sg_scene_mesh_slot(in->scene, draw->mesh);
		uint32_t count = sg_mesh_draw_count(m);
		int victim = 0, b = bin_for(x, &in->versions, draw->texture, &victim);
		if (b < 0) {
			*ready = true; /* this draw again after the fullest is drawn */
			return emit(x, victim, true);
		}
		struct sg_gl_bin *bin = &x->bins[b];
		sg_result result = bin_storage(x, bin);
		if (result)
			return result;
		if (bin->vertices && (bin->vertices + m->vertex_count > room ||
		                      bin->indices + count > bin->index_capacity)) {
			*ready = true; /* full: this draw again after it is drawn */
			return emit(x, b, false);
		}
		mat4 matrix;
		sg_draw_model_matrix(in->scene, in->list, draw->node, in->view_projection, matrix);
		sg_gl_write_vertices(bin->v + bin->vertices * FLOATS_PER_VERTEX, m, matrix,
		                     sg_gl_draw_depth(true, origin, depth_count), paint->colors[origin]);
		sg_gl_write_indices(bin->ix + bin->indices, m, 0, count, (uint32_t)bin->vertices);
		bin->vertices += m->vertex_count;
		bin->indices += count;
	}
	/* The list is done: what the bins hold, one bin a call. */
	for (; cursor->emptying < SG_GL_BINS; cursor->emptying++) {
		if (x->bins[cursor->emptying].vertices) {
			*ready = true;
			return emit(x, cursor->emptying++, true);
		}
	}
	reset_bins(x);
	return SG_OK;
}

void sg_gl_expand_bins_finish(struct sg_gl_expanded *x)
{
	for (int b = 0; b < SG_GL_BINS; b++) {
		sg_free(x->bins[b].v);
		sg_free(x->bins[b].ix);
		x->bins[b] = (struct sg_gl_bin){.texture = SG_GL_BIN_FREE};
	}
	sg_free(x->bin_of);
	x->bin_of = NULL;
	x->bin_of_capacity = 0;
}
