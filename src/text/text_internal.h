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

/* A system font loaded for a font's fallback (fallback.c); font is all
 * zero where it could not be opened, so that it is not tried again. */
struct sg_system_font {
	sg_font font;
	char *file; /* fontconfig's FC_FILE, and the face's index in it */
	int face_index;
};

/* A font's fallbacks (sg/text.h, fallback.c). */
struct sg_font_fallbacks {
	sg_font added[SG_FONT_MAX_FALLBACKS];
	size_t added_count;
	bool system; /* sg_font_set_system_fallback */
	/* fontconfig's fonts ranked for the family (FcFontSet *) and what they
	 * cover together (FcCharSet *), made at the first character the font
	 * and its added fallbacks lack; ranked: they were asked for. */
	void *ranked, *coverage;
	bool ranked_made;
	struct sg_system_font loaded[SG_FONT_MAX_SYSTEM_FALLBACKS];
	size_t loaded_count;
};

/* One face at one pixel size. */
struct sg_font_data {
	FT_Face face;                    /* NULL for a free slot */
	hb_font_t *hb_font;
	char *path; /* as given to sg_font_load, for messages */
	int pixel_size;
	float ascent, descent, height; /* pixels, from the face's size metrics */
	struct sg_font_fallbacks fallbacks;
	bool system_owned; /* loaded as another font's system fallback (freed with it) */
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
	int max_lines;
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

/* Loads the face_index-th face of path at pixel_size into the scene's font
 * pool (font.c; sg_font_load is this with face 0). */
sg_font sg_text_font_open(struct sg_scene *scene, const char *path, int face_index,
                          int pixel_size);
/* Frees a font's slot and what it holds, the system fonts loaded for its
 * fallback included (font.c). */
void sg_text_font_free(struct sg_text_state *state, uint32_t index);

/* The font a character c is drawn from in text of font primary: primary
 * when it has c, else current (the font of the text before) when that has
 * it, else the first fallback that has it (fallback.c), loading a system
 * font where needed; else current. Fails only when a system font cannot be
 * loaded for want of memory. */
sg_result sg_text_font_for(struct sg_scene *scene, sg_font primary, sg_font current, uint32_t c,
                           sg_font *font);
/* Frees fontconfig's ranking of fallbacks (the loaded fonts are the pool's). */
void sg_text_fallbacks_finish(struct sg_font_fallbacks *fallbacks);

/* Finds or rasterises every glyph of layout on one page, starting a new page
 * when the current one cannot hold them all; *page is its index, SIZE_MAX when
 * no glyph has pixels. SG_ERR_LIMIT when they cannot fit one empty page, or
 * when one glyph is larger than a page (found from its outline before
 * FreeType renders it, so a huge outline costs no bitmap). */
sg_result sg_atlas_place(struct sg_scene *scene, struct sg_text_state *state,
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
