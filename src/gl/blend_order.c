/* Translucent draws must blend in traversal order where they overlap, but two
 * that cover different pixels commute. Drawn strictly in order, a scene whose
 * translucent models alternate between textures costs one draw call per
 * model (flat-100000 with every tenth model translucent: 10000 calls). So,
 * as GPU command recorders merge compatible operations that do not overlap,
 * each draw joins the latest batch of its state unless a later batch touches
 * its screen cells (a 128 x 128 grid over the clip-space square, holding the
 * last batch that touched each cell); otherwise it starts a new batch. */
#include "blend_order.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "screen_cells.h"

#define GRID SG_GL_GRID

void sg_gl_blend_order_finish(struct sg_gl_blend *blend)
{
	sg_free(blend->batch_of);
	sg_free(blend->offsets);
	sg_free(blend->table);
	sg_free(blend->grid);
	*blend = (struct sg_gl_blend){0};
}

static uint64_t hash(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	return key ^ (key >> 33);
}

sg_result sg_gl_blend_order(struct sg_gl_blend *blend, struct sg_gl_order *order,
                            const struct sg_gl_input *in, bool by_mesh)
{
	struct sg_gl_blend *b = blend;
	const struct sg_draw_list *list = in->list;
	const struct sg_paint *paint = in->paint;
	size_t first = order->opaque_count, count = list->count - first;
	if (!order->reordered || count < 2)
		return SG_OK;
	if (b->valid && b->order_version == order->version && b->scene == in->versions.scene &&
	    b->transform == in->versions.transform && b->by_mesh == by_mesh &&
	    memcmp(b->view_projection, in->view_projection, sizeof(mat4)) == 0)
		return SG_OK;
	size_t slots = 16;
	while (slots < count * 2)
		slots *= 2;
	if (!sg_grow_array((void **)&b->batch_of, &b->batch_capacity, count, sizeof(*b->batch_of)) ||
	    !sg_grow_array((void **)&b->offsets, &b->offset_capacity, count + 1, sizeof(*b->offsets)) ||
	    !sg_grow_array((void **)&b->table, &b->table_capacity, slots, sizeof(*b->table)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory batching %zu translucent draws", count);
	if (!b->grid && !(b->grid = sg_malloc(GRID * GRID * sizeof(*b->grid))))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory batching %zu translucent draws", count);
	int32_t *grid = b->grid; /* 64 KiB: not on the stack of the caller's thread */
	for (int i = 0; i < GRID * GRID; i++)
		grid[i] = -1;
	memset(b->table, 0, slots * sizeof(*b->table));
	memset(b->offsets, 0, (count + 1) * sizeof(*b->offsets));
	uint32_t batches = 0;
	size_t k = 0;
	for (size_t i = 0; i < list->count; i++) {
		if (!paint->translucent[sg_draw_origin(list, i)])
			continue;
		const struct sg_draw *draw = &list->draws[i];
		int cells[4] = {0, 0, -1, -1};
		bool on_screen = sg_gl_screen_cells(in->scene, in->list, draw, in->view_projection, cells);
		int32_t latest = -1; /* the last batch touching its cells */
		for (int y = cells[1]; on_screen && y <= cells[3]; y++)
			for (int x = cells[0]; x <= cells[2]; x++)
				latest = grid[y * GRID + x] > latest ? grid[y * GRID + x] : latest;
		uint64_t key = (uint64_t)draw->texture << 32 | (by_mesh ? draw->mesh : 0);
		size_t slot = hash(key) & (slots - 1);
		while (b->table[slot].used && b->table[slot].key != key)
			slot = (slot + 1) & (slots - 1);
		struct sg_gl_blend_slot *s = &b->table[slot];
		if (!s->used || (int32_t)s->batch < latest) /* none, or one the draw may not pass */
			*s = (struct sg_gl_blend_slot){key, batches++, true};
		b->batch_of[k++] = s->batch;
		b->offsets[s->batch + 1]++;
		for (int y = cells[1]; on_screen && y <= cells[3]; y++)
			for (int x = cells[0]; x <= cells[2]; x++)
				grid[y * GRID + x] = (int32_t)s->batch;
	}
	for (uint32_t i = 0; i < batches; i++)
		b->offsets[i + 1] += b->offsets[i];
	k = 0;
	for (size_t i = 0; i < list->count; i++)
		if (paint->translucent[sg_draw_origin(list, i)])
			order->draws[first + b->offsets[b->batch_of[k++]]++] = (uint32_t)i;
	b->valid = true;
	b->order_version = ++order->version; /* the caches of the order see a new one */
	b->scene = in->versions.scene;
	b->transform = in->versions.transform;
	b->by_mesh = by_mesh;
	glm_mat4_copy(in->view_projection, b->view_projection);
	return SG_OK;
}
