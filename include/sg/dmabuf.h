/* Textures whose texels live in a dma-buf another process (a decoder, a
 * camera, a client, another renderer) writes: no copy through the CPU. See
 * docs/dmabuf-import.md for the formats, fences and lifetime rules. */
#ifndef SG_DMABUF_H
#define SG_DMABUF_H

#include <stddef.h>
#include <stdint.h>

#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SG_DMABUF_MAX_PLANES 4

/* DRM_FORMAT_MOD_INVALID: the buffer's layout is implicit (the driver's
 * choice, as with gbm_bo_create without modifiers). 0 is DRM_FORMAT_MOD_LINEAR. */
#define SG_DMABUF_MOD_IMPLICIT ((UINT64_C(1) << 56) - 1)

struct sg_dmabuf_plane {
	int fd;          /* a dma-buf; dup'ed (the caller keeps and closes its own) */
	uint32_t offset; /* bytes from the start of the buffer to the plane's top row */
	uint32_t stride; /* bytes from one row to the next */
};

/* How YUV buffers (NV12) encode colour: the matrix and the range of Y and
 * CbCr (limited: Y in 16 .. 235; full: 0 .. 255). */
enum sg_yuv_encoding { SG_YUV_BT601 = 0, SG_YUV_BT709 };
enum sg_yuv_range { SG_YUV_LIMITED = 0, SG_YUV_FULL };

struct sg_dmabuf_desc {
	int width, height; /* 1 .. 16384 */
	/* DRM_FORMAT_ARGB8888, XRGB8888, ABGR8888 or XBGR8888 (one plane each;
	 * colours with alpha are premultiplied, as KMS and Wayland take them),
	 * or DRM_FORMAT_NV12 (Y plane, then interleaved CbCr at half resolution). */
	uint32_t fourcc;
	uint64_t modifier; /* DRM_FORMAT_MOD_*: 0 is linear; SG_DMABUF_MOD_IMPLICIT */
	int plane_count;   /* as the format has: 1 for the RGB formats, 2 for NV12 */
	struct sg_dmabuf_plane planes[SG_DMABUF_MAX_PLANES];
	enum sg_filter filter; /* default nearest */
	enum sg_wrap wrap;     /* default clamp to edge; YUV formats only clamp */
	/* YUV formats only: default BT.601, limited range (what decoders give). */
	enum sg_yuv_encoding encoding;
	enum sg_yuv_range range;
};

/* A texture showing the dma-buf of desc, drawn like any texture (models,
 * sg_model_set_texture). The plane fds are dup'ed (F_DUPFD_CLOEXEC) and closed
 * by sg_texture_destroy (or sg_scene_destroy); the caller keeps its own. Each renderer imports the
 * buffer (an EGLImage) when it first draws the texture: a format or modifier
 * its display cannot import makes that sg_renderer_render() fail with
 * SG_ERR_UNSUPPORTED listing what the display offers, and so does a display
 * without EGL_EXT_image_dma_buf_import (surfaceless on swrast). NV12 is imported
 * as two images, its Y plane as R8 and its CbCr plane as GR88, and converted
 * by libsg's own shader with the desc's encoding and range (the same on every
 * driver): the display must import R8 and GR88.
 * Checked here, each SG_ERR_INVALID_ARGUMENT naming the plane: NULL scene or
 * desc, a size outside 1 .. 16384, a plane count the format does not have, an
 * fd that is not open or not a buffer with a size, a stride below the bytes of
 * a row (width * 4; NV12: width, and the CbCr pairs of a row), a plane
 * reaching beyond the buffer's size (lseek(fd, 0, SEEK_END)), an unknown
 * encoding or range, wrap repeat with NV12; a format other than these five:
 * SG_ERR_UNSUPPORTED. On failure the zero handle is returned and no fd is
 * kept. */
SG_API sg_texture sg_texture_import_dmabuf_sized(struct sg_scene *scene,
                                                 const struct sg_dmabuf_desc *desc, size_t size);
#define sg_texture_import_dmabuf(...)                                                              \
	sg_texture_import_dmabuf_sized(__VA_ARGS__, sizeof(struct sg_dmabuf_desc))

/* A rectangle of texels, top-left origin. */
struct sg_dmabuf_rect {
	int x, y, width, height;
};

/* The producer wrote new content into the imported texture's buffer, in rect
 * (NULL: all of it): recorded as sg_texture_update records an update (its
 * models are repainted at the next render of every renderer), with nothing
 * to upload. acquire_fence_fd: -1, or a sync_file that signals when the
 * writes are done; it is dup'ed (the caller keeps its own) and every renderer
 * waits for it before it samples the texture again: on the GPU
 * (eglWaitSyncKHR on an EGL_ANDROID_native_fence_sync) where the display
 * offers that, else with poll(), and a fence not signalled within 2 s makes
 * that sg_renderer_render() fail with SG_ERR_DEVICE (the next render waits
 * again). A newer fence replaces an older one not yet waited for.
 * When the renderer is done reading: sg_renderer_render() returns after
 * glFinish, so the buffer may be written again once it returns (and once
 * sg_output_present's render fence signals, for outputs).
 * A texture not imported, a rect that is empty or leaves the texture, or a
 * fence fd that is not open: SG_ERR_INVALID_ARGUMENT; a destroyed or foreign
 * texture: SG_ERR_STALE_HANDLE / SG_ERR_FOREIGN_HANDLE; nothing is changed. */
SG_API sg_result sg_texture_mark_changed(struct sg_scene *scene, sg_texture texture,
                                         const struct sg_dmabuf_rect *rect, int acquire_fence_fd);

struct sg_renderer;

/* Render-to-texture: a texture of scene showing source's output buffer
 * (sg_renderer_export_dmabuf, then sg_texture_import_dmabuf; the exported fd
 * is closed here). Source must be on the GBM target (else SG_ERR_UNSUPPORTED)
 * and is best on the DRM device of the renderers that draw scene. The texture
 * shows source's latest render: after each later sg_renderer_render(source,
 * ...), which returns after glFinish, call sg_texture_mark_changed(scene,
 * texture, NULL, -1) so that scene's renderers repaint it. The texture keeps
 * the buffer alive (its dup'ed fd): destroying source first is safe and
 * freezes the last frame. A renderer must not draw a scene showing its own
 * output (it would sample the buffer it draws into). */
SG_API sg_texture sg_texture_import_renderer(struct sg_scene *scene, struct sg_renderer *source,
                                             enum sg_filter filter);

/* True for a texture made by sg_texture_import_dmabuf. */
SG_API bool sg_texture_is_imported(const struct sg_scene *scene, sg_texture texture);

#ifdef __cplusplus
}
#endif

#endif
