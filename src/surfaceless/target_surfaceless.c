/* The surfaceless target: EGL_MESA_platform_surfaceless with no device at all
 * (llvmpipe on machines without a render node), rendering into plain RGBA8
 * renderbuffers read back with glReadPixels. It makes no scanout buffers. */
#include <stdio.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "target_surfaceless.h"

static void surfaceless_destroy(struct sg_target *target)
{
	if (target->own && target->egl.context != EGL_NO_CONTEXT &&
	    sg_egl_make_current(&target->egl) == SG_OK)
		sg_target_buffer_destroy(target, target->own);
	target->own = NULL;
	sg_egl_finish(&target->egl);
	sg_free(target);
}

static const struct sg_target_impl surfaceless_impl = {
	.name = "surfaceless",
	.destroy = surfaceless_destroy,
};

sg_result sg_target_surfaceless_create(int width, int height, struct sg_target **out)
{
	*out = NULL;
	const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	if (!sg_has_extension(client, "EGL_MESA_platform_surfaceless"))
		return sg_fail(SG_ERR_EGL, "EGL lacks EGL_MESA_platform_surfaceless (client extensions: %s)",
		               client ? client : "none");
	struct sg_target *target = sg_calloc(1, sizeof(*target));
	if (!target)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory creating the surfaceless target");
	target->impl = &surfaceless_impl;
	target->kind = SG_TARGET_SURFACELESS;
	target->width = width;
	target->height = height;
	target->egl.context = EGL_NO_CONTEXT;
	target->egl.display = EGL_NO_DISPLAY;

	sg_result result = sg_egl_init(&target->egl, EGL_PLATFORM_SURFACELESS_MESA,
	                               EGL_DEFAULT_DISPLAY, "the surfaceless platform");
	if (!result) {
		char what[96];
		snprintf(what, sizeof(what), "creating a %dx%d RGBA8 renderbuffer", width, height);
		result = sg_target_plain_buffer(target, what, &target->own);
	}
	if (result) {
		surfaceless_destroy(target);
		return result;
	}
	*out = target;
	return SG_OK;
}
