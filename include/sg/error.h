/* libsg: results and error messages.
 *
 * Every fallible function either returns an sg_result or, for constructors, NULL /
 * an invalid handle. In both cases a readable message naming what failed is kept
 * per thread and returned by sg_last_error(). */
#ifndef SG_ERROR_H
#define SG_ERROR_H

#include <sg/export.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sg_result {
	SG_OK = 0,
	SG_ERR_INVALID_ARGUMENT, /* NULL pointer, bad size, NaN matrix, ... */
	SG_ERR_STALE_HANDLE,     /* handle of a destroyed (or never created) object */
	SG_ERR_FOREIGN_HANDLE,   /* handle that belongs to another scene */
	SG_ERR_CYCLE,            /* the edit would make a node its own ancestor */
	SG_ERR_BUSY,             /* node already has a parent, or is the root */
	SG_ERR_NOT_FOUND,        /* lookup found nothing */
	SG_ERR_NO_MEMORY,        /* an allocation failed */
	SG_ERR_DEVICE,           /* a DRM node or GBM call failed */
	SG_ERR_EGL,              /* an EGL call failed */
	SG_ERR_GL,               /* a GL call failed or GL lacks a feature */
	SG_ERR_SHADER,           /* shader compile or link error (message has the info log) */
	SG_ERR_IO,               /* reading or writing a file failed */
	SG_ERR_FORMAT,           /* a file's content is malformed or unsupported */
	SG_ERR_UNSUPPORTED,      /* the target cannot do this (e.g. dma-buf on surfaceless) */
	SG_ERR_LIMIT,            /* an input is over a budget (size, count, nesting); the
	                          * message names the limit, the value and how to raise it */
} sg_result;

/* Message of the last failure on the calling thread. Never NULL; "" when nothing
 * failed yet. Valid until the next failing libsg call on this thread. A call
 * that succeeds does not set it. The choice of a renderer's target (in
 * sg_renderer_create and every call that makes a renderer) leaves it as it
 * was even where it met and got past a failure on the way (no render node,
 * so the surfaceless target: sg_renderer_get_info's reason says so); other
 * fallbacks inside a successful call (a window's wl_shm after its dma-buf
 * path failed) may leave their failure here. */
SG_API const char *sg_last_error(void);

/* Result of the last failure on the calling thread (SG_OK when none yet): what
 * a constructor that returned NULL or an invalid handle failed with. */
SG_API sg_result sg_last_result(void);

/* Short constant name of a result, e.g. "SG_ERR_CYCLE". */
SG_API const char *sg_result_name(sg_result result);

#ifdef __cplusplus
}
#endif

#endif
