/* Scanout buffers of the GBM target: each a gbm_bo the renderer draws into
 * through its own EGLImage and FBO, and that KMS scans out as it is. */
#include <errno.h>
#include <gbm.h>
#include <string.h>
#include <drm_fourcc.h>

#include "../base/error.h"
#include "scanout.h"
#include "target_gbm_private.h"

static struct gbm_target *gbm_of(struct sg_target *target)
{
	return sg_target_is_gbm(target) ? (struct gbm_target *)target : NULL;
}

bool sg_target_is_gbm(const struct sg_target *target)
{
	return target && target->kind == SG_TARGET_GBM;
}

bool sg_target_gbm_scanout_format(struct sg_target *target, uint32_t format)
{
	struct gbm_target *t = gbm_of(target);
	if (!t)
		return false;
	return gbm_device_is_format_supported(t->gbm, format,
	                                      GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING);
}

int sg_target_gbm_render_modifiers(struct sg_target *target, uint32_t format, uint64_t *modifiers,
                                   int max)
{
	return gbm_of(target) ? sg_gbm_render_modifiers(&target->egl, format, modifiers, max) : 0;
}

static void describe(struct gbm_target *t, int index, struct sg_scanout_buffer *out)
{
	struct gbm_bo *bo = t->buffers[index].bo;
	*out = (struct sg_scanout_buffer){
	    .index = index,
	    .width = gbm_bo_get_width(bo),
	    .height = gbm_bo_get_height(bo),
	    .format = gbm_bo_get_format(bo),
	    .modifier = gbm_bo_get_modifier(bo),
	    .plane_count = gbm_bo_get_plane_count(bo),
	};
	for (int i = 0; i < out->plane_count && i < 4; i++) {
		out->handles[i] = gbm_bo_get_handle_for_plane(bo, i).u32;
		out->strides[i] = gbm_bo_get_stride_for_plane(bo, i);
		out->offsets[i] = gbm_bo_get_offset(bo, i);
	}
}

sg_result sg_target_gbm_add_scanout(struct sg_target *target, uint32_t format,
                                    const uint64_t *modifiers, int count,
                                    struct sg_scanout_buffer *buffer)
{
	struct gbm_target *t = gbm_of(target);
	if (!t)
		return sg_fail(SG_ERR_UNSUPPORTED, "scanout buffers need the GBM target");
	if (t->buffer_count >= SG_GBM_MAX_BUFFERS)
		return sg_fail(SG_ERR_LIMIT, "at most %d scanout buffers per renderer",
		               SG_GBM_MAX_BUFFERS - 1);
	const uint32_t usage = GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING;
	uint32_t width = (uint32_t)target->width, height = (uint32_t)target->height;
	struct gbm_bo *bo = NULL;
	int with_modifiers_errno = 0;
	if (count > 0) {
		bo = gbm_bo_create_with_modifiers2(t->gbm, width, height, format, modifiers,
		                                   (unsigned)count, usage);
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
	struct gbm_buffer *slot = &t->buffers[t->buffer_count++];
	slot->bo = bo;
	sg_result result = sg_gbm_import_bo(t, slot);
	if (!result)
		describe(t, t->buffer_count - 1, buffer);
	/* On failure the slot stays counted: destroy frees what it holds. */
	return result;
}

sg_result sg_target_gbm_use_buffer(struct sg_target *target, int index)
{
	struct gbm_target *t = gbm_of(target);
	if (!t || index < 0 || index >= t->buffer_count || !t->buffers[index].fb.framebuffer)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "no buffer %d on this target", index);
	t->current = index;
	target->fb = t->buffers[index].fb;
	return SG_OK;
}

void sg_target_gbm_drop_scanouts(struct sg_target *target)
{
	struct gbm_target *t = gbm_of(target);
	if (!t)
		return;
	for (int i = 1; i < t->buffer_count; i++) {
		struct gbm_buffer *buffer = &t->buffers[i];
		sg_gl_framebuffer_finish(&buffer->fb);
		if (buffer->image != EGL_NO_IMAGE_KHR && target->egl.destroy_image)
			target->egl.destroy_image(target->egl.display, buffer->image);
		if (buffer->bo)
			gbm_bo_destroy(buffer->bo);
		*buffer = (struct gbm_buffer){.image = EGL_NO_IMAGE_KHR};
	}
	t->buffer_count = t->buffer_count > 1 ? 1 : t->buffer_count;
	t->current = 0;
	target->fb = t->buffers[0].fb;
}
