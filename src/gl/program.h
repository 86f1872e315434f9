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

/* The variants of the 2D programs, bits of one index: with the clip test
 * (shaders/clip.glsl, SG_CLIP defined), and with each draw's depth written
 * as gl_FragDepth (SG_FRAG_DEPTH: the frames that need it, drawer.c). */
enum {
	SG_GL_VARIANT_CLIP = 1u << 0,
	SG_GL_VARIANT_FRAG_DEPTH = 1u << 1,
	SG_GL_VARIANTS = 4,
};

/* sg_gl_program_build_defined with the defines of variant: for
 * SG_GL_VARIANT_CLIP the clip test in both shaders and its table's sampler
 * on unit SG_GL_CLIP_UNIT (clip.h). Leaves the program in use. */
sg_result sg_gl_program_build_variant(const char *vertex_source, const char *fragment_source,
                                      const char *defines, unsigned variant, GLuint *program);

/* The embedded sources of shaders/ (generated at build time). */
extern const char sg_shader_textured_vert[];
extern const char sg_shader_textured_frag[];
extern const char sg_shader_solid_vert[];
extern const char sg_shader_solid_frag[];
extern const char sg_shader_clip_glsl[];

#endif
