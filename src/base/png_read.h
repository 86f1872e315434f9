/* Internal: PNG decoding from an open FILE, so that a caller that opened and
 * checked a file (the scene-file loader) decodes the very file it checked. */
#ifndef SG_BASE_PNG_READ_H
#define SG_BASE_PNG_READ_H

#include <stdint.h>
#include <stdio.h>

#include <sg/error.h>

/* Decodes file to 8-bit RGBA; *pixels is the caller's to sg_free(). An image
 * of more than max_bytes RGBA bytes fails with SG_ERR_LIMIT before any pixel is
 * decoded, *width and *height set and no message (the caller knows the budget).
 * shown names the file in messages. Does not close file. */
sg_result sg_png_read_rgba(FILE *file, const char *shown, uint64_t max_bytes, uint8_t **pixels,
                           int *width, int *height);

#endif
