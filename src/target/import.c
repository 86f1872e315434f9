/* Imported textures: each renderer makes its own EGLImage of the dma-buf
 * (EGL_EXT_image_dma_buf_import) the first time it draws the texture, and the
 * GL texture takes it as storage (glEGLImageTargetTexture2DOES), so the draw
 * paths sample it like any texture. A format or modifier the display does not
 * list is refused before eglCreateImage, whose EGL_BAD_MATCH says nothing. */
#include "import.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../graph/dmabuf.h"
#include "../graph/error.h"
#include "../graph/scene_internal.h"

/* The fourccs the display lists, for a message; a buffer of 128 holds what
 * Mesa's drivers list. */
static void list_formats(struct sg_egl *egl, char *out, size_t size)
{
	EGLint formats[128], count = 0;
	if (!egl->query_dmabuf_formats ||
	    !egl->query_dmabuf_formats(egl->display, 128, formats, &count)) {
		snprintf(
		    out, size,
		    "(the display cannot list them: no EGL_EXT_image_dma_buf_import_modifiers)");
		return;
	}
	size_t used = 0;
	out[0] = '\0';
	for (EGLint i = 0; i < count && used + 8 < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "",
		                         sg_fourcc_name((uint32_t)formats[i]));
}

static bool lists_format(struct sg_egl *egl, uint32_t fourcc, bool *known)
{
	EGLint formats[128], count = 0;
	*known = egl->query_dmabuf_formats &&
	         egl->query_dmabuf_formats(egl->display, 128, formats, &count);
	for (EGLint i = 0; *known && i < count; i++)
		if ((uint32_t)formats[i] == fourcc)
			return true;
	return false;
}

/* The modifiers the display lists for fourcc, in modifiers (at most 64). */
static EGLint list_modifiers(struct sg_egl *egl, uint32_t fourcc, EGLuint64KHR *modifiers)
{
	EGLint count = 0;
	if (!egl->query_dmabuf_modifiers ||
	    !egl->query_dmabuf_modifiers(egl->display, (EGLint)fourcc, 64, modifiers, NULL, &count))
		return 0;
	return count;
}

static sg_result check_supported(struct sg_target *target, const struct sg_texture_import *import,
                                 uint32_t index, bool *explicit_modifier)
{
	struct sg_egl *egl = &target->egl;
	if (!egl->dmabuf_import || !egl->create_image || !egl->image_target_texture)
		return sg_fail(SG_ERR_UNSUPPORTED,
		               "texture #%u: the %s target's EGL display (driver '%s') lacks "
		               "EGL_EXT_image_dma_buf_import or GL_OES_EGL_image: it cannot draw "
		               "dma-buf textures",
		               index, target->impl->name, egl->driver);
	bool known;
	char list[1024];
	if (!lists_format(egl, import->fourcc, &known) && known) {
		list_formats(egl, list, sizeof(list));
		return sg_fail(SG_ERR_UNSUPPORTED,
		               "texture #%u: EGL on the %s target cannot import format %s; "
		               "eglQueryDmaBufFormatsEXT offers: %s",
		               index, target->impl->name, sg_fourcc_name(import->fourcc), list);
	}
	*explicit_modifier = false;
	if (import->modifier == SG_DMABUF_MOD_IMPLICIT)
		return SG_OK;
	EGLuint64KHR modifiers[64];
	EGLint count =
	    egl->dmabuf_import_modifiers ? list_modifiers(egl, import->fourcc, modifiers) : 0;
	for (EGLint i = 0; i < count; i++)
		if (modifiers[i] == import->modifier)
			*explicit_modifier = true;
	/* A display that lists no modifier imports linear buffers as implicit ones. */
	if (*explicit_modifier || (import->modifier == 0 && count == 0))
		return SG_OK;
	size_t used = 0;
	list[0] = '\0';
	for (EGLint i = 0; i < count && used + 24 < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s0x%llx", i ? " " : "",
		                         (unsigned long long)modifiers[i]);
	return sg_fail(SG_ERR_UNSUPPORTED,
	               "texture #%u: EGL on the %s target cannot import format %s with modifier "
	               "0x%llx; eglQueryDmaBufModifiersEXT offers: %s",
	               index, target->impl->name, sg_fourcc_name(import->fourcc),
	               (unsigned long long)import->modifier,
	               count                          ? list
	               : egl->dmabuf_import_modifiers ? "none"
	                                              : "nothing (no "
	                                                "EGL_EXT_image_dma_buf_import_modifiers)");
}

int sg_import_fence_timeout_ms = 2000;

/* The GPU waits (eglWaitSyncKHR returns at once) where the fence can become
 * an EGLSync; EGL takes the fd it is given, so it gets a dup. */
static bool wait_on_gpu(struct sg_egl *egl, int fence)
{
	if (!egl->native_fence || !egl->wait_sync)
		return false;
	int fd = fcntl(fence, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return false;
	const EGLint attribs[] = {EGL_SYNC_NATIVE_FENCE_FD_ANDROID, fd, EGL_NONE};
	EGLSyncKHR sync = egl->create_sync(egl->display, EGL_SYNC_NATIVE_FENCE_ANDROID, attribs);
	if (sync == EGL_NO_SYNC_KHR) {
		close(fd);
		return false;
	}
	bool waited = egl->wait_sync(egl->display, sync, 0) == EGL_TRUE;
	egl->destroy_sync(egl->display, sync);
	return waited;
}

/* Before the texture is sampled: its acquire fence (sg_texture_mark_changed)
 * signalled, on the GPU or here. */
static sg_result wait_acquire(struct sg_target *target, const struct sg_texture_import *import,
                              uint32_t index)
{
	if (import->acquire_fence < 0 || wait_on_gpu(&target->egl, import->acquire_fence))
		return SG_OK;
	struct pollfd fence = {.fd = import->acquire_fence, .events = POLLIN};
	int ready;
	do
		ready = poll(&fence, 1, sg_import_fence_timeout_ms);
	while (ready < 0 && (errno == EINTR || errno == EAGAIN));
	if (ready < 0)
		return sg_fail(SG_ERR_DEVICE, "texture #%u: poll on its acquire fence failed: %s",
		               index, strerror(errno));
	if (ready == 0)
		return sg_fail(
		    SG_ERR_DEVICE,
		    "texture #%u: its acquire fence (sg_texture_mark_changed) did not signal "
		    "within %d ms; not drawn",
		    index, sg_import_fence_timeout_ms);
	if (fence.revents & (POLLERR | POLLNVAL))
		return sg_fail(SG_ERR_DEVICE,
		               "texture #%u: its acquire fence is in error (revents 0x%x)", index,
		               fence.revents);
	return SG_OK;
}

static sg_result attach(void *data, const struct sg_texture_data *t, uint32_t index, void **image)
{
	struct sg_target *target = data;
	struct sg_egl *egl = &target->egl;
	const struct sg_texture_import *import = t->import;
	bool explicit_modifier;
	sg_result result = check_supported(target, import, index, &explicit_modifier);
	if (result)
		return result;
	static const EGLint plane_keys[4][5] = {
	    {EGL_DMA_BUF_PLANE0_FD_EXT, EGL_DMA_BUF_PLANE0_OFFSET_EXT, EGL_DMA_BUF_PLANE0_PITCH_EXT,
	     EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT},
	    {EGL_DMA_BUF_PLANE1_FD_EXT, EGL_DMA_BUF_PLANE1_OFFSET_EXT, EGL_DMA_BUF_PLANE1_PITCH_EXT,
	     EGL_DMA_BUF_PLANE1_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE1_MODIFIER_HI_EXT},
	    {EGL_DMA_BUF_PLANE2_FD_EXT, EGL_DMA_BUF_PLANE2_OFFSET_EXT, EGL_DMA_BUF_PLANE2_PITCH_EXT,
	     EGL_DMA_BUF_PLANE2_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE2_MODIFIER_HI_EXT},
	    {EGL_DMA_BUF_PLANE3_FD_EXT, EGL_DMA_BUF_PLANE3_OFFSET_EXT, EGL_DMA_BUF_PLANE3_PITCH_EXT,
	     EGL_DMA_BUF_PLANE3_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE3_MODIFIER_HI_EXT},
	};
	EGLint attribs[10 + 4 * 10 + 1];
	int n = 0;
	attribs[n++] = EGL_WIDTH;
	attribs[n++] = t->width;
	attribs[n++] = EGL_HEIGHT;
	attribs[n++] = t->height;
	attribs[n++] = EGL_LINUX_DRM_FOURCC_EXT;
	attribs[n++] = (EGLint)import->fourcc;
	if (import->fourcc ==
	    SG_FOURCC_NV12) { /* hints the driver's conversion follows when it samples */
		attribs[n++] = EGL_YUV_COLOR_SPACE_HINT_EXT;
		attribs[n++] =
		    import->encoding == SG_YUV_BT709 ? EGL_ITU_REC709_EXT : EGL_ITU_REC601_EXT;
		attribs[n++] = EGL_SAMPLE_RANGE_HINT_EXT;
		attribs[n++] = import->range == SG_YUV_FULL ? EGL_YUV_FULL_RANGE_EXT
		                                            : EGL_YUV_NARROW_RANGE_EXT;
	}
	for (int i = 0; i < import->plane_count; i++) {
		attribs[n++] = plane_keys[i][0];
		attribs[n++] = import->fds[i];
		attribs[n++] = plane_keys[i][1];
		attribs[n++] = (EGLint)import->offsets[i];
		attribs[n++] = plane_keys[i][2];
		attribs[n++] = (EGLint)import->strides[i];
		if (explicit_modifier) {
			attribs[n++] = plane_keys[i][3];
			attribs[n++] = (EGLint)(import->modifier & 0xffffffffu);
			attribs[n++] = plane_keys[i][4];
			attribs[n++] = (EGLint)(import->modifier >> 32);
		}
	}
	attribs[n] = EGL_NONE;
	EGLImageKHR made =
	    egl->create_image(egl->display, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, attribs);
	if (made == EGL_NO_IMAGE_KHR) {
		EGLint error = eglGetError();
		return sg_fail(error == EGL_BAD_MATCH ? SG_ERR_UNSUPPORTED : SG_ERR_EGL,
		               "texture #%u: eglCreateImageKHR(EGL_LINUX_DMA_BUF_EXT, %s, %dx%d, "
		               "modifier 0x%llx) on the %s target failed: %s",
		               index, sg_fourcc_name(import->fourcc), t->width, t->height,
		               (unsigned long long)import->modifier, target->impl->name,
		               sg_egl_error_name(error));
	}
	*image = made;
	if ((result = wait_acquire(target, import, index)))
		return result; /* the caller deletes the texture and releases the image */
	egl->image_target_texture(import->external ? GL_TEXTURE_EXTERNAL_OES : GL_TEXTURE_2D, made);
	return SG_OK;
}

static sg_result changed(void *data, const struct sg_texture_data *t, uint32_t index, void *image)
{
	struct sg_target *target = data;
	sg_result result = wait_acquire(target, t->import, index);
	if (result)
		return result;
	/* As wlroots does: specifying the image again makes a driver that keeps
	 * a copy or caches of the buffer take the producer's writes. */
	target->egl.image_target_texture(
	    t->import->external ? GL_TEXTURE_EXTERNAL_OES : GL_TEXTURE_2D, image);
	return SG_OK;
}

static void release(void *data, void *image)
{
	struct sg_target *target = data;
	target->egl.destroy_image(target->egl.display, image);
}

const struct sg_gl_import_ops *sg_target_import_ops(struct sg_target *target)
{
	target->import = (struct sg_gl_import_ops){
	    .attach = attach, .changed = changed, .release = release, .data = target};
	return &target->import;
}
