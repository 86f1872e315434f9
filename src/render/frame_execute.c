/* The executor of frame plans (frame.h): each pass on its target, handed to
 * the GL layer by its kind. */
#include "frame.h"

#include "../base/alloc.h"
#include "../base/error.h"

/* The draws [first, end) of list as a list of their own, for the 2D drawer. */
static sg_result cut_segment(const struct sg_frame_context *context,
                             const struct sg_draw_list *list, size_t first, size_t end)
{
	struct sg_draw_list *cut = context->segment;
	size_t count = end - first;
	if (!sg_grow_array((void **)&cut->draws, &cut->capacity, count ? count : 1,
	                   sizeof(*cut->draws)) ||
	    !sg_grow_array((void **)&cut->origin, &cut->origin_capacity, count ? count : 1,
	                   sizeof(*cut->origin)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory listing %zu draws beside a 3D view",
		               count);
	for (size_t i = 0; i < count; i++) {
		cut->draws[i] = list->draws[first + i];
		cut->origin[i] = (uint32_t)sg_draw_origin(list, first + i);
	}
	cut->count = count;
	cut->source = sg_draw_source(list);
	cut->transient = true;
	cut->serial = ++*context->next_serial;
	return SG_OK;
}

static sg_result draw_2d(const struct sg_pass *pass, const struct sg_frame_plan *plan,
                         const struct sg_frame_context *context, const struct sg_scene *scene)
{
	const struct sg_draw_list *part = plan->list;
	if (pass->first > 0 || pass->end < plan->list->count) {
		sg_result result = cut_segment(context, plan->list, pass->first, pass->end);
		if (result)
			return result;
		part = context->segment;
	}
	struct sg_gl_frame frame = {context->width, context->height, context->clear_color,
	                            pass->region, !pass->clear};
	return sg_gl_drawer_draw(context->gl, scene, part, context->walk,
	                         (vec4 *)context->view_projection, &frame);
}

static sg_result draw_view(const struct sg_pass *pass, const struct sg_frame_plan *plan,
                           const struct sg_frame_context *context, const struct sg_scene *scene)
{
	return sg_gl_drawer_draw_view(context->gl, scene, &plan->views->views[pass->view],
	                              pass->region);
}

/* The damage tint's quads were never counted as the frame's draw calls. */
static sg_result draw_tint(const struct sg_pass *pass, const struct sg_frame_context *context)
{
	sg_result result =
	    sg_gl_drawer_tint(context->gl, pass->region, context->width, context->height);
	context->gl->batches = 0;
	return result;
}

/* The sort rule each kind draws in (frame.h): a plan asking another is wrong. */
static const enum sg_pass_sort kind_sort[] = {
    [SG_PASS_2D] = SG_SORT_PAINTER,
    [SG_PASS_VIEW3D] = SG_SORT_DEPTH,
    [SG_PASS_TINT] = SG_SORT_NONE,
};

static sg_result draw_pass(const struct sg_pass *pass, const struct sg_frame_plan *plan,
                           const struct sg_frame_context *context, const struct sg_scene *scene)
{
	if ((unsigned)pass->kind > SG_PASS_TINT)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "unknown pass kind %d", (int)pass->kind);
	if (pass->sort != kind_sort[pass->kind])
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "a pass of kind %d cannot draw in order %d",
		               (int)pass->kind, (int)pass->sort);
	switch (pass->kind) {
	case SG_PASS_2D: return draw_2d(pass, plan, context, scene);
	case SG_PASS_VIEW3D: return draw_view(pass, plan, context, scene);
	case SG_PASS_TINT: break;
	}
	return draw_tint(pass, context);
}

static GLuint framebuffer_of(const struct sg_pass_target *target,
                             const struct sg_frame_context *context)
{
	return target->kind == SG_PASS_TARGET_TEXTURE ? target->texture->framebuffer
	                                              : context->framebuffer;
}

sg_result sg_frame_execute(struct sg_frame_plan *plan, const struct sg_frame_context *context,
                           const struct sg_scene *scene)
{
	sg_result result = SG_OK;
	size_t batches = 0;
	GLuint bound = context->framebuffer;
	for (size_t i = 0; i < plan->count && !result; i++) {
		struct sg_pass *pass = &plan->passes[i];
		GLuint framebuffer = framebuffer_of(&pass->target, context);
		if (framebuffer != bound)
			glBindFramebuffer(GL_FRAMEBUFFER, bound = framebuffer);
		context->gl->batches = 0; /* each kind adds its draw calls */
		result = draw_pass(pass, plan, context, scene);
		pass->batches = context->gl->batches;
		batches += pass->batches;
	}
	if (bound != context->framebuffer)
		glBindFramebuffer(GL_FRAMEBUFFER, context->framebuffer);
	context->gl->batches = batches;
	return result;
}
