/* glGetError() turned into an sg_result that names what was being done. */
#include "check.h"

#include <GLES3/gl3.h>

#include "../base/error.h"

static const char *gl_error_name(GLenum error)
{
	switch (error) {
	case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
	case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
	case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
	case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
	case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
	}
	return "unknown GL error";
}

sg_result sg_gl_check(const char *what)
{
	GLenum error = glGetError();
	if (error == GL_NO_ERROR)
		return SG_OK;
	/* drain (boundedly: a lost context may keep answering), so that later
	 * checks do not blame the next call */
	for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; i++)
		;
	return sg_fail(SG_ERR_GL, "%s: %s (0x%04x)", what, gl_error_name(error), error);
}
