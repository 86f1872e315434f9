/* Internal: GLSL ES programs. Needs a current GLES 3 context. */
#ifndef SG_GL_PROGRAM_H
#define SG_GL_PROGRAM_H

#include <GLES3/gl3.h>
#include <stdbool.h>

#include <sg/error.h>

/* Compiles and links; on failure returns SG_ERR_SHADER with the driver's info
 * log in the message, names the failing stage, and leaves no GL object behind. */
sg_result sg_gl_program_build(const char *vertex_source, const char *fragment_source,
                              GLuint *program);
/* The same with defines (preprocessor lines, each ending in a newline; NULL:
 * none) put after the first line of both sources, their #version line. */
sg_result sg_gl_program_build_defined(const char *vertex_source, const char *fragment_source,
                                      const char *defines, GLuint *program);

/* The embedded material_textured.* (generated at build time): the vertex
 * shader of every 2D material, and the textured one's fragment shader. The
 * other materials' sources are declared where they are used (material_*.c). */
extern const char sg_shader_textured_vert[];
extern const char sg_shader_textured_frag[];

#endif
