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
