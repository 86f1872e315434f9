/* Internal: an EGL display and a GLES 3 context on some platform, used without
 * any EGL surface (rendering goes into framebuffer objects). */
#ifndef SG_EGL_EGL_H
#define SG_EGL_EGL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h> /* before gl2ext.h, which needs its types */
#include <GLES2/gl2ext.h>
#include <stdbool.h>

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

const char *sg_egl_error_name(EGLint error);
/* True if the space-separated list has the exact name. */
bool sg_has_extension(const char *list, const char *name);

#endif
