/* A frame sorted by texture and mesh keeps painter's order with per-draw
 * depths, which costs a clear of the whole depth buffer and a test per
 * fragment: at 1024 x 1024 on llvmpipe the clear alone is a large part of a
 * small scene's frame (flat-1000; figures in bench/README.md). Where the sort moves no draw past another it overlaps, the
 * order of the batches already is painter's order and the depths are not
 * needed. The check walks the draws in list order over a grid of screen
 * cells holding the largest sort key that touched each: a draw whose key
 * is below one of its cells' is drawn before something it must cover. Two
 * draws sharing a cell are taken to overlap, so the answer errs towards
 * the depth test. */
#include "depth_order.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "batch.h"
#include "screen_cells.h"

/* Past this many draws the depth buffer's clear is a small part of the
 * frame, and a check that finds an overlap late would cost more than it. */
#define CHECK_MAX_DRAWS 65536u
/* Cell visits allowed per draw (on top of one grid's worth) before large
 * draws make the check more costly than the clear it could save. */
#define CELLS_PER_DRAW 16u
/* A check costs a draw's box through its matrix per draw, against the clear
 * of the whole depth buffer it can save (figures in bench/README.md): up to
 * a draw per this many output pixels it may run every frame. Longer lists are
 * checked only once the transforms and the view have stayed as they were for
 * a frame, so that the answer is kept: checked every frame, a moving
 * parent's many disjoint quads made each frame slower (found in review). */
#define PIXELS_PER_DRAW 256u
/* Lists this short are checked draw against draw on their cell rectangles,
 * which gives the grid's answer without the grid (128 KiB cleared for each
 * check, 32 pages a process faults in for its first: three-rects), and
 * without its cost budget, which large draws of a short list could exhaust
 * for nothing. */
#define PAIRWISE_MAX_DRAWS 32u

void sg_gl_depth_finish(struct sg_gl_depth *depth)
{
	sg_free(depth->grid);
	*depth = (struct sg_gl_depth){0};
}

/* Whether some draw of list is drawn before another, earlier in the list,
 * that shares one of its cells; also when the check would cost too much. */
static bool out_of_order(uint64_t *grid, const struct sg_scene *scene,
                         const struct sg_draw_list *list, mat4 view_projection)
{
	memset(grid, 0, SG_GL_GRID * SG_GL_GRID * sizeof(*grid));
	size_t budget = (size_t)SG_GL_GRID * SG_GL_GRID + CELLS_PER_DRAW * list->count;
	for (size_t i = 0; i < list->count; i++) {
		const struct sg_draw *draw = &list->draws[i];
		int cells[4];
		if (!sg_gl_screen_cells(scene, list, draw, view_projection, cells))
			continue;
		size_t area = (size_t)(cells[2] - cells[0] + 1) * (size_t)(cells[3] - cells[1] + 1);
		if (area > budget)
			return true;
		budget -= area;
		uint64_t key = sg_gl_sort_rank(draw);
		for (int y = cells[1]; y <= cells[3]; y++)
			for (int x = cells[0]; x <= cells[2]; x++) {
				uint64_t *cell = &grid[y * SG_GL_GRID + x];
				if (*cell > key)
					return true;
				*cell = key;
			}
	}
	return false;
}

/* out_of_order() for a list of up to PAIRWISE_MAX_DRAWS, budget aside: a
 * draw is drawn before something it must cover where an earlier draw with a
 * larger key shares a cell with it, as the grid's cell would hold that key. */
static bool out_of_order_pairwise(const struct sg_scene *scene, const struct sg_draw_list *list,
                                  mat4 view_projection)
{
	int cells[PAIRWISE_MAX_DRAWS][4];
	uint64_t keys[PAIRWISE_MAX_DRAWS];
	size_t seen = 0;
	for (size_t i = 0; i < list->count; i++) {
		const struct sg_draw *draw = &list->draws[i];
		int *c = cells[seen];
		if (!sg_gl_screen_cells(scene, list, draw, view_projection, c))
			continue;
		uint64_t key = sg_gl_sort_rank(draw);
		for (size_t j = 0; j < seen; j++) {
			const int *o = cells[j];
			if (keys[j] > key && c[0] <= o[2] && o[0] <= c[2] && c[1] <= o[3] &&
			    o[1] <= c[3])
				return true;
		}
		keys[seen++] = key;
	}
	return false;
}

/* Whether the transforms and the view are those of the last frame. */
static bool settled(struct sg_gl_depth *d, const struct sg_gl_input *in)
{
	bool same = d->seen_scene == in->versions.scene &&
	            d->seen_transform == in->versions.transform &&
	            memcmp(d->seen_view, in->view_projection, sizeof(mat4)) == 0;
	d->seen_scene = in->versions.scene;
	d->seen_transform = in->versions.transform;
	glm_mat4_copy(in->view_projection, d->seen_view);
	return same;
}

sg_result sg_gl_depth_order(struct sg_gl_depth *depth, const struct sg_gl_order *order,
                            const struct sg_gl_input *in, bool streamed, size_t pixels)
{
	struct sg_gl_depth *d = depth;
	const struct sg_draw_list *list = in->list;
	const struct sg_scene *scene = in->scene;
	vec4 *view_projection = in->view_projection;
	bool still = settled(d, in);
	if (!order->reordered) {
		d->needed = false; /* drawn in list order as it is, depths all 0 */
		return SG_OK;
	}
	if (d->forced || streamed || order->opaque_count < list->count ||
	    list->count > CHECK_MAX_DRAWS) {
		d->needed = true;
		return SG_OK;
	}
	if (list->count < 2) {
		d->needed = false;
		return SG_OK;
	}
	if (d->valid && d->order_version == order->version && d->scene == in->versions.scene &&
	    d->transform == in->versions.transform &&
	    memcmp(d->view_projection, view_projection, sizeof(mat4)) == 0) {
		d->needed = d->out_of_order;
		return SG_OK;
	}
	if (list->count > pixels / PIXELS_PER_DRAW && !still) {
		d->needed = true; /* moving: checked once it stops */
		return SG_OK;
	}
	if (list->count <= PAIRWISE_MAX_DRAWS) {
		d->out_of_order = out_of_order_pairwise(scene, list, view_projection);
	} else {
		if (!d->grid && !(d->grid = sg_malloc(SG_GL_GRID * SG_GL_GRID * sizeof(*d->grid))))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory ordering %zu draws",
			               list->count);
		d->out_of_order = out_of_order(d->grid, scene, list, view_projection);
	}
	d->needed = d->out_of_order;
	d->valid = true;
	d->order_version = order->version;
	d->scene = in->versions.scene;
	d->transform = in->versions.transform;
	glm_mat4_copy(view_projection, d->view_projection);
	return SG_OK;
}
