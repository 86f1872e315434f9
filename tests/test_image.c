/* The image layer (src/image/): PNG, JPEG and WebP decoded to RGBA, EXIF
 * orientation, limits and hostile files, and sg_texture_load on top of it.
 *
 * The expected pixels are the pictures this test encodes itself (libjpeg-
 * turbo's and libwebp's encoders), never what the decoder gave before: exact
 * for lossless WebP, within a stated tolerance inside flat 8x8 (JPEG) or
 * 16x16 (lossy WebP) blocks, whose DCT keeps a flat block flat. The corners of
 * each EXIF orientation come from EXIF 2.32's words ("the 0th row is the
 * visual right-hand side..."), worked out by hand below, not from the
 * decoder's index arithmetic. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if SG_TEST_JPEG
#include <jpeglib.h>
#endif
#if SG_TEST_WEBP
#include <webp/encode.h>
#endif

#include <png.h>
#include <setjmp.h>
#include <sg/sg.h>

#include "../src/base/alloc.h"
#include "../src/graph/scene_internal.h"
#include "../src/image/codecs.h"
#include "../src/image/image.h"
#include "check_run.h"

struct blob {
	uint8_t *data;
	size_t size;
};

/* The stored picture of the orientation tests: four flat quadrants, 16x8
 * each (whole JPEG blocks), distinct in every channel. */
#define QUAD_W 32
#define QUAD_H 16
enum corner { RED, GREEN, BLUE, WHITE };
static const uint8_t quadrant_rgb[4][3] = {[RED] = {220, 30, 40},
                                           [GREEN] = {30, 200, 60},
                                           [BLUE] = {40, 50, 210},
                                           [WHITE] = {240, 240, 235}};

static void quadrants(uint8_t *rgba)
{
	for (int y = 0; y < QUAD_H; y++)
		for (int x = 0; x < QUAD_W; x++) {
			enum corner c = y < QUAD_H / 2 ? (x < QUAD_W / 2 ? RED : GREEN)
			                               : (x < QUAD_W / 2 ? BLUE : WHITE);
			uint8_t *p = rgba + ((size_t)y * QUAD_W + (size_t)x) * 4;
			memcpy(p, quadrant_rgb[c], 3);
			p[3] = 255;
		}
}

/* The TIFF block of an EXIF with one tag, the orientation (a SHORT). */
static size_t exif_tiff(uint8_t *out, bool big_endian, int orientation)
{
	static const uint8_t big[] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0,
	                              3,   0,   0, 0,  1, 0, 0, 0, 0, 0, 0,    0,    0};
	static const uint8_t little[] = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3,
	                                 0,   1,   0,  0, 0, 0, 0, 0, 0, 0, 0,    0,    0};
	memcpy(out, big_endian ? big : little, sizeof(big));
	if (big_endian)
		out[19] = (uint8_t)orientation; /* the value's two bytes at 18, 19 */
	else
		out[18] = (uint8_t)orientation;
	return sizeof(big);
}

static bool near(const uint8_t *got, const uint8_t *want, int tolerance)
{
	for (int i = 0; i < 3; i++)
		if (abs((int)got[i] - (int)want[i]) > tolerance)
			return false;
	return true;
}

static sg_result decode(const struct blob *b, bool orient, uint64_t max_bytes, uint8_t **pixels,
                        int *width, int *height)
{
	const struct sg_image_options options = {.max_bytes = max_bytes, .orient = orient};
	return sg_image_decode(b->data, b->size, "test image", &options, pixels, width, height);
}

/* The four corners (inset 2 pixels) of a shown picture against the corners
 * EXIF's words give, in the order top-left, top-right, bottom-left,
 * bottom-right. */
static void assert_corners(const uint8_t *pixels, int width, int height, const enum corner want[4],
                           int tolerance, const char *what)
{
	const int xs[4] = {2, width - 3, 2, width - 3}, ys[4] = {2, 2, height - 3, height - 3};
	static const char *const names[4] = {"top-left", "top-right", "bottom-left",
	                                     "bottom-right"};
	static const char *const stored[4] = {"red (top-left)", "green (top-right)",
	                                      "blue (bottom-left)", "white (bottom-right)"};
	for (int i = 0; i < 4; i++) {
		const uint8_t *p = pixels + ((size_t)ys[i] * (size_t)width + (size_t)xs[i]) * 4;
		ck_assert_msg(
		    near(p, quadrant_rgb[want[i]], tolerance),
		    "%s: the %s corner is (%d, %d, %d), not the stored %s quadrant's (%d, %d, %d)",
		    what, names[i], p[0], p[1], p[2], stored[want[i]], quadrant_rgb[want[i]][0],
		    quadrant_rgb[want[i]][1], quadrant_rgb[want[i]][2]);
	}
}

/* EXIF 2.32, Orientation: where the stored 0th row and 0th column are seen.
 * Stored: red top-left, green top-right, blue bottom-left, white
 * bottom-right. Shown corners, top-left, top-right, bottom-left,
 * bottom-right: */
static const enum corner shown_corners[9][4] = {
    [1] = {RED, GREEN, BLUE, WHITE}, /* row 0 top, column 0 left: as stored */
    [2] = {GREEN, RED, WHITE, BLUE}, /* row 0 top, column 0 right: mirrored */
    [3] = {WHITE, BLUE, GREEN, RED}, /* row 0 bottom, column 0 right: upside down */
    [4] = {BLUE, WHITE, RED, GREEN}, /* row 0 bottom, column 0 left */
    [5] = {RED, BLUE, GREEN, WHITE}, /* row 0 left, column 0 top */
    [6] = {BLUE, RED, WHITE, GREEN}, /* row 0 right, column 0 top: turn clockwise */
    [7] = {WHITE, GREEN, BLUE, RED}, /* row 0 right, column 0 bottom */
    [8] = {GREEN, WHITE, RED, BLUE}, /* row 0 left, column 0 bottom: anticlockwise */
};
/* The quadrants of b, encoded with EXIF orientation, decoded with it applied
 * (orient) or as stored: the shown size and corners, within tolerance. */
static void assert_shown(const struct blob *b, int orientation, bool orient, int tolerance,
                         const char *format)
{
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	ck_assert_msg(decode(b, orient, UINT64_MAX, &pixels, &width, &height) == SG_OK,
	              "%s, orientation %d: %s", format, orientation, sg_last_error());
	int shown = orient ? orientation : 1;
	bool sideways = shown >= 5;
	ck_assert_int_eq(width, sideways ? QUAD_H : QUAD_W);
	ck_assert_int_eq(height, sideways ? QUAD_W : QUAD_H);
	char what[64];
	snprintf(what, sizeof(what), "%s, EXIF orientation %d%s", format, orientation,
	         orient ? "" : ", orient off");
	assert_corners(pixels, width, height, shown_corners[shown], tolerance, what);
	sg_free(pixels);
}

#if SG_TEST_JPEG || SG_TEST_WEBP
/* The first bytes of b, every step-th length: an error naming the format
 * (SG_ERR_FORMAT, no pixels) or the whole picture, never a crash. */
static void assert_truncations(const struct blob *b, size_t step)
{
	for (size_t cut = 0; cut < b->size; cut += step) {
		struct blob part = {b->data, cut};
		uint8_t *pixels = NULL;
		int width = 0, height = 0;
		sg_result r = decode(&part, true, UINT64_MAX, &pixels, &width, &height);
		if (r) {
			ck_assert_msg(r == SG_ERR_FORMAT, "%zu of %zu bytes: %d (%s)", cut, b->size,
			              r, sg_last_error());
			ck_assert_ptr_null(pixels);
		} else {
			ck_assert_int_eq(width * height, QUAD_W * QUAD_H);
		}
		sg_free(pixels);
	}
}
#endif

/* --- PNG: eXIf --------------------------------------------------------------- */

struct png_sink {
	uint8_t *data;
	size_t size, capacity;
};

static void png_write_to(png_structp png, png_bytep bytes, png_size_t length)
{
	struct png_sink *sink = png_get_io_ptr(png);
	if (sink->size + length > sink->capacity) {
		sink->capacity = (sink->size + length) * 2;
		sink->data = realloc(sink->data, sink->capacity);
		ck_assert_ptr_nonnull(sink->data);
	}
	memcpy(sink->data + sink->size, bytes, length);
	sink->size += length;
}

static void png_flush_none(png_structp png)
{
	(void)png;
}

/* The quadrants as a PNG written by libpng, with an eXIf chunk of exif_size
 * bytes unless that is 0. */
static struct blob png_quadrants(const uint8_t *exif, size_t exif_size)
{
	uint8_t rgba[QUAD_W * QUAD_H * 4];
	quadrants(rgba);
	struct png_sink sink = {0};
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	ck_assert(png && info);
	ck_assert_int_eq(setjmp(png_jmpbuf(png)), 0);
	png_set_write_fn(png, &sink, png_write_to, png_flush_none);
	png_set_IHDR(png, info, QUAD_W, QUAD_H, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (exif_size)
		png_set_eXIf_1(png, info, (png_uint_32)exif_size, (png_bytep)exif);
	png_write_info(png, info);
	for (int y = 0; y < QUAD_H; y++)
		png_write_row(png, rgba + (size_t)y * QUAD_W * 4);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	return (struct blob){sink.data, sink.size};
}

/* Every orientation in both byte orders, applied exactly (PNG is lossless),
 * or not where orient is off; no eXIf, or one that is no TIFF, shows the
 * picture as stored. */
START_TEST(test_png_exif_orientation)
{
	for (int o = 1; o <= 8; o++)
		for (int big = 0; big <= 1; big++) {
			uint8_t tiff[64];
			size_t size = exif_tiff(tiff, big, o);
			struct blob b = png_quadrants(tiff, size);
			ck_assert_int_eq(sg_png_exif_orientation(b.data, b.size), o);
			assert_shown(&b, o, true, 0, "PNG");
			assert_shown(&b, o, false, 0, "PNG");
			free(b.data);
		}
	struct blob plain = png_quadrants(NULL, 0);
	assert_shown(&plain, 1, true, 0, "PNG");
	/* cut anywhere: never a read past the end, never an orientation */
	for (size_t cut = 0; cut < plain.size; cut++)
		ck_assert_int_eq(sg_png_exif_orientation(plain.data, cut), 1);
	free(plain.data);
	static const uint8_t junk[] = "not a TIFF header at all";
	struct blob b = png_quadrants(junk, sizeof(junk));
	assert_shown(&b, 1, true, 0, "PNG");
	free(b.data);
}
END_TEST

START_TEST(test_unknown_and_empty)
{
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	static uint8_t text[] = "GIF89a, or anything else";
	struct blob b = {text, sizeof(text)};
	ck_assert_int_eq(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_ERR_FORMAT);
	ck_assert_ptr_null(pixels);
	ck_assert_msg(strstr(sg_last_error(), "'test image' is not an image libsg reads (PNG"),
	              "%s", sg_last_error());
	b.size = 0;
	ck_assert_int_eq(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_ERR_FORMAT);
	/* the magic of each, and nothing after it */
	static uint8_t png_magic[] = "\x89PNG\r\n\x1a\n";
	b = (struct blob){png_magic, 8};
	ck_assert_int_eq(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_ERR_FORMAT);
	static uint8_t jpeg_magic[] = {0xff, 0xd8, 0xff};
	b = (struct blob){jpeg_magic, 3};
	ck_assert_int_ne(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_OK);
	static uint8_t webp_magic[] = "RIFF\0\0\0\0WEBP";
	b = (struct blob){webp_magic, 12};
	ck_assert_int_ne(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_OK);
	ck_assert_ptr_null(pixels);
}
END_TEST

START_TEST(test_exif_blocks)
{
	/* EXIF blocks that are not what they claim: orientation 1, no read past */
	uint8_t tiff[26];
	for (int o = 1; o <= 8; o++) {
		exif_tiff(tiff, o % 2, o);
		ck_assert_int_eq(sg_exif_orientation(tiff, sizeof(tiff)), o);
		for (size_t cut = 0; cut < 20; cut++)
			ck_assert_int_eq(sg_exif_orientation(tiff, cut), 1);
	}
	exif_tiff(tiff, true, 9); /* out of range */
	ck_assert_int_eq(sg_exif_orientation(tiff, sizeof(tiff)), 1);
	exif_tiff(tiff, true, 6);
	tiff[7] = 200; /* the IFD past the end */
	ck_assert_int_eq(sg_exif_orientation(tiff, sizeof(tiff)), 1);
	exif_tiff(tiff, true, 6);
	tiff[9] = 0xff; /* 255 entries claimed, one there */
	ck_assert_int_eq(sg_exif_orientation(tiff, sizeof(tiff)), 6);
	exif_tiff(tiff, false, 6);
	tiff[12] = 4; /* a LONG, not a SHORT */
	ck_assert_int_eq(sg_exif_orientation(tiff, sizeof(tiff)), 1);
}
END_TEST

#if SG_TEST_JPEG

/* A JPEG of rgb (3 bytes a pixel), quality 100 with no chroma subsampling,
 * or grey (1 byte a pixel); with an EXIF orientation (APP1 after JFIF's
 * APP0) unless 0. */
static struct blob encode_jpeg(const uint8_t *pixels, int width, int height, bool grey,
                               int orientation, bool big_endian)
{
	struct jpeg_compress_struct info;
	struct jpeg_error_mgr errors;
	info.err = jpeg_std_error(&errors);
	jpeg_create_compress(&info);
	unsigned char *out = NULL;
	unsigned long size = 0;
	jpeg_mem_dest(&info, &out, &size);
	info.image_width = (JDIMENSION)width;
	info.image_height = (JDIMENSION)height;
	info.input_components = grey ? 1 : 3;
	info.in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
	jpeg_set_defaults(&info);
	jpeg_set_quality(&info, 100, TRUE);
	for (int c = 0; c < info.num_components; c++)
		info.comp_info[c].h_samp_factor = info.comp_info[c].v_samp_factor = 1;
	jpeg_start_compress(&info, TRUE);
	int stride = width * info.input_components;
	while (info.next_scanline < info.image_height) {
		JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * (size_t)stride);
		jpeg_write_scanlines(&info, &row, 1);
	}
	jpeg_finish_compress(&info);
	jpeg_destroy_compress(&info);
	struct blob b = {malloc(size + 64), size};
	ck_assert_ptr_nonnull(b.data);
	if (!orientation) {
		memcpy(b.data, out, size);
	} else {
		/* SOI, APP0 (JFIF), then our APP1 */
		ck_assert(out[2] == 0xff && out[3] == 0xe0);
		size_t head = 4 + ((size_t)out[4] << 8 | out[5]);
		uint8_t app1[2 + 2 + 6 + 26] = {0xff, 0xe1, 0,   2 + 6 + 26, 'E',
		                                'x',  'i',  'f', 0,          0};
		exif_tiff(app1 + 10, big_endian, orientation);
		memcpy(b.data, out, head);
		memcpy(b.data + head, app1, sizeof(app1));
		memcpy(b.data + head + sizeof(app1), out + head, size - head);
		b.size = size + sizeof(app1);
	}
	free(out);
	return b;
}

static void quadrants_rgb(uint8_t *rgb)
{
	uint8_t rgba[QUAD_W * QUAD_H * 4];
	quadrants(rgba);
	for (int i = 0; i < QUAD_W * QUAD_H; i++)
		memcpy(rgb + i * 3, rgba + i * 4, 3);
}

START_TEST(test_jpeg_blocks)
{
	/* 8x8 blocks of flat colours, 5 x 3 of them: each block's interior
	 * (all of it: a flat block has only a DC term) within 2 of the colour */
	enum { W = 40, H = 24 };
	uint8_t rgb[W * H * 3];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int block = (y / 8) * 5 + x / 8;
			uint8_t *p = rgb + (y * W + x) * 3;
			p[0] = (uint8_t)(block * 17);
			p[1] = (uint8_t)(255 - block * 13);
			p[2] = (uint8_t)(block * 29 % 256);
		}
	struct blob b = encode_jpeg(rgb, W, H, false, 0, false);
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	ck_assert_msg(decode(&b, true, UINT64_MAX, &pixels, &width, &height) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_int_eq(width, W);
	ck_assert_int_eq(height, H);
	int worst = 0;
	for (int i = 0; i < W * H; i++) {
		for (int c = 0; c < 3; c++) {
			int d = abs((int)pixels[i * 4 + c] - (int)rgb[i * 3 + c]);
			worst = d > worst ? d : worst;
		}
		ck_assert_int_eq(pixels[i * 4 + 3], 255);
	}
	printf("JPEG, flat 8x8 blocks at quality 100, 4:4:4: largest difference %d\n", worst);
	ck_assert_int_le(worst, 2);
	sg_free(pixels);

	/* grey: R = G = B */
	uint8_t grey[W * H];
	for (int i = 0; i < W * H; i++)
		grey[i] = (uint8_t)((i % W / 8) * 50 + 5);
	free(b.data);
	b = encode_jpeg(grey, W, H, true, 0, false);
	ck_assert_int_eq(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_OK);
	for (int i = 0; i < W * H; i++) {
		ck_assert_int_le(abs((int)pixels[i * 4] - grey[i]), 1);
		ck_assert_int_eq(pixels[i * 4], pixels[i * 4 + 1]);
		ck_assert_int_eq(pixels[i * 4], pixels[i * 4 + 2]);
	}
	sg_free(pixels);
	free(b.data);
}
END_TEST

/* A 4-component JPEG of cmyk (4 bytes a pixel, stored as given), quality
 * 100, no subsampling: CMYK (Adobe APP14 transform 0), YCCK (transform 2:
 * the encoder turns C, M, Y into YCbCr) or, with adobe false, CMYK without
 * the Adobe marker. The marker is checked in the file: the case is the one
 * meant. */
enum cmyk_kind { CMYK_ADOBE, YCCK_ADOBE, CMYK_PLAIN };
static struct blob encode_cmyk_jpeg(const uint8_t *cmyk, int width, int height, enum cmyk_kind kind)
{
	struct jpeg_compress_struct info;
	struct jpeg_error_mgr errors;
	info.err = jpeg_std_error(&errors);
	jpeg_create_compress(&info);
	unsigned char *out = NULL;
	unsigned long size = 0;
	jpeg_mem_dest(&info, &out, &size);
	info.image_width = (JDIMENSION)width;
	info.image_height = (JDIMENSION)height;
	info.input_components = 4;
	info.in_color_space = JCS_CMYK;
	jpeg_set_defaults(&info);
	jpeg_set_colorspace(&info, kind == YCCK_ADOBE ? JCS_YCCK : JCS_CMYK);
	if (kind == CMYK_PLAIN)
		info.write_Adobe_marker = FALSE;
	jpeg_set_quality(&info, 100, TRUE);
	for (int c = 0; c < info.num_components; c++)
		info.comp_info[c].h_samp_factor = info.comp_info[c].v_samp_factor = 1;
	jpeg_start_compress(&info, TRUE);
	while (info.next_scanline < info.image_height) {
		JSAMPROW row = (JSAMPROW)(cmyk + (size_t)info.next_scanline * (size_t)width * 4);
		jpeg_write_scanlines(&info, &row, 1);
	}
	jpeg_finish_compress(&info);
	jpeg_destroy_compress(&info);
	/* APP14: FF EE, length, "Adobe", version (2), flags0 (2), flags1 (2),
	 * transform (1) */
	int transform = -1;
	for (unsigned long i = 0; i + 16 < size; i++)
		if (out[i] == 0xff && out[i + 1] == 0xee && memcmp(out + i + 4, "Adobe", 5) == 0)
			transform = out[i + 15];
	ck_assert_int_eq(transform, kind == CMYK_ADOBE ? 0 : kind == YCCK_ADOBE ? 2 : -1);
	struct blob b = {malloc(size), size};
	ck_assert_ptr_nonnull(b.data);
	memcpy(b.data, out, size);
	free(out);
	return b;
}

/* CMYK and YCCK JPEGs, as Photoshop writes them (an Adobe marker, the inks
 * stored inverted: 255 is no ink), shown as R = C K / 255, G = M K / 255,
 * B = Y K / 255 of the stored bytes; without the marker the bytes are the
 * inks: R = (255 - C)(255 - K) / 255. Flat 8x8 blocks, every pixel within 2
 * of the formula (measured: CMYK 0.49, the rounding alone; YCCK 1.40, its
 * colour conversion both ways). */
START_TEST(test_jpeg_cmyk)
{
	enum { W = 40, H = 24 };
	uint8_t cmyk[W * H * 4];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int block = (y / 8) * 5 + x / 8;
			uint8_t *p = cmyk + (y * W + x) * 4;
			p[0] = (uint8_t)(255 - block * 17);
			p[1] = (uint8_t)(block * 13 + 40);
			p[2] = (uint8_t)(block * 29 % 256);
			p[3] = (uint8_t)(255 - block * 9);
		}
	static const char *const names[] = {"CMYK (Adobe)", "YCCK (Adobe)", "CMYK (no marker)"};
	for (int kind = CMYK_ADOBE; kind <= CMYK_PLAIN; kind++) {
		struct blob b = encode_cmyk_jpeg(cmyk, W, H, (enum cmyk_kind)kind);
		uint8_t *pixels = NULL;
		int width = 0, height = 0;
		ck_assert_msg(decode(&b, true, UINT64_MAX, &pixels, &width, &height) == SG_OK,
		              "%s: %s", names[kind], sg_last_error());
		ck_assert_int_eq(width, W);
		ck_assert_int_eq(height, H);
		double worst = 0;
		for (int i = 0; i < W * H; i++) {
			const uint8_t *p = cmyk + i * 4;
			for (int c = 0; c < 3; c++) {
				double want = kind == CMYK_PLAIN
				                  ? (255.0 - p[c]) * (255.0 - p[3]) / 255
				                  : p[c] * (double)p[3] / 255;
				double d = pixels[i * 4 + c] - want;
				d = d < 0 ? -d : d;
				worst = d > worst ? d : worst;
			}
			ck_assert_int_eq(pixels[i * 4 + 3], 255);
		}
		printf("JPEG %s, flat 8x8 blocks: largest difference %.2f\n", names[kind], worst);
		ck_assert_msg(worst <= 2, "%s: %.2f from the formula", names[kind], worst);
		sg_free(pixels);
		free(b.data);
	}
}
END_TEST

START_TEST(test_jpeg_orientation)
{
	uint8_t rgb[QUAD_W * QUAD_H * 3];
	quadrants_rgb(rgb);
	for (int o = 1; o <= 8; o++) {
		/* both byte orders of TIFF */
		struct blob b = encode_jpeg(rgb, QUAD_W, QUAD_H, false, o, o % 2 == 0);
		assert_shown(&b, o, true, 3, "JPEG");
		assert_shown(&b, o, false, 3, "JPEG"); /* orient off (model files): as stored */
		free(b.data);
	}
}
END_TEST

START_TEST(test_jpeg_hostile)
{
	uint8_t rgb[QUAD_W * QUAD_H * 3];
	quadrants_rgb(rgb);
	struct blob b = encode_jpeg(rgb, QUAD_W, QUAD_H, false, 6, true);
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	/* over the budget: the size, no pixels, no message needed */
	ck_assert_int_eq(decode(&b, true, QUAD_W * QUAD_H * 4 - 1, &pixels, &width, &height),
	                 SG_ERR_LIMIT);
	ck_assert_ptr_null(pixels);
	ck_assert_int_eq(width * height, QUAD_W * QUAD_H);
	/* libjpeg fills what is missing of a cut scan; a cut header is an error */
	assert_truncations(&b, 7);
	struct blob header = {b.data, 40};
	ck_assert_int_eq(decode(&header, true, UINT64_MAX, &pixels, &width, &height),
	                 SG_ERR_FORMAT);
	ck_assert_msg(strstr(sg_last_error(), "is not a valid JPEG"), "%s", sg_last_error());
	/* a frame header claiming 60000 x 60000 */
	for (size_t i = 2; i + 9 < b.size; i++)
		if (b.data[i] == 0xff && b.data[i + 1] == 0xc0) {
			b.data[i + 5] = b.data[i + 7] = 0xea; /* height, width: 0xea60 */
			b.data[i + 6] = b.data[i + 8] = 0x60;
			break;
		}
	ck_assert_int_eq(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_ERR_FORMAT);
	ck_assert_msg(strstr(sg_last_error(), "60000x60000: more than 16384 pixels on a side"),
	              "%s", sg_last_error());
	ck_assert_ptr_null(pixels);
	free(b.data);
}
END_TEST

#endif /* SG_TEST_JPEG */

#if SG_TEST_WEBP

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le(uint8_t *p, uint32_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Lossless (exact: no alpha is 0) or lossy at quality 100; with an EXIF
 * chunk in the extended format (VP8X) unless orientation is 0, with JPEG's
 * "Exif\0\0" before the TIFF block when prefixed. */
static struct blob encode_webp(const uint8_t *rgba, int width, int height, bool lossless,
                               int orientation, bool prefixed)
{
	uint8_t *out = NULL;
	size_t size = lossless ? WebPEncodeLosslessRGBA(rgba, width, height, width * 4, &out)
	                       : WebPEncodeRGBA(rgba, width, height, width * 4, 100, &out);
	ck_assert_msg(size > 12 && out, "libwebp could not encode the test picture");
	struct blob b = {malloc(size + 128), size};
	ck_assert_ptr_nonnull(b.data);
	if (!orientation) {
		memcpy(b.data, out, size);
		WebPFree(out);
		return b;
	}
	/* RIFF, size, WEBP, VP8X (flags: EXIF 0x08, alpha 0x10), the image
	 * chunk of the simple file, EXIF */
	const uint8_t *image = out + 12;
	size_t image_size = size - 12;
	uint8_t exif[6 + 26];
	size_t exif_size = 0;
	if (prefixed) {
		memcpy(exif, "Exif\0\0", 6);
		exif_size = 6;
	}
	exif_size += exif_tiff(exif + exif_size, orientation % 2, orientation);
	uint8_t *p = b.data;
	memcpy(p, "RIFF", 4);
	memcpy(p + 8, "WEBPVP8X", 8);
	put_le(p + 16, 10, 4);
	memset(p + 20, 0, 10);
	p[20] = 0x08 | (lossless ? 0x10 : 0);
	put_le(p + 24, (uint32_t)width - 1, 3);
	put_le(p + 27, (uint32_t)height - 1, 3);
	size_t at = 30;
	memcpy(p + at, image, image_size);
	at += image_size;
	memcpy(p + at, "EXIF", 4);
	put_le(p + at + 4, (uint32_t)exif_size, 4);
	memcpy(p + at + 8, exif, exif_size);
	at += 8 + exif_size + (exif_size & 1);
	if (exif_size & 1)
		p[at - 1] = 0;
	put_le(p + 4, (uint32_t)(at - 8), 4);
	b.size = at;
	ck_assert_uint_eq(le32(p + 4) + 8, b.size);
	WebPFree(out);
	return b;
}

START_TEST(test_webp_lossless_exact)
{
	enum { W = 37, H = 23 };
	uint8_t rgba[W * H * 4];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t *p = rgba + (y * W + x) * 4;
			p[0] = (uint8_t)(x * 7 + y * 3);
			p[1] = (uint8_t)((x * 11) ^ y);
			p[2] = (uint8_t)(y * 5);
			p[3] = (uint8_t)(1 + (x + y * W) % 255); /* never 0: lossless keeps RGB */
		}
	struct blob b = encode_webp(rgba, W, H, true, 0, false);
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	ck_assert_msg(decode(&b, true, UINT64_MAX, &pixels, &width, &height) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_int_eq(width, W);
	ck_assert_int_eq(height, H);
	/* straight alpha, byte for byte */
	ck_assert_int_eq(memcmp(pixels, rgba, sizeof(rgba)), 0);
	sg_free(pixels);
	free(b.data);
}
END_TEST

START_TEST(test_webp_lossy_blocks)
{
	/* 16x16 macroblocks of flat colours, 4 x 2, opaque: within 8 of the
	 * colour inside each (4:2:0 chroma and YUV rounding) */
	enum { W = 64, H = 32 };
	uint8_t rgba[W * H * 4];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int block = (y / 16) * 4 + x / 16;
			uint8_t *p = rgba + (y * W + x) * 4;
			p[0] = (uint8_t)(30 + block * 28);
			p[1] = (uint8_t)(220 - block * 20);
			p[2] = (uint8_t)(block % 2 ? 200 : 60);
			p[3] = 255;
		}
	struct blob b = encode_webp(rgba, W, H, false, 0, false);
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	ck_assert_msg(decode(&b, true, UINT64_MAX, &pixels, &width, &height) == SG_OK, "%s",
	              sg_last_error());
	int worst = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			if (x % 16 < 2 || x % 16 > 13 || y % 16 < 2 || y % 16 > 13)
				continue; /* the blocks' edges: chroma is shared across them */
			for (int c = 0; c < 3; c++) {
				int d = abs((int)pixels[(y * W + x) * 4 + c] -
				            (int)rgba[(y * W + x) * 4 + c]);
				worst = d > worst ? d : worst;
			}
			ck_assert_int_eq(pixels[(y * W + x) * 4 + 3], 255);
		}
	printf("lossy WebP, flat 16x16 blocks at quality 100: largest difference %d inside\n",
	       worst);
	ck_assert_int_le(worst, 8);
	sg_free(pixels);
	free(b.data);
}
END_TEST

START_TEST(test_webp_orientation)
{
	uint8_t rgba[QUAD_W * QUAD_H * 4];
	quadrants(rgba);
	for (int o = 1; o <= 8; o++) {
		struct blob b = encode_webp(rgba, QUAD_W, QUAD_H, true, o, o == 6);
		assert_shown(&b, o, true, 0, "WebP");
		free(b.data);
	}
}
END_TEST

START_TEST(test_webp_hostile)
{
	uint8_t rgba[QUAD_W * QUAD_H * 4];
	quadrants(rgba);
	struct blob b = encode_webp(rgba, QUAD_W, QUAD_H, true, 3, false);
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	ck_assert_int_eq(decode(&b, true, 100, &pixels, &width, &height), SG_ERR_LIMIT);
	ck_assert_int_eq(width, QUAD_W);
	ck_assert_int_eq(height, QUAD_H);
	assert_truncations(&b, 1); /* a picture where only the EXIF chunk is cut */
	struct blob part = {b.data, b.size / 2};
	decode(&part, true, UINT64_MAX, &pixels, &width, &height);
	ck_assert_msg(strstr(sg_last_error(), "is not a valid WebP"), "%s", sg_last_error());
	/* a VP8X canvas 4194304 wide: refused, by libwebp against the image
	 * chunk or by the side limit */
	b.data[24] = b.data[25] = 0xff;
	b.data[26] = 0x3f;
	ck_assert_int_eq(decode(&b, true, UINT64_MAX, &pixels, &width, &height), SG_ERR_FORMAT);
	ck_assert_ptr_null(pixels);
	free(b.data);
}
END_TEST

#endif /* SG_TEST_WEBP */

/* sg_texture_load: the file's picture upright, and errors naming the file. */
START_TEST(test_texture_load)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	sg_texture t =
	    sg_texture_load(scene, "/nonexistent/photo.jpg", SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert_int_eq(t.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_IO);
	ck_assert_msg(strstr(sg_last_error(), "/nonexistent/photo.jpg"), "%s", sg_last_error());
	char path[] = "/tmp/sg-image-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "not an image", 12), 12);
	close(fd);
	t = sg_texture_load(scene, path, SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert_int_eq(sg_last_result(), SG_ERR_FORMAT);
	ck_assert_msg(strstr(sg_last_error(), path) && strstr(sg_last_error(), "not an image"),
	              "%s", sg_last_error());
#if SG_TEST_WEBP
	uint8_t rgba[QUAD_W * QUAD_H * 4];
	quadrants(rgba);
	struct blob b = encode_webp(rgba, QUAD_W, QUAD_H, true, 6, false);
	FILE *file = fopen(path, "wb");
	ck_assert_ptr_nonnull(file);
	ck_assert_uint_eq(fwrite(b.data, 1, b.size, file), b.size);
	fclose(file);
	free(b.data);
	t = sg_texture_load(scene, path, SG_FILTER_LINEAR, SG_WRAP_REPEAT);
	ck_assert_msg(t.generation, "%s", sg_last_error());
	const struct sg_texture_data *data = &scene->textures[t.index];
	ck_assert_int_eq(data->width, QUAD_H); /* turned clockwise: 16 wide, 32 high */
	ck_assert_int_eq(data->height, QUAD_W);
	assert_corners(data->pixels, data->width, data->height, shown_corners[6], 0,
	               "sg_texture_load of a WebP of orientation 6");
#else
	printf("texture load of a WebP: not built with libwebp\n");
#endif
	unlink(path);
	sg_scene_destroy(scene);
}
END_TEST

/* sg_texture_load and sg_texture_load_png read regular files only, as scene
 * and model files do: a FIFO with no writer would block the load forever,
 * /dev/zero would be read to the file size limit. Refused at the open, by
 * the file's kind, with its path. */
START_TEST(test_texture_load_refuses_special_files)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	char folder[] = "/tmp/sg-image-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(folder));
	char fifo[64];
	snprintf(fifo, sizeof(fifo), "%s/pipe.png", folder);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	const struct {
		const char *path, *kind;
	} cases[] = {
	    {fifo, "is a FIFO, not a regular file"},
	    {"/dev/zero", "is a character device, not a regular file"},
	    {folder, "is a directory, not a regular file"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int png = 0; png < 2; png++) {
			sg_texture t = png ? sg_texture_load_png(scene, cases[i].path,
			                                         SG_FILTER_NEAREST, SG_WRAP_CLAMP)
			                   : sg_texture_load(scene, cases[i].path,
			                                     SG_FILTER_NEAREST, SG_WRAP_CLAMP);
			ck_assert_int_eq(t.generation, 0);
			ck_assert_int_eq(sg_last_result(), SG_ERR_IO);
			char want[128];
			snprintf(want, sizeof(want), "'%s' %s", cases[i].path, cases[i].kind);
			ck_assert_msg(strstr(sg_last_error(), want), "%s: '%s' lacks \"%s\"",
			              png ? "sg_texture_load_png" : "sg_texture_load",
			              sg_last_error(), want);
		}
	unlink(fifo);
	rmdir(folder);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_formats_named)
{
	const char *formats = sg_image_formats();
	printf("image formats: %s\n", formats);
	ck_assert(strncmp(formats, "PNG", 3) == 0);
	ck_assert_int_eq(strstr(formats, "JPEG") != NULL, SG_TEST_JPEG);
	ck_assert_int_eq(strstr(formats, "WebP") != NULL, SG_TEST_WEBP);
}
END_TEST

static Suite *image_suite(void)
{
	Suite *suite = suite_create("image");
	TCase *tc = tcase_create("image");
	tcase_add_test(tc, test_unknown_and_empty);
	tcase_add_test(tc, test_png_exif_orientation);
	tcase_add_test(tc, test_exif_blocks);
	tcase_add_test(tc, test_formats_named);
	tcase_add_test(tc, test_texture_load);
	tcase_add_test(tc, test_texture_load_refuses_special_files);
#if SG_TEST_JPEG
	tcase_add_test(tc, test_jpeg_blocks);
	tcase_add_test(tc, test_jpeg_cmyk);
	tcase_add_test(tc, test_jpeg_orientation);
	tcase_add_test(tc, test_jpeg_hostile);
#endif
#if SG_TEST_WEBP
	tcase_add_test(tc, test_webp_lossless_exact);
	tcase_add_test(tc, test_webp_lossy_blocks);
	tcase_add_test(tc, test_webp_orientation);
	tcase_add_test(tc, test_webp_hostile);
#endif
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return check_run(image_suite());
}
