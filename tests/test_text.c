/* Text nodes (src/text/, sg/text.h): layouts against hb_shape and FreeType's
 * own metrics, line breaking and alignment, UTF-8 and font errors, .notdef,
 * atlas growth over thousands of glyphs, renders compared pixel by pixel with
 * the CPU reference compositor (reference.c) fed the node's own glyph quads
 * and atlas texels, and golden images per FreeType and HarfBuzz version.
 * Needs DejaVu Sans (fonts-dejavu-core): without it the suite is skipped. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sg/sg.h>

#include "check_run.h"

#ifdef SG_TEXT_STUB_TEST
/* libsg built without FreeType and HarfBuzz: every text function says so. */
START_TEST(test_stub_is_unsupported)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert(!sg_text_available());
	sg_font font = sg_font_load(scene, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 12);
	ck_assert_uint_eq(font.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "built without text"));
	sg_node node = sg_node_new_text(scene, &(struct sg_text_desc){.font = font, .utf8 = "a"});
	ck_assert_uint_eq(node.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_UNSUPPORTED);
	ck_assert_int_eq(sg_font_destroy(scene, font), SG_ERR_UNSUPPORTED);
	ck_assert_int_eq(sg_font_add_fallback(scene, font, font), SG_ERR_UNSUPPORTED);
	ck_assert_int_eq(sg_font_set_system_fallback(scene, font, true), SG_ERR_UNSUPPORTED);
	ck_assert(!sg_font_exists(scene, font));
	ck_assert_int_eq(sg_text_set_string(scene, node, "b"), SG_ERR_UNSUPPORTED);
	ck_assert_ptr_null(sg_text_get_string(scene, node));
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, node, &extent), SG_ERR_UNSUPPORTED);
	sg_scene_destroy(scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("text");
	TCase *tc = tcase_create("stub");
	tcase_add_test(tc, test_stub_is_unsupported);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}

#else

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include <hb-ft.h>
#include <hb.h>

#include "reference.h"
#include "../src/base/alloc.h"
#include "../src/base/png_read.h"
#include "../src/graph/scene_internal.h"
#include "../src/base/utf8.h"
#include "../src/text/bidi.h"
#include "../src/text/layout.h"
#include "../src/text/text_internal.h"

#define FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

/* --- FreeType and HarfBuzz run by the test itself --------------------------- */

static FT_Library library;

static FT_Face open_file(const char *path, int face_index, int pixel_size)
{
	FT_Face face;
	ck_assert_msg(FT_New_Face(library, path, face_index, &face) == 0, "%s", path);
	ck_assert_int_eq(FT_Set_Pixel_Sizes(face, 0, (FT_UInt)pixel_size), 0);
	return face;
}

static FT_Face open_face(int pixel_size)
{
	return open_file(FONT, 0, pixel_size);
}

/* The advance of the glyph of codepoint c, unhinted as hb_ft measures it. */
static double ft_advance(FT_Face face, uint32_t c)
{
	FT_Fixed advance;
	ck_assert_int_eq(
	    FT_Get_Advance(face, FT_Get_Char_Index(face, c), FT_LOAD_NO_HINTING, &advance), 0);
	return (double)advance / 65536.0;
}

/* The sum of ft_advance over the characters of an ASCII string. */
static double ft_width(FT_Face face, const char *ascii, size_t length)
{
	double width = 0;
	for (size_t i = 0; i < length; i++)
		width += ft_advance(face, (uint8_t)ascii[i]);
	return width;
}

static struct sg_scene *scene_with_font(int pixel_size, sg_font *font)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	*font = sg_font_load(scene, FONT, pixel_size);
	ck_assert_msg(font->generation, "%s", sg_last_error());
	return scene;
}

static sg_node new_text(struct sg_scene *scene, struct sg_text_desc desc)
{
	sg_node node = sg_node_new_text(scene, &desc);
	ck_assert_msg(node.generation, "%s", sg_last_error());
	return node;
}

/* --- layouts against hb_shape ------------------------------------------------- */

static const char *const shaped_strings[] = {
    "Hello, World! AVAWAY fi ffl To.",
    "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd8\xa8\xd8\xa7\xd9\x84\xd8\xb9\xd8\xa7\xd9\x84"
    "\xd9\x85", /* مرحبا بالعالم */
    /* combining marks: é ñ compose to one glyph; x́ q̈ ḳ̂ have none, so GPOS places the marks */
    "e\xcc\x81 n\xcc\x83 x\xcc\x81 q\xcc\x88 k\xcc\x82\xcc\xa3",
    "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d", /* Hebrew: one direction (mixed ones: test_bidi_runs) */
};

START_TEST(test_glyphs_equal_hb_shape)
{
	const char *string = shaped_strings[_i];
	sg_font font;
	struct sg_scene *scene = scene_with_font(24, &font);
	sg_node node = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = string});
	const struct sg_text_layout *layout = sg_text_node_layout(scene, node);
	ck_assert_ptr_nonnull(layout);

	FT_Face face = open_face(24);
	hb_font_t *hb_font = hb_ft_font_create_referenced(face);
	hb_buffer_t *buffer = hb_buffer_create();
	hb_buffer_add_utf8(buffer, string, -1, 0, -1);
	hb_buffer_guess_segment_properties(buffer);
	hb_shape(hb_font, buffer, NULL, 0);
	unsigned count;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buffer, &count);
	hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buffer, NULL);
	ck_assert_uint_eq(layout->count, count);
	double pen = 0;
	bool marks_offset = false;
	for (unsigned i = 0; i < count; i++) {
		const struct sg_text_glyph *g = &layout->glyphs[i];
		ck_assert_uint_eq(g->glyph, info[i].codepoint);
		ck_assert_uint_eq(g->cluster, info[i].cluster);
		ck_assert_float_eq(g->x_advance, pos[i].x_advance / 64.0f);
		ck_assert_float_eq(g->x_offset, pos[i].x_offset / 64.0f);
		ck_assert_float_eq(g->y_offset, pos[i].y_offset / 64.0f);
		ck_assert_double_eq_tol(g->pen_x, pen, 1e-4);
		ck_assert_float_eq(g->pen_y, (float)face->size->metrics.ascender / 64.0f);
		ck_assert_int_eq(g->line, 0);
		pen += pos[i].x_advance / 64.0;
		marks_offset |= pos[i].y_offset != 0 || pos[i].x_offset != 0;
	}
	/* each glyph with pixels is a quad at its bitmap's rectangle, from the pen
	 * (with HarfBuzz's offsets) rounded to whole pixels */
	const struct sg_mesh_data *mesh =
	    sg_scene_mesh(scene, sg_model_mesh(scene, sg_scene_model(scene, node.index)));
	uint32_t quad = 0;
	for (unsigned i = 0; i < count; i++) {
		ck_assert_int_eq(FT_Load_Glyph(face, info[i].codepoint, FT_LOAD_DEFAULT), 0);
		ck_assert_int_eq(FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL), 0);
		const FT_Bitmap *bitmap = &face->glyph->bitmap;
		if (!bitmap->width || !bitmap->rows)
			continue;
		const struct sg_text_glyph *g = &layout->glyphs[i];
		const struct sg_vertex *v = &mesh->vertices[quad++ * 4];
		float x0 = roundf(g->pen_x + g->x_offset) + (float)face->glyph->bitmap_left;
		float y0 = roundf(g->pen_y - g->y_offset) - (float)face->glyph->bitmap_top;
		ck_assert_float_eq(v[0].position[0], x0);
		ck_assert_float_eq(v[0].position[1], y0);
		ck_assert_float_eq(v[3].position[0], x0 + (float)bitmap->width);
		ck_assert_float_eq(v[3].position[1], y0 + (float)bitmap->rows);
	}
	ck_assert_uint_eq(quad * 4, mesh->vertex_count);
	if (_i == 1) /* Arabic: right to left, so the first glyph is the last character's */
		ck_assert_uint_gt(layout->glyphs[0].cluster, layout->glyphs[count - 1].cluster);
	if (_i == 2) /* GPOS moved the marks onto their bases */
		ck_assert(marks_offset);
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, node, &extent), SG_OK);
	ck_assert_double_eq_tol(extent.width, pen, 1e-3);
	hb_buffer_destroy(buffer);
	hb_font_destroy(hb_font);
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

/* --- extents and line breaks against FreeType metrics ----------------------- */

/* Letters without kerning pairs in DejaVu Sans, so that advances add up. */
#define WORD_A "minimum"
#define WORD_B "illumination"
#define WORD_C "nil"

START_TEST(test_extent_matches_freetype_metrics)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(32, &font);
	FT_Face face = open_face(32);
	const char *string = WORD_A " " WORD_B;
	sg_node node = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = string});
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, node, &extent), SG_OK);
	double width = ft_width(face, string, strlen(string));
	/* hb_ft rounds each 16.16 advance to 26.6: at most 1/128 px off per glyph */
	ck_assert_double_eq_tol(extent.width, width, strlen(string) / 128.0 + 1e-3);
	ck_assert_int_eq(extent.lines, 1);
	const FT_Size_Metrics *m = &face->size->metrics;
	ck_assert_float_eq(extent.ascent, m->ascender / 64.0f);
	ck_assert_float_eq(extent.descent, -m->descender / 64.0f);
	ck_assert_float_eq(extent.height, m->height / 64.0f);
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

/* The first glyph of each line starts where the alignment puts a line of
 * ft_width; lines hold the words expected. _i is the alignment. */
START_TEST(test_line_breaks_and_alignment)
{
	enum sg_text_align align = (enum sg_text_align)_i;
	sg_font font;
	struct sg_scene *scene = scene_with_font(20, &font);
	FT_Face face = open_face(20);
	/* room for "minimum illumination" but not one more word */
	double two = ft_width(face, WORD_A " " WORD_B, strlen(WORD_A " " WORD_B));
	float max_width = (float)(two + ft_advance(face, ' ') + ft_width(face, WORD_C, 3) / 2);
	const char *string = WORD_A " " WORD_B "  " WORD_C " " WORD_A "\n" WORD_C;
	sg_node node = new_text(scene, (struct sg_text_desc){.font = font,
	                                                     .utf8 = string,
	                                                     .max_width = max_width,
	                                                     .align = align,
	                                                     .line_height = 30});
	const struct sg_text_layout *layout = sg_text_node_layout(scene, node);
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, node, &extent), SG_OK);
	ck_assert_int_eq(extent.lines, 3);
	ck_assert_float_eq(extent.height, 90);
	/* line k starts at these bytes and has these widths (trailing spaces left out) */
	const size_t starts[3] = {0, strlen(WORD_A " " WORD_B "  "),
	                          strlen(WORD_A " " WORD_B "  " WORD_C " " WORD_A "\n")};
	const double widths[3] = {two, ft_width(face, WORD_C " " WORD_A, strlen(WORD_C " " WORD_A)),
	                          ft_width(face, WORD_C, 3)};
	double tolerance = 24 / 128.0 + 1e-3;
	ck_assert_double_eq_tol(extent.width, fmax(widths[0], widths[1]), tolerance);
	int seen[3] = {0};
	for (size_t i = 0; i < layout->count; i++) {
		const struct sg_text_glyph *g = &layout->glyphs[i];
		ck_assert_int_ge(g->line, 0);
		ck_assert_int_lt(g->line, 3);
		ck_assert_uint_ge(g->cluster, starts[g->line]);
		if (g->line < 2)
			ck_assert_uint_lt(g->cluster, starts[g->line + 1]);
		ck_assert_float_eq(g->pen_y, (float)face->size->metrics.ascender / 64.0f +
		                                 30.0f * (float)g->line);
		if (seen[g->line]++)
			continue;
		double room = max_width - widths[g->line];
		double x = align == SG_TEXT_ALIGN_LEFT     ? 0
		           : align == SG_TEXT_ALIGN_CENTER ? room / 2
		                                           : room;
		ck_assert_msg(fabs(g->pen_x - x) <= tolerance, "line %d starts at %g, not %g",
		              g->line, (double)g->pen_x, x);
		ck_assert_uint_eq(g->cluster, starts[g->line]);
	}
	ck_assert(seen[0] && seen[1] && seen[2]);
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

/* The line each byte offset lands on, for a string laid out at max_width. */
static void lines_of(struct sg_scene *scene, sg_font font, const char *string, float max_width,
                     int *line_of_byte, size_t bytes)
{
	sg_node node = new_text(
	    scene, (struct sg_text_desc){.font = font, .utf8 = string, .max_width = max_width});
	const struct sg_text_layout *layout = sg_text_node_layout(scene, node);
	for (size_t b = 0; b < bytes; b++)
		line_of_byte[b] = -1;
	for (size_t i = 0; i < layout->count; i++)
		line_of_byte[layout->glyphs[i].cluster] = layout->glyphs[i].line;
	sg_node_destroy(scene, node);
}

START_TEST(test_break_opportunities)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(20, &font);
	FT_Face face = open_face(20);
	int line[64];
	/* after a hyphen; a width of one letter forces every opportunity to be taken */
	lines_of(scene, font, "ab-cd", 1, line, 5);
	ck_assert_int_eq(line[0], 0);
	ck_assert_int_eq(line[2], 0); /* the hyphen stays with what precedes it */
	ck_assert_int_eq(line[3], 1);
	/* U+2010 HYPHEN and U+200B ZERO WIDTH SPACE */
	lines_of(scene, font,
	         "ab\xe2\x80\x90"
	         "cd\xe2\x80\x8b"
	         "ef",
	         1, line, 12);
	ck_assert_int_eq(line[0], 0);
	ck_assert_int_eq(line[5], 1);
	ck_assert_int_eq(line[10], 2);
	/* between ideographs (DejaVu lacks them: .notdef, but its advance counts) */
	lines_of(scene, font, "\xe4\xb8\x80\xe4\xba\x8c\xe4\xb8\x89", 1, line, 9);
	ck_assert_int_eq(line[0], 0);
	ck_assert_int_eq(line[3], 1);
	ck_assert_int_eq(line[6], 2);
	/* no opportunity inside a word: a word wider than max_width stands alone */
	lines_of(scene, font, "illumination nil", 5, line, 16);
	for (int b = 0; b < 12; b++)
		ck_assert_int_eq(line[b], 0);
	ck_assert_int_eq(line[13], 1);
	/* trailing spaces do not count: "nil nil" fits the width of "nil nil" exactly,
	 * followed by spaces */
	float exact = (float)ft_width(face, "nil nil", 7) + 0.05f;
	lines_of(scene, font, "nil nil      nil", exact, line, 16);
	ck_assert_int_eq(line[4], 0);
	ck_assert_int_eq(line[13], 1);
	/* right to left: broken in logical order, the first word on the first line */
	lines_of(scene, font, shaped_strings[1], 1, line, 25);
	ck_assert_int_eq(line[0], 0);
	ck_assert_int_eq(line[8], 0);
	ck_assert_int_eq(line[11], 1);
	ck_assert_int_eq(line[23], 1);
	/* max_width 0: only newlines break */
	lines_of(scene, font, "nil nil nil nil nil nil nil nil\nnil", 0, line, 35);
	ck_assert_int_eq(line[28], 0);
	ck_assert_int_eq(line[32], 1);
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_explicit_newlines)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(16, &font);
	FT_Face face = open_face(16);
	sg_node node =
	    new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "nil\n\nmini\n"});
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, node, &extent), SG_OK);
	ck_assert_int_eq(extent.lines, 4); /* "nil", "", "mini", "" */
	float line_height = (float)face->size->metrics.height / 64.0f;
	ck_assert_float_eq(extent.height, 4 * line_height);
	ck_assert_double_eq_tol(extent.width, ft_width(face, "mini", 4), 4 / 128.0 + 1e-3);
	const struct sg_text_layout *layout = sg_text_node_layout(scene, node);
	ck_assert_uint_eq(layout->count, 7);
	for (size_t i = 0; i < layout->count; i++) {
		int want = i < 3 ? 0 : 2;
		ck_assert_int_eq(layout->glyphs[i].line, want);
		ck_assert_float_eq(layout->glyphs[i].pen_y,
		                   extent.ascent + (float)want * line_height);
	}
	ck_assert_int_eq(sg_text_set_string(scene, node, ""), SG_OK);
	ck_assert_int_eq(sg_text_get_extent(scene, node, &extent), SG_OK);
	ck_assert_int_eq(extent.lines, 0);
	ck_assert_float_eq(extent.width, 0);
	ck_assert_float_eq(extent.height, 0);
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

/* --- errors ---------------------------------------------------------------------- */

static const struct {
	const char *bytes;
	size_t offset;
	const char *why;
} bad_utf8[] = {
    {"ab\xc0\xaf", 2, "cannot start"},                 /* 0xc0: only overlong forms */
    {"abc\xe0\x80\xaf", 3, "overlong"},                /* '/' in three bytes */
    {"x\xed\xa0\x80y", 1, "surrogate"},                /* U+D800 */
    {"\xf4\x90\x80\x80", 0, "past U+10FFFF"},          /* U+110000 */
    {"\xf5\x80\x80\x80", 0, "cannot start"},           /* no such lead byte */
    {"hello\xe2\x82", 5, "cut off by the end"},        /* two bytes of three */
    {"\x80", 0, "cannot start"},                       /* a stray continuation byte */
    {"ok \xc3 ok", 3, "cut short"},                    /* a lead byte without its continuation */
    {"\xc3\xa9\xf0\x9f\x98", 2, "cut off by the end"}, /* é, then a cut-off emoji */
};

START_TEST(test_invalid_utf8_names_the_byte)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(12, &font);
	char want[64];
	snprintf(want, sizeof(want), "invalid UTF-8 at byte %zu ", bad_utf8[_i].offset);
	sg_node node = sg_node_new_text(
	    scene,
	    &(struct sg_text_desc){.name = "label", .font = font, .utf8 = bad_utf8[_i].bytes});
	ck_assert_uint_eq(node.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_FORMAT);
	ck_assert_msg(strstr(sg_last_error(), want) && strstr(sg_last_error(), "'label'") &&
	                  strstr(sg_last_error(), bad_utf8[_i].why),
	              "%s", sg_last_error());
	/* set_string refuses it the same way and changes nothing */
	node = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "kept"});
	size_t nodes = sg_scene_node_count(scene), meshes = scene->mesh_pool.live;
	ck_assert_int_eq(sg_text_set_string(scene, node, bad_utf8[_i].bytes), SG_ERR_FORMAT);
	ck_assert_msg(strstr(sg_last_error(), want), "%s", sg_last_error());
	ck_assert_str_eq(sg_text_get_string(scene, node), "kept");
	ck_assert_uint_eq(sg_text_node_layout(scene, node)->count, 4);
	ck_assert_uint_eq(sg_scene_node_count(scene), nodes);
	ck_assert_uint_eq(scene->mesh_pool.live, meshes);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_font_load_errors)
{
	struct sg_scene *scene = sg_scene_create();
	sg_font font = sg_font_load(scene, "/nonexistent/font.ttf", 12);
	ck_assert_uint_eq(font.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_IO);
	ck_assert_msg(strstr(sg_last_error(), "/nonexistent/font.ttf") &&
	                  strstr(sg_last_error(), "No such file"),
	              "%s", sg_last_error());
	/* a directory */
	font = sg_font_load(scene, "/usr/share/fonts", 12);
	ck_assert_int_eq(sg_last_result(), SG_ERR_IO);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "/usr/share/fonts"));
	/* a FIFO with no writer: refused at once, not waited on (the suite's
	 * timeout fails a hang) */
	char fifo[] = "/tmp/sg-text-fifo-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(fifo));
	char fifo_path[64];
	snprintf(fifo_path, sizeof(fifo_path), "%s/font.ttf", fifo);
	ck_assert_int_eq(mkfifo(fifo_path, 0600), 0);
	font = sg_font_load(scene, fifo_path, 12);
	ck_assert_uint_eq(font.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_IO);
	ck_assert_msg(strstr(sg_last_error(), "not a regular file"), "%s", sg_last_error());
	unlink(fifo_path);
	rmdir(fifo);
	/* a file FreeType cannot open as a face: a PNG */
	const char *png = SG_SOURCE_DIR "/scenes/textures/tile.png";
	font = sg_font_load(scene, png, 12);
	ck_assert_uint_eq(font.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_FORMAT);
	ck_assert_msg(strstr(sg_last_error(), png) && strstr(sg_last_error(), "FreeType"), "%s",
	              sg_last_error());
	/* sizes */
	const int sizes[] = {0, -3, 1025};
	for (int i = 0; i < 3; i++) {
		font = sg_font_load(scene, FONT, sizes[i]);
		ck_assert_uint_eq(font.generation, 0);
		ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
		ck_assert_ptr_nonnull(strstr(sg_last_error(), "1 .. 1024"));
	}
	font = sg_font_load(scene, NULL, 12);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	font = sg_font_load(NULL, FONT, 12);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	/* the smallest and largest sizes load */
	font = sg_font_load(scene, FONT, 1);
	ck_assert_msg(font.generation, "%s", sg_last_error());
	font = sg_font_load(scene, FONT, 1024);
	ck_assert_msg(font.generation, "%s", sg_last_error());
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_stale_and_foreign_handles)
{
	sg_font font, other_font;
	struct sg_scene *scene = scene_with_font(12, &font);
	struct sg_scene *other = scene_with_font(12, &other_font);
	ck_assert(sg_font_exists(scene, font));
	ck_assert(!sg_font_exists(scene, other_font));
	sg_node node =
	    sg_node_new_text(scene, &(struct sg_text_desc){.font = other_font, .utf8 = "a"});
	ck_assert_uint_eq(node.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_FOREIGN_HANDLE);
	ck_assert_int_eq(sg_font_destroy(scene, other_font), SG_ERR_FOREIGN_HANDLE);
	node = sg_node_new_text(scene, &(struct sg_text_desc){.font = {0}, .utf8 = "a"});
	ck_assert_int_eq(sg_last_result(), SG_ERR_STALE_HANDLE);
	/* a scene that never loaded a font */
	struct sg_scene *empty = sg_scene_create();
	ck_assert(!sg_font_exists(empty, font));
	ck_assert_int_eq(sg_font_destroy(empty, font), SG_ERR_FOREIGN_HANDLE);
	node = sg_node_new_text(empty, &(struct sg_text_desc){.font = font, .utf8 = "a"});
	ck_assert_int_eq(sg_last_result(), SG_ERR_FOREIGN_HANDLE);
	sg_scene_destroy(empty);

	node = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "abc"});
	ck_assert_int_eq(sg_font_destroy(scene, font), SG_OK);
	ck_assert(!sg_font_exists(scene, font));
	ck_assert_int_eq(sg_font_destroy(scene, font), SG_ERR_STALE_HANDLE);
	/* the node keeps its glyphs; a new string needs the font */
	ck_assert_int_eq(sg_text_set_string(scene, node, "xyz"), SG_ERR_STALE_HANDLE);
	ck_assert_str_eq(sg_text_get_string(scene, node), "abc");
	ck_assert_int_eq(sg_text_set_string(scene, node, "abc"), SG_OK); /* the same: no-op */
	sg_node late = sg_node_new_text(scene, &(struct sg_text_desc){.font = font, .utf8 = "a"});
	ck_assert_uint_eq(late.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_STALE_HANDLE);
	/* a new font in the old slot does not reach the old handle's glyphs */
	sg_font again = sg_font_load(scene, FONT, 30);
	ck_assert_uint_eq(again.index, font.index);
	ck_assert_uint_ne(again.generation, font.generation);
	sg_node big = new_text(scene, (struct sg_text_desc){.font = again, .utf8 = "abc"});
	ck_assert_float_gt(sg_text_node_layout(scene, big)->glyphs[1].pen_x,
	                   sg_text_node_layout(scene, node)->glyphs[1].pen_x);

	struct sg_renderer *renderer = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = 64, .height = 64, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	sg_node_add_child(scene, sg_scene_root(scene), node);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	sg_renderer_destroy(renderer);
	sg_scene_destroy(other);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_bad_descs_and_node_kinds)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(12, &font);
	const struct sg_text_desc bad[] = {
	    {.font = font, .color = {2, 0, 0, 1}},   {.font = font, .color = {0, 0, NAN, 1}},
	    {.font = font, .max_width = -1},         {.font = font, .max_width = INFINITY},
	    {.font = font, .line_height = -2},       {.font = font, .align = (enum sg_text_align)7},
	    {.font = font, .position = {0, NAN, 0}},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_uint_eq(sg_node_new_text(scene, &bad[i]).generation, 0);
		ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	}
	ck_assert_uint_eq(sg_node_new_text(scene, NULL).generation, 0);
	ck_assert_uint_eq(sg_node_new_text(NULL, &bad[0]).generation, 0);
	ck_assert_uint_eq(sg_scene_node_count(scene), 1);

	sg_node text =
	    new_text(scene, (struct sg_text_desc){.name = "caption", .font = font, .utf8 = NULL});
	ck_assert_int_eq(sg_node_get_kind(scene, text), SG_NODE_TEXT);
	ck_assert_str_eq(sg_text_get_string(scene, text), "");
	ck_assert_str_eq(sg_node_get_name(scene, text), "caption");
	float rgba[4];
	ck_assert_int_eq(sg_model_get_color(scene, text, rgba), SG_OK);
	ck_assert_float_eq(rgba[0], 0);
	ck_assert_float_eq(rgba[3], 1); /* all-zero colour: opaque black */
	ck_assert_int_eq(sg_model_set_color(scene, text, 1, 0.5f, 0, 1), SG_OK);
	sg_mesh quad = sg_mesh_create_quad(scene, 1, 1);
	ck_assert_int_eq(sg_model_set_mesh(scene, text, quad), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "'caption' is a text node"));
	ck_assert_int_eq(sg_model_set_texture(scene, text, SG_TEXTURE_NONE),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "'caption' is a text node"));
	ck_assert_int_eq(sg_model_set_position(scene, text, 3, 4, 0), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, text, sg_node_new_group(scene, "g")),
	                 SG_ERR_INVALID_ARGUMENT); /* a model: no children */

	/* the text functions on other nodes */
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad});
	ck_assert_int_eq(sg_node_get_kind(scene, model), SG_NODE_MODEL);
	ck_assert_int_eq(sg_text_set_string(scene, model, "x"), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "is not a text node"));
	ck_assert_ptr_null(sg_text_get_string(scene, sg_scene_root(scene)));
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, model, &extent), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_text_get_extent(scene, text, NULL), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_null(sg_text_node_layout(scene, model));
	sg_node_destroy(scene, text);
	ck_assert_int_eq(sg_text_set_string(scene, text, "x"), SG_ERR_STALE_HANDLE);
	ck_assert_int_eq(sg_node_get_kind(scene, text), SG_NODE_INVALID);
	ck_assert(sg_text_available());
	sg_scene_destroy(scene);
}
END_TEST

/* --- threads ------------------------------------------------------------------- */

struct first_font {
	struct sg_scene *scene;
	sg_font font;
};

static void *load_first_font(void *data)
{
	struct first_font *first = data;
	first->font = sg_font_load(first->scene, FONT, 16);
	return NULL;
}

/* Threads that load their scenes' first fonts at once, each scene with its
 * own FT_Library, all get them, and every font shapes. */
START_TEST(test_threads_load_first_fonts)
{
	enum { THREADS = 4 };
	struct first_font first[THREADS];
	pthread_t threads[THREADS];
	for (int i = 0; i < THREADS; i++) {
		first[i] = (struct first_font){.scene = sg_scene_create()};
		ck_assert_ptr_nonnull(first[i].scene);
	}
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&threads[i], NULL, load_first_font, &first[i]), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_uint_ne(first[i].font.generation, 0);
		sg_node node = new_text(first[i].scene,
		                        (struct sg_text_desc){.font = first[i].font, .utf8 = "fi"});
		ck_assert_uint_gt(sg_text_node_layout(first[i].scene, node)->count, 0);
		sg_scene_destroy(first[i].scene);
	}
}
END_TEST

/* --- atlas ---------------------------------------------------------------------- */

static size_t live_pages(const struct sg_scene *scene)
{
	size_t live = 0;
	const struct sg_text_state *state = scene->text_state;
	for (size_t i = 0; i < state->page_count; i++)
		live += state->pages[i].texture.generation != 0;
	return live;
}

/* Every glyph of a node's mesh is on its page, with the texels FreeType
 * rasterised at the quad's place: checked by rendering the node white on
 * black and finding, for each quad, its most covered texel at least as bright
 * in the render (overlapping quads only add light). */
static void check_glyphs_drawn(struct sg_scene *scene, sg_node node, int width, int height)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = width, .height = height, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	uint8_t *rgba = malloc((size_t)width * height * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, rgba, 0), SG_OK);
	const struct sg_model_data *model = sg_scene_model(scene, node.index);
	const struct sg_mesh_data *mesh = sg_scene_mesh(scene, sg_model_mesh(scene, model));
	const struct sg_texture_data *page = sg_scene_texture(scene, sg_model_texture(scene, model));
	ck_assert_ptr_nonnull(page);
	float world[16];
	ck_assert_int_eq(sg_node_get_world_matrix(scene, node, world), SG_OK);
	int checked = 0;
	for (uint32_t q = 0; q < mesh->vertex_count / 4; q++) {
		const struct sg_vertex *v = &mesh->vertices[q * 4];
		int x0 = (int)(v[0].position[0] + world[12]),
		    y0 = (int)(v[0].position[1] + world[13]);
		int u0 = (int)lroundf(v[0].uv[0] * SG_ATLAS_SIDE),
		    t0 = (int)lroundf(v[0].uv[1] * SG_ATLAS_SIDE);
		int w = (int)(v[3].position[0] - v[0].position[0]),
		    h = (int)(v[3].position[1] - v[0].position[1]);
		int best = -1, bx = 0, by = 0;
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				int a = page->pixels[((size_t)(t0 + y) * SG_ATLAS_SIDE +
				                      (size_t)(u0 + x)) *
				                         4 +
				                     3];
				if (a > best) {
					best = a;
					bx = x;
					by = y;
				}
			}
		if (best < 128 || x0 + bx < 0 || x0 + bx >= width || y0 + by < 0 ||
		    y0 + by >= height)
			continue;
		const uint8_t *p = rgba + ((size_t)(y0 + by) * width + (size_t)(x0 + bx)) * 4;
		ck_assert_msg(p[0] + 2 >= best, "quad %u: pixel (%d, %d) is %u, its texel %d", q,
		              x0 + bx, y0 + by, p[0], best);
		checked++;
	}
	ck_assert_int_gt(checked, (int)(mesh->vertex_count / 4) / 2);
	free(rgba);
	sg_renderer_destroy(renderer);
}

START_TEST(test_atlas_grows_over_thousands_of_glyphs)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(48, &font);
	FT_Face face = open_face(48);
	/* every character of the font's cmap, 160 a node, a space every 8 so that
	 * max_width wraps them into lines */
	enum { PER_NODE = 160 };
	char string[PER_NODE * 5 + 64];
	size_t length = 0, in_node = 0, nodes = 0;
	sg_node first_of_page[16] = {{0}};
	FT_UInt glyph;
	for (FT_ULong c = FT_Get_First_Char(face, &glyph); glyph;
	     c = FT_Get_Next_Char(face, c, &glyph)) {
		if (c < 0x21 || (c >= 0x7f && c < 0xa1) || c == 0xad ||
		    (c >= 0x2000 && c <= 0x206f))
			continue; /* controls, spaces and format characters */
		char *at = string + length;
		if (c < 0x80) {
			at[0] = (char)c;
			length += 1;
		} else if (c < 0x800) {
			at[0] = (char)(0xc0 | c >> 6);
			at[1] = (char)(0x80 | (c & 0x3f));
			length += 2;
		} else if (c < 0x10000) {
			at[0] = (char)(0xe0 | c >> 12);
			at[1] = (char)(0x80 | ((c >> 6) & 0x3f));
			at[2] = (char)(0x80 | (c & 0x3f));
			length += 3;
		} else {
			at[0] = (char)(0xf0 | c >> 18);
			at[1] = (char)(0x80 | ((c >> 12) & 0x3f));
			at[2] = (char)(0x80 | ((c >> 6) & 0x3f));
			at[3] = (char)(0x80 | (c & 0x3f));
			length += 4;
		}
		if (++in_node % 8 == 0)
			string[length++] = ' ';
		if (in_node < PER_NODE)
			continue;
		string[length] = 0;
		sg_node node = new_text(scene, (struct sg_text_desc){.font = font,
		                                                     .utf8 = string,
		                                                     .max_width = 900,
		                                                     .color = {1, 1, 1, 1}});
		size_t page = sg_scene_text(scene, node.index)->page;
		if (page < 16 && !first_of_page[page].generation)
			first_of_page[page] = node;
		nodes++;
		length = in_node = 0;
	}
	size_t glyphs = 0;
	const struct sg_text_state *state = scene->text_state;
	for (size_t i = 0; i < state->page_count; i++)
		glyphs += state->pages[i].glyph_count;
	ck_assert_uint_ge(nodes, 20);
	ck_assert_msg(live_pages(scene) >= 4, "%zu pages", live_pages(scene));
	ck_assert_msg(glyphs >= 3000, "%zu glyphs on the pages", glyphs);
	if (getenv("SG_TEXT_VERBOSE"))
		printf("text: %zu nodes, %zu pages, %zu glyphs (the font has %ld)\n", nodes,
		       live_pages(scene), glyphs, (long)face->num_glyphs);
	/* a node of each of the first pages, alone in the scene, draws its glyphs */
	for (size_t p = 0; p < 3; p++) {
		ck_assert(sg_node_exists(scene, first_of_page[p]));
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), first_of_page[p]),
		                 SG_OK);
		check_glyphs_drawn(scene, first_of_page[p], 960, 1024);
		ck_assert_int_eq(sg_node_remove(scene, first_of_page[p]), SG_OK);
	}
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_pages_freed_when_unused)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(300, &font);
	/* big glyphs: a few strings fill a page */
	sg_node a = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "ABCDEFGHIJKLM"});
	size_t textures = scene->texture_pool.live;
	ck_assert_uint_eq(live_pages(scene), 1);
	sg_node b = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "NOPQRSTUVWXYZ"});
	sg_node c = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "abcdefghijklm"});
	ck_assert_uint_ge(live_pages(scene), 2);
	size_t page_a = sg_scene_text(scene, a.index)->page;
	ck_assert_uint_ne(page_a, scene->text_state->current_page);
	ck_assert_uint_gt(scene->texture_pool.live, textures);
	/* a string too large for any page: SG_ERR_LIMIT, nothing changed */
	char huge[800];
	for (int i = 0; i < 799; i++)
		huge[i] = (char)('!' + i % 90);
	huge[799] = 0;
	ck_assert_int_eq(sg_text_set_string(scene, b, huge), SG_ERR_LIMIT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "1024x1024 atlas page"));
	ck_assert_str_eq(sg_text_get_string(scene, b), "NOPQRSTUVWXYZ");
	/* page a's only user goes: the page goes */
	size_t before = live_pages(scene);
	ck_assert_uint_ne(sg_scene_text(scene, b.index)->page, page_a);
	ck_assert_uint_ne(sg_scene_text(scene, c.index)->page, page_a);
	ck_assert_int_eq(sg_node_destroy(scene, a), SG_OK);
	ck_assert_uint_eq(live_pages(scene), before - 1);
	ck_assert_uint_eq(scene->texture_pool.live, before - 1);
	/* a string of spaces uses no page and draws nothing */
	ck_assert_int_eq(sg_text_set_string(scene, c, "   "), SG_OK);
	ck_assert(sg_texture_is_none(sg_model_texture(scene, sg_scene_model(scene, c.index))));
	sg_scene_destroy(scene);
}
END_TEST

/* --- renders --------------------------------------------------------------------- */

#define OUT_W 160
#define OUT_H 96

/* The reference picture of text node (whose world translation is whole
 * pixels) drawn with colour and opacity: each glyph quad a texture of its
 * atlas texels. Adds to quads and to texel storage. */
struct reference_text {
	struct ref_quad quads[256];
	struct ref_texture textures[256];
	uint8_t *texels[256];
	size_t count;
};

static void reference_add(struct reference_text *ref, struct sg_scene *scene, sg_node node,
                          const float color[4], float opacity)
{
	const struct sg_model_data *model = sg_scene_model(scene, node.index);
	const struct sg_mesh_data *mesh = sg_scene_mesh(scene, sg_model_mesh(scene, model));
	const struct sg_texture_data *page = sg_scene_texture(scene, sg_model_texture(scene, model));
	float world[16];
	ck_assert_int_eq(sg_node_get_world_matrix(scene, node, world), SG_OK);
	for (uint32_t q = 0; page && q < mesh->vertex_count / 4; q++) {
		ck_assert_uint_lt(ref->count, 256);
		const struct sg_vertex *v = &mesh->vertices[q * 4];
		int w = (int)(v[3].position[0] - v[0].position[0]);
		int h = (int)(v[3].position[1] - v[0].position[1]);
		int u0 = (int)lroundf(v[0].uv[0] * SG_ATLAS_SIDE),
		    t0 = (int)lroundf(v[0].uv[1] * SG_ATLAS_SIDE);
		uint8_t *texels = malloc((size_t)w * h * 4);
		for (int y = 0; y < h; y++)
			memcpy(texels + (size_t)y * w * 4,
			       page->pixels + ((size_t)(t0 + y) * SG_ATLAS_SIDE + (size_t)u0) * 4,
			       (size_t)w * 4);
		int coverage = 0;
		for (size_t k = 3; k < (size_t)w * h * 4; k += 4)
			coverage += texels[k];
		ck_assert_msg(coverage > 0, "glyph quad %u has no texel with coverage", q);
		size_t i = ref->count++;
		ref->texels[i] = texels;
		ref->textures[i] = (struct ref_texture){w, h, texels};
		ref->quads[i] = (struct ref_quad){.x = (int)(v[0].position[0] + world[12]),
		                                  .y = (int)(v[0].position[1] + world[13]),
		                                  .width = w,
		                                  .height = h,
		                                  .texture = &ref->textures[i],
		                                  .color = {color[0], color[1], color[2], color[3]},
		                                  .opacity = opacity};
	}
}

static void reference_free(struct reference_text *ref)
{
	for (size_t i = 0; i < ref->count; i++) {
		free(ref->texels[i]);
		ref->texels[i] = NULL;
	}
	ref->count = 0;
}

static void assert_render_is(struct sg_renderer *renderer, struct sg_scene *scene,
                             const struct reference_text *ref, const char *what)
{
	static const float clear[4] = {0.1f, 0.2f, 0.3f, 1};
	static uint8_t got[OUT_W * OUT_H * 4], want[OUT_W * OUT_H * 4];
	ck_assert_int_eq(
	    sg_renderer_set_clear_color(renderer, clear[0], clear[1], clear[2], clear[3]), SG_OK);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, got, 0), SG_OK);
	struct ref_image image = {OUT_W, OUT_H, want};
	ref_compose(&image, clear, ref->quads, ref->count);
	struct ref_difference d;
	ck_assert_msg(ref_compare(got, want, OUT_W, OUT_H, 2, &d),
	              "%s: %d pixels differ by more than 2; the first, (%d, %d), is %u,%u,%u,%u, "
	              "the reference %u,%u,%u,%u",
	              what, d.count, d.x, d.y, d.got[0], d.got[1], d.got[2], d.got[3], d.want[0],
	              d.want[1], d.want[2], d.want[3]);
}

START_TEST(test_render_transform_visibility_opacity_colour)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(28, &font);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = OUT_W, .height = OUT_H, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	sg_node group = sg_node_new_group(scene, "group");
	sg_node move = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_node_add_child(scene, sg_scene_root(scene), group);
	sg_node_add_child(scene, group, move);
	const float red[4] = {1, 0, 0, 1};
	sg_node text = new_text(scene, (struct sg_text_desc){.font = font,
	                                                     .utf8 = "Text 42",
	                                                     .color = {1, 0, 0, 1},
	                                                     .position = {5, 7, 0}});
	sg_node_add_child(scene, move, text);
	/* a corner mark outside the group, so that hiding the group leaves a draw
	 * (an all-hidden scene trips UBSan in src/traverse/visible.c's cut()) */
	sg_node corner = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_quad(scene, 4, 4),
	                                   .position = {OUT_W - 4, OUT_H - 4, 0}});
	sg_node_add_child(scene, sg_scene_root(scene), corner);
	struct reference_text ref = {0};
	const struct ref_quad corner_quad = {OUT_W - 4, OUT_H - 4, 4, 4, NULL, {1, 1, 1, 1}, 1};

	ref.quads[ref.count++] = corner_quad;
	reference_add(&ref, scene, text, red, 1);
	assert_render_is(renderer, scene, &ref, "red text at (5, 7)");
	reference_free(&ref);
	ref.quads[ref.count++] = corner_quad;

	ck_assert_int_eq(sg_transform_translate(scene, move, 30, 40, 0), SG_OK);
	reference_add(&ref, scene, text, red, 1);
	ck_assert_int_eq(ref.quads[1].x,
	                 (int)(sg_scene_mesh(scene, sg_model_mesh(scene, sg_scene_model(scene, text.index)))
	                           ->vertices[0]
	                           .position[0]) +
	                     35);
	assert_render_is(renderer, scene, &ref, "translated by (30, 40)");
	reference_free(&ref);
	ref.quads[ref.count++] = corner_quad;

	const float green[4] = {0, 1, 0, 0.8f};
	ck_assert_int_eq(sg_model_set_color(scene, text, 0, 1, 0, 0.8f), SG_OK);
	ck_assert_int_eq(sg_node_set_opacity(scene, group, 0.5f), SG_OK);
	reference_add(&ref, scene, text, green, 0.5f);
	assert_render_is(renderer, scene, &ref, "green at 0.8, group opacity 0.5");
	reference_free(&ref);
	ref.quads[ref.count++] = corner_quad;

	ck_assert_int_eq(sg_node_set_visible(scene, group, false), SG_OK);
	assert_render_is(renderer, scene, &ref, "hidden group");
	ck_assert_int_eq(sg_node_set_visible(scene, group, true), SG_OK);

	/* a new string, then the empty string */
	ck_assert_int_eq(sg_text_set_string(scene, text, "Hello"), SG_OK);
	ck_assert_int_eq(sg_node_set_opacity(scene, group, 1), SG_OK);
	reference_add(&ref, scene, text, green, 1);
	ck_assert_uint_eq(ref.count, 6); /* the corner and five glyphs */
	assert_render_is(renderer, scene, &ref, "Hello");
	reference_free(&ref);
	ref.quads[ref.count++] = corner_quad;
	ck_assert_int_eq(sg_text_set_string(scene, text, ""), SG_OK);
	assert_render_is(renderer, scene, &ref, "the empty string");
	/* an empty text node is never picked and has a box at its origin */
	struct sg_pick_hit hit;
	ck_assert_int_eq(sg_scene_pick(scene, NULL, OUT_W, OUT_H, 35.5f, 47.5f, &hit),
	                 SG_ERR_NOT_FOUND);
	float lo[3], hi[3];
	ck_assert_int_eq(sg_node_get_world_bounds(scene, text, lo, hi), SG_OK);
	ck_assert_float_eq(lo[0], 35);
	ck_assert_float_eq(hi[1], 47);

	/* picking a glyph names the text node */
	ck_assert_int_eq(sg_text_set_string(scene, text, "I"), SG_OK);
	const struct sg_mesh_data *mesh =
	    sg_scene_mesh(scene, sg_model_mesh(scene, sg_scene_model(scene, text.index)));
	float x = mesh->vertices[0].position[0] + 35 + 1,
	      y = mesh->vertices[0].position[1] + 47 + 2;
	ck_assert_int_eq(sg_scene_pick(scene, NULL, OUT_W, OUT_H, x, y, &hit), SG_OK);
	ck_assert_uint_eq(hit.node.index, text.index);

	/* scaled up with linear filtering: still drawn, inside its scaled box */
	ck_assert_int_eq(sg_transform_scale(scene, move, 2, 2, 1), SG_OK);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* Two nodes of two fonts, on one page, and .notdef for a character DejaVu lacks. */
START_TEST(test_render_two_fonts_and_notdef)
{
	sg_font small;
	struct sg_scene *scene = scene_with_font(14, &small);
	sg_font large = sg_font_load(scene, FONT, 30);
	ck_assert(large.generation);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = OUT_W, .height = OUT_H, .target = SG_TARGET_SURFACELESS});
	const float white[4] = {1, 1, 1, 1}, blue[4] = {0.2f, 0.4f, 1, 1};
	sg_node a = new_text(scene, (struct sg_text_desc){.font = small,
	                                                  .utf8 = "small \xee\x80\x80",
	                                                  .color = {1, 1, 1, 1},
	                                                  .position = {2, 2, 0}});
	sg_node b = new_text(scene, (struct sg_text_desc){.font = large,
	                                                  .utf8 = "LARGE",
	                                                  .color = {0.2f, 0.4f, 1, 1},
	                                                  .position = {10, 40, 0}});
	sg_node_add_child(scene, sg_scene_root(scene), a);
	sg_node_add_child(scene, sg_scene_root(scene), b);
	const struct sg_text_layout *layout = sg_text_node_layout(scene, a);
	ck_assert_uint_eq(layout->glyphs[layout->count - 1].glyph, 0); /* U+E000: .notdef */
	ck_assert_uint_eq(layout->glyphs[layout->count - 1].cluster, 6);
	struct reference_text ref = {0};
	reference_add(&ref, scene, a, white, 1);
	ck_assert_uint_eq(ref.count, 6); /* five letters and the .notdef box */
	reference_add(&ref, scene, b, blue, 1);
	assert_render_is(renderer, scene, &ref, "two fonts and .notdef");
	reference_free(&ref);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* --- font fallback -------------------------------------------------------------- */

#define FONT_MONO "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define SHIN 0x05e9u /* Hebrew letter shin: in DejaVu Sans, not in DejaVu Sans Mono */
/* "Mono ש x", the shin at byte 5, and "ש" with a combining acute (U+0301,
 * which DejaVu Sans Mono has) */
#define WITH_SHIN "Mono \xd7\xa9 x"
#define SHIN_AT 5
#define SHIN_MARKED "a\xd7\xa9\xcc\x81"


/* The advance of c, unhinted, in the 26.6 units HarfBuzz's positions have. */
static double face_advance(FT_Face face, uint32_t c)
{
	FT_Fixed advance;
	ck_assert_int_eq(
	    FT_Get_Advance(face, FT_Get_Char_Index(face, c), FT_LOAD_NO_HINTING, &advance), 0);
	return round((double)advance / 1024.0) / 64.0;
}

static bool same_font(sg_font a, sg_font b)
{
	return a.scene == b.scene && a.index == b.index && a.generation == b.generation;
}

/* The atlas texels of glyph i of node against FreeType's own rendering of
 * character c by face: the coverage byte for byte. */
static void assert_glyph_pixels(struct sg_scene *scene, sg_node node, FT_Face face, uint32_t c)
{
	ck_assert_int_eq(FT_Load_Char(face, c, FT_LOAD_DEFAULT), 0);
	ck_assert_int_eq(FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL), 0);
	const FT_Bitmap *bitmap = &face->glyph->bitmap;
	ck_assert_uint_gt(bitmap->width * bitmap->rows, 0);
	const struct sg_model_data *model = sg_scene_model(scene, node.index);
	const struct sg_mesh_data *mesh = sg_scene_mesh(scene, sg_model_mesh(scene, model));
	const struct sg_texture_data *page = sg_scene_texture(scene, sg_model_texture(scene, model));
	bool found = false;
	for (uint32_t q = 0; q < mesh->vertex_count / 4 && !found; q++) {
		const struct sg_vertex *v = &mesh->vertices[q * 4];
		int w = (int)(v[3].position[0] - v[0].position[0]);
		int h = (int)(v[3].position[1] - v[0].position[1]);
		if (w != (int)bitmap->width || h != (int)bitmap->rows)
			continue;
		int u0 = (int)lroundf(v[0].uv[0] * SG_ATLAS_SIDE),
		    t0 = (int)lroundf(v[0].uv[1] * SG_ATLAS_SIDE);
		bool equal = true;
		for (int y = 0; y < h && equal; y++)
			for (int x = 0; x < w && equal; x++)
				equal = page->pixels[((size_t)(t0 + y) * SG_ATLAS_SIDE +
				                      (size_t)(u0 + x)) * 4 + 3] ==
				        bitmap->buffer[y * bitmap->pitch + x];
		found = equal;
	}
	ck_assert_msg(found, "no glyph quad of the node holds FreeType's rendering of U+%04X",
	              (unsigned)c);
}

/* An added fallback draws what the font lacks; the rest stays the font's,
 * pen positions add each font's advances, and the fallback glyph's pixels
 * are FreeType's rendering of it from the second file. */
START_TEST(test_fallback_added_font)
{
	FT_Face mono = open_file(FONT_MONO, 0, 24), sans = open_file(FONT, 0, 24);
	ck_assert_uint_eq(FT_Get_Char_Index(mono, SHIN), 0); /* the premise */
	ck_assert_uint_ne(FT_Get_Char_Index(sans, SHIN), 0);
	struct sg_scene *scene = sg_scene_create();
	sg_font primary = sg_font_load(scene, FONT_MONO, 24);
	sg_font second = sg_font_load(scene, FONT, 24);
	ck_assert(primary.generation && second.generation);

	/* without: .notdef of the font itself */
	sg_node plain = new_text(scene, (struct sg_text_desc){.font = primary, .utf8 = WITH_SHIN});
	const struct sg_text_layout *layout = sg_text_node_layout(scene, plain);
	ck_assert_uint_eq(layout->count, 8);
	ck_assert_uint_eq(layout->glyphs[5].cluster, SHIN_AT);
	ck_assert_uint_eq(layout->glyphs[5].glyph, 0);
	ck_assert(same_font(layout->glyphs[5].font, primary));

	ck_assert_int_eq(sg_font_add_fallback(scene, primary, second), SG_OK);
	/* an unchanged string is not laid out again; a new node and a changed string are */
	ck_assert_int_eq(sg_text_set_string(scene, plain, WITH_SHIN), SG_OK);
	ck_assert_uint_eq(sg_text_node_layout(scene, plain)->glyphs[5].glyph, 0);
	sg_node node = new_text(scene, (struct sg_text_desc){
	                                   .font = primary, .utf8 = WITH_SHIN, .position = {4, 4, 0}});
	layout = sg_text_node_layout(scene, node);
	ck_assert_uint_eq(layout->count, 8);
	const uint32_t chars[8] = {'M', 'o', 'n', 'o', ' ', SHIN, ' ', 'x'};
	double pen = 0;
	for (int i = 0; i < 8; i++) {
		const struct sg_text_glyph *g = &layout->glyphs[i];
		FT_Face face = i == 5 ? sans : mono;
		ck_assert_msg(same_font(g->font, i == 5 ? second : primary), "glyph %d's font", i);
		ck_assert_uint_eq(g->glyph, FT_Get_Char_Index(face, chars[i]));
		ck_assert_double_eq_tol(g->pen_x, pen, 1e-3);
		pen += face_advance(face, chars[i]);
	}
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, node, &extent), SG_OK);
	ck_assert_double_eq_tol(extent.width, pen, 1e-3);
	assert_glyph_pixels(scene, node, sans, SHIN);
	assert_glyph_pixels(scene, node, mono, 'M');

	/* drawn: the node's quads, from the one page, composed by the reference */
	sg_node_add_child(scene, sg_scene_root(scene), node);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = OUT_W, .height = OUT_H, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	struct reference_text ref = {0};
	reference_add(&ref, scene, node, (const float[4]){0, 0, 0, 1}, 1);
	ck_assert_uint_eq(ref.count, 6); /* the spaces have no pixels */
	assert_render_is(renderer, scene, &ref, "a fallback glyph");
	reference_free(&ref);
	sg_renderer_destroy(renderer);

	/* a mark stays with its base's font although the font has it */
	ck_assert_uint_ne(FT_Get_Char_Index(mono, 0x0301), 0);
	sg_node marked = new_text(scene, (struct sg_text_desc){.font = primary, .utf8 = SHIN_MARKED});
	layout = sg_text_node_layout(scene, marked);
	ck_assert_uint_ge(layout->count, 2);
	ck_assert(same_font(layout->glyphs[0].font, primary));
	for (size_t i = 1; i < layout->count; i++)
		ck_assert_msg(same_font(layout->glyphs[i].font, second), "glyph %zu", i);

	/* a destroyed fallback is skipped: .notdef again */
	ck_assert_int_eq(sg_font_destroy(scene, second), SG_OK);
	ck_assert_int_eq(sg_text_set_string(scene, node, WITH_SHIN " "), SG_OK);
	layout = sg_text_node_layout(scene, node);
	ck_assert_uint_eq(layout->glyphs[5].glyph, 0);
	ck_assert(same_font(layout->glyphs[5].font, primary));
	FT_Done_Face(mono);
	FT_Done_Face(sans);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_fallback_errors)
{
	struct sg_scene *scene = sg_scene_create();
	sg_font font = sg_font_load(scene, FONT_MONO, 12);
	ck_assert(font.generation);
	ck_assert_int_eq(sg_font_add_fallback(scene, font, font), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "its own fallback"));
	sg_font others[SG_FONT_MAX_FALLBACKS + 1];
	for (int i = 0; i <= SG_FONT_MAX_FALLBACKS; i++) {
		others[i] = sg_font_load(scene, FONT, 10 + i);
		ck_assert(others[i].generation);
	}
	for (int i = 0; i < SG_FONT_MAX_FALLBACKS; i++)
		ck_assert_int_eq(sg_font_add_fallback(scene, font, others[i]), SG_OK);
	ck_assert_int_eq(sg_font_add_fallback(scene, font, others[0]), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "already a fallback"));
	ck_assert_int_eq(sg_font_add_fallback(scene, font, others[SG_FONT_MAX_FALLBACKS]),
	                 SG_ERR_LIMIT);
	sg_font gone = others[SG_FONT_MAX_FALLBACKS];
	ck_assert_int_eq(sg_font_destroy(scene, gone), SG_OK);
	ck_assert_int_eq(sg_font_add_fallback(scene, others[0], gone), SG_ERR_STALE_HANDLE);
	ck_assert_int_eq(sg_font_add_fallback(scene, gone, others[0]), SG_ERR_STALE_HANDLE);
	ck_assert_int_eq(sg_font_set_system_fallback(scene, gone, true), SG_ERR_STALE_HANDLE);
	ck_assert_int_eq(sg_font_add_fallback(NULL, font, others[0]), SG_ERR_INVALID_ARGUMENT);
	struct sg_scene *other = sg_scene_create();
	sg_font foreign = sg_font_load(other, FONT, 12);
	ck_assert_int_ne(sg_font_add_fallback(scene, font, foreign), SG_OK);
	sg_scene_destroy(other);
	sg_scene_destroy(scene);
}
END_TEST

#if SG_TEST_FONTCONFIG
static size_t live_fonts(const struct sg_scene *scene)
{
	return scene->text_state->font_pool.live;
}

/* fontconfig's fallback: off by default; on, the shin comes from a system
 * font whose file, opened here, maps it to the same glyph; a character no
 * font has stays .notdef and loads nothing; the fonts loaded go with the
 * font that loaded them. */
START_TEST(test_fallback_system_fonts)
{
	struct sg_scene *scene = sg_scene_create();
	sg_font primary = sg_font_load(scene, FONT_MONO, 20);
	ck_assert(primary.generation);
	sg_node node = new_text(scene, (struct sg_text_desc){.font = primary, .utf8 = WITH_SHIN});
	ck_assert_uint_eq(sg_text_node_layout(scene, node)->glyphs[5].glyph, 0);
	ck_assert_uint_eq(live_fonts(scene), 1);

	ck_assert_int_eq(sg_font_set_system_fallback(scene, primary, true), SG_OK);
	ck_assert_int_eq(sg_text_set_string(scene, node, WITH_SHIN "\xee\x80\x80"), SG_OK);
	const struct sg_text_layout *layout = sg_text_node_layout(scene, node);
	const struct sg_text_glyph *shin = &layout->glyphs[5];
	ck_assert_uint_eq(shin->cluster, SHIN_AT);
	ck_assert(!same_font(shin->font, primary));
	ck_assert_uint_eq(live_fonts(scene), 2); /* one system font, for the shin */
	const struct sg_font_data *data = &scene->text_state->fonts[shin->font.index];
	FT_Face face = open_file(data->path, (int)data->face->face_index, 20);
	ck_assert_uint_ne(FT_Get_Char_Index(face, SHIN), 0);
	ck_assert_uint_eq(shin->glyph, FT_Get_Char_Index(face, SHIN));
	assert_glyph_pixels(scene, node, face, SHIN);
	FT_Done_Face(face);
	/* U+E000, private use: in no DejaVu font; .notdef of the text before it */
	const struct sg_text_glyph *last = &layout->glyphs[layout->count - 1];
	ck_assert_uint_eq(last->glyph, 0);
	ck_assert(same_font(last->font, primary));

	/* again: the loaded font is reused */
	sg_node again = new_text(scene, (struct sg_text_desc){.font = primary, .utf8 = "\xd7\xa9"});
	ck_assert(same_font(sg_text_node_layout(scene, again)->glyphs[0].font, shin->font));
	ck_assert_uint_eq(live_fonts(scene), 2);
	/* off again: .notdef */
	ck_assert_int_eq(sg_font_set_system_fallback(scene, primary, false), SG_OK);
	ck_assert_int_eq(sg_text_set_string(scene, again, "\xd7\xa9 "), SG_OK);
	layout = sg_text_node_layout(scene, again); /* right to left: the shin is last */
	ck_assert_uint_eq(layout->glyphs[1].cluster, 0);
	ck_assert_uint_eq(layout->glyphs[1].glyph, 0);
	/* destroying the font frees the system font it loaded */
	ck_assert_int_eq(sg_font_destroy(scene, primary), SG_OK);
	ck_assert_uint_eq(live_fonts(scene), 0);
	sg_scene_destroy(scene);
}
END_TEST
#else
START_TEST(test_fallback_system_fonts)
{
	struct sg_scene *scene = sg_scene_create();
	sg_font font = sg_font_load(scene, FONT_MONO, 12);
	ck_assert_int_eq(sg_font_set_system_fallback(scene, font, true), SG_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "fontconfig"));
	ck_assert_int_eq(sg_font_set_system_fallback(scene, font, false), SG_OK);
	sg_scene_destroy(scene);
}
END_TEST
#endif

/* --- ellipsis ------------------------------------------------------------------- */

#define ELLIPSIS 0x2026u

/* The width HarfBuzz gives an ASCII string of letters without kerning pairs
 * in DejaVu Sans (and spaces): the sum of its advances in 26.6. */
static double ascii_width(FT_Face face, const char *ascii, size_t length)
{
	double width = 0;
	for (size_t i = 0; i < length; i++)
		width += face_advance(face, (uint8_t)ascii[i]);
	return width;
}

/* Where an elided line of ascii must be cut: the most characters whose width
 * (trailing spaces left out) and the ellipsis' fit max_width. */
static size_t expected_cut(FT_Face face, const char *ascii, float max_width)
{
	double room = max_width - face_advance(face, ELLIPSIS);
	size_t cut = 0;
	for (size_t k = 1; k <= strlen(ascii); k++) {
		size_t trimmed = k;
		while (trimmed > 0 && ascii[trimmed - 1] == ' ')
			trimmed--;
		if (ascii_width(face, ascii, trimmed) <= room + 1e-9)
			cut = trimmed;
	}
	return cut;
}

/* The glyphs of line, in order, are the first cut characters of ascii and
 * then the ellipsis at cluster cut. */
static void assert_elided_line(const struct sg_text_layout *layout, FT_Face face, int line,
                               const char *ascii, size_t first_byte, size_t cut)
{
	size_t i = 0;
	while (i < layout->count && layout->glyphs[i].line != line)
		i++;
	for (size_t k = 0; k < cut; k++, i++) {
		ck_assert_uint_lt(i, layout->count);
		ck_assert_int_eq(layout->glyphs[i].line, line);
		ck_assert_uint_eq(layout->glyphs[i].glyph, FT_Get_Char_Index(face, (uint8_t)ascii[k]));
		ck_assert_uint_eq(layout->glyphs[i].cluster, first_byte + k);
	}
	ck_assert_uint_lt(i, layout->count);
	ck_assert_uint_eq(layout->glyphs[i].glyph, FT_Get_Char_Index(face, ELLIPSIS));
	ck_assert_uint_eq(layout->glyphs[i].cluster, first_byte + cut);
	ck_assert_msg(i + 1 == layout->count || layout->glyphs[i + 1].line != line,
	              "glyphs after the ellipsis");
}

START_TEST(test_ellipsis_cuts_to_fit)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(20, &font);
	FT_Face face = open_face(20);
	ck_assert_uint_ne(FT_Get_Char_Index(face, ELLIPSIS), 0);
	const char *text = WORD_A " " WORD_A " " WORD_A " " WORD_A;

	/* one line, a width between two cuts: "minimum mini…" */
	float width = (float)(ascii_width(face, text, 12) + face_advance(face, ELLIPSIS) +
	                      face_advance(face, 'm') / 2);
	ck_assert_uint_eq(expected_cut(face, text, width), 12);
	sg_node one = new_text(scene, (struct sg_text_desc){
	                                  .font = font, .utf8 = text, .max_width = width, .max_lines = 1});
	const struct sg_text_layout *layout = sg_text_node_layout(scene, one);
	assert_elided_line(layout, face, 0, text, 0, 12);
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, one, &extent), SG_OK);
	ck_assert_int_eq(extent.lines, 1);
	ck_assert_float_le(extent.width, width);

	/* two lines wrapped at each word: the second takes the rest, cut at the
	 * space (dropped) before the next word, of which no letter fits */
	width = (float)(ascii_width(face, text, 7) + face_advance(face, ELLIPSIS) +
	                face_advance(face, ' ') / 2);
	sg_node two = new_text(scene, (struct sg_text_desc){
	                                  .font = font, .utf8 = text, .max_width = width, .max_lines = 2});
	layout = sg_text_node_layout(scene, two);
	ck_assert_int_eq(layout->extent.lines, 2);
	size_t cut = expected_cut(face, text + 8, width);
	ck_assert_uint_eq(cut, 7); /* "minimum" and the ellipsis */
	assert_elided_line(layout, face, 1, text + 8, 8, cut);
	for (size_t i = 0; i < layout->count; i++)
		if (layout->glyphs[i].line == 0)
			ck_assert_uint_ne(layout->glyphs[i].glyph, FT_Get_Char_Index(face, ELLIPSIS));

	/* text within max_lines: no ellipsis */
	ck_assert_int_eq(sg_text_set_string(scene, two, WORD_A " " WORD_A), SG_OK);
	layout = sg_text_node_layout(scene, two);
	ck_assert_int_eq(layout->extent.lines, 2);
	ck_assert_uint_eq(layout->count, 14); /* the space that broke the line is not drawn */
	for (size_t i = 0; i < layout->count; i++)
		ck_assert_uint_ne(layout->glyphs[i].glyph, FT_Get_Char_Index(face, ELLIPSIS));

	/* a word longer than the box, though within max_lines, is cut too */
	sg_node word = new_text(scene, (struct sg_text_desc){.font = font,
	                                                     .utf8 = "minimumminimum",
	                                                     .max_width = 60,
	                                                     .max_lines = 3});
	layout = sg_text_node_layout(scene, word);
	cut = expected_cut(face, "minimumminimum", 60);
	ck_assert_uint_gt(cut, 0);
	assert_elided_line(layout, face, 0, "minimumminimum", 0, cut);
	ck_assert_float_le(layout->line_widths[0], 60);

	/* no width: lines are paragraphs; the ellipsis follows the last one shown
	 * whole; a trailing newline is no more text */
	sg_node para = new_text(scene, (struct sg_text_desc){
	                                   .font = font, .utf8 = "mum\nmin\nmum", .max_lines = 2});
	layout = sg_text_node_layout(scene, para);
	ck_assert_int_eq(layout->extent.lines, 2);
	assert_elided_line(layout, face, 1, "min", 4, 3);
	ck_assert_int_eq(sg_text_set_string(scene, para, "mum\nmin\n"), SG_OK);
	layout = sg_text_node_layout(scene, para);
	ck_assert_uint_eq(layout->count, 6);

	/* a last line that fits but for its trailing spaces is not cut */
	sg_node spaced = new_text(scene, (struct sg_text_desc){.font = font,
	                                                       .utf8 = "mum     ",
	                                                       .max_width =
	                                                           (float)ascii_width(face, "mum", 3) + 1,
	                                                       .max_lines = 1});
	layout = sg_text_node_layout(scene, spaced);
	for (size_t i = 0; i < layout->count; i++)
		ck_assert_uint_ne(layout->glyphs[i].glyph, FT_Get_Char_Index(face, ELLIPSIS));

	/* kerned pairs cut apart are wider than measured together: still inside */
	static const float widths[] = {33, 45, 58, 71};
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		sg_node kerned = new_text(scene, (struct sg_text_desc){.font = font,
		                                                       .utf8 = "AVAVAVAVAVAVAVAV",
		                                                       .max_width = widths[w],
		                                                       .max_lines = 1});
		layout = sg_text_node_layout(scene, kerned);
		ck_assert_msg(layout->line_widths[0] <= widths[w], "AVAV... cut to %g wide in %g",
		              (double)layout->line_widths[0], (double)widths[w]);
		ck_assert_uint_eq(layout->glyphs[layout->count - 1].glyph,
		                  FT_Get_Char_Index(face, ELLIPSIS));
	}

	/* right to left: the ellipsis is the leftmost glyph */
	const char *hebrew = "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d "
	                     "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"; /* שלום שלום שלום */
	sg_node rtl = new_text(scene, (struct sg_text_desc){
	                                  .font = font, .utf8 = hebrew, .max_width = 70, .max_lines = 1});
	layout = sg_text_node_layout(scene, rtl);
	ck_assert_uint_gt(layout->count, 1);
	ck_assert_uint_eq(layout->glyphs[0].glyph, FT_Get_Char_Index(face, ELLIPSIS));
	ck_assert_float_le(layout->line_widths[0], 70);

	ck_assert_uint_eq(sg_node_new_text(scene, &(struct sg_text_desc){.font = font,
	                                                                 .utf8 = "x",
	                                                                 .max_lines = -1})
	                      .generation,
	                  0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "max_lines -1"));
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

/* --- bidirectional text ---------------------------------------------------------- */

/* Visual orders worked out by hand from UAX #9: strong letters take their
 * direction, a space between a Latin and a Hebrew word takes the
 * paragraph's, European digits in a right-to-left paragraph are a
 * left-to-right run (level 2); runs are reversed by rule L2. */
static const struct {
	const char *utf8;
	size_t count;
	uint32_t clusters[16]; /* left to right; with FriBidi */
	uint32_t plain[16];    /* without: one direction per paragraph */
} bidi_cases[] = {
    /* "abc אבג def": a Hebrew word inside a left-to-right line */
    {"abc \xd7\x90\xd7\x91\xd7\x92 def", 11,
     {0, 1, 2, 3, 8, 6, 4, 10, 11, 12, 13},
     {0, 1, 2, 3, 4, 6, 8, 10, 11, 12, 13}},
    /* "שלום abc": a Latin word inside a right-to-left line */
    {"\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d abc", 8,
     {9, 10, 11, 8, 6, 4, 2, 0},
     {11, 10, 9, 8, 6, 4, 2, 0}},
    /* "אב 123": digits keep their order inside right-to-left text */
    {"\xd7\x90\xd7\x91 123", 6,
     {5, 6, 7, 4, 2, 0},
     {7, 6, 5, 4, 2, 0}},
};

START_TEST(test_bidi_runs)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(20, &font);
	FT_Face face = open_face(20);
	const char *utf8 = bidi_cases[_i].utf8;
	sg_node node = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = utf8});
	const struct sg_text_layout *layout = sg_text_node_layout(scene, node);
	ck_assert_uint_eq(layout->count, bidi_cases[_i].count);
	const uint32_t *want = SG_TEST_BIDI ? bidi_cases[_i].clusters : bidi_cases[_i].plain;
	for (size_t k = 0; k < layout->count; k++) {
		const struct sg_text_glyph *g = &layout->glyphs[k];
		ck_assert_msg(g->cluster == want[k], "glyph %zu: cluster %u, expected %u", k,
		              g->cluster, want[k]);
		size_t at = g->cluster;
		uint32_t c = 0;
		ck_assert(sg_utf8_next(utf8, strlen(utf8), &at, &c));
		ck_assert_uint_eq(g->glyph, FT_Get_Char_Index(face, c));
		if (k > 0) /* left to right, touching */
			ck_assert_float_eq(g->pen_x, layout->glyphs[k - 1].pen_x +
			                                 layout->glyphs[k - 1].x_advance);
	}
	FT_Done_Face(face);
	sg_scene_destroy(scene);
}
END_TEST

/* Rule L2 on levels alone: the highest level's runs reversed first. */
START_TEST(test_bidi_reorder)
{
	static const struct {
		size_t count;
		uint8_t levels[6];
		size_t order[6];
	} cases[] = {
	    {3, {0, 0, 0}, {0, 1, 2}},
	    {3, {1, 1, 1}, {2, 1, 0}},
	    {5, {0, 1, 1, 0, 0}, {0, 2, 1, 3, 4}},
	    {3, {1, 2, 1}, {2, 1, 0}},       /* a level-2 run inside RTL keeps its place */
	    {4, {1, 2, 2, 1}, {3, 1, 2, 0}}, /* and its runs their order */
	    {5, {0, 1, 2, 1, 0}, {0, 3, 2, 1, 4}},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t order[6];
		sg_text_bidi_reorder(cases[i].levels, cases[i].count, order);
		for (size_t k = 0; k < cases[i].count; k++)
			ck_assert_msg(order[k] == cases[i].order[k], "case %zu: order[%zu] = %zu, not %zu",
			              i, k, order[k], cases[i].order[k]);
	}
}
END_TEST

/* --- golden images ------------------------------------------------------------- */

static const struct {
	const char *name, *utf8;
} goldens[] = {
    {"latin", "Quick fox, 42!"},
    {"arabic", "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd8\xa8\xd8\xa7\xd9\x84\xd8\xb9\xd8\xa7"
               "\xd9\x84\xd9\x85"},
    {"marks", "e\xcc\x81 a\xcc\x88 x\xcc\x81 q\xcc\x88 k\xcc\x82\xcc\xa3"},
};

#define GOLDEN_W 240
#define GOLDEN_H 48

START_TEST(test_golden_images)
{
	char path[512];
	unsigned hb_major, hb_minor, hb_micro;
	hb_version(&hb_major, &hb_minor, &hb_micro);
	FT_Int ft_major, ft_minor, ft_patch;
	FT_Library_Version(library, &ft_major, &ft_minor, &ft_patch);
	snprintf(path, sizeof(path), "%s/text-%s-ft%d.%d.%d-hb%u.%u.%u.png", SG_GOLDEN_DIR,
	         goldens[_i].name, ft_major, ft_minor, ft_patch, hb_major, hb_minor, hb_micro);
	sg_font font;
	struct sg_scene *scene = scene_with_font(32, &font);
	sg_node node = new_text(scene, (struct sg_text_desc){.font = font,
	                                                     .utf8 = goldens[_i].utf8,
	                                                     .color = {1, 1, 1, 1},
	                                                     .position = {4, 2, 0}});
	sg_node_add_child(scene, sg_scene_root(scene), node);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = GOLDEN_W, .height = GOLDEN_H, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	static uint8_t got[GOLDEN_W * GOLDEN_H * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, got, 0), SG_OK);
	/* the render matches the reference compositor whatever the versions */
	struct reference_text ref = {0};
	reference_add(&ref, scene, node, (float[]){1, 1, 1, 1}, 1);
	static uint8_t want[GOLDEN_W * GOLDEN_H * 4];
	ref_compose(&(struct ref_image){GOLDEN_W, GOLDEN_H, want}, (float[]){0, 0, 0, 1}, ref.quads,
	            ref.count);
	reference_free(&ref);
	struct ref_difference d;
	ck_assert_msg(ref_compare(got, want, GOLDEN_W, GOLDEN_H, 2, &d),
	              "%s: %d pixels off the reference", goldens[_i].name, d.count);
	if (getenv("SG_UPDATE_GOLDEN")) {
		ck_assert_int_eq(sg_renderer_write_png(renderer, path), SG_OK);
		printf("text: wrote %s\n", path);
	} else {
		FILE *file = fopen(path, "rb");
		if (!file) {
			printf(
			    "text: golden %s skipped: no golden image for FreeType %d.%d.%d and "
			    "HarfBuzz "
			    "%u.%u.%u (%s); set SG_UPDATE_GOLDEN=1 to make one, then look at it\n",
			    goldens[_i].name, ft_major, ft_minor, ft_patch, hb_major, hb_minor,
			    hb_micro, path);
		} else {
			uint8_t *golden;
			int width, height;
			ck_assert_int_eq(
			    sg_png_read_rgba(file, path, UINT64_MAX, &golden, &width, &height),
			    SG_OK);
			fclose(file);
			ck_assert_int_eq(width, GOLDEN_W);
			ck_assert_int_eq(height, GOLDEN_H);
			ck_assert_msg(
			    ref_compare(got, golden, GOLDEN_W, GOLDEN_H, 2, &d),
			    "%s: %d pixels differ from %s by more than 2; the first at (%d, %d)",
			    goldens[_i].name, d.count, path, d.x, d.y);
			free(golden);
		}
	}
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* --- lifetimes (the suite runs under valgrind and ASan in scripts/test.sh) ------ */

START_TEST(test_destroy_node_font_scene)
{
	sg_font font;
	struct sg_scene *scene = scene_with_font(18, &font);
	sg_node parent = sg_node_new_group(scene, "parent");
	sg_node_add_child(scene, sg_scene_root(scene), parent);
	size_t meshes = scene->mesh_pool.live;
	for (int i = 0; i < 10; i++) {
		sg_node node = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "node"});
		sg_node_add_child(scene, parent, node);
		ck_assert_int_eq(sg_text_set_string(scene, node, i % 2 ? "other" : ""), SG_OK);
	}
	ck_assert_uint_eq(scene->mesh_pool.live, meshes + 10);
	ck_assert_int_eq(sg_node_destroy(scene, parent), SG_OK); /* a subtree of text nodes */
	ck_assert_uint_eq(scene->mesh_pool.live, meshes);
	sg_node kept = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = "kept"});
	(void)kept;
	ck_assert_int_eq(sg_font_destroy(scene, font), SG_OK);
	sg_font again = sg_font_load(scene, FONT, 40);
	ck_assert(again.generation);
	sg_scene_destroy(scene); /* with a node, a font, pages */
	/* a scene that loaded a font and nothing else */
	scene = scene_with_font(10, &font);
	sg_scene_destroy(scene);
}
END_TEST

/* --- budgets: what a small input may cost ------------------------------------ */

static double seconds_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The process's peak resident set so far, in KiB. */
static long peak_rss_kib(void)
{
	struct rusage usage;
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &usage), 0);
	return usage.ru_maxrss;
}

/* A copy of DejaVu Sans in folder whose head.unitsPerEm is units_per_em
 * instead of 2048: its outlines are as many font units as before, so each
 * glyph is 2048 / units_per_em times larger at the same pixel size. */
static void write_scaled_font(const char *path, uint16_t units_per_em)
{
	size_t size = 0;
	FILE *in = fopen(FONT, "rb");
	ck_assert_ptr_nonnull(in);
	static uint8_t bytes[1 << 20];
	size = fread(bytes, 1, sizeof(bytes), in);
	fclose(in);
	ck_assert_uint_gt(size, 12);
	ck_assert_uint_lt(size, sizeof(bytes));
	size_t tables = (size_t)bytes[4] << 8 | bytes[5];
	bool patched = false;
	for (size_t i = 0; i < tables; i++) {
		const uint8_t *record = bytes + 12 + 16 * i;
		if (memcmp(record, "head", 4) != 0)
			continue;
		size_t offset = (size_t)record[8] << 24 | (size_t)record[9] << 16 |
		                (size_t)record[10] << 8 | record[11];
		ck_assert_uint_lt(offset + 20, size);
		ck_assert_uint_eq((size_t)bytes[offset + 18] << 8 | bytes[offset + 19], 2048);
		bytes[offset + 18] = (uint8_t)(units_per_em >> 8);
		bytes[offset + 19] = (uint8_t)units_per_em;
		patched = true;
	}
	ck_assert(patched);
	FILE *out = fopen(path, "wb");
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(fwrite(bytes, 1, size, out), size);
	ck_assert_int_eq(fclose(out), 0);
}

/* A glyph whose outline is larger than an atlas page is refused from its
 * outline's box, before FreeType renders it: with unitsPerEm 64 at 1024 px,
 * DejaVu's M is about 21900 x 23900 pixels, a 500 MB coverage bitmap and
 * 2 GB of RGBA that took 24 s and 2.5 GB of peak memory before. */
START_TEST(test_huge_glyph_refused_before_rendering)
{
	char folder[] = "/tmp/sg-text-huge-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(folder));
	char path[64];
	snprintf(path, sizeof(path), "%s/huge.ttf", folder);
	write_scaled_font(path, 64);
	/* the glyph id and box FreeType itself gives, unhinted (the library
	 * hints, which moves the box by a pixel or two) */
	FT_Face face;
	ck_assert_int_eq(FT_New_Face(library, path, 0, &face), 0);
	ck_assert_int_eq(FT_Set_Pixel_Sizes(face, 0, 1024), 0);
	FT_UInt m = FT_Get_Char_Index(face, 'M');
	ck_assert_int_eq(FT_Load_Glyph(face, m, FT_LOAD_NO_HINTING), 0);
	double width = (double)face->glyph->metrics.width / 64.0;
	ck_assert_double_gt(width, 10000);
	FT_Done_Face(face);

	struct sg_scene *scene = sg_scene_create();
	sg_font font = sg_font_load(scene, path, 1024);
	ck_assert_msg(font.generation, "%s", sg_last_error());
	long rss_before = peak_rss_kib();
	double start = seconds_now();
	sg_node node =
	    sg_node_new_text(scene, &(struct sg_text_desc){.name = "big", .font = font, .utf8 = "M"});
	double elapsed = seconds_now() - start;
	long rss_growth = peak_rss_kib() - rss_before;
	ck_assert_uint_eq(node.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_LIMIT);
	char expected[128];
	snprintf(expected, sizeof(expected), "text 'big': font '%s' at 1024 px: glyph %u is ", path,
	         m);
	ck_assert_msg(strncmp(sg_last_error(), expected, strlen(expected)) == 0, "%s",
	              sg_last_error());
	ck_assert_msg(strstr(sg_last_error(), "larger than a 1024x1024 atlas page"), "%s",
	              sg_last_error());
	/* the width in the message is the glyph's, to a few hinted pixels */
	long shown = strtol(sg_last_error() + strlen(expected), NULL, 10);
	ck_assert_msg(fabs((double)shown - width) < 4, "%ld against %g", shown, width);
	ck_assert_msg(elapsed < 2.0, "%.2f s", elapsed);
	ck_assert_msg(rss_growth < 64 * 1024, "peak memory grew by %ld KiB", rss_growth);
	/* the same font small enough draws: M is 2048 / 64 * 16 / 1024, about 425 px wide */
	sg_font small = sg_font_load(scene, path, 16);
	ck_assert_msg(small.generation, "%s", sg_last_error());
	node = new_text(scene, (struct sg_text_desc){.font = small, .utf8 = "M"});
	const struct sg_text_layout *layout = sg_text_node_layout(scene, node);
	ck_assert_uint_eq(layout->count, 1);
	sg_scene_destroy(scene);
	unlink(path);
	rmdir(folder);
}
END_TEST

/* count copies of the UTF-8 character mark after prefix, then suffix. */
static char *string_with_marks(const char *prefix, const char *mark, size_t count,
                               const char *suffix)
{
	size_t p = strlen(prefix), m = strlen(mark), s = strlen(suffix);
	char *string = malloc(p + m * count + s + 1);
	ck_assert_ptr_nonnull(string);
	memcpy(string, prefix, p);
	for (size_t i = 0; i < count; i++)
		memcpy(string + p + i * m, mark, m);
	memcpy(string + p + m * count, suffix, s + 1);
	return string;
}

/* The number of glyphs hb_shape gives for string with the face at pixel_size. */
static unsigned hb_glyph_count(int pixel_size, const char *string)
{
	FT_Face face = open_face(pixel_size);
	hb_font_t *hb_font = hb_ft_font_create_referenced(face);
	hb_buffer_t *buffer = hb_buffer_create();
	hb_buffer_add_utf8(buffer, string, -1, 0, -1);
	hb_buffer_guess_segment_properties(buffer);
	hb_shape(hb_font, buffer, NULL, 0);
	unsigned count = hb_buffer_get_length(buffer);
	hb_buffer_destroy(buffer);
	hb_font_destroy(hb_font);
	FT_Done_Face(face);
	return count;
}

/* One character followed by hundreds of thousands of combining marks is
 * refused at once (HarfBuzz took 25 s for 80,000, minutes for 300,000);
 * SG_TEXT_MAX_MARKS of them are shaped as HarfBuzz shapes them. */
START_TEST(test_marks_per_character_are_bounded)
{
	static const char acute[] = "\xcc\x81", zwj[] = "\xe2\x80\x8d";
	sg_font font;
	struct sg_scene *scene = scene_with_font(16, &font);
	char *zalgo = string_with_marks("a", acute, 300000, "");
	double start = seconds_now();
	sg_node node =
	    sg_node_new_text(scene, &(struct sg_text_desc){.name = "z", .font = font, .utf8 = zalgo});
	double elapsed = seconds_now() - start;
	ck_assert_uint_eq(node.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_LIMIT);
	ck_assert_str_eq(sg_last_error(), "text 'z': 300000 combining marks follow the character "
	                                  "at byte 0, more than 64 on one character");
	ck_assert_msg(elapsed < 1.0, "%.2f s", elapsed);
	free(zalgo);

	/* the limit, after other text: 64 pass, 65 do not, and the byte is the base's */
	char *most = string_with_marks("ab x", acute, SG_TEXT_MAX_MARKS, " c");
	node = new_text(scene, (struct sg_text_desc){.font = font, .utf8 = most});
	ck_assert_uint_eq(sg_text_node_layout(scene, node)->count, hb_glyph_count(16, most));
	ck_assert_uint_ge(sg_text_node_layout(scene, node)->count, 6);
	char *over = string_with_marks("ab x", acute, SG_TEXT_MAX_MARKS + 1, " c");
	ck_assert_int_eq(sg_text_set_string(scene, node, over), SG_ERR_LIMIT);
	ck_assert_msg(strstr(sg_last_error(),
	                     "65 combining marks follow the character at byte 3, more than 64"),
	              "%s", sg_last_error());
	ck_assert_str_eq(sg_text_get_string(scene, node), most); /* unchanged */
	/* joiners continue a cluster too */
	char *joined = string_with_marks("a", zwj, SG_TEXT_MAX_MARKS + 1, "");
	ck_assert_int_eq(sg_text_set_string(scene, node, joined), SG_ERR_LIMIT);
	/* marks spread over many characters are not limited */
	static const char unit[] = "e\xcc\x81\xcc\x88\xcc\xa3x\xcc\x81";
	char *spread = string_with_marks("", unit, 1000, "");
	ck_assert_int_eq(sg_text_set_string(scene, node, spread), SG_OK);
	ck_assert_uint_eq(sg_text_node_layout(scene, node)->count, hb_glyph_count(16, spread));
	free(most);
	free(over);
	free(joined);
	free(spread);
	sg_scene_destroy(scene);
}
END_TEST

/* 36 characters that at 200 px fill more than half of an atlas page, so that
 * the same string at 200 px and at 190 px cannot share one. */
#define HALF_PAGE "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* Each atlas page made is charged to the scene's atlas budget: text nodes
 * that alternate two fonts of near sizes each start a page (300 of them took
 * 2.5 GB before, where a scene file's estimate charged 4 pages). */
START_TEST(test_atlas_pages_made_are_charged)
{
	struct sg_scene *scene = sg_scene_create();
	sg_font fonts[2] = {sg_font_load(scene, FONT, 200), sg_font_load(scene, FONT, 190)};
	ck_assert_msg(fonts[0].generation && fonts[1].generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_text_set_atlas_budget(scene, 2 * SG_ATLAS_PAGE_BYTES), SG_OK);
	sg_node nodes[2];
	for (int i = 0; i < 2; i++)
		nodes[i] = new_text(scene, (struct sg_text_desc){.font = fonts[i], .utf8 = HALF_PAGE});
	/* two pages, one for each node: their textures differ */
	const struct sg_model_data *models[2] = {sg_scene_model(scene, nodes[0].index),
	                                         sg_scene_model(scene, nodes[1].index)};
	ck_assert_uint_ne(sg_model_texture(scene, models[0]).index,
	                  sg_model_texture(scene, models[1]).index);
	ck_assert_uint_eq(sg_text_atlas_bytes(scene), 2 * 4194304);
	double start = seconds_now();
	sg_node third = sg_node_new_text(
	    scene, &(struct sg_text_desc){.name = "third", .font = fonts[0], .utf8 = HALF_PAGE});
	ck_assert_msg(seconds_now() - start < 2.0, "%.2f s", seconds_now() - start);
	ck_assert_uint_eq(third.generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_LIMIT);
	ck_assert_msg(strstr(sg_last_error(), "text 'third': a new 1024x1024 glyph atlas page would "
	                                      "bring the scene's 3 pages to 12582912 bytes, over "
	                                      "their budget of 8388608 bytes"),
	              "%s", sg_last_error());
	ck_assert_uint_eq(sg_text_atlas_bytes(scene), 2 * 4194304);
	/* the first node's page goes with it, and makes room for the third */
	ck_assert_int_eq(sg_node_destroy(scene, nodes[0]), SG_OK);
	ck_assert_uint_eq(sg_text_atlas_bytes(scene), 4194304);
	third = new_text(scene, (struct sg_text_desc){.font = fonts[0], .utf8 = HALF_PAGE});
	ck_assert_uint_eq(sg_text_atlas_bytes(scene), 2 * 4194304);
	/* no budget: a third page is made */
	ck_assert_int_eq(sg_text_set_atlas_budget(scene, UINT64_MAX), SG_OK);
	new_text(scene, (struct sg_text_desc){.font = fonts[1], .utf8 = HALF_PAGE});
	ck_assert_uint_eq(sg_text_atlas_bytes(scene), 3 * 4194304);
	sg_scene_destroy(scene);
}
END_TEST

/* Every allocation of libsg's own in loading a font, making text nodes and
 * changing their strings fails in turn: each attempt fails cleanly (leaks are
 * caught under valgrind and ASan) and a failed set_string changes nothing. */
START_TEST(test_allocation_failures_are_clean)
{
	for (long k = 1; k < 400; k++) {
		sg_alloc_fail_at(k);
		struct sg_scene *scene = sg_scene_create();
		bool ok = scene != NULL;
		sg_font font = {0};
		if (ok)
			ok = (font = sg_font_load(scene, FONT, 20)).generation != 0;
		sg_node node = SG_NODE_NONE;
		if (ok)
			ok = (node = sg_node_new_text(
			          scene, &(struct sg_text_desc){.name = "n",
			                                        .font = font,
			                                        .utf8 = "one two three",
			                                        .max_width = 50}))
			         .generation != 0;
		if (ok) {
			sg_result result =
			    sg_text_set_string(scene, node, "four\nfive \xd9\x85\xd8\xb1");
			ok = result == SG_OK;
			if (!ok)
				ck_assert_str_eq(sg_text_get_string(scene, node), "one two three");
		}
		if (ok)
			ok = sg_node_add_child(scene, sg_scene_root(scene), node) == SG_OK;
		long made = sg_alloc_fail_at(0);
		sg_scene_destroy(scene);
		if (ok && made < k) {
			if (getenv("SG_TEXT_VERBOSE"))
				printf("text: %ld allocations failed in turn\n", k - 1);
			return; /* k is past the last allocation: everything succeeded */
		}
		ck_assert_msg(!ok, "allocation %ld failed but every call reported success", k);
		ck_assert_msg(strstr(sg_last_error(), "out of memory"), "k=%ld: %s", k,
		              sg_last_error());
	}
	ck_abort_msg("more than 400 allocations");
}
END_TEST

int main(void)
{
	if (access(FONT, R_OK) != 0) {
		printf("text: skipped: %s is missing (Debian: fonts-dejavu-core)\n", FONT);
		return 77;
	}
	if (FT_Init_FreeType(&library))
		return EXIT_FAILURE;
	Suite *suite = suite_create("text");
	TCase *tc = tcase_create("layout");
	tcase_add_loop_test(tc, test_glyphs_equal_hb_shape, 0,
	                    (int)(sizeof(shaped_strings) / sizeof(shaped_strings[0])));
	tcase_add_test(tc, test_extent_matches_freetype_metrics);
	tcase_add_loop_test(tc, test_line_breaks_and_alignment, 0, 3);
	tcase_add_test(tc, test_break_opportunities);
	tcase_add_test(tc, test_explicit_newlines);
	suite_add_tcase(suite, tc);
	tc = tcase_create("errors");
	tcase_add_loop_test(tc, test_invalid_utf8_names_the_byte, 0,
	                    (int)(sizeof(bad_utf8) / sizeof(bad_utf8[0])));
	tcase_add_test(tc, test_font_load_errors);
	tcase_add_test(tc, test_stale_and_foreign_handles);
	tcase_add_test(tc, test_bad_descs_and_node_kinds);
	tcase_add_test(tc, test_allocation_failures_are_clean);
	suite_add_tcase(suite, tc);
	tc = tcase_create("threads");
	tcase_add_test(tc, test_threads_load_first_fonts);
	suite_add_tcase(suite, tc);
	tc = tcase_create("atlas");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_atlas_grows_over_thousands_of_glyphs);
	tcase_add_test(tc, test_pages_freed_when_unused);
	suite_add_tcase(suite, tc);
	tc = tcase_create("budgets");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_huge_glyph_refused_before_rendering);
	tcase_add_test(tc, test_marks_per_character_are_bounded);
	tcase_add_test(tc, test_atlas_pages_made_are_charged);
	suite_add_tcase(suite, tc);
	tc = tcase_create("render");
	tcase_add_test(tc, test_render_transform_visibility_opacity_colour);
	tcase_add_test(tc, test_render_two_fonts_and_notdef);
	tcase_add_loop_test(tc, test_golden_images, 0, (int)(sizeof(goldens) / sizeof(goldens[0])));
	tcase_add_test(tc, test_destroy_node_font_scene);
	suite_add_tcase(suite, tc);
	tc = tcase_create("fallback");
	tcase_add_test(tc, test_fallback_added_font);
	tcase_add_test(tc, test_fallback_errors);
	tcase_add_test(tc, test_fallback_system_fonts);
	tcase_add_test(tc, test_ellipsis_cuts_to_fit);
	tcase_add_loop_test(tc, test_bidi_runs, 0, (int)(sizeof(bidi_cases) / sizeof(bidi_cases[0])));
	tcase_add_test(tc, test_bidi_reorder);
	suite_add_tcase(suite, tc);
	int status = check_run(suite);
	FT_Done_FreeType(library);
	return status;
}

#endif
