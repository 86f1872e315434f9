/* Internal: the second program, for imported YUV textures (NV12), which GL
 * samples through GL_TEXTURE_EXTERNAL_OES with a samplerExternalOES. */
#ifndef SG_GL_EXTERNAL_H
#define SG_GL_EXTERNAL_H

#include <stdbool.h>

#include "gl_renderer.h"

/* Builds the program where GL has GL_OES_EGL_image_external_essl3. Without
 * it only drawing such a texture fails (src/gl/cache.c): no error here. */
void sg_gl_external_init(struct sg_gl_renderer *gl);
void sg_gl_external_finish(struct sg_gl_renderer *gl);

/* Binds texture to unit 0 for the next draws, switching to the program its
 * sampler needs (the draws' other inputs, vertex arrays and generic
 * attributes, are shared state). */
void sg_gl_external_bind(struct sg_gl_renderer *gl, bool external, GLuint texture);

#endif
