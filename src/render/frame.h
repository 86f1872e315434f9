/* Internal: a frame as data (docs/frame.md): an ordered list of passes, each
 * with a target, a part of the frame's draws and a sort rule, built once per
 * frame from the traversal (frame.c) and run in order by one executor that
 * hands each pass to the GL layer by its kind (frame_execute.c). */
#ifndef SG_RENDER_FRAME_H
#define SG_RENDER_FRAME_H

#include <GLES3/gl3.h>
#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

#include "../gl/drawer.h"
#include "../gl/framebuffer.h"
#include "../traverse/damage.h"
#include "../traverse/traverse.h"
#include "../traverse/views3d.h"

enum sg_pass_kind {
	SG_PASS_2D,     /* a range of the frame's 2D draw list */
	SG_PASS_VIEW3D, /* the models of one 3D view, in its viewport */
	SG_PASS_TINT,   /* SG_DEBUG_DAMAGE: a translucent magenta over the region */
};

/* The order a pass draws its draws in. Each kind has one today, which the
 * executor checks: sorting happens where the draws are listed (the traversal
 * for 2D, sg_views3d_collect for a view), the plan says which rule holds. */
enum sg_pass_sort {
	SG_SORT_NONE,    /* nothing to order (the tint's one quad) */
	SG_SORT_PAINTER, /* list order: each draw over those before it */
	SG_SORT_DEPTH,   /* opaque by material, nearest first; then translucent farthest first */
};

enum sg_pass_target_kind {
	SG_PASS_TARGET_FRAME,   /* the buffer the frame is drawn into */
	SG_PASS_TARGET_TEXTURE, /* an offscreen texture (later: a plane's buffer, a shadow map) */
};

struct sg_pass_target {
	enum sg_pass_target_kind kind;
	/* SG_PASS_TARGET_TEXTURE: its framebuffer (sg_gl_framebuffer_texture),
	 * of the frame's size: clips and damage are in the frame's pixels. */
	const struct sg_gl_framebuffer *texture;
};

struct sg_pass {
	enum sg_pass_kind kind;
	enum sg_pass_sort sort;
	struct sg_pass_target target;
	/* Clear the target's colour first (in region); false: draw over what it
	 * holds. Depth is each kind's business: the 2D drawer clears it when its
	 * order needs it, a view in its viewport unless nested (docs/3d.md). */
	bool clear;
	const struct sg_damage_region *region; /* drawn only in it; NULL: all of the target */
	size_t first, end; /* SG_PASS_2D: the draws [first, end) of the plan's list */
	size_t view;       /* SG_PASS_VIEW3D: its index in the plan's views */
	size_t batches;    /* set by the executor: its draw calls */
};

struct sg_frame_plan {
	const struct sg_draw_list *list; /* the 2D draws (a cut of them when repainting damage) */
	const struct sg_views3d *views;  /* NULL: none this frame */
	/* The region repainted, kept here (the caller's may not outlive the
	 * draw): the region of every pass on the frame's buffer points to it. */
	struct sg_damage_region region;
	struct sg_pass *passes;
	size_t count, capacity;
};

/* What the plan is built from: the drawn list, the frame's 3D views (NULL:
 * none), the region to repaint (NULL: all; no rectangles: nothing), whether
 * SG_DEBUG_DAMAGE tints it, and where the passes draw. */
struct sg_frame_desc {
	const struct sg_draw_list *list;
	const struct sg_views3d *views;
	const struct sg_damage_region *region;
	bool tint;
	struct sg_pass_target target;
};

/* Replaces plan's passes with desc's frame: the 2D draws before the first
 * view (always, even none: it clears), the view, the 2D draws up to the next
 * view, and so on, then the tint. A region with no rectangles gives no pass.
 * Fails only for memory, keeping the plan's old capacity. */
sg_result sg_frame_plan_build(struct sg_frame_plan *plan, const struct sg_frame_desc *desc);
/* Adds pass at the end of plan. */
sg_result sg_frame_plan_add(struct sg_frame_plan *plan, const struct sg_pass *pass);
void sg_frame_plan_finish(struct sg_frame_plan *plan);

/* What every pass of a frame reads besides its own fields. */
struct sg_frame_context {
	struct sg_gl_drawer *gl;
	const struct sg_traversal *walk; /* what the plan's list was made by: paint, clips */
	mat4 view_projection;         /* the 2D passes' */
	int width, height;            /* the frame's, and every target's */
	const float *clear_color;     /* straight alpha */
	GLuint framebuffer;           /* SG_PASS_TARGET_FRAME's */
	struct sg_draw_list *segment; /* scratch: a 2D pass's range as a list of its own */
	uint64_t *next_serial;        /* the traversal's: each such list gets a new serial */
};

/* Runs plan's passes in order on scene, with the frame's framebuffer bound
 * and the context current; stops at the first failure. The GL drawer's
 * batches are the draw calls of every 2D and view pass, as the frame's stats
 * count them. Leaves the frame's framebuffer bound. */
sg_result sg_frame_execute(struct sg_frame_plan *plan, const struct sg_frame_context *context,
                           const struct sg_scene *scene);

#endif
