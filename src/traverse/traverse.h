/* Internal: the depth-first walk. Keeps the scene's world matrices current and
 * turns the scene into a draw list; knows no GL. */
#ifndef SG_TRAVERSE_H
#define SG_TRAVERSE_H

#include <cglm/cglm.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/scene.h>

#include "clip_table.h"
#include "world.h"

struct sg_draw {
	uint32_t node;    /* pool index of the model node (sg_world_model) */
	uint32_t mesh;    /* pool index of its mesh */
	uint32_t texture; /* pool index of its texture, or SG_DRAW_NO_TEXTURE */
};

/* The texture of a model that draws its colour alone (SG_TEXTURE_NONE). */
#define SG_DRAW_NO_TEXTURE UINT32_MAX

/* Entries [first, end) of a draw list. */
struct sg_draw_range {
	uint32_t first, end;
};

struct sg_draw_list {
	struct sg_draw *draws;
	size_t count, capacity;
	uint64_t serial; /* changes whenever the entries change: for caches above */
	/* A list cut from another (the drawn models of the list of all): entry i
	 * is source's entry origin[i], so that caches above may keep what they
	 * made for source across visibility toggles. NULL source: none. */
	const struct sg_draw_list *source;
	uint32_t *origin;
	size_t origin_capacity;
	/* Made for one frame (a damage repaint's draws): caches above make what
	 * they need for its entries alone rather than for its whole source. */
	bool transient;
	/* The world matrices its draws' models are placed by (the traversal's):
	 * a cut list's are its source's (sg_draw_world). */
	const struct sg_world *world;
};

/* The position in the list its paint was computed for (see sg_paint) of entry i. */
static inline size_t sg_draw_origin(const struct sg_draw_list *list, size_t i)
{
	return list->source ? list->origin[i] : i;
}

/* The list the paint and other per-source caches of list are made for. */
static inline const struct sg_draw_list *sg_draw_source(const struct sg_draw_list *list)
{
	return list->source ? list->source : list;
}

/* The world matrices of list's models. */
static inline const struct sg_world *sg_draw_world(const struct sg_draw_list *list)
{
	return sg_draw_source(list)->world;
}

/* The clip-space matrix (left times its world matrix) of the model of a
 * draw of list. */
static inline void sg_draw_model_matrix(const struct sg_scene *scene,
                                        const struct sg_draw_list *list, uint32_t node,
                                        mat4 left, mat4 out)
{
	sg_world_model_matrix(sg_draw_world(list), scene, node, left, out);
}

/* How each draw of a list looks (src/traverse/paint.c): its colour times the
 * opacities above it, premultiplied, and whether it must be blended. Made for
 * sg_draw_source() of the drawn list: index it with sg_draw_origin(). */
struct sg_paint {
	uint32_t *colors;     /* per draw: premultiplied RGBA8, bytes r, g, b, a in memory */
	uint8_t *translucent; /* per draw: 1 when blended (alpha below 255 in colour or texture) */
	size_t colors_capacity, translucent_capacity;
	size_t translucent_count;
	size_t tinted_count; /* draws whose colour is not white (all bytes 255) */
	uint64_t serial;  /* changes whenever colors change: for caches above */
	uint64_t classes; /* changes whenever translucent changes */
	/* what it was computed for */
	uint32_t scene;
	uint64_t list_serial, appearance;
	bool valid;
};

/* Reusable traversal state of one renderer: all it keeps of a scene, which
 * it reads and never writes. */
struct sg_traversal {
	/* The world matrices and boxes of the scene drawn (world.h). */
	struct sg_world world;
	struct sg_bounds bounds;
	/* Every attached model in traversal order, rebuilt only when the scene's
	 * structure changes. */
	struct sg_draw_list all;
	uint32_t all_scene;
	uint64_t all_structure;
	bool all_valid;
	uint64_t full_walks; /* builds of all so far: walks of the whole tree */
	/* For each node slot below ranges_count, the entries of all in its
	 * subtree (contiguous in depth-first order; empty when not attached). */
	struct sg_draw_range *ranges;
	size_t ranges_count, ranges_capacity;
	/* The 3D views met by the walk of all, in traversal order (their
	 * subtrees are not in all: src/traverse/views3d.c draws them). */
	uint32_t *views;
	size_t views_count, views_capacity;
	/* Positions in all of models whose mesh or texture is destroyed: an error
	 * only when drawn, so a hidden one is not. */
	uint32_t *stale;
	size_t stale_count, stale_capacity;

	/* all less the hidden subtrees' ranges: made from all when the visible
	 * set changes, with a serial of its own, without walking the tree. */
	struct sg_draw_list shown;
	struct sg_draw_range *hidden; /* scratch: the hidden ranges, sorted */
	size_t hidden_capacity;
	uint32_t shown_scene;
	uint64_t shown_all_serial, shown_visibility;
	bool shown_valid, shown_is_all;

	/* With culling: the models that passed this frame (the boxes are
	 * bounds, src/traverse/bounds.c), and those of the frame before, whose
	 * serial an identical list keeps. */
	struct sg_draw_list visible, visible_previous;
	uint32_t visible_scene;
	uint64_t visible_structure;

	const struct sg_draw_list *list; /* what the last walk says to draw */
	struct sg_paint paint;           /* and how each of its draws looks */
	/* The clip nodes holding its draws, mapped into the frame (clips.h):
	 * made by sg_traverse_frame. */
	struct sg_clips clips;
	size_t world_updates;            /* world matrices recomputed by the last walk */
	uint64_t world_ns;               /* wall-clock ns of its world update (CLOCK_MONOTONIC) */
	size_t visited; /* nodes the last walk visited to build its list (hidden ones: looked up) */
	uint64_t next_serial;
};

void sg_traversal_init(struct sg_traversal *traversal);
void sg_traversal_finish(struct sg_traversal *traversal);


/* Updates its world matrices, then fills traversal->list in draw order: depth-first,
 * left to right, hidden subtrees left out. With view_projection non-NULL,
 * subtrees whose bounds fall outside the view are skipped. Fails (naming the model) when a model uses a
 * destroyed mesh or texture, or on allocation failure. */
sg_result sg_traverse(struct sg_traversal *traversal, const struct sg_scene *scene,
                      const mat4 view_projection);
/* sg_traverse(), then the clip table for a frame whose view_projection maps
 * world space to clip space of a width x height output, row 0 first
 * (clips.h): all that a frame's draws need from the walk. cull: the
 * view_projection to cull by, or NULL for none. */
sg_result sg_traverse_frame(struct sg_traversal *traversal, const struct sg_scene *scene,
                            const mat4 cull, const mat4 view_projection, int width, int height);

/* Position of node n (a model of all, or a 3D view) in all's order: the
 * entries of all before it. */
static inline uint32_t sg_traverse_position(const struct sg_traversal *traversal, uint32_t n)
{
	return n < traversal->ranges_count ? traversal->ranges[n].first : 0;
}

/* SG_OK when model node n's mesh and texture both exist, else SG_ERR_STALE_HANDLE
 * naming the model and what was destroyed. Culled models are checked too, so
 * that culling never hides an error the unculled walk reports. */
sg_result sg_draw_check_model(const struct sg_scene *scene, uint32_t n);
/* Appends model node n after sg_draw_check_model(). */
sg_result sg_draw_list_push(struct sg_draw_list *list, const struct sg_scene *scene, uint32_t n);
/* Appends model node n unchecked. */
sg_result sg_draw_list_append(struct sg_draw_list *list, const struct sg_scene *scene,
                             uint32_t n);

#endif
