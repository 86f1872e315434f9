/* Scanout buffers of the GBM target: each a gbm_bo the renderer draws into
 * through its own EGLImage and FBO, and that KMS scans out as it is. Made
 * for the caller (src/output/), which owns them. */
#include <errno.h>
#include <gbm.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "target_gbm_private.h"

bool sg_gbm_scanout_format(struct sg_target *target, uint32_t format)
{
	struct gbm_target *t = (struct gbm_target *)target;
	return gbm_device_is_format_supported(t->gbm, format,
	                                      GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING);
}

int sg_gbm_target_render_modifiers(struct sg_target *target, uint32_t format,
                                   uint64_t *modifiers, int max)
{
	return sg_gbm_render_modifiers(&target->egl, format, modifiers, max);
}

sg_result sg_gbm_scanout_create(struct sg_target *target, const struct sg_buffer_desc *desc,
                                struct sg_target_buffer **out)
{
	struct gbm_target *t = (struct gbm_target *)target;
	if (t->scanouts >= SG_GBM_MAX_SCANOUTS)
		return sg_fail(SG_ERR_LIMIT, "at most %d scanout buffers per renderer",
		               SG_GBM_MAX_SCANOUTS);
	const uint32_t usage = GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING;
	uint32_t width = (uint32_t)target->width, height = (uint32_t)target->height;
	uint32_t format = desc->format;
	struct gbm_bo *bo = NULL;
	int with_modifiers_errno = 0;
	if (desc->modifier_count > 0) {
		bo = gbm_bo_create_with_modifiers2(t->gbm, width, height, format, desc->modifiers,
		                                   (unsigned)desc->modifier_count, usage);
		with_modifiers_errno = bo ? 0 : errno;
	}
	/* Drivers without modifier support (kms_swrast: ENOSYS) still give an
	 * implicit layout that their own scanout accepts. */
	if (!bo)
		bo = gbm_bo_create(t->gbm, width, height, format, usage);
	if (!bo)
		return sg_fail(
		    SG_ERR_DEVICE,
		    "gbm_bo_create(%ux%u, %.4s, SCANOUT | RENDERING) on '%s' failed: %s%s%s", width,
		    height, (const char *)&format, target->device, strerror(errno),
		    with_modifiers_errno ? "; with modifiers: " : "",
		    with_modifiers_errno ? strerror(with_modifiers_errno) : "");
	struct gbm_buffer *buffer = sg_calloc(1, sizeof(*buffer));
	if (!buffer) {
		gbm_bo_destroy(bo);
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a scanout buffer");
	}
	buffer->bo = bo;
	buffer->image = EGL_NO_IMAGE_KHR;
	sg_result result = sg_gbm_import_bo(t, buffer);
	if (result) {
		sg_gbm_buffer_free(t, buffer);
		return result;
	}
	t->scanouts++;
	*out = &buffer->base;
	return SG_OK;
}

void sg_gbm_scanout_destroy(struct sg_target *target, struct sg_target_buffer *buffer)
{
	struct gbm_target *t = (struct gbm_target *)target;
	t->scanouts--;
	sg_gbm_buffer_free(t, (struct gbm_buffer *)buffer);
}
