/* Internal: the second program, for imported NV12 textures: their Y and CbCr
 * planes are two GL_TEXTURE_2D textures (R8 and GR88 EGLImages) and the
 * program converts them to RGB with the texture's matrix and range. */
#ifndef SG_GL_NV12_H
#define SG_GL_NV12_H

#include <stdbool.h>

#include "drawer.h"

/* The embedded shaders/nv12.frag, run with the textured vertex shader. */
extern const char sg_shader_nv12_frag[];

/* Deletes the program, if one was built. */
void sg_gl_nv12_finish(struct sg_gl_programs *programs);

/* Binds texture for the next draws on unit 0, and for an NV12 one (object
 * not NULL with a chroma texture) its CbCr plane on unit 1 with the program
 * that converts it (the draws' other inputs, the vertex arrays, are shared
 * state). The active unit is 0 after. The program is
 * built at the first NV12 texture: failing that, nothing is bound. */
sg_result sg_gl_nv12_bind(struct sg_gl_programs *programs, const struct sg_gl_object *object,
                          const struct sg_texture_data *t, GLuint texture);

#endif
