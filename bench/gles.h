/* What the hand-written GLES programs of the benchmark share. */
#ifndef SG_BENCH_GLES_H
#define SG_BENCH_GLES_H

#include <EGL/egl.h>
#include <GLES3/gl3.h>
#include <stdbool.h>

/* A surfaceless EGL display and a GLES 3 context current on it without a
 * surface: what every baseline draws with, into a framebuffer of its own. */
struct bench_egl {
	EGLDisplay display;
	EGLContext context;
};
/* Initialises the display (EGL_MESA_platform_surfaceless); false, with a
 * message after who, when it cannot. */
bool bench_egl_display(struct bench_egl *egl, const char *who);
/* Makes the context and makes it current; false, with a message, when not. */
bool bench_egl_context(struct bench_egl *egl, const char *who);
/* Releases the context and terminates the display. */
void bench_egl_finish(struct bench_egl *egl);

/* Compiles and links the two sources, the program left in use; on failure
 * prints the link log after who and exits: a baseline that cannot draw has
 * nothing to measure. */
GLuint bench_gl_program(const char *vertex, const char *fragment, const char *who);

/* Writes RGBA8 pixels (alpha dropped) as a binary PPM, top row first; rows
 * given bottom row first (glReadPixels') when bottom_up. No PNG code in a
 * baseline. */
void bench_write_ppm(const char *path, const unsigned char *rgba, int width, int height,
                     bool bottom_up);

#endif
