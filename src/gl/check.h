/* Internal: GL errors as sg_result. */
#ifndef SG_GL_CHECK_H
#define SG_GL_CHECK_H

#include <sg/error.h>

/* Returns SG_OK if glGetError() has nothing, else SG_ERR_GL naming what. */
sg_result sg_gl_check(const char *what);

#endif
