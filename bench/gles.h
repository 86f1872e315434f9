/* What the hand-written GLES programs of the benchmark share. */
#ifndef SG_BENCH_GLES_H
#define SG_BENCH_GLES_H

#include <GLES3/gl3.h>
#include <stdbool.h>

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
