/* What the hand-written GLES programs of the benchmark share (gles.h). */
#include "gles.h"

#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>

bool bench_egl_display(struct bench_egl *egl, const char *who)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
	    (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	egl->context = EGL_NO_CONTEXT;
	egl->display = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA,
	                                         EGL_DEFAULT_DISPLAY, NULL)
	                           : EGL_NO_DISPLAY;
	if (egl->display == EGL_NO_DISPLAY || !eglInitialize(egl->display, NULL, NULL)) {
		fprintf(stderr, "%s: eglInitialize failed\n", who);
		return false;
	}
	return true;
}

bool bench_egl_context(struct bench_egl *egl, const char *who)
{
	eglBindAPI(EGL_OPENGL_ES_API);
	static const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
	egl->context = eglCreateContext(egl->display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
	if (egl->context == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
		fprintf(stderr, "%s: eglCreateContext failed\n", who);
		return false;
	}
	return true;
}

void bench_egl_finish(struct bench_egl *egl)
{
	eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(egl->display, egl->context);
	eglTerminate(egl->display);
}

GLuint bench_gl_program(const char *vertex, const char *fragment, const char *who)
{
	GLuint p = glCreateProgram();
	const char *sources[2] = {vertex, fragment};
	GLenum types[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
	for (int i = 0; i < 2; i++) {
		GLuint s = glCreateShader(types[i]);
		glShaderSource(s, 1, &sources[i], NULL);
		glCompileShader(s);
		glAttachShader(p, s);
		glDeleteShader(s);
	}
	glLinkProgram(p);
	GLint linked = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &linked);
	if (!linked) {
		char log[2048];
		glGetProgramInfoLog(p, sizeof(log), NULL, log);
		fprintf(stderr, "%s: link failed: %s\n", who, log);
		exit(1);
	}
	glUseProgram(p);
	return p;
}

void bench_write_ppm(const char *path, const unsigned char *rgba, int width, int height,
                     bool bottom_up)
{
	FILE *out = fopen(path, "wb");
	if (!out)
		return;
	fprintf(out, "P6 %d %d 255\n", width, height);
	for (int y = 0; y < height; y++) {
		int row = bottom_up ? height - 1 - y : y;
		for (int x = 0; x < width; x++)
			fwrite(rgba + ((size_t)row * (size_t)width + (size_t)x) * 4, 1, 3, out);
	}
	fclose(out);
}
