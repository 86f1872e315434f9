/* The program of imported YUV textures. The driver converts YUV to RGB when
 * it samples (with the encoding and range the EGLImage was made with), so
 * the program differs from the textured one only in its sampler type. */
#include "external.h"

#include <GLES2/gl2ext.h>
#include <string.h>

#include "program.h"

void sg_gl_external_init(struct sg_gl_renderer *gl)
{
	const char *extensions = (const char *)glGetString(GL_EXTENSIONS);
	if (!extensions || !strstr(extensions, "GL_OES_EGL_image_external_essl3") ||
	    sg_gl_program_build(sg_shader_textured_vert, sg_shader_external_frag,
	                        &gl->external_program))
		return;
	glUseProgram(gl->external_program);
	glUniform1i(glGetUniformLocation(gl->external_program, "Tex"), 0);
	glUseProgram(gl->program);
	gl->textures.external_sampling = true;
}

void sg_gl_external_finish(struct sg_gl_renderer *gl)
{
	if (gl->external_program)
		glDeleteProgram(gl->external_program);
	gl->external_program = 0;
}

void sg_gl_external_bind(struct sg_gl_renderer *gl, bool external, GLuint texture)
{
	/* The program is set again for each external texture: the frame's start
	 * (and the damage tint) use the textured program without telling. A
	 * plain texture after an external one takes the textured one back;
	 * otherwise the textured one is current already. */
	if (external)
		glUseProgram(gl->external_program);
	else if (gl->external_bound)
		glUseProgram(gl->program);
	gl->external_bound = external;
	glBindTexture(external ? GL_TEXTURE_EXTERNAL_OES : GL_TEXTURE_2D, texture);
}
