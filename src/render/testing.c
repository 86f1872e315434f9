/* The renderer's hooks for the tests (renderer_internal.h): built as
 * sg_render_testing, a static library that the tests and the benchmark link
 * and libsg does not. */
#include <stdio.h>

#include "../base/error.h"
#include "../egl/egl.h"
#include "../gbm/scanout.h"
#include "../gl/expand.h"
#include "driver_lock.h"
#include "renderer_internal.h"
#include "renderer_state.h"

bool sg_renderer_enter_for_testing(struct sg_renderer *renderer)
{
	return sg_renderer_enter(renderer, "sg_renderer_enter_for_testing");
}

void sg_renderer_leave_for_testing(struct sg_renderer *renderer)
{
	sg_renderer_leave(renderer);
}

void sg_renderer_texture_totals_for_testing(const struct sg_renderer *renderer, size_t *live,
                                            size_t *bytes)
{
	*live = renderer->gl.textures.live;
	*bytes = renderer->gl.textures.bytes;
}

uint64_t sg_renderer_vertex_builds_for_testing(const struct sg_renderer *renderer)
{
	return renderer->gl.expanded.vertex_builds;
}

void sg_renderer_stream_for_testing(struct sg_renderer *renderer, size_t above_bytes,
                                    size_t chunk_vertices)
{
	renderer->gl.expanded.stream_above = above_bytes;
	renderer->gl.expanded.chunk_vertices = chunk_vertices;
	renderer->gl.expanded.chunk_ready = false; /* sized again at the next chunk */
	sg_gl_expand_bins_finish(&renderer->gl.expanded); /* and the batches */
}

bool sg_renderer_depth_tested_for_testing(const struct sg_renderer *renderer)
{
	return renderer->gl.depth.needed;
}

void sg_renderer_force_depth_for_testing(struct sg_renderer *renderer)
{
	renderer->gl.depth.forced = true;
}

/* Points target->fb at buffer index (0: the target's own), making the spare
 * at its first use. The context must be current. */
static sg_result use_spare(struct sg_render_spares *spares, struct sg_target *target, int index)
{
	if (index < 0 || index >= SG_RENDER_BUFFERS)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "no buffer %d: 0 .. %d", index,
		               SG_RENDER_BUFFERS - 1);
	if (!spares->saved) {
		spares->own = target->fb;
		spares->saved = true;
	}
	if (index == 0) {
		target->fb = spares->own;
		return SG_OK;
	}
	struct sg_gl_framebuffer *fb = &spares->fb[index];
	if (!fb->framebuffer) {
		sg_gl_framebuffer_begin(fb);
		glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, target->width, target->height);
		char what[96];
		snprintf(what, sizeof(what), "creating spare %dx%d RGBA8 buffer %d", target->width,
		         target->height, index);
		sg_result result = sg_gl_framebuffer_complete(fb, target->width, target->height, what);
		if (result) {
			sg_gl_framebuffer_finish(fb);
			return result;
		}
	}
	target->fb = *fb;
	return SG_OK;
}

sg_result sg_renderer_use_buffer_for_testing(struct sg_renderer *renderer, int index)
{
	/* The GBM target reads back its buffer object, not a spare. */
	if (sg_target_is_gbm(renderer->target))
		return sg_fail(SG_ERR_UNSUPPORTED, "spare buffers are for the surfaceless target");
	if (!sg_renderer_enter(renderer, "sg_renderer_use_buffer_for_testing"))
		return SG_ERR_BUSY;
	sg_driver_lock(renderer->driver_lock);
	sg_result result = sg_target_bind(renderer->target);
	if (!result) {
		result = use_spare(&renderer->spares, renderer->target, index);
		sg_egl_release(&renderer->target->egl);
	}
	sg_driver_unlock(renderer->driver_lock);
	if (!result)
		renderer->buffer = index;
	sg_renderer_leave(renderer);
	return result;
}

void sg_driver_lock_enable_for_testing(bool enabled)
{
	atomic_store(&sg_driver_lock_enabled, enabled);
}
