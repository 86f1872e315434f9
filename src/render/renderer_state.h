/* Internal to src/render/: the state of a public sg_renderer, shared by
 * renderer.c and testing.c (the hooks of renderer_internal.h, a static
 * library of their own that only the tests link, not libsg). */
#ifndef SG_RENDER_RENDERER_STATE_H
#define SG_RENDER_RENDERER_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <sg/renderer.h>

#include "../gl/drawer.h"
#include "../traverse/damage.h"
#include "../traverse/traverse.h"
#include "../traverse/views3d.h"
#include "buffer.h"
#include "frame.h"

struct sg_renderer {
	struct sg_target *target;
	struct sg_gl_drawer gl;
	bool gl_ready;
	struct sg_traversal traversal;
	struct sg_views3d views3d; /* the 3D views of the last frame */
	/* What each 3D view of the last frame drew (node, signature, viewport),
	 * for damage tracking: a view whose signature changed is repainted in
	 * its viewport's rectangle, and in the one it had. */
	struct sg_view_seen {
		uint32_t node, generation;
		uint64_t signature;
		int viewport[4];
	} *seen;
	size_t seen_count, seen_capacity;
	struct sg_draw_list segment; /* the 2D draws between two 3D views */
	/* The last frame's passes (docs/frame.md) and what they read, which
	 * the tests inspect and run plans of their own with (testing.c). */
	struct sg_frame_plan plan;
	struct sg_frame_context context;
	float clear_color[4];
	/* How frames stand in the buffers (a rotated output): the camera's
	 * picture is the target's size, swapped for a quarter turn. */
	enum sg_rotation rotation;
	bool culling;
	bool rendered;
	/* Damage tracking (src/traverse/damage.c): on unless turned off. */
	bool damage_tracking, debug_damage;
	struct sg_damage damage;
	/* The target's own buffer, and the buffer of the last draw (own, or one
	 * handed to sg_renderer_draw), which the read-back calls read. */
	struct sg_render_buffer own;
	struct sg_render_buffer *last;
	struct sg_render_stats stats;
	struct sg_renderer_info info;
	/* Taken by every call that touches the state above: a renderer is used by
	 * one thread at a time, and a second one is refused rather than let loose
	 * on the draw list and the GL context. */
	atomic_bool in_use;
	bool driver_lock; /* sg_driver_lock_needed() for this renderer's driver */
	char reason[640]; /* the target's reason, plus the driver lock if taken */
};

/* Marks the renderer in use for the length of a call: false, with
 * SG_ERR_BUSY naming call, if another thread's call holds it. */
bool sg_renderer_enter(struct sg_renderer *renderer, const char *call);
void sg_renderer_leave(struct sg_renderer *renderer);

#endif
