/* Internal: damage tracking (docs/damage.md). One per renderer: the output
 * pixels each model covered at the last frame, and the damage of the last
 * frames, so that a render repaints only what changed since its buffer was
 * last drawn. Knows no GL: it turns the scene's journal of edits into
 * rectangles and cuts the draw list down to the models that touch them. */
#ifndef SG_TRAVERSE_DAMAGE_H
#define SG_TRAVERSE_DAMAGE_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdint.h>

#include <sg/types.h>

#include "traverse.h"

/* Frames of damage kept: a buffer last drawn more frames ago than this is
 * repainted whole (rings have at most 3 buffers). */
#define SG_DAMAGE_HISTORY 4u

/* Output pixels [x0, x1) x [y0, y1); empty when x0 >= x1 or y0 >= y1. */
struct sg_pixel_box {
	int16_t x0, y0, x1, y1;
};

/* Up to SG_DAMAGE_MAX_RECTS disjoint rectangles, or the whole output. */
struct sg_damage_region {
	struct sg_rect rects[SG_DAMAGE_MAX_RECTS];
	int count;
	bool full;
};

struct sg_damage {
	/* Per node slot: what its model covered in the last frame (empty: not
	 * drawn). Meaningful while valid. */
	struct sg_pixel_box *boxes;
	size_t box_capacity;
	/* Per texture slot: the update serial the last frame drew. */
	uint64_t *texture_serials;
	size_t texture_capacity;
	bool valid;
	/* What the last frame was drawn with: any change repaints everything. */
	uint32_t scene;
	uint64_t journal_read, texture_updates;
	mat4 view_projection;
	int width, height;
	float clear_color[4];
	bool culling;
	bool view_changed; /* the last frame was whole because its view changed */
	/* The fields above describe the last frame (false at first and after
	 * sg_damage_forget), whether or not its boxes were made. */
	bool recorded;
	/* Frames computed so far; frame f's damage is history[f % SG_DAMAGE_HISTORY]. */
	uint64_t frame;
	struct sg_damage_region history[SG_DAMAGE_HISTORY];
	/* The drawn list's models that touch the region being repainted, and
	 * the serial of the source it was cut from. */
	struct sg_draw_list cut;
	uint64_t cut_source_serial;
	/* The output pixels of the clips met by this computation (all 0 node:
	 * empty), each clip's bounds made once for the models under it. */
	struct sg_damage_clip {
		uint32_t node;
		int bounds[4];
	} clips[4];
	int next_clip;
	/* Scratch, per node slot, all 0 between computations: the marks of
	 * damage.c (in the journal's entries read, looked at already, and the
	 * paths found free of journaled or hidden ancestors), kept here rather
	 * than in the scene, which a render reads and never writes. */
	uint8_t *marks;
	size_t marks_capacity;
	/* Nodes given a path mark by this computation, to clear. */
	uint32_t *marked;
	size_t marked_count, marked_capacity;
	/* The world matrices of the computation under way (the traversal's). */
	const struct sg_world *world;
};

void sg_damage_finish(struct sg_damage *damage);

/* Everything is repainted next frame (the buffers' contents are unknown). */
void sg_damage_forget(struct sg_damage *damage);

/* The frame about to be drawn: view_projection maps world space to clip space
 * of an output of width x height whose row 0 is window row 0. */
struct sg_damage_view {
	const float (*view_projection)[4];
	int width, height;
	const float *clear_color;
	bool culling;
};

/* Computes the damage of the next frame against the last one from the
 * scene's journal (in time proportional to the edited nodes' subtrees; a
 * texture update adds a pass over the drawn list) and records it as the
 * current frame. traversal->list is what the frame draws (sg_traverse() must
 * be current). Reads the scene alone. Fails only on allocation failure,
 * leaving every buffer to be repainted whole. */
sg_result sg_damage_update(struct sg_damage *damage, const struct sg_scene *scene,
                           const struct sg_traversal *traversal,
                           const struct sg_damage_view *view);

/* Adds rect to the damage of the current frame: what the journal does not
 * see (a 3D view's picture, src/render/renderer.c). */
void sg_damage_add_current(struct sg_damage *damage, struct sg_rect rect);
/* The damage of the current frame (that of the last sg_damage_update()). */
const struct sg_damage_region *sg_damage_current(const struct sg_damage *damage);

/* What a buffer last drawn at frame drawn (0: never, or its contents lost)
 * lacks: the union of the damage of the frames after it. */
void sg_damage_since(const struct sg_damage *damage, uint64_t drawn,
                     struct sg_damage_region *region);

/* The entries of list whose models touch region, as a list cut from list's
 * source (same colours and caches), in list's order. Keeps its serial while
 * its entries stay the same. */
sg_result sg_damage_cut(struct sg_damage *damage, const struct sg_draw_list *list,
                        const struct sg_damage_region *region, uint64_t *next_serial,
                        const struct sg_draw_list **cut);

/* Adds box to region by the merge rule of docs/damage.md. */
void sg_damage_add(struct sg_damage_region *region, struct sg_rect box);

#endif
