#include "target.h"

sg_result sg_target_bind(struct sg_target *target)
{
	sg_result result = sg_egl_make_current(&target->egl);
	if (result)
		return result;
	glBindFramebuffer(GL_FRAMEBUFFER, target->fb.framebuffer);
	return SG_OK;
}

void sg_target_destroy(struct sg_target *target)
{
	if (target)
		target->impl->destroy(target);
}

void sg_target_finish_framebuffer(struct sg_target *target)
{
	if (target->egl.context != EGL_NO_CONTEXT && sg_egl_make_current(&target->egl) == SG_OK)
		sg_gl_framebuffer_finish(&target->fb);
}
