/* Imported textures: each renderer makes its own EGLImage of the dma-buf
 * (EGL_EXT_image_dma_buf_import) the first time it draws the texture, and the
 * GL texture takes it as storage (glEGLImageTargetTexture2DOES), so the draw
 * paths sample it like any texture; NV12 makes one image and texture per
 * plane (see image_layouts). A format or modifier the display does not
 * list is refused before eglCreateImage, whose EGL_BAD_MATCH says nothing. */
#include "import.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../graph/dmabuf.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"

/* The formats NV12's planes are imported as (drm_fourcc.h). */
#define SG_FOURCC_R8 SG_FOURCC('R', '8', ' ', ' ')
#define SG_FOURCC_GR88 SG_FOURCC('G', 'R', '8', '8')

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
                                 uint32_t fourcc, uint32_t index, bool *explicit_modifier)
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
	if (!lists_format(egl, fourcc, &known) && known) {
		list_formats(egl, list, sizeof(list));
		return sg_fail(SG_ERR_UNSUPPORTED,
		               "texture #%u: EGL on the %s target cannot import format %s; "
		               "eglQueryDmaBufFormatsEXT offers: %s",
		               index, target->impl->name, sg_fourcc_name(fourcc), list);
	}
	*explicit_modifier = false;
	if (import->modifier == SG_DMABUF_MOD_IMPLICIT)
		return SG_OK;
	EGLuint64KHR modifiers[64];
	EGLint count = egl->dmabuf_import_modifiers ? list_modifiers(egl, fourcc, modifiers) : 0;
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
	               index, target->impl->name, sg_fourcc_name(fourcc),
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

/* The images of a texture: one of the whole buffer for the RGB formats; for
 * NV12, the Y plane as R8 and the CbCr plane as GR88 (Cb in red, Cr in
 * green), half the size rounded up, which src/gl/material_nv12.c converts. */
static int image_layouts(const struct sg_texture_data *t, uint32_t fourccs[], int widths[],
                         int heights[])
{
	const struct sg_texture_import *import = t->import;
	if (import->fourcc != SG_FOURCC_NV12) {
		fourccs[0] = import->fourcc, widths[0] = t->width, heights[0] = t->height;
		return 1;
	}
	fourccs[0] = SG_FOURCC_R8, widths[0] = t->width, heights[0] = t->height;
	fourccs[1] = SG_FOURCC_GR88, widths[1] = (t->width + 1) / 2,
	heights[1] = (t->height + 1) / 2;
	return 2;
}

/* An EGLImage of planes first .. first + count - 1 of the buffer, read as
 * fourcc at width x height. */
static sg_result make_image(struct sg_target *target, const struct sg_texture_import *import,
                            uint32_t index, uint32_t fourcc, int width, int height, int first,
                            int count, EGLImageKHR *image)
{
	struct sg_egl *egl = &target->egl;
	bool explicit_modifier;
	sg_result result = check_supported(target, import, fourcc, index, &explicit_modifier);
	if (result)
		return result;
	EGLint attribs[6 + 4 * 10 + 1];
	int n = 0;
	attribs[n++] = EGL_WIDTH;
	attribs[n++] = width;
	attribs[n++] = EGL_HEIGHT;
	attribs[n++] = height;
	attribs[n++] = EGL_LINUX_DRM_FOURCC_EXT;
	attribs[n++] = (EGLint)fourcc;
	for (int i = 0; i < count; i++) {
		n += sg_egl_dmabuf_plane_attribs(attribs + n, i, import->fds[first + i],
		                                 import->offsets[first + i], import->strides[first + i],
		                                 explicit_modifier ? &import->modifier : NULL);
	}
	attribs[n] = EGL_NONE;
	*image =
	    egl->create_image(egl->display, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, attribs);
	if (*image != EGL_NO_IMAGE_KHR)
		return SG_OK;
	EGLint error = eglGetError();
	return sg_fail(error == EGL_BAD_MATCH ? SG_ERR_UNSUPPORTED : SG_ERR_EGL,
	               "texture #%u: eglCreateImageKHR(EGL_LINUX_DMA_BUF_EXT, %s, %dx%d, "
	               "modifier 0x%llx) on the %s target failed: %s",
	               index, sg_fourcc_name(fourcc), width, height,
	               (unsigned long long)import->modifier, target->impl->name,
	               sg_egl_error_name(error));
}

static void target_images(struct sg_target *target, int count, const GLuint names[],
                          void *const images[])
{
	for (int i = 0; i < count; i++) {
		glBindTexture(GL_TEXTURE_2D, names[i]);
		target->egl.image_target_texture(GL_TEXTURE_2D, images[i]);
	}
}

static sg_result attach(void *data, const struct sg_texture_data *t, uint32_t index,
                        const GLuint names[SG_GL_IMPORT_PLANES], void *images[SG_GL_IMPORT_PLANES])
{
	struct sg_target *target = data;
	uint32_t fourccs[SG_GL_IMPORT_PLANES];
	int widths[SG_GL_IMPORT_PLANES], heights[SG_GL_IMPORT_PLANES];
	int count = image_layouts(t, fourccs, widths, heights);
	for (int i = 0; i < count; i++) {
		/* One image holds all planes of an RGB format (one), NV12 one each. */
		int first = count == 1 ? 0 : i, planes = count == 1 ? t->import->plane_count : 1;
		EGLImageKHR made;
		sg_result result = make_image(target, t->import, index, fourccs[i], widths[i],
		                              heights[i], first, planes, &made);
		if (result)
			return result; /* the caller deletes the textures and releases the images */
		images[i] = made;
	}
	sg_result result = wait_acquire(target, t->import, index);
	if (result)
		return result;
	target_images(target, count, names, images);
	return SG_OK;
}

static sg_result changed(void *data, const struct sg_texture_data *t, uint32_t index,
                         const GLuint names[SG_GL_IMPORT_PLANES],
                         void *const images[SG_GL_IMPORT_PLANES])
{
	struct sg_target *target = data;
	sg_result result = wait_acquire(target, t->import, index);
	if (result)
		return result;
	/* As wlroots does: specifying the image again makes a driver that keeps
	 * a copy or caches of the buffer take the producer's writes. */
	uint32_t fourccs[SG_GL_IMPORT_PLANES];
	int widths[SG_GL_IMPORT_PLANES], heights[SG_GL_IMPORT_PLANES];
	target_images(target, image_layouts(t, fourccs, widths, heights), names, images);
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
