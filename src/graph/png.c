/* PNG files through libpng: texture loading with limits, and atomic writes. */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sg/image.h>

#include "alloc.h"
#include "error.h"
#include "scene_internal.h"

/* Against decompression bombs: a small file may claim a huge image. */
#define PNG_MAX_SIDE 16384
#define PNG_MAX_PIXELS (64u * 1024 * 1024)

/* Ancillary chunks a texture does not use, skipped unread: libpng 1.6.39 reads
 * some of them (pCAL, sCAL, ...) whole into a buffer of the length the file
 * claims, so a 46-byte file could make it allocate and clear 1 GiB (found by
 * tests/fuzz/). tRNS stays: it is the alpha of palette and grey images. */
static const png_byte unused_chunks[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0"
                                        "pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

struct png_context {
	const char *path;
	char message[256];
	int error; /* errno when libpng gave up: its own message says only "Write Error" */
};

static void on_png_error(png_structp png, png_const_charp message)
{
	struct png_context *context = png_get_error_ptr(png);
	context->error = errno;
	snprintf(context->message, sizeof(context->message), "%s", message);
	png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message)
{
	(void)png;
	(void)message; /* warnings (e.g. an unknown chunk) do not stop a load */
}

sg_texture sg_texture_load_png(struct sg_scene *scene, const char *path, enum sg_filter filter,
                               enum sg_wrap wrap)
{
	sg_texture texture = {0};
	if (!scene || !path) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_load_png: %s is NULL",
		        scene ? "path" : "scene");
		return texture;
	}
	FILE *file = fopen(path, "rb");
	if (!file) {
		sg_fail(SG_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
		return texture;
	}
	unsigned char signature[8];
	if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8)) {
		fclose(file);
		sg_fail(SG_ERR_FORMAT, "'%s' is not a PNG file", path);
		return texture;
	}

	struct png_context context = {.path = path};
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_png_error,
	                                         on_png_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	/* volatile: modified between setjmp and a possible longjmp */
	uint8_t *volatile pixels = NULL;
	png_bytep *volatile rows = NULL;
	if (!info) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory reading '%s'", path);
		goto done;
	}
	if (setjmp(png_jmpbuf(png))) {
		sg_fail(SG_ERR_FORMAT, "'%s' is not a valid PNG: %s", path, context.message);
		goto done;
	}
	png_init_io(png, file);
	png_set_sig_bytes(png, 8);
	png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, unused_chunks,
	                            (int)(sizeof(unused_chunks) / 5));
	png_read_info(png, info);
	/* Checked here, after the header and before any allocation, so that the
	 * message says what is wrong (libpng's own limit says "Invalid IHDR data"). */
	png_uint_32 width = png_get_image_width(png, info);
	png_uint_32 height = png_get_image_height(png, info);
	if (width > PNG_MAX_SIDE || height > PNG_MAX_SIDE) {
		sg_fail(SG_ERR_FORMAT, "'%s' is %ux%u: more than %d pixels on a side", path, width,
		        height, PNG_MAX_SIDE);
		goto done;
	}
	if ((uint64_t)width * height > PNG_MAX_PIXELS) {
		sg_fail(SG_ERR_FORMAT, "'%s' is %ux%u: more than the %u pixels allowed", path, width,
		        height, PNG_MAX_PIXELS);
		goto done;
	}
	/* Everything becomes 8-bit RGBA. */
	png_set_expand(png);
	png_set_strip_16(png);
	png_set_gray_to_rgb(png);
	png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	if (png_get_rowbytes(png, info) != (size_t)width * 4) {
		sg_fail(SG_ERR_FORMAT, "'%s': unsupported PNG layout", path);
		goto done;
	}
	pixels = sg_malloc((size_t)width * height * 4);
	rows = sg_realloc_array(NULL, height, sizeof(*rows));
	if (!pixels || !rows) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for the %ux%u image '%s'", width, height, path);
		goto done;
	}
	for (png_uint_32 y = 0; y < height; y++)
		rows[y] = pixels + (size_t)y * width * 4;
	png_read_image(png, rows);
	png_read_end(png, NULL);
	texture = sg_texture_create(scene, &(struct sg_texture_desc){
		.width = (int)width, .height = (int)height, .pixels = pixels,
		.filter = filter, .wrap = wrap});
	if (!texture.generation)
		sg_fail_prefix(sg_last_result(), "loading '%s': ", path);
done:
	png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
	sg_free(rows);
	sg_free(pixels);
	fclose(file);
	return texture;
}

/* Writes to "<path>.tmp-XXXXXX" beside path, then renames. */
sg_result sg_image_write_png(const char *path, int width, int height, const void *rgba,
                             size_t stride_arg)
{
	/* volatile: libpng's longjmp may otherwise clobber it */
	volatile size_t stride = stride_arg;
	if (!path || !rgba || width < 1 || height < 1)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_image_write_png: bad arguments (%s, %dx%d)",
		               path ? path : "NULL path", width, height);
	const size_t row_stride = stride ? stride : (size_t)width * 4;
	if (row_stride < (size_t)width * 4)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_image_write_png: stride %zu is less than width * 4 = %zu",
		               row_stride, (size_t)width * 4);
	size_t length = strlen(path);
	char *temporary = sg_malloc(length + 16);
	if (!temporary)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory writing '%s'", path);
	snprintf(temporary, length + 16, "%s.tmp-XXXXXX", path);
	int fd = mkstemp(temporary);
	if (fd < 0) {
		sg_result r = sg_fail(SG_ERR_IO, "cannot create a temporary file beside '%s': %s", path,
		                      strerror(errno));
		sg_free(temporary);
		return r;
	}
	/* mkstemp makes the file 0600; an image is for others to read too. */
	fchmod(fd, 0644);
	FILE *file = fdopen(fd, "wb");
	struct png_context context = {.path = path};
	png_structp png = file ? png_create_write_struct(PNG_LIBPNG_VER_STRING, &context,
	                                                 on_png_error, on_png_warning)
	                       : NULL;
	png_infop info = png ? png_create_info_struct(png) : NULL;
	sg_result result = SG_OK;
	if (!info) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory writing '%s'", path);
		goto done;
	}
	if (setjmp(png_jmpbuf(png))) {
		result = sg_fail(SG_ERR_IO, "writing '%s' failed: %s (%s)", path, context.message,
		                 context.error ? strerror(context.error) : "no system error");
		goto done;
	}
	errno = 0;
	png_init_io(png, file);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGBA,
	             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < height; y++)
		png_write_row(png, (png_const_bytep)rgba + row_stride * (size_t)y);
	png_write_end(png, NULL);
done:
	if (png)
		png_destroy_write_struct(&png, info ? &info : NULL);
	if (file) {
		/* fflush + fsync so that a full disk is reported here, not lost at close. */
		if (fflush(file) != 0 || fsync(fileno(file)) != 0) {
			if (result == SG_OK)
				result = sg_fail(SG_ERR_IO, "writing '%s' failed: %s", path, strerror(errno));
		}
		if (fclose(file) != 0 && result == SG_OK)
			result = sg_fail(SG_ERR_IO, "writing '%s' failed: %s", path, strerror(errno));
	} else {
		close(fd);
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory writing '%s'", path);
	}
	if (result == SG_OK && rename(temporary, path) != 0)
		result = sg_fail(SG_ERR_IO, "cannot rename '%s' to '%s': %s", temporary, path,
		                 strerror(errno));
	if (result != SG_OK)
		unlink(temporary);
	sg_free(temporary);
	return result;
}
