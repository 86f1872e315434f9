/* The egl layer on the surfaceless platform: what it judges from the
 * extension strings, and what it gives back to the caller on failure. The EGL
 * and GL calls it makes are interposed here (the layer is linked statically
 * into this program, so these definitions win over libEGL's and libGLESv2's)
 * to make them fail or hide an extension, then passed on with RTLD_NEXT. */
#include <check.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

#include "check_run.h"
#include "../src/egl/egl.h"

static bool create_context_fails;   /* eglCreateContext asks for GLES 99.0 */
static bool hide_gl_oes_egl_image;  /* GL_EXTENSIONS without GL_OES_EGL_image */

EGLContext eglCreateContext(EGLDisplay display, EGLConfig config, EGLContext share,
                            const EGLint *attribs)
{
	static PFNEGLCREATECONTEXTPROC real;
	if (!real)
		real = (PFNEGLCREATECONTEXTPROC)dlsym(RTLD_NEXT, "eglCreateContext");
	/* a real failure with a real EGL error: no driver makes GLES 99 */
	static const EGLint impossible[] = {EGL_CONTEXT_MAJOR_VERSION, 99, EGL_NONE};
	return real(display, config, share, create_context_fails ? impossible : attribs);
}

const GLubyte *glGetString(GLenum name)
{
	static const GLubyte *(*real)(GLenum);
	/* Nothing else of this program calls GLES, so the linker may have left
	 * libGLESv2 out: then load it. */
	if (!real)
		real = (const GLubyte *(*)(GLenum))dlsym(RTLD_NEXT, "glGetString");
	if (!real)
		real = (const GLubyte *(*)(GLenum))dlsym(dlopen("libGLESv2.so.2", RTLD_NOW),
		                                         "glGetString");
	if (name == GL_EXTENSIONS && hide_gl_oes_egl_image)
		return (const GLubyte *)"GL_EXT_texture_format_BGRA8888 GL_OES_EGL_image_external";
	return real(name);
}

static struct sg_egl egl;

static sg_result init(void)
{
	return sg_egl_init(&egl, EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, "surfaceless");
}

START_TEST(test_gl_oes_egl_image_is_judged_by_the_extension_string)
{
	ck_assert_msg(init() == SG_OK, "%s", sg_last_error());
	ck_assert_ptr_nonnull(egl.image_target_renderbuffer); /* llvmpipe lists it */
	sg_egl_finish(&egl);

	/* Mesa's eglGetProcAddress answers non-NULL for any name, listed or not. */
	hide_gl_oes_egl_image = true;
	ck_assert_msg(init() == SG_OK, "%s", sg_last_error());
	ck_assert_ptr_null(egl.image_target_renderbuffer);
	sg_egl_finish(&egl);
}
END_TEST

START_TEST(test_failed_context_gives_back_the_bound_api)
{
	ck_assert(eglBindAPI(EGL_OPENGL_API));
	create_context_fails = true;
	ck_assert_int_eq(init(), SG_ERR_EGL);
	ck_assert_msg(strstr(sg_last_error(), "eglCreateContext(GLES 3.0) failed on surfaceless"),
	              "%s", sg_last_error());
	ck_assert_int_eq(eglQueryAPI(), EGL_OPENGL_API);
	ck_assert_ptr_eq(eglGetCurrentContext(), EGL_NO_CONTEXT);

	/* and the next attempt works */
	create_context_fails = false;
	ck_assert_msg(init() == SG_OK, "%s", sg_last_error());
	sg_egl_release(&egl);
	ck_assert_int_eq(eglQueryAPI(), EGL_OPENGL_API);
	sg_egl_finish(&egl);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("egl");
	TCase *tc = tcase_create("egl");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_gl_oes_egl_image_is_judged_by_the_extension_string);
	tcase_add_test(tc, test_failed_context_gives_back_the_bound_api);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
