/* libsg: text nodes. FreeType rasterises glyphs, HarfBuzz shapes strings.
 *
 * Text is an optional part of libsg, built where FreeType and HarfBuzz are
 * found (sg_text_available()). Without it these functions exist and fail with
 * SG_ERR_UNSUPPORTED.
 *
 * A font is one face at one pixel size, owned by a scene. Its glyphs are
 * rasterised once, when a string first needs them, into atlas textures of the
 * scene (1024 x 1024 pages; a new page is started when one is full, and a
 * page that no text node draws from is destroyed once new glyphs go to
 * another; sg_scene_destroy() frees the rest). A text node is a node like the
 * others: transforms, visibility, opacity and picking apply to it, and it
 * draws through the same batching and blending as models (its glyphs are
 * textured quads of a mesh the node owns).
 *
 * Coordinates: a text node's local origin is the top-left corner of its text
 * box, x to the right and y down, one unit per pixel of the font's size, as
 * sg_camera_init_pixels() sees the scene; the first line's baseline is at the
 * font's ascender. Scale the node (a transform above it) to use other units;
 * with a y-up camera, scale y by -1. */
#ifndef SG_TEXT_H
#define SG_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sg_font {
	uint32_t scene, index, generation;
} sg_font;

/* Whether this libsg was built with text (FreeType and HarfBuzz). They are
 * opened at the process's first sg_font_load, which fails with
 * SG_ERR_UNSUPPORTED naming the library where one cannot be opened. */
SG_API bool sg_text_available(void);

/* Opens the face in the font file at path (the first face of a collection)
 * at pixel_size pixels per em (1 .. 1024). A missing or unreadable file:
 * SG_ERR_IO naming it; a file FreeType cannot open as a face: SG_ERR_FORMAT
 * with FreeType's reason. Returns an invalid (all-zero) handle on failure. */
SG_API sg_font sg_font_load(struct sg_scene *scene, const char *path, int pixel_size);
/* Text nodes still using a destroyed font keep the glyphs they have and draw
 * them; changing their string fails (SG_ERR_STALE_HANDLE). */
SG_API sg_result sg_font_destroy(struct sg_scene *scene, sg_font font);
SG_API bool sg_font_exists(const struct sg_scene *scene, sg_font font);

/* Font fallback: where a character is missing from a font, text nodes of
 * that font draw it from the first font that has it among, in order:
 *  - the fonts added with sg_font_add_fallback(), each at its own size;
 *  - where sg_font_set_system_fallback() enabled it, the system's fonts as
 *    fontconfig ranks them for the font's family (the first that covers the
 *    character, loaded at the font's pixel size when first needed, at most
 *    SG_FONT_MAX_SYSTEM_FALLBACKS of them per font, freed with the font).
 * A character no font has draws the .notdef glyph of the font of the text
 * before it. Spaces and punctuation the font has stay in the font; a
 * combining mark stays in the font of its base character. A fallback's own
 * fallbacks are not consulted. Text nodes keep their glyphs until their
 * string changes. */
#define SG_FONT_MAX_FALLBACKS 16
#define SG_FONT_MAX_SYSTEM_FALLBACKS 8
/* Appends fallback to font's list (at most SG_FONT_MAX_FALLBACKS; a font is
 * not its own fallback, nor twice another's). A destroyed fallback is
 * skipped. */
SG_API sg_result sg_font_add_fallback(struct sg_scene *scene, sg_font font, sg_font fallback);
/* Turns fontconfig's fallback for font on or off (off by default, so that
 * what a scene draws depends on no font installed on the machine).
 * SG_ERR_UNSUPPORTED where libsg was built without fontconfig. */
SG_API sg_result sg_font_set_system_fallback(struct sg_scene *scene, sg_font font, bool enabled);

/* The most combining marks one character may carry in a text node's string
 * (sg_node_new_text). Unicode's stream-safe text format (UAX #15) allows 30
 * non-starters in a row; stacked marks beyond a few draw over each other. */
#define SG_TEXT_MAX_MARKS 64

enum sg_text_align { SG_TEXT_ALIGN_LEFT = 0, SG_TEXT_ALIGN_CENTER, SG_TEXT_ALIGN_RIGHT };

struct sg_text_desc {
	const char *name;          /* optional; copied */
	sg_font font;              /* required */
	const char *utf8;          /* the string; copied; NULL is "" */
	float color[4];            /* straight alpha in [0, 1]; all four 0 means opaque black */
	float max_width;           /* > 0: lines are broken at break opportunities (spaces,
	                            * after hyphens, between ideographs) to fit; a word wider
	                            * than it stands alone on its line. 0: only at newlines */
	int max_lines;             /* > 0: at most this many lines; see below. 0: any */
	enum sg_text_align align;  /* of each line within the text box */
	float line_height;         /* baseline to baseline in pixels; 0: the font's own */
	float position[3];         /* translation applied inside the parent */
};

/* Bidirectional text: where libsg has FriBidi (meson option 'bidi'), each
 * paragraph is resolved by UAX #9 (its direction from its first strong
 * character) and each line's runs are drawn in visual order; without, a
 * paragraph has one direction. */

/* Ellipsis: with max_lines > 0, where text is left out after the last line
 * shown, that line takes as much of the rest of its paragraph as fits
 * max_width with an ellipsis after it (U+2026 from the font or a fallback,
 * else "..."), cut at a cluster boundary with trailing spaces dropped; and
 * a line wider than max_width (a word longer than the box) is cut the same
 * way. With max_width 0, the ellipsis follows the last line whole. Right to
 * left, the ellipsis is on the left. The extent counts the lines shown. */

/* A text node (sg_node_get_kind() says SG_NODE_TEXT). Its colour is a
 * model's colour: sg_model_set_color() / sg_model_get_color() apply to it;
 * sg_model_set_mesh() and sg_model_set_texture() refuse it, and
 * sg_model_set_position() moves it. Invalid UTF-8: SG_ERR_FORMAT naming the
 * byte offset. Characters the font lacks come from its fallbacks (above),
 * or draw its .notdef glyph. A node draws
 * from one atlas page: a string whose glyphs cannot all fit one empty page
 * (thousands of distinct glyphs at large sizes) is refused with SG_ERR_LIMIT,
 * and so is a glyph larger than a page (1022 x 1022 pixels), found from its
 * outline before it is rendered. A character followed by more than
 * SG_TEXT_MAX_MARKS combining marks (or joiners, emoji modifiers, tags: what
 * continues its cluster) is refused with SG_ERR_LIMIT naming its byte offset:
 * shaping time grows with the square of a cluster's marks.
 * The empty string (or one of spaces) draws nothing and is never picked.
 * Returns SG_NODE_NONE on failure. */
SG_API sg_node sg_node_new_text_sized(struct sg_scene *scene, const struct sg_text_desc *desc,
                                      size_t size);
#define sg_node_new_text(...) sg_node_new_text_sized(__VA_ARGS__, sizeof(struct sg_text_desc))
/* Replaces the string (copied; NULL is ""), shaped and laid out again with
 * the node's font, max_width, max_lines, align and line_height. On failure nothing
 * changes. A string equal to the current one changes nothing. */
SG_API sg_result sg_text_set_string(struct sg_scene *scene, sg_node node, const char *utf8);
/* The current string; NULL for a node that is not a live text node. Valid
 * until the string changes or the node is destroyed. */
SG_API const char *sg_text_get_string(const struct sg_scene *scene, sg_node node);

struct sg_text_extent {
	float width;  /* of the widest line, by advances (pen positions) */
	float height; /* lines * line height */
	int lines;    /* 0 for "" */
	float ascent, descent; /* of the font, in pixels; descent is positive below the baseline */
};
SG_API sg_result sg_text_get_extent_sized(const struct sg_scene *scene, sg_node node,
                                          struct sg_text_extent *extent, size_t size);
#define sg_text_get_extent(...) sg_text_get_extent_sized(__VA_ARGS__, sizeof(struct sg_text_extent))

#ifdef __cplusplus
}
#endif

#endif
