/* EGL set-up shared by every target, step by step as kmscube does it. */
#include "egl.h"

#include <GLES3/gl3.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../base/error.h"

const char *sg_egl_error_name(EGLint error)
{
	switch (error) {
	case EGL_SUCCESS: return "EGL_SUCCESS";
	case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
	case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
	case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
	case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
	case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
	case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
	case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
	case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
	case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
	case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
	case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
	case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
	case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
	case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
	}
	return "unknown EGL error";
}

bool sg_has_extension(const char *list, const char *name)
{
	size_t length = strlen(name);
	for (const char *p = list; p && (p = strstr(p, name)); p += length)
		if ((p == list || p[-1] == ' ') && (p[length] == ' ' || p[length] == '\0'))
			return true;
	return false;
}

/* eglGetPlatformDisplay hands out one EGLDisplay per native display, and
 * eglTerminate ends it for everyone: two surfaceless renderers share one. So
 * displays are counted here and terminated only by their last user. */
static pthread_mutex_t displays_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	EGLDisplay display;
	int users;
	bool callers; /* initialised by the application before us: never terminated here */
} displays[64];

/* eglInitialize under the lock: else a last user's eglTerminate could fall
 * between another thread's (no-op) initialize and its reference. A display the
 * application had initialised already (its own gbm_device passed in, or its
 * own surfaceless display) is the application's: terminating it would end its
 * contexts and images. */
static bool display_initialize_ref(EGLDisplay display)
{
	pthread_mutex_lock(&displays_lock);
	int found = -1, free_slot = -1;
	for (int i = 0; i < 64; i++) {
		if (displays[i].display == display && found < 0)
			found = i;
		if (!displays[i].display && free_slot < 0)
			free_slot = i;
	}
	/* eglQueryString answers only on an initialised display. */
	bool callers = found < 0 && eglQueryString(display, EGL_VERSION) != NULL;
	if (found < 0)
		eglGetError(); /* drop the EGL_NOT_INITIALIZED of that probe */
	if (!eglInitialize(display, NULL, NULL)) {
		pthread_mutex_unlock(&displays_lock);
		return false;
	}
	if (found >= 0)
		displays[found].users++;
	else if (free_slot >= 0) /* with no slot left the display is simply never terminated */
		displays[free_slot].display = display, displays[free_slot].users = 1,
		displays[free_slot].callers = callers;
	pthread_mutex_unlock(&displays_lock);
	return true;
}

static void display_unref(EGLDisplay display)
{
	pthread_mutex_lock(&displays_lock);
	for (int i = 0; i < 64; i++) {
		if (displays[i].display == display && --displays[i].users == 0) {
			displays[i].display = NULL;
			/* eglInitialize counts nothing: the caller's initialise of its own
			 * display and ours are one, so its display is left as it is. */
			if (!displays[i].callers)
				eglTerminate(display);
		}
	}
	pthread_mutex_unlock(&displays_lock);
}

static sg_result egl_fail(const char *call, const char *where)
{
	EGLint error = eglGetError();
	return sg_fail(SG_ERR_EGL, "%s failed on %s: %s (0x%04x)", call, where,
	               sg_egl_error_name(error), error);
}

static void copy_string(char *out, size_t size, const char *value)
{
	snprintf(out, size, "%s", value ? value : "");
}

/* An application embedding libsg may have its own context current: it gets
 * it back, and its bound API, in sg_egl_release(). */
static void save_binding(struct sg_egl *egl)
{
	egl->saved = (struct sg_egl_binding){
		.api = eglQueryAPI(),
		.display = eglGetCurrentDisplay(),
		.context = eglGetCurrentContext(),
		.draw = eglGetCurrentSurface(EGL_DRAW),
		.read = eglGetCurrentSurface(EGL_READ),
	};
}

static sg_result create_context(struct sg_egl *egl, const char *where)
{
	const char *extensions = eglQueryString(egl->display, EGL_EXTENSIONS);
	if (!sg_has_extension(extensions, "EGL_KHR_surfaceless_context"))
		return sg_fail(SG_ERR_EGL, "EGL on %s lacks EGL_KHR_surfaceless_context", where);
	save_binding(egl);
	if (!eglBindAPI(EGL_OPENGL_ES_API))
		return egl_fail("eglBindAPI(EGL_OPENGL_ES_API)", where);

	/* Without EGL_KHR_no_config_context, any config that can do GLES 3 will do:
	 * nothing is ever drawn to an EGL surface. */
	EGLConfig config = EGL_NO_CONFIG_KHR;
	if (!sg_has_extension(extensions, "EGL_KHR_no_config_context")) {
		const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE};
		EGLint count = 0;
		if (!eglChooseConfig(egl->display, config_attribs, &config, 1, &count) || count < 1)
			return sg_fail(SG_ERR_EGL, "eglChooseConfig found no GLES 3 config on %s", where);
	}
	const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0,
	                                  EGL_NONE};
	egl->context = eglCreateContext(egl->display, config, EGL_NO_CONTEXT, context_attribs);
	if (egl->context == EGL_NO_CONTEXT)
		return egl_fail("eglCreateContext(GLES 3.0)", where);
	if (!eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context))
		return egl_fail("eglMakeCurrent", where);

	egl->dmabuf_import = sg_has_extension(extensions, "EGL_EXT_image_dma_buf_import");
	egl->dmabuf_import_modifiers =
		sg_has_extension(extensions, "EGL_EXT_image_dma_buf_import_modifiers");
	egl->create_image = (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
	egl->destroy_image = (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
	egl->query_dmabuf_modifiers =
		(PFNEGLQUERYDMABUFMODIFIERSEXTPROC)eglGetProcAddress("eglQueryDmaBufModifiersEXT");
	/* Mesa's eglGetProcAddress answers non-NULL for any name, so only the
	 * context's extension string says whether the entry point may be used. */
	if (sg_has_extension((const char *)glGetString(GL_EXTENSIONS), "GL_OES_EGL_image")) {
		egl->image_target_renderbuffer = (PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC)
			eglGetProcAddress("glEGLImageTargetRenderbufferStorageOES");
		egl->image_target_texture = (PFNGLEGLIMAGETARGETTEXTURE2DOESPROC)eglGetProcAddress(
			"glEGLImageTargetTexture2DOES");
	}
	if (egl->dmabuf_import_modifiers)
		egl->query_dmabuf_formats =
			(PFNEGLQUERYDMABUFFORMATSEXTPROC)eglGetProcAddress("eglQueryDmaBufFormatsEXT");

	/* As kmscube: the entry points are taken only where the extensions are listed. */
	if (sg_has_extension(extensions, "EGL_ANDROID_native_fence_sync") &&
	    sg_has_extension(extensions, "EGL_KHR_fence_sync")) {
		egl->create_sync = (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
		egl->destroy_sync = (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
		egl->dup_native_fence_fd = (PFNEGLDUPNATIVEFENCEFDANDROIDPROC)eglGetProcAddress(
			"eglDupNativeFenceFDANDROID");
		egl->native_fence = egl->create_sync && egl->destroy_sync && egl->dup_native_fence_fd;
		if (sg_has_extension(extensions, "EGL_KHR_wait_sync"))
			egl->wait_sync = (PFNEGLWAITSYNCKHRPROC)eglGetProcAddress("eglWaitSyncKHR");
	}

	copy_string(egl->vendor, sizeof(egl->vendor), eglQueryString(egl->display, EGL_VENDOR));
	PFNEGLGETDISPLAYDRIVERNAMEPROC driver_name =
		(PFNEGLGETDISPLAYDRIVERNAMEPROC)eglGetProcAddress("eglGetDisplayDriverName");
	if (driver_name && sg_has_extension(extensions, "EGL_MESA_query_driver"))
		copy_string(egl->driver, sizeof(egl->driver), driver_name(egl->display));
	copy_string(egl->gl_renderer, sizeof(egl->gl_renderer),
	            (const char *)glGetString(GL_RENDERER));
	copy_string(egl->gl_version, sizeof(egl->gl_version), (const char *)glGetString(GL_VERSION));
	return SG_OK;
}

sg_result sg_egl_init(struct sg_egl *egl, EGLenum platform, void *native, const char *where)
{
	*egl = (struct sg_egl){.display = EGL_NO_DISPLAY, .context = EGL_NO_CONTEXT};
	egl->display = eglGetPlatformDisplay(platform, native, NULL);
	if (egl->display == EGL_NO_DISPLAY)
		return egl_fail("eglGetPlatformDisplay", where);
	if (!display_initialize_ref(egl->display)) {
		sg_result result = egl_fail("eglInitialize", where);
		egl->display = EGL_NO_DISPLAY; /* a failed initialize needs no terminate */
		return result;
	}
	sg_result result = create_context(egl, where);
	if (result) {
		/* create_context() bound GLES: the caller gets its own API back on
		 * every failure (sg_egl_finish() restores it only where the context
		 * had become current). */
		EGLenum api = egl->saved.api;
		sg_egl_finish(egl);
		if (api && eglQueryAPI() != api)
			eglBindAPI(api);
	}
	return result;
}

sg_result sg_egl_native_fence(struct sg_egl *egl, int *fd)
{
	*fd = -1;
	if (!egl->native_fence)
		return sg_fail(SG_ERR_UNSUPPORTED, "EGL (%s) lacks EGL_ANDROID_native_fence_sync",
		               egl->driver[0] ? egl->driver : egl->vendor);
	static const EGLint attribs[] = {EGL_SYNC_NATIVE_FENCE_FD_ANDROID,
	                                 EGL_NO_NATIVE_FENCE_FD_ANDROID, EGL_NONE};
	EGLSyncKHR sync = egl->create_sync(egl->display, EGL_SYNC_NATIVE_FENCE_ANDROID, attribs);
	if (sync == EGL_NO_SYNC_KHR)
		return egl_fail("eglCreateSyncKHR(EGL_SYNC_NATIVE_FENCE_ANDROID)", "the renderer's display");
	/* The fence fd exists only once the commands before it are flushed. */
	glFlush();
	*fd = egl->dup_native_fence_fd(egl->display, sync);
	sg_result result = SG_OK;
	if (*fd == EGL_NO_NATIVE_FENCE_FD_ANDROID) {
		*fd = -1;
		result = egl_fail("eglDupNativeFenceFDANDROID", "the renderer's display");
	}
	egl->destroy_sync(egl->display, sync);
	return result;
}

void sg_egl_finish(struct sg_egl *egl)
{
	if (egl->display == EGL_NO_DISPLAY)
		return;
	if (egl->context != EGL_NO_CONTEXT) {
		sg_egl_release(egl);
		eglDestroyContext(egl->display, egl->context);
	}
	display_unref(egl->display);
	*egl = (struct sg_egl){.display = EGL_NO_DISPLAY, .context = EGL_NO_CONTEXT};
}

sg_result sg_egl_make_current(struct sg_egl *egl)
{
	if (eglGetCurrentContext() == egl->context)
		return SG_OK;
	save_binding(egl);
	if (egl->saved.api != EGL_OPENGL_ES_API)
		eglBindAPI(EGL_OPENGL_ES_API);
	if (!eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
		sg_result result = egl_fail("eglMakeCurrent", "the renderer's display");
		if (egl->saved.api)
			eglBindAPI(egl->saved.api);
		return result;
	}
	return SG_OK;
}

void sg_egl_release(struct sg_egl *egl)
{
	if (eglGetCurrentContext() != egl->context)
		return;
	const struct sg_egl_binding *saved = &egl->saved;
	if (saved->context != EGL_NO_CONTEXT && saved->display != EGL_NO_DISPLAY) {
		eglBindAPI(saved->api);
		eglMakeCurrent(saved->display, saved->draw, saved->read, saved->context);
	} else {
		eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		if (saved->api)
			eglBindAPI(saved->api);
	}
	egl->saved = (struct sg_egl_binding){0};
}

int sg_egl_dmabuf_plane_attribs(EGLint *attribs, int plane, int fd, uint32_t offset,
                                uint32_t pitch, const uint64_t *modifier)
{
	static const EGLint keys[4][5] = {
	    {EGL_DMA_BUF_PLANE0_FD_EXT, EGL_DMA_BUF_PLANE0_OFFSET_EXT, EGL_DMA_BUF_PLANE0_PITCH_EXT,
	     EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT},
	    {EGL_DMA_BUF_PLANE1_FD_EXT, EGL_DMA_BUF_PLANE1_OFFSET_EXT, EGL_DMA_BUF_PLANE1_PITCH_EXT,
	     EGL_DMA_BUF_PLANE1_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE1_MODIFIER_HI_EXT},
	    {EGL_DMA_BUF_PLANE2_FD_EXT, EGL_DMA_BUF_PLANE2_OFFSET_EXT, EGL_DMA_BUF_PLANE2_PITCH_EXT,
	     EGL_DMA_BUF_PLANE2_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE2_MODIFIER_HI_EXT},
	    {EGL_DMA_BUF_PLANE3_FD_EXT, EGL_DMA_BUF_PLANE3_OFFSET_EXT, EGL_DMA_BUF_PLANE3_PITCH_EXT,
	     EGL_DMA_BUF_PLANE3_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE3_MODIFIER_HI_EXT},
	};
	int n = 0;
	attribs[n++] = keys[plane][0];
	attribs[n++] = fd;
	attribs[n++] = keys[plane][1];
	attribs[n++] = (EGLint)offset;
	attribs[n++] = keys[plane][2];
	attribs[n++] = (EGLint)pitch;
	if (modifier) {
		attribs[n++] = keys[plane][3];
		attribs[n++] = (EGLint)(*modifier & 0xffffffffu);
		attribs[n++] = keys[plane][4];
		attribs[n++] = (EGLint)(*modifier >> 32);
	}
	return n;
}
