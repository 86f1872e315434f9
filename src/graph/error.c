#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Per thread, so that two renderers on two threads keep their own messages. */
static _Thread_local char last_error[1024];
static _Thread_local sg_result last_result;

const char *sg_last_error(void)
{
	return last_error;
}

sg_result sg_last_result(void)
{
	return last_result;
}

sg_result sg_fail(sg_result result, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(last_error, sizeof(last_error), format, args);
	va_end(args);
	last_result = result;
	return result;
}

sg_result sg_fail_prefix(sg_result result, const char *format, ...)
{
	char previous[sizeof(last_error)];
	memcpy(previous, last_error, sizeof(previous));

	va_list args;
	va_start(args, format);
	int n = vsnprintf(last_error, sizeof(last_error), format, args);
	va_end(args);
	if (n >= 0 && (size_t)n < sizeof(last_error))
		snprintf(last_error + n, sizeof(last_error) - (size_t)n, "%s", previous);
	last_result = result;
	return result;
}

const char *sg_result_name(sg_result result)
{
	switch (result) {
	case SG_OK: return "SG_OK";
	case SG_ERR_INVALID_ARGUMENT: return "SG_ERR_INVALID_ARGUMENT";
	case SG_ERR_STALE_HANDLE: return "SG_ERR_STALE_HANDLE";
	case SG_ERR_FOREIGN_HANDLE: return "SG_ERR_FOREIGN_HANDLE";
	case SG_ERR_CYCLE: return "SG_ERR_CYCLE";
	case SG_ERR_BUSY: return "SG_ERR_BUSY";
	case SG_ERR_NOT_FOUND: return "SG_ERR_NOT_FOUND";
	case SG_ERR_NO_MEMORY: return "SG_ERR_NO_MEMORY";
	case SG_ERR_DEVICE: return "SG_ERR_DEVICE";
	case SG_ERR_EGL: return "SG_ERR_EGL";
	case SG_ERR_GL: return "SG_ERR_GL";
	case SG_ERR_SHADER: return "SG_ERR_SHADER";
	case SG_ERR_IO: return "SG_ERR_IO";
	case SG_ERR_FORMAT: return "SG_ERR_FORMAT";
	case SG_ERR_UNSUPPORTED: return "SG_ERR_UNSUPPORTED";
	case SG_ERR_LIMIT: return "SG_ERR_LIMIT";
	}
	return "SG_ERR_UNKNOWN";
}
