#include "spares.h"

#include <stdio.h>

#include "../base/error.h"

sg_result sg_render_spares_use(struct sg_render_spares *spares, struct sg_target *target,
                               int index)
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

void sg_render_spares_finish(struct sg_render_spares *spares, struct sg_target *target)
{
	if (spares->saved)
		target->fb = spares->own;
	for (int i = 1; i < SG_RENDER_BUFFERS; i++)
		if (spares->fb[i].framebuffer || spares->fb[i].renderbuffer)
			sg_gl_framebuffer_finish(&spares->fb[i]);
	*spares = (struct sg_render_spares){0};
}
