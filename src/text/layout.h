/* Internal: a string shaped by HarfBuzz and laid out in lines, glyph by
 * glyph, before any pixel is made. Tests compare it with hb_shape directly. */
#ifndef SG_TEXT_LAYOUT_H
#define SG_TEXT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include <sg/text.h>

struct sg_font_data;

/* One glyph placed in a text node's box (x right, y down, pixels). */
struct sg_text_glyph {
	sg_font font;       /* the node's font, or the fallback the glyph comes from */
	uint32_t glyph;     /* glyph index in the face (0: .notdef) */
	uint32_t cluster;   /* byte offset in the string of its first character */
	float pen_x, pen_y; /* pen position: alignment included; pen_y is the line's baseline */
	float x_offset, y_offset; /* HarfBuzz's offsets, in pixels, y up as HarfBuzz has them */
	float x_advance;
	int line; /* 0 for the first line */
};

struct sg_text_layout {
	struct sg_text_glyph *glyphs; /* in visual order within each line, lines in order */
	size_t count, capacity;
	float *line_widths; /* per line, by advances; trailing spaces of wrapped lines left out */
	size_t line_capacity;
	float box_width; /* max_width when > 0, else the widest line */
	struct sg_text_extent extent;
};

/* Shapes and lays out utf8 (length bytes, already valid UTF-8) with font
 * and its fallbacks, which it may load (so it takes the scene). line_height
 * 0: the font's own; max_lines 0: any (sg_text_desc). On failure layout
 * keeps its arrays (for the next try) and has no glyphs. */
sg_result sg_text_layout_run(struct sg_text_layout *layout, struct sg_scene *scene, sg_font font,
                             const char *utf8, size_t length, float max_width, int max_lines,
                             enum sg_text_align align, float line_height);
void sg_text_layout_finish(struct sg_text_layout *layout);

/* The layout of a live text node, NULL otherwise: for tests. */
const struct sg_text_layout *sg_text_node_layout(const struct sg_scene *scene, sg_node node);

#endif
