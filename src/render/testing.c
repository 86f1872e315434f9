/* The renderer's hooks for the tests (renderer_internal.h): built as
 * sg_render_testing, a static library that the tests and the benchmark link
 * and libsg does not. */
#include "../gl/expand.h"
#include "../gl/framebuffer.h"
#include "driver_lock.h"
#include "../target/target.h"
#include "frame.h"
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

void sg_renderer_import_ops_for_testing(struct sg_renderer *renderer,
                                        const struct sg_gl_import_ops *ops)
{
	renderer->gl.textures.import = ops;
}

void sg_driver_lock_enable_for_testing(bool enabled)
{
	atomic_store(&sg_driver_lock_enabled, enabled);
}

const struct sg_frame_plan *sg_renderer_plan_for_testing(const struct sg_renderer *renderer)
{
	return &renderer->plan;
}

/* A plan of one 2D pass into texture, run with the last frame's context. */
static sg_result draw_into(struct sg_renderer *renderer, const struct sg_scene *scene,
                           const struct sg_gl_framebuffer *texture)
{
	const struct sg_draw_list *list = renderer->traversal.list;
	struct sg_frame_plan plan = {.list = list};
	sg_result result =
	    sg_frame_plan_add(&plan, &(struct sg_pass){.kind = SG_PASS_2D,
	                                               .sort = SG_SORT_PAINTER,
	                                               .target = {SG_PASS_TARGET_TEXTURE, texture},
	                                               .clear = true,
	                                               .end = list->count});
	if (!result)
		result = sg_frame_execute(&plan, &renderer->context, scene);
	sg_frame_plan_finish(&plan);
	return result;
}

static sg_result offscreen(struct sg_renderer *renderer, const struct sg_scene *scene, void *rgba)
{
	const struct sg_frame_context *context = &renderer->context;
	struct sg_gl_framebuffer texture;
	sg_result result = sg_gl_framebuffer_texture(&texture, context->width, context->height,
	                                             "making an offscreen pass target");
	if (result)
		return result;
	glBindFramebuffer(GL_FRAMEBUFFER, context->framebuffer); /* as a frame starts */
	result = draw_into(renderer, scene, &texture);
	if (!result) {
		glBindFramebuffer(GL_FRAMEBUFFER, texture.framebuffer);
		result = sg_gl_read_rgba(context->width, context->height, rgba,
		                         (size_t)context->width * 4);
		glBindFramebuffer(GL_FRAMEBUFFER, context->framebuffer);
	}
	sg_gl_framebuffer_finish(&texture);
	return result;
}

sg_result sg_renderer_draw_offscreen_for_testing(struct sg_renderer *renderer,
                                                 const struct sg_scene *scene, void *rgba)
{
	if (!sg_renderer_enter(renderer, "sg_renderer_draw_offscreen_for_testing"))
		return SG_ERR_BUSY;
	sg_driver_lock(renderer->driver_lock);
	sg_result result = sg_target_bind(renderer->target, renderer->last->target_buffer);
	if (!result) {
		result = offscreen(renderer, scene, rgba);
		sg_egl_release(&renderer->target->egl);
	}
	sg_driver_unlock(renderer->driver_lock);
	sg_renderer_leave(renderer);
	return result;
}
