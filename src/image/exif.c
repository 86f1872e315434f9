/* EXIF orientation: reading tag 0x0112 of the first IFD, and turning pixels
 * the way the tag says the camera was held (EXIF 2.32, 4.6.4 A). */
#include <stdbool.h>
#include <string.h>

#include "../base/alloc.h"
#include "codecs.h"

static uint32_t read_u16(const uint8_t *p, bool big)
{
	return big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static uint32_t read_u32(const uint8_t *p, bool big)
{
	return big ? read_u16(p, true) << 16 | read_u16(p + 2, true)
	           : read_u16(p + 2, false) << 16 | read_u16(p, false);
}

int sg_exif_orientation(const uint8_t *tiff, size_t size)
{
	if (size < 8)
		return 1;
	bool big;
	if (memcmp(tiff, "MM\0*", 4) == 0)
		big = true;
	else if (memcmp(tiff, "II*\0", 4) == 0)
		big = false;
	else
		return 1;
	uint32_t ifd = read_u32(tiff + 4, big);
	if (ifd > size - 2 || ifd < 8)
		return 1;
	uint32_t count = read_u16(tiff + ifd, big);
	/* entries of 12 bytes: tag, type, count, value (a SHORT's in the first two bytes) */
	for (uint32_t i = 0; i < count; i++) {
		size_t at = (size_t)ifd + 2 + (size_t)i * 12;
		if (at + 12 > size)
			break;
		if (read_u16(tiff + at, big) != 0x0112)
			continue;
		uint32_t type = read_u16(tiff + at + 2, big);
		uint32_t value = read_u16(tiff + at + 8, big);
		return type == 3 && read_u32(tiff + at + 4, big) == 1 && value >= 1 && value <= 8
		           ? (int)value
		           : 1;
	}
	return 1;
}

int sg_png_exif_orientation(const uint8_t *png, size_t size)
{
	/* the signature, then chunks: length, type, data, CRC */
	for (size_t at = 8; at + 8 <= size;) {
		uint32_t length = read_u32(png + at, true);
		const uint8_t *type = png + at + 4;
		if (length > size - at - 8)
			return 1; /* cut short: no further chunk is whole */
		if (memcmp(type, "eXIf", 4) == 0)
			return sg_exif_orientation(png + at + 8, length);
		if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0)
			return 1; /* the third edition puts eXIf before the image data */
		if ((size_t)length + 12 > size - at)
			return 1;
		at += (size_t)length + 12;
	}
	return 1;
}

uint8_t *sg_image_orient(uint8_t *pixels, int *width, int *height, int orientation)
{
	if (orientation <= 1 || orientation > 8)
		return pixels;
	int w = *width, h = *height;
	bool swap = orientation >= 5;
	int out_w = swap ? h : w, out_h = swap ? w : h;
	uint8_t *out = sg_malloc((size_t)w * (size_t)h * 4);
	if (!out)
		return NULL;
	/* For each shown pixel (x, y), the stored one it is. */
	for (int y = 0; y < out_h; y++) {
		for (int x = 0; x < out_w; x++) {
			int sx, sy;
			switch (orientation) {
			case 2: sx = w - 1 - x, sy = y; break;         /* mirrored left to right */
			case 3: sx = w - 1 - x, sy = h - 1 - y; break; /* upside down */
			case 4: sx = x, sy = h - 1 - y; break;         /* mirrored top to bottom */
			case 5: sx = y, sy = x; break;                 /* transposed */
			case 6: sx = y, sy = h - 1 - x; break; /* turned 90 degrees clockwise */
			case 7: sx = w - 1 - y, sy = h - 1 - x; break; /* transversed */
			default: sx = w - 1 - y, sy = x; break; /* 8: 90 degrees anticlockwise */
			}
			memcpy(out + ((size_t)y * (size_t)out_w + (size_t)x) * 4,
			       pixels + ((size_t)sy * (size_t)w + (size_t)sx) * 4, 4);
		}
	}
	sg_free(pixels);
	*width = out_w;
	*height = out_h;
	return out;
}
