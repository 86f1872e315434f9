/* JPEG decoding with libjpeg-turbo: errors leave through longjmp, as
 * libjpeg's own examples do; nothing is printed. The EXIF block (APP1) is
 * kept for its orientation.
 * Without libjpeg-turbo (meson option jpeg) such an image is recognised and
 * refused by name. */
#if SG_IMAGE_JPEG
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/image_size.h"
#include "codecs.h"
/* A progressive JPEG may hold any number of scans, each a pass over the
 * whole image: a few kilobytes can take minutes (libjpeg-turbo's own fuzzers
 * stop at 500). Real encoders write at most a few dozen. */
#define JPEG_MAX_SCANS 500

struct jpeg_context {
	struct jpeg_error_mgr manager; /* first: libjpeg hands the manager back */
	jmp_buf escape;
	char message[JMSG_LENGTH_MAX];
};

static void on_jpeg_error(j_common_ptr info)
{
	struct jpeg_context *context = (struct jpeg_context *)info->err;
	info->err->format_message(info, context->message);
	longjmp(context->escape, 1);
}

static void on_jpeg_message(j_common_ptr info, int level)
{
	(void)info;
	(void)level; /* warnings (corrupt data skipped) do not stop a load */
}

static void on_jpeg_progress(j_common_ptr info)
{
	j_decompress_ptr decompress = (j_decompress_ptr)info;
	if (decompress->input_scan_number > JPEG_MAX_SCANS) {
		struct jpeg_context *context = (struct jpeg_context *)info->err;
		snprintf(context->message, sizeof(context->message),
		         "more than %d progressive scans", JPEG_MAX_SCANS);
		longjmp(context->escape, 1);
	}
}

/* A row of CMYK made RGBA in place, as browsers show such files (CMYK with
 * no colour management): each of R, G, B is the light its ink and the black
 * leave, (255 - ink) (255 - black) / 255, rounded. Adobe's encoders
 * (Photoshop), whose APP14 marker libjpeg reports as saw_Adobe_marker, store
 * each ink inverted, as that light (255 - ink): R = C K / 255. */
static void cmyk_to_rgba(uint8_t *row, JDIMENSION width, bool inverted)
{
	for (JDIMENSION x = 0; x < width; x++) {
		uint8_t *p = row + (size_t)x * 4;
		unsigned k = inverted ? p[3] : 255u - p[3];
		for (int c = 0; c < 3; c++) {
			unsigned light = inverted ? p[c] : 255u - p[c];
			p[c] = (uint8_t)((light * k + 127) / 255);
		}
		p[3] = 255;
	}
}

/* The orientation of the first APP1 marker that holds EXIF. */
static int exif_orientation(j_decompress_ptr info)
{
	static const char prefix[6] = "Exif\0"; /* and a second NUL, the array's last byte */
	for (jpeg_saved_marker_ptr m = info->marker_list; m; m = m->next)
		if (m->marker == JPEG_APP0 + 1 && m->data_length > sizeof(prefix) &&
		    memcmp(m->data, prefix, sizeof(prefix)) == 0)
			return sg_exif_orientation(m->data + sizeof(prefix),
			                           m->data_length - sizeof(prefix));
	return 1;
}

sg_result sg_jpeg_decode(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                         uint8_t **pixels_out, int *width_out, int *height_out, int *orientation)
{
	*pixels_out = NULL;
	struct jpeg_decompress_struct info = {0}; /* destroy reads it even if create failed */
	struct jpeg_context context = {.message = ""};
	struct jpeg_progress_mgr progress = {.progress_monitor = on_jpeg_progress};
	/* volatile: modified between setjmp and a possible longjmp */
	uint8_t *volatile pixels = NULL;
	volatile sg_result result = SG_OK;
	info.err = jpeg_std_error(&context.manager);
	context.manager.error_exit = on_jpeg_error;
	context.manager.emit_message = on_jpeg_message;
	if (setjmp(context.escape)) {
		result =
		    sg_fail(SG_ERR_FORMAT, "'%s' is not a valid JPEG: %s", shown, context.message);
		goto done;
	}
	jpeg_create_decompress(&info);
	info.progress = &progress;
	jpeg_mem_src(&info, data, (unsigned long)size);
	if (orientation) /* APP1 is at most 64 KiB: the length field's limit */
		jpeg_save_markers(&info, JPEG_APP0 + 1, 0xffff);
	jpeg_read_header(&info, TRUE);
	if (orientation)
		*orientation = exif_orientation(&info);
	JDIMENSION width = info.image_width, height = info.image_height;
	if ((result = sg_image_size_check(shown, width, height, max_bytes, width_out, height_out)))
		goto done;
	/* libjpeg-turbo's extension: RGBA straight out, alpha 255. It converts
	 * nothing to RGB from four components: CMYK comes as CMYK (YCCK made
	 * CMYK by it), made RGB below. */
	bool cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
	info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
	jpeg_start_decompress(&info);
	if (info.output_width != width || info.output_height != height ||
	    info.output_components != 4) {
		result = sg_fail(SG_ERR_FORMAT, "'%s': unsupported JPEG layout", shown);
		goto done;
	}
	if (!(pixels = sg_malloc((size_t)width * height * 4))) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory for the %ux%u image '%s'", width,
		                 height, shown);
		goto done;
	}
	while (info.output_scanline < height) {
		JSAMPROW row = pixels + (size_t)info.output_scanline * width * 4;
		jpeg_read_scanlines(&info, &row, 1);
		if (cmyk)
			cmyk_to_rgba(row, width, info.saw_Adobe_marker);
	}
	jpeg_finish_decompress(&info);
	*pixels_out = pixels;
	pixels = NULL;
done:
	jpeg_destroy_decompress(&info);
	sg_free(pixels);
	return result;
}

#else

#include "../base/error.h"
#include "codecs.h"

sg_result sg_jpeg_decode(const uint8_t *data, size_t size, const char *shown, uint64_t max_bytes,
                         uint8_t **pixels, int *width, int *height, int *orientation)
{
	(void)data, (void)size, (void)max_bytes, (void)pixels, (void)width, (void)height,
	    (void)orientation;
	return sg_fail(SG_ERR_UNSUPPORTED,
	               "'%s' is a JPEG: libsg was built without libjpeg-turbo "
	               "(meson option jpeg)",
	               shown);
}

#endif
