/* Internal: the text layer's per-scene state (fonts and atlas pages) and a
 * text node's record. src/text/ includes it, and tests/test_text.c, which
 * looks at atlas pages. */
#ifndef SG_TEXT_INTERNAL_H
#define SG_TEXT_INTERNAL_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/text.h>

#include "../graph/pool.h"
#include "../graph/scene_internal.h"
#include "budget.h"
#include "layout.h"

/* One face at one pixel size. */
struct sg_font_data {
	FT_Face face;                    /* NULL for a free slot */
	hb_font_t *hb_font;
	char *path; /* as given to sg_font_load, for messages */
	int pixel_size;
	float ascent, descent, height; /* pixels, from the face's size metrics */
};

/* A glyph of a font rasterised on a page; width 0 for one without pixels (a space). */
struct sg_atlas_glyph {
	uint32_t font_index, font_generation, glyph; /* the key; font_generation 0: empty entry */
	uint16_t x, y, width, height;                /* in the page */
	int16_t left, top;                           /* FreeType's bitmap_left and bitmap_top */
};

struct sg_atlas_shelf {
	int y, height, x; /* x: where the next glyph of the shelf goes */
};

/* A 1024 x 1024 texture of the scene. Glyphs are never removed from a page: a
 * page is destroyed whole when no text node uses it and it is not the page
 * new glyphs go to. */
struct sg_atlas_page {
	sg_texture texture; /* all zero: a free page slot */
	uint32_t users;     /* text nodes drawing from it */
	struct sg_atlas_shelf *shelves;
	size_t shelf_count, shelf_capacity;
	int bottom; /* y below the last shelf */
	/* Open addressing, linear probing, keyed by (font, glyph); capacity a power of 2. */
	struct sg_atlas_glyph *glyphs;
	size_t glyph_count, glyph_capacity;
};

struct sg_text_state {
	FT_Library library;
	struct sg_pool font_pool;
	struct sg_font_data *fonts;
	struct sg_atlas_page *pages;
	size_t page_count, page_capacity;
	size_t current_page; /* where new glyphs go; SIZE_MAX before the first */
	size_t live_pages;   /* pages with a texture */
	uint64_t page_budget; /* bytes the live pages may take (budget.h) */
	uint8_t *scratch;    /* RGBA8 of the glyph being uploaded */
	size_t scratch_size;
};

/* A text node's record (sg_model_data.text). */
struct sg_text {
	sg_font font;
	char *utf8; /* NUL-terminated copy */
	float max_width, line_height;
	enum sg_text_align align;
	size_t page; /* SIZE_MAX: no page (no visible glyph) */
	struct sg_text_layout layout;
};

#define SG_ATLAS_SIDE 1024

/* The scene's text state, made (with the scene's hooks) on first use; NULL with
 * a message when out of memory, or FreeType and HarfBuzz cannot be loaded
 * (SG_ERR_UNSUPPORTED) or FreeType cannot start. */
struct sg_text_state *sg_text_state_get(struct sg_scene *scene);
/* The live font of handle, or NULL with a message naming function. */
struct sg_font_data *sg_text_font(const struct sg_scene *scene, sg_font font, const char *function);

/* Finds or rasterises every glyph of layout on one page, starting a new page
 * when the current one cannot hold them all; *page is its index, SIZE_MAX when
 * no glyph has pixels. SG_ERR_LIMIT when they cannot fit one empty page, or
 * when one glyph is larger than a page (found from its outline before
 * FreeType renders it, so a huge outline costs no bitmap). */
sg_result sg_atlas_place(struct sg_scene *scene, struct sg_text_state *state, sg_font font,
                         const struct sg_text_layout *layout, size_t *page);
/* The cached glyph on page, or NULL. */
const struct sg_atlas_glyph *sg_atlas_find(const struct sg_atlas_page *page, sg_font font,
                                           uint32_t glyph);
/* A text node stops or starts drawing from page: an unused page that is not
 * the current one is destroyed. */
void sg_atlas_use(struct sg_scene *scene, struct sg_text_state *state, size_t page);
void sg_atlas_release(struct sg_scene *scene, struct sg_text_state *state, size_t page);
/* Frees the pages' bookkeeping (the scene frees their textures). */
void sg_atlas_finish(struct sg_text_state *state);

#endif
