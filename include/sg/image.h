/* libsg: image files. */
#ifndef SG_IMAGE_H
#define SG_IMAGE_H

#include <stddef.h>

#include <sg/error.h>
#include <sg/export.h>

/* Writes RGBA8 pixels (top row first) as a PNG, through a temporary file in the
 * same folder renamed over path once complete. */
SG_API sg_result sg_image_write_png(const char *path, int width, int height, const void *rgba,
                                    size_t stride);

#endif
