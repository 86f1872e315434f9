/* Internal: image files decoded to 8-bit RGBA with straight alpha, told apart
 * by their first bytes: PNG (src/base/png_read.c), JPEG (libjpeg-turbo) and
 * WebP (libwebp), the last two where libsg is built with them (meson
 * options jpeg and webp). The layers above (textures of scenes, scene files,
 * model files) load images only through here. */
#ifndef SG_IMAGE_IMAGE_H
#define SG_IMAGE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sg/error.h>

/* How pixels are decoded. max_bytes: an image of more RGBA bytes fails with
 * SG_ERR_LIMIT before any pixel is decoded, *width and *height set and no
 * message (the caller knows its budget). orient: apply the EXIF orientation
 * of a JPEG or WebP (a photo taken sideways shows upright; the width and
 * height given back are then those shown); model files leave it off, as
 * glTF samples images as they are stored. */
struct sg_image_options {
	uint64_t max_bytes;
	bool orient;
};

/* Decodes size bytes at data. *pixels is the caller's to sg_free(); shown
 * names the image in messages (SG_ERR_FORMAT for a bad or unknown image,
 * SG_ERR_UNSUPPORTED for a format libsg was built without). */
sg_result sg_image_decode(const uint8_t *data, size_t size, const char *shown,
                          const struct sg_image_options *options, uint8_t **pixels, int *width,
                          int *height);

/* The same from an open file, from its current position (a caller that opened
 * and checked a file decodes the very file it checked). Does not close file. */
sg_result sg_image_read(FILE *file, const char *shown, const struct sg_image_options *options,
                        uint8_t **pixels, int *width, int *height);

/* The formats, for messages and --help: "PNG, JPEG, WebP" as built. */
const char *sg_image_formats(void);

#endif
