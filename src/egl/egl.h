/* Internal: an EGL display and a GLES 3 context on some platform, used without
 * any EGL surface (rendering goes into framebuffer objects). */
#ifndef SG_EGL_EGL_H
#define SG_EGL_EGL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h> /* before gl2ext.h, which needs its types */
#include <GLES2/gl2ext.h>
#include <stdbool.h>
#include <stdint.h>

#include <sg/error.h>

/* What was current on the calling thread before the renderer took over. */
struct sg_egl_binding {
	EGLenum api;
	EGLDisplay display;
	EGLContext context;
	EGLSurface draw, read;
};

struct sg_egl {
	EGLDisplay display;
	EGLContext context;
	struct sg_egl_binding saved;
	char vendor[64], driver[64], gl_renderer[128], gl_version[128];
	/* Extensions the GBM target needs; looked up once. */
	PFNEGLCREATEIMAGEKHRPROC create_image;
	PFNEGLDESTROYIMAGEKHRPROC destroy_image;
	PFNEGLQUERYDMABUFMODIFIERSEXTPROC query_dmabuf_modifiers;
	PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC image_target_renderbuffer;
	bool dmabuf_import, dmabuf_import_modifiers;
	/* Imported textures (sg_texture_import_dmabuf, src/target/import.c):
	 * the formats query comes with the modifiers extension. */
	PFNEGLQUERYDMABUFFORMATSEXTPROC query_dmabuf_formats;
	PFNGLEGLIMAGETARGETTEXTURE2DOESPROC image_target_texture;
	/* EGL_KHR_wait_sync: the GPU waits for an imported texture's acquire
	 * fence (with native_fence, to import it as an EGLSync). */
	PFNEGLWAITSYNCKHRPROC wait_sync;
	/* EGL_ANDROID_native_fence_sync (with EGL_KHR_fence_sync): the GPU work
	 * of a frame as a sync_file fd a KMS plane can wait on (IN_FENCE_FD). */
	PFNEGLCREATESYNCKHRPROC create_sync;
	PFNEGLDESTROYSYNCKHRPROC destroy_sync;
	PFNEGLDUPNATIVEFENCEFDANDROIDPROC dup_native_fence_fd;
	bool native_fence;
};

/* eglGetPlatformDisplay(platform, native) -> eglInitialize -> eglBindAPI ->
 * eglCreateContext (GLES 3.0) -> eglMakeCurrent without a surface. where names
 * the display in messages ("surfaceless", "/dev/dri/card0"). Cleans up after itself on failure. */
sg_result sg_egl_init(struct sg_egl *egl, EGLenum platform, void *native, const char *where);
void sg_egl_finish(struct sg_egl *egl);

/* Makes the renderer's context current, remembering the caller's. */
sg_result sg_egl_make_current(struct sg_egl *egl);
/* Gives the thread back what was current before (or nothing), so that
 * another thread may take the renderer's context. */
void sg_egl_release(struct sg_egl *egl);

/* With the context current: flushes the GL work issued so far and returns in
 * *fd a sync_file that signals when it is done (owned by the caller), instead
 * of waiting for it with glFinish. SG_ERR_UNSUPPORTED without
 * EGL_ANDROID_native_fence_sync; SG_ERR_EGL when a call fails. */
sg_result sg_egl_native_fence(struct sg_egl *egl, int *fd);

/* Writes the EGL_LINUX_DMA_BUF_EXT attributes of plane (0 .. 3) to attribs:
 * its fd, offset and pitch, and modifier where not NULL (only when the
 * display has EGL_EXT_image_dma_buf_import_modifiers). Returns how many
 * EGLints it wrote (6 or 10). */
int sg_egl_dmabuf_plane_attribs(EGLint *attribs, int plane, int fd, uint32_t offset,
                                uint32_t pitch, const uint64_t *modifier);

const char *sg_egl_error_name(EGLint error);
/* True if the space-separated list has the exact name. */
bool sg_has_extension(const char *list, const char *name);

#endif
