/* Reading PNG files through libpng, with limits (writing: png_write.c). */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_read.h"

#include "alloc.h"
#include "error.h"
#include "image_size.h"

/* Ancillary chunks a texture does not use, skipped unread: libpng 1.6.39 reads
 * some of them (pCAL, sCAL, ...) whole into a buffer of the length the file
 * claims, so a 46-byte file could make it allocate and clear 1 GiB (found by
 * tests/fuzz/). tRNS stays: it is the alpha of palette and grey images. */
static const png_byte unused_chunks[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0"
                                        "pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

struct png_context {
	char message[256];
};

static void on_png_error(png_structp png, png_const_charp message)
{
	struct png_context *context = png_get_error_ptr(png);
	snprintf(context->message, sizeof(context->message), "%s", message);
	png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message)
{
	(void)png;
	(void)message; /* warnings (e.g. an unknown chunk) do not stop a load */
}

sg_result sg_png_read_rgba(FILE *file, const char *shown, uint64_t max_bytes, uint8_t **pixels_out,
                           int *width_out, int *height_out)
{
	*pixels_out = NULL;
	unsigned char signature[8];
	if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8))
		return sg_fail(SG_ERR_FORMAT, "'%s' is not a PNG file", shown);
	struct png_context context = {{0}};
	png_structp png =
	    png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_png_error, on_png_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	/* volatile: modified between setjmp and a possible longjmp */
	uint8_t *volatile pixels = NULL;
	png_bytep *volatile rows = NULL;
	volatile sg_result result = SG_OK;
	if (!info) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory reading '%s'", shown);
		goto done;
	}
	if (setjmp(png_jmpbuf(png))) {
		result =
		    sg_fail(SG_ERR_FORMAT, "'%s' is not a valid PNG: %s", shown, context.message);
		goto done;
	}
	png_init_io(png, file);
	png_set_sig_bytes(png, 8);
	png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, unused_chunks,
	                            (int)(sizeof(unused_chunks) / 5));
	png_read_info(png, info);
	png_uint_32 width = png_get_image_width(png, info);
	png_uint_32 height = png_get_image_height(png, info);
	if ((result = sg_image_size_check(shown, width, height, max_bytes, width_out, height_out)))
		goto done;
	/* Everything becomes 8-bit RGBA. */
	png_set_expand(png);
	png_set_strip_16(png);
	png_set_gray_to_rgb(png);
	png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	if (png_get_rowbytes(png, info) != (size_t)width * 4) {
		result = sg_fail(SG_ERR_FORMAT, "'%s': unsupported PNG layout", shown);
		goto done;
	}
	pixels = sg_malloc((size_t)width * height * 4);
	rows = sg_realloc_array(NULL, height, sizeof(*rows));
	if (!pixels || !rows) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory for the %ux%u image '%s'", width,
		                 height, shown);
		goto done;
	}
	for (png_uint_32 y = 0; y < height; y++)
		rows[y] = pixels + (size_t)y * width * 4;
	png_read_image(png, rows);
	png_read_end(png, NULL);
	*pixels_out = pixels;
	pixels = NULL;
done:
	png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
	sg_free(rows);
	sg_free(pixels);
	return result;
}
