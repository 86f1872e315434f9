/* The GBM target, in the order of the stack: open the DRM node ->
 * gbm_create_device -> eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR) -> GLES
 * context -> gbm_bo (with modifiers where EGL offers them) -> dma-buf ->
 * EGLImage -> renderbuffer -> FBO. Read back with gbm_bo_map. */
#include <errno.h>
#include <gbm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/log.h"
#include "device.h"
#include "target_gbm.h"
#include "target_gbm_private.h"

/* In order of preference. ABGR8888 is R, G, B, A in memory: no swizzle on readback. */
static const uint32_t formats[] = {GBM_FORMAT_ABGR8888, GBM_FORMAT_ARGB8888, GBM_FORMAT_XBGR8888,
                                   GBM_FORMAT_XRGB8888};

void sg_gbm_buffer_free(struct gbm_target *t, struct gbm_buffer *buffer)
{
	struct sg_target *base = &t->base;
	if (!buffer)
		return;
	if (base->egl.context != EGL_NO_CONTEXT && sg_egl_make_current(&base->egl) == SG_OK)
		sg_gl_framebuffer_finish(&buffer->base.fb);
	if (buffer->image != EGL_NO_IMAGE_KHR && base->egl.destroy_image)
		base->egl.destroy_image(base->egl.display, buffer->image);
	if (buffer->bo)
		gbm_bo_destroy(buffer->bo);
	sg_free(buffer);
}

static void gbm_destroy(struct sg_target *base)
{
	struct gbm_target *t = (struct gbm_target *)base;
	sg_gbm_buffer_free(t, (struct gbm_buffer *)base->own);
	base->own = NULL;
	sg_egl_finish(&base->egl);
	if (t->gbm && !t->borrowed_gbm)
		gbm_device_destroy(t->gbm);
	if (t->fd >= 0 && !t->borrowed)
		close(t->fd);
	sg_free(t);
}

static sg_result gbm_read_rect(struct sg_target *base, struct sg_target_buffer *buffer,
                               const struct sg_rect *r, void *rgba, size_t stride)
{
	struct gbm_bo *bo = ((struct gbm_buffer *)buffer)->bo;
	uint32_t map_stride = 0;
	void *map_data = NULL;
	const uint8_t *map =
	    gbm_bo_map(bo, (uint32_t)r->x, (uint32_t)r->y, (uint32_t)r->width, (uint32_t)r->height,
	               GBM_BO_TRANSFER_READ, &map_stride, &map_data);
	if (!map)
		return sg_fail(SG_ERR_DEVICE, "gbm_bo_map of the output buffer on '%s' failed: %s",
		               base->device, strerror(errno));
	uint32_t format = gbm_bo_get_format(bo);
	bool swap_red_blue = format == GBM_FORMAT_ARGB8888 || format == GBM_FORMAT_XRGB8888;
	bool opaque = format == GBM_FORMAT_XBGR8888 || format == GBM_FORMAT_XRGB8888;
	for (int y = 0; y < r->height; y++) {
		const uint8_t *src = map + (size_t)map_stride * (size_t)y;
		uint8_t *dst = (uint8_t *)rgba + stride * (size_t)(r->y + y) + (size_t)r->x * 4;
		if (!swap_red_blue && !opaque) {
			memcpy(dst, src, (size_t)r->width * 4);
			continue;
		}
		for (int x = 0; x < r->width; x++, src += 4, dst += 4) {
			dst[0] = swap_red_blue ? src[2] : src[0];
			dst[1] = src[1];
			dst[2] = swap_red_blue ? src[0] : src[2];
			dst[3] = opaque ? 255 : src[3];
		}
	}
	gbm_bo_unmap(bo, map_data);
	return SG_OK;
}

static sg_result gbm_export_dmabuf(struct sg_target *base, struct sg_target_buffer *buffer,
                                   struct sg_dmabuf *dmabuf)
{
	if (buffer->plain)
		return sg_fail(SG_ERR_UNSUPPORTED, "a plain renderbuffer has no buffer object to export");
	struct gbm_bo *bo = ((struct gbm_buffer *)buffer)->bo;
	int fd = gbm_bo_get_fd(bo);
	if (fd < 0)
		return sg_fail(SG_ERR_DEVICE, "gbm_bo_get_fd on '%s' failed: %s", base->device,
		               strerror(errno));
	*dmabuf = (struct sg_dmabuf){
	    .fd = fd,
	    .fourcc = gbm_bo_get_format(bo),
	    .modifier = gbm_bo_get_modifier(bo),
	    .width = base->width,
	    .height = base->height,
	    .plane_count = gbm_bo_get_plane_count(bo),
	};
	for (int i = 0; i < dmabuf->plane_count && i < 4; i++) {
		dmabuf->strides[i] = gbm_bo_get_stride_for_plane(bo, i);
		dmabuf->offsets[i] = gbm_bo_get_offset(bo, i);
	}
	return SG_OK;
}

static const struct sg_target_impl gbm_impl = {
	.name = "gbm",
	.read_rect = gbm_read_rect,
	.export_dmabuf = gbm_export_dmabuf,
	.buffer_create = sg_gbm_scanout_create,
	.buffer_destroy = sg_gbm_scanout_destroy,
	.scanout_format = sg_gbm_scanout_format,
	.render_modifiers = sg_gbm_target_render_modifiers,
	.destroy = gbm_destroy,
};

static sg_result open_device(struct gbm_target *t, const char *path)
{
	sg_result result = sg_open_drm_node(path, &t->fd, &t->node_type);
	if (result)
		return result;
	snprintf(t->base.device, sizeof(t->base.device), "%s", path);
	t->gbm = gbm_create_device(t->fd);
	if (!t->gbm)
		return sg_fail(SG_ERR_DEVICE, "gbm_create_device on '%s' failed: %s", path,
		               strerror(errno));
	return sg_egl_init(&t->base.egl, EGL_PLATFORM_GBM_KHR, t->gbm, path);
}

/* The modifiers EGL can render to for format; 0 when it offers none (then the
 * driver picks an implicit layout). */
int sg_gbm_render_modifiers(struct sg_egl *egl, uint32_t format, uint64_t *modifiers, int max)
{
	if (!egl->dmabuf_import_modifiers || !egl->query_dmabuf_modifiers)
		return 0;
	EGLuint64KHR all[64];
	EGLBoolean external_only[64];
	EGLint count = 0;
	if (!egl->query_dmabuf_modifiers(egl->display, (EGLint)format, 64, all, external_only,
	                                 &count))
		return 0;
	int kept = 0;
	for (EGLint i = 0; i < count && kept < max; i++)
		if (!external_only[i]) /* external-only images cannot be render targets */
			modifiers[kept++] = all[i];
	return kept;
}

static sg_result allocate_bo(struct gbm_target *t, struct gbm_buffer *own)
{
	struct sg_target *base = &t->base;
	uint32_t format = 0;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && !format; i++)
		if (gbm_device_is_format_supported(t->gbm, formats[i], GBM_BO_USE_RENDERING))
			format = formats[i];
	if (!format)
		return sg_fail(SG_ERR_DEVICE, "'%s' supports none of the RGBA8 formats for rendering",
		               base->device);
	uint64_t modifiers[64];
	int count = sg_gbm_render_modifiers(&base->egl, format, modifiers, 64);
	struct gbm_bo *bo = NULL;
	if (count > 0)
		bo = gbm_bo_create_with_modifiers2(t->gbm, (uint32_t)base->width,
		                                   (uint32_t)base->height, format, modifiers,
		                                   (unsigned)count, GBM_BO_USE_RENDERING);
	if (!bo)
		bo = gbm_bo_create(t->gbm, (uint32_t)base->width, (uint32_t)base->height, format,
		                   GBM_BO_USE_RENDERING);
	if (bo)
		own->bo = bo;
	else
		return sg_fail(SG_ERR_DEVICE, "gbm_bo_create(%dx%d, %.4s) on '%s' failed: %s",
		               base->width, base->height, (const char *)&format, base->device,
		               strerror(errno));
	return SG_OK;
}

/* What KMS needs of bo (drmModeAddFB2WithModifiers). */
static void describe(struct gbm_bo *bo, struct sg_buffer_layout *out)
{
	*out = (struct sg_buffer_layout){
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

sg_result sg_gbm_import_bo(struct gbm_target *t, struct gbm_buffer *buffer)
{
	struct sg_target *base = &t->base;
	struct gbm_bo *bo = buffer->bo;
	struct sg_egl *egl = &base->egl;
	if (!egl->dmabuf_import || !egl->create_image || !egl->image_target_renderbuffer)
		return sg_fail(SG_ERR_EGL,
		               "EGL on '%s' lacks EGL_EXT_image_dma_buf_import or GL_OES_EGL_image",
		               base->device);
	int planes = gbm_bo_get_plane_count(bo);
	uint64_t modifier = gbm_bo_get_modifier(bo);
	bool explicit_modifier = modifier != DRM_FORMAT_MOD_INVALID && egl->dmabuf_import_modifiers;
	EGLint attribs[7 + 4 * 10 + 1];
	int n = 0, fds[4] = {-1, -1, -1, -1};
	attribs[n++] = EGL_WIDTH;
	attribs[n++] = base->width;
	attribs[n++] = EGL_HEIGHT;
	attribs[n++] = base->height;
	attribs[n++] = EGL_LINUX_DRM_FOURCC_EXT;
	attribs[n++] = (EGLint)gbm_bo_get_format(bo);
	sg_result result = SG_OK;
	for (int i = 0; i < planes && i < 4; i++) {
		fds[i] = gbm_bo_get_fd_for_plane(bo, i);
		if (fds[i] < 0) {
			result = sg_fail(SG_ERR_DEVICE, "gbm_bo_get_fd_for_plane(%d) on '%s' failed: %s", i,
			                 base->device, strerror(errno));
			goto done;
		}
		n += sg_egl_dmabuf_plane_attribs(attribs + n, i, fds[i], gbm_bo_get_offset(bo, i),
		                                 gbm_bo_get_stride_for_plane(bo, i),
		                                 explicit_modifier ? &modifier : NULL);
	}
	attribs[n] = EGL_NONE;
	buffer->image = egl->create_image(egl->display, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL,
	                             attribs);
	if (buffer->image == EGL_NO_IMAGE_KHR) {
		EGLint error = eglGetError();
		result = sg_fail(SG_ERR_EGL, "eglCreateImageKHR(EGL_LINUX_DMA_BUF_EXT) on '%s' failed: %s",
		                 base->device, sg_egl_error_name(error));
		goto done;
	}
	sg_gl_framebuffer_begin(&buffer->base.fb);
	egl->image_target_renderbuffer(GL_RENDERBUFFER, buffer->image);
	char what[300];
	snprintf(what, sizeof(what), "rendering into the gbm_bo on '%s'", base->device);
	result = sg_gl_framebuffer_complete(&buffer->base.fb, base->width, base->height, what);
	if (!result)
		describe(bo, &buffer->base.layout);
done:
	for (int i = 0; i < 4; i++) /* the EGLImage holds its own references */
		if (fds[i] >= 0)
			close(fds[i]);
	return result;
}

/* One attempt on one node. *allocation_failed tells the caller that a retry
 * on the primary node may help. */
static struct gbm_target *new_target(int width, int height)
{
	struct gbm_target *t = sg_calloc(1, sizeof(*t));
	if (!t) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory creating the GBM target");
		return NULL;
	}
	t->base.impl = &gbm_impl;
	t->base.kind = SG_TARGET_GBM;
	t->base.width = width;
	t->base.height = height;
	t->base.egl.display = EGL_NO_DISPLAY;
	t->base.egl.context = EGL_NO_CONTEXT;
	t->fd = -1;
	return t;
}

/* The buffer object and its framebuffer, once the device and EGL are up. */
static sg_result finish_target(struct gbm_target *t, bool *allocation_failed)
{
	struct gbm_buffer *own = sg_calloc(1, sizeof(*own));
	if (!own)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory creating the GBM target");
	own->image = EGL_NO_IMAGE_KHR;
	t->base.own = &own->base; /* freed by gbm_destroy, also on failure */
	sg_result result = allocate_bo(t, own);
	*allocation_failed = result != SG_OK;
	if (!result)
		result = sg_gbm_import_bo(t, own);
	return result;
}

static sg_result create_on(const char *path, int width, int height, struct gbm_target **out,
                           bool *allocation_failed)
{
	*allocation_failed = false;
	struct gbm_target *t = new_target(width, height);
	if (!t)
		return SG_ERR_NO_MEMORY;
	sg_result result = open_device(t, path);
	if (!result)
		result = finish_target(t, allocation_failed);
	*out = t; /* also on failure: the caller may want t->fd to find the primary node */
	return result;
}

sg_result sg_target_gbm_create_borrowed(int fd, struct gbm_device *gbm, int width, int height,
                                        struct sg_target **out)
{
	*out = NULL;
	if (gbm)
		fd = gbm_device_get_fd(gbm);
	int node_type = drmGetNodeTypeFromFd(fd);
	if (node_type < 0)
		return sg_fail(SG_ERR_DEVICE, "the caller's %s (fd %d) is not a DRM device node",
		               gbm ? "gbm_device" : "DRM fd", fd);
	struct gbm_target *t = new_target(width, height);
	if (!t)
		return SG_ERR_NO_MEMORY;
	t->fd = fd;
	t->node_type = node_type;
	t->borrowed = true;
	t->borrowed_gbm = gbm != NULL;
	/* Messages and the info name the node, as for a path. */
	char *name = drmGetDeviceNameFromFd2(fd);
	snprintf(t->base.device, sizeof(t->base.device), "%s", name ? name : "a DRM fd");
	free(name);
	sg_result result = SG_OK;
	t->gbm = gbm ? gbm : gbm_create_device(fd);
	if (!t->gbm)
		result = sg_fail(SG_ERR_DEVICE, "gbm_create_device on the caller's fd %d (%s) failed: %s",
		                 fd, t->base.device, strerror(errno));
	if (!result)
		result = sg_egl_init(&t->base.egl, EGL_PLATFORM_GBM_KHR, t->gbm, t->base.device);
	bool allocation_failed = false;
	if (!result)
		result = finish_target(t, &allocation_failed);
	if (result) {
		/* No move to the primary node here: the caller chose this device. */
		if (allocation_failed && node_type == DRM_NODE_RENDER)
			sg_fail_prefix(result, "%s (kms_swrast needs dumb buffers, which render nodes "
			                       "refuse: pass the primary node): ",
			               t->base.device);
		gbm_destroy(&t->base);
		return result;
	}
	snprintf(t->base.reason, sizeof(t->base.reason), "rendering on the caller's %s (%s)",
	         gbm ? "gbm_device" : "DRM fd", t->base.device);
	*out = &t->base;
	return SG_OK;
}

sg_result sg_target_gbm_create(const char *path, int width, int height, struct sg_target **out)
{
	*out = NULL;
	struct gbm_target *t = NULL;
	bool allocation_failed;
	sg_result result = create_on(path, width, height, &t, &allocation_failed);
	if (!result) {
		snprintf(t->base.reason, sizeof(t->base.reason), "rendering on %s", path);
		*out = &t->base;
		return SG_OK;
	}
	char primary[256];
	if (!allocation_failed || t->node_type != DRM_NODE_RENDER ||
	    sg_primary_node_of(t->fd, primary, sizeof(primary)) != SG_OK) {
		if (t)
			gbm_destroy(&t->base);
		return result;
	}
	/* kms_swrast (vgem, virtio-gpu without virgl) allocates dumb buffers, which
	 * the kernel refuses on render nodes; the primary node of the same device allows them. */
	char why[400];
	snprintf(why, sizeof(why), "%s cannot allocate (%s%s): using %s", sg_node_basename(path),
	         strcmp(t->base.egl.driver, "kms_swrast") == 0 ? "kms_swrast needs dumb buffers; " : "",
	         sg_last_error(), sg_node_basename(primary));
	sg_log(SG_LOG_INFO, "%s", why);
	gbm_destroy(&t->base);
	result = create_on(primary, width, height, &t, &allocation_failed);
	if (result) {
		if (t)
			gbm_destroy(&t->base);
		return sg_fail_prefix(result, "%s; then ", why);
	}
	snprintf(t->base.reason, sizeof(t->base.reason), "%s", why);
	*out = &t->base;
	return SG_OK;
}
