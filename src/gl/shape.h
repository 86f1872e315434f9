/* Internal: the program of shape textures (sg/shape.h): textured.vert with
 * shaders/shape.frag, whose uniforms are the shape's numbers. */
#ifndef SG_GL_SHAPE_H
#define SG_GL_SHAPE_H

#include "drawer.h"

/* The embedded shaders/shape.frag. */
extern const char sg_shader_shape_frag[];

/* Makes the shape program of shape's variant (blurred, with a gradient, a
 * border) current with the uniforms of shape, and texture (the white one:
 * the program samples nothing) on unit 0. Each variant is built at the first
 * shape that needs it: failing that, nothing is bound. */
sg_result sg_gl_shape_bind(struct sg_gl_programs *programs, const struct sg_shape_desc *shape,
                           GLuint texture);
/* Deletes the programs that were built. */
void sg_gl_shape_finish(struct sg_gl_programs *programs);

#endif
