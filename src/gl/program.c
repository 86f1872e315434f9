#include "program.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../base/error.h"

static GLuint compile(GLenum stage, const char *source, const char *defines,
                      const char *stage_name, sg_result *result)
{
	GLuint shader = glCreateShader(stage);
	if (!shader) {
		*result = sg_fail(SG_ERR_GL, "glCreateShader(%s) failed (GL error 0x%04x)", stage_name,
		                  glGetError());
		return 0;
	}
	/* defines go after the first line, which must stay the #version line */
	const char *newline = defines ? strchr(source, '\n') : NULL;
	if (defines && !newline) {
		glDeleteShader(shader);
		*result = sg_fail(SG_ERR_INVALID_ARGUMENT,
		                  "%s shader: defines need a #version line first to follow", stage_name);
		return 0;
	}
	if (newline) {
		const char *parts[] = {source, defines, newline + 1};
		const GLint lengths[] = {(GLint)(newline + 1 - source), -1, -1};
		glShaderSource(shader, 3, parts, lengths);
	} else {
		glShaderSource(shader, 1, &source, NULL);
	}
	glCompileShader(shader);
	GLint ok = GL_FALSE;
	glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[768] = "";
		glGetShaderInfoLog(shader, sizeof(log), NULL, log);
		*result = sg_fail(SG_ERR_SHADER, "%s shader failed to compile: %s", stage_name,
		                  log[0] ? log : "(empty info log)");
		glDeleteShader(shader);
		return 0;
	}
	return shader;
}

sg_result sg_gl_program_build(const char *vertex_source, const char *fragment_source,
                              GLuint *program)
{
	return sg_gl_program_build_defined(vertex_source, fragment_source, NULL, program);
}

sg_result sg_gl_program_build_defined(const char *vertex_source, const char *fragment_source,
                                      const char *defines, GLuint *program)
{
	*program = 0;
	if (!vertex_source || !fragment_source)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_gl_program_build: a shader source is NULL");
	sg_result result = SG_OK;
	GLuint vertex = compile(GL_VERTEX_SHADER, vertex_source, defines, "vertex", &result);
	if (!vertex)
		return result;
	GLuint fragment = compile(GL_FRAGMENT_SHADER, fragment_source, defines, "fragment", &result);
	if (!fragment) {
		glDeleteShader(vertex);
		return result;
	}
	GLuint linked = glCreateProgram();
	glAttachShader(linked, vertex);
	glAttachShader(linked, fragment);
	glLinkProgram(linked);
	/* The program keeps what it needs; the shader objects can go now. */
	glDeleteShader(vertex);
	glDeleteShader(fragment);
	GLint ok = GL_FALSE;
	glGetProgramiv(linked, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[768] = "";
		glGetProgramInfoLog(linked, sizeof(log), NULL, log);
		glDeleteProgram(linked);
		return sg_fail(SG_ERR_SHADER, "shader program failed to link: %s",
		               log[0] ? log : "(empty info log)");
	}
	*program = linked;
	return SG_OK;
}
