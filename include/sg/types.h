/* libsg: plain types that several parts of the API share, with no functions,
 * so that the lowest part that uses one need not include a higher one's
 * header. */
#ifndef SG_TYPES_H
#define SG_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A rectangle of output pixels: columns x .. x + width - 1, rows y .. y + height - 1,
 * row 0 the top row (as sg_renderer_read_pixels() gives them). */
struct sg_rect {
	int x, y, width, height;
};

/* At most this many rectangles describe a frame's damage. */
#define SG_DAMAGE_MAX_RECTS 4

/* Where a renderer draws (sg_renderer_desc.target). */
enum sg_target_kind {
	SG_TARGET_AUTO = 0,    /* GBM on the first render node drmGetDevices2 lists if it
	                          works there, else surfaceless */
	SG_TARGET_GBM,         /* EGL_PLATFORM_GBM_KHR, output in a gbm_bo */
	SG_TARGET_SURFACELESS, /* EGL_MESA_platform_surfaceless, output in a renderbuffer */
};

/* How a picture is turned on its panel (a display's rotation). "Clockwise"
 * is as you face the panel in its native orientation (its scanout's top
 * row on top). SG_ROTATION_90 puts the picture's top edge along the
 * panel's right edge: the picture stands upright on a panel mounted a
 * quarter turn counter-clockwise (KMS "panel orientation" "Right Side Up").
 * The FLIPPED ones first mirror the picture left to right, then turn it. */
enum sg_rotation {
	SG_ROTATION_0 = 0,
	SG_ROTATION_90,
	SG_ROTATION_180,
	SG_ROTATION_270,
	SG_ROTATION_FLIPPED_0,
	SG_ROTATION_FLIPPED_90,
	SG_ROTATION_FLIPPED_180,
	SG_ROTATION_FLIPPED_270,
};

/* A dma-buf of a buffer object, as sg_renderer_export_dmabuf gives it. */
struct sg_dmabuf {
	int fd;            /* owned by the caller: close() it */
	uint32_t fourcc;   /* DRM_FORMAT_* */
	uint64_t modifier; /* DRM_FORMAT_MOD_*; DRM_FORMAT_MOD_INVALID when implicit */
	int width, height;
	int plane_count;
	uint32_t strides[4], offsets[4];
};
#ifdef __cplusplus
}
#endif

#endif
