/* Which decoder an image goes to (by its first bytes, never by its name),
 * its EXIF orientation applied, and images read whole from open files. */
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/png_read.h"
#include "codecs.h"
#include "image.h"

/* A compressed file larger than this is refused before it is read whole:
 * the largest image allowed (SG_MAX_IMAGE_PIXELS, base/image_size.h) in lossless WebP or a PNG
 * of noise stays below it. */
#define MAX_FILE_BYTES (512u * 1024 * 1024)

enum kind { KIND_UNKNOWN, KIND_PNG, KIND_JPEG, KIND_WEBP };

static enum kind sniff(const uint8_t *data, size_t size)
{
	if (size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0)
		return KIND_PNG;
	if (size >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff)
		return KIND_JPEG;
	if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0)
		return KIND_WEBP;
	return KIND_UNKNOWN;
}

const char *sg_image_formats(void)
{
#if SG_IMAGE_JPEG && SG_IMAGE_WEBP
	return "PNG, JPEG, WebP";
#elif SG_IMAGE_JPEG
	return "PNG, JPEG";
#elif SG_IMAGE_WEBP
	return "PNG, WebP";
#else
	return "PNG";
#endif
}

static sg_result decode_png(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                            uint8_t **pixels, int *width, int *height)
{
	FILE *file = fmemopen((void *)data, size, "rb");
	if (!file)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory reading '%s'", shown);
	sg_result result = sg_png_read_rgba(file, shown, max_bytes, pixels, width, height);
	fclose(file);
	return result;
}

sg_result sg_image_decode(const uint8_t *data, size_t size, const char *shown,
                          const struct sg_image_options *options, uint8_t **pixels, int *width,
                          int *height)
{
	*pixels = NULL;
	int orientation = 1;
	int *wanted = options->orient ? &orientation : NULL;
	sg_result result;
	switch (sniff(data, size)) {
	case KIND_PNG:
		result = decode_png(data, size, shown, options->max_bytes, pixels, width, height);
		if (!result && wanted)
			orientation = sg_png_exif_orientation(data, size);
		break;
	case KIND_JPEG:
		result = sg_jpeg_decode(data, size, shown, options->max_bytes, pixels, width,
		                        height, wanted);
		break;
	case KIND_WEBP:
		result = sg_webp_decode(data, size, shown, options->max_bytes, pixels, width,
		                        height, wanted);
		break;
	default:
		return sg_fail(SG_ERR_FORMAT, "'%s' is not an image libsg reads (%s)", shown,
		               sg_image_formats());
	}
	if (result || orientation == 1)
		return result;
	uint8_t *shown_pixels = sg_image_orient(*pixels, width, height, orientation);
	if (!shown_pixels) {
		sg_free(*pixels);
		*pixels = NULL;
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory turning the %dx%d image '%s'",
		               *width, *height, shown);
	}
	*pixels = shown_pixels;
	return SG_OK;
}

sg_result sg_image_read(FILE *file, const char *shown, const struct sg_image_options *options,
                        uint8_t **pixels, int *width, int *height)
{
	*pixels = NULL;
	uint8_t *data = NULL;
	size_t size = 0, capacity = 0;
	for (;;) {
		if (size == capacity) {
			if (capacity == MAX_FILE_BYTES) {
				if (fgetc(file) == EOF)
					break;
				sg_free(data);
				return sg_fail(
				    SG_ERR_FORMAT,
				    "'%s' is larger than the %u MiB an image file may be", shown,
				    MAX_FILE_BYTES >> 20);
			}
			size_t grown = capacity ? capacity * 2 : 64 * 1024;
			grown = grown < MAX_FILE_BYTES ? grown : MAX_FILE_BYTES;
			uint8_t *more = sg_realloc_array(data, grown, 1);
			if (!more) {
				sg_free(data);
				return sg_fail(SG_ERR_NO_MEMORY, "out of memory reading '%s'",
				               shown);
			}
			data = more;
			capacity = grown;
		}
		size_t got = fread(data + size, 1, capacity - size, file);
		if (got == 0)
			break; /* the end, or an error: ferror says */
		size += got;
	}
	if (ferror(file)) {
		sg_free(data);
		return sg_fail(SG_ERR_IO, "cannot read '%s'", shown);
	}
	sg_result result = sg_image_decode(data, size, shown, options, pixels, width, height);
	sg_free(data);
	return result;
}
