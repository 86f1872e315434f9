/* What every target shares: binding a buffer, plain buffers (GL storage of
 * the target's size, on any target), and the dispatch to the target's own
 * buffers (scanout, read-back through its device). */
#include <stdio.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "target.h"

sg_result sg_target_bind(struct sg_target *target, struct sg_target_buffer *buffer)
{
	sg_result result = sg_egl_make_current(&target->egl);
	if (result)
		return result;
	buffer = buffer ? buffer : target->own;
	glBindFramebuffer(GL_FRAMEBUFFER, buffer ? buffer->fb.framebuffer : 0);
	return SG_OK;
}

void sg_target_destroy(struct sg_target *target)
{
	if (target)
		target->impl->destroy(target);
}

sg_result sg_target_plain_buffer(struct sg_target *target, const char *what,
                                 struct sg_target_buffer **out)
{
	*out = NULL;
	struct sg_target_buffer *buffer = sg_calloc(1, sizeof(*buffer));
	if (!buffer)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory %s", what);
	buffer->plain = true;
	buffer->layout.width = (uint32_t)target->width;
	buffer->layout.height = (uint32_t)target->height;
	sg_gl_framebuffer_begin(&buffer->fb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, target->width, target->height);
	sg_result result =
	    sg_gl_framebuffer_complete(&buffer->fb, target->width, target->height, what);
	if (result) {
		sg_gl_framebuffer_finish(&buffer->fb);
		sg_free(buffer);
		return result;
	}
	*out = buffer;
	return SG_OK;
}

sg_result sg_target_buffer_create(struct sg_target *target, const struct sg_buffer_desc *desc,
                                  struct sg_target_buffer **out)
{
	*out = NULL;
	if (!desc->scanout) {
		char what[96];
		snprintf(what, sizeof(what), "creating a %dx%d RGBA8 renderbuffer", target->width,
		         target->height);
		return sg_target_plain_buffer(target, what, out);
	}
	if (!target->impl->buffer_create)
		return sg_fail(SG_ERR_UNSUPPORTED,
		               "the %s target has no device to allocate scanout buffers on",
		               target->impl->name);
	return target->impl->buffer_create(target, desc, out);
}

void sg_target_buffer_destroy(struct sg_target *target, struct sg_target_buffer *buffer)
{
	if (!buffer)
		return;
	if (!buffer->plain) {
		target->impl->buffer_destroy(target, buffer);
		return;
	}
	sg_gl_framebuffer_finish(&buffer->fb);
	sg_free(buffer);
}

bool sg_target_scanout_format(struct sg_target *target, uint32_t format)
{
	return target->impl->scanout_format && target->impl->scanout_format(target, format);
}

int sg_target_render_modifiers(struct sg_target *target, uint32_t format, uint64_t *modifiers,
                               int max)
{
	return target->impl->render_modifiers
	           ? target->impl->render_modifiers(target, format, modifiers, max)
	           : 0;
}

sg_result sg_target_read_rect(struct sg_target *target, struct sg_target_buffer *buffer,
                              const struct sg_rect *r, void *rgba, size_t stride)
{
	if (buffer->plain && r->x == 0 && r->y == 0 && r->width == target->width &&
	    r->height == target->height)
		return sg_gl_read_rgba(r->width, r->height, rgba, stride); /* one call */
	if (buffer->plain)
		return sg_gl_read_rgba_rect(r->x, r->y, r->width, r->height, rgba, stride);
	return target->impl->read_rect(target, buffer, r, rgba, stride);
}
