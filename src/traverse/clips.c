/* The clips of a frame. A clip node's subtree is one run of the draw list
 * (depth-first order keeps a subtree together, and cutting draws out of a
 * list keeps the rest in order), so each clip is a range of positions; the
 * GL layer turns those into ranges of draw depths that its shaders look up
 * (src/gl/clip.c). Rectangles are mapped per frame, as the matrices above
 * them move. */
#include "clips.h"

#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"

/* Clips nested deeper than this are refused: the fragment test walks the chain. */
#define MAX_DEPTH 32

void sg_clips_finish(struct sg_clips *clips)
{
	sg_free(clips->entries);
	*clips = (struct sg_clips){0};
}

/* The clip nodes above draw node n, outermost first, in chain; their number,
 * or -1 past MAX_DEPTH. */
static int chain_of(const struct sg_scene *scene, uint32_t n, uint32_t chain[MAX_DEPTH])
{
	uint32_t inner_first[MAX_DEPTH];
	int depth = 0;
	for (uint32_t a = sg_scene_clip_above(scene, n); a; a = sg_scene_clip_above(scene, a)) {
		if (depth == MAX_DEPTH)
			return -1;
		inner_first[depth++] = a;
	}
	for (int k = 0; k < depth; k++)
		chain[k] = inner_first[depth - 1 - k];
	return depth;
}

static sg_result find_ranges(struct sg_clips *clips, const struct sg_scene *scene,
                             const struct sg_draw_list *source)
{
	clips->valid = false;
	clips->count = 0;
	uint32_t chain[MAX_DEPTH];
	int32_t open[MAX_DEPTH];
	int depth = 0, open_depth = 0;
	uint32_t cached_parent = 0;
	for (size_t i = 0; i < source->count; i++) {
		uint32_t n = source->draws[i].node;
		if (i == 0 || scene->parent[n] != cached_parent) {
			cached_parent = scene->parent[n];
			if ((depth = chain_of(scene, n, chain)) < 0)
				return sg_fail(SG_ERR_LIMIT,
				               "model %s is below more than %d clip nodes",
				               sg_scene_node_label(scene, n), MAX_DEPTH);
		}
		/* The clips still open are those this draw shares with the last. */
		int k = 0;
		while (k < open_depth && k < depth && clips->entries[open[k]].node == chain[k])
			k++;
		open_depth = k;
		for (; k < depth; k++) {
			if (!sg_grow_array((void **)&clips->entries, &clips->capacity, clips->count + 1,
			                   sizeof(*clips->entries)))
				return sg_fail(SG_ERR_NO_MEMORY, "out of memory listing %zu clips",
				               clips->count + 1);
			clips->entries[clips->count] = (struct sg_clip_entry){
			    .node = chain[k], .first = (uint32_t)i, .parent = k ? open[k - 1] : -1};
			open[open_depth++] = (int32_t)clips->count++;
		}
		for (k = 0; k < open_depth; k++)
			clips->entries[open[k]].last = (uint32_t)i;
	}
	clips->valid = true;
	clips->scene = scene->id;
	clips->structure = scene->structure_version;
	clips->source = source;
	clips->source_serial = source->serial;
	return SG_OK;
}

sg_result sg_clips_update(struct sg_clips *clips, const struct sg_scene *scene,
                          const struct sg_draw_list *source, const mat4 world_to_clip,
                          int width, int height)
{
	if (!scene->clip_count) {
		clips->count = 0;
		clips->valid = false;
		return SG_OK;
	}
	if (!clips->valid || clips->scene != scene->id ||
	    clips->structure != scene->structure_version || clips->source != source ||
	    clips->source_serial != source->serial) {
		sg_result result = find_ranges(clips, scene, source);
		if (result)
			return result;
	}
	for (size_t c = 0; c < clips->count; c++)
		sg_clip_shape_of(scene, sg_draw_world(source), clips->entries[c].node, world_to_clip,
		                 width, height, &clips->entries[c].shape);
	return SG_OK;
}

/* P = world_to_clip * world of n, in double. */
static void clip_matrix(const struct sg_scene *scene, const struct sg_world *world, uint32_t n,
                        const mat4 world_to_clip, double p[4][4])
{
	const vec4 *w = sg_world_node(world, scene, n);
	for (int col = 0; col < 4; col++)
		for (int row = 0; row < 4; row++) {
			double s = 0.0;
			for (int k = 0; k < 4; k++)
				s += (double)world_to_clip[k][row] * (double)w[col][k];
			p[col][row] = s;
		}
}

void sg_clip_shape_of(const struct sg_scene *scene, const struct sg_world *world, uint32_t n,
                      const mat4 world_to_clip, int width, int height,
                      struct sg_clip_shape *shape)
{
	const struct sg_clip_data *c = sg_scene_clip(scene, n);
	double p[4][4];
	clip_matrix(scene, world, n, world_to_clip, p);
	double sx = 0.5 * width, sy = 0.5 * height;
	double cx = c->rect[0] + 0.5 * c->rect[2], cy = c->rect[1] + 0.5 * c->rect[3];
	/* a maps the rectangle's point (x, y) from its centre, with z 0, to
	 * homogeneous output pixels: ((clip x + w) sx, (clip y + w) sy, w). */
	double a[3][3];
	for (int row = 0; row < 3; row++) {
		double scale = row == 0 ? sx : row == 1 ? sy : 1.0;
		double add = row < 2 ? 1.0 : 0.0;
		for (int col = 0; col < 2; col++)
			a[row][col] = (row < 2 ? p[col][row] + add * p[col][3] : p[col][3]) * scale;
		a[row][2] = (row < 2 ? p[3][row] + add * p[3][3] : p[3][3]) * scale;
		a[row][2] += a[row][0] * cx + a[row][1] * cy;
	}
	double inv[3][3];
	inv[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
	inv[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
	inv[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
	inv[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
	inv[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
	inv[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
	inv[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
	inv[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
	inv[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
	double det = a[0][0] * inv[0][0] + a[0][1] * inv[1][0] + a[0][2] * inv[2][0];
	*shape = (struct sg_clip_shape){.half = {0.5f * c->rect[2], 0.5f * c->rect[3]}};
	float r = c->radius, least = fminf(shape->half[0], shape->half[1]);
	shape->radius = r < least ? r : least;
	if (!(fabs(det) > 1e-300) || !isfinite(det))
		return; /* seen edge-on, or scaled to nothing: all 0, nothing inside */
	float m[9];
	for (int row = 0; row < 3; row++)
		for (int col = 0; col < 3; col++)
			if (!isfinite(m[row * 3 + col] = (float)(inv[row][col] / det)))
				return; /* past float's range: as seen edge-on */
	memcpy(shape->to_local, m, sizeof(m));
}

bool sg_clip_shape_contains(const struct sg_clip_shape *s, float px, float py)
{
	const float *m = s->to_local;
	float u = m[0] * px + m[1] * py + m[2], v = m[3] * px + m[4] * py + m[5];
	float w = m[6] * px + m[7] * py + m[8];
	if (!(w > 0.0f))
		return false;
	/* the signed distance to a rounded rectangle (as src/gl/material_clip.glsl) */
	float r = s->radius;
	float qx = fabsf(u / w) - s->half[0] + r, qy = fabsf(v / w) - s->half[1] + r;
	float d = hypotf(fmaxf(qx, 0.0f), fmaxf(qy, 0.0f)) + fminf(fmaxf(qx, qy), 0.0f) - r;
	return d <= 0.0f;
}

void sg_clip_pixel_bounds(const struct sg_scene *scene, const struct sg_world *world,
                          uint32_t n, const mat4 world_to_clip, int width, int height,
                          int bounds[4])
{
	const struct sg_clip_data *c = sg_scene_clip(scene, n);
	double p[4][4];
	clip_matrix(scene, world, n, world_to_clip, p);
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	bounds[0] = 0, bounds[1] = 0, bounds[2] = width, bounds[3] = height;
	for (int corner = 0; corner < 4; corner++) {
		double x = c->rect[0] + (corner & 1 ? c->rect[2] : 0.0);
		double y = c->rect[1] + (corner & 2 ? c->rect[3] : 0.0);
		double q[4];
		for (int row = 0; row < 4; row++)
			q[row] = p[0][row] * x + p[1][row] * y + p[3][row];
		if (!(q[3] > 1e-6))
			return; /* behind the eye: the whole output */
		double wx = (q[0] / q[3] + 1.0) * 0.5 * width, wy = (q[1] / q[3] + 1.0) * 0.5 * height;
		x0 = fmin(x0, wx), x1 = fmax(x1, wx);
		y0 = fmin(y0, wy), y1 = fmax(y1, wy);
	}
	double b[4] = {floor(x0), floor(y0), ceil(x1), ceil(y1)};
	int side[4] = {width, height, width, height};
	for (int i = 0; i < 4; i++)
		bounds[i] = !(b[i] > 0.0) ? 0 : b[i] < side[i] ? (int)b[i] : side[i];
}
