/* libsg: image files. */
#ifndef SG_IMAGE_H
#define SG_IMAGE_H

#include <stddef.h>

#include <sg/error.h>
#include <sg/export.h>

/* Writes RGBA8 pixels (top row first, stride bytes per row; 0 means width * 4)
 * as a PNG, through a temporary file in the same folder renamed over path once
 * complete. The file is made readable by all (0644), whatever the umask. */
SG_API sg_result sg_image_write_png(const char *path, int width, int height, const void *rgba,
                                    size_t stride);

#endif
