/* Internal: JPEG images (a glTF's textures) decoded with libjpeg-turbo. */
#ifndef SG_MODELFILE_JPEG_H
#define SG_MODELFILE_JPEG_H

#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

/* Decodes the JPEG of size bytes at data to 8-bit RGBA, as sg_png_read_rgba
 * (src/base/png_read.h) does a PNG: *pixels is the caller's to sg_free(); an
 * image of more than max_bytes RGBA bytes fails with SG_ERR_LIMIT before any
 * pixel is decoded, *width and *height set and no message. shown names the
 * image in messages (SG_ERR_FORMAT). */
sg_result sg_jpeg_read_rgba(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                            uint8_t **pixels, int *width, int *height);

#endif
