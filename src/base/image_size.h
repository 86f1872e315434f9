/* Internal: the limits every decoded image meets, checked from its header
 * before any pixel is decoded (PNG in base/png_read.c, JPEG and WebP in
 * src/image/). */
#ifndef SG_BASE_IMAGE_SIZE_H
#define SG_BASE_IMAGE_SIZE_H

#include <stdint.h>

#include <sg/error.h>

/* Against decompression bombs: a small file may claim a huge image. */
#define SG_MAX_IMAGE_PIXELS (64u * 1024 * 1024)

/* At most SG_MAX_SIDE on a side and SG_MAX_IMAGE_PIXELS in all, else
 * SG_ERR_FORMAT naming shown, "'shown' is WxH: ...". Then *width_out and
 * *height_out are set, and more than max_bytes of RGBA8 is SG_ERR_LIMIT with
 * no message (the caller knows its budget). */
sg_result sg_image_size_check(const char *shown, uint32_t width, uint32_t height,
                              uint64_t max_bytes, int *width_out, int *height_out);

#endif
