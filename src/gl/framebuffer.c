#include "framebuffer.h"

#include <stdint.h>

#include "../base/error.h"
#include "check.h"

void sg_gl_framebuffer_begin(struct sg_gl_framebuffer *fb)
{
	*fb = (struct sg_gl_framebuffer){0};
	glGenRenderbuffers(1, &fb->renderbuffer);
	glBindRenderbuffer(GL_RENDERBUFFER, fb->renderbuffer);
}

static const char *status_name(GLenum status)
{
	switch (status) {
	case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
	case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
		return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
	case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED";
	case GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS: return "GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS";
	}
	return "unknown status";
}

sg_result sg_gl_framebuffer_complete(struct sg_gl_framebuffer *fb, int width, int height,
                                     const char *what)
{
	sg_result result = sg_gl_check(what);
	if (result)
		return result;
	/* 32-bit float depth: the painter's-order depths of a million draws stay distinct. */
	glGenRenderbuffers(1, &fb->depth);
	glBindRenderbuffer(GL_RENDERBUFFER, fb->depth);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, width, height);
	glGenFramebuffers(1, &fb->framebuffer);
	glBindFramebuffer(GL_FRAMEBUFFER, fb->framebuffer);
	if (fb->texture)
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
		                       fb->texture, 0);
	else
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
		                          fb->renderbuffer);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, fb->depth);
	GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
	if (status != GL_FRAMEBUFFER_COMPLETE)
		return sg_fail(SG_ERR_GL, "%s: framebuffer incomplete: %s (0x%04x)", what,
		               status_name(status), status);
	/* Frames that need no depth order test against what the buffer holds
	 * without clearing it (drawer.c): it must start in [0, 1]. */
	glDisable(GL_SCISSOR_TEST);
	glDepthMask(GL_TRUE); /* a translucent pass leaves it off */
	glClearDepthf(0.0f);
	glClear(GL_DEPTH_BUFFER_BIT);
	return sg_gl_check(what);
}

void sg_gl_framebuffer_finish(struct sg_gl_framebuffer *fb)
{
	if (fb->framebuffer)
		glDeleteFramebuffers(1, &fb->framebuffer);
	if (fb->renderbuffer)
		glDeleteRenderbuffers(1, &fb->renderbuffer);
	if (fb->depth)
		glDeleteRenderbuffers(1, &fb->depth);
	if (fb->texture)
		glDeleteTextures(1, &fb->texture);
	*fb = (struct sg_gl_framebuffer){0};
}

sg_result sg_gl_framebuffer_texture(struct sg_gl_framebuffer *fb, int width, int height,
                                    const char *what)
{
	*fb = (struct sg_gl_framebuffer){0};
	glGenTextures(1, &fb->texture);
	glBindTexture(GL_TEXTURE_2D, fb->texture);
	/* Immutable storage, one level: complete without mipmaps when sampled. */
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glBindTexture(GL_TEXTURE_2D, 0);
	sg_result result = sg_gl_framebuffer_complete(fb, width, height, what);
	if (result)
		sg_gl_framebuffer_finish(fb);
	return result;
}

sg_result sg_gl_read_rgba_rect(int x, int y, int width, int height, void *rgba, size_t stride)
{
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	for (int row = y; row < y + height; row++)
		glReadPixels(x, row, width, 1, GL_RGBA, GL_UNSIGNED_BYTE,
		             (uint8_t *)rgba + stride * (size_t)row + (size_t)x * 4);
	return sg_gl_check("glReadPixels");
}

sg_result sg_gl_read_rgba(int width, int height, void *rgba, size_t stride)
{
	/* Rows come back in framebuffer order, which the renderer has made the
	 * image's top-first order (it flips y in the projection). */
	if (stride == (size_t)width * 4) {
		glPixelStorei(GL_PACK_ALIGNMENT, 1);
		glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
	} else {
		for (int y = 0; y < height; y++)
			glReadPixels(0, y, width, 1, GL_RGBA, GL_UNSIGNED_BYTE,
			             (uint8_t *)rgba + stride * (size_t)y);
	}
	return sg_gl_check("glReadPixels");
}
