/* WebP decoding with libwebp (lossy, lossless, with alpha); the EXIF chunk
 * of the extended format, read with libwebpdemux, for the orientation. An
 * animated WebP is refused: a texture is one picture.
 * Without libwebp (meson option webp) such an image is recognised and
 * refused by name. */
#if SG_IMAGE_WEBP
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/image_size.h"
#include "codecs.h"

static int exif_orientation(const uint8_t *data, size_t size)
{
	WebPData whole = {data, size};
	WebPDemuxer *demux = WebPDemux(&whole);
	int orientation = 1;
	WebPChunkIterator chunk;
	if (demux && (WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & EXIF_FLAG) &&
	    WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
		const uint8_t *tiff = chunk.chunk.bytes;
		size_t length = chunk.chunk.size;
		/* Some writers keep the "Exif\0\0" of JPEG's APP1 in the chunk. */
		if (length > 6 && memcmp(tiff, "Exif\0\0", 6) == 0)
			tiff += 6, length -= 6;
		orientation = sg_exif_orientation(tiff, length);
		WebPDemuxReleaseChunkIterator(&chunk);
	}
	WebPDemuxDelete(demux);
	return orientation;
}

static const char *status_text(VP8StatusCode status)
{
	switch (status) {
	case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
	case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
	case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
	case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
	case VP8_STATUS_NOT_ENOUGH_DATA: return "truncated";
	default: return "cannot be decoded";
	}
}

sg_result sg_webp_decode(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                         uint8_t **pixels_out, int *width_out, int *height_out, int *orientation)
{
	*pixels_out = NULL;
	WebPBitstreamFeatures features;
	VP8StatusCode status = WebPGetFeatures(data, size, &features);
	if (status != VP8_STATUS_OK)
		return sg_fail(SG_ERR_FORMAT, "'%s' is not a valid WebP: %s", shown,
		               status_text(status));
	if (features.has_animation)
		return sg_fail(SG_ERR_FORMAT,
		               "'%s' is an animated WebP: a texture takes one picture", shown);
	int width = features.width, height = features.height;
	sg_result result = sg_image_size_check(shown, (uint32_t)width, (uint32_t)height, max_bytes,
	                                       width_out, height_out);
	if (result)
		return result;
	size_t bytes = (size_t)width * (size_t)height * 4;
	uint8_t *pixels = sg_malloc(bytes);
	if (!pixels)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the %dx%d image '%s'", width,
		               height, shown);
	/* Straight alpha, as PNG's: WebP stores it so. */
	if (!WebPDecodeRGBAInto(data, size, pixels, bytes, width * 4)) {
		sg_free(pixels);
		return sg_fail(SG_ERR_FORMAT,
		               "'%s' is not a valid WebP: its %dx%d picture cannot be "
		               "decoded",
		               shown, width, height);
	}
	if (orientation)
		*orientation = exif_orientation(data, size);
	*pixels_out = pixels;
	return SG_OK;
}

#else

#include "../base/error.h"
#include "codecs.h"

sg_result sg_webp_decode(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                         uint8_t **pixels, int *width, int *height, int *orientation)
{
	(void)data, (void)size, (void)max_bytes, (void)pixels, (void)width, (void)height,
	    (void)orientation;
	return sg_fail(SG_ERR_UNSUPPORTED,
	               "'%s' is a WebP: libsg was built without libwebp "
	               "(meson option webp)",
	               shown);
}

#endif
