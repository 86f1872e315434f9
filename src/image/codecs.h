/* Internal to src/image/: the decoders behind sg_image_decode, and EXIF
 * orientation. Each decoder follows sg_image_decode's contract and gives
 * the image's EXIF orientation (1..8, 1 where it has none) in *orientation
 * when that is not NULL; sg_image_decode applies it. */
#ifndef SG_IMAGE_CODECS_H
#define SG_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

sg_result sg_jpeg_decode(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                         uint8_t **pixels, int *width, int *height, int *orientation);
sg_result sg_webp_decode(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                         uint8_t **pixels, int *width, int *height, int *orientation);

/* The EXIF orientation of a PNG file's eXIf chunk (PNG 1.5 extensions,
 * PNG third edition), 1 where it has none or it is not valid: the chunks
 * are walked in the file's bytes, up to IDAT or the end, without libpng,
 * which is told to skip eXIf (src/base/png_read.c). */
int sg_png_exif_orientation(const uint8_t *png, size_t size);
/* The orientation (TIFF tag 0x0112) of an EXIF block: the TIFF header and
 * its IFDs ("II*\0" or "MM\0*" first; a JPEG's APP1 "Exif\0\0" prefix
 * removed). 1 where it is missing, malformed or out of 1..8. */
int sg_exif_orientation(const uint8_t *tiff, size_t size);

/* The pixels of an image of width x height shown in orientation (1..8, as
 * EXIF defines them): a new buffer, or the same when orientation is 1.
 * *width and *height become the shown size (swapped for 5..8). NULL when
 * out of memory (pixels then untouched). */
uint8_t *sg_image_orient(uint8_t *pixels, int *width, int *height, int orientation);

#endif
